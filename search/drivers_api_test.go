package search

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"rypsok/secrets"
	"rypsok/tool"
)

// apiDriverAt builds a driver of typ against a loopback TLS stand-in
// serving h, on the injected clock now.
func apiDriverAt(t *testing.T, typ string, cfg EngineConfig, now func() time.Time, h http.HandlerFunc) Engine {
	t.Helper()
	ts, roots := tlsServer(t, h)
	base, _ := url.Parse(ts.URL)
	cfg.ID, cfg.Type, cfg.BaseURL = typ, typ, base
	if cfg.Categories == nil {
		cfg.Categories = []tool.Category{tool.CategoryCode}
	}
	e, err := newDriver(cfg, DefaultSettings(), Deps{Roots: roots, UserAgent: testUA, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// serveFixture answers every request with status and the fixture, and
// keeps the last request for the test to read.
func serveFixture(t *testing.T, last *atomic.Value, status int, header map[string]string, name string) http.HandlerFunc {
	body := fixture(t, name)
	return func(rw http.ResponseWriter, r *http.Request) {
		if last != nil {
			last.Store(r.Clone(context.Background()))
		}
		for k, v := range header {
			rw.Header().Set(k, v)
		}
		rw.Header().Set("Content-Type", "application/json")
		rw.WriteHeader(status)
		rw.Write(body)
	}
}

func fixedClock() func() time.Time {
	t := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	return func() time.Time { return t }
}

func TestREQ_TEST_002_SearXNGFixtures(t *testing.T) {
	var last atomic.Value
	e := apiDriverAt(t, "searxng", EngineConfig{}, fixedClock(), serveFixture(t, &last, 200, nil, "searxng/search-ok.json"))
	rs, err := e.Search(context.Background(), EngineRequest{Query: "python asyncio timeout", Category: tool.CategoryCode,
		MaxResults: 10, Language: "en", SafeSearch: "moderate", TimeRange: tool.TimeRangeWeek})
	if err != nil {
		t.Fatal(err)
	}
	r := last.Load().(*http.Request)
	q := r.URL.Query()
	if r.URL.Path != "/search" || q.Get("q") != "python asyncio timeout" || q.Get("format") != "json" || q.Get("categories") != "it" ||
		q.Get("language") != "en" || q.Get("safesearch") != "1" || q.Get("time_range") != "week" {
		t.Fatalf("request %s?%s", r.URL.Path, r.URL.RawQuery)
	}
	if r.Header.Get("Accept") != "application/json" || r.Header.Get("User-Agent") != testUA {
		t.Fatalf("headers %v", r.Header)
	}
	want := []RawResult{
		{Title: "Coroutines and Tasks &mdash; Python 3 documentation", URL: "https://docs.python.org/3/library/asyncio-task.html",
			Snippet: "asyncio.<b>timeout</b>() is an asynchronous context manager that can be used to limit the time spent waiting"},
		{Title: "asyncio.wait_for cancels the task", URL: "https://stackoverflow.com/questions/1001",
			Snippet: "When the timeout occurs, it cancels the task and raises TimeoutError.", Date: "2026-11-20"},
		{Title: "Not a page", URL: "javascript:alert(1)"},
	}
	if !reflect.DeepEqual(rs, want) {
		t.Fatalf("results\n%+v\nwant\n%+v", rs, want)
	}
	// Each category maps to the instance's; general stays general.
	for cat, want := range map[tool.Category]string{tool.CategoryGeneral: "general", tool.CategoryNews: "news", tool.CategoryScience: "science"} {
		e.Search(context.Background(), EngineRequest{Query: "q", Category: cat, SafeSearch: "strict"})
		q := last.Load().(*http.Request).URL.Query()
		if q.Get("categories") != want || q.Get("safesearch") != "2" || q.Has("time_range") {
			t.Fatalf("%s: %s", cat, last.Load().(*http.Request).URL.RawQuery)
		}
	}
	// The instance's own limiter answers 429 without Retry-After; a 403
	// is the JSON format left out of search.formats.
	for _, c := range []struct {
		status int
		name   string
		class  tool.Reason
	}{{429, "searxng/search-empty.json", tool.ReasonRateLimited}, {403, "searxng/forbidden.html", tool.ReasonRequestFailure}} {
		e := apiDriverAt(t, "searxng", EngineConfig{}, fixedClock(), serveFixture(t, nil, c.status, nil, c.name))
		_, err := e.Search(context.Background(), EngineRequest{Query: "q"})
		if ee := engineErr(t, err); ee.Class != c.class {
			t.Fatalf("%d: %s", c.status, ee.Class)
		}
	}
}

func TestREQ_SEC_017_SearXNGAdmitsPlainHTTPOnItsNetworkOnly(t *testing.T) {
	base, _ := url.Parse("http://searx.internal:8888/")
	if _, err := newDriver(EngineConfig{ID: "s", Type: "searxng", BaseURL: base}, DefaultSettings(), Deps{}); err != nil {
		t.Fatalf("a plain-http instance on the private network: %v", err)
	}
	for _, typ := range []string{"stackexchange", "github", "hackernews"} {
		if _, err := newDriver(EngineConfig{ID: "x", Type: typ, BaseURL: base}, DefaultSettings(), Deps{}); err == nil {
			t.Fatalf("%s took a plain-http base_url on a non-loopback host", typ)
		}
	}
	if _, err := newDriver(EngineConfig{ID: "s", Type: "searxng"}, DefaultSettings(), Deps{}); err == nil {
		t.Fatal("searxng was built without its base_url")
	}
}

func TestREQ_TEST_002_StackExchangeFixtures(t *testing.T) {
	var last atomic.Value
	now := fixedClock()
	e := apiDriverAt(t, "stackexchange", EngineConfig{Site: "superuser"}, now, serveFixture(t, &last, 200, nil, "stackexchange/excerpts-ok.json"))
	rs, err := e.Search(context.Background(), EngineRequest{Query: "asyncio wait_for", MaxResults: 10, TimeRange: tool.TimeRangeMonth})
	if err != nil {
		t.Fatal(err)
	}
	r := last.Load().(*http.Request)
	q := r.URL.Query()
	if r.URL.Path != "/2.3/search/excerpts" || q.Get("q") != "asyncio wait_for" || q.Get("site") != "superuser" || q.Get("pagesize") != "10" ||
		q.Get("fromdate") != "1793620800" || q.Has("key") {
		t.Fatalf("request %s?%s", r.URL.Path, r.URL.RawQuery)
	}
	// One result per question, at the question's page on the site's host;
	// the date is the question's, never an answer's.
	want := []RawResult{
		{Title: "Why does asyncio.wait_for cancel my task when the &quot;timeout&quot; expires?", URL: "https://superuser.com/questions/1001",
			Snippet: `I use <span class="highlight">asyncio</span>.wait_for and the task is cancelled&hellip;`, Date: "2023-11-14"},
		{Title: "Protecting a task from cancellation", URL: "https://superuser.com/questions/3003", Snippet: "Use asyncio.shield to protect the task"},
	}
	if !reflect.DeepEqual(rs, want) {
		t.Fatalf("results\n%+v\nwant\n%+v", rs, want)
	}
	if e.(*stackExchange).readyAt().After(now()) {
		t.Fatal("no backoff was asked, yet the next request is held")
	}

	// The key goes in the key parameter, and raises the daily quota.
	keyed := apiDriverAt(t, "stackexchange", EngineConfig{Key: secrets.New("se-key-0123456789abcdef")}, now, serveFixture(t, &last, 200, nil, "stackexchange/excerpts-ok.json"))
	keyed.Search(context.Background(), EngineRequest{Query: "q"})
	if got := last.Load().(*http.Request).URL.Query(); got.Get("key") != "se-key-0123456789abcdef" || got.Get("site") != "stackoverflow" {
		t.Fatalf("keyed request %s", last.Load().(*http.Request).URL.RawQuery)
	}
	if keyed.Properties().RatePerDay <= e.Properties().RatePerDay {
		t.Fatal("the key does not raise the quota")
	}

	// backoff holds the next request.
	b := apiDriverAt(t, "stackexchange", EngineConfig{}, now, serveFixture(t, nil, 200, nil, "stackexchange/excerpts-backoff.json"))
	if rs, err := b.Search(context.Background(), EngineRequest{Query: "q"}); err != nil || len(rs) != 1 {
		t.Fatalf("backoff answer: %v %v", rs, err)
	}
	if got := b.(*stackExchange).readyAt(); !got.Equal(now().Add(10 * time.Second)) {
		t.Fatalf("backoff held until %s", got)
	}
}

func TestREQ_RES_002_StackExchangeErrors(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		class  tool.Reason
		retry  time.Duration
	}{
		{"throttle violation: the wait is in the message", 400, "stackexchange/error-throttle.json", tool.ReasonRateLimited, 1234 * time.Second},
		{"bad parameter", 400, "stackexchange/error-bad-parameter.json", tool.ReasonRequestFailure, 0},
		{"access denied", 400, "stackexchange/error-access-denied.json", tool.ReasonAuthFailure, 0},
		{"a 400 that is not the wrapper", 400, "searxng/forbidden.html", tool.ReasonRequestFailure, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := apiDriverAt(t, "stackexchange", EngineConfig{}, fixedClock(), serveFixture(t, nil, c.status, nil, c.body))
			_, err := e.Search(context.Background(), EngineRequest{Query: "q"})
			ee := engineErr(t, err)
			if ee.Class != c.class || ee.RetryAfter != c.retry {
				t.Fatalf("got %s %s, want %s %s", ee.Class, ee.RetryAfter, c.class, c.retry)
			}
		})
	}
	if w := throttleWait("more requests available in 999999999 seconds"); w != maxRetryAfter {
		t.Fatalf("an unbounded wait: %s", w)
	}
	if w := throttleWait("too many requests"); w != 0 {
		t.Fatalf("a message without a wait: %s", w)
	}
}

func TestREQ_TEST_002_GitHubFixtures(t *testing.T) {
	var last atomic.Value
	now := fixedClock()
	e := apiDriverAt(t, "github", EngineConfig{Endpoint: "repositories"}, now, serveFixture(t, &last, 200, nil, "github/repositories-ok.json"))
	rs, err := e.Search(context.Background(), EngineRequest{Query: "asyncio timeout", MaxResults: 10, TimeRange: tool.TimeRangeYear})
	if err != nil {
		t.Fatal(err)
	}
	r := last.Load().(*http.Request)
	if r.URL.Path != "/search/repositories" || r.URL.Query().Get("q") != "asyncio timeout pushed:>=2025-12-02" || r.URL.Query().Get("per_page") != "10" {
		t.Fatalf("request %s?%s", r.URL.Path, r.URL.RawQuery)
	}
	if r.Header.Get("Authorization") != "" || r.Header.Get("Accept") != "application/vnd.github+json" {
		t.Fatalf("keyless headers %v", r.Header)
	}
	want := []RawResult{
		{Title: "example/asyncio-timeouts", URL: "https://github.com/example/asyncio-timeouts", Date: "2026-10-30",
			Snippet: "Timeouts for asyncio that never cancel <the> task & its children"},
		{Title: "example/no-description", URL: "https://github.com/example/no-description"},
	}
	if !reflect.DeepEqual(rs, want) {
		t.Fatalf("results\n%+v\nwant\n%+v", rs, want)
	}

	is := apiDriverAt(t, "github", EngineConfig{Endpoint: "issues", Key: secrets.New("ghp_" + strings.Repeat("A1b2", 9))}, now,
		serveFixture(t, &last, 200, nil, "github/issues-ok.json"))
	rs, err = is.Search(context.Background(), EngineRequest{Query: "wait_for cancels", MaxResults: 5})
	if err != nil {
		t.Fatal(err)
	}
	r = last.Load().(*http.Request)
	if r.URL.Path != "/search/issues" || r.URL.Query().Get("q") != "wait_for cancels is:issue" || r.Header.Get("Authorization") != "Bearer ghp_"+strings.Repeat("A1b2", 9) {
		t.Fatalf("issues request %s?%s %v", r.URL.Path, r.URL.RawQuery, r.Header.Get("Authorization") != "")
	}
	wantIssue := RawResult{Title: "wait_for cancels the task on timeout", URL: "https://github.com/example/lib/issues/7", Date: "2026-11-15",
		Snippet: "### What happened The task is cancelled when the timeout expires. Expected it to keep running. ### More lots of detail that the snippet need not carry",
	}
	if len(rs) != 1 || rs[0] != wantIssue {
		t.Fatalf("issue\n%+v\nwant\n%+v", rs, wantIssue)
	}
	if is.Properties().RatePerMinute <= e.Properties().RatePerMinute {
		t.Fatal("the token does not raise the search limit")
	}
}

func TestREQ_RES_002_GitHubErrors(t *testing.T) {
	now := fixedClock()
	reset := now().Add(42 * time.Second).Unix()
	cases := []struct {
		name   string
		keyed  bool
		status int
		header map[string]string
		class  tool.Reason
		retry  time.Duration
	}{
		{"403 with no requests remaining is a rate limit", false, 403, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": strconv.FormatInt(reset, 10)}, tool.ReasonRateLimited, 42 * time.Second},
		{"429 with Retry-After", true, 429, map[string]string{"Retry-After": "9"}, tool.ReasonRateLimited, 9 * time.Second},
		{"secondary limit: 403 with Retry-After", true, 403, map[string]string{"Retry-After": "60"}, tool.ReasonRateLimited, 60 * time.Second},
		{"secondary limit: 403 whose message says so, without Retry-After", true, 403, nil, tool.ReasonRateLimited, time.Minute},
		{"403 with a token", true, 403, map[string]string{"X-Test-Body": "forbidden"}, tool.ReasonAuthFailure, 0},
		{"403 keyless", false, 403, map[string]string{"X-Test-Body": "forbidden"}, tool.ReasonBlocked, 0},
		{"401", true, 401, nil, tool.ReasonAuthFailure, 0},
		{"422", false, 422, nil, tool.ReasonRequestFailure, 0},
		{"503", false, 503, nil, tool.ReasonRequestFailure, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := EngineConfig{Endpoint: "repositories"}
			if c.keyed {
				cfg.Key = secrets.New("ghp_" + strings.Repeat("x", 36))
			}
			name := "github/error-rate-limit.json"
			switch {
			case c.status == 422:
				name = "github/error-422.json"
			case c.header["X-Test-Body"] == "forbidden":
				name = "github/error-403.json"
			}
			e := apiDriverAt(t, "github", cfg, now, serveFixture(t, nil, c.status, c.header, name))
			_, err := e.Search(context.Background(), EngineRequest{Query: "q"})
			ee := engineErr(t, err)
			if ee.Class != c.class || ee.RetryAfter != c.retry {
				t.Fatalf("got %s %s, want %s %s", ee.Class, ee.RetryAfter, c.class, c.retry)
			}
		})
	}
}

func TestREQ_TEST_002_HackerNewsFixtures(t *testing.T) {
	var last atomic.Value
	now := fixedClock()
	e := apiDriverAt(t, "hackernews", EngineConfig{Categories: []tool.Category{tool.CategoryNews}}, now, serveFixture(t, &last, 200, nil, "hackernews/search-ok.json"))
	rs, err := e.Search(context.Background(), EngineRequest{Query: "asyncio timeout", MaxResults: 10, TimeRange: tool.TimeRangeDay})
	if err != nil {
		t.Fatal(err)
	}
	r := last.Load().(*http.Request)
	q := r.URL.Query()
	if r.URL.Path != "/api/v1/search" || q.Get("query") != "asyncio timeout" || q.Get("tags") != "story" || q.Get("hitsPerPage") != "10" ||
		q.Get("numericFilters") != "created_at_i>1796126400" {
		t.Fatalf("request %s?%s", r.URL.Path, r.URL.RawQuery)
	}
	want := []RawResult{
		{Title: "Python asyncio timeouts & cancellation", URL: "https://blog.example.org/asyncio-timeouts", Date: "2026-11-02"},
		{Title: "Ask HN: Timeouts in async Python?", URL: "https://news.ycombinator.com/item?id=39000002", Date: "2026-10-05",
			Snippet: "<p>How do you handle timeouts in asyncio &amp; trio?</p>"},
	}
	if !reflect.DeepEqual(rs, want) {
		t.Fatalf("results\n%+v\nwant\n%+v", rs, want)
	}
}
