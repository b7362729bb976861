package rsp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestD6_SpanValidationOnBytesAndCharacterBoundaries(t *testing.T) {
	s := "aé€😀" // 1 + 2 + 3 + 4 bytes
	for _, tc := range []struct {
		start, end int64
		ok         bool
	}{
		{0, 0, true}, {0, 1, true}, {1, 3, true}, {3, 6, true}, {6, 10, true}, {0, 10, true}, {10, 10, true},
		{-1, 1, false}, {0, 11, false}, {11, 11, false}, {3, 1, false},
		{2, 3, false}, {1, 2, false}, {4, 6, false}, {3, 5, false}, {6, 9, false}, {7, 10, false},
	} {
		if got := validSpan(s, tc.start, tc.end); got != tc.ok {
			t.Errorf("[%d,%d): %v, want %v", tc.start, tc.end, got, tc.ok)
		}
	}
}

func TestUntrustedStrings_AreBoundedTo200BytesAndCleaned(t *testing.T) {
	long := strings.Repeat("é", 150) // 300 bytes
	got := bound(long)
	if len(got) > maxStringBytes || !utf8.ValidString(got) || len(got) != 200 {
		t.Fatalf("bound gave %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
	if got := bound("a\x00b\u202ec\u200bd\n\n  e\xff\x1b[31m"); got != "abcd e[31m" {
		t.Fatalf("cleaned %q", got)
	}
	// Through the wire: a FLAG reason and a REDACT type and replacement.
	a, class := parseAnswer([]byte(`{"verdict":"REDACT","spans":[{"start":0,"end":1,"type":"`+strings.Repeat("t", 300)+`\u0007"}],"replacement":"`+strings.Repeat("r", 300)+`","severity":"low"}`), "x")
	if class != "" || len(a.Spans[0].Type) != 200 || len(a.Replacement) != 200 {
		t.Fatalf("class %q type %d replacement %d", class, len(a.Spans[0].Type), len(a.Replacement))
	}
}

func TestWire_ExactlyOneObjectWithWhitespaceAround(t *testing.T) {
	for in, ok := range map[string]bool{
		`{"verdict":"ALLOW"}`:               true,
		" \r\n\t{\"verdict\":\"ALLOW\"}\n ": true,
		`{"verdict":"ALLOW"}{}`:             false,
		`{"verdict":"ALLOW"} x`:             false,
		`x {"verdict":"ALLOW"}`:             false,
		`"ALLOW"`:                           false,
		`{"verdict":"ALLOW"`:                false,
		"\ufeff{\"verdict\":\"ALLOW\"}":     false,
		`{"verdict":"allow"}`:               false,
		`{"verdict":null}`:                  false,
		`{}`:                                false,
	} {
		_, class := parseAnswer([]byte(in), "")
		if (class == "") != ok {
			t.Errorf("%q: class %q, want ok=%v", in, class, ok)
		}
	}
}

func TestHandshake_ParseFields(t *testing.T) {
	for in, ok := range map[string]bool{
		`{"rsp_version":"0.1","name":"n","version":"1","hooks":["on_chunk"]}`:                                              true,
		`{"rsp_version":"0.7","name":"n","version":"1","hooks":[],"future":{}}`:                                            true,
		`{"rsp_version":"1.0","name":"n","version":"1","hooks":[]}`:                                                        false,
		`{"rsp_version":"0.1","version":"1","hooks":[]}`:                                                                   false,
		`{"rsp_version":"0.1","name":"n","hooks":[]}`:                                                                      false,
		`{"rsp_version":"0.1","name":"n","version":"1"}`:                                                                   false,
		`{"name":"n","version":"1","hooks":[]}`:                                                                            false,
		`{"rsp_version":"0.1","name":"n","version":"1","hooks":[],"inline_threshold":-1}`:                                  false,
		`{"rsp_version":"0.1","name":"n","version":"1","hooks":[],"deterministic":"yes"}`:                                  false,
		`{"rsp_version":"0.1","name":"n","version":"1","hooks":["on_retrieve"],"deterministic":true,"inline_threshold":0}`: true,
	} {
		if _, got := parseHandshake([]byte(in)); got != ok {
			t.Errorf("%s: %v, want %v", in, got, ok)
		}
	}
	h, _ := parseHandshake([]byte(`{"rsp_version":"0.1","name":"n","version":"1","hooks":["on_chunk","on_source","on_chunk"]}`))
	if h.Deterministic || h.InlineThreshold != -1 || len(h.Hooks) != 1 {
		t.Fatalf("%+v: deterministic must default to false, threshold to none, hooks known and unique", h)
	}
}

func TestD4_DeterministicVerdictIsCachedAndCalledOnce(t *testing.T) {
	rec := recordFile(t)
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("-det", "-record", rec, "redact", "0:1:t", "#", "low")})
	for range 3 {
		if r := judgeOne(h, HookRetrieve, "page"); r.Content != "#age" {
			t.Fatalf("%+v", r)
		}
	}
	judgeOne(h, HookResponse, "page") // another hook is another key
	judgeOne(h, HookRetrieve, "other")
	if calls, _ := records(t, rec); len(calls) != 3 {
		t.Fatalf("%d calls, want 3 (one per hook and content)", len(calls))
	}
}

func TestD4_NonDeterministicVerdictIsNeverCached(t *testing.T) {
	rec := recordFile(t)
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("-record", rec, "nondet")})
	for range 3 {
		judgeOne(h, HookRetrieve, "page")
	}
	if calls, _ := records(t, rec); len(calls) != 3 {
		t.Fatalf("%d calls, want 3", len(calls))
	}
}

func TestD4_FailuresAreNeverCached(t *testing.T) {
	rec := recordFile(t)
	h := newHost(t, PluginSpec{Name: "p", Command: chaos("-det", "-record", rec, "garbage")})
	judgeOne(h, HookRetrieve, "page")
	judgeOne(h, HookRetrieve, "page")
	if calls, _ := records(t, rec); len(calls) != 2 {
		t.Fatalf("%d calls, want 2", len(calls))
	}
}

func TestD4_CacheDisabledWithZeroEntries(t *testing.T) {
	rec := recordFile(t)
	s := DefaultSettings()
	s.CacheEntries = 0
	s.Plugins = []PluginSpec{{Name: "p", Command: chaos("-det", "-record", rec, "allow")}}
	h, err := New(context.Background(), s, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	judgeOne(h, HookRetrieve, "page")
	judgeOne(h, HookRetrieve, "page")
	if calls, _ := records(t, rec); len(calls) != 2 {
		t.Fatalf("%d calls, want 2", len(calls))
	}
}

func TestD4_CacheKeyCoversHookContentNameVersionArgv(t *testing.T) {
	base := keyOf("on_retrieve", "c", "p", "1", []string{"a", "b"})
	for name, k := range map[string]cacheKey{
		"hook":    keyOf("on_response", "c", "p", "1", []string{"a", "b"}),
		"content": keyOf("on_retrieve", "d", "p", "1", []string{"a", "b"}),
		"name":    keyOf("on_retrieve", "c", "q", "1", []string{"a", "b"}),
		"version": keyOf("on_retrieve", "c", "p", "2", []string{"a", "b"}),
		"argv":    keyOf("on_retrieve", "c", "p", "1", []string{"a", "b", "c"}),
		"split":   keyOf("on_retrieve", "c", "p", "1", []string{"ab"}),
	} {
		if k == base {
			t.Errorf("changing %s keeps the key", name)
		}
	}
	if keyOf("on_retrieve", "c", "p", "1", []string{"a", "b"}) != base {
		t.Fatal("key not stable")
	}
}

func TestD4_CacheIsABoundedLRU(t *testing.T) {
	c := newVerdictCache(2)
	k := func(s string) cacheKey { return keyOf("h", s, "p", "1", nil) }
	c.put(k("a"), Answer{Verdict: Allow})
	c.put(k("b"), Answer{Verdict: Flag})
	c.get(k("a"))
	c.put(k("c"), Answer{Verdict: Block})
	if _, ok := c.get(k("b")); ok {
		t.Fatal("least recently used entry kept")
	}
	if a, ok := c.get(k("a")); !ok || a.Verdict != Allow {
		t.Fatal("recently used entry evicted")
	}
	if c.len() != 2 {
		t.Fatalf("%d entries", c.len())
	}
}

func TestServe_HandshakeAndCallInlineAndByReference(t *testing.T) {
	hs := Handshake{Name: "n", Version: "1", Hooks: []string{HookChunk}, Deterministic: true, InlineThreshold: -1}
	judge := func(_ context.Context, r Request) (Answer, error) {
		if i := strings.Index(r.Content, "secret"); i >= 0 {
			return Answer{Verdict: Redact, Spans: []Span{{i, i + 6, "word"}}, Replacement: "***", Severity: High}, nil
		}
		return Answer{Verdict: Allow}, nil
	}
	var out bytes.Buffer
	if err := ServeIO(context.Background(), hs, judge, strings.NewReader(`{"rsp_version":"0.1","type":"handshake","host":{"name":"x","version":"1"},"hooks":[]}`), &out); err != nil {
		t.Fatal(err)
	}
	if got, ok := parseHandshake(out.Bytes()); !ok || got.Name != "n" || !got.Deterministic || got.InlineThreshold != -1 {
		t.Fatalf("handshake %s", out.Bytes())
	}
	out.Reset()
	if err := ServeIO(context.Background(), hs, judge, strings.NewReader(`{"rsp_version":"0.1","type":"call","hook":"on_chunk","content":"a secret","unknown":1}`), &out); err != nil {
		t.Fatal(err)
	}
	if a, class := parseAnswer(out.Bytes(), "a secret"); class != "" || a.Verdict != Redact || a.Spans[0].Start != 2 {
		t.Fatalf("answer %s", out.Bytes())
	}
	path := filepath.Join(t.TempDir(), "ref")
	os.WriteFile(path, []byte("xxmy secret"), 0o600)
	out.Reset()
	req, _ := json.Marshal(map[string]any{"rsp_version": "0.1", "type": "call", "hook": "on_chunk", "content_ref": map[string]any{"path": path, "offset": 2, "length": 9}})
	if err := ServeIO(context.Background(), hs, judge, bytes.NewReader(req), &out); err != nil {
		t.Fatal(err)
	}
	if a, class := parseAnswer(out.Bytes(), "my secret"); class != "" || a.Spans[0].Start != 3 {
		t.Fatalf("answer by reference %s", out.Bytes())
	}
	if err := ServeIO(context.Background(), hs, judge, strings.NewReader(`{"rsp_version":"1.0","type":"call","content":""}`), &out); err == nil {
		t.Fatal("major version 1 accepted")
	}
}

func TestAnswer_MarshalWritesTheFieldsOfItsVerdict(t *testing.T) {
	for a, want := range map[*Answer]string{
		{Verdict: Allow, Reason: "x"}:                       `{"verdict":"ALLOW"}`,
		{Verdict: Flag, Severity: Low}:                      `{"verdict":"FLAG","severity":"low","reason":""}`,
		{Verdict: Block}:                                    `{"verdict":"BLOCK","reason":""}`,
		{Verdict: Redact, Severity: High, Replacement: "r"}: `{"verdict":"REDACT","spans":[],"replacement":"r","severity":"high"}`,
	} {
		if got := string(marshal(*a)); got != want {
			t.Errorf("%s, want %s", got, want)
		}
	}
}

func TestSettings_BufferBytesCountsEveryProcessSlot(t *testing.T) {
	s := DefaultSettings()
	if s.BufferBytes() != 0 {
		t.Fatal("no plugins, no buffers")
	}
	s.Plugins = []PluginSpec{{Name: "p", Command: []string{"x"}}}
	if got, want := s.BufferBytes(), int64(4*(1<<20+64<<10+1<<20)); got != want {
		t.Fatalf("%d, want %d", got, want)
	}
}

func TestSummarize_FoldsResultsIntoNoticeData(t *testing.T) {
	s := Summarize([]Result{
		{Verdict: Block, BlockedBy: "inj"},
		{Verdict: Block, BlockedBy: "sec", Failure: FailTimeout},
		{Verdict: Redact, Redactions: make([]Redaction, 2), RedactedBy: []string{"sec"}, Types: []string{"jwt", "github_token"}, Flagged: []string{"inj"}, FlagSeverity: Low},
		{Verdict: Flag, Flagged: []string{"inj", "pii"}, FlagSeverity: High, Failed: []PluginFailure{{"meter", FailExit}}},
		{Verdict: Allow},
	})
	if s.Blocked != 2 || strings.Join(s.BlockedBy, ",") != "inj,sec" || s.Intervals != 2 || strings.Join(s.Types, ",") != "github_token,jwt" ||
		strings.Join(s.Flagged, ",") != "inj,pii" || s.FlagSeverity != High || strings.Join(s.Failed, ",") != "meter" ||
		len(s.Failures) != 2 || s.Failures[0] != FailExit || s.Failures[1] != FailTimeout {
		t.Fatalf("%+v", s)
	}
}
