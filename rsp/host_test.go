package rsp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestProcess_ArgvIsNotInterpretedByAShell(t *testing.T) {
	name := "$(touch pwned); `id` | x"
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("-name", name, "allow")})
	if got := h.Plugins()[0].PluginName; got != name {
		t.Fatalf("plugin saw name %q, want the argument unchanged %q", got, name)
	}
}

func TestProcess_CleanEnvironmentIsPathAndEnvPassOnly(t *testing.T) {
	rec := recordFile(t)
	env := map[string]string{"PATH": "/usr/bin:/bin", "RSP_PASSED": "yes", "HOME": "/root", "SECRET_TOKEN": "s3"}
	s := DefaultSettings()
	d := Deps{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
	s.Plugins = []PluginSpec{{Name: "p", Command: chaos("-record", rec, "allow"), EnvPass: []string{"RSP_PASSED", "NOT_SET"}}}
	h, err := New(context.Background(), s, d)
	if err != nil {
		t.Fatal(err)
	}
	judgeOne(h, HookRetrieve, "x")
	calls, hs := records(t, rec)
	if hs != 1 || len(calls) != 1 {
		t.Fatalf("handshakes %d calls %d, want 1 and 1", hs, len(calls))
	}
	got := slices.Sorted(slices.Values(calls[0].Env))
	want := []string{"PATH=/usr/bin:/bin", "RSP_PASSED=yes"}
	if !slices.Equal(got, want) {
		t.Fatalf("plugin environment %q, want %q", got, want)
	}
}

func TestProcess_StdinCarriesOneCallObjectThenEOF(t *testing.T) {
	rec := recordFile(t)
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("-record", rec, "allow")})
	r := h.Judge(context.Background(), HookRetrieve, ToolWebFetch, []Item{{Content: "héllo", Metadata: map[string]any{"url": "https://example.org/"}}})[0]
	if r.Verdict != Allow || r.Content != "héllo" {
		t.Fatalf("result %+v", r)
	}
	calls, _ := records(t, rec)
	// The chaos plugin reads stdin to EOF before answering: a recorded
	// call proves stdin was closed after the one object.
	if len(calls) != 1 {
		t.Fatalf("%d calls recorded", len(calls))
	}
	req := calls[0].Request
	if req["rsp_version"] != "0.1" || req["type"] != "call" || req["hook"] != "on_retrieve" || req["content"] != "héllo" {
		t.Fatalf("request %v", req)
	}
	if md, _ := req["metadata"].(map[string]any); md["url"] != "https://example.org/" {
		t.Fatalf("metadata %v", req["metadata"])
	}
}

func TestHandshake_RequestNamesHostAndHooks(t *testing.T) {
	rec := recordFile(t)
	s := DefaultSettings()
	s.Plugins = []PluginSpec{{Name: "p", Command: chaos("-record", rec, "allow")}}
	if _, err := New(context.Background(), s, Deps{HostVersion: "9.9.9"}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.ReadFile(rec)
	for _, want := range []string{`"type":"handshake"`, `"rsp_version":"0.1"`, `"name":"rypsok"`, `"version":"9.9.9"`, `"hooks":["on_retrieve","on_response"]`, `"hook":"handshake"`, `"limits":{"inline_max_bytes":1048576,"max_answer_bytes":1048576}`} {
		if !strings.Contains(string(f), want) {
			t.Errorf("handshake request lacks %s: %s", want, f)
		}
	}
}

func TestHandshake_FailuresNameThePluginAndClass(t *testing.T) {
	for _, tc := range []struct {
		name    string
		command []string
		timeout time.Duration
		cause   Class
	}{
		{"no_handshake", chaos("nohandshake"), 0, FailHandshake},
		{"wrong_major_version", chaos("wrongversion"), 0, FailHandshake},
		{"empty_name", chaos("-name", "", "allow"), 0, FailHandshake},
		{"empty_version", chaos("-version", "", "allow"), 0, FailHandshake},
		{"spawn", []string{filepath.Join(t.TempDir(), "missing")}, 0, FailSpawn},
		{"exit", []string{chaosBin}, 0, FailExit}, // no mode: exit 2
		{"timeout", chaos("hangall"), 100 * time.Millisecond, FailTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSettings()
			s.Plugins = []PluginSpec{{Name: "ok", Command: chaos("allow")}, {Name: "bad", Command: tc.command, Timeout: tc.timeout}}
			_, err := New(context.Background(), s, Deps{})
			var he *HandshakeError
			if !errors.As(err, &he) || he.Plugin != "bad" || he.Cause != tc.cause || he.Class() != FailHandshake {
				t.Fatalf("error %v, want handshake failure of plugin bad, cause %s", err, tc.cause)
			}
			if !strings.Contains(err.Error(), "bad") || !strings.Contains(err.Error(), string(tc.cause)) {
				t.Fatalf("message %q does not name the plugin and the class", err)
			}
		})
	}
	noPluginLeft(t)
}

func TestHandshake_ConfiguredHookNotDeclaredIsRefused(t *testing.T) {
	s := DefaultSettings()
	s.Plugins = []PluginSpec{{Name: "p", Command: chaos("-hooks", "on_chunk", "allow"), Hooks: []string{HookRetrieve}}}
	var he *HandshakeError
	if _, err := New(context.Background(), s, Deps{}); !errors.As(err, &he) {
		t.Fatalf("error %v", err)
	}
}

func TestQ5_PluginIsCalledOnlyOnDeclaredHooks(t *testing.T) {
	rec := recordFile(t)
	s := DefaultSettings()
	s.Hooks = []string{HookChunk, HookRetrieve, HookResponse}
	s.Plugins = []PluginSpec{{Name: "p", Command: chaos("-hooks", "on_chunk", "-record", rec, "block")}}
	h, err := New(context.Background(), s, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	for _, hook := range []string{HookRetrieve, HookResponse} {
		if r := judgeOne(h, hook, "x"); r.Verdict != Allow {
			t.Fatalf("%s: %v", hook, r.Verdict)
		}
	}
	if calls, _ := records(t, rec); len(calls) != 0 {
		t.Fatalf("plugin called %d times on undeclared hooks", len(calls))
	}
	if r := judgeOne(h, HookChunk, "x"); r.Verdict != Block {
		t.Fatalf("on_chunk: %v", r.Verdict)
	}
	// A hook the host never calls is not in the plugin's hooks, and check warns.
	s.Hooks = nil
	h, err = New(context.Background(), s, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	info := h.Plugins()[0]
	if len(info.Hooks) != 0 || !hasPrefixAny(info.Warnings, "no hook") {
		t.Fatalf("info %+v", info)
	}
}

func TestHandshake_ConfiguredHooksAreASubset(t *testing.T) {
	rec := recordFile(t)
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("-record", rec, "block"), Hooks: []string{HookResponse}})
	if r := judgeOne(h, HookRetrieve, "x"); r.Verdict != Allow {
		t.Fatal("called on a hook outside its configured subset")
	}
	if r := judgeOne(h, HookResponse, "x"); r.Verdict != Block {
		t.Fatal("not called on its configured hook")
	}
}

func TestTools_PluginLimitedToItsTools(t *testing.T) {
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("block"), Tools: []string{ToolWebFetch}})
	if r := h.Judge(context.Background(), HookRetrieve, ToolWebSearch, []Item{{Content: "x"}})[0]; r.Verdict != Allow {
		t.Fatal("called for a tool outside its tools")
	}
	if r := h.Judge(context.Background(), HookRetrieve, ToolWebFetch, []Item{{Content: "x"}})[0]; r.Verdict != Block {
		t.Fatal("not called for its tool")
	}
}

func TestPluginInfo_WarnsWhenFailingOpen(t *testing.T) {
	h := newHost(t,
		PluginSpec{Name: "a", Command: chaos("-det", "-threshold", "100", "-version", "2.1", "allow"), OnError: OnErrorAllow},
		PluginSpec{Name: "b", Command: chaos("allow"), OnError: OnErrorSkip},
		PluginSpec{Name: "c", Command: chaos("allow")})
	ps := h.Plugins()
	if ps[0].Version != "2.1" || !ps[0].Deterministic || ps[0].InlineThreshold != 100 || !slices.Equal(ps[0].Hooks, []string{HookRetrieve, HookResponse}) {
		t.Fatalf("info %+v", ps[0])
	}
	if ps[2].InlineThreshold != 1<<20 || ps[2].Deterministic {
		t.Fatalf("info %+v", ps[2])
	}
	if !hasPrefixAny(ps[0].Warnings, "on_error = allow") || !hasPrefixAny(ps[1].Warnings, "on_error = skip") || len(ps[2].Warnings) != 0 {
		t.Fatalf("warnings %q %q %q", ps[0].Warnings, ps[1].Warnings, ps[2].Warnings)
	}
}

// failureModes are the chaos modes that break the protocol, with the
// class each must end as.
var failureModes = []struct {
	mode  []string
	class Class
}{
	{[]string{"crash"}, FailExit},
	{[]string{"exit"}, FailExit},
	{[]string{"signal"}, FailExit},
	{[]string{"hang"}, FailTimeout},
	{[]string{"slow", "2000"}, FailTimeout},
	{[]string{"garbage"}, FailMalformed},
	{[]string{"two"}, FailMalformed},
	{[]string{"flood"}, FailOversize},
	{[]string{"outofrange"}, FailBadSpan},
	{[]string{"inverted"}, FailBadSpan},
	{[]string{"splitchar"}, FailBadSpan},
	{[]string{"answer", `{"verdict":"MAYBE"}`}, FailMalformed},
	{[]string{"answer", `{"verdict":"REDACT","replacement":"x","severity":"low"}`}, FailMalformed},
	{[]string{"answer", `{"verdict":"REDACT","spans":[{"start":0,"end":1}],"replacement":"x","severity":"low"}`}, FailMalformed},
	{[]string{"answer", `{"verdict":"REDACT","spans":[{"start":0.5,"end":1,"type":"t"}],"replacement":"x","severity":"low"}`}, FailMalformed},
	{[]string{"answer", `{"verdict":"BLOCK","reason":"r","verdict":"ALLOW"}`}, FailMalformed},
	{[]string{"answer", `{"verdict":"ALLOW","verdict":"BLOCK"}`}, FailMalformed},
	{[]string{"answer", `{"verdict":"ALLOW","reason":"\ud800"}`}, FailMalformed},
	{[]string{"answer", `{"verdict":"REDACT","spans":[{"start":0,"end":9007199254740993,"type":"t"}],"replacement":"x"}`}, FailMalformed},
	{[]string{"answer", `["ALLOW"]`}, FailMalformed},
	{[]string{"answer", ``}, FailMalformed},
}

func TestFailureClasses_EachChaosModeEndsAsItsClass(t *testing.T) {
	content := "café au lait"
	for _, fm := range failureModes {
		t.Run(strings.Join(fm.mode, "_")[:min(20, len(strings.Join(fm.mode, "_")))], func(t *testing.T) {
			t.Parallel()
			// A short bound where the class is the timeout itself; elsewhere
			// a bound no loaded machine reaches, so that the class measured
			// is the misbehaviour's and never the clock's.
			timeout := 5 * time.Second
			if fm.class == FailTimeout {
				timeout = 300 * time.Millisecond
			}
			spec := PluginSpec{Name: "p", Command: chaos(fm.mode...), Timeout: timeout}
			// on_error = block (the default): the item is blocked, the class recorded.
			r := judgeOne(newHost(t, spec), HookRetrieve, content)
			if r.Verdict != Block || r.BlockedBy != "p" || r.Failure != fm.class || r.Content != "" {
				t.Fatalf("on_error=block: %+v, want BLOCK by p with failure %s", r, fm.class)
			}
			// on_error = allow: the item passes with the failure recorded.
			spec.OnError = OnErrorAllow
			r = judgeOne(newHost(t, spec), HookRetrieve, content)
			if r.Verdict != Allow || r.Content != content || !slices.Equal(r.Failed, []PluginFailure{{"p", fm.class}}) {
				t.Fatalf("on_error=allow: %+v", r)
			}
			// on_error = skip: the plugin contributes nothing, nothing recorded.
			spec.OnError = OnErrorSkip
			r = judgeOne(newHost(t, spec, PluginSpec{Name: "q", Command: chaos("flag", "low")}), HookRetrieve, content)
			if r.Verdict != Flag || r.Content != content || len(r.Failed) != 0 || !slices.Equal(r.Flagged, []string{"q"}) {
				t.Fatalf("on_error=skip: %+v", r)
			}
		})
	}
	t.Cleanup(func() { noPluginLeft(t) })
}

func TestFailureClasses_SpawnAtCallTime(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "plugin")
	b, err := os.ReadFile(chaosBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o700); err != nil {
		t.Fatal(err)
	}
	h := newHost(t, PluginSpec{Name: "p", Command: []string{bin, "allow"}})
	os.Remove(bin)
	if r := judgeOne(h, HookRetrieve, "x"); r.Verdict != Block || r.Failure != FailSpawn {
		t.Fatalf("%+v", r)
	}
}

func TestQ4_HangIsBlockedWithinTimeoutAndItsGroupKilled(t *testing.T) {
	const timeout = 200 * time.Millisecond
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("hang"), Timeout: timeout})
	ctx, cancel := context.WithTimeout(context.Background(), timeout+10*time.Second) // generous margin
	defer cancel()
	r := h.Judge(ctx, HookRetrieve, "", []Item{{Content: "x"}})[0]
	if ctx.Err() != nil {
		t.Fatal("the hanging plugin was not ended within its timeout plus the margin")
	}
	if r.Verdict != Block || r.Failure != FailTimeout {
		t.Fatalf("%+v", r)
	}
	// The hang mode started a child in its group: it must be gone too.
	noPluginLeft(t)
}

func TestDeadline_UnjudgedItemsAreTimeoutFailures(t *testing.T) {
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("allow"), OnError: OnErrorAllow})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, r := range h.Judge(ctx, HookRetrieve, "", []Item{{Content: "a"}, {Content: "b"}}) {
		if r.Verdict != Allow || !slices.Equal(r.Failed, []PluginFailure{{"p", FailTimeout}}) {
			t.Fatalf("%+v", r)
		}
	}
	if h.spawned.Load() != 1 { // the handshake only
		t.Fatalf("%d processes spawned", h.spawned.Load())
	}
}

func TestProcess_StderrIsCapturedUpTo64KiBAndNeverParsed(t *testing.T) {
	o := run(context.Background(), proc{argv: chaos("stderr"), env: []string{}, input: []byte(`{"rsp_version":"0.1","type":"call","hook":"on_retrieve","content":"x"}`), maxOut: 1 << 20, maxErr: StderrLimitBytes})
	if o.class != "" || len(o.stderr) != StderrLimitBytes {
		t.Fatalf("class %q, stderr %d bytes", o.class, len(o.stderr))
	}
	if r := judgeOne(newHost(t, PluginSpec{Name: "p", Command: chaos("stderr")}), HookRetrieve, "x"); r.Verdict != Allow {
		t.Fatalf("%+v", r)
	}
}

func TestProcess_StdoutBeyondMaxAnswerBytesIsOversize(t *testing.T) {
	s := DefaultSettings()
	s.MaxAnswerBytes = 10
	s.Plugins = []PluginSpec{{Name: "p", Command: chaos("-name", "n", "flag", "high")}}
	// The handshake answer is over 10 bytes too: it fails as oversize.
	_, err := New(context.Background(), s, Deps{})
	var he *HandshakeError
	if !errors.As(err, &he) || he.Cause != FailOversize {
		t.Fatalf("%v", err)
	}
}

func TestQ6_SpawnPerCall(t *testing.T) {
	rec := recordFile(t)
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("-record", rec, "allow")})
	items := []Item{{Content: "a"}, {Content: "a"}, {Content: "b"}}
	h.Judge(context.Background(), HookRetrieve, "", items)
	if calls, _ := records(t, rec); len(calls) != 3 {
		t.Fatalf("%d calls for 3 items of a non-deterministic plugin", len(calls))
	}
	if h.spawned.Load() != 4 {
		t.Fatalf("%d processes for a handshake and 3 calls", h.spawned.Load())
	}
}

func TestContentByReference_OverThresholdIsASealedDescriptor(t *testing.T) {
	rec := recordFile(t)
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("-threshold", "8", "-record", rec, "allow")})
	small, large := "12345678", "123456789é"
	h.Judge(context.Background(), HookRetrieve, "", []Item{{Content: small}})
	h.Judge(context.Background(), HookRetrieve, "", []Item{{Content: large}})
	calls, _ := records(t, rec)
	if len(calls) != 2 {
		t.Fatalf("%d calls", len(calls))
	}
	if calls[0].ByRef || calls[0].Content != small {
		t.Fatalf("content at the threshold not inline: %+v", calls[0])
	}
	c := calls[1]
	if !c.ByRef || c.Content != large || c.RefWritable {
		t.Fatalf("content over the threshold: by_ref %v, content %q, writable %v", c.ByRef, c.Content, c.RefWritable)
	}
	if _, ok := c.Request["content"]; ok {
		t.Fatal("content sent inline as well as by reference")
	}
	ref, _ := c.Request["content_ref"].(map[string]any)
	if ref["offset"] != 0.0 || ref["length"] != float64(len(large)) {
		t.Fatalf("content_ref %v", ref)
	}
	if p, _ := ref["path"].(string); p != "/dev/fd/3" && !strings.HasPrefix(p, os.TempDir()) {
		t.Fatalf("content_ref path %q", p)
	}
}

func TestContentByReference_ZeroHostCapIsAlwaysByReference(t *testing.T) {
	rec := recordFile(t)
	s := DefaultSettings()
	s.InlineMaxBytes = 0
	s.Plugins = []PluginSpec{{Name: "p", Command: chaos("-record", rec, "allow")}}
	h, err := New(context.Background(), s, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	judgeOne(h, HookRetrieve, "")
	judgeOne(h, HookRetrieve, "a")
	calls, _ := records(t, rec)
	if len(calls) != 2 || !calls[0].ByRef || !calls[1].ByRef || calls[1].Content != "a" {
		t.Fatalf("%+v", calls)
	}
}

func TestMaxProcesses_NoSpawnWhileTheLimitIsTaken(t *testing.T) {
	s := DefaultSettings()
	s.MaxProcesses = 2
	s.Plugins = []PluginSpec{{Name: "p", Command: chaos("allow"), Timeout: 100 * time.Millisecond}}
	h, err := New(context.Background(), s, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	before := h.spawned.Load()
	h.sem <- struct{}{}
	h.sem <- struct{}{}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	r := h.Judge(ctx, HookRetrieve, "", []Item{{Content: "x"}})[0]
	<-h.sem
	<-h.sem
	if r.Failure != FailTimeout || h.spawned.Load() != before {
		t.Fatalf("%+v, spawned %d", r, h.spawned.Load()-before)
	}
	if r := judgeOne(h, HookRetrieve, "x"); r.Verdict != Allow {
		t.Fatalf("%+v", r)
	}
}

func TestSettings_Validate(t *testing.T) {
	ok := PluginSpec{Name: "p", Command: []string{"/bin/true"}}
	for name, s := range map[string]Settings{
		"max_processes": {MaxProcesses: 65},
		"name_pattern":  {Plugins: []PluginSpec{{Name: "Bad", Command: []string{"x"}}}},
		"name_length":   {Plugins: []PluginSpec{{Name: strings.Repeat("a", 33), Command: []string{"x"}}}},
		"name_unique":   {Plugins: []PluginSpec{ok, ok}},
		"command_empty": {Plugins: []PluginSpec{{Name: "p"}}},
		"hook":          {Plugins: []PluginSpec{{Name: "p", Command: []string{"x"}, Hooks: []string{"on_source"}}}},
		"tool":          {Plugins: []PluginSpec{{Name: "p", Command: []string{"x"}, Tools: []string{"engine_status"}}}},
		"on_error":      {Plugins: []PluginSpec{{Name: "p", Command: []string{"x"}, OnError: "ignore"}}},
		"on_match":      {Plugins: []PluginSpec{{Name: "p", Command: []string{"x"}, OnMatch: "redact"}}},
		"timeout_low":   {Plugins: []PluginSpec{{Name: "p", Command: []string{"x"}, Timeout: 49 * time.Millisecond}}},
		"timeout_high":  {Plugins: []PluginSpec{{Name: "p", Command: []string{"x"}, Timeout: 61 * time.Second}}},
		"env_pass":      {Plugins: []PluginSpec{{Name: "p", Command: []string{"x"}, EnvPass: []string{"A=B"}}}},
	} {
		if s.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	good := DefaultSettings()
	good.Plugins = []PluginSpec{{Name: "a-b_9", Command: []string{"x"}, Timeout: 50 * time.Millisecond}, {Name: strings.Repeat("z", 32), Command: []string{"x"}, Timeout: 60 * time.Second}}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestOnMatchBlock_RedactBecomesBlockNamingItsTypes(t *testing.T) {
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("redact", "0:1:b_type,1:2:a_type", "#", "low"), OnMatch: OnMatchBlock})
	r := judgeOne(h, HookRetrieve, "xy")
	if r.Verdict != Block || r.BlockedBy != "p" || !slices.Equal(r.Types, []string{"a_type", "b_type"}) || r.Content != "" {
		t.Fatalf("%+v", r)
	}
}

func TestCriterion3_PluginCrashingMidRunBlocksTheItemAndTheHostKeepsServing(t *testing.T) {
	h := newHost(t, PluginSpec{Name: "flaky", Command: chaos("-crash-on", "poison", "flag", "low")})
	for round := range 3 {
		rs := h.Judge(context.Background(), HookRetrieve, ToolWebSearch, []Item{{Content: "fine"}, {Content: "a poison pill"}, {Content: "also fine"}})
		if rs[0].Verdict != Flag || rs[2].Verdict != Flag {
			t.Fatalf("round %d: the other items %+v %+v", round, rs[0], rs[2])
		}
		if rs[1].Verdict != Block || rs[1].BlockedBy != "flaky" || rs[1].Failure != FailExit || rs[1].Content != "" {
			t.Fatalf("round %d: the item it crashed on %+v", round, rs[1])
		}
	}
	noPluginLeft(t)
}

func TestMaxProcesses_WaitingForASlotDoesNotSpendThePluginTimeout(t *testing.T) {
	s := DefaultSettings()
	s.MaxProcesses = 1
	// Eight calls of 200 ms one after another take longer than the 1 s
	// timeout of each: the timeout must run from spawn, not from the queue.
	s.Plugins = []PluginSpec{{Name: "p", Command: chaos("slow", "200"), Timeout: time.Second}}
	h, err := New(context.Background(), s, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	items := make([]Item, 8)
	for i, r := range h.Judge(context.Background(), HookRetrieve, "", items) {
		if r.Verdict != Allow {
			t.Fatalf("item %d: %+v", i, r)
		}
	}
}

func TestQ4_ChildrenOfAPluginThatAnsweredDoNotOutliveTheCall(t *testing.T) {
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("orphan")})
	if r := judgeOne(h, HookRetrieve, "x"); r.Verdict != Allow {
		t.Fatalf("%+v", r)
	}
	noPluginLeft(t)
}
