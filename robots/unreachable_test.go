package robots

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// rawSite is a loopback HTTP/1.1 server written by hand, so that it can
// fail the way real servers do: it reads each request and then lets answer
// write what it likes (or nothing) before the connection is closed.
type rawSite struct {
	ln     net.Listener
	answer func(c *net.TCPConn)
	wg     sync.WaitGroup

	mu    sync.Mutex
	conns int
	open  map[*net.TCPConn]bool
	paths []string
}

func newRawSite(t *testing.T, answer func(c *net.TCPConn)) *rawSite {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawSite{ln: ln, answer: answer, open: make(map[*net.TCPConn]bool)}
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(func() {
		// No clock bounds a connection: the cleanup closes those still
		// open, which ends any handler still reading.
		ln.Close()
		s.mu.Lock()
		for c := range s.open {
			c.Close()
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return s
}

func (s *rawSite) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		tc := c.(*net.TCPConn)
		s.mu.Lock()
		s.conns++
		s.open[tc] = true
		s.mu.Unlock()
		s.wg.Add(1)
		go s.handle(tc)
	}
}

func (s *rawSite) handle(c *net.TCPConn) {
	defer s.wg.Done()
	defer func() {
		c.Close()
		s.mu.Lock()
		delete(s.open, c)
		s.mu.Unlock()
	}()
	req, err := http.ReadRequest(bufio.NewReader(c))
	if err != nil {
		return
	}
	s.mu.Lock()
	s.paths = append(s.paths, req.URL.Path)
	s.mu.Unlock()
	s.answer(c)
}

func (s *rawSite) url(path string) string { return "http://" + s.ln.Addr().String() + path }

func (s *rawSite) seen() (conns int, paths []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns, append([]string(nil), s.paths...)
}

// write returns an answer that writes raw and, with reset set, resets the
// connection (SO_LINGER 0) instead of closing it.
func write(raw string, reset bool) func(c *net.TCPConn) {
	return func(c *net.TCPConn) {
		io.WriteString(c, raw)
		if reset {
			c.SetLinger(0)
		}
	}
}

// permissive is a robots.txt whose first part, read alone, would allow the
// page: a Getter that returned a body cut short would let the page through.
const permissive = "User-agent: *\nAllow: /\n# and then the rules that matter:\nUser-agent: *\nDisallow: /\n"

// getRecorder is a Checker over Get with a plain HTTP client (no redirect
// followed, no connection reused), that keeps the errors Get returned.
type getRecorder struct {
	client *http.Client
	mu     sync.Mutex
	errs   []error
}

func newGetRecorder() *getRecorder {
	return &getRecorder{client: &http.Client{
		Transport:     &http.Transport{DisableKeepAlives: true, Proxy: nil},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

func (g *getRecorder) get(ctx context.Context, u *url.URL) (Response, error) {
	resp, err := Get(ctx, g.client.Do, u)
	g.mu.Lock()
	g.errs = append(g.errs, err)
	g.mu.Unlock()
	return resp, err
}

func (g *getRecorder) lastErr() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.errs) == 0 {
		return nil
	}
	return g.errs[len(g.errs)-1]
}

// fetchPage is the fetch pipeline in miniature: robots.txt first, the page
// only when it is allowed. It returns "denied" or the page's status.
func fetchPage(t *testing.T, c *Checker, client *http.Client, raw string) string {
	t.Helper()
	ok, err := c.Allowed(context.Background(), mustURL(t, raw))
	if err != nil {
		t.Fatalf("Allowed(%s): %v", raw, err)
	}
	if !ok {
		return "denied"
	}
	resp, err := client.Get(raw)
	if err != nil {
		return "failed"
	}
	resp.Body.Close()
	return fmt.Sprint(resp.StatusCode)
}

// TestREQ_CMP_005_ConnectionFailureAfterConnectIsUnreachable: a robots.txt
// read whose connection was established and then failed (closed or reset
// before a status line, a partial status line, a body shorter than its
// Content-Length or its chunks, a reset in the body) is unreachable: the
// page is denied and never requested, the error says the connection had
// been established, and the verdict is kept (the next URL of the origin
// costs no connection). A body cut short is never read as a shorter file.
func TestREQ_CMP_005_ConnectionFailureAfterConnectIsUnreachable(t *testing.T) {
	head := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
	half := permissive[:strings.Index(permissive, "#")]
	cases := []struct {
		name   string
		answer func(c *net.TCPConn)
	}{
		{"closed before a status line", write("", false)},
		{"reset before a status line", write("", true)},
		{"partial status line", write("HTTP/1.1 20", false)},
		{"headers cut short", write(head+"Content-Length: 40\r\n", false)},
		{"Content-Length larger than the body", write(head+fmt.Sprintf("Content-Length: %d\r\n\r\n", len(permissive))+half, false)},
		{"chunked body without its last chunk", write(head+"Transfer-Encoding: chunked\r\n\r\n"+fmt.Sprintf("%x\r\n%s\r\n", len(half), half), false)},
		{"chunk cut in the middle", write(head+"Transfer-Encoding: chunked\r\n\r\n"+fmt.Sprintf("%x\r\n%s", len(permissive), half), false)},
		{"reset in the body", write(head+fmt.Sprintf("Content-Length: %d\r\n\r\n", len(permissive))+half, true)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			site := newRawSite(t, tc.answer)
			g := newGetRecorder()
			c := NewChecker(Options{Get: g.get, Now: newClock().Now})

			if got := fetchPage(t, c, g.client, site.url("/page")); got != "denied" {
				t.Fatalf("the page: %s, want denied", got)
			}
			var re *ReadError
			if err := g.lastErr(); !errors.As(err, &re) || !re.Connected {
				t.Fatalf("Get: %v (%T), want a *ReadError after the connection", err, err)
			}
			if strings.Contains(re.Error(), "127.0.0.1") || strings.Contains(re.Error(), "/robots.txt") {
				t.Errorf("the error %q shows the URL", re)
			}
			if got := fetchPage(t, c, g.client, site.url("/other")); got != "denied" {
				t.Fatalf("another page: %s, want denied", got)
			}
			conns, paths := site.seen()
			if conns != 1 || len(paths) != 1 || paths[0] != "/robots.txt" {
				t.Errorf("the site saw %d connections and the requests %q, want one for /robots.txt", conns, paths)
			}
		})
	}
}

// TestREQ_CMP_005_UnreachableIsNotUnavailable: over the same loopback
// server, a complete 4xx answer is "unavailable" and allows everything, a
// 5xx disallows everything, and a complete 200 is read as its rules, so
// the failures above are told apart from answers by how the read ended,
// not by chance.
func TestREQ_CMP_005_UnreachableIsNotUnavailable(t *testing.T) {
	answer := func(status, body string) func(c *net.TCPConn) {
		return write(fmt.Sprintf("HTTP/1.1 %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", status, len(body), body), false)
	}
	cases := []struct {
		name              string
		answer            func(c *net.TCPConn)
		page, privatePage string
	}{
		{"404 allows everything", answer("404 Not Found", "no such file"), "200", "200"},
		{"410 allows everything", answer("410 Gone", ""), "200", "200"},
		{"503 disallows everything", answer("503 Service Unavailable", "later"), "denied", "denied"},
		{"complete 200 is read", answer("200 OK", "User-agent: *\nDisallow: /private\n"), "200", "denied"},
		{"chunked 200 is read", write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"+"f\r\nUser-agent: *\nD\r\n"+"12\r\nisallow: /private\n\r\n0\r\n\r\n", false), "200", "denied"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			page := write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok", false)
			var first sync.Once
			site := newRawSite(t, func(c *net.TCPConn) {
				robots := false
				first.Do(func() { robots = true })
				if robots {
					tc.answer(c)
				} else {
					page(c)
				}
			})
			g := newGetRecorder()
			c := NewChecker(Options{Get: g.get, Now: newClock().Now})
			if got := fetchPage(t, c, g.client, site.url("/page")); got != tc.page {
				t.Errorf("/page: %s, want %s", got, tc.page)
			}
			if err := g.lastErr(); err != nil {
				t.Errorf("Get: %v, want no error", err)
			}
			if got := fetchPage(t, c, g.client, site.url("/private")); got != tc.privatePage {
				t.Errorf("/private: %s, want %s", got, tc.privatePage)
			}
			_, paths := site.seen()
			if len(paths) == 0 || paths[0] != "/robots.txt" || strings.Count(strings.Join(paths, " "), "/robots.txt") != 1 {
				t.Errorf("requests %q: want one robots.txt read, first", paths)
			}
		})
	}
}

// TestREQ_CMP_005_NoConnectionIsToldApart: a robots.txt read that never got
// a connection (nothing listens) still disallows everything in the Checker,
// but its error says no connection was established, which is what lets
// the fetch pipeline report the site's network failure instead.
func TestREQ_CMP_005_NoConnectionIsToldApart(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: the connection is refused
	g := newGetRecorder()
	c := NewChecker(Options{Get: g.get, Now: newClock().Now})
	if allowed(t, c, "http://"+addr+"/page") {
		t.Fatal("a robots.txt without a connection allowed the page")
	}
	var re *ReadError
	if err := g.lastErr(); !errors.As(err, &re) || re.Connected {
		t.Fatalf("Get: %v, want a *ReadError before any connection", err)
	}
	var opErr *net.OpError
	if !errors.As(g.lastErr(), &opErr) {
		t.Errorf("the cause %v is not reachable with errors.As", re.Err)
	}
}

// TestREQ_CMP_005_GetReadsOnlyTheBound: Get reads the first MaxBytes of a
// 200 body and no more, so a body that fails after the bound is still the
// file as far as it counts (RFC 9309 §2.5).
func TestREQ_CMP_005_GetReadsOnlyTheBound(t *testing.T) {
	rules := "User-agent: *\nDisallow: /private\n"
	filler := strings.Repeat("#", MaxBytes-len(rules)-1) + "\n"
	body := rules + filler + "Disallow: /late\n"
	site := newRawSite(t, write(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n", len(body)+1000)+body, false))
	g := newGetRecorder()
	c := NewChecker(Options{Get: g.get, Now: newClock().Now})
	for path, want := range map[string]bool{"/page": true, "/private": false, "/late": true} {
		if got := allowed(t, c, site.url(path)); got != want {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
	if err := g.lastErr(); err != nil {
		t.Errorf("Get: %v, want no error", err)
	}
}

// TestREQ_CMP_005_GetEndedContextIsNotAReadError: when the caller's context
// ends while the server holds the answer, Get returns the context's error,
// so the Checker returns an error and keeps nothing; the next read with a
// live context gets the file.
func TestREQ_CMP_005_GetEndedContextIsNotAReadError(t *testing.T) {
	got := make(chan struct{})
	release := make(chan struct{})
	var n int
	var mu sync.Mutex
	site := newRawSite(t, func(c *net.TCPConn) {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first {
			close(got)
			<-release
			return
		}
		body := "User-agent: *\nDisallow: /page\n"
		write(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body), false)(c)
	})
	defer close(release)
	g := newGetRecorder()
	c := NewChecker(Options{Get: g.get, Now: newClock().Now})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Allowed(ctx, mustURL(t, site.url("/page")))
		done <- err
	}()
	<-got
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Allowed: %v, want the context's end", err)
	}
	var re *ReadError
	if errors.As(g.lastErr(), &re) {
		t.Errorf("Get: %v, want the context's error, not a *ReadError", re)
	}
	if allowed(t, c, site.url("/page")) {
		t.Error("/page allowed: the read with a live context did not get the file")
	}
}

// TestREQ_CMP_005_StreamResetOverHTTP2IsUnreachable: over https with
// HTTP/2 (the fetch client's usual protocol), a stream the server resets
// before its headers or in the body is a failure after the connection was
// established, and a complete answer on the same server is read.
func TestREQ_CMP_005_StreamResetOverHTTP2IsUnreachable(t *testing.T) {
	for _, tc := range []struct {
		name   string
		handle func(w http.ResponseWriter)
		want   bool // /page allowed
	}{
		{"reset before the headers", func(http.ResponseWriter) { panic(http.ErrAbortHandler) }, false},
		{"reset in the body", func(w http.ResponseWriter) {
			w.Header().Set("Content-Length", fmt.Sprint(len(permissive)))
			io.WriteString(w, permissive[:strings.Index(permissive, "#")])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}, false},
		{"complete answer", func(w http.ResponseWriter) { io.WriteString(w, "User-agent: *\nDisallow: /private\n") }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var paths []string
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				paths = append(paths, r.URL.Path)
				mu.Unlock()
				if r.ProtoMajor != 2 {
					t.Errorf("the request came over %s, want HTTP/2", r.Proto)
				}
				tc.handle(w)
			}))
			srv.EnableHTTP2 = true
			srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the aborted handlers
			srv.StartTLS()
			defer srv.Close()
			g := newGetRecorder()
			g.client = srv.Client()
			g.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			c := NewChecker(Options{Get: g.get, Now: newClock().Now})
			if got := allowed(t, c, srv.URL+"/page"); got != tc.want {
				t.Fatalf("/page: %v, want %v", got, tc.want)
			}
			var re *ReadError
			if err := g.lastErr(); tc.want && err != nil || !tc.want && (!errors.As(err, &re) || !re.Connected) {
				t.Fatalf("Get: %v, want %s", err, map[bool]string{true: "no error", false: "a *ReadError after the connection"}[tc.want])
			}
			if !tc.want && allowed(t, c, srv.URL+"/private") {
				t.Error("/private allowed")
			}
			mu.Lock()
			defer mu.Unlock()
			if len(paths) != 1 || paths[0] != "/robots.txt" {
				t.Errorf("requests %q, want one for /robots.txt", paths)
			}
		})
	}
}
