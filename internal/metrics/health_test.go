package metrics

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func listen(t *testing.T, m *Metrics) string {
	t.Helper()
	l, err := m.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go l.Serve()
	t.Cleanup(func() { l.Close() })
	return "http://" + l.Addr().String()
}

func get(t *testing.T, method, url string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestTheListenerServesItsThreePathsAndRefusesTheRest(t *testing.T) {
	m, _, _ := newTest(t)
	m.Listening()
	m.PluginsReady()
	base := listen(t, m)

	resp, body := get(t, "GET", base+PathMetrics)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != ContentType || !strings.Contains(body, "rypsok_build_info{") {
		t.Errorf("/metrics: %d %q %.80q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if resp, body = get(t, "GET", base+PathHealthz); resp.StatusCode != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", resp.StatusCode, body)
	}
	if resp, _ = get(t, "HEAD", base+PathReadyz); resp.StatusCode != 200 {
		t.Errorf("HEAD /readyz: %d", resp.StatusCode)
	}
	for _, p := range []string{"/", "/metrics/", "/mcp", "/readyz?x", "/health"} {
		if strings.Contains(p, "?") {
			continue // the query is not part of the path: /readyz?x is /readyz
		}
		if resp, _ = get(t, "GET", base+p); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, resp.StatusCode)
		}
	}
	for _, method := range []string{"POST", "PUT", "DELETE", "OPTIONS"} {
		resp, _ = get(t, method, base+PathMetrics)
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s /metrics: %d Allow %q, want 405 with Allow", method, resp.StatusCode, resp.Header.Get("Allow"))
		}
	}
}

// A request that declares a body is answered without its body being read:
// the client sends the headers only and still gets its answer.
func TestNoBodyIsRead(t *testing.T) {
	m, _, _ := newTest(t)
	base := listen(t, m)
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer while the body was withheld: %v", err)
	}
	if resp.StatusCode != http.StatusMethodNotAllowed || !resp.Close {
		t.Errorf("status %d, close %v: want 405 and the connection closed", resp.StatusCode, resp.Close)
	}
}

func TestREQ_SEC_018_TheMetricsListenerIsBounded(t *testing.T) {
	m, _, _ := newTest(t)
	base := listen(t, m)
	addr := strings.TrimPrefix(base, "http://")
	// LIM-H7: a header block above 16 KiB is refused.
	req, _ := http.NewRequest("GET", base+PathHealthz, nil)
	req.Header.Set("X-Big", strings.Repeat("a", maxHeaderBlock+1))
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("a 17 KiB header block: %d, want 431", resp.StatusCode)
		}
	}
	// Connections beyond maxConnections are closed unanswered (a fresh
	// listener, so that no connection above is still closing).
	addr = strings.TrimPrefix(listen(t, m), "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < maxConnections; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	// The listener has accepted them all once a request on the last one is
	// answered.
	last := conns[len(conns)-1]
	last.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(last, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	if _, err := http.ReadResponse(bufio.NewReader(last), nil); err != nil {
		t.Fatalf("connection %d was not served: %v", maxConnections, err)
	}
	extra, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	extra.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(extra, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	if resp, err := http.ReadResponse(bufio.NewReader(extra), nil); err == nil {
		t.Errorf("connection %d was answered %d, want closed", maxConnections+1, resp.StatusCode)
	}
}

func TestReadinessFollowsBindPluginsAndDrain(t *testing.T) {
	m, _, _ := newTest(t)
	base := listen(t, m)
	ready := func() (int, string) {
		resp, body := get(t, "GET", base+PathReadyz)
		return resp.StatusCode, body
	}
	if code, body := ready(); code != 503 || !strings.Contains(body, "plugins") {
		t.Errorf("before the handshake: %d %q", code, body)
	}
	m.PluginsReady()
	if code, body := ready(); code != 503 || !strings.Contains(body, "listener") {
		t.Errorf("before the bind: %d %q", code, body)
	}
	m.Listening()
	if code, _ := ready(); code != 200 {
		t.Errorf("bound and handshaken: %d", code)
	}
	// /healthz stays 200 throughout.
	if resp, _ := get(t, "GET", base+PathHealthz); resp.StatusCode != 200 {
		t.Errorf("/healthz %d", resp.StatusCode)
	}

	parent, stop := context.WithCancel(context.Background())
	ctx, cancel := m.Drain(parent)
	defer cancel()
	seen := make(chan bool)
	go func() {
		<-ctx.Done()
		seen <- m.Ready()
	}()
	if code, _ := ready(); code != 200 {
		t.Errorf("before the signal: %d", code)
	}
	stop()
	if <-seen {
		t.Error("the serving context ended while /readyz still said ready")
	}
	if code, body := ready(); code != 503 || !strings.Contains(body, "stopping") {
		t.Errorf("after the signal: %d %q", code, body)
	}
}

// A connection that sends nothing, or half a header block, is closed once
// the header time is over.
func TestREQ_SEC_018_AStalledConnectionIsClosed(t *testing.T) {
	m, _, _ := newTest(t)
	addr := strings.TrimPrefix(listen(t, m), "http://")
	for name, sent := range map[string]string{"nothing": "", "half a header block": "GET /metrics HTTP/1.1\r\nHost: x\r\n"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			io.WriteString(c, sent)
			start := time.Now()
			c.SetReadDeadline(start.Add(headerTimeout + 5*time.Second))
			b, _ := io.ReadAll(c) // until the server closes
			if took := time.Since(start); took > headerTimeout+4*time.Second {
				t.Errorf("the connection stayed open %v", took)
			}
			if strings.Contains(string(b), "200 OK") {
				t.Errorf("answered %q", b)
			}
		})
	}
}
