package rsp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Version is the protocol version rypsok speaks.
const Version = "0.1"

// The hooks of the protocol.
const (
	HookChunk    = "on_chunk"
	HookRetrieve = "on_retrieve"
	HookResponse = "on_response"
)

// knownHook reports whether h is one of the three hooks of RSP 0.1.
func knownHook(h string) bool {
	return h == HookChunk || h == HookRetrieve || h == HookResponse
}

// Verdict is a plugin's answer word, and the final verdict of a Result.
type Verdict string

// The four verdicts, from least to most strict.
const (
	Allow  Verdict = "ALLOW"
	Flag   Verdict = "FLAG"
	Redact Verdict = "REDACT"
	Block  Verdict = "BLOCK"
)

// rank orders verdicts: ALLOW < FLAG < REDACT < BLOCK; 0 for an unknown word.
func (v Verdict) rank() int {
	switch v {
	case Allow:
		return 1
	case Flag:
		return 2
	case Redact:
		return 3
	case Block:
		return 4
	}
	return 0
}

// Severity is the severity of a FLAG or a REDACT.
type Severity string

// The four severities, from lowest to highest.
const (
	Low      Severity = "low"
	Medium   Severity = "medium"
	High     Severity = "high"
	Critical Severity = "critical"
)

// rank orders severities; 0 for an unknown word or none.
func (s Severity) rank() int {
	switch s {
	case Low:
		return 1
	case Medium:
		return 2
	case High:
		return 3
	case Critical:
		return 4
	}
	return 0
}

// maxSeverity returns the higher of a and b.
func maxSeverity(a, b Severity) Severity {
	if b.rank() > a.rank() {
		return b
	}
	return a
}

// Class is a failure class: what went wrong with one plugin call.
type Class string

// The failure classes. Each is named in the logs and in answer details.
const (
	FailSpawn     Class = "spawn"     // the process could not be started
	FailExit      Class = "exit"      // non-zero exit status or killed by a signal
	FailTimeout   Class = "timeout"   // the call's time ran out; the group was killed
	FailMalformed Class = "malformed" // not exactly one JSON object, unknown verdict, missing field
	FailOversize  Class = "oversize"  // stdout beyond the answer cap
	FailBadSpan   Class = "bad_span"  // a span out of range, inverted, or inside a character
	FailHandshake Class = "handshake" // the handshake failed
	// FailTooLarge is content larger than the plugin takes inline, for a
	// plugin that does not read content_ref: the plugin never receives it.
	FailTooLarge Class = "too_large"
)

// Span is a byte range [Start, End) of the UTF-8 content and the kind of
// what it covers.
type Span struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Type  string `json:"type"`
}

// Answer is a plugin's answer to one call. Which fields matter depends on
// Verdict: FLAG carries Severity and Reason, REDACT Spans, Replacement and
// Severity, BLOCK Reason. An empty Severity ranks lowest.
type Answer struct {
	Verdict     Verdict
	Severity    Severity
	Reason      string
	Spans       []Span
	Replacement string

	// unknownSeverity is a severity word the host did not know (ranked
	// lowest, logged once per plugin).
	unknownSeverity string
}

// MarshalJSON writes exactly the fields the protocol defines for a's verdict.
func (a Answer) MarshalJSON() ([]byte, error) {
	type flag struct {
		Verdict  Verdict  `json:"verdict"`
		Severity Severity `json:"severity"`
		Reason   string   `json:"reason"`
	}
	type redact struct {
		Verdict     Verdict  `json:"verdict"`
		Spans       []Span   `json:"spans"`
		Replacement string   `json:"replacement"`
		Severity    Severity `json:"severity"`
	}
	type block struct {
		Verdict Verdict `json:"verdict"`
		Reason  string  `json:"reason"`
	}
	switch a.Verdict {
	case Flag:
		return json.Marshal(flag{a.Verdict, a.Severity, a.Reason})
	case Redact:
		spans := a.Spans
		if spans == nil {
			spans = []Span{}
		}
		return json.Marshal(redact{a.Verdict, spans, a.Replacement, a.Severity})
	case Block:
		return json.Marshal(block{a.Verdict, a.Reason})
	}
	return json.Marshal(struct {
		Verdict Verdict `json:"verdict"`
	}{a.Verdict})
}

// hostInfo names the host in a handshake request.
type hostInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// hostLimits are the host's limits, sent in the handshake request so that
// a plugin can learn them: inline content at most InlineMaxBytes, an
// answer at most MaxAnswerBytes.
type hostLimits struct {
	InlineMaxBytes int64 `json:"inline_max_bytes"`
	MaxAnswerBytes int   `json:"max_answer_bytes"`
}

// handshakeRequest is the first message a plugin receives. It carries the
// reference's "hook":"handshake" and rypsok's "type":"handshake", so that
// plugins of either dialect recognise it.
type handshakeRequest struct {
	RSPVersion string     `json:"rsp_version"`
	Hook       string     `json:"hook"`
	Type       string     `json:"type"`
	Host       hostInfo   `json:"host"`
	Hooks      []string   `json:"hooks"`
	Limits     hostLimits `json:"limits"`
}

// hookHandshake is the hook word of the handshake request (the
// reference's dialect).
const hookHandshake = "handshake"

// contentRef points at content passed by reference.
type contentRef struct {
	Path   string `json:"path"`
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
}

// callRequest is the message of one call. Type "call" is rypsok's
// dialect; a plugin of the reference's reads the hook alone.
type callRequest struct {
	RSPVersion string         `json:"rsp_version"`
	Type       string         `json:"type"`
	Hook       string         `json:"hook"`
	Content    *string        `json:"content,omitempty"`
	ContentRef *contentRef    `json:"content_ref,omitempty"`
	Metadata   map[string]any `json:"metadata"`
}

// Handshake is what a plugin declares about itself. InlineThreshold is
// the largest content in bytes it takes inline (written both as the
// reference's max_inline_bytes and as inline_threshold); a negative value
// means it declared none (the host's cap applies). ContentRef declares
// that the plugin reads content passed by reference (content_ref): a host
// passes content by reference to no other plugin.
type Handshake struct {
	Name            string
	Version         string
	Hooks           []string
	Deterministic   bool
	InlineThreshold int64
	ContentRef      bool
}

// MarshalJSON writes the handshake answer; a negative InlineThreshold and
// a false ContentRef are left out.
func (h Handshake) MarshalJSON() ([]byte, error) {
	hooks := h.Hooks
	if hooks == nil {
		hooks = []string{}
	}
	m := struct {
		RSPVersion      string   `json:"rsp_version"`
		Name            string   `json:"name"`
		Version         string   `json:"version"`
		Hooks           []string `json:"hooks"`
		Deterministic   bool     `json:"deterministic"`
		MaxInlineBytes  *int64   `json:"max_inline_bytes,omitempty"`
		InlineThreshold *int64   `json:"inline_threshold,omitempty"`
		ContentRef      bool     `json:"content_ref,omitempty"`
	}{Version, h.Name, h.Version, hooks, h.Deterministic, nil, nil, h.ContentRef}
	if h.InlineThreshold >= 0 {
		t := h.InlineThreshold
		m.MaxInlineBytes, m.InlineThreshold = &t, &t
	}
	return json.Marshal(m)
}

// marshal encodes v without HTML escaping and without a trailing newline.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only the host's own types are encoded here; they always encode.
		panic("rsp: encoding a message: " + err.Error())
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// oneObject checks that b is exactly one strict JSON object (strictObject),
// with only JSON whitespace around it, and returns it.
func oneObject(b []byte) (json.RawMessage, error) {
	if err := strictObject(b); err != nil {
		return nil, err
	}
	return b, nil
}

// parseHandshake reads a handshake answer; see readHandshake.
func parseHandshake(b []byte) (Handshake, bool) {
	h, err := readHandshake(b)
	return h, err == nil
}

// readHandshake reads a handshake answer. The rsp_version must have major
// version 0; name, version and hooks are required. The inline limit is
// the smaller of max_inline_bytes (the reference's) and inline_threshold
// (rypsok's) when both are given. The error names the field that is
// wrong.
func readHandshake(b []byte) (Handshake, error) {
	raw, err := oneObject(b)
	if err != nil {
		return Handshake{}, err
	}
	var m struct {
		RSPVersion      *string   `json:"rsp_version"`
		Name            *string   `json:"name"`
		Version         *string   `json:"version"`
		Hooks           *[]string `json:"hooks"`
		Deterministic   *bool     `json:"deterministic"`
		MaxInlineBytes  *int64    `json:"max_inline_bytes"`
		InlineThreshold *int64    `json:"inline_threshold"`
		ContentRef      *bool     `json:"content_ref"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return Handshake{}, fieldError(err)
	}
	switch {
	case m.RSPVersion == nil:
		return Handshake{}, errors.New("rsp_version is missing")
	case m.Name == nil:
		return Handshake{}, errors.New("name is missing")
	case m.Version == nil:
		return Handshake{}, errors.New("version is missing")
	case m.Hooks == nil:
		return Handshake{}, errors.New("hooks is missing (an array of hook names)")
	}
	if major, _, _ := strings.Cut(*m.RSPVersion, "."); major != "0" {
		return Handshake{}, errors.New("rsp_version is not 0.x")
	}
	h := Handshake{Name: bound(*m.Name), Version: bound(*m.Version), InlineThreshold: -1}
	if h.Name == "" || h.Version == "" {
		return Handshake{}, errors.New("name and version must not be empty")
	}
	for _, k := range *m.Hooks {
		if knownHook(k) && !contains(h.Hooks, k) {
			h.Hooks = append(h.Hooks, k)
		}
	}
	if m.Deterministic != nil {
		h.Deterministic = *m.Deterministic
	}
	if m.ContentRef != nil {
		h.ContentRef = *m.ContentRef
	}
	for _, limit := range []*int64{m.MaxInlineBytes, m.InlineThreshold} {
		if limit == nil {
			continue
		}
		if *limit < 0 {
			return Handshake{}, errors.New("max_inline_bytes and inline_threshold must not be negative")
		}
		if h.InlineThreshold < 0 || *limit < h.InlineThreshold {
			h.InlineThreshold = *limit
		}
	}
	return h, nil
}

// fieldError names the field of a decoding error: the JSON is strict by
// now, so what is left is a field of the wrong type.
func fieldError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("%s is a JSON %s, not the type the protocol gives it", te.Field, te.Value)
	}
	return errors.New("a field has the wrong type")
}

// parseAnswer reads a call answer for content; see readAnswer.
func parseAnswer(b []byte, content string) (Answer, Class) {
	a, class, _ := readAnswer(b, content)
	return a, class
}

// readAnswer reads a call answer for content and validates its spans.
// Strings are bounded and cleaned. As the reference defines them,
// severity is optional on FLAG and REDACT and reason on FLAG and BLOCK; a
// missing or unknown severity ranks lowest (Answer.Severity is empty; an
// unknown word is kept, bounded, in Answer.unknownSeverity). The string
// says what is wrong, naming the field.
func readAnswer(b []byte, content string) (Answer, Class, string) {
	raw, err := oneObject(b)
	if err != nil {
		return Answer{}, FailMalformed, err.Error()
	}
	var m struct {
		Verdict     *string `json:"verdict"`
		Severity    *string `json:"severity"`
		Reason      *string `json:"reason"`
		Replacement *string `json:"replacement"`
		Spans       *[]struct {
			Start *int64  `json:"start"`
			End   *int64  `json:"end"`
			Type  *string `json:"type"`
		} `json:"spans"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return Answer{}, FailMalformed, fieldError(err).Error()
	}
	if m.Verdict == nil {
		return Answer{}, FailMalformed, "verdict is missing"
	}
	a := Answer{Verdict: Verdict(*m.Verdict)}
	if m.Reason != nil && (a.Verdict == Flag || a.Verdict == Block) {
		a.Reason = bound(*m.Reason)
	}
	if m.Severity != nil && (a.Verdict == Flag || a.Verdict == Redact) {
		if s := Severity(*m.Severity); s.rank() > 0 {
			a.Severity = s
		} else if *m.Severity != "" {
			a.unknownSeverity = bound(*m.Severity)
		}
	}
	switch a.Verdict {
	case Allow, Flag, Block:
	case Redact:
		if m.Replacement == nil {
			return Answer{}, FailMalformed, "REDACT without replacement"
		}
		if m.Spans == nil || len(*m.Spans) == 0 {
			return Answer{}, FailMalformed, "REDACT without spans (a non-empty array)"
		}
		a.Replacement = bound(*m.Replacement)
		for i, s := range *m.Spans {
			if s.Start == nil || s.End == nil || s.Type == nil {
				return Answer{}, FailMalformed, fmt.Sprintf("spans[%d] lacks start, end or type", i)
			}
			if !validSpan(content, *s.Start, *s.End) {
				return Answer{}, FailBadSpan, fmt.Sprintf("spans[%d] [%d, %d) is out of range, inverted or inside a character of the %d-byte content", i, *s.Start, *s.End, len(content))
			}
			a.Spans = append(a.Spans, Span{Start: int(*s.Start), End: int(*s.End), Type: bound(*s.Type)})
		}
	default:
		return Answer{}, FailMalformed, fmt.Sprintf("verdict %q is not ALLOW, FLAG, REDACT or BLOCK", bound(*m.Verdict))
	}
	return a, "", ""
}

// validSpan reports whether [start, end) is a span of content: in range,
// not inverted, and with both ends on a UTF-8 character boundary.
func validSpan(content string, start, end int64) bool {
	n := int64(len(content))
	if start < 0 || end < start || end > n {
		return false
	}
	return boundary(content, start) && boundary(content, end)
}

// boundary reports whether byte offset i of s is not inside a multi-byte
// character.
func boundary(s string, i int64) bool {
	if i == 0 || i == int64(len(s)) {
		return true
	}
	return s[i]&0xC0 != 0x80
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
