package rsp

import (
	"bytes"
	"encoding/json"
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
// Severity, BLOCK Reason.
type Answer struct {
	Verdict     Verdict
	Severity    Severity
	Reason      string
	Spans       []Span
	Replacement string
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

// handshakeRequest is the first message a plugin receives.
type handshakeRequest struct {
	RSPVersion string   `json:"rsp_version"`
	Type       string   `json:"type"`
	Host       hostInfo `json:"host"`
	Hooks      []string `json:"hooks"`
}

// contentRef points at content passed by reference.
type contentRef struct {
	Path   string `json:"path"`
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
}

// callRequest is the message of one call.
type callRequest struct {
	RSPVersion string         `json:"rsp_version"`
	Type       string         `json:"type"`
	Hook       string         `json:"hook"`
	Content    *string        `json:"content,omitempty"`
	ContentRef *contentRef    `json:"content_ref,omitempty"`
	Metadata   map[string]any `json:"metadata"`
}

// Handshake is what a plugin declares about itself. InlineThreshold is
// the largest content in bytes it takes inline; a negative value means it
// declared none (the host's cap applies).
type Handshake struct {
	Name            string
	Version         string
	Hooks           []string
	Deterministic   bool
	InlineThreshold int64
}

// MarshalJSON writes the handshake answer; a negative InlineThreshold is
// left out.
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
		InlineThreshold *int64   `json:"inline_threshold,omitempty"`
	}{Version, h.Name, h.Version, hooks, h.Deterministic, nil}
	if h.InlineThreshold >= 0 {
		t := h.InlineThreshold
		m.InlineThreshold = &t
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

// oneObject checks that b is exactly one JSON object, with only JSON
// whitespace around it, and returns it.
func oneObject(b []byte) (json.RawMessage, bool) {
	t := bytes.TrimLeft(b, " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, false
	}
	rest := t[dec.InputOffset():]
	if len(bytes.TrimLeft(rest, " \t\r\n")) != 0 {
		return nil, false
	}
	return raw, true
}

// parseHandshake reads a handshake answer. The rsp_version must have major
// version 0; name, version and hooks are required.
func parseHandshake(b []byte) (Handshake, bool) {
	raw, ok := oneObject(b)
	if !ok {
		return Handshake{}, false
	}
	var m struct {
		RSPVersion      *string   `json:"rsp_version"`
		Name            *string   `json:"name"`
		Version         *string   `json:"version"`
		Hooks           *[]string `json:"hooks"`
		Deterministic   *bool     `json:"deterministic"`
		InlineThreshold *int64    `json:"inline_threshold"`
	}
	if json.Unmarshal(raw, &m) != nil || m.RSPVersion == nil || m.Name == nil || m.Version == nil || m.Hooks == nil {
		return Handshake{}, false
	}
	major, _, _ := strings.Cut(*m.RSPVersion, ".")
	if major != "0" {
		return Handshake{}, false
	}
	h := Handshake{Name: bound(*m.Name), Version: bound(*m.Version), InlineThreshold: -1}
	if h.Name == "" || h.Version == "" {
		return Handshake{}, false
	}
	for _, k := range *m.Hooks {
		if knownHook(k) && !contains(h.Hooks, k) {
			h.Hooks = append(h.Hooks, k)
		}
	}
	if m.Deterministic != nil {
		h.Deterministic = *m.Deterministic
	}
	if m.InlineThreshold != nil {
		if *m.InlineThreshold < 0 {
			return Handshake{}, false
		}
		h.InlineThreshold = *m.InlineThreshold
	}
	return h, true
}

// parseAnswer reads a call answer for content and validates its spans.
// Strings are bounded and cleaned.
func parseAnswer(b []byte, content string) (Answer, Class) {
	raw, ok := oneObject(b)
	if !ok {
		return Answer{}, FailMalformed
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
	if json.Unmarshal(raw, &m) != nil || m.Verdict == nil {
		return Answer{}, FailMalformed
	}
	a := Answer{Verdict: Verdict(*m.Verdict)}
	severity := func() bool {
		if m.Severity == nil || Severity(*m.Severity).rank() == 0 {
			return false
		}
		a.Severity = Severity(*m.Severity)
		return true
	}
	switch a.Verdict {
	case Allow:
	case Flag:
		if !severity() || m.Reason == nil {
			return Answer{}, FailMalformed
		}
		a.Reason = bound(*m.Reason)
	case Block:
		if m.Reason == nil {
			return Answer{}, FailMalformed
		}
		a.Reason = bound(*m.Reason)
	case Redact:
		if !severity() || m.Replacement == nil || m.Spans == nil || len(*m.Spans) == 0 {
			return Answer{}, FailMalformed
		}
		a.Replacement = bound(*m.Replacement)
		for _, s := range *m.Spans {
			if s.Start == nil || s.End == nil || s.Type == nil {
				return Answer{}, FailMalformed
			}
			if !validSpan(content, *s.Start, *s.End) {
				return Answer{}, FailBadSpan
			}
			a.Spans = append(a.Spans, Span{Start: int(*s.Start), End: int(*s.End), Type: bound(*s.Type)})
		}
	default:
		return Answer{}, FailMalformed
	}
	return a, ""
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
