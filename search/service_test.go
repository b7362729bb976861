package search

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand"
	"reflect"
	"rypsok/internal/testdate"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"rypsok/secrets"
	"rypsok/tool"
)

// fakeEngine answers with fn; it counts calls and the requests in flight.
type fakeEngine struct {
	id       string
	cats     []tool.Category
	props    Properties
	fn       func(ctx context.Context, req EngineRequest) ([]RawResult, error)
	calls    atomic.Int32
	inFlight atomic.Int32
	maxSeen  atomic.Int32
	lastReq  atomic.Value // EngineRequest
}

func (f *fakeEngine) ID() string                  { return f.id }
func (f *fakeEngine) Categories() []tool.Category { return f.cats }
func (f *fakeEngine) Properties() Properties      { return f.props }
func (f *fakeEngine) Search(ctx context.Context, req EngineRequest) ([]RawResult, error) {
	f.calls.Add(1)
	n := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	for {
		m := f.maxSeen.Load()
		if n <= m || f.maxSeen.CompareAndSwap(m, n) {
			break
		}
	}
	f.lastReq.Store(req)
	return f.fn(ctx, req)
}

func openProps() Properties {
	return Properties{RatePerMinute: 6000, Burst: 100, MaxInFlight: 8, MaxQueryChars: 600, TimeRanges: true, Cacheable: true, ResponseBytes: 1 << 20}
}

func answer(results ...RawResult) func(context.Context, EngineRequest) ([]RawResult, error) {
	return func(context.Context, EngineRequest) ([]RawResult, error) { return results, nil }
}

func fail(class tool.Reason) func(context.Context, EngineRequest) ([]RawResult, error) {
	return func(context.Context, EngineRequest) ([]RawResult, error) { return nil, failure(class) }
}

func block(ctx context.Context, _ EngineRequest) ([]RawResult, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func res(title, u string) RawResult {
	return RawResult{Title: title, URL: u, Snippet: "About " + title, TitleDecoded: true}
}

func fake(id string, fn func(context.Context, EngineRequest) ([]RawResult, error)) *fakeEngine {
	return &fakeEngine{id: id, cats: []tool.Category{tool.CategoryGeneral}, props: openProps(), fn: fn}
}

// fakeClock is a settable clock for limits and circuits.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock {
	return &fakeClock{t: testdate.Epoch(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))}
}
func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type testBed struct {
	svc   *Service
	clock *fakeClock
	logs  *bytes.Buffer
	mu    sync.Mutex
	urls  []string
}

func newBed(t *testing.T, mutate func(*Settings), engines ...*fakeEngine) *testBed {
	t.Helper()
	s := DefaultSettings()
	for i, e := range engines {
		s.Engines = append(s.Engines, EngineConfig{ID: e.id, Type: "fake", Categories: e.cats, Preference: 10 * (i + 1)})
	}
	if mutate != nil {
		mutate(&s)
	}
	b := &testBed{clock: newClock(), logs: &bytes.Buffer{}}
	var logMu sync.Mutex
	lw := writerFunc(func(p []byte) (int, error) { logMu.Lock(); defer logMu.Unlock(); return b.logs.Write(p) })
	d := Deps{
		Logger: slog.New(slog.NewJSONHandler(lw, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Now:    b.clock.Now,
		Returned: func(u string) {
			b.mu.Lock()
			b.urls = append(b.urls, u)
			b.mu.Unlock()
		},
	}
	es := make([]Engine, len(s.Engines))
	for i := range s.Engines {
		for _, e := range engines {
			if e.id == s.Engines[i].ID {
				es[i] = e
			}
		}
	}
	b.svc = assemble(s, d, es)
	return b
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func search(t *testing.T, b *testBed, query string) (*tool.SearchResponse, *tool.Error) {
	t.Helper()
	return b.svc.Search(context.Background(), tool.SearchRequest{Query: query, Category: tool.CategoryGeneral, MaxResults: 5, Language: "en"})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestREQ_RANK_005_FusionRewardsAgreement(t *testing.T) {
	a := fake("alpha", answer(res("A1", "https://a.example/1"), res("Shared", "https://shared.example/x"), res("A3", "https://a.example/3")))
	b := fake("beta", answer(res("B1", "https://b.example/1"), res("B2", "https://b.example/2"), res("Shared too", "http://www.shared.example/x/")))
	bed := newBed(t, nil, a, b)
	out, err := search(t, bed, "q")
	if err != nil {
		t.Fatal(err)
	}
	// Shared: 1e6/62 + 1e6/63 = 16129 + 15873 = 32002 beats A1 (16393).
	if out.Results[0].Title != "Shared" || out.Results[0].URL != "https://shared.example/x" {
		t.Fatalf("agreement not rewarded: %+v", out.Results)
	}
	// Then rank 1 of alpha (preference 10) before rank 1 of beta.
	if out.Results[1].Title != "A1" || out.Results[2].Title != "B1" {
		t.Fatalf("tie-breakers: %+v", out.Results)
	}
	if out.Outcome != tool.OutcomeOK || len(out.Results) != 5 {
		t.Fatalf("outcome %s, %d results", out.Outcome, len(out.Results))
	}
}

func TestREQ_RANK_006_TotalOrderAndScores(t *testing.T) {
	var obs [][]observation
	mk := func(engine, rank int, u string) observation {
		n, why := normalizeURL(u)
		if why != "" {
			t.Fatalf("%s: %s", u, why)
		}
		return observation{engine: engine, rank: rank, norm: n}
	}
	obs = append(obs, []observation{mk(0, 1, "https://x.example/a"), mk(0, 2, "https://x.example/b")})
	obs = append(obs, []observation{mk(1, 1, "https://x.example/b"), mk(1, 2, "https://x.example/c")})
	m := mergeResults(obs)
	want := []struct {
		key   string
		score int64
	}{
		{"https://x.example/b", 1000000/62 + 1000000/61},
		{"https://x.example/a", 1000000 / 61},
		{"https://x.example/c", 1000000 / 62},
	}
	for i, w := range want {
		if m[i].key != w.key || m[i].score != w.score {
			t.Fatalf("position %d: %s %d, want %s %d", i, m[i].key, m[i].score, w.key, w.score)
		}
	}
	// Same score and best rank, different engines: preference decides;
	// same engine position: the key decides.
	obs = [][]observation{{mk(0, 1, "https://z.example/")}, {mk(1, 1, "https://a.example/")}}
	m = mergeResults(obs)
	if m[0].key != "https://z.example/" {
		t.Fatalf("preference must break the tie: %s", m[0].key)
	}
}

func TestREQ_ARCH_004_ShuffledArrivalIsByteIdentical(t *testing.T) {
	build := func(delays []time.Duration) string {
		mk := func(id string, d time.Duration, rs ...RawResult) *fakeEngine {
			return fake(id, func(ctx context.Context, req EngineRequest) ([]RawResult, error) {
				time.Sleep(d)
				return rs, nil
			})
		}
		e1 := mk("one", delays[0], res("Alpha", "https://a.example/"), res("Beta", "https://b.example/"), res("Gamma", "https://c.example/?utm_source=x&id=1"))
		e2 := mk("two", delays[1], res("Beta", "https://b.example"), res("Delta", "https://d.example/"), res("Gamma", "https://c.example/?id=1"))
		e3 := mk("three", delays[2], res("Delta", "https://d.example/"), res("Alpha", "http://a.example/"), res("Eps", "https://e.example/"))
		bed := newBed(t, func(s *Settings) { s.Attribution = true }, e1, e2, e3)
		out, err := search(t, bed, "greek letters")
		if err != nil {
			t.Fatal(err)
		}
		return mustJSON(t, out)
	}
	first := build([]time.Duration{0, 0, 0})
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 8; i++ {
		d := []time.Duration{time.Duration(r.Intn(30)) * time.Millisecond, time.Duration(r.Intn(30)) * time.Millisecond, time.Duration(r.Intn(30)) * time.Millisecond}
		if got := build(d); got != first {
			t.Fatalf("arrival order %v changed the output:\n%s\n%s", d, first, got)
		}
	}
	if !strings.Contains(first, `"engines":["one","three"]`) {
		t.Fatalf("attribution lists engines in selection order: %s", first)
	}
}

func TestREQ_AGG_003_DeadlineAndPartial(t *testing.T) {
	slow := fake("slow", block)
	quick := fake("quick", answer(res("Q", "https://q.example/")))
	bed := newBed(t, func(s *Settings) {
		s.Deadline = 600 * time.Millisecond
		s.EngineTimeout = 400 * time.Millisecond
		s.Reserve = 100 * time.Millisecond
	}, quick, slow)
	start := time.Now()
	out, err := search(t, bed, "q")
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if took > 600*time.Millisecond+300*time.Millisecond {
		t.Fatalf("search took %s, beyond LIM-S7", took)
	}
	if took < 350*time.Millisecond {
		t.Fatalf("the slow engine was not waited for up to its timeout (%s)", took)
	}
	if out.Outcome != tool.OutcomePartial || len(out.Notices) != 1 || !reflect.DeepEqual(out.Notices[0], tool.Notice{Code: tool.CodeEngineUnavailable, Engine: "slow", Reason: tool.ReasonTimeout}) {
		t.Fatalf("want partial with one timeout notice: %+v", out)
	}
}

func TestREQ_AGG_002_EngineRequestCancelledAtTimeout(t *testing.T) {
	var ended atomic.Int64
	start := time.Now()
	slow := fake("slow", func(ctx context.Context, _ EngineRequest) ([]RawResult, error) {
		<-ctx.Done()
		ended.Store(int64(time.Since(start)))
		return nil, ctx.Err()
	})
	other := fake("other", func(ctx context.Context, _ EngineRequest) ([]RawResult, error) {
		time.Sleep(700 * time.Millisecond)
		return []RawResult{res("O", "https://o.example/")}, nil
	})
	bed := newBed(t, func(s *Settings) {
		s.Deadline = 2500 * time.Millisecond
		s.EngineTimeout = 200 * time.Millisecond
	}, slow, other)
	search(t, bed, "q")
	if e := time.Duration(ended.Load()); e == 0 || e > 650*time.Millisecond {
		t.Fatalf("engine request ended after %s, want about its 200 ms timeout", e)
	}
}

func TestREQ_AGG_009_EarlyCompletion(t *testing.T) {
	a := fake("a", answer(res("A", "https://a.example/")))
	b := fake("b", fail(tool.ReasonRequestFailure))
	bed := newBed(t, func(s *Settings) { s.Deadline = 5 * time.Second; s.EngineTimeout = 4 * time.Second }, a, b)
	start := time.Now()
	out, _ := search(t, bed, "q")
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("search waited %s although every engine had ended", took)
	}
	if out.Outcome != tool.OutcomePartial {
		t.Fatalf("outcome %s", out.Outcome)
	}
}

func TestREQ_AGG_006_WorkIsAbortedNotDetached(t *testing.T) {
	var running atomic.Int32
	slow := fake("slow", func(ctx context.Context, _ EngineRequest) ([]RawResult, error) {
		running.Add(1)
		defer running.Add(-1)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	bed := newBed(t, func(s *Settings) {
		s.Deadline = 500 * time.Millisecond
		s.EngineTimeout = 5000 * time.Millisecond
		s.Reserve = 100 * time.Millisecond
	}, slow)
	// The engine timeout is longer than the deadline: only the fan-out
	// deadline can stop the request.
	if _, err := search(t, bed, "q"); err == nil || err.Detail.Reason != tool.ReasonDeadline {
		t.Fatalf("want unavailable deadline, got %+v", err)
	}
	deadline := time.Now().Add(500 * time.Millisecond)
	for running.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("an engine request still runs 500 ms after the search returned")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestREQ_MCP_007_CancelledSearchAbortsRequests(t *testing.T) {
	var cancelledAt atomic.Int64
	started := make(chan struct{})
	slow := fake("slow", func(ctx context.Context, _ EngineRequest) ([]RawResult, error) {
		close(started)
		<-ctx.Done()
		cancelledAt.Store(time.Now().UnixNano())
		return nil, ctx.Err()
	})
	bed := newBed(t, nil, slow)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		out, err := bed.svc.Search(ctx, tool.SearchRequest{Query: "q", Category: tool.CategoryGeneral, MaxResults: 5, Language: "en"})
		if out != nil || err != nil {
			t.Errorf("a cancelled search must answer nothing: %+v %+v", out, err)
		}
		close(done)
	}()
	<-started
	at := time.Now()
	cancel()
	<-done
	// The search answers nothing at once; the engine's request must see the
	// cancellation within LIM-O2 of it.
	for time.Since(at) < 500*time.Millisecond && cancelledAt.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	if c := cancelledAt.Load(); c == 0 || time.Duration(c-at.UnixNano()) > 500*time.Millisecond {
		t.Fatal("the engine request was not aborted within LIM-O2")
	}
}

func TestREQ_AGG_007_PanicAndFailureIsolated(t *testing.T) {
	boom := fake("boom", func(context.Context, EngineRequest) ([]RawResult, error) { panic("driver bug") })
	bad := fake("bad", fail(tool.ReasonParseFailure))
	good := fake("good", answer(res("G", "https://g.example/")))
	bed := newBed(t, nil, boom, bad, good)
	out, err := search(t, bed, "q")
	if err != nil {
		t.Fatal(err)
	}
	if out.Outcome != tool.OutcomePartial || len(out.Results) != 1 || out.Results[0].Title != "G" {
		t.Fatalf("the good engine's results were lost: %+v", out)
	}
	want := []tool.Notice{
		{Code: tool.CodeEngineUnavailable, Engine: "boom", Reason: tool.ReasonRequestFailure},
		{Code: tool.CodeEngineUnavailable, Engine: "bad", Reason: tool.ReasonParseFailure},
	}
	if fmt.Sprint(out.Notices) != fmt.Sprint(want) {
		t.Fatalf("notices %+v, want %+v", out.Notices, want)
	}
	if strings.Contains(bed.logs.String(), "driver bug") {
		t.Fatal("the panic value reached the log")
	}
}

func TestREQ_AGG_008_NoRetryWithinACall(t *testing.T) {
	bad := fake("bad", fail(tool.ReasonRequestFailure))
	good := fake("good", answer(res("G", "https://g.example/")))
	bed := newBed(t, nil, bad, good)
	search(t, bed, "q")
	if n := bad.calls.Load(); n != 1 {
		t.Fatalf("the failed engine was asked %d times in one call", n)
	}
}

func TestREQ_AGG_005_ConcurrencyCaps(t *testing.T) {
	gate := make(chan struct{})
	e := fake("e", func(ctx context.Context, _ EngineRequest) ([]RawResult, error) {
		select {
		case <-gate:
		case <-ctx.Done():
		}
		return []RawResult{res("E", "https://e.example/")}, nil
	})
	e.props.MaxInFlight = 8
	bed := newBed(t, func(s *Settings) { s.PerEngineInFlight = 2; s.OutboundInFlight = 32 }, e)
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); search(t, bed, "q") }()
	}
	time.Sleep(150 * time.Millisecond)
	close(gate)
	wg.Wait()
	if m := e.maxSeen.Load(); m > 2 || m < 1 {
		t.Fatalf("per-engine cap 2, saw %d in flight", m)
	}
	// The provider's cap (admission record) is lower than the setting: it wins.
	gate2 := make(chan struct{})
	f := fake("f", func(ctx context.Context, _ EngineRequest) ([]RawResult, error) {
		select {
		case <-gate2:
		case <-ctx.Done():
		}
		return nil, nil
	})
	f.props.MaxInFlight = 1
	bed = newBed(t, func(s *Settings) { s.PerEngineInFlight = 8 }, f)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); search(t, bed, "q") }()
	}
	time.Sleep(150 * time.Millisecond)
	close(gate2)
	wg.Wait()
	if m := f.maxSeen.Load(); m != 1 {
		t.Fatalf("provider cap 1, saw %d in flight", m)
	}
	// The process-wide cap holds across engines.
	gate3 := make(chan struct{})
	var inFlight, maxSeen atomic.Int32
	mk := func(id string) *fakeEngine {
		return fake(id, func(ctx context.Context, _ EngineRequest) ([]RawResult, error) {
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			for m := maxSeen.Load(); n > m && !maxSeen.CompareAndSwap(m, n); m = maxSeen.Load() {
			}
			select {
			case <-gate3:
			case <-ctx.Done():
			}
			return nil, nil
		})
	}
	bed = newBed(t, func(s *Settings) { s.OutboundInFlight = 2 }, mk("p"), mk("q"), mk("r"), mk("s"))
	wg.Add(1)
	go func() { defer wg.Done(); search(t, bed, "q") }()
	time.Sleep(150 * time.Millisecond)
	close(gate3)
	wg.Wait()
	if m := maxSeen.Load(); m != 2 {
		t.Fatalf("process cap 2, saw %d in flight", m)
	}
}

func TestREQ_CMP_002_ProviderRateIsHonoured(t *testing.T) {
	e := fake("e", answer(res("E", "https://e.example/")))
	e.props.RatePerMinute = 60
	e.props.Burst = 2
	bed := newBed(t, func(s *Settings) { s.Deadline = 600 * time.Millisecond; s.EngineTimeout = 400 * time.Millisecond }, e)
	for i := 0; i < 2; i++ {
		if out, err := search(t, bed, "q"); err != nil || out.Outcome != tool.OutcomeOK {
			t.Fatalf("call %d within the burst: %+v %+v", i, out, err)
		}
	}
	// The third within the same second would have to wait ~1 s, past the
	// deadline: the engine is skipped, not asked.
	_, err := search(t, bed, "q")
	if err == nil || err.Detail.Reason != tool.ReasonRateLimited {
		t.Fatalf("want unavailable rate_limited, got %+v", err)
	}
	if n := e.calls.Load(); n != 2 {
		t.Fatalf("the provider was asked %d times, its rate allows 2", n)
	}
	bed.clock.Add(time.Second)
	if out, err := search(t, bed, "q"); err != nil || out.Outcome != tool.OutcomeOK {
		t.Fatalf("after a second the engine must be asked again: %+v", err)
	}
	// A 429 with Retry-After empties the bucket until then.
	e.fn = func(context.Context, EngineRequest) ([]RawResult, error) {
		return nil, &EngineError{Class: tool.ReasonRateLimited, RetryAfter: 30 * time.Second}
	}
	bed.clock.Add(10 * time.Second)
	search(t, bed, "q")
	calls := e.calls.Load()
	bed.clock.Add(10 * time.Second)
	search(t, bed, "q")
	if e.calls.Load() != calls {
		t.Fatal("the engine was asked again before its Retry-After")
	}
}

func TestREQ_ERR_001_OutcomeTable(t *testing.T) {
	cases := []struct {
		name    string
		engines []*fakeEngine
		cat     tool.Category
		outcome tool.Outcome
		reason  tool.Reason
	}{
		{"N = 0", []*fakeEngine{fake("a", answer(res("A", "https://a.example/")))}, tool.CategoryNews, "", tool.ReasonNoEngine},
		{"A = 0, failures", []*fakeEngine{fake("a", fail(tool.ReasonBlocked)), fake("b", fail(tool.ReasonAuthFailure))}, tool.CategoryGeneral, "", tool.ReasonAllFailed},
		{"A = 0, all timeouts", []*fakeEngine{fake("a", fail(tool.ReasonTimeout))}, tool.CategoryGeneral, "", tool.ReasonDeadline},
		{"ok", []*fakeEngine{fake("a", answer(res("A", "https://a.example/")))}, tool.CategoryGeneral, tool.OutcomeOK, ""},
		{"partial", []*fakeEngine{fake("a", answer(res("A", "https://a.example/"))), fake("b", fail(tool.ReasonTimeout))}, tool.CategoryGeneral, tool.OutcomePartial, ""},
		{"empty", []*fakeEngine{fake("a", answer()), fake("b", fail(tool.ReasonTimeout))}, tool.CategoryGeneral, tool.OutcomeEmpty, ""},
		{"empty after drops", []*fakeEngine{fake("a", answer(res("X", "ftp://x.example/")))}, tool.CategoryGeneral, tool.OutcomeEmpty, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bed := newBed(t, nil, c.engines...)
			out, err := bed.svc.Search(context.Background(), tool.SearchRequest{Query: "q", Category: c.cat, MaxResults: 5, Language: "en"})
			if (out == nil) == (err == nil) {
				t.Fatalf("exactly one of response and error: %+v %+v", out, err)
			}
			if c.reason != "" {
				if err == nil || err.Kind != tool.KindUnavailable || err.Detail.Reason != c.reason {
					t.Fatalf("want unavailable %s, got %+v %+v", c.reason, err, out)
				}
				return
			}
			if out.Outcome != c.outcome {
				t.Fatalf("outcome %s, want %s (%+v)", out.Outcome, c.outcome, out)
			}
			if c.outcome == tool.OutcomeEmpty && len(out.Results) != 0 {
				t.Fatal("empty with results")
			}
		})
	}
}

func TestREQ_ENG_007_SelectionAndSkips(t *testing.T) {
	noTime := fake("notime", answer(res("N", "https://n.example/")))
	noTime.props.TimeRanges = false
	short := fake("short", answer(res("S", "https://s.example/")))
	short.props.MaxQueryChars = 10
	words := fake("words", answer(res("W", "https://w.example/")))
	words.props.MaxQueryWords = 2
	ja := fake("jaonly", answer(res("J", "https://j.example/")))
	ja.props.Languages = []string{"ja"}
	news := fake("news", answer(res("X", "https://x.example/")))
	news.cats = []tool.Category{tool.CategoryNews}
	all := fake("all", answer(res("All", "https://all.example/")))
	bed := newBed(t, nil, noTime, short, words, ja, news, all)
	out, err := bed.svc.Search(context.Background(), tool.SearchRequest{Query: "three word query", Category: tool.CategoryGeneral, MaxResults: 5, Language: "en", TimeRange: tool.TimeRangeWeek})
	if err != nil {
		t.Fatal(err)
	}
	want := []tool.Notice{
		{Code: tool.CodeEngineSkipped, Engine: "notime", Reason: tool.ReasonTimeRange},
		{Code: tool.CodeEngineSkipped, Engine: "short", Reason: tool.ReasonQueryTooLong},
		{Code: tool.CodeEngineSkipped, Engine: "words", Reason: tool.ReasonQueryTooLong},
		{Code: tool.CodeEngineSkipped, Engine: "jaonly", Reason: tool.ReasonLanguage},
	}
	if fmt.Sprint(out.Notices) != fmt.Sprint(want) {
		t.Fatalf("notices %+v\nwant %+v", out.Notices, want)
	}
	if len(out.Results) != 1 || out.Results[0].Title != "All" || out.Outcome != tool.OutcomeOK {
		t.Fatalf("results %+v", out)
	}
	for _, e := range []*fakeEngine{noTime, short, words, ja, news} {
		if e.calls.Load() != 0 {
			t.Fatalf("skipped engine %s was asked", e.id)
		}
	}
	// At most engines_per_request engines are asked, in preference order.
	bed = newBed(t, func(s *Settings) { s.EnginesPerRequest = 1 }, fake("first", answer()), fake("second", answer()))
	search(t, bed, "q")
	if bed.svc.byPref[1].eng.(*fakeEngine).calls.Load() != 0 {
		t.Fatal("LIM-S8 exceeded")
	}
}

func TestREQ_RES_004_CircuitOpensCoolsDownAndProbes(t *testing.T) {
	var mode atomic.Value
	mode.Store("fail")
	flaky := fake("flaky", func(context.Context, EngineRequest) ([]RawResult, error) {
		switch mode.Load().(string) {
		case "fail":
			return nil, failure(tool.ReasonTimeout)
		case "auth":
			return nil, failure(tool.ReasonAuthFailure)
		case "retry":
			return nil, &EngineError{Class: tool.ReasonRateLimited, RetryAfter: 500 * time.Second}
		}
		return []RawResult{res("F", "https://f.example/")}, nil
	})
	steady := fake("steady", answer(res("S", "https://s.example/")))
	bed := newBed(t, nil, flaky, steady)
	state := func() tool.EngineState {
		for _, e := range bed.svc.Status(context.Background()).Engines {
			if e.ID == "flaky" {
				return e.State
			}
		}
		return ""
	}
	for i := 0; i < 2; i++ {
		search(t, bed, "q")
		if state() != tool.StateClosed {
			t.Fatalf("opened after %d failures", i+1)
		}
	}
	search(t, bed, "q")
	if state() != tool.StateOpen {
		t.Fatalf("not open after 3 failures: %s", state())
	}
	calls := flaky.calls.Load()
	out, _ := search(t, bed, "q")
	if flaky.calls.Load() != calls || !hasNotice(out, tool.Notice{Code: tool.CodeEngineSkipped, Engine: "flaky", Reason: tool.ReasonCooldown}) {
		t.Fatalf("an open engine must be skipped with cooldown: %+v", out.Notices)
	}
	// After the first cooldown (60 s) exactly one real request probes; it
	// fails: open again with the cooldown doubled (120 s).
	bed.clock.Add(61 * time.Second)
	search(t, bed, "q")
	if flaky.calls.Load() != calls+1 || state() != tool.StateOpen {
		t.Fatalf("probe: calls %d state %s", flaky.calls.Load()-calls, state())
	}
	bed.clock.Add(100 * time.Second)
	search(t, bed, "q")
	if flaky.calls.Load() != calls+1 {
		t.Fatal("probed before the doubled cooldown ended")
	}
	bed.clock.Add(21 * time.Second)
	mode.Store("ok")
	search(t, bed, "q")
	if flaky.calls.Load() != calls+2 || state() != tool.StateClosed {
		t.Fatalf("a successful probe must close the circuit: %s", state())
	}
	logs := bed.logs.String()
	if !strings.Contains(logs, `"msg":"circuit_opened"`) || !strings.Contains(logs, `"msg":"circuit_closed"`) {
		t.Fatalf("transitions not logged:\n%s", logs)
	}
	// auth_failure never opens the circuit.
	mode.Store("auth")
	for i := 0; i < 5; i++ {
		search(t, bed, "q")
	}
	if state() != tool.StateClosed {
		t.Fatalf("auth_failure opened the circuit")
	}
	// A Retry-After longer than the cooldown is honoured, capped at 900 s.
	mode.Store("retry")
	for i := 0; i < 3; i++ {
		bed.clock.Add(600 * time.Second) // past the limiter's block
		search(t, bed, "q")
	}
	if state() != tool.StateOpen {
		t.Fatal("not open after rate limits")
	}
	bed.clock.Add(499 * time.Second)
	calls = flaky.calls.Load()
	search(t, bed, "q")
	if flaky.calls.Load() != calls {
		t.Fatal("probed before the provider's Retry-After")
	}
}

func TestREQ_RES_005_CooldownGrowsToTheCap(t *testing.T) {
	c := &circuit{state: tool.StateClosed}
	p := circuitPolicy{failuresToOpen: 1, first: 60 * time.Second, max: 900 * time.Second}
	now := time.Unix(0, 0)
	c.done(p, now, false, tool.ReasonBlocked, 0, 0, true, false)
	var got []time.Duration
	for i := 0; i < 6; i++ {
		now = c.until
		ok, probe := c.admit(now)
		if !ok || !probe {
			t.Fatalf("no probe after cooldown %d", i)
		}
		if ok2, _ := c.admit(now); ok2 {
			t.Fatal("a second call must not probe while the probe is in flight")
		}
		c.done(p, now, true, tool.ReasonParseFailure, 0, 0, true, false)
		got = append(got, c.cooldown)
	}
	want := []time.Duration{120 * time.Second, 240 * time.Second, 480 * time.Second, 900 * time.Second, 900 * time.Second, 900 * time.Second}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("cooldowns %v, want %v", got, want)
	}
	// A probe that fails with request_failure (or is cancelled) reopens
	// with the same cooldown.
	now = c.until
	c.admit(now)
	c.done(p, now, true, tool.ReasonRequestFailure, 0, 0, true, false)
	if c.cooldown != 900*time.Second || c.state != tool.StateOpen {
		t.Fatalf("request_failure probe: %s %s", c.state, c.cooldown)
	}
}

func hasNotice(out *tool.SearchResponse, n tool.Notice) bool {
	if out == nil {
		return false
	}
	for _, x := range out.Notices {
		if reflect.DeepEqual(x, n) {
			return true
		}
	}
	return false
}

func TestREQ_STATUS_001_EngineStatus(t *testing.T) {
	b := fake("b", answer(res("B", "https://b.example/")))
	a := fake("a", answer())
	s := DefaultSettings()
	s.Engines = []EngineConfig{
		{ID: "zeta", Type: "brave", Categories: []tool.Category{tool.CategoryGeneral}, Disabled: tool.DisabledNoKey},
		{ID: "b", Type: "fake", Categories: []tool.Category{tool.CategoryGeneral}},
		{ID: "mid", Type: "wikipedia", Categories: []tool.Category{tool.CategoryGeneral}, Disabled: tool.DisabledByOperator},
		{ID: "a", Type: "fake", Categories: []tool.Category{tool.CategoryGeneral}},
	}
	svc := assemble(s, Deps{}, []Engine{nil, b, nil, a})
	st := svc.Status(context.Background())
	got := mustJSON(t, st)
	want := `{"engines":[{"id":"a","latency_ms":null,"state":"closed"},{"id":"b","latency_ms":null,"state":"closed"},{"id":"mid","latency_ms":null,"reason":"disabled","state":"disabled"},{"id":"zeta","latency_ms":null,"reason":"no_credential","state":"disabled"}],"notices":[],"outcome":"ok"}` + "\n"
	if got != want {
		t.Fatalf("status\n%s\nwant\n%s", got, want)
	}
	// Latency: the median of completed requests.
	c := &circuit{state: tool.StateClosed}
	p := circuitPolicy{failuresToOpen: 3, first: time.Minute, max: time.Hour}
	for _, ms := range []int{100, 300, 200, 1000} {
		c.done(p, time.Now(), false, "", 0, time.Duration(ms)*time.Millisecond, true, false)
	}
	if _, m := c.snapshot(); m == nil || *m != 250 {
		t.Fatalf("median %v, want 250", m)
	}
	for i := 0; i < 25; i++ {
		c.done(p, time.Now(), false, "", 0, 50*time.Millisecond, true, false)
	}
	if _, m := c.snapshot(); *m != 50 {
		t.Fatalf("the window must hold the last 20 only: %d", *m)
	}
	if cats := svc.Categories(); fmt.Sprint(cats) != "[general]" {
		t.Fatalf("categories %v", cats)
	}
}

func TestREQ_PRIV_002_SecretCheckModes(t *testing.T) {
	const token = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
	query := "why does " + token + " fail"
	mk := func(mode secrets.Mode) (*testBed, *fakeEngine) {
		e := fake("e", answer(res("E", "https://e.example/")))
		return newBed(t, func(s *Settings) { s.SecretDetection = mode }, e), e
	}
	// refuse: denied before any engine request, kind and position only.
	bed, e := mk(secrets.Refuse)
	out, err := search(t, bed, query)
	if out != nil || err == nil || err.Kind != tool.KindDenied || err.Detail.Reason != tool.ReasonSecretInQuery || err.Detail.Kind != "github_token" || *err.Detail.Position != 9 {
		t.Fatalf("refuse: %+v %+v", out, err)
	}
	if e.calls.Load() != 0 || strings.Contains(mustJSON(t, err), token) {
		t.Fatal("refuse: an engine was asked or the value leaked")
	}
	// mask: the engine sees the masked query; a notice says so.
	bed, e = mk(secrets.Mask)
	out, err = search(t, bed, query)
	if err != nil || !hasNotice(out, tool.Notice{Code: tool.CodeCredentialMasked, Count: 1}) {
		t.Fatalf("mask: %+v %+v", out, err)
	}
	if q := e.lastReq.Load().(EngineRequest).Query; strings.Contains(q, token) || !strings.Contains(q, "[redacted]") {
		t.Fatalf("mask: the engine was sent %q", q)
	}
	// warn: unchanged, logged without the value.
	bed, e = mk(secrets.Warn)
	out, err = search(t, bed, query)
	if err != nil || e.lastReq.Load().(EngineRequest).Query != query {
		t.Fatal("warn must not change the query")
	}
	if l := bed.logs.String(); !strings.Contains(l, "secret_in_query") || strings.Contains(l, token) || strings.Contains(l, "why does") {
		t.Fatalf("warn log: %s", l)
	}
	// off: nothing.
	bed, e = mk(secrets.Off)
	if _, err = search(t, bed, query); err != nil || e.lastReq.Load().(EngineRequest).Query != query {
		t.Fatal("off must pass the query")
	}
}

func TestREQ_PRIV_004_NoQueryInLogsByDefault(t *testing.T) {
	e := fake("e", fail(tool.ReasonBlocked))
	bed := newBed(t, nil, e)
	search(t, bed, "very private medical question")
	if strings.Contains(bed.logs.String(), "medical") {
		t.Fatalf("query in logs: %s", bed.logs.String())
	}
	bed = newBed(t, func(s *Settings) { s.LogQueries = true }, fake("e", answer()))
	search(t, bed, "very private medical question")
	if !strings.Contains(bed.logs.String(), "medical") {
		t.Fatal("log_queries must log the query at debug")
	}
}

func TestREQ_RANK_003_ReturnedURLsAndDrops(t *testing.T) {
	long := "https://l.example/" + strings.Repeat("a", 2100)
	e := fake("e", answer(
		res("Invalid scheme", "javascript:alert(1)"),
		res("Creds", "https://user:pw@c.example/"),
		res("Empty label", "https://.example/"),
		res("Too long", long),
		res("Kept", "https://Kept.Example/Path?b=2&utm_source=news&a=1#frag"),
		res("IDN", "https://bücher.example/straße"),
	))
	bed := newBed(t, nil, e)
	out, err := search(t, bed, "q")
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 2 {
		t.Fatalf("results %+v", out.Results)
	}
	if out.Results[0].URL != "https://Kept.Example/Path?b=2&a=1#frag" {
		t.Fatalf("returned URL changed beyond tracking removal: %s", out.Results[0].URL)
	}
	if out.Results[1].URL != "https://xn--bcher-kva.example/straße" {
		t.Fatalf("host must be ASCII, the rest byte for byte: %s", out.Results[1].URL)
	}
	if !hasNotice(out, tool.Notice{Code: tool.CodeResultsDropped, Reason: tool.ReasonURLInvalid, Count: 3}) ||
		!hasNotice(out, tool.Notice{Code: tool.CodeResultsDropped, Reason: tool.ReasonURLTooLong, Count: 1}) {
		t.Fatalf("drop notices: %+v", out.Notices)
	}
	bed.mu.Lock()
	defer bed.mu.Unlock()
	if len(bed.urls) != 2 || bed.urls[0] != out.Results[0].URL {
		t.Fatalf("strict mode was not told the returned URLs: %v", bed.urls)
	}
}

func TestREQ_RANK_002_ComparisonKey(t *testing.T) {
	cases := []struct{ in, key string }{
		{"https://Example.ORG/a/b/", "https://example.org/a/b"},
		{"http://www.example.org:80/", "https://example.org/"},
		{"https://example.org:443/x?utm_medium=a&b=2&a=1#f", "https://example.org/x?a=1&b=2"},
		{"https://example.org:8443/x", "https://example.org:8443/x"},
		{"https://example.org/%7euser/%2f%41", "https://example.org/~user/%2FA"},
		{"https://bücher.example/", "https://xn--bcher-kva.example/"},
		{"https://[2001:db8::1]/a", "https://[2001:db8::1]/a"},
		// The host in egress's one canonical form: root dot, full-width
		// letters, IPv4 notations, IPv4-mapped and uncompressed IPv6.
		{"https://Example.ORG./a", "https://example.org/a"},
		{"https://ｅｘａｍｐｌｅ．ｏｒｇ/a", "https://example.org/a"},
		{"https://93.184.1/a", "https://93.184.0.1/a"},
		{"https://0x5db80001/a", "https://93.184.0.1/a"},
		{"https://[::ffff:93.184.0.1]/a", "https://93.184.0.1/a"},
		{"https://[2001:0DB8:0:0::1]/a", "https://[2001:db8::1]/a"},
	}
	for _, c := range cases {
		n, why := normalizeURL(c.in)
		if why != "" || n.key != c.key {
			t.Errorf("%s: key %q (%s), want %q", c.in, n.key, why, c.key)
		}
		// Idempotent: the key of the key is the key.
		if n2, _ := normalizeURL(n.key); n2.key != n.key {
			t.Errorf("key not idempotent: %s → %s", n.key, n2.key)
		}
	}
}

func TestREQ_RANK_004_HTTPAndHTTPSMergeShowsHTTPS(t *testing.T) {
	a := fake("a", answer(res("Plain", "http://same.example/page")))
	b := fake("b", answer(res("Other", "https://x.example/"), res("Secure", "https://same.example/page")))
	bed := newBed(t, nil, a, b)
	out, _ := search(t, bed, "q")
	if out.Results[0].URL != "https://same.example/page" || out.Results[0].Title != "Plain" {
		t.Fatalf("merged result: %+v", out.Results[0])
	}
}
