package search

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"rypsok/secrets"
	"rypsok/tool"
)

const testUA = "rypsok/test (+https://github.com/nabbisen/rypsok; ops@example.org)"

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tlsServer serves h over TLS on loopback; roots trust it.
func tlsServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *x509.CertPool) {
	t.Helper()
	ts := httptest.NewTLSServer(h)
	t.Cleanup(ts.Close)
	roots := x509.NewCertPool()
	roots.AddCert(ts.Certificate())
	return ts, roots
}

func engineErr(t *testing.T, err error) *EngineError {
	t.Helper()
	var ee *EngineError
	if !errors.As(err, &ee) {
		t.Fatalf("want *EngineError, got %v", err)
	}
	return ee
}

func wikipediaAt(t *testing.T, h http.HandlerFunc) (*wikipedia, *httptest.Server) {
	t.Helper()
	ts, roots := tlsServer(t, h)
	base, _ := url.Parse(ts.URL + "/w/api.php")
	w, err := newWikipedia(EngineConfig{ID: "wikipedia", Type: "wikipedia", BaseURL: base, Categories: []tool.Category{tool.CategoryGeneral}},
		DefaultSettings(), Deps{Roots: roots, UserAgent: testUA, Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	return w, ts
}

func TestREQ_TEST_002_WikipediaFixtures(t *testing.T) {
	var got atomic.Value
	w, ts := wikipediaAt(t, func(rw http.ResponseWriter, r *http.Request) {
		got.Store(r.Clone(context.Background()))
		rw.Header().Set("Content-Type", "application/json")
		rw.Write(fixture(t, "wikipedia/search-ok.json"))
	})
	rs, err := w.Search(context.Background(), EngineRequest{Query: "rust programming language", MaxResults: 10, Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	r := got.Load().(*http.Request)
	if r.URL.Path != "/w/api.php" || r.URL.RawQuery != "action=query&list=search&srsearch=rust+programming+language&srlimit=10&srprop=snippet%7Ctimestamp&format=json" {
		t.Fatalf("request: %s?%s", r.URL.Path, r.URL.RawQuery)
	}
	if r.Header.Get("User-Agent") != testUA {
		t.Fatalf("User-Agent %q", r.Header.Get("User-Agent"))
	}
	host := strings.TrimPrefix(ts.URL, "https://")
	want := []RawResult{
		{Title: "Rust (programming language)", TitleDecoded: true, URL: "https://" + host + "/wiki/Rust_(programming_language)", Date: "2026-09-01",
			Snippet: `<span class="searchmatch">Rust</span> is a general-purpose <span class="searchmatch">programming</span> <span class="searchmatch">language</span> emphasizing performance, type safety, and concurrency. It enforces memory safety&mdash;meaning that all references`},
		{Title: "Rust & Bone", TitleDecoded: true, URL: "https://" + host + "/wiki/Rust_&_Bone", Date: "2026-07-19", Snippet: `<span class="searchmatch">Rust</span> and Bone is a 2012 romantic drama film`},
		{Title: "Vec<T> in practice", TitleDecoded: true, URL: "https://" + host + "/wiki/Vec%3CT%3E_in_practice", Date: "2025-01-02", Snippet: "A &lt;b&gt;growable&lt;/b&gt; array type &amp; more"},
	}
	if len(rs) != len(want) {
		t.Fatalf("%d results", len(rs))
	}
	for i := range want {
		if rs[i] != want[i] {
			t.Errorf("result %d:\n%+v\nwant\n%+v", i, rs[i], want[i])
		}
	}

	// The public endpoint: the language edition's subdomain.
	pub := &wikipedia{}
	if u := pub.endpoint("pt-BR"); u.String() != "https://pt.wikipedia.org/w/api.php" {
		t.Fatalf("endpoint %s", u)
	}
	if u := pub.endpoint("x"); u.Host != "en.wikipedia.org" {
		t.Fatalf("an invalid language must not reach the host name: %s", u)
	}
	if got := pub.articleURL(pub.endpoint("ja"), "東京 タワー"); got != "https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC_%E3%82%BF%E3%83%AF%E3%83%BC" {
		t.Fatalf("article URL %s", got)
	}
}

func TestREQ_TEST_002_WikipediaErrorClasses(t *testing.T) {
	cases := []struct {
		name   string
		status int
		header map[string]string
		body   []byte
		class  tool.Reason
		retry  time.Duration
	}{
		{"empty", 200, nil, fixture(t, "wikipedia/search-empty.json"), "", 0},
		{"429", 429, map[string]string{"Retry-After": "7"}, []byte("slow down"), tool.ReasonRateLimited, 7 * time.Second},
		{"403", 403, nil, fixture(t, "wikipedia/error-403.html"), tool.ReasonBlocked, 0},
		{"500", 500, nil, []byte("oops"), tool.ReasonRequestFailure, 0},
		{"error object", 200, nil, fixture(t, "wikipedia/error-object.json"), tool.ReasonRequestFailure, 0},
		{"malformed", 200, nil, fixture(t, "wikipedia/malformed.json"), tool.ReasonParseFailure, 0},
		{"oversized", 200, nil, append([]byte(`{"query":{"search":[],"pad":"`), bytes.Repeat([]byte("x"), 1<<20)...), tool.ReasonParseFailure, 0},
		{"not the answer's shape", 200, nil, []byte(`{"batchcomplete":""}`), tool.ReasonParseFailure, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, _ := wikipediaAt(t, func(rw http.ResponseWriter, r *http.Request) {
				for k, v := range c.header {
					rw.Header().Set(k, v)
				}
				rw.WriteHeader(c.status)
				rw.Write(c.body)
			})
			rs, err := w.Search(context.Background(), EngineRequest{Query: "q", MaxResults: 10, Language: "en"})
			if c.class == "" {
				if err != nil || len(rs) != 0 {
					t.Fatalf("want no results and no error: %v %v", rs, err)
				}
				return
			}
			ee := engineErr(t, err)
			if ee.Class != c.class || ee.RetryAfter != c.retry {
				t.Fatalf("got %s %s, want %s %s", ee.Class, ee.RetryAfter, c.class, c.retry)
			}
			if strings.Contains(ee.Error(), "Ignore") || strings.Contains(ee.Error(), "SYSTEM") {
				t.Fatal("provider text left the driver")
			}
		})
	}
	// A timeout.
	w, _ := wikipediaAt(t, func(rw http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	_, err := w.Search(ctx, EngineRequest{Query: "q", MaxResults: 10})
	if ee := engineErr(t, err); ee.Class != tool.ReasonTimeout {
		t.Fatalf("want timeout, got %s", ee.Class)
	}
}

// TestREQ_TEST_007_ProviderTextStaysData runs the whole pipeline over the
// Wikipedia driver: markup is removed, entities decoded once, the provider's
// error text reaches neither a notice nor the log.
func TestREQ_TEST_007_ProviderTextStaysData(t *testing.T) {
	var errorMode atomic.Bool
	ts, roots := tlsServer(t, func(rw http.ResponseWriter, r *http.Request) {
		if errorMode.Load() {
			rw.WriteHeader(403)
			rw.Write(fixture(t, "wikipedia/error-403.html"))
			return
		}
		rw.Write(fixture(t, "wikipedia/search-ok.json"))
	})
	base, _ := url.Parse(ts.URL + "/w/api.php")
	s := DefaultSettings()
	s.Engines = []EngineConfig{{ID: "wikipedia", Type: "wikipedia", BaseURL: base, Categories: []tool.Category{tool.CategoryGeneral}}}
	var logs bytes.Buffer
	svc, err := New(s, Deps{Roots: roots, UserAgent: testUA, Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	out, terr := svc.Search(context.Background(), tool.SearchRequest{Query: "rust programming language", Category: tool.CategoryGeneral, MaxResults: 5, Language: "en"})
	if terr != nil {
		t.Fatal(terr)
	}
	if out.Results[0].Snippet != "Rust is a general-purpose programming language emphasizing performance, type safety, and concurrency. It enforces memory safety—meaning that all references" {
		t.Fatalf("snippet %q", out.Results[0].Snippet)
	}
	if out.Results[1].Title != "Rust & Bone" || out.Results[2].Title != "Vec<T> in practice" {
		t.Fatalf("titles are decoded text and must stay as written: %q %q", out.Results[1].Title, out.Results[2].Title)
	}
	if out.Results[2].Snippet != "A <b>growable</b> array type & more" {
		t.Fatalf("entities must be decoded exactly once: %q", out.Results[2].Snippet)
	}
	errorMode.Store(true)
	_, terr = svc.Search(context.Background(), tool.SearchRequest{Query: "rust", Category: tool.CategoryGeneral, MaxResults: 5, Language: "en"})
	if terr == nil || terr.Detail.Reason != tool.ReasonAllFailed {
		t.Fatalf("want all_failed: %+v", terr)
	}
	for _, leak := range []string{"user-agent", "SYSTEM", "operator's key", "w.wiki"} {
		if strings.Contains(mustJSON(t, terr), leak) || strings.Contains(logs.String(), leak) {
			t.Fatalf("provider text %q reached the answer or the log", leak)
		}
	}
}

func braveAt(t *testing.T, endpoint string, h http.HandlerFunc) (*brave, *httptest.Server) {
	t.Helper()
	ts, roots := tlsServer(t, h)
	b, err := newBraveAt(EngineConfig{ID: "brave", Type: "brave", Endpoint: endpoint, Key: secrets.New("BSA-test-token-0123456789"), Categories: []tool.Category{tool.CategoryGeneral}},
		DefaultSettings(), Deps{Roots: roots, UserAgent: testUA, Now: time.Now}, ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	return b, ts
}

func TestREQ_TEST_002_BraveFixtures(t *testing.T) {
	var got atomic.Value
	b, _ := braveAt(t, "web", func(rw http.ResponseWriter, r *http.Request) {
		got.Store(r.Clone(context.Background()))
		rw.Write(fixture(t, "brave/web-ok.json"))
	})
	rs, err := b.Search(context.Background(), EngineRequest{Query: "rust programming language", MaxResults: 10, Language: "ja", Region: "US", SafeSearch: "moderate", TimeRange: tool.TimeRangeWeek})
	if err != nil {
		t.Fatal(err)
	}
	r := got.Load().(*http.Request)
	if r.URL.Path != "/res/v1/web/search" || r.URL.RawQuery != "q=rust+programming+language&count=10&search_lang=jp&country=US&safesearch=moderate&freshness=pw" {
		t.Fatalf("request %s?%s", r.URL.Path, r.URL.RawQuery)
	}
	if r.Header.Get("X-Subscription-Token") != "BSA-test-token-0123456789" || r.Header.Get("User-Agent") != testUA {
		t.Fatalf("headers %v", r.Header)
	}
	if len(rs) != 3 || rs[0].Title != "<strong>Rust</strong> Programming Language" || rs[0].Date != "2026-09-03" || rs[0].URL != "https://www.rust-lang.org/" {
		t.Fatalf("results %+v", rs)
	}
	if rs[1].Date != "" || rs[2].Date != "bad date" && rs[2].Date != "" {
		t.Fatalf("dates %+v", rs)
	}
	// The news endpoint.
	b, _ = braveAt(t, "news", func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/res/v1/news/search" {
			rw.WriteHeader(404)
			return
		}
		rw.Write(fixture(t, "brave/news-ok.json"))
	})
	rs, err = b.Search(context.Background(), EngineRequest{Query: "rust release", MaxResults: 10})
	if err != nil || len(rs) != 1 || rs[0].Date != "2026-11-20" {
		t.Fatalf("news: %+v %v", rs, err)
	}
}

func TestREQ_TEST_002_BraveErrorClasses(t *testing.T) {
	cases := []struct {
		name   string
		status int
		header map[string]string
		body   []byte
		class  tool.Reason
		retry  time.Duration
	}{
		{"empty", 200, nil, fixture(t, "brave/web-empty.json"), "", 0},
		{"401", 401, nil, fixture(t, "brave/error-401.json"), tool.ReasonAuthFailure, 0},
		{"403", 403, nil, fixture(t, "brave/error-401.json"), tool.ReasonAuthFailure, 0},
		{"429 Retry-After", 429, map[string]string{"Retry-After": "3"}, fixture(t, "brave/error-429.json"), tool.ReasonRateLimited, 3 * time.Second},
		{"429 X-RateLimit-Reset", 429, map[string]string{"X-RateLimit-Reset": "1, 1419704"}, fixture(t, "brave/error-429.json"), tool.ReasonRateLimited, time.Second},
		{"500", 500, nil, []byte("oops"), tool.ReasonRequestFailure, 0},
		{"302", 302, map[string]string{"Location": "/elsewhere"}, nil, tool.ReasonRequestFailure, 0},
		{"malformed", 200, nil, fixture(t, "brave/malformed.json"), tool.ReasonParseFailure, 0},
		{"other shape", 200, nil, []byte(`{"type":"ErrorResponse"}`), tool.ReasonParseFailure, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, _ := braveAt(t, "web", func(rw http.ResponseWriter, r *http.Request) {
				for k, v := range c.header {
					rw.Header().Set(k, v)
				}
				rw.WriteHeader(c.status)
				rw.Write(c.body)
			})
			rs, err := b.Search(context.Background(), EngineRequest{Query: "q", MaxResults: 10})
			if c.class == "" {
				if err != nil || len(rs) != 0 {
					t.Fatalf("want no results: %v %v", rs, err)
				}
				return
			}
			ee := engineErr(t, err)
			if ee.Class != c.class || ee.RetryAfter != c.retry {
				t.Fatalf("got %s %s, want %s %s", ee.Class, ee.RetryAfter, c.class, c.retry)
			}
		})
	}
}

// TestREQ_TEST_015_CredentialNeverLeavesItsOrigin: a provider that
// redirects to another origin, and environment proxies, never see the key.
func TestREQ_TEST_015_CredentialNeverLeavesItsOrigin(t *testing.T) {
	var canaryHits atomic.Int32
	canary := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		canaryHits.Add(1)
		if r.Header.Get("X-Subscription-Token") != "" {
			t.Errorf("the canary saw the credential")
		}
	}))
	defer canary.Close()
	canaryTLS := httptest.NewTLSServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		canaryHits.Add(1)
		if r.Header.Get("X-Subscription-Token") != "" {
			t.Errorf("the canary saw the credential")
		}
	}))
	defer canaryTLS.Close()
	t.Setenv("HTTPS_PROXY", canary.URL)
	t.Setenv("HTTP_PROXY", canary.URL)
	t.Setenv("ALL_PROXY", canary.URL)
	b, _ := braveAt(t, "web", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, canaryTLS.URL+"/steal", http.StatusFound)
	})
	_, err := b.Search(context.Background(), EngineRequest{Query: "q", MaxResults: 10})
	if ee := engineErr(t, err); ee.Class != tool.ReasonRequestFailure {
		t.Fatalf("a cross-origin redirect must fail the request: %s", ee.Class)
	}
	if n := canaryHits.Load(); n != 0 {
		t.Fatalf("the canary was reached %d times", n)
	}
}

func fixtureB(b *testing.B, name string) []byte {
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func tlsServerB(b *testing.B, h http.HandlerFunc) (*httptest.Server, *x509.CertPool) {
	ts := httptest.NewTLSServer(h)
	b.Cleanup(ts.Close)
	roots := x509.NewCertPool()
	roots.AddCert(ts.Certificate())
	return ts, roots
}
