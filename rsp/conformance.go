package rsp

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// conformanceCap is the host cap the kit assumes for inline content.
const conformanceCap = 1 << 20

// Conformance checks the plugin started by argv against RSP 0.1 as
// rypsok speaks it and writes one line per check to out, "PASS <check>"
// or "FAIL <check>: <why>". It returns true only when every check
// passed. The checks: the handshake is valid in both dialects (rypsok's
// request and the reference's {"hook":"handshake"}) and the same on a
// second run; then for each declared hook, each of a set of contents
// (empty, ASCII, multi-byte UTF-8, CRLF, NUL, exactly the inline limit, a
// request with unknown fields, a call without type, a call without
// metadata, and one byte over the limit through content_ref when the
// plugin declares it reads references) is answered with exactly one
// valid verdict whose spans are valid, exit status 0, within the default
// timeout; a plugin that declares itself deterministic answers the same
// content the same way twice; and requests that are not strict JSON are
// refused (no answer, or a status other than 0) while strict ones at the
// edges of the grammar are answered. A failure names the field that is
// wrong and shows the first bytes of the plugin's stderr. This is
// `rypsok rsp conformance -- CMD ARGS…`.
func Conformance(ctx context.Context, argv []string, out io.Writer) bool {
	return conformance(ctx, argv, out, DefaultTimeout, "")
}

// ConformanceRole is Conformance plus the cases of a role: RoleCredentials
// for plugins that detect credentials.
func ConformanceRole(ctx context.Context, role string, argv []string, out io.Writer) bool {
	return conformance(ctx, argv, out, DefaultTimeout, role)
}

// RoleCredentials is the kit's role for plugins that detect credentials:
// known credentials after multi-byte text must be found at their byte
// offsets.
const RoleCredentials = "credentials"

// conformanceCase is one content the kit sends at each hook.
type conformanceCase struct {
	name       string
	content    string
	byRef      bool
	unknown    bool
	noType     bool
	noMetadata bool
}

// kit is one run of the conformance kit.
type kit struct {
	ctx     context.Context
	argv    []string
	env     []string
	timeout time.Duration
	out     io.Writer
	ok      bool
}

func (k *kit) pass(check string) { fmt.Fprintf(k.out, "PASS %s\n", check) }

func (k *kit) fail(check, why string) {
	k.ok = false
	fmt.Fprintf(k.out, "FAIL %s: %s\n", check, why)
}

// exec runs the plugin once on input.
func (k *kit) exec(input []byte, fd3 *os.File) outcome {
	c, cancel := context.WithTimeout(k.ctx, k.timeout)
	defer cancel()
	return run(c, proc{argv: k.argv, env: k.env, input: input, fd3: fd3, maxOut: 1 << 20, maxErr: StderrLimitBytes, timeout: k.timeout})
}

// failed says why a call failed, with the first bytes of its stderr.
func failed(o outcome, class Class, why string) string { return "failure " + classWhy(o, class, why) }

// classWhy names a failure's class, what was wrong and the first bytes
// of the plugin's stderr.
func classWhy(o outcome, class Class, why string) string {
	s := string(class)
	if why != "" {
		s += " (" + why + ")"
	}
	if len(o.stderr) > 0 {
		s += "; stderr: " + strconv.Quote(bound(string(o.stderr)))
	}
	return s
}

func conformance(ctx context.Context, argv []string, out io.Writer, timeout time.Duration, role string) bool {
	k := &kit{ctx: ctx, argv: argv, env: environ(nil, nil), timeout: timeout, out: out, ok: true}
	if len(argv) == 0 || argv[0] == "" {
		k.fail("command", "no command given")
		return false
	}
	host := &Host{s: Settings{InlineMaxBytes: conformanceCap, MaxAnswerBytes: 1 << 20}}
	hsReq := marshal(host.handshakeRequest("rypsok-conformance", Version, []string{HookChunk, HookRetrieve, HookResponse}))
	handshake := func(req []byte) (Handshake, string) {
		o := k.exec(req, nil)
		if o.class != "" {
			return Handshake{}, "the process failed: " + classWhy(o, o.class, "")
		}
		hs, err := readHandshake(o.stdout)
		if err != nil {
			return Handshake{}, "not a valid rsp 0.x handshake answer: " + err.Error()
		}
		return hs, ""
	}
	hs, why := handshake(hsReq)
	if why != "" {
		k.fail("handshake", why)
		return false
	}
	k.pass(fmt.Sprintf("handshake: name %q version %q hooks %v deterministic %v content_ref %v", hs.Name, hs.Version, hs.Hooks, hs.Deterministic, hs.ContentRef))
	same := func(check string, req []byte) {
		if hs2, why := handshake(req); why != "" {
			k.fail(check, why)
		} else if hs2.Name != hs.Name || hs2.Version != hs.Version || !slices.Equal(hs2.Hooks, hs.Hooks) ||
			hs2.Deterministic != hs.Deterministic || hs2.InlineThreshold != hs.InlineThreshold || hs2.ContentRef != hs.ContentRef {
			k.fail(check, "this handshake differs from the first")
		} else {
			k.pass(check)
		}
	}
	same("handshake stable", hsReq)
	same("handshake reference dialect", []byte(`{"rsp_version":"0.1","hook":"handshake"}`))
	if len(hs.Hooks) == 0 {
		k.fail("hooks", "the plugin declares none of on_chunk, on_retrieve, on_response")
		return false
	}
	threshold := int64(conformanceCap)
	if hs.InlineThreshold >= 0 && hs.InlineThreshold < threshold {
		threshold = hs.InlineThreshold
	}
	cases := []conformanceCase{
		{name: "empty", content: ""},
		{name: "ascii", content: "The quick brown fox jumps over the lazy dog. Contact: ops@example.org"},
		{name: "multibyte", content: "naïve café — 日本語のテキスト 😀 Ωmega"},
		{name: "crlf", content: "line one\r\nline two\r\n\r\nline four"},
		{name: "nul", content: "before\x00after\x00"},
		{name: "unknown_fields", content: "a request with fields this plugin does not know", unknown: true},
		{name: "no_type", content: "a call in the reference's dialect, without type", noType: true},
		{name: "no_metadata", content: "a call without metadata", noMetadata: true},
	}
	if threshold > 0 {
		cases = append(cases, conformanceCase{name: "at_inline_limit", content: overThreshold(threshold - 1)})
	}
	if hs.ContentRef {
		cases = append(cases, conformanceCase{name: "by_reference", content: overThreshold(threshold), byRef: true})
	}
	for _, hook := range hs.Hooks {
		for _, c := range cases {
			check := hook + " " + c.name
			if a, why := k.call(hook, c, threshold); why != "" {
				k.fail(check, why)
			} else {
				k.pass(check + ": " + string(a.Verdict))
			}
		}
		if !hs.ContentRef {
			k.pass(fmt.Sprintf("%s by_reference: not declared; content over %d bytes never reaches this plugin", hook, threshold))
		}
		if hs.Deterministic {
			check := hook + " deterministic"
			a1, why1 := k.call(hook, cases[1], threshold)
			a2, why2 := k.call(hook, cases[1], threshold)
			switch {
			case why1 != "" || why2 != "":
				k.fail(check, "a call failed")
			case !sameAnswer(a1, a2):
				k.fail(check, "declared deterministic, but the same content got two different answers")
			default:
				k.pass(check)
			}
		}
	}
	k.strictJSON(hs.Hooks[0])
	if role == RoleCredentials {
		k.credentials(hs.Hooks[0], threshold)
	}
	return k.ok
}

// call sends c at hook and reads the answer.
func (k *kit) call(hook string, c conformanceCase, threshold int64) (Answer, string) {
	inline := !c.byRef && int64(len(c.content)) <= threshold
	req := map[string]any{"rsp_version": Version, "type": "call", "hook": hook,
		"metadata": map[string]any{"tool": ToolWebFetch, "url": "https://example.org/page", "source": "conformance"}}
	if c.unknown {
		req["rsp_future_field"] = map[string]any{"nested": []any{1, "two"}}
		req["metadata"].(map[string]any)["unknown_key"] = true
	}
	if c.noType {
		delete(req, "type")
	}
	if c.noMetadata {
		delete(req, "metadata")
	}
	var fd3 *os.File
	if inline {
		req["content"] = c.content
	} else {
		path, f, release, err := newRef(c.content)
		if err != nil {
			return Answer{}, "the kit could not pass content by reference: " + err.Error()
		}
		defer release()
		fd3 = f
		req["content_ref"] = contentRef{Path: path, Length: int64(len(c.content))}
	}
	return k.answer(marshal(req), fd3, c.content)
}

// answer runs the plugin on req and reads its answer for content.
func (k *kit) answer(req []byte, fd3 *os.File, content string) (Answer, string) {
	o := k.exec(req, fd3)
	if o.class != "" {
		return Answer{}, failed(o, o.class, "")
	}
	a, class, why := readAnswer(o.stdout, content)
	if class != "" {
		return Answer{}, failed(o, class, why)
	}
	return a, ""
}

// strictRequest is a request for the strict-JSON checks: raw bytes, and
// whether a plugin must refuse them.
type strictRequest struct {
	name   string
	raw    string
	refuse bool
}

// strictJSON sends requests at the edges of strict JSON: each that is not
// strict must be refused (no valid answer, or a status other than 0), and
// each that is must be answered.
func (k *kit) strictJSON(hook string) {
	head := `{"rsp_version":"0.1","hook":"` + hook + `",`
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	for _, r := range []strictRequest{
		{"repeated_content", head + `"content":"harmless","content":"a second content"}`, true},
		{"repeated_unread_key", head + `"content":"x","zz":1,"zz":2}`, true},
		{"repeated_key_by_escape", head + `"content":"x","\u0068ook":"on_chunk"}`, true},
		{"repeated_key_in_metadata", head + `"content":"x","metadata":{"k":1,"k":2}}`, true},
		{"lone_surrogate_escaped", head + `"content":"a\ud800b"}`, true},
		{"lone_surrogate_in_key", head + `"content":"x","\udc00":1}`, true},
		{"lone_surrogate_raw", head + `"content":"a` + "\xed\xa0\x80" + `b"}`, true},
		{"integer_beyond_2^53", head + `"content":"x","n":9007199254740992}`, true},
		{"negative_integer_beyond_2^53", head + `"content":"x","n":-9007199254740992}`, true},
		{"nan", head + `"content":"x","n":NaN}`, true},
		{"infinity", head + `"content":"x","n":Infinity}`, true},
		{"leading_zero", head + `"content":"x","n":01}`, true},
		{"byte_order_mark", "\ufeff" + head + `"content":"x"}`, true},
		{"deep_nesting", head + `"content":"x","n":` + deep + `}`, true},
		{"sibling_objects_repeat_a_key", head + `"content":"x","a":{"k":1},"b":{"k":2}}`, false},
		{"integers_at_the_edges", head + `"content":"x","lo":-9007199254740991,"hi":9007199254740991,"f":1.5e300}`, false},
		{"surrogate_pair_escaped", head + `"content":"\ud83d\ude00"}`, false},
	} {
		check := "strict_json " + r.name
		o := k.exec([]byte(r.raw), nil)
		_, class, why := readAnswer(o.stdout, "")
		answered := o.class == "" && class == ""
		switch {
		case r.refuse && answered:
			k.fail(check, "a request that is not strict JSON was answered; refuse it (exit with a status other than 0)")
		case !r.refuse && !answered && o.class != "":
			k.fail(check, "a strict request was refused: "+failed(o, o.class, ""))
		case !r.refuse && !answered:
			k.fail(check, "a strict request was refused: "+failed(o, class, why))
		default:
			k.pass(check)
		}
	}
}

// credentials checks the credentials role: each case has one known
// credential after multi-byte text; the answer must be BLOCK, or REDACT
// with a span covering exactly the credential's bytes.
func (k *kit) credentials(hook string, threshold int64) {
	for _, c := range []struct{ name, before, secret, after string }{
		{"aws_key_after_cjk", "密钥 ", "AKIALALEMEL33243OLIB", " 在后面"},
		{"aws_key_after_emoji_on_a_later_line", "😀 notes\nexport KEY=", "AKIALALEMEL33243OLIB", "\n"},
	} {
		check := "credentials " + c.name
		content := c.before + c.secret + c.after
		if int64(len(content)) > threshold {
			k.fail(check, "the plugin's inline limit is smaller than the case")
			continue
		}
		a, why := k.call(hook, conformanceCase{content: content}, threshold)
		if why != "" {
			k.fail(check, why)
			continue
		}
		start, end := len(c.before), len(c.before)+len(c.secret)
		switch {
		case a.Verdict == Block:
			k.pass(check + ": BLOCK")
		case a.Verdict != Redact:
			k.fail(check, fmt.Sprintf("verdict %s; a credential at bytes [%d, %d) must be redacted or blocked", a.Verdict, start, end))
		case !slices.ContainsFunc(a.Spans, func(s Span) bool { return s.Start == start && s.End == end }):
			k.fail(check, fmt.Sprintf("no span is [%d, %d), the credential's UTF-8 byte offsets (spans %v; character offsets would be [%d, %d))",
				start, end, a.Spans, utf8.RuneCountInString(c.before), utf8.RuneCountInString(c.before)+len(c.secret)))
		default:
			k.pass(check + ": REDACT")
		}
	}
}

func sameAnswer(a, b Answer) bool {
	return a.Verdict == b.Verdict && a.Severity == b.Severity && a.Replacement == b.Replacement && slices.Equal(a.Spans, b.Spans)
}

// overThreshold is valid UTF-8 content one byte longer than threshold,
// with a multi-byte character when it is long enough for one.
func overThreshold(threshold int64) string {
	if threshold >= 2 {
		return "é" + strings.Repeat("x", int(threshold-1))
	}
	return strings.Repeat("x", int(threshold+1))
}
