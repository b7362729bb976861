package search

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"rypsok/tool"
)

// FuzzEngineAnswers feeds any bytes to each driver's parser, as a provider
// could send them: no panic, and either results or exactly one error class
// of REQ-ENG-006.
func FuzzEngineAnswers(f *testing.F) {
	for _, dir := range []string{"testdata/wikipedia", "testdata/brave", "testdata/duckduckgo"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`{"query":{"search":[{"title":"A","snippet":"s","timestamp":"2"}]}}`))
	f.Add([]byte(`{"web":{"results":[{"url":"javascript:x","title":1}]}}`))
	ep, _ := url.Parse("https://en.wikipedia.org/w/api.php")
	w := &wikipedia{}
	classes := map[tool.Reason]bool{}
	for _, c := range tool.EngineClasses() {
		classes[c] = true
	}
	check := func(t *testing.T, rs []RawResult, err error) {
		if err != nil {
			var ee *EngineError
			if !errors.As(err, &ee) || !classes[ee.Class] || rs != nil {
				t.Fatalf("not one classified failure: %v %v", rs, err)
			}
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		rs, err := w.parse(body, ep)
		check(t, rs, err)
		for _, r := range rs {
			if !strings.HasPrefix(r.URL, "https://en.wikipedia.org/wiki/") {
				t.Fatalf("article URL %q", r.URL)
			}
		}
		for _, news := range []bool{false, true} {
			rs, err := parseBrave(body, news)
			check(t, rs, err)
		}
		rs, err = parseDuckDuckGo(body)
		check(t, rs, err)
		for _, r := range rs {
			if !strings.HasPrefix(r.URL, "http://") && !strings.HasPrefix(r.URL, "https://") {
				t.Fatalf("unwrapped target %q", r.URL)
			}
		}
	})
}

// FuzzNormalizeURL: any engine URL either is dropped for a stated reason or
// gives a returned URL of http(s) within LIM-F9 and an idempotent key.
func FuzzNormalizeURL(f *testing.F) {
	for _, s := range []string{
		"https://Example.ORG/a/b/?utm_source=x&b=2&a=1#f", "http://www.example.org:80/", "https://bücher.example/straße",
		"https://[2001:db8::1]:8443/x?y", "javascript:alert(1)", "https://user:pw@x.example/", "https://.example/",
		"https://example.org/%7e%2f%zz", "HTTPS://EXAMPLE.ORG", "https://a..b/", "https://example.org?utm_medium=a",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		n, why := normalizeURL(raw)
		if why != "" {
			if why != tool.ReasonURLInvalid && why != tool.ReasonURLTooLong {
				t.Fatalf("reason %q", why)
			}
			return
		}
		low := strings.ToLower(n.returned)
		if !strings.HasPrefix(low, "http://") && !strings.HasPrefix(low, "https://") {
			t.Fatalf("returned %q from %q", n.returned, raw)
		}
		if utf8.RuneCountInString(n.returned) > tool.MaxURLChars {
			t.Fatal("returned URL above LIM-F9")
		}
		if strings.Contains(n.returned, "utm_source=") && !strings.Contains(raw, "utm_source=") {
			t.Fatal("a tracking parameter appeared")
		}
		if n2, why2 := normalizeURL(n.key); why2 == "" && n2.key != n.key {
			t.Fatalf("key not idempotent: %q -> %q -> %q", raw, n.key, n2.key)
		}
	})
}
