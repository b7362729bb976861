package search

import (
	"bytes"
	"context"
	"crypto/x509"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"rypsok/secrets"
	"rypsok/tool"
)

// apiTypes are the four drivers of the developer, news and instance
// engines, with a valid answer and one whose every field is hostile: a
// title with markup, an entity and an invisible character, and a
// javascript: URL.
var apiTypes = []struct {
	typ     string
	cat     tool.Category
	ok      string
	hostile string
	wrong   string // a field of the wrong kind
}{
	{"searxng", tool.CategoryGeneral, "searxng/search-ok.json",
		`{"results":[{"url":"https://a.example/","title":"<b>Bold</b> &amp; \u200bhidden","content":"x"},{"url":"javascript:alert(1)","title":"J","content":""}]}`,
		`{"results":"none"}`},
	{"stackexchange", tool.CategoryCode, "stackexchange/excerpts-ok.json",
		`{"items":[{"question_id":1,"item_type":"question","creation_date":1700000000,"title":"<b>Bold</b> &amp; \u200bhidden","excerpt":"x"}],"quota_max":300,"quota_remaining":1}`,
		`{"items":[{"question_id":"one","title":"x"}]}`},
	{"github", tool.CategoryCode, "github/repositories-ok.json",
		`{"total_count":2,"items":[{"full_name":"<b>Bold</b> &amp; \u200bhidden","html_url":"https://github.com/a/b","description":"x"},{"full_name":"J","html_url":"javascript:alert(1)"}]}`,
		`{"items":[{"full_name":7,"html_url":"https://github.com/a/b"}]}`},
	{"hackernews", tool.CategoryNews, "hackernews/search-ok.json",
		`{"hits":[{"objectID":"1","title":"<b>Bold</b> &amp; \u200bhidden","url":"https://a.example/"},{"objectID":"2","title":"J","url":"javascript:alert(1)"}]}`,
		`{"hits":{"objectID":"1"}}`},
}

// TestREQ_ENG_006_BadInputFromProviders: every driver ends each kind of
// bad answer in one class of the engine errors table, without a panic.
func TestREQ_ENG_006_BadInputFromProviders(t *testing.T) {
	huge := func(rw http.ResponseWriter, r *http.Request) {
		rw.WriteHeader(200)
		rw.Write([]byte(`{"results":[],"items":[],"hits":[],"pad":"`))
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for n := 0; n < 100<<20; n += len(chunk) { // 100 MB, cut off at the bound
			if _, err := rw.Write(chunk); err != nil {
				return
			}
		}
	}
	slowLoris := func(rw http.ResponseWriter, r *http.Request) {
		rw.WriteHeader(200)
		rw.Write([]byte("{"))
		rw.(http.Flusher).Flush()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
				rw.Write([]byte(" "))
				rw.(http.Flusher).Flush()
			}
		}
	}
	for _, d := range apiTypes {
		late := func(rw http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
			rw.Write(fixture(t, d.ok))
		}
		body := func(status int, b string) http.HandlerFunc {
			return func(rw http.ResponseWriter, r *http.Request) { rw.WriteHeader(status); rw.Write([]byte(b)) }
		}
		forbidden := tool.ReasonBlocked
		if d.typ == "searxng" || d.typ == "stackexchange" {
			forbidden = tool.ReasonRequestFailure
		}
		cases := []struct {
			name  string
			h     http.HandlerFunc
			class tool.Reason
		}{
			{"malformed", body(200, `{"results": [`), tool.ReasonParseFailure},
			{"wrong kind", body(200, d.wrong), tool.ReasonParseFailure},
			{"missing field", body(200, `{}`), tool.ReasonParseFailure},
			{"not JSON", body(200, `<html>maintenance</html>`), tool.ReasonParseFailure},
			{"100 MB", huge, tool.ReasonParseFailure},
			{"429", body(429, ``), tool.ReasonRateLimited},
			{"403", body(403, `forbidden`), forbidden},
			{"500", body(500, `oops`), tool.ReasonRequestFailure},
			{"502", body(502, `bad gateway`), tool.ReasonRequestFailure},
			{"slow loris", slowLoris, tool.ReasonTimeout},
			{"after the deadline", late, tool.ReasonTimeout},
		}
		for _, c := range cases {
			t.Run(d.typ+"/"+c.name, func(t *testing.T) {
				e := apiDriverAt(t, d.typ, EngineConfig{}, time.Now, c.h)
				limit := 5 * time.Second // bounds, not time, end the other cases
				if c.class == tool.ReasonTimeout {
					limit = 400 * time.Millisecond
				}
				ctx, cancel := context.WithTimeout(context.Background(), limit)
				defer cancel()
				rs, err := e.Search(ctx, EngineRequest{Query: "q", Category: d.cat, MaxResults: 10})
				if err == nil {
					t.Fatalf("no error, %d results", len(rs))
				}
				if ee := engineErr(t, err); ee.Class != c.class || rs != nil {
					t.Fatalf("class %s, want %s", ee.Class, c.class)
				}
			})
		}
	}
}

// apiService is a search service of real drivers against one loopback
// stand-in each; logs go to the returned buffer.
type apiService struct {
	svc  *Service
	logs *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newAPIService(t *testing.T, mutate func(*Settings), now func() time.Time, engines ...EngineConfig) apiService {
	t.Helper()
	s := DefaultSettings()
	s.Engines = engines
	if mutate != nil {
		mutate(&s)
	}
	roots := x509.NewCertPool()
	for _, e := range engines {
		if e.BaseURL != nil {
			roots.AddCert(servers[e.BaseURL.Host].Certificate())
		}
	}
	logs := &syncBuffer{b: &bytes.Buffer{}}
	svc, err := New(s, Deps{Roots: roots, UserAgent: testUA, Now: now,
		Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	return apiService{svc: svc, logs: logs}
}

// standIn starts a loopback TLS stand-in and returns an engine of typ
// pointed at it.
func standIn(t *testing.T, id, typ string, cat tool.Category, h http.HandlerFunc) EngineConfig {
	t.Helper()
	ts, _ := tlsServer(t, h)
	base, _ := url.Parse(ts.URL)
	serversMu.Lock()
	servers[base.Host] = ts
	serversMu.Unlock()
	return EngineConfig{ID: id, Type: typ, Categories: []tool.Category{cat}, Preference: 100, BaseURL: base}
}

// TestREQ_SEC_015_HostileFieldsAreCleanedAndBadURLsDropped: the markup,
// entities and invisible characters of a provider's title are cleaned, and
// a URL that is not http(s) is dropped, for every new driver.
func TestREQ_SEC_015_HostileFieldsAreCleanedAndBadURLsDropped(t *testing.T) {
	for _, d := range apiTypes {
		t.Run(d.typ, func(t *testing.T) {
			e := standIn(t, d.typ, d.typ, d.cat, func(rw http.ResponseWriter, r *http.Request) { rw.Write([]byte(d.hostile)) })
			a := newAPIService(t, nil, time.Now, e)
			out, terr := a.svc.Search(context.Background(), tool.SearchRequest{Query: "q", Category: d.cat, MaxResults: 10, Language: "en"})
			if terr != nil || len(out.Results) != 1 {
				t.Fatalf("%v %+v", terr, out)
			}
			if got := out.Results[0].Title; got != "Bold & hidden" {
				t.Fatalf("title %q", got)
			}
			if d.typ != "stackexchange" { // its URLs are built from ids
				found := false
				for _, n := range out.Notices {
					found = found || n.Code == tool.CodeResultsDropped && n.Reason == tool.ReasonURLInvalid && n.Count == 1
				}
				if !found {
					t.Fatalf("no results_dropped url_invalid: %+v", out.Notices)
				}
			}
		})
	}
}

// TestREQ_CMP_002_BurstsStayWithinTheRecordsLimits: a burst of searches
// never exceeds a driver's recorded rate or concurrency, counted at the
// stand-in; engines of one provider and one credential share the limit.
func TestREQ_CMP_002_BurstsStayWithinTheRecordsLimits(t *testing.T) {
	var total, inFlight, maxSeen atomic.Int32
	h := func(rw http.ResponseWriter, r *http.Request) {
		total.Add(1)
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := maxSeen.Load(); n > m && !maxSeen.CompareAndSwap(m, n); m = maxSeen.Load() {
		}
		time.Sleep(30 * time.Millisecond)
		rw.Write(fixture(t, "github/repositories-ok.json"))
	}
	repos := standIn(t, "github", "github", tool.CategoryCode, h)
	repos.Endpoint = "repositories"
	issues := repos
	issues.ID, issues.Endpoint = "github_issues", "issues"
	clock := newClock()
	a := newAPIService(t, nil, clock.Now, repos, issues)
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.svc.Search(context.Background(), tool.SearchRequest{Query: "q", Category: tool.CategoryCode, MaxResults: 5, Language: "en"})
		}()
	}
	wg.Wait()
	// Keyless, GitHub allows 10 searches a minute per address across its
	// search endpoints; the record admits a burst of 5 at 5 a minute.
	// Each admitted request reaches the stand-in unless the machine is so
	// slow that it times out before connecting: at least one, never more.
	if n := total.Load(); n < 1 || n > int32(gitHubProperties.Burst) {
		t.Fatalf("the stand-in saw %d requests in a burst of 24 engine requests; the record admits %d", n, gitHubProperties.Burst)
	}
	if m := maxSeen.Load(); m > int32(gitHubProperties.MaxInFlight) {
		t.Fatalf("%d requests in flight; the record admits %d", m, gitHubProperties.MaxInFlight)
	}
	// A minute later the bucket has refilled by the rate, no more.
	clock.Add(time.Minute)
	for i := 0; i < 12; i++ {
		a.svc.Search(context.Background(), tool.SearchRequest{Query: "q", Category: tool.CategoryCode, MaxResults: 5, Language: "en"})
	}
	if n := total.Load(); n > int32(gitHubProperties.Burst+gitHubProperties.RatePerMinute) {
		t.Fatalf("%d requests in a minute and a burst; the record admits %d", n, gitHubProperties.Burst+gitHubProperties.RatePerMinute)
	}
}

// TestREQ_SEC_020_CredentialNeverInLogsErrorsOrResults: the key of a keyed
// engine reaches the provider and nowhere else, whatever the provider
// answers.
func TestREQ_SEC_020_CredentialNeverInLogsErrorsOrResults(t *testing.T) {
	key := "ghp_" + strings.Repeat("Zq9X", 9)
	var status atomic.Int32
	status.Store(200)
	var sawKey atomic.Bool
	h := func(rw http.ResponseWriter, r *http.Request) {
		sawKey.Store(strings.Contains(r.Header.Get("Authorization")+r.URL.RawQuery, key))
		rw.WriteHeader(int(status.Load()))
		rw.Write(fixture(t, "github/repositories-ok.json"))
	}
	gh := standIn(t, "github", "github", tool.CategoryCode, h)
	gh.Endpoint, gh.Key = "repositories", secrets.New(key)
	se := standIn(t, "stackexchange", "stackexchange", tool.CategoryCode, func(rw http.ResponseWriter, r *http.Request) {
		rw.WriteHeader(int(status.Load()))
		rw.Write(fixture(t, "stackexchange/excerpts-ok.json"))
	})
	se.Key = secrets.New(key)
	a := newAPIService(t, func(s *Settings) { s.Attribution = true }, time.Now, gh, se)
	for _, st := range []int32{200, 401, 403, 429, 500} {
		status.Store(st)
		out, terr := a.svc.Search(context.Background(), tool.SearchRequest{Query: "q", Category: tool.CategoryCode, MaxResults: 10, Language: "en"})
		if !sawKey.Load() {
			t.Fatal("the key did not reach the provider")
		}
		text := a.logs.String()
		if out != nil {
			for _, r := range out.Results {
				text += r.Title + r.URL + r.Snippet
			}
			for _, n := range out.Notices {
				text += string(n.Reason) + string(n.Code)
			}
		}
		if terr != nil {
			text += terr.Message + terr.Error()
		}
		if strings.Contains(text, key) || strings.Contains(text, "Zq9X") {
			t.Fatalf("status %d: the key appears in logs, errors or results", st)
		}
	}
}

// TestREQ_RES_004_OurOwnWaitIsNotTheEnginesFailure: a burst of searches
// against a slow-rate engine makes later calls wait for the limiter; the
// ones the deadline then cuts short are reported rate_limited and never
// open the engine's circuit.
func TestREQ_RES_004_OurOwnWaitIsNotTheEnginesFailure(t *testing.T) {
	e := fake("slow", func(ctx context.Context, _ EngineRequest) ([]RawResult, error) {
		select {
		case <-time.After(600 * time.Millisecond):
			return []RawResult{res("S", "https://s.example/")}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	e.props.RatePerMinute, e.props.Burst = 60, 1 // one request a second
	s := DefaultSettings()
	// The first call is admitted at once and answers after 600 ms, well
	// within its 1.2 s engine timeout; the second waits about 1 s for its
	// token and has 0.4 s left before the 1.4 s fan-out deadline; the others
	// would wait past it.
	s.Deadline, s.EngineTimeout, s.Reserve, s.FailuresToOpen = 1500*time.Millisecond, 1200*time.Millisecond, 100*time.Millisecond, 2
	s.Engines = []EngineConfig{{ID: "slow", Type: "fake", Categories: e.cats}}
	logs := &syncBuffer{b: &bytes.Buffer{}}
	svc := assemble(s, Deps{Now: time.Now, Logger: slog.New(slog.NewJSONHandler(logs, nil))}, []Engine{e})
	type result struct {
		out *tool.SearchResponse
		err *tool.Error
	}
	results := make(chan result, 4)
	for i := 0; i < 4; i++ {
		go func() {
			out, err := svc.Search(context.Background(), tool.SearchRequest{Query: "q", Category: tool.CategoryGeneral, MaxResults: 5, Language: "en"})
			results <- result{out, err}
		}()
		time.Sleep(5 * time.Millisecond)
	}
	answered, waitedOut, skipped := 0, 0, 0
	for i := 0; i < 4; i++ {
		r := <-results
		switch {
		case r.out != nil && len(r.out.Results) == 1:
			answered++
		case r.err != nil && r.err.Detail.Reason == tool.ReasonRateLimited:
			skipped++ // the limiter could not admit it before the deadline
		case r.err != nil && r.err.Detail.Reason == tool.ReasonAllFailed:
			waitedOut++ // admitted after a wait that left too little time
		default:
			t.Fatalf("unexpected end %+v %+v", r.out, r.err)
		}
	}
	if answered != 1 || waitedOut+skipped != 3 || waitedOut == 0 {
		t.Fatalf("answered %d, waited out %d, skipped %d", answered, waitedOut, skipped)
	}
	if st := svc.Status(context.Background()).Engines[0].State; st != tool.StateClosed {
		t.Fatalf("our own waits opened the healthy engine's circuit: %s", st)
	}
	if strings.Contains(logs.String(), `"engine_failed"`) {
		t.Fatalf("a wait of ours was logged as the engine's failure:\n%s", logs.String())
	}
}

// pacedEngine is a fake engine whose provider asked it to wait.
type pacedEngine struct {
	*fakeEngine
	until time.Time
}

func (p pacedEngine) readyAt() time.Time { return p.until }

// TestREQ_CMP_002_ABackoffHoldsTheNextRequest: a provider's backoff (Stack
// Exchange) holds the engine's next request; past the deadline the engine
// is skipped rate_limited without a request and without a circuit count.
func TestREQ_CMP_002_ABackoffHoldsTheNextRequest(t *testing.T) {
	clock := newClock()
	e := fake("se", answer(res("S", "https://s.example/")))
	s := DefaultSettings()
	s.Engines = []EngineConfig{{ID: "se", Type: "fake", Categories: e.cats}}
	svc := assemble(s, Deps{Now: clock.Now}, []Engine{pacedEngine{e, clock.Now().Add(10 * time.Second)}})
	for i := 0; i < 4; i++ {
		_, terr := svc.Search(context.Background(), tool.SearchRequest{Query: "q", Category: tool.CategoryGeneral, MaxResults: 5, Language: "en"})
		if terr == nil || terr.Detail.Reason != tool.ReasonRateLimited {
			t.Fatalf("during the backoff: %+v", terr)
		}
	}
	if e.calls.Load() != 0 {
		t.Fatal("the provider was asked during its backoff")
	}
	if st := svc.Status(context.Background()).Engines[0].State; st != tool.StateClosed {
		t.Fatalf("the backoff opened the circuit: %s", st)
	}
	clock.Add(11 * time.Second)
	if out, terr := svc.Search(context.Background(), tool.SearchRequest{Query: "q", Category: tool.CategoryGeneral, MaxResults: 5, Language: "en"}); terr != nil || len(out.Results) != 1 {
		t.Fatalf("after the backoff: %+v %+v", out, terr)
	}
}

var (
	serversMu sync.Mutex
	servers   = map[string]interface{ Certificate() *x509.Certificate }{}
)

// TestREQ_RANK_004_OneResultAcrossSources: the same repository reached
// through GitHub and through a SearXNG instance, and the same question
// through Stack Exchange and SearXNG, are one result each, attributed to
// both engines.
func TestREQ_RANK_004_OneResultAcrossSources(t *testing.T) {
	gh := standIn(t, "github", "github", tool.CategoryCode, func(rw http.ResponseWriter, r *http.Request) {
		rw.Write(fixture(t, "github/repositories-ok.json"))
	})
	gh.Endpoint = "repositories"
	se := standIn(t, "stackexchange", "stackexchange", tool.CategoryCode, func(rw http.ResponseWriter, r *http.Request) {
		rw.Write(fixture(t, "stackexchange/excerpts-ok.json"))
	})
	sx := standIn(t, "searxng", "searxng", tool.CategoryCode, func(rw http.ResponseWriter, r *http.Request) {
		rw.Write([]byte(`{"results":[{"url":"https://github.com/example/asyncio-timeouts/","title":"example/asyncio-timeouts","content":"x"},` +
			`{"url":"http://stackoverflow.com/questions/1001","title":"Why does asyncio.wait_for cancel my task","content":"y"}]}`))
	})
	a := newAPIService(t, func(s *Settings) { s.Attribution = true }, time.Now, gh, se, sx)
	out, terr := a.svc.Search(context.Background(), tool.SearchRequest{Query: "q", Category: tool.CategoryCode, MaxResults: 10, Language: "en"})
	if terr != nil {
		t.Fatal(terr)
	}
	byURL := map[string][]string{}
	for _, r := range out.Results {
		byURL[r.URL] = r.Engines
	}
	if len(out.Results) != 4 {
		t.Fatalf("%d results, want 4 (2 repositories, 2 questions): %+v", len(out.Results), out.Results)
	}
	for _, u := range []string{"https://github.com/example/asyncio-timeouts", "https://stackoverflow.com/questions/1001"} {
		var found []string
		for url, engines := range byURL {
			if strings.TrimSuffix(url, "/") == u {
				found = engines
			}
		}
		if len(found) != 2 || !slices.Contains(found, "searxng") {
			t.Fatalf("%s: engines %v, want its own engine and searxng (%+v)", u, found, out.Results)
		}
	}
}
