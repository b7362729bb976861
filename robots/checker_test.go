package robots

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"rypsok/internal/testdate"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"
)

// site is a fake Getter: a table of answers by URL, and the URLs asked.
type site struct {
	mu      sync.Mutex
	answers map[string]answer
	asked   []string
}

type answer struct {
	resp Response
	err  error
}

func newSite() *site { return &site{answers: make(map[string]answer)} }

func (s *site) set(u string, a answer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers[u] = a
}

func (s *site) get(_ context.Context, u *url.URL) (Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, u.String())
	a, ok := s.answers[u.String()]
	if !ok {
		return Response{Status: 404}, nil
	}
	return a.resp, a.err
}

func (s *site) calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.asked)
}

func (s *site) askedList() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.asked...)
}

// clock is a fake clock that only moves when told.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newClock() *clock {
	return &clock{now: testdate.Epoch(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))}
}

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func allowed(t testing.TB, c *Checker, rawURL string) bool {
	t.Helper()
	ok, err := c.Allowed(context.Background(), mustURL(t, rawURL))
	if err != nil {
		t.Fatalf("Allowed(%s): %v", rawURL, err)
	}
	return ok
}

const privateRules = "user-agent: *\ndisallow: /private\n"

func ok200(body string) answer { return answer{resp: Response{Status: 200, Body: []byte(body)}} }

func redirect(status int, to string) answer {
	return answer{resp: Response{Status: status, Location: to}}
}

func TestREQ_CMP_005_StatusTable(t *testing.T) {
	cases := []struct {
		name                 string
		answer               answer
		wantPublic, wantPriv bool
	}{
		{"200 parsed", ok200(privateRules), true, false},
		{"203 parsed", answer{resp: Response{Status: 203, Body: []byte(privateRules)}}, true, false},
		{"204 empty allows", answer{resp: Response{Status: 204}}, true, true},
		{"200 HTML page has no rules", ok200("<html><body>Not here</body></html>"), true, true},
		{"400 allows", answer{resp: Response{Status: 400}}, true, true},
		{"401 allows", answer{resp: Response{Status: 401}}, true, true},
		{"403 allows", answer{resp: Response{Status: 403}}, true, true},
		{"404 allows", answer{resp: Response{Status: 404}}, true, true},
		{"410 allows", answer{resp: Response{Status: 410}}, true, true},
		{"429 allows (RFC 9309 §2.3.1.3: 400-499)", answer{resp: Response{Status: 429}}, true, true},
		{"499 allows", answer{resp: Response{Status: 499}}, true, true},
		{"500 disallows", answer{resp: Response{Status: 500, Body: []byte("oops")}}, false, false},
		{"502 disallows", answer{resp: Response{Status: 502}}, false, false},
		{"503 disallows", answer{resp: Response{Status: 503}}, false, false},
		{"599 disallows", answer{resp: Response{Status: 599}}, false, false},
		{"network error disallows", answer{err: errors.New("connection refused")}, false, false},
		{"redirect without Location disallows", answer{resp: Response{Status: 301}}, false, false},
		{"304 disallows", answer{resp: Response{Status: 304, Location: "/x"}}, false, false},
		{"300 disallows", answer{resp: Response{Status: 300, Location: "/x"}}, false, false},
		{"100 disallows", answer{resp: Response{Status: 100}}, false, false},
		{"status 0 disallows", answer{resp: Response{Status: 0}}, false, false},
		{"status 600 disallows", answer{resp: Response{Status: 600}}, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite()
			s.set("https://a.example/robots.txt", tc.answer)
			c := NewChecker(Options{Get: s.get, Now: newClock().Now})
			if got := allowed(t, c, "https://a.example/public"); got != tc.wantPublic {
				t.Errorf("/public: %v, want %v", got, tc.wantPublic)
			}
			if got := allowed(t, c, "https://a.example/private"); got != tc.wantPriv {
				t.Errorf("/private: %v, want %v", got, tc.wantPriv)
			}
			if !allowed(t, c, "https://a.example/robots.txt") {
				t.Error("/robots.txt is not allowed")
			}
			if n := s.calls(); n != 1 {
				t.Errorf("Getter called %d times, want 1", n)
			}
		})
	}
}

func TestREQ_CMP_005_NilGetterDisallows(t *testing.T) {
	c := NewChecker(Options{})
	if allowed(t, c, "https://a.example/x") {
		t.Error("allowed without a Getter")
	}
}

func TestREQ_CMP_005_RedirectChains(t *testing.T) {
	for hops := 1; hops <= 6; hops++ {
		t.Run(fmt.Sprintf("%d hops", hops), func(t *testing.T) {
			s := newSite()
			statuses := []int{301, 302, 303, 307, 308}
			from := "https://a.example/robots.txt"
			for i := 1; i <= hops; i++ {
				to := fmt.Sprintf("https://h%d.example/robots.txt", i)
				s.set(from, redirect(statuses[i%len(statuses)], to))
				from = to
			}
			s.set(from, ok200(privateRules))
			c := NewChecker(Options{Get: s.get, Now: newClock().Now})

			pub, priv := allowed(t, c, "https://a.example/public"), allowed(t, c, "https://a.example/private")
			if hops <= 5 {
				if !pub || priv {
					t.Errorf("public %v private %v: the rules at the end of the chain were not applied", pub, priv)
				}
				if n := s.calls(); n != hops+1 {
					t.Errorf("Getter called %d times, want %d", n, hops+1)
				}
			} else {
				if pub || priv {
					t.Errorf("public %v private %v: more than 5 redirects must disallow", pub, priv)
				}
				if n := s.calls(); n != 6 {
					t.Errorf("Getter called %d times, want 6", n)
				}
			}
		})
	}
}

func TestREQ_CMP_005_RedirectTargets(t *testing.T) {
	cases := []struct {
		name      string
		location  string
		wantAsked string // "" when the redirect is not followed
	}{
		{"absolute path", "/real/robots.txt", "https://a.example/real/robots.txt"},
		{"relative path", "real/robots.txt?v=2", "https://a.example/real/robots.txt?v=2"},
		{"dot segments", "../x/./robots.txt", "https://a.example/x/robots.txt"},
		{"scheme-relative", "//cdn.example/robots.txt", "https://cdn.example/robots.txt"},
		{"other host and scheme", "http://b.example:8080/robots.txt", "http://b.example:8080/robots.txt"},
		{"user information and fragment dropped", "https://user:pw@b.example/robots.txt#top", "https://b.example/robots.txt"},
		{"ftp refused", "ftp://b.example/robots.txt", ""},
		{"no host refused", "https:///robots.txt", ""},
		{"unparsable refused", "https://b.example/%zz", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite()
			s.set("https://a.example/robots.txt", redirect(302, tc.location))
			if tc.wantAsked != "" {
				s.set(tc.wantAsked, ok200(privateRules))
			}
			c := NewChecker(Options{Get: s.get, Now: newClock().Now})
			pub, priv := allowed(t, c, "https://a.example/public"), allowed(t, c, "https://a.example/private")
			asked := s.askedList()
			if tc.wantAsked == "" {
				if pub || priv || len(asked) != 1 {
					t.Errorf("public %v private %v asked %q: want everything disallowed after one request", pub, priv, asked)
				}
				return
			}
			if len(asked) != 2 || asked[1] != tc.wantAsked {
				t.Fatalf("asked %q, want the second request to be %q", asked, tc.wantAsked)
			}
			if !pub || priv {
				t.Errorf("public %v private %v: the target's rules were not applied", pub, priv)
			}
		})
	}
}

// The rules reached through a redirect are the initial origin's; the
// target's own origin is read on its own.
func TestREQ_CMP_005_RedirectRulesBelongToInitialOrigin(t *testing.T) {
	s := newSite()
	s.set("https://a.example/robots.txt", redirect(301, "https://b.example/robots.txt"))
	s.set("https://b.example/robots.txt", ok200(privateRules))
	c := NewChecker(Options{Get: s.get, Now: newClock().Now})
	if allowed(t, c, "https://a.example/private") {
		t.Error("a.example/private allowed")
	}
	if allowed(t, c, "https://b.example/private") {
		t.Error("b.example/private allowed")
	}
	want := []string{"https://a.example/robots.txt", "https://b.example/robots.txt", "https://b.example/robots.txt"}
	if got := s.askedList(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("asked %q, want %q", got, want)
	}
}

func TestREQ_CMP_005_RobotsURLIsOriginRoot(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://user:pw@Example.COM:8443/a/b?q=1#f", "https://example.com:8443/robots.txt"},
		{"http://example.com", "http://example.com/robots.txt"},
		{"HTTPS://example.com/x", "https://example.com/robots.txt"},
		{"http://[2001:db8::1]/x", "http://[2001:db8::1]/robots.txt"},
		{"http://[2001:db8::1]:8080/x", "http://[2001:db8::1]:8080/robots.txt"},
	}
	for _, tc := range cases {
		s := newSite()
		c := NewChecker(Options{Get: s.get, Now: newClock().Now})
		allowed(t, c, tc.in)
		if got := s.askedList(); len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: asked %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestREQ_CMP_005_PathAndQueryOfTheURL(t *testing.T) {
	s := newSite()
	s.set("https://a.example/robots.txt", ok200("user-agent: *\ndisallow: /$\ndisallow: /a?b=1\ndisallow: /%7Euser\ndisallow: /sp%20ace\n"))
	c := NewChecker(Options{Get: s.get, Now: newClock().Now})
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{"https://a.example", false},
		{"https://a.example/", false},
		{"https://a.example/?x", true},
		{"https://a.example/a?b=1", false},
		{"https://a.example/a?b=2", true},
		{"https://a.example/a", true},
		{"https://a.example/~user/page", false},
		{"https://a.example/sp%20ace", false},
		{"https://a.example/robots.txt", true},
	} {
		if got := allowed(t, c, tc.url); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.url, got, tc.want)
		}
	}
}

func TestREQ_CMP_005_CacheHitPerOrigin(t *testing.T) {
	s := newSite()
	s.set("https://a.example/robots.txt", ok200(privateRules))
	c := NewChecker(Options{Get: s.get, Now: newClock().Now})
	for _, u := range []string{
		"https://a.example/one",
		"https://A.EXAMPLE/two",
		"https://a.example:443/three",
		"https://a.example./four",
		"https://user@a.example/five",
	} {
		allowed(t, c, u)
	}
	if n := s.calls(); n != 1 {
		t.Errorf("one origin: Getter called %d times, want 1", n)
	}
	for _, u := range []string{"http://a.example/x", "https://a.example:8443/x", "https://b.a.example/x"} {
		allowed(t, c, u)
	}
	if n := s.calls(); n != 4 {
		t.Errorf("four origins: Getter called %d times, want 4", n)
	}
	// Disallowing verdicts are kept as well.
	s.set("https://down.example/robots.txt", answer{resp: Response{Status: 503}})
	allowed(t, c, "https://down.example/x")
	allowed(t, c, "https://down.example/y")
	if n := s.calls(); n != 5 {
		t.Errorf("unreachable origin: Getter called %d times, want 5", n)
	}
}

func TestREQ_CMP_005_TTLExpiry(t *testing.T) {
	s := newSite()
	s.set("https://a.example/robots.txt", ok200(privateRules))
	clk := newClock()
	c := NewChecker(Options{Get: s.get, Now: clk.Now})
	if allowed(t, c, "https://a.example/private") {
		t.Fatal("private allowed")
	}
	clk.advance(TTL - time.Nanosecond)
	s.set("https://a.example/robots.txt", ok200("")) // the site changes its file
	if allowed(t, c, "https://a.example/private") {
		t.Error("the verdict was not kept until the TTL")
	}
	if n := s.calls(); n != 1 {
		t.Errorf("before TTL: Getter called %d times, want 1", n)
	}
	clk.advance(time.Nanosecond)
	if !allowed(t, c, "https://a.example/private") {
		t.Error("the verdict was kept past the TTL")
	}
	if n := s.calls(); n != 2 {
		t.Errorf("at TTL: Getter called %d times, want 2", n)
	}
	if TTL != 24*time.Hour {
		t.Errorf("TTL = %v, want LIM-F12 24h", TTL)
	}
}

func TestREQ_CMP_005_LRUEviction(t *testing.T) {
	s := newSite()
	c := NewChecker(Options{Get: s.get, MaxEntries: 2, Now: newClock().Now})
	calls := func() int { return s.calls() }
	allowed(t, c, "https://a.example/")
	allowed(t, c, "https://b.example/")
	allowed(t, c, "https://a.example/") // a is now the most recently used
	if calls() != 2 {
		t.Fatalf("Getter called %d times, want 2", calls())
	}
	allowed(t, c, "https://c.example/") // evicts b
	allowed(t, c, "https://a.example/")
	if calls() != 3 {
		t.Errorf("a was evicted: Getter called %d times, want 3", calls())
	}
	allowed(t, c, "https://b.example/")
	if calls() != 4 {
		t.Errorf("b was kept: Getter called %d times, want 4", calls())
	}
	c.mu.Lock()
	n := c.order.Len()
	c.mu.Unlock()
	if n != 2 {
		t.Errorf("%d entries kept, want 2", n)
	}
}

func TestREQ_CMP_005_DefaultMaxEntries(t *testing.T) {
	s := newSite()
	c := NewChecker(Options{Get: s.get, Now: newClock().Now})
	for i := 0; i <= DefaultMaxEntries; i++ {
		allowed(t, c, fmt.Sprintf("https://h%d.example/", i))
	}
	before := s.calls()
	allowed(t, c, "https://h1.example/") // kept
	if s.calls() != before {
		t.Error("an origin within the bound was evicted")
	}
	allowed(t, c, "https://h0.example/") // the oldest, evicted
	if s.calls() != before+1 {
		t.Error("more than DefaultMaxEntries origins were kept")
	}
	if DefaultMaxEntries != 1000 {
		t.Errorf("DefaultMaxEntries = %d, want LIM-F15 1000", DefaultMaxEntries)
	}
}

func TestREQ_CMP_005_ContextEndIsNotCached(t *testing.T) {
	t.Run("cancelled during the read", func(t *testing.T) {
		calls := 0
		ctx, cancel := context.WithCancel(context.Background())
		get := func(ctx context.Context, _ *url.URL) (Response, error) {
			calls++
			if calls == 1 {
				cancel()
				return Response{}, fmt.Errorf("read: %w", ctx.Err())
			}
			return Response{Status: 200, Body: []byte(privateRules)}, nil
		}
		c := NewChecker(Options{Get: get, Now: newClock().Now})
		ok, err := c.Allowed(ctx, mustURL(t, "https://a.example/public"))
		if !errors.Is(err, context.Canceled) || ok {
			t.Fatalf("got %v, %v; want false and context.Canceled", ok, err)
		}
		if !allowed(t, c, "https://a.example/public") || allowed(t, c, "https://a.example/private") {
			t.Error("the rules were not read after the cancelled call")
		}
		if calls != 2 {
			t.Errorf("Getter called %d times, want 2", calls)
		}
	})
	t.Run("deadline passed before the call", func(t *testing.T) {
		s := newSite()
		ctx, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
		defer cancel()
		c := NewChecker(Options{Get: s.get, Now: newClock().Now})
		ok, err := c.Allowed(ctx, mustURL(t, "https://a.example/x"))
		if !errors.Is(err, context.DeadlineExceeded) || ok {
			t.Errorf("got %v, %v; want false and context.DeadlineExceeded", ok, err)
		}
		if s.calls() != 0 {
			t.Error("the Getter was called with an ended context")
		}
	})
	t.Run("cancelled between redirects", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		calls := 0
		get := func(context.Context, *url.URL) (Response, error) {
			calls++
			cancel()
			return Response{Status: 301, Location: "/next"}, nil
		}
		c := NewChecker(Options{Get: get, Now: newClock().Now})
		if _, err := c.Allowed(ctx, mustURL(t, "https://a.example/x")); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if calls != 1 {
			t.Errorf("Getter called %d times after the cancellation, want 1", calls)
		}
		c.mu.Lock()
		n := c.order.Len()
		c.mu.Unlock()
		if n != 0 {
			t.Errorf("%d entries cached after a cancelled read", n)
		}
	})
	t.Run("an error of the Getter with a live context is a verdict", func(t *testing.T) {
		s := newSite()
		s.set("https://a.example/robots.txt", answer{err: context.DeadlineExceeded}) // the Getter's own timeout
		c := NewChecker(Options{Get: s.get, Now: newClock().Now})
		if allowed(t, c, "https://a.example/x") || allowed(t, c, "https://a.example/y") {
			t.Error("a robots.txt read that timed out must disallow")
		}
		if s.calls() != 1 {
			t.Errorf("Getter called %d times, want 1 (the verdict is kept)", s.calls())
		}
	})
}

func TestREQ_CMP_005_ConcurrentCallsReadOnce(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	var mu sync.Mutex
	calls := 0
	get := func(context.Context, *url.URL) (Response, error) {
		mu.Lock()
		calls++
		first := calls == 1
		mu.Unlock()
		if first {
			close(entered)
		}
		<-release
		return Response{Status: 200, Body: []byte(privateRules)}, nil
	}
	c := NewChecker(Options{Get: get, Now: newClock().Now})
	const callers = 16
	results := make(chan bool, callers)
	var wg sync.WaitGroup
	for i := 0; i < callers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := c.Allowed(context.Background(), mustURL(t, "https://a.example/private"))
			if err != nil {
				t.Error(err)
			}
			results <- ok
		}()
	}
	<-entered
	waitForWaiters(t, c, "https://a.example:443", callers-1)
	close(release)
	wg.Wait()
	close(results)
	for ok := range results {
		if ok {
			t.Error("a caller was allowed /private")
		}
	}
	if calls != 1 {
		t.Errorf("Getter called %d times, want 1", calls)
	}
}

// When the caller doing the read is cancelled, a caller waiting for the
// same origin reads again with its own context.
func TestREQ_CMP_005_WaiterReadsAgainWhenReaderCancelled(t *testing.T) {
	entered := make(chan struct{})
	var mu sync.Mutex
	calls := 0
	get := func(ctx context.Context, _ *url.URL) (Response, error) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if n == 1 {
			close(entered)
			<-ctx.Done()
			return Response{}, ctx.Err()
		}
		return Response{Status: 200, Body: []byte(privateRules)}, nil
	}
	c := NewChecker(Options{Get: get, Now: newClock().Now})
	leaderCtx, cancelLeader := context.WithCancel(context.Background())
	leaderErr := make(chan error, 1)
	go func() {
		_, err := c.Allowed(leaderCtx, mustURL(t, "https://a.example/private"))
		leaderErr <- err
	}()
	<-entered
	waiterDone := make(chan struct{})
	var waiterOK bool
	var waiterErr error
	go func() {
		defer close(waiterDone)
		waiterOK, waiterErr = c.Allowed(context.Background(), mustURL(t, "https://a.example/public"))
	}()
	waitForWaiters(t, c, "https://a.example:443", 1)
	cancelLeader()
	if err := <-leaderErr; !errors.Is(err, context.Canceled) {
		t.Errorf("reader: err = %v, want context.Canceled", err)
	}
	<-waiterDone
	if waiterErr != nil || !waiterOK {
		t.Errorf("waiter: %v, %v; want true, nil", waiterOK, waiterErr)
	}
	if calls != 2 {
		t.Errorf("Getter called %d times, want 2", calls)
	}
}

func TestREQ_CMP_005_WaiterCancelledWhileWaiting(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	get := func(context.Context, *url.URL) (Response, error) {
		close(entered)
		<-release
		return Response{Status: 200, Body: []byte(privateRules)}, nil
	}
	c := NewChecker(Options{Get: get, Now: newClock().Now})
	readerDone := make(chan bool)
	go func() {
		ok, _ := c.Allowed(context.Background(), mustURL(t, "https://a.example/public"))
		readerDone <- ok
	}()
	<-entered
	ctx, cancel := context.WithCancel(context.Background())
	waiterErr := make(chan error)
	go func() {
		_, err := c.Allowed(ctx, mustURL(t, "https://a.example/public"))
		waiterErr <- err
	}()
	waitForWaiters(t, c, "https://a.example:443", 1)
	cancel()
	if err := <-waiterErr; !errors.Is(err, context.Canceled) {
		t.Errorf("waiter: err = %v, want context.Canceled", err)
	}
	close(release)
	if !<-readerDone {
		t.Error("reader: /public not allowed")
	}
}

func TestCheckerRefusesURLsWithoutHTTPOrigin(t *testing.T) {
	s := newSite()
	c := NewChecker(Options{Get: s.get, Now: newClock().Now})
	for _, raw := range []string{"ftp://a.example/x", "file:///etc/passwd", "https:///x", "mailto:a@b.example", "/relative"} {
		ok, err := c.Allowed(context.Background(), mustURL(t, raw))
		if err == nil || ok {
			t.Errorf("%s: %v, %v; want false and an error", raw, ok, err)
		}
		if err != nil && strings.Contains(err.Error(), "a.example") {
			t.Errorf("%s: the error %q shows the URL", raw, err)
		}
	}
	if ok, err := c.Allowed(context.Background(), nil); err == nil || ok {
		t.Errorf("nil URL: %v, %v; want false and an error", ok, err)
	}
	if s.calls() != 0 {
		t.Error("the Getter was called")
	}
}

// httpGetter is a Getter like the fetch pipeline's: one request, no
// redirect followed, the body bounded.
func httpGetter(client *http.Client) Getter {
	return func(ctx context.Context, u *url.URL) (Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return Response{}, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return Response{}, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBytes+1))
		if err != nil {
			return Response{}, err
		}
		return Response{Status: resp.StatusCode, Location: resp.Header.Get("Location"), Body: body}, nil
	}
}

func TestREQ_CMP_005_OverHTTP(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			http.Redirect(w, r, "/hop", http.StatusMovedPermanently)
		case "/hop":
			http.Redirect(w, r, "/files/robots.txt", http.StatusTemporaryRedirect)
		case "/files/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "\xEF\xBB\xBFUser-agent: rypsok\r\nDisallow: /private\r\nAllow: /private/ok\r\n")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	client := srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

	c := NewChecker(Options{Get: httpGetter(client), Now: newClock().Now})
	for path, want := range map[string]bool{"/public": true, "/private/x": false, "/private/ok": true} {
		if got := allowed(t, c, srv.URL+path); got != want {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range []string{"/robots.txt", "/hop", "/files/robots.txt"} {
		if hits[p] != 1 {
			t.Errorf("%s requested %d times, want 1", p, hits[p])
		}
	}
}

// waitForWaiters returns once n callers wait for the read of origin.
func waitForWaiters(t *testing.T, c *Checker, origin string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c.mu.Lock()
		r := c.inflight[origin]
		got := 0
		if r != nil {
			got = r.waiters
		}
		c.mu.Unlock()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d callers wait for %s after 30 s, want %d", got, origin, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// A Checker keeps only the rules that answer for rypsok, not the groups of
// other crawlers, and they answer as the parsed file does.
func TestREQ_CMP_005_CachedVerdictKeepsOnlyRypsokRules(t *testing.T) {
	other := "user-agent: otherbot\n" + strings.Repeat("disallow: /other\n", 1000)
	cases := []struct {
		name      string
		body      string
		wantKind  verdictKind
		wantRules int
	}{
		{"named groups", other + "user-agent: rypsok\ndisallow: /a\nuser-agent: *\ndisallow: /b\nuser-agent: RYPSOK\nallow: /a/b\n", byRules, 2},
		{"star groups", other + "user-agent: *\ndisallow: /b\n", byRules, 1},
		{"no group applies", other, allowAll, 0},
		{"named group without rules", other + "user-agent: rypsok\nuser-agent: *\ndisallow: /b\n", byRules, 1},
		{"named group with an empty rule", other + "user-agent: rypsok\ndisallow:\nuser-agent: *\ndisallow: /b\n", allowAll, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := Parse([]byte(tc.body))
			v := verdictOf(r)
			if v.kind != tc.wantKind || len(v.rules) != tc.wantRules {
				t.Errorf("kept kind %d with %d rules, want kind %d with %d", v.kind, len(v.rules), tc.wantKind, tc.wantRules)
			}
			for _, p := range []string{"/a", "/a/b", "/b", "/other", "/robots.txt"} {
				if got, want := v.allowed(p), r.Allowed(Product, p); got != want {
					t.Errorf("%s: kept verdict %v, parsed file %v", p, got, want)
				}
			}
		})
	}
}

func TestREQ_CMP_005_MaxKeptBytes(t *testing.T) {
	if got := unsafe.Sizeof(rule{}); got != ruleBytes {
		t.Fatalf("a rule is %d bytes, ruleBytes says %d", got, ruleBytes)
	}
	s := newSite()
	big := "user-agent: *\n" + strings.Repeat("disallow: /0123456789\n", 1000) // about 43 KB kept
	s.set("https://big.example/robots.txt", ok200(big))
	s.set("https://small1.example/robots.txt", ok200(privateRules))
	s.set("https://small2.example/robots.txt", ok200(privateRules))
	c := NewChecker(Options{Get: s.get, Now: newClock().Now, MaxKeptBytes: 4096})
	allowed(t, c, "https://small1.example/")
	allowed(t, c, "https://small2.example/")
	if n := s.calls(); n != 2 {
		t.Fatalf("Getter called %d times, want 2", n)
	}
	allowed(t, c, "https://small1.example/") // both small ones fit
	if n := s.calls(); n != 2 {
		t.Errorf("a small verdict was evicted within the budget: %d calls", n)
	}
	if allowed(t, c, "https://big.example/0123456789") {
		t.Error("the big file's rule was not applied")
	}
	allowed(t, c, "https://big.example/x") // the newest is kept beyond the budget
	if n := s.calls(); n != 3 {
		t.Errorf("the newest verdict was not kept: %d calls, want 3", n)
	}
	c.mu.Lock()
	entries, kept := c.order.Len(), c.kept
	c.mu.Unlock()
	if entries != 1 || kept < 1000*(ruleBytes+len("/0123456789")) {
		t.Errorf("%d entries, %d bytes kept; want only the big one, counted", entries, kept)
	}
	allowed(t, c, "https://small1.example/") // evicted by the big one
	if n := s.calls(); n != 4 {
		t.Errorf("small1 was not evicted: %d calls, want 4", n)
	}
	c.mu.Lock()
	entries, kept = c.order.Len(), c.kept
	c.mu.Unlock()
	if entries != 1 || kept > 4096 {
		t.Errorf("%d entries, %d bytes kept; want the small one alone within the budget", entries, kept)
	}
}
