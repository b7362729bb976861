package rsp

import (
	"testing"
	"unicode/utf8"
)

// FuzzParseAnswer feeds arbitrary plugin output: the parser never panics,
// an accepted answer has only valid spans and bounded strings, and its
// composition yields valid UTF-8.
func FuzzParseAnswer(f *testing.F) {
	for _, seed := range []string{
		`{"verdict":"ALLOW"}`,
		`{"verdict":"REDACT","spans":[{"start":0,"end":2,"type":"t"},{"start":1,"end":3,"type":"u"}],"replacement":"[X]","severity":"high"}`,
		`{"verdict":"FLAG","severity":"low","reason":"r"}`,
		`{"verdict":"BLOCK","reason":"r"} {}`,
		`{"verdict":"REDACT","spans":[{"start":1,"end":2,"type":"t"}],"replacement":"x","severity":"low"}`,
	} {
		f.Add([]byte(seed), "aé€😀 text")
	}
	f.Fuzz(func(t *testing.T, out []byte, content string) {
		if !utf8.ValidString(content) {
			return
		}
		a, class := parseAnswer(out, content)
		if class != "" {
			return
		}
		var cs []contribution
		for _, s := range a.Spans {
			if !validSpan(content, int64(s.Start), int64(s.End)) || len(s.Type) > maxStringBytes {
				t.Fatalf("accepted span %+v", s)
			}
			cs = append(cs, contribution{span: s, severity: a.Severity, replacement: a.Replacement})
		}
		if len(a.Reason) > maxStringBytes || len(a.Replacement) > maxStringBytes {
			t.Fatal("unbounded string accepted")
		}
		if got, _ := coalesce(content, cs); !utf8.ValidString(got) {
			t.Fatalf("composition gave invalid UTF-8 %q", got)
		}
	})
}

// FuzzParseHandshake feeds arbitrary handshake answers: an accepted one
// has a non-empty bounded name and version, known unique hooks, and a
// threshold that is absent (-1) or not negative.
func FuzzParseHandshake(f *testing.F) {
	f.Add([]byte(`{"rsp_version":"0.1","name":"n","version":"1","hooks":["on_chunk"]}`))
	f.Fuzz(func(t *testing.T, out []byte) {
		h, ok := parseHandshake(out)
		if !ok {
			return
		}
		if h.Name == "" || h.Version == "" || len(h.Name) > maxStringBytes || len(h.Version) > maxStringBytes || h.InlineThreshold < -1 {
			t.Fatalf("accepted %+v", h)
		}
		seen := map[string]bool{}
		for _, k := range h.Hooks {
			if !knownHook(k) || seen[k] {
				t.Fatalf("hooks %q", h.Hooks)
			}
			seen[k] = true
		}
	})
}
