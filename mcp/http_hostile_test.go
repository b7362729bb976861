package mcp

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// Hostile clients (audit NET-1..NET-12), on real sockets on loopback,
// bounded in count and time.

// h2Raw is an HTTP/2 connection without TLS driven frame by frame.
type h2Raw struct {
	c  net.Conn
	fr *http2.Framer
}

func dialH2(t *testing.T, addr string) *h2Raw {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(deadlineIn(5 * time.Second))
	if _, err := io.WriteString(c, h2Preface); err != nil {
		t.Fatal(err)
	}
	fr := http2.NewFramer(c, c)
	fr.ReadMetaHeaders = hpack.NewDecoder(65536, nil)
	fr.MaxHeaderListSize = 1 << 20
	if err := fr.WriteSettings(); err != nil {
		t.Fatal(err)
	}
	return &h2Raw{c: c, fr: fr}
}

// headerBlock encodes a POST to /mcp with extra header fields.
func headerBlock(host string, extra ...hpack.HeaderField) []byte {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	enc.SetMaxDynamicTableSizeLimit(0)
	for _, f := range append([]hpack.HeaderField{
		{Name: ":method", Value: "POST"}, {Name: ":scheme", Value: "http"},
		{Name: ":authority", Value: host}, {Name: ":path", Value: "/mcp"},
		{Name: "accept", Value: "application/json, text/event-stream"},
		{Name: "content-type", Value: "application/json"},
	}, extra...) {
		enc.WriteField(f)
	}
	return buf.Bytes()
}

// open starts a stream with the block split in frames of at most 16 KiB;
// endStream sends no body.
func (h *h2Raw) open(t *testing.T, id uint32, block []byte, endStream bool) {
	t.Helper()
	const frag = 16 << 10
	first := block
	if len(first) > frag {
		first = block[:frag]
	}
	rest := block[len(first):]
	if err := h.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: first, EndHeaders: len(rest) == 0, EndStream: endStream}); err != nil {
		return // the server may already have closed
	}
	for len(rest) > 0 {
		n := min(len(rest), frag)
		if err := h.fr.WriteContinuation(id, n == len(rest), rest[:n]); err != nil {
			return
		}
		rest = rest[n:]
	}
}

// events reads frames until the connection ends or stop says so; it
// returns per stream the :status answered or "rst", and "goaway" under 0.
func (h *h2Raw) events(stop func(map[uint32]string) bool) map[uint32]string {
	got := map[uint32]string{}
	for !stop(got) {
		f, err := h.fr.ReadFrame()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				got[0] += "timeout"
			} else {
				got[0] += "closed"
			}
			return got
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				h.fr.WriteSettingsAck()
			}
		case *http2.MetaHeadersFrame:
			got[f.StreamID] = f.PseudoValue("status")
		case *http2.RSTStreamFrame:
			got[f.StreamID] = "rst"
		case *http2.GoAwayFrame:
			got[0] = "goaway"
		case *http2.PingFrame:
			if !f.IsAck() {
				h.fr.WritePing(true, f.Data)
			}
		}
	}
	return got
}

// LIM-H7 over HTTP/2, sent frame by frame: a 100 KiB header list is
// answered 431 or ends the connection, never served.
func TestREQ_SEC_018_H2HeaderListBound(t *testing.T) {
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), testHTTPSettings())
	h := dialH2(t, tl.host)
	var extra []hpack.HeaderField
	for i := 0; i < 100; i++ {
		extra = append(extra, hpack.HeaderField{Name: "x-pad-" + strings.Repeat("p", i%10) + string(rune('a'+i%26)), Value: strings.Repeat("v", 1000)})
	}
	h.open(t, 1, headerBlock(tl.host, extra...), true)
	got := h.events(func(m map[uint32]string) bool { return m[1] != "" || m[0] != "" })
	if got[1] != "431" && (got[0] == "" || strings.Contains(got[0], "timeout")) {
		t.Errorf("a 100 KiB header list: %v", got)
	}
	if got[1] == "200" {
		t.Error("served")
	}
}

// LIM-H4: at most max_streams live streams on one HTTP/2 connection; a
// stream beyond is reset (or the connection ended), the ones within are
// served.
func TestREQ_SEC_022_H2StreamBound(t *testing.T) {
	b := newBlockingFetch(false)
	set := testHTTPSettings()
	set.MaxStreams = 2
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, b.fake(), nil, nil), set)
	h := dialH2(t, tl.host)
	body := call(1, "web_fetch", `{"url":"https://example.org/"}`)
	hdr := mcpHeaders(body)
	var extra []hpack.HeaderField
	for _, k := range []string{"MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"} {
		extra = append(extra, hpack.HeaderField{Name: strings.ToLower(k), Value: hdr.Get(k)})
	}
	// Wait for the server's settings so that its stream limit is known.
	h.events(func(m map[uint32]string) bool { return true })
	for _, id := range []uint32{1, 3} {
		h.open(t, id, headerBlock(tl.host, extra...), false)
		h.fr.WriteData(id, true, []byte(body))
	}
	waitStarted(t, b)
	waitStarted(t, b)
	h.open(t, 5, headerBlock(tl.host, extra...), false)
	h.fr.WriteData(5, true, []byte(body))
	got := h.events(func(m map[uint32]string) bool { return m[5] != "" || m[0] != "" })
	if got[5] != "rst" && (got[0] == "" || strings.Contains(got[0], "timeout")) {
		t.Errorf("the third stream: %v", got)
	}
	select {
	case <-b.started:
		t.Error("the stream beyond the bound reached the service")
	default:
	}
}

// LIM-H1: connections beyond max_connections are closed at once,
// unanswered, and logged too_many_connections at most once per 10 s.
func TestREQ_SEC_018_ConnectionBound(t *testing.T) {
	logs := &logBuffer{}
	set := testHTTPSettings()
	set.MaxConnections = 2
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, logs, nil), set)
	var held []net.Conn
	for i := 0; i < 2; i++ {
		c, err := net.Dial("tcp", tl.host)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		held = append(held, c)
	}
	// The gate counts a connection when it accepts it; wait for both.
	waitFor(t, func() bool { return tl.l.gate.live.Load() == 2 })
	for i := 0; i < 5; i++ {
		c, err := net.Dial("tcp", tl.host)
		if err != nil {
			t.Fatal(err)
		}
		c.SetReadDeadline(deadlineIn(5 * time.Second))
		c.Write([]byte("POST /mcp HTTP/1.1\r\nHost: " + tl.host + "\r\n\r\n"))
		n, err := c.Read(make([]byte, 1))
		var ne net.Error
		if n != 0 || err == nil || errors.As(err, &ne) && ne.Timeout() {
			t.Errorf("connection %d beyond the bound: %d bytes, %v", i, n, err)
		}
		c.Close()
	}
	if n := strings.Count(logs.String(), `"reason":"too_many_connections"`); n != 1 {
		t.Errorf("%d too_many_connections lines, want 1 within 10 s", n)
	}
	// The held ones still work.
	held[0].Write([]byte(rawPost(tl.host, statusBody)))
	held[0].SetReadDeadline(deadlineIn(5 * time.Second))
	buf := make([]byte, 12)
	if _, err := io.ReadFull(held[0], buf); err != nil || string(buf) != "HTTP/1.1 200" {
		t.Errorf("a connection within the bound: %q %v", buf, err)
	}
}

func rawPost(host, body string) string {
	h := mcpHeaders(body)
	var b strings.Builder
	b.WriteString("POST /mcp HTTP/1.1\r\nHost: " + host + "\r\n")
	for k := range h {
		b.WriteString(k + ": " + h.Get(k) + "\r\n")
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
	return b.String()
}

// LIM-H3: a connection that shows no protocol in time is closed and
// counted as idle_connection, with no log line: no byte, a lone ambiguous
// byte, part of the HTTP/2 preface.
func TestREQ_SEC_018_IdleConnectionsAreClosed(t *testing.T) {
	logs := &logBuffer{}
	set := testHTTPSettings()
	set.IdleTimeout = 200 * time.Millisecond
	srv := newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, logs, nil)
	tl := startListener(t, srv, set)
	for _, first := range []string{"", "P", "PRI * HTTP/2.0\r\n"} {
		c, err := net.Dial("tcp", tl.host)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(first))
		c.SetReadDeadline(deadlineIn(10 * time.Second))
		n, err := c.Read(make([]byte, 64))
		var ne net.Error
		if n != 0 || err == nil || errors.As(err, &ne) && ne.Timeout() {
			t.Errorf("%q: %d bytes, %v; want closed", first, n, err)
		}
		c.Close()
	}
	srv.refused.mu.Lock()
	idle := srv.refused.n[httpCounters][reasonIdleConnection]
	srv.refused.mu.Unlock()
	if idle != 3 {
		t.Errorf("idle_connection counted %d times", idle)
	}
	if strings.Contains(logs.String(), "idle_connection") {
		t.Error("an idle connection was logged")
	}
}

// Slow headers are bounded by the header read (LIM-H5).
func TestREQ_SEC_022_SlowHeadersAreBounded(t *testing.T) {
	set := testHTTPSettings()
	set.RequestTimeout = 300 * time.Millisecond
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), set)
	c, err := net.Dial("tcp", tl.host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("POST /mcp HTTP/1.1\r\nHost: "))
	c.SetReadDeadline(deadlineIn(10 * time.Second))
	_, err = io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Error("a connection with unfinished headers was held for 10 s")
	}
}

// Thousands of connect/close cycles leak no descriptor.
func TestREQ_SEC_018_ConnectCloseCyclesLeakNothing(t *testing.T) {
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), testHTTPSettings())
	before := openFDs(t)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 250; i++ {
				c, err := net.Dial("tcp", tl.host)
				if err != nil {
					continue
				}
				if i%2 == 0 {
					c.Write([]byte(rawPost(tl.host, statusBody)))
				}
				c.Close()
			}
		}(w)
	}
	wg.Wait()
	waitFor(t, func() bool { return tl.l.gate.live.Load() == 0 })
	waitFor(t, func() bool { return openFDs(t) <= before+4 })
}

func openFDs(t *testing.T) int {
	t.Helper()
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(es)
}

// Log hygiene: over a hostile run, no log line carries a token, a Host or
// Origin value, a header value, the path or a peer address; the first
// line is listening with the address and the number of callers; every
// refusal the table logs has its reason.
func TestREQ_SEC_018_LogHygiene(t *testing.T) {
	logs := &logBuffer{}
	set := callersSettings()
	set.AllowedHosts = []string{"rypsok-host-marker.test"}
	set.MaxRequestBytes = 4096
	set.MaxConnections = 4
	set.MaxSessions = 1
	set.RequestTimeout = 300 * time.Millisecond
	b := newBlockingFetch(false)
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, b.fake(), logs, nil), set)
	c := h1Client(t)
	marker := func(h http.Header) {
		h.Set("X-Marker", "zebra-header-marker")
		h.Set("Origin", "https://origin-marker.example")
	}
	good := func(h http.Header) { h.Set("Host", "rypsok-host-marker.test") }
	tl.post(c, "wrong-token-marker-0123456789abcdefgh", statusBody, marker)                              // 401
	tl.post(c, tokenA, statusBody, func(h http.Header) { marker(h); h.Set("Host", "evil-host-marker") }) // 403 Host
	tl.post(c, tokenA, statusBody, func(h http.Header) { good(h); marker(h) })                           // 403 Origin
	tl.do(c, req{method: "GET", path: "/path-marker", header: http.Header{"Authorization": {"Bearer " + tokenA}}})
	tl.post(c, tokenA, statusBody+strings.Repeat(" ", 5000), good)                           // 413
	tl.post(c, tokenA, call(9, "web_fetch", `{"url":"https://url-marker.example/"}`), good)  // 408
	tl.post(c, tokenA, initializeBody(1, "2025-11-25"), good)                                // session
	tl.post(c, tokenA, initializeBody(2, "2025-11-25"), good)                                // 503
	tl.post(c, tokenA, `{"jsonrpc":"2.0","id":null,"method":"zebra-method-marker"}`, good)   // 415
	tl.post(c, tokenA, statusBody, func(h http.Header) { good(h); h.Set("Mcp-Name", "nm") }) // 400
	var conns []net.Conn
	for i := 0; i < 8; i++ { // beyond LIM-H1
		if cn, err := net.Dial("tcp", tl.host); err == nil {
			conns = append(conns, cn)
		}
	}
	waitFor(t, func() bool { return strings.Contains(logs.String(), "too_many_connections") })
	for _, cn := range conns {
		cn.Close()
	}
	tl.stop()

	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if !strings.Contains(lines[0], `"event":"listening","address":"`+tl.host+`","callers":2`) {
		t.Errorf("first line: %s", lines[0])
	}
	for _, l := range lines[1:] {
		for _, bad := range []string{tokenA, "wrong-token-marker", "rypsok-host-marker", "evil-host-marker", "origin-marker",
			"zebra-header-marker", "path-marker", "/mcp", "127.0.0.1", "url-marker", "zebra-method-marker", "Bearer"} {
			if strings.Contains(l, bad) {
				t.Errorf("a log line carries %q: %s", bad, l)
			}
		}
	}
	for _, reason := range []string{reasonUnauthorized, reasonForbidden, reasonBodyTooLarge, reasonRequestTimeout, reasonSessionLimit, reasonTooManyConnections} {
		if !strings.Contains(logs.String(), `"event":"http_refused","reason":"`+reason+`"`) {
			t.Errorf("no http_refused line for %s", reason)
		}
	}
	// The counters event at the end has the listener's refusals under http.
	if !strings.Contains(logs.String(), `"refusals":{"http":{`) {
		t.Errorf("no http counters: %s", lines[len(lines)-1])
	}
}

// failingListener fails its first accepts, then reports it is closed.
type failingListener struct {
	mu    sync.Mutex
	fails int
	calls int
}

func (f *failingListener) Accept() (net.Conn, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.calls <= f.fails {
		return nil, errors.New("accept: too many open files")
	}
	return nil, net.ErrClosed
}
func (f *failingListener) Close() error   { return nil }
func (f *failingListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

// A failing accept is retried after a pause and logged accept_failed at
// most once per 10 s (of the injected clock).
func TestREQ_SEC_018_AcceptFailuresAreThrottled(t *testing.T) {
	logs := &logBuffer{}
	clock := newFakeClock()
	srv := newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, logs, clock)
	fl := &failingListener{fails: 3}
	g := newGateListener(fl, srv, 4, time.Second)
	defer g.Close()
	g.wait()
	if fl.calls != 4 {
		t.Errorf("%d accepts, want 3 failed and 1 closed", fl.calls)
	}
	if n := strings.Count(logs.String(), `"event":"accept_failed"`); n != 1 {
		t.Errorf("%d accept_failed lines, want 1", n)
	}
	// The throttle itself: once per 10 s of the injected clock.
	th := throttle{now: clock.now, every: logEvery}
	if !th.allow() || th.allow() {
		t.Error("the first event is not let through alone")
	}
	clock.advance(logEvery - time.Millisecond)
	if th.allow() {
		t.Error("let through before 10 s")
	}
	clock.advance(time.Millisecond)
	if !th.allow() {
		t.Error("not let through after 10 s")
	}
}

// Shutdown does not wait for LIM-H3 on a connection that has shown no
// protocol yet: Serve returns and the connection is closed.
func TestREQ_OPS_002_ShutdownClosesSilentConnections(t *testing.T) {
	set := testHTTPSettings()
	set.IdleTimeout = 10 * time.Minute
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), set)
	c, err := net.Dial("tcp", tl.host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("P"))
	waitFor(t, func() bool { return tl.l.gate.live.Load() == 1 })
	if err := tl.stop(); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(deadlineIn(5 * time.Second))
	var ne net.Error
	if _, err := c.Read(make([]byte, 1)); err == nil || errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("the silent connection is still open: %v", err)
	}
}
