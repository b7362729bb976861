package search

import (
	"bytes"
	"context"
	"crypto/x509"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"rypsok/egress"
	"rypsok/secrets"
	"rypsok/tool"
)

// The tests of the arxiv, crossref and openalex drivers: fixtures written
// here in each provider's documented format (testdata/README.md), served by
// loopback stand-ins reached through base_url.

const testOpenAlexKey = "oa-test-key-7f3c9a1e5b2d4f60"

// scholarAt builds a driver of typ against a loopback TLS stand-in.
func scholarAt(t *testing.T, typ string, h http.HandlerFunc) (Engine, *httptest.Server) {
	t.Helper()
	ts, roots := tlsServer(t, h)
	base, _ := url.Parse(ts.URL)
	cfg := EngineConfig{ID: typ, Type: typ, BaseURL: base, Categories: []tool.Category{tool.CategoryScience}}
	if typ == "openalex" {
		cfg.Key = secrets.New(testOpenAlexKey)
	}
	e, err := newDriver(cfg, DefaultSettings(), Deps{Roots: roots, UserAgent: testUA, Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	return e, ts
}

func serveScholarFixture(t *testing.T, name string, got *atomic.Value) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		if got != nil {
			got.Store(r.Clone(context.Background()))
		}
		rw.Write(fixture(t, name))
	}
}

func TestREQ_TEST_002_ArxivFixtures(t *testing.T) {
	var got atomic.Value
	e, _ := scholarAt(t, "arxiv", serveScholarFixture(t, "arxiv/feed-ok.xml", &got))
	rs, err := e.Search(context.Background(), EngineRequest{Query: `retrieval "augmented" (generation) AND ti:x`, MaxResults: 10, Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	r := got.Load().(*http.Request)
	if r.URL.Path != "/api/query" {
		t.Fatalf("path %s", r.URL.Path)
	}
	if q := r.URL.Query(); q.Get("search_query") != "all:retrieval AND all:augmented AND all:generation AND all:and AND all:tix" || q.Get("start") != "0" || q.Get("max_results") != "10" {
		t.Fatalf("query %s", r.URL.RawQuery)
	}
	if r.Header.Get("User-Agent") != testUA {
		t.Fatalf("User-Agent %q", r.Header.Get("User-Agent"))
	}
	want := []RawResult{
		{Title: "Evaluating Retrieval-Augmented Generation: A Survey of Metrics", URL: "https://arxiv.org/abs/2401.01234", Date: "2026-01-03",
			Snippet: "We survey the metrics used to evaluate retrieval-augmented generation systems and propose a taxonomy of what each one measures."},
		{Title: "Strings & Branes: <b>Notes</b>", URL: "https://arxiv.org/abs/hep-th/9901001", Date: "1999-01-04", Snippet: "Lecture notes on strings."},
		{Title: "A paper whose abstract is missing", URL: "https://arxiv.org/abs/2511.54321", Date: "2025-11-30"},
	}
	if len(rs) != len(want) {
		t.Fatalf("%d results: %+v", len(rs), rs)
	}
	for i := range want {
		if rs[i] != want[i] {
			t.Errorf("result %d:\n%+v\nwant\n%+v", i, rs[i], want[i])
		}
	}
	// A query with nothing searchable asks nothing.
	got = atomic.Value{}
	if rs, err := e.Search(context.Background(), EngineRequest{Query: `"" () :`, MaxResults: 10}); err != nil || len(rs) != 0 || got.Load() != nil {
		t.Fatalf("an empty search_query: %v %v", rs, err)
	}
}

func TestREQ_TEST_002_ArxivHostileEntries(t *testing.T) {
	rs, err := parseArxiv(fixture(t, "arxiv/hostile-entries.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].URL != "https://arxiv.org/abs/2402.00001" {
		t.Fatalf("only the entry with an abstract page may stay: %+v", rs)
	}
	// Markup and invisible characters stay raw for the boundary, which
	// removes them (the title is not marked decoded).
	if rs[0].TitleDecoded || rs[0].SnippetDecoded || !strings.Contains(rs[0].Title, "<script>") {
		t.Fatalf("title %+v", rs[0])
	}
}

// scholarCase is one answer of a stand-in and the class it must end in.
type scholarCase struct {
	name   string
	status int
	header map[string]string
	body   []byte
	class  tool.Reason
	retry  time.Duration
}

func runScholarCases(t *testing.T, typ string, cases []scholarCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, _ := scholarAt(t, typ, func(rw http.ResponseWriter, r *http.Request) {
				for k, v := range c.header {
					rw.Header().Set(k, v)
				}
				rw.WriteHeader(c.status)
				rw.Write(c.body)
			})
			rs, err := e.Search(context.Background(), EngineRequest{Query: "q", MaxResults: 10})
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
			if rs != nil {
				t.Fatalf("results beside an error: %v", rs)
			}
			for _, leak := range []string{"Ignore", "SYSTEM", testOpenAlexKey} {
				if strings.Contains(ee.Error(), leak) {
					t.Fatalf("%q left the driver", leak)
				}
			}
		})
	}
}

// deep is an Atom feed nested n elements deep.
func deep(n int) []byte {
	return []byte(`<feed xmlns="http://www.w3.org/2005/Atom"><entry>` + strings.Repeat("<x>", n) + strings.Repeat("</x>", n) + `</entry></feed>`)
}

func TestREQ_ENG_006_ArxivErrorClasses(t *testing.T) {
	runScholarCases(t, "arxiv", []scholarCase{
		{"empty", 200, nil, fixture(t, "arxiv/feed-empty.xml"), "", 0},
		{"error entry with 200", 200, nil, fixture(t, "arxiv/error-entry.xml"), tool.ReasonRequestFailure, 0},
		{"429 Retry-After", 429, map[string]string{"Retry-After": "9"}, []byte("Rate exceeded."), tool.ReasonRateLimited, 9 * time.Second},
		{"503 without Retry-After", 503, nil, nil, tool.ReasonRateLimited, arxivSpacing},
		{"Rate exceeded with 200", 200, nil, fixture(t, "arxiv/rate-exceeded.txt"), tool.ReasonRateLimited, arxivSpacing},
		{"403", 403, nil, []byte("<html>Forbidden</html>"), tool.ReasonBlocked, 0},
		{"400", 400, nil, fixture(t, "arxiv/error-entry.xml"), tool.ReasonRequestFailure, 0},
		{"500", 500, nil, []byte("oops"), tool.ReasonRequestFailure, 0},
		{"not well formed", 200, nil, fixture(t, "arxiv/truncated.xml"), tool.ReasonParseFailure, 0},
		{"another shape", 200, nil, fixture(t, "arxiv/rss.xml"), tool.ReasonParseFailure, 0},
		{"JSON", 200, nil, []byte(`{"feed":[]}`), tool.ReasonParseFailure, 0},
		{"entity bomb", 200, nil, fixture(t, "arxiv/entity-bomb.xml"), tool.ReasonParseFailure, 0},
		{"deep document", 200, nil, deep(10000), tool.ReasonParseFailure, 0},
		{"another charset", 200, nil, []byte(`<?xml version="1.0" encoding="ISO-8859-1"?><feed xmlns="http://www.w3.org/2005/Atom"></feed>`), tool.ReasonParseFailure, 0},
		{"too many entries", 200, nil, []byte(`<feed xmlns="http://www.w3.org/2005/Atom">` + strings.Repeat("<entry></entry>", arxivMaxEntries+1) + `</feed>`), tool.ReasonParseFailure, 0},
	})
}

func TestREQ_TEST_002_CrossrefFixtures(t *testing.T) {
	var got atomic.Value
	ts, roots := tlsServer(t, serveScholarFixture(t, "crossref/works-ok.json", &got))
	base, _ := url.Parse(ts.URL + "/works")
	now := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	e, err := newDriver(EngineConfig{ID: "crossref", Type: "crossref", BaseURL: base, Categories: []tool.Category{tool.CategoryScience}},
		DefaultSettings(), Deps{Roots: roots, UserAgent: testUA, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := e.Search(context.Background(), EngineRequest{Query: "retrieval augmented generation evaluation", MaxResults: 10, TimeRange: tool.TimeRangeYear})
	if err != nil {
		t.Fatal(err)
	}
	r := got.Load().(*http.Request)
	q := r.URL.Query()
	if r.URL.Path != "/works" || q.Get("query") != "retrieval augmented generation evaluation" || q.Get("rows") != "10" ||
		q.Get("mailto") != "ops@example.org" || q.Get("filter") != "from-pub-date:2025-12-02" || q.Get("select") != crossrefSelect {
		t.Fatalf("request %s?%s", r.URL.Path, r.URL.RawQuery)
	}
	want := []RawResult{
		{Title: "Evaluating <i>Retrieval-Augmented</i> Generation", URL: "https://doi.org/10.1000/example.2026.001", Date: "2026-03-14",
			Snippet: "We survey the metrics used to evaluate retrieval-augmented generation. Results &amp; a taxonomy follow."},
		{Title: "Evaluating Retrieval-Augmented Generation: A Survey of Metrics", URL: "https://doi.org/10.48550/arXiv.2401.01234", Date: "2026-01-03"},
		{Title: "A work dated by its year only", URL: "https://doi.org/10.5555/year-only"},
	}
	if len(rs) != len(want) {
		t.Fatalf("%d results: %+v", len(rs), rs)
	}
	for i := range want {
		if rs[i] != want[i] {
			t.Errorf("result %d:\n%+v\nwant\n%+v", i, rs[i], want[i])
		}
	}
	// A field of the wrong kind costs its item, not the answer.
	rs, err = parseCrossref(fixture(t, "crossref/wrong-kinds.json"))
	if err != nil || len(rs) != 2 || rs[0].Title != "Kept beside a malformed item" || rs[0].Date != "2026-01-02" ||
		rs[1].URL != "https://doi.org/10.1000/with%20space%3Fand%23hash" {
		t.Fatalf("wrong kinds: %+v %v", rs, err)
	}
	// The contact as the process builds its User-Agent from
	// [service] user_agent_contact.
	for contact, want := range map[string]string{"ops@example.org": "ops@example.org", "mailto:ops@example.org": "ops@example.org", "https://ops.example.org/": "", "": ""} {
		if got := contactEmail(egress.UserAgent("1.2.3", contact)); got != want {
			t.Errorf("contact %q: mailto %q, want %q", contact, got, want)
		}
	}
	// Without an e-mail contact there is no mailto.
	if contactEmail("rypsok/1 (+https://github.com/nabbisen/rypsok; https://ops.example.org/contact)") != "" || contactEmail("rypsok/1 (+https://github.com/nabbisen/rypsok)") != "" {
		t.Fatal("a URL contact is not an e-mail address")
	}
}

func TestREQ_ENG_006_CrossrefErrorClasses(t *testing.T) {
	runScholarCases(t, "crossref", []scholarCase{
		{"empty", 200, nil, fixture(t, "crossref/works-empty.json"), "", 0},
		{"400 validation failure", 400, nil, fixture(t, "crossref/error-400.json"), tool.ReasonRequestFailure, 0},
		{"failed status with 200", 200, nil, fixture(t, "crossref/error-400.json"), tool.ReasonRequestFailure, 0},
		{"429 Retry-After", 429, map[string]string{"Retry-After": "4"}, nil, tool.ReasonRateLimited, 4 * time.Second},
		{"429 advertised interval", 429, map[string]string{"X-Rate-Limit-Limit": "1", "X-Rate-Limit-Interval": "5s"}, nil, tool.ReasonRateLimited, 5 * time.Second},
		{"403", 403, nil, nil, tool.ReasonBlocked, 0},
		{"401", 401, nil, nil, tool.ReasonAuthFailure, 0},
		{"500", 500, nil, []byte("oops"), tool.ReasonRequestFailure, 0},
		{"503", 503, nil, nil, tool.ReasonRequestFailure, 0},
		{"malformed", 200, nil, fixture(t, "crossref/malformed.json"), tool.ReasonParseFailure, 0},
		{"a single work", 200, nil, fixture(t, "crossref/not-a-list.json"), tool.ReasonParseFailure, 0},
		{"items of the wrong kind", 200, nil, []byte(`{"status":"ok","message":{"items":{"DOI":"10.1/x"}}}`), tool.ReasonParseFailure, 0},
		{"every item malformed", 200, nil, []byte(`{"status":"ok","message":{"items":[{"title":1},{"DOI":[]}]}}`), tool.ReasonParseFailure, 0},
		{"XML", 200, nil, fixture(t, "arxiv/feed-ok.xml"), tool.ReasonParseFailure, 0},
	})
}

func TestREQ_TEST_002_OpenAlexFixtures(t *testing.T) {
	var got atomic.Value
	e, _ := scholarAt(t, "openalex", serveScholarFixture(t, "openalex/works-ok.json", &got))
	rs, err := e.Search(context.Background(), EngineRequest{Query: "retrieval augmented generation", MaxResults: 10})
	if err != nil {
		t.Fatal(err)
	}
	r := got.Load().(*http.Request)
	q := r.URL.Query()
	if r.URL.Path != "/works" || q.Get("search") != "retrieval augmented generation" || q.Get("per_page") != "10" ||
		q.Get("api_key") != testOpenAlexKey || q.Get("select") != openAlexSelect || q.Has("filter") {
		t.Fatalf("request %s?%s", r.URL.Path, r.URL.RawQuery)
	}
	want := []RawResult{
		{Title: "Evaluating Retrieval-Augmented Generation: A Survey of Metrics", URL: "https://arxiv.org/abs/2401.01234", Date: "2026-01-03",
			Snippet: "We survey the metrics of the field."},
		{Title: "A work without a DOI, titled by its display name", URL: "https://repository.example.org/handle/123", Date: "2025-06-30"},
		{Title: "Evaluating <i>Retrieval-Augmented</i> Generation", URL: "https://doi.org/10.1000/EXAMPLE.2026.001", Date: "2026-03-14"},
	}
	if len(rs) != len(want) {
		t.Fatalf("%d results: %+v", len(rs), rs)
	}
	for i := range want {
		if rs[i] != want[i] {
			t.Errorf("result %d:\n%+v\nwant\n%+v", i, rs[i], want[i])
		}
	}
	rs, err = parseOpenAlex(fixture(t, "openalex/wrong-kinds.json"))
	if err != nil || len(rs) != 1 || rs[0].Title != "Kept" || rs[0].Snippet != "one two" {
		t.Fatalf("wrong kinds: %+v %v", rs, err)
	}
}

func TestREQ_ENG_006_OpenAlexErrorClasses(t *testing.T) {
	runScholarCases(t, "openalex", []scholarCase{
		{"empty", 200, nil, fixture(t, "openalex/works-empty.json"), "", 0},
		{"403 is the rate limit", 403, nil, fixture(t, "openalex/error-403.json"), tool.ReasonRateLimited, 0},
		{"403 Retry-After", 403, map[string]string{"Retry-After": "2"}, fixture(t, "openalex/error-403.json"), tool.ReasonRateLimited, 2 * time.Second},
		{"429 daily budget", 429, map[string]string{"Retry-After": "3600"}, nil, tool.ReasonRateLimited, time.Hour},
		{"401", 401, nil, nil, tool.ReasonAuthFailure, 0},
		{"400", 400, nil, []byte(`{"error":"Invalid query"}`), tool.ReasonRequestFailure, 0},
		{"500", 500, nil, nil, tool.ReasonRequestFailure, 0},
		{"malformed", 200, nil, fixture(t, "openalex/malformed.json"), tool.ReasonParseFailure, 0},
		{"no results field", 200, nil, []byte(`{"meta":{"count":0}}`), tool.ReasonParseFailure, 0},
		{"results of the wrong kind", 200, nil, []byte(`{"results":"none"}`), tool.ReasonParseFailure, 0},
	})
}

// TestREQ_TEST_002_InvertedAbstractIsBounded: positions and words beyond
// the bounds are not read, so a hostile index costs bounded work, and the
// answer does not depend on the map's order.
func TestREQ_TEST_002_InvertedAbstractIsBounded(t *testing.T) {
	idx := map[string][]int{"b": {1}, "a": {0}, "far": {openAlexMaxPositions}, "neg": {-1}}
	if got := invertedAbstract(idx); got != "a b" {
		t.Fatalf("got %q", got)
	}
	// Only the first openAlexMaxPositions positions are read: a word
	// placed after that many others is never seen.
	ps := make([]int, 0, 10*openAlexMaxPositions+1)
	for i := 0; i < 10*openAlexMaxPositions; i++ {
		ps = append(ps, openAlexMaxPositions+i)
	}
	if got := invertedAbstract(map[string][]int{"w": append(ps, 0)}); got != "" {
		t.Fatalf("a position beyond the bound was read: %q", got)
	}
	clash := map[string][]int{"x": {0}, "y": {0}, "z": {1}}
	for i := 0; i < 20; i++ {
		if got := invertedAbstract(clash); got != "x z" {
			t.Fatalf("two words at one position: %q", got)
		}
	}
}

// TestREQ_SEC_010_ScholarlyAnswersAreBounded: a 100 MB answer is read to
// the record's bound and ends as parse_failure, for each driver.
func TestREQ_SEC_010_ScholarlyAnswersAreBounded(t *testing.T) {
	for _, typ := range []string{"arxiv", "crossref", "openalex"} {
		t.Run(typ, func(t *testing.T) {
			var sent atomic.Int64
			e, _ := scholarAt(t, typ, func(rw http.ResponseWriter, r *http.Request) {
				chunk := bytes.Repeat([]byte("a"), 64<<10)
				rw.Write([]byte(`{"results":["`))
				for i := 0; i < 100<<20/len(chunk); i++ {
					if _, err := rw.Write(chunk); err != nil {
						return
					}
					sent.Add(int64(len(chunk)))
				}
			})
			_, err := e.Search(context.Background(), EngineRequest{Query: "q", MaxResults: 10})
			if ee := engineErr(t, err); ee.Class != tool.ReasonParseFailure {
				t.Fatalf("got %s", ee.Class)
			}
			if n := sent.Load(); n >= 50<<20 {
				t.Fatalf("the stand-in could send %d bytes", n)
			}
		})
	}
}

// TestREQ_SEC_011_SlowAndLateAnswersTimeOut: a slow-loris answer and an
// answer after the deadline end as timeout.
func TestREQ_SEC_011_SlowAndLateAnswersTimeOut(t *testing.T) {
	slow := func(rw http.ResponseWriter, r *http.Request) {
		rw.WriteHeader(200)
		for i := 0; i < 100; i++ {
			if _, err := rw.Write([]byte(" ")); err != nil {
				return
			}
			rw.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	late := func(rw http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	}
	for _, typ := range []string{"arxiv", "crossref", "openalex"} {
		for name, h := range map[string]http.HandlerFunc{"slow-loris": slow, "late": late} {
			t.Run(typ+" "+name, func(t *testing.T) {
				e, _ := scholarAt(t, typ, h)
				ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
				defer cancel()
				_, err := e.Search(ctx, EngineRequest{Query: "q", MaxResults: 10})
				if ee := engineErr(t, err); ee.Class != tool.ReasonTimeout {
					t.Fatalf("got %s", ee.Class)
				}
			})
		}
	}
}

// scholarService runs a service over loopback stand-ins of the given types
// (each answering with h[type]), all in the science category.
func scholarService(t *testing.T, mutate func(*Settings), logs io.Writer, handlers map[string]http.HandlerFunc) *Service {
	t.Helper()
	return scholarServiceAt(t, time.Now, mutate, logs, handlers)
}

// scholarServiceAt is scholarService on the clock now.
func scholarServiceAt(t *testing.T, now func() time.Time, mutate func(*Settings), logs io.Writer, handlers map[string]http.HandlerFunc) *Service {
	t.Helper()
	s := DefaultSettings()
	var roots *x509.CertPool
	for _, typ := range []string{"arxiv", "crossref", "openalex"} {
		h, ok := handlers[typ]
		if !ok {
			continue
		}
		ts, r := tlsServer(t, h)
		roots = r
		base, _ := url.Parse(ts.URL)
		cfg := EngineConfig{ID: typ, Type: typ, BaseURL: base, Categories: []tool.Category{tool.CategoryScience}, Preference: 100}
		if typ == "openalex" {
			cfg.Key = secrets.New(testOpenAlexKey)
		}
		s.Engines = append(s.Engines, cfg)
	}
	if mutate != nil {
		mutate(&s)
	}
	if logs == nil {
		logs = io.Discard
	}
	svc, err := New(s, Deps{Roots: roots, UserAgent: testUA, Now: now, Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func science(svc *Service, q string) (*tool.SearchResponse, *tool.Error) {
	return svc.Search(context.Background(), tool.SearchRequest{Query: q, Category: tool.CategoryScience, MaxResults: 10, Language: "en"})
}

// TestREQ_RANK_004_OnePaperFromThreeSources: the same paper answered by
// arXiv (abs URL with a version), Crossref (its arXiv DOI) and OpenAlex
// (the DOI URL in lower case) is one result, found by all three.
func TestREQ_RANK_004_OnePaperFromThreeSources(t *testing.T) {
	svc := scholarService(t, func(s *Settings) { s.Attribution = true }, nil, map[string]http.HandlerFunc{
		"arxiv":    serveScholarFixture(t, "arxiv/feed-ok.xml", nil),
		"crossref": serveScholarFixture(t, "crossref/works-ok.json", nil),
		"openalex": serveScholarFixture(t, "openalex/works-ok.json", nil),
	})
	out, terr := science(svc, "retrieval augmented generation evaluation")
	if terr != nil {
		t.Fatal(terr)
	}
	paper := 0
	doiWork := 0
	for _, r := range out.Results {
		if strings.Contains(strings.ToLower(r.URL), "2401.01234") {
			paper++
			if len(r.Engines) != 3 {
				t.Errorf("the paper was credited to %v", r.Engines)
			}
		}
		if strings.Contains(strings.ToLower(r.URL), "10.1000/example.2026.001") {
			doiWork++
		}
	}
	if paper != 1 || doiWork != 1 {
		t.Fatalf("the paper appears %d times, the DOI work %d times: %s", paper, doiWork, mustJSON(t, out))
	}
}

// TestREQ_CMP_002_ScholarlyBurstStaysWithinTheRecord: a burst of searches
// reaches each stand-in no faster than its record allows, one request at
// a time; what cannot be admitted before the deadline is skipped, not
// sent.
func TestREQ_CMP_002_ScholarlyBurstStaysWithinTheRecord(t *testing.T) {
	type seen struct {
		mu       sync.Mutex
		starts   []time.Time
		inFlight int
		max      int
	}
	count := func(s *seen, fixtureName string) http.HandlerFunc {
		return func(rw http.ResponseWriter, r *http.Request) {
			s.mu.Lock()
			s.starts = append(s.starts, time.Now())
			s.inFlight++
			if s.inFlight > s.max {
				s.max = s.inFlight
			}
			s.mu.Unlock()
			time.Sleep(20 * time.Millisecond)
			rw.Write(fixture(t, fixtureName))
			s.mu.Lock()
			s.inFlight--
			s.mu.Unlock()
		}
	}
	var ax, cr seen
	svc := scholarService(t, nil, nil, map[string]http.HandlerFunc{
		"arxiv":    count(&ax, "arxiv/feed-ok.xml"),
		"crossref": count(&cr, "crossref/works-ok.json"),
	})
	const burst = 6
	var wg sync.WaitGroup
	skipped := atomic.Int32{}
	for i := 0; i < burst; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, terr := science(svc, "retrieval")
			if terr != nil {
				switch terr.Detail.Reason {
				case tool.ReasonRateLimited:
					skipped.Add(2) // both engines skipped: no answer
				case tool.ReasonDeadline:
					// arXiv skipped, and Crossref's late turn did not
					// finish on a loaded machine: allowed, and still
					// within the record.
					skipped.Add(1)
				default:
					t.Errorf("a search of the burst failed: %+v", terr)
				}
				return
			}
			for _, n := range out.Notices {
				if n.Code == tool.CodeEngineSkipped && n.Reason == tool.ReasonRateLimited {
					skipped.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	check := func(name string, s *seen, spacing time.Duration) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.max != 1 {
			t.Errorf("%s: %d requests at once, the record allows 1", name, s.max)
		}
		if len(s.starts) == 0 {
			t.Errorf("%s was never asked", name)
		}
		for i := 1; i < len(s.starts); i++ {
			// The stand-in sees a start a little after it was sent; allow
			// that jitter, never a second request inside the spacing.
			if gap := s.starts[i].Sub(s.starts[i-1]); gap < spacing-50*time.Millisecond {
				t.Errorf("%s: requests %d and %d were %s apart, the record asks %s", name, i-1, i, gap, spacing)
			}
		}
	}
	check("arxiv", &ax, arxivSpacing)
	check("crossref", &cr, crossrefSpacing)
	if len(ax.starts) != 1 {
		t.Errorf("arxiv was asked %d times within one deadline; its rate allows 1", len(ax.starts))
	}
	// Every search but one found arXiv's turn taken: skipped, not sent.
	if int(skipped.Load()) < burst-1 {
		t.Errorf("%d skips for %d+%d requests of %d searches", skipped.Load(), len(ax.starts), len(cr.starts), burst)
	}
}

// TestREQ_CMP_002_CrossrefFollowsItsAdvertisedLimits: x-rate-limit-limit,
// x-rate-limit-interval and x-concurrency-limit lower the gate as they
// change, never above the record.
func TestREQ_CMP_002_CrossrefFollowsItsAdvertisedLimits(t *testing.T) {
	h := http.Header{}
	h.Set("X-Rate-Limit-Limit", "1")
	h.Set("X-Rate-Limit-Interval", "4s")
	h.Set("X-Concurrency-Limit", "1")
	limit, interval, conc := crossrefLimits(h)
	if limit != 1 || interval != 4*time.Second || conc != 1 {
		t.Fatalf("read %d %s %d", limit, interval, conc)
	}
	clock := newClock()
	g := (*gateRegistry)(nil).gateFor("test crossref", time.Second, 3, clock.Now)
	g.advertise(crossrefLimits(h))
	if sp, n := g.limits(); sp != 4*time.Second || n != 1 {
		t.Fatalf("after the headers: %s %d", sp, n)
	}
	// More than the record is never taken.
	h.Set("X-Rate-Limit-Limit", "50")
	h.Set("X-Rate-Limit-Interval", "1s")
	h.Set("X-Concurrency-Limit", "5")
	g.advertise(crossrefLimits(h))
	if sp, n := g.limits(); sp != time.Second || n != 3 {
		t.Fatalf("above the record: %s %d", sp, n)
	}
	for _, bad := range []string{"", "-1", "0", "lots", "9999999999"} {
		h.Set("X-Rate-Limit-Limit", bad)
		if l, _, _ := crossrefLimits(h); l != 0 {
			t.Fatalf("%q read as %d", bad, l)
		}
	}
	// The gate: the second request waits its turn when the wait fits the
	// deadline, and is refused (rate_limited, nothing sent) otherwise.
	g = (*gateRegistry)(nil).gateFor("test crossref spacing", 200*time.Millisecond, 1, time.Now)
	release, err := g.enter(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := g.enter(ctx); err == nil || err.Class != tool.ReasonRateLimited {
		t.Fatalf("a second request while one runs: %v", err)
	}
	release()
	if _, err := g.enter(ctx); err == nil || err.Class != tool.ReasonRateLimited {
		t.Fatalf("a turn after the deadline must be refused: %v", err)
	}
	t0 := time.Now()
	release, err = g.enter(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	release()
	if waited := time.Since(t0); waited < 100*time.Millisecond {
		t.Fatalf("the second turn came after %s, the spacing is 200ms", waited)
	}
}

// TestREQ_TEST_008_OpenAlexKeyNeverLeaves: whatever the stand-in answers,
// the key reaches neither the log, nor an error, nor a result or notice.
func TestREQ_TEST_008_OpenAlexKeyNeverLeaves(t *testing.T) {
	var logs bytes.Buffer
	var mu sync.Mutex
	lw := writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return logs.Write(p) })
	var mode atomic.Int32
	echo := func(rw http.ResponseWriter, r *http.Request) {
		key := r.URL.Query().Get("api_key")
		switch mode.Load() {
		case 0: // the provider echoes the key in results
			rw.Write([]byte(`{"results":[{"doi":"https://doi.org/10.1000/k","title":"key ` + key + `","abstract_inverted_index":{"` + key + `":[0]}},` +
				`{"doi":"https://doi.org/10.1000/` + key + `","title":"in the URL"}]}`))
		case 1:
			rw.WriteHeader(401)
			rw.Write([]byte(`{"error":"bad key ` + key + `"}`))
		case 2:
			http.Redirect(rw, r, "https://elsewhere.example/?k="+key, http.StatusFound)
		case 3:
			rw.WriteHeader(500)
		}
	}
	svc := scholarService(t, nil, lw, map[string]http.HandlerFunc{"openalex": echo})
	var answers []string
	for m := int32(0); m < 4; m++ {
		mode.Store(m)
		out, terr := science(svc, "q")
		answers = append(answers, mustJSON(t, out), mustJSON(t, terr))
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Contains(logs.String(), testOpenAlexKey) {
		t.Fatal("the key reached the log")
	}
	if !strings.Contains(logs.String(), "engine_failed") {
		t.Fatal("the failures were not logged at all")
	}
	for i, a := range answers {
		if strings.Contains(a, testOpenAlexKey) {
			t.Fatalf("answer %d carries the key: %s", i, a)
		}
	}
	if !strings.Contains(answers[0], `"key"`) || strings.Contains(answers[0], "in the URL") {
		t.Fatalf("the echoed key must be cut from the title and its URL's result dropped: %s", answers[0])
	}
}

// TestREQ_AGG_007_ABadScholarlyEngineBlocksNoOther: an engine that hangs,
// floods or answers garbage ends in its notice; the others answer within
// the deadline.
func TestREQ_AGG_007_ABadScholarlyEngineBlocksNoOther(t *testing.T) {
	hang := func(rw http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	svc := scholarService(t, func(s *Settings) { s.Deadline = 800 * time.Millisecond; s.EngineTimeout = 600 * time.Millisecond }, nil,
		map[string]http.HandlerFunc{
			"arxiv": hang,
			"crossref": func(rw http.ResponseWriter, r *http.Request) {
				rw.Write([]byte(`{"status":"ok","message":{"items":[{"DOI":1}]}}`))
			},
			"openalex": serveScholarFixture(t, "openalex/works-ok.json", nil),
		})
	t0 := time.Now()
	out, terr := science(svc, "q")
	if terr != nil {
		t.Fatal(terr)
	}
	// The deadline is 800 ms; the margin is for a loaded machine, far
	// below the hanging engine's wait.
	if el := time.Since(t0); el > 3*time.Second {
		t.Fatalf("the search took %s", el)
	}
	if out.Outcome != tool.OutcomePartial || len(out.Results) != 3 {
		t.Fatalf("outcome %s, %d results", out.Outcome, len(out.Results))
	}
	want := map[string]tool.Reason{"arxiv": tool.ReasonTimeout, "crossref": tool.ReasonParseFailure}
	for _, n := range out.Notices {
		if n.Code == tool.CodeEngineUnavailable {
			if want[n.Engine] != n.Reason {
				t.Errorf("notice %+v", n)
			}
			delete(want, n.Engine)
		}
	}
	if len(want) != 0 {
		t.Fatalf("missing notices: %v", want)
	}
}

// TestREQ_CMP_002_ArxivEnginesShareOneLimit: two arxiv engines of one
// process reach arXiv once per three seconds together, since its limit is
// per client. The engine whose turn has not come is skipped with
// rate_limited: nothing is sent, nothing is logged as a failure, and its
// circuit does not count it.
func TestREQ_CMP_002_ArxivEnginesShareOneLimit(t *testing.T) {
	var hits atomic.Int32
	ts, roots := tlsServer(t, func(rw http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		rw.Write(fixture(t, "arxiv/feed-ok.xml"))
	})
	base, _ := url.Parse(ts.URL)
	s := DefaultSettings()
	for _, id := range []string{"arxiv_a", "arxiv_b"} {
		s.Engines = append(s.Engines, EngineConfig{ID: id, Type: "arxiv", BaseURL: base, Categories: []tool.Category{tool.CategoryScience}})
	}
	clock := newClock()
	var logs bytes.Buffer
	var mu sync.Mutex
	lw := writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return logs.Write(p) })
	svc, err := New(s, Deps{Roots: roots, UserAgent: testUA, Now: clock.Now, Logger: slog.New(slog.NewJSONHandler(lw, nil))})
	if err != nil {
		t.Fatal(err)
	}
	const rounds = 4
	for i := 0; i < rounds; i++ {
		out, terr := science(svc, "retrieval")
		if terr != nil {
			t.Fatalf("round %d: %+v", i, terr)
		}
		skipped := 0
		for _, n := range out.Notices {
			switch {
			case n.Code == tool.CodeEngineSkipped && n.Reason == tool.ReasonRateLimited:
				skipped++
			case n.Code == tool.CodeEngineUnavailable:
				t.Fatalf("round %d: our own wait reported as the provider's failure: %+v", i, n)
			}
		}
		if skipped != 1 {
			t.Fatalf("round %d: %d engines skipped, want 1: %+v", i, skipped, out.Notices)
		}
		clock.Add(arxivSpacing)
	}
	if n := hits.Load(); n != rounds {
		t.Fatalf("arXiv was asked %d times in %d rounds of three seconds", n, rounds)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Contains(logs.String(), "engine_failed") || strings.Contains(logs.String(), "circuit_opened") {
		t.Fatalf("a skip reached the circuit: %s", logs.String())
	}
	for _, st := range svc.Status(context.Background()).Engines {
		if st.State != tool.StateClosed {
			t.Fatalf("engine %s is %s", st.ID, st.State)
		}
	}
}

// TestREQ_CMP_002_CrossrefSlowsToWhatItAdvertises: after an answer that
// advertises one request per five seconds, the next search within those
// five seconds sends nothing (rate_limited, marked not sent); when the
// provider raises the limit again, the record's spacing applies.
func TestREQ_CMP_002_CrossrefSlowsToWhatItAdvertises(t *testing.T) {
	var hits atomic.Int32
	var interval atomic.Value
	interval.Store("5s")
	ts, roots := tlsServer(t, func(rw http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		rw.Header().Set("X-Rate-Limit-Limit", "1")
		rw.Header().Set("X-Rate-Limit-Interval", interval.Load().(string))
		rw.Write(fixture(t, "crossref/works-empty.json"))
	})
	base, _ := url.Parse(ts.URL)
	clock := newClock()
	e, err := newDriver(EngineConfig{ID: "crossref", Type: "crossref", BaseURL: base, Categories: []tool.Category{tool.CategoryScience}},
		DefaultSettings(), Deps{Roots: roots, UserAgent: testUA, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	ask := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		_, err := e.Search(ctx, EngineRequest{Query: "q", MaxResults: 5})
		return err
	}
	if err := ask(); err != nil {
		t.Fatal(err)
	}
	clock.Add(2 * time.Second) // the record's spacing has passed, the advertised one has not
	ee := engineErr(t, ask())
	if ee.Class != tool.ReasonRateLimited || !ee.NotSent || hits.Load() != 1 {
		t.Fatalf("within the advertised interval: %+v, %d requests", ee, hits.Load())
	}
	clock.Add(3 * time.Second)
	interval.Store("1s")
	if err := ask(); err != nil || hits.Load() != 2 {
		t.Fatalf("after the advertised interval: %v, %d requests", err, hits.Load())
	}
	clock.Add(crossrefSpacing)
	if err := ask(); err != nil || hits.Load() != 3 {
		t.Fatalf("the provider raised its limit back to the record's: %v, %d requests", err, hits.Load())
	}
}

// TestREQ_TEST_007_ScholarlyTextIsCleaned: markup, entities and invisible
// characters in a provider's title and abstract leave the pipeline as
// plain text, counted in the notices.
func TestREQ_TEST_007_ScholarlyTextIsCleaned(t *testing.T) {
	svc := scholarService(t, nil, nil, map[string]http.HandlerFunc{
		"arxiv":    serveScholarFixture(t, "arxiv/hostile-entries.xml", nil),
		"crossref": serveScholarFixture(t, "crossref/works-ok.json", nil),
	})
	out, terr := science(svc, "q")
	if terr != nil {
		t.Fatal(terr)
	}
	var hostile, jats *tool.Result
	for i, r := range out.Results {
		switch {
		case strings.Contains(r.URL, "2402.00001"):
			hostile = &out.Results[i]
		case strings.Contains(r.URL, "10.1000/example.2026.001"):
			jats = &out.Results[i]
		}
	}
	if hostile == nil || jats == nil {
		t.Fatalf("results %s", mustJSON(t, out))
	}
	for _, bad := range []string{"<", ">", "\u200b", "\u202e", "&lt;", "onerror"} {
		if strings.Contains(hostile.Title+hostile.Snippet, bad) {
			t.Errorf("%q left in %q / %q", bad, hostile.Title, hostile.Snippet)
		}
	}
	if !strings.HasPrefix(hostile.Title, "Zero") || !strings.Contains(hostile.Snippet, "A summary with markup.") {
		t.Errorf("the text itself must stay: %q / %q", hostile.Title, hostile.Snippet)
	}
	if jats.Title != "Evaluating Retrieval-Augmented Generation" || jats.Snippet != "We survey the metrics used to evaluate retrieval-augmented generation. Results & a taxonomy follow." {
		t.Errorf("JATS: %q / %q", jats.Title, jats.Snippet)
	}
	removed := false
	for _, n := range out.Notices {
		removed = removed || n.Code == tool.CodeCharactersRemoved && n.Count > 0
	}
	if !removed {
		t.Errorf("the invisible characters were not counted: %+v", out.Notices)
	}
}

// TestREQ_RES_004_ScholarlyFailuresOpenTheCircuit: three answers in a row
// that do not parse open the engine's circuit; the next search skips it
// (cooldown) without asking, and the other engine still answers.
func TestREQ_RES_004_ScholarlyFailuresOpenTheCircuit(t *testing.T) {
	var hits atomic.Int32
	clock := newClock()
	svc := scholarServiceAt(t, clock.Now, nil, nil, map[string]http.HandlerFunc{
		"crossref": func(rw http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			rw.Write([]byte(`{"status":"ok","message":{"items":"not a list"}}`))
		},
		"openalex": serveScholarFixture(t, "openalex/works-ok.json", nil),
	})
	for i := 0; i < 3; i++ {
		out, terr := science(svc, "q")
		if terr != nil || out.Outcome != tool.OutcomePartial {
			t.Fatalf("search %d: %+v %+v", i, out, terr)
		}
		clock.Add(5 * time.Second)
	}
	out, terr := science(svc, "q")
	if terr != nil {
		t.Fatal(terr)
	}
	cooled := false
	for _, n := range out.Notices {
		cooled = cooled || n.Code == tool.CodeEngineSkipped && n.Engine == "crossref" && n.Reason == tool.ReasonCooldown
	}
	if !cooled || hits.Load() != 3 || len(out.Results) == 0 {
		t.Fatalf("after three parse failures: %d requests, %+v", hits.Load(), out.Notices)
	}
}

// TestREQ_TEST_002_LongFieldsAreCutOnCharacters: a field above its bound
// is cut without splitting a character.
func TestREQ_TEST_002_LongFieldsAreCutOnCharacters(t *testing.T) {
	long := "x" + strings.Repeat("é", arxivMaxField)
	rs, err := parseArxiv([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2401.01234</id><title>T</title><summary>` + long + `</summary></entry></feed>`))
	if err != nil || len(rs) != 1 {
		t.Fatalf("%v %v", rs, err)
	}
	if s := rs[0].Snippet; !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) || len(s) > arxivMaxField || len(s) < arxivMaxField-2 {
		t.Fatalf("snippet of %d bytes, valid %v", len(s), utf8.ValidString(s))
	}
	if s := jatsText("<jats:p>x" + strings.Repeat("é", crossrefMaxAbstract) + "</jats:p>"); !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) || len(s) > crossrefMaxAbstract {
		t.Fatalf("abstract of %d bytes, valid %v", len(s), utf8.ValidString(s))
	}
}

// TestREQ_CMP_002_OneGatePerProviderIdentity: engines of one provider that
// share an identity (arXiv: the process; Crossref: the contact; OpenAlex:
// the key) share one gate; another key or another origin has its own.
func TestREQ_CMP_002_OneGatePerProviderIdentity(t *testing.T) {
	base, _ := url.Parse("https://gate-test.example")
	other, _ := url.Parse("https://other-gate-test.example")
	gates := &gateRegistry{}
	build := func(typ, key string, b *url.URL, ua string) *providerGate {
		cfg := EngineConfig{ID: typ, Type: typ, BaseURL: b, Categories: []tool.Category{tool.CategoryScience}, Key: secrets.New(key)}
		e, err := newDriver(cfg, DefaultSettings(), Deps{Roots: x509.NewCertPool(), UserAgent: ua, gates: gates})
		if err != nil {
			t.Fatal(err)
		}
		switch d := e.(type) {
		case *arxiv:
			return d.gate
		case *crossref:
			return d.gate
		case *openAlex:
			return d.gate
		}
		t.Fatalf("%T", e)
		return nil
	}
	if build("arxiv", "", base, testUA) != build("arxiv", "", base, "other") || build("arxiv", "", base, testUA) == build("arxiv", "", other, testUA) {
		t.Error("arxiv: one gate per origin")
	}
	if build("crossref", "", base, testUA) != build("crossref", "", base, testUA) || build("crossref", "", base, testUA) == build("crossref", "", base, "rypsok/1 (+x; other@example.org)") {
		t.Error("crossref: one gate per origin and contact")
	}
	if build("openalex", "key-one-0123456789", base, testUA) != build("openalex", "key-one-0123456789", base, testUA) ||
		build("openalex", "key-one-0123456789", base, testUA) == build("openalex", "key-two-0123456789", base, testUA) {
		t.Error("openalex: one gate per origin and key")
	}
	gates.mu.Lock()
	defer gates.mu.Unlock()
	for name := range gates.gates {
		if strings.Contains(name, "key-one") || strings.Contains(name, testOpenAlexKey) {
			t.Fatalf("a gate is named with the key: %q", name)
		}
	}
}
