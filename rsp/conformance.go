package rsp

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// conformanceCap is the host cap the kit assumes for inline content.
const conformanceCap = 1 << 20

// Conformance checks the plugin started by argv against RSP 0.1 as
// rypsok speaks it and writes one line per check to out, "PASS <check>"
// or "FAIL <check>: <why>". It returns true only when every check
// passed. The checks: the handshake is valid and the same on a second
// run; then for each declared hook, each of a set of contents (empty,
// ASCII, multi-byte UTF-8, CRLF, NUL, one byte over the threshold passed
// by reference, a request with unknown fields) is answered with exactly
// one valid verdict whose spans are valid, exit status 0, within the
// default timeout; a plugin that declares itself deterministic answers
// the same content the same way twice. This is `rypsok rsp conformance
// -- CMD ARGS…`.
func Conformance(ctx context.Context, argv []string, out io.Writer) bool {
	return conformance(ctx, argv, out, DefaultTimeout)
}

// conformanceCase is one content the kit sends at each hook.
type conformanceCase struct {
	name    string
	content string
	byRef   bool
	unknown bool
}

func conformance(ctx context.Context, argv []string, out io.Writer, timeout time.Duration) bool {
	ok := true
	pass := func(check string) { fmt.Fprintf(out, "PASS %s\n", check) }
	fail := func(check, why string) {
		ok = false
		fmt.Fprintf(out, "FAIL %s: %s\n", check, why)
	}
	if len(argv) == 0 || argv[0] == "" {
		fail("command", "no command given")
		return false
	}
	env := environ(nil, nil)
	exec := func(input []byte, fd3 *os.File) outcome {
		c, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return run(c, proc{argv: argv, env: env, input: input, fd3: fd3, maxOut: 1 << 20, maxErr: StderrLimitBytes})
	}
	hsReq := marshal(handshakeRequest{RSPVersion: Version, Type: "handshake", Host: hostInfo{Name: "rypsok-conformance", Version: Version},
		Hooks: []string{HookChunk, HookRetrieve, HookResponse}})
	handshake := func() (Handshake, string) {
		o := exec(hsReq, nil)
		if o.class != "" {
			return Handshake{}, "the process failed: " + string(o.class)
		}
		hs, good := parseHandshake(o.stdout)
		if !good {
			return Handshake{}, "not exactly one JSON object with rsp_version 0.x, non-empty name and version, and hooks"
		}
		return hs, ""
	}
	hs, why := handshake()
	if why != "" {
		fail("handshake", why)
		return false
	}
	pass(fmt.Sprintf("handshake: name %q version %q hooks %v deterministic %v", hs.Name, hs.Version, hs.Hooks, hs.Deterministic))
	if hs2, why := handshake(); why != "" {
		fail("handshake stable", "second run: "+why)
	} else if hs2.Name != hs.Name || hs2.Version != hs.Version || !slices.Equal(hs2.Hooks, hs.Hooks) ||
		hs2.Deterministic != hs.Deterministic || hs2.InlineThreshold != hs.InlineThreshold {
		fail("handshake stable", "the second handshake differs from the first")
	} else {
		pass("handshake stable")
	}
	if len(hs.Hooks) == 0 {
		fail("hooks", "the plugin declares none of on_chunk, on_retrieve, on_response")
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
		{name: "by_reference", content: overThreshold(threshold), byRef: true},
		{name: "unknown_fields", content: "a request with fields this plugin does not know", unknown: true},
	}
	call := func(hook string, c conformanceCase) (Answer, string) {
		inline := !c.byRef && int64(len(c.content)) <= threshold && threshold > 0
		req := map[string]any{"rsp_version": Version, "type": "call", "hook": hook,
			"metadata": map[string]any{"tool": ToolWebFetch, "url": "https://example.org/page", "source": "conformance"}}
		if c.unknown {
			req["rsp_future_field"] = map[string]any{"nested": []any{1, "two"}}
			req["metadata"].(map[string]any)["unknown_key"] = true
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
		o := exec(marshal(req), fd3)
		if o.class != "" {
			return Answer{}, "failure " + string(o.class)
		}
		a, class := parseAnswer(o.stdout, c.content)
		if class != "" {
			return Answer{}, "failure " + string(class)
		}
		return a, ""
	}
	for _, hook := range hs.Hooks {
		for _, c := range cases {
			check := hook + " " + c.name
			if a, why := call(hook, c); why != "" {
				fail(check, why)
			} else {
				pass(check + ": " + string(a.Verdict))
			}
		}
		if hs.Deterministic {
			check := hook + " deterministic"
			a1, why1 := call(hook, cases[1])
			a2, why2 := call(hook, cases[1])
			switch {
			case why1 != "" || why2 != "":
				fail(check, "a call failed")
			case !sameAnswer(a1, a2):
				fail(check, "declared deterministic, but the same content got two different answers")
			default:
				pass(check)
			}
		}
	}
	return ok
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
