package fetch

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"rypsok/tool"
)

// gate is a handler that holds every request until it is opened, counting
// the requests inside and the most at once.
type gate struct {
	open     chan struct{}
	inside   atomic.Int32
	most     atomic.Int32
	arrivals atomic.Int32
}

func newGate() *gate { return &gate{open: make(chan struct{})} }

func (g *gate) enter() {
	g.arrivals.Add(1)
	n := g.inside.Add(1)
	for {
		m := g.most.Load()
		if n <= m || g.most.CompareAndSwap(m, n) {
			break
		}
	}
}

func (g *gate) handler(w http.ResponseWriter, r *http.Request) {
	g.enter()
	defer g.inside.Add(-1)
	select {
	case <-g.open:
	case <-r.Context().Done():
		return
	}
	html(pageHTML)(w, r)
}

// fetchAll starts one fetch per URL and returns their errors when all end.
func fetchAll(e *env, urls ...string) func() []*tool.Error {
	errs := make([]*tool.Error, len(urls))
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = e.svc.Fetch(context.Background(), tool.FetchRequest{URL: u, MaxChars: 3000})
		}()
	}
	return func() []*tool.Error { wg.Wait(); return errs }
}

// settle gives fetches that are not blocked time to arrive.
func settle() { time.Sleep(300 * time.Millisecond) }

func TestREQ_SEC_012_OneFetchPerHost(t *testing.T) {
	g := newGate()
	st := newSite(t, g.handler)
	e := newEnv(t, func(s *Settings) { s.IgnoreRobotsTxt = true }, st)
	wait := fetchAll(e, st.url("a.example.com", "/1"), st.url("a.example.com", "/2"), st.url("A.EXAMPLE.COM.", "/3"))
	waitFor(t, "the first fetch", func() bool { return g.inside.Load() == 1 })
	settle()
	if n := g.arrivals.Load(); n != 1 {
		t.Fatalf("%d fetches to one host at once", n)
	}
	close(g.open)
	for _, terr := range wait() {
		if terr != nil {
			t.Fatalf("fetch: %v", terr)
		}
	}
	if g.most.Load() != 1 || g.arrivals.Load() != 3 {
		t.Fatalf("most at once %d of %d", g.most.Load(), g.arrivals.Load())
	}
}

// TestREQ_SEC_012_WaitBeyondTheDeadlineIsBusy: while a fetch holds the
// host's turn, or every fetch permit, for longer than the deadline, another
// fetch waits and then ends busy without reaching the host.
func TestREQ_SEC_012_WaitBeyondTheDeadlineIsBusy(t *testing.T) {
	st := newSite(t, html(pageHTML))
	e := newEnv(t, func(s *Settings) { s.Deadline = time.Second; s.FetchesInFlight = 2 }, st)
	ctx := context.Background()

	// A fetch in progress holds a.example.com.
	e.svc.hosts.acquire(ctx, "a.example.com")
	start := time.Now()
	_, terr := e.fetch(t, st.url("a.example.com", "/waiting"), 3000, 0)
	wantError(t, terr, tool.KindUnavailable, tool.ReasonBusy)
	if took := time.Since(start); took < time.Second || took > 3*time.Second {
		t.Fatalf("busy after %v, want after the 1 s deadline", took)
	}
	e.svc.hosts.release("a.example.com")

	// Fetches in progress hold every permit of the process.
	for range cap(e.svc.fetches) {
		e.svc.fetches.Acquire(ctx)
	}
	_, terr = e.fetch(t, st.url("b.example.com", "/waiting"), 3000, 0)
	wantError(t, terr, tool.KindUnavailable, tool.ReasonBusy)
	for range cap(e.svc.fetches) {
		e.svc.fetches.Release()
	}
	st.mustBeUntouched(t)
	e.mustFetch(t, st.url("a.example.com", "/after"), 3000, 0)
}

func TestREQ_SEC_012_FetchesInFlight(t *testing.T) {
	g := newGate()
	st := newSite(t, g.handler)
	e := newEnv(t, func(s *Settings) { s.IgnoreRobotsTxt = true; s.FetchesInFlight = 2 }, st)
	wait := fetchAll(e, st.url("a.example.com", "/"), st.url("b.example.com", "/"), st.url("c.example.com", "/"), st.url("d.example.com", "/"))
	waitFor(t, "two fetches", func() bool { return g.inside.Load() == 2 })
	settle()
	if n := g.arrivals.Load(); n != 2 {
		t.Fatalf("%d fetches in flight, limit 2", n)
	}
	close(g.open)
	for _, terr := range wait() {
		if terr != nil {
			t.Fatalf("fetch: %v", terr)
		}
	}
	if g.most.Load() != 2 || g.arrivals.Load() != 4 {
		t.Fatalf("most at once %d of %d", g.most.Load(), g.arrivals.Load())
	}
}

func TestREQ_SEC_012_ParsingInFlight(t *testing.T) {
	st := newSite(t, html(pageHTML))
	e := newEnv(t, func(s *Settings) { s.IgnoreRobotsTxt = true; s.ParsingInFlight = 1 }, st)
	release := make(chan struct{})
	var inside, most, arrivals atomic.Int32
	e.svc.process = func(b []byte, ct string, k mediaKind, u *url.URL, n int, strict bool) (page, error) {
		arrivals.Add(1)
		if in := inside.Add(1); in > most.Load() {
			most.Store(in)
		}
		defer inside.Add(-1)
		<-release
		return process(b, ct, k, u, n, strict)
	}
	wait := fetchAll(e, st.url("a.example.com", "/"), st.url("b.example.com", "/"), st.url("c.example.com", "/"))
	waitFor(t, "one extraction", func() bool { return inside.Load() == 1 })
	settle()
	if n := arrivals.Load(); n != 1 {
		t.Fatalf("%d extractions at once, limit 1", n)
	}
	close(release)
	for _, terr := range wait() {
		if terr != nil {
			t.Fatalf("fetch: %v", terr)
		}
	}
	if most.Load() != 1 || arrivals.Load() != 3 {
		t.Fatalf("most at once %d of %d", most.Load(), arrivals.Load())
	}
}

// TestREQ_SEC_012_ParsePermitWaitCountsAgainstTheCall: a fetch that cannot
// get a parse permit within LIM-F5 is busy.
func TestREQ_SEC_012_ParsePermitWaitCountsAgainstTheCall(t *testing.T) {
	st := newSite(t, html(pageHTML))
	e := newEnv(t, func(s *Settings) { s.IgnoreRobotsTxt = true; s.ParsingInFlight = 1; s.Deadline = time.Second }, st)
	release := make(chan struct{})
	defer close(release)
	entered := make(chan struct{}, 1)
	e.svc.process = func([]byte, string, mediaKind, *url.URL, int, bool) (page, error) {
		entered <- struct{}{}
		<-release
		return page{}, errNothing
	}
	first := fetchAll(e, st.url("a.example.com", "/"))
	<-entered
	_, terr := e.fetch(t, st.url("b.example.com", "/"), 3000, 0)
	wantError(t, terr, tool.KindUnavailable, tool.ReasonBusy)
	wantError(t, first()[0], tool.KindUnavailable, tool.ReasonDeadline)
}

// TestREQ_MCP_007_CancelEndsTheRequest: the server sees the request end
// within LIM-O2 (500 ms) of the cancel.
func TestREQ_MCP_007_CancelEndsTheRequest(t *testing.T) {
	arrived := make(chan struct{})
	ended := make(chan time.Time, 1)
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-r.Context().Done()
		ended <- time.Now()
	})
	e := newEnv(t, func(s *Settings) { s.IgnoreRobotsTxt = true }, st)
	ctx, cancel := context.WithCancel(context.Background())
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		e.svc.Fetch(ctx, tool.FetchRequest{URL: st.url("a.example.com", "/hang"), MaxChars: 3000})
	}()
	<-arrived
	cancelled := time.Now()
	cancel()
	select {
	case at := <-ended:
		if d := at.Sub(cancelled); d > 500*time.Millisecond {
			t.Fatalf("the request ended %v after the cancel", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the request did not end")
	}
	<-returned
}

func TestREQ_SEC_012_HostSlotsAreReleased(t *testing.T) {
	l := newHostLimiter()
	ctx := context.Background()
	for range 3 {
		if !l.acquire(ctx, "a") {
			t.Fatal("acquire")
		}
		l.release("a")
	}
	short, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	l.acquire(ctx, "b")
	if l.acquire(short, "b") {
		t.Fatal("two holders of one host")
	}
	l.release("b")
	if len(l.hosts) != 0 {
		t.Fatalf("%d host entries left", len(l.hosts))
	}
}

// TestREQ_SEC_012_AnAddressWrittenDifferentlyHasOneSlot: LIM-C4 counts a
// host in egress's canonical form, so the same address in other notations
// (another IPv4 form, a root dot, full-width digits) waits for the one slot.
func TestREQ_SEC_012_AnAddressWrittenDifferentlyHasOneSlot(t *testing.T) {
	g := newGate()
	st := newSite(t, g.handler)
	e := newEnv(t, func(s *Settings) { s.IgnoreRobotsTxt = true }, st)
	wait := fetchAll(e, st.url("127.0.0.1", "/1"), st.url("127.1", "/2"), st.url("0x7f.0.0.1", "/3"),
		st.url("2130706433", "/4"), st.url("127.0.0.1.", "/5"), st.url("１２７．０．０．１", "/6"))
	waitFor(t, "the first fetch", func() bool { return g.inside.Load() == 1 })
	settle()
	if n := g.arrivals.Load(); n != 1 {
		t.Fatalf("%d fetches to one address at once", n)
	}
	close(g.open)
	for _, terr := range wait() {
		if terr != nil {
			t.Fatalf("fetch: %v", terr)
		}
	}
	if g.most.Load() != 1 || g.arrivals.Load() != 6 {
		t.Fatalf("most at once %d of %d", g.most.Load(), g.arrivals.Load())
	}
}
