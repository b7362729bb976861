package search

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"rypsok/tool"
)

func duckDuckGoAt(t *testing.T, h http.HandlerFunc) *duckDuckGo {
	t.Helper()
	ts, roots := tlsServer(t, h)
	e, err := newDuckDuckGoAt(EngineConfig{ID: "ddg", Type: "duckduckgo", Categories: []tool.Category{tool.CategoryGeneral}},
		DefaultSettings(), Deps{Roots: roots, UserAgent: testUA, Now: time.Now}, ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestREQ_TEST_018_DuckDuckGoResultsInOrder(t *testing.T) {
	var got atomic.Value
	e := duckDuckGoAt(t, func(rw http.ResponseWriter, r *http.Request) {
		got.Store(r.Clone(context.Background()))
		rw.Header().Set("Content-Type", "text/html")
		rw.Write(fixture(t, "duckduckgo/results.html"))
	})
	rs, err := e.Search(context.Background(), EngineRequest{Query: "rust programming language", Language: "en", Region: "US", SafeSearch: "moderate", TimeRange: tool.TimeRangeMonth})
	if err != nil {
		t.Fatal(err)
	}
	want := []RawResult{
		{Title: "Rust Programming Language", URL: "https://www.rust-lang.org/", Snippet: "A language empowering everyone to build reliable and efficient software & more.", TitleDecoded: true, SnippetDecoded: true},
		{Title: "Rust (programming language) - Wikipedia", URL: "https://en.wikipedia.org/wiki/Rust_(programming_language)", Snippet: "Rust is a general-purpose programming language emphasizing performance <and> safety.", TitleDecoded: true, SnippetDecoded: true},
	}
	if len(rs) != 2 || rs[0] != want[0] || rs[1] != want[1] {
		t.Fatalf("results\n%+v\nwant\n%+v", rs, want)
	}
	r := got.Load().(*http.Request)
	if r.URL.Path != "/html/" || r.URL.RawQuery != "q=rust+programming+language&kl=us-en&kp=-1&df=m" {
		t.Fatalf("request %s?%s", r.URL.Path, r.URL.RawQuery)
	}
	// REQ-ENG-014: no header meant to resemble a browser.
	for k := range r.Header {
		switch http.CanonicalHeaderKey(k) {
		case "User-Agent", "Accept", "Accept-Encoding":
		default:
			t.Errorf("header %s sent", k)
		}
	}
	if r.Header.Get("User-Agent") != testUA || r.Header.Get("Accept") != "text/html" {
		t.Fatalf("headers %v", r.Header)
	}
}

func TestREQ_TEST_018_DuckDuckGoPagesAndStatuses(t *testing.T) {
	classOnly := `<html><body><h1 class="anomaly-modal__title">Please wait</h1></body></html>`
	formOnly := `<html><body><form action="/html/anomaly?q=x"><input></form></body></html>`
	huge := "<html><body>" + strings.Repeat("<div>x</div>", 60000) + "</body></html>"
	// Under the byte bound but above the token bound: without the bound the
	// no-results marker at the end would make it an empty answer.
	tokens := "<html><body>" + strings.Repeat("<i>x", 60000) + `<div class="no-results">No results.</div></body></html>`
	cases := []struct {
		name   string
		status int
		header map[string]string
		body   []byte
		class  tool.Reason
		retry  time.Duration
	}{
		{"no results", 200, nil, fixture(t, "duckduckgo/no-results.html"), "", 0},
		{"challenge sentence", 200, nil, fixture(t, "duckduckgo/challenge.html"), tool.ReasonBlocked, 0},
		{"challenge class", 200, nil, []byte(classOnly), tool.ReasonBlocked, 0},
		{"challenge form", 200, nil, []byte(formOnly), tool.ReasonBlocked, 0},
		{"drifted page", 200, nil, fixture(t, "duckduckgo/drifted.html"), tool.ReasonParseFailure, 0},
		{"403", 403, nil, nil, tool.ReasonBlocked, 0},
		{"429", 429, map[string]string{"Retry-After": "20"}, nil, tool.ReasonRateLimited, 20 * time.Second},
		{"503", 503, nil, nil, tool.ReasonRateLimited, 0},
		{"redirect on the host is not followed", 302, map[string]string{"Location": "/html/?q=other"}, nil, tool.ReasonRequestFailure, 0},
		{"above the byte bound", 200, nil, []byte(huge), tool.ReasonParseFailure, 0},
		{"above the token bound", 200, nil, []byte(tokens), tool.ReasonParseFailure, 0},
		{"the same page within the token bound", 200, nil, []byte(strings.Replace(tokens, strings.Repeat("<i>x", 60000), strings.Repeat("<i>x", 1000), 1)), "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var hits atomic.Int32
			e := duckDuckGoAt(t, func(rw http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				for k, v := range c.header {
					rw.Header().Set(k, v)
				}
				rw.WriteHeader(c.status)
				rw.Write(c.body)
			})
			rs, err := e.Search(context.Background(), EngineRequest{Query: "q"})
			if c.class == "" {
				if err != nil || len(rs) != 0 {
					t.Fatalf("want no results: %v %v", rs, err)
				}
				return
			}
			if ee := engineErr(t, err); ee.Class != c.class || ee.RetryAfter != c.retry {
				t.Fatalf("got %s %s, want %s %s", ee.Class, ee.RetryAfter, c.class, c.retry)
			}
			if hits.Load() != 1 {
				t.Fatalf("the provider was asked %d times", hits.Load())
			}
		})
	}
}

func TestREQ_ENG_015_DuckDuckGoUnwrapsOnlyTargets(t *testing.T) {
	cases := map[string]string{
		"//duckduckgo.com/l/?uddg=https%3A%2F%2Fa.example%2Fx%3Fy%3D1&rut=z": "https://a.example/x?y=1",
		"https://b.example/":                             "https://b.example/",
		"https://duckduckgo.com/y.js?ad=1":               "",
		"//duckduckgo.com/l/?uddg=javascript%3Aalert(1)": "",
		"/relative":        "",
		"ftp://c.example/": "",
	}
	for in, want := range cases {
		got, ok := unwrapDuckDuckGo(in)
		if got != want || ok != (want != "") {
			t.Errorf("%s: %q %v, want %q", in, got, ok, want)
		}
	}
}
