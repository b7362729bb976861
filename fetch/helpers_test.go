package fetch

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"rypsok/internal/testdate"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"rypsok/egress"
	"rypsok/tool"
)

// logBuffer captures the service's JSON log lines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// events returns the decoded lines whose message is msg.
func (l *logBuffer) events(t testing.TB, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line is not JSON: %v", err)
		}
		if m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

// fakeResolver answers names from a table; a name with several answers
// gives them in turn and then repeats the last. Names under example.com,
// example.org and example.net resolve to 127.0.0.1 unless listed; any
// other name does not exist.
type fakeResolver struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	calls   map[string]int
}

func newResolver() *fakeResolver {
	return &fakeResolver{answers: map[string][][]netip.Addr{}, calls: map[string]int{}}
}

// set gives host its answers, one comma-separated list per call.
func (r *fakeResolver) set(host string, answers ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var all [][]netip.Addr
	for _, a := range answers {
		var one []netip.Addr
		for _, s := range strings.Split(a, ",") {
			one = append(one, netip.MustParseAddr(s))
		}
		all = append(all, one)
	}
	r.answers[host] = all
}

func (r *fakeResolver) count(host string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[host]
}

func (r *fakeResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.calls[host]
	r.calls[host]++
	if a, ok := r.answers[host]; ok && len(a) > 0 {
		return a[min(n, len(a)-1)], nil
	}
	for _, suffix := range []string{"example.com", "example.org", "example.net"} {
		if host == suffix || strings.HasSuffix(host, "."+suffix) {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// site is a loopback TLS server that records every request. robots.txt is
// answered by robots (nil: 404); every other path by handler.
type site struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string // path?query of each request, in order
	robots   http.HandlerFunc
}

func newSite(t testing.TB, handler http.HandlerFunc) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.URL.RequestURI())
		robots := s.robots
		s.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			if robots == nil {
				http.NotFound(w, r)
				return
			}
			robots(w, r)
			return
		}
		if handler == nil {
			http.NotFound(w, r)
			return
		}
		handler(w, r)
	}))
	// Handshakes that a test makes fail on purpose are not news.
	s.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

// newPlainSite is newSite without TLS.
func newPlainSite(t testing.TB, handler http.HandlerFunc) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.URL.RequestURI())
		s.mu.Unlock()
		if handler != nil {
			handler(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) setRobots(h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.robots = h
}

func (s *site) port() int {
	_, p, _ := net.SplitHostPort(s.Listener.Addr().String())
	n, _ := strconv.Atoi(p)
	return n
}

// url is an https URL of the site under host name host.
func (s *site) url(host, path string) string {
	return "https://" + host + ":" + strconv.Itoa(s.port()) + path
}

func (s *site) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// count is how many requests asked for path (with its query, if any).
func (s *site) count(path string) int {
	n := 0
	for _, p := range s.seen() {
		if p == path {
			n++
		}
	}
	return n
}

func (s *site) mustBeUntouched(t testing.TB) {
	t.Helper()
	if got := s.seen(); len(got) != 0 {
		t.Fatalf("the canary was reached %d times", len(got))
	}
}

// html answers a page with the given body as text/html.
func html(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(body))
	}
}

func mustRule(t testing.TB, s string) egress.Rule {
	t.Helper()
	r, err := egress.ParseRule(s)
	if err != nil {
		t.Fatalf("ParseRule: %v", err)
	}
	return r
}

// env is a service wired to loopback test servers: an allow rule for
// 127.0.0.1 injected in code (REQ-TEST-005), the servers' ports listed,
// their certificate trusted, and the fake resolver.
type env struct {
	svc      *Service
	logs     *logBuffer
	resolver *fakeResolver
}

// newEnv builds the service. set changes the settings after the test
// defaults are filled (allow rule, ports, a 5 s deadline).
func newEnv(t testing.TB, set func(*Settings), sites ...*site) *env {
	t.Helper()
	s := DefaultSettings()
	s.Deadline = 5 * time.Second
	s.Policy = egress.Policy{Allow: []egress.Rule{mustRule(t, "127.0.0.1")}, Ports: []int{80, 443}}
	roots := x509.NewCertPool()
	for _, st := range sites {
		s.Policy.Ports = append(s.Policy.Ports, st.port())
		if st.Certificate() != nil {
			roots.AddCert(st.Certificate())
		}
	}
	if set != nil {
		set(&s)
	}
	e := &env{logs: &logBuffer{}, resolver: newResolver()}
	e.svc = New(s, Deps{
		Logger:    slog.New(slog.NewJSONHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Roots:     roots,
		UserAgent: "rypsok/test",
		Resolver:  e.resolver,
		Now:       newTicking().Now,
	})
	return e
}

// ticking is the fake clock of the fetch tests: it starts at the package's
// test epoch and moves a millisecond at each reading, so every span it
// measures is positive and none of it is the system's date.
type ticking struct {
	mu sync.Mutex
	t  time.Time
}

func newTicking() *ticking {
	return &ticking{t: testdate.Epoch(time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC))}
}

func (c *ticking) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

func (e *env) fetch(t testing.TB, url string, maxChars, startChar int) (*tool.FetchResponse, *tool.Error) {
	t.Helper()
	return e.svc.Fetch(context.Background(), tool.FetchRequest{URL: url, MaxChars: maxChars, StartChar: startChar})
}

// mustFetch fetches and fails the test on an error.
func (e *env) mustFetch(t testing.TB, url string, maxChars, startChar int) *tool.FetchResponse {
	t.Helper()
	resp, terr := e.fetch(t, url, maxChars, startChar)
	if terr != nil {
		t.Fatalf("Fetch: %s: %s (%+v)", terr.Kind, terr.Message, terr.Detail)
	}
	if resp.Notices == nil {
		t.Fatalf("Notices is nil")
	}
	return resp
}

// wantError checks an error's kind and reason.
func wantError(t testing.TB, terr *tool.Error, kind tool.Kind, reason tool.Reason) {
	t.Helper()
	if terr == nil {
		t.Fatalf("no error, want %s/%s", kind, reason)
	}
	if terr.Kind != kind || terr.Detail.Reason != reason {
		t.Fatalf("error %s/%s (%s), want %s/%s", terr.Kind, terr.Detail.Reason, terr.Message, kind, reason)
	}
}

// errorJSON is the error as the caller sees it.
func errorJSON(t testing.TB, terr *tool.Error) string {
	t.Helper()
	b, err := json.Marshal(tool.ErrorEnvelope{Error: terr})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// waitFor polls cond for up to 5 s.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
