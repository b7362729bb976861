package rsp

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A plugin that does not declare content_ref never gets content by
// reference: content over its limit meets its on_error, and it is not
// even started for that item.
func TestByReferenceOnlyByAgreement_ContentOverTheLimitMeetsOnError(t *testing.T) {
	for name, args := range map[string][]string{
		"declared_no_references": {"-noref", "-threshold", "8"},
		"reference_dialect":      {"-ref", "-threshold", "8"},
	} {
		t.Run(name, func(t *testing.T) {
			rec := recordFile(t)
			spec := PluginSpec{Name: "p", Command: chaos(append(args, "-record", rec, "find", "secret")...)}
			h := newHost(t, spec)
			large := "a secret over eight bytes"
			if r := judgeOne(h, HookRetrieve, large); r.Verdict != Block || r.BlockedBy != "p" || r.Failure != FailTooLarge || r.Content != "" {
				t.Fatalf("on_error=block: %+v", r)
			}
			spec.OnError = OnErrorAllow
			if r := judgeOne(newHost(t, spec), HookRetrieve, large); r.Verdict != Allow || len(r.Failed) != 1 || r.Failed[0].Class != FailTooLarge {
				t.Fatalf("on_error=allow must record the failure: %+v", r)
			}
			if r := judgeOne(h, HookRetrieve, "secret"); r.Verdict != Redact || r.Content != "[WORD]" {
				t.Fatalf("content within the limit is judged inline: %+v", r)
			}
			calls, _ := records(t, rec)
			for _, c := range calls {
				if c.ByRef || c.Request["content_ref"] != nil {
					t.Fatalf("content went by reference to a plugin that never declared it reads it: %+v", c)
				}
			}
			if len(calls) != 1 {
				t.Fatalf("%d calls; the plugin must be started only for the content it can receive", len(calls))
			}
		})
	}
}

// With the host's inline_max_bytes at 0, a plugin without references
// gets only empty content; everything else is its on_error.
func TestByReferenceOnlyByAgreement_ZeroHostCap(t *testing.T) {
	s := DefaultSettings()
	s.InlineMaxBytes = 0
	s.Plugins = []PluginSpec{{Name: "p", Command: chaos("-noref", "allow")}}
	h, err := New(context.Background(), s, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	if r := judgeOne(h, HookRetrieve, "a"); r.Verdict != Block || r.Failure != FailTooLarge {
		t.Fatalf("%+v", r)
	}
	if r := judgeOne(h, HookRetrieve, ""); r.Verdict != Allow {
		t.Fatalf("%+v", r)
	}
	if w := h.Plugins()[0].Warnings; !hasPrefixAny(w, "the plugin does not read content_ref") {
		t.Fatalf("no warning: %q", w)
	}
}

// The reference's max_inline_bytes is honoured as inline_threshold is, the
// smaller of both when a plugin sends both, never above the host's cap.
func TestByReferenceOnlyByAgreement_MaxInlineBytesIsHonoured(t *testing.T) {
	for in, want := range map[string]int64{
		`{"rsp_version":"0.1","name":"n","version":"1","hooks":[],"max_inline_bytes":5}`:                        5,
		`{"rsp_version":"0.1","name":"n","version":"1","hooks":[],"max_inline_bytes":9,"inline_threshold":7}`:   7,
		`{"rsp_version":"0.1","name":"n","version":"1","hooks":[],"max_inline_bytes":3,"inline_threshold":7}`:   3,
		`{"rsp_version":"0.1","name":"n","version":"1","hooks":[]}`:                                             -1,
		`{"rsp_version":"0.1","name":"n","version":"1","hooks":[],"max_inline_bytes":5,"max_inline_bytes":500}`: -2,
		`{"rsp_version":"0.1","name":"n","version":"1","hooks":[],"max_inline_bytes":-1}`:                       -2,
	} {
		h, err := readHandshake([]byte(in))
		switch {
		case want == -2 && err == nil:
			t.Errorf("%s accepted", in)
		case want != -2 && (err != nil || h.InlineThreshold != want):
			t.Errorf("%s: %d %v, want %d", in, h.InlineThreshold, err, want)
		}
	}
	s := DefaultSettings()
	s.InlineMaxBytes = 100
	s.Plugins = []PluginSpec{{Name: "p", Command: chaos("-ref", "-threshold", "1000", "allow")}}
	h, err := New(context.Background(), s, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Plugins()[0].InlineThreshold; got != 100 {
		t.Fatalf("a plugin raised the host's cap to %d", got)
	}
}

// As the reference defines them: severity is optional on FLAG and REDACT,
// reason on FLAG and BLOCK; a missing or unknown severity ranks lowest,
// and an unknown one is logged once per plugin.
func TestOptionalFields_AsTheReferenceDefinesThem(t *testing.T) {
	for in, want := range map[string]Answer{
		`{"verdict":"FLAG"}`:                      {Verdict: Flag},
		`{"verdict":"FLAG","severity":"extreme"}`: {Verdict: Flag},
		`{"verdict":"BLOCK"}`:                     {Verdict: Block},
		`{"verdict":"REDACT","spans":[{"start":0,"end":1,"type":"t"}],"replacement":"x"}`: {Verdict: Redact, Replacement: "x", Spans: []Span{{0, 1, "t"}}},
	} {
		a, class := parseAnswer([]byte(in), "ab")
		if class != "" || !sameAnswer(a, want) {
			t.Errorf("%s: %+v %q, want %+v", in, a, class, want)
		}
	}
	var logs bytes.Buffer
	s := DefaultSettings()
	s.Plugins = []PluginSpec{
		{Name: "odd", Command: chaos("answer", `{"verdict":"REDACT","spans":[{"start":0,"end":4,"type":"odd"}],"replacement":"[ODD]","severity":"extreme"}`)},
		{Name: "low", Command: chaos("answer", `{"verdict":"REDACT","spans":[{"start":2,"end":6,"type":"low"}],"replacement":"[LOW]","severity":"low"}`)},
	}
	h, err := New(context.Background(), s, Deps{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		r := judgeOne(h, HookRetrieve, "abcdefgh")
		// The unknown severity ranks below low: low's replacement wins the interval.
		if r.Verdict != Redact || r.Content != "[LOW]gh" || r.Redactions[0].Severity != Low || strings.Join(r.Types, ",") != "low,odd" {
			t.Fatalf("%+v", r)
		}
	}
	if n := strings.Count(logs.String(), `"msg":"rsp_unknown_severity"`); n != 1 || !strings.Contains(logs.String(), `"plugin":"odd"`) {
		t.Fatalf("%d rsp_unknown_severity events, want 1 naming the plugin:\n%s", n, logs.String())
	}
}

// A plugin written in the reference's dialect — the handshake by hook, no
// type, no severity, no content_ref — works under a host as serve makes
// it, and under ingest.
func TestInterop_AReferenceDialectPluginRunsUnderServeAndIngest(t *testing.T) {
	rec := recordFile(t)
	argv := chaos("-ref", "-threshold", "4096", "-record", rec, "find", "hunter2")
	h := newHost(t, PluginSpec{Name: "ref", Command: argv})
	rs := h.Judge(context.Background(), HookRetrieve, ToolWebFetch, []Item{{Content: "pass: hunter2 ok"}, {Content: "nothing"}})
	if rs[0].Verdict != Redact || rs[0].Content != "pass: [WORD] ok" || rs[0].Redactions[0].Severity != "" || rs[1].Verdict != Allow {
		t.Fatalf("under serve's host: %+v", rs)
	}
	s := DefaultSettings()
	s.Hooks = []string{HookChunk}
	s.Plugins = []PluginSpec{{Name: "ref", Command: argv}}
	ih, err := New(context.Background(), s, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("# Notes\n\nThe password is hunter2.\n"), 0o600)
	var report, out bytes.Buffer
	sum, err := Ingest(context.Background(), ih, []string{dir}, &report, &out)
	if err != nil || sum.Redacted != 1 || strings.Contains(out.String(), "hunter2") || !strings.Contains(out.String(), "[WORD]") {
		t.Fatalf("under ingest: %+v %v\n%s%s", sum, err, report.String(), out.String())
	}
	var conf bytes.Buffer
	if !Conformance(context.Background(), argv, &conf) {
		t.Fatalf("the reference-dialect plugin fails the kit:\n%s", conf.String())
	}
}

// A host sends nothing it would refuse to read: metadata that is not
// strict JSON (an integer beyond 2^53−1, a NaN) is a failure before any
// plugin is started, decided by on_error.
func TestStrictJSON_AHostDoesNotSendWhatItRefuses(t *testing.T) {
	rec := recordFile(t)
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("-record", rec, "allow")})
	for _, md := range []map[string]any{{"n": int64(1) << 53}, {"f": math.NaN()}} {
		r := h.Judge(context.Background(), HookRetrieve, "", []Item{{Content: "ordinary text", Metadata: md}})[0]
		if r.Verdict != Block || r.Failure != FailMalformed {
			t.Fatalf("%v: %+v", md, r)
		}
	}
	r := h.Judge(context.Background(), HookRetrieve, "", []Item{{Content: "ordinary text", Metadata: map[string]any{"n": int64(1)<<53 - 1}}})[0]
	if r.Verdict != Allow {
		t.Fatalf("the edge of the safe range: %+v", r)
	}
	if calls, _ := records(t, rec); len(calls) != 1 {
		t.Fatalf("%d calls reached the plugin, want only the strict one", len(calls))
	}
}
