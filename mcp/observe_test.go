package mcp

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// refusalLog records what ObserveRefusals passes on.
type refusalLog struct {
	mu   sync.Mutex
	seen []string
}

func (r *refusalLog) observe(scope, reason string) {
	r.mu.Lock()
	r.seen = append(r.seen, scope+"/"+reason)
	r.mu.Unlock()
}

func (r *refusalLog) has(want string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.seen {
		if s == want {
			return true
		}
	}
	return false
}

// A client that closes its connection partway through the body is counted
// and logged as client_closed at once, not as request_timeout: nothing
// timed out.
func TestREQ_OBS_007_ClientClosedMidBodyIsItsOwnReason(t *testing.T) {
	logs := &logBuffer{}
	srv := newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, logs, nil)
	var refused refusalLog
	srv.ObserveRefusals(refused.observe)
	set := testHTTPSettings()
	set.RequestTimeout = 20 * time.Second
	tl := startListener(t, srv, set)
	c, err := net.Dial("tcp", tl.host)
	if err != nil {
		t.Fatal(err)
	}
	head := "POST /mcp HTTP/1.1\r\nHost: " + tl.host + "\r\nAccept: application/json, text/event-stream\r\n" +
		"Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"jsonrpc\":"
	if _, err := c.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // the handler is reading the body
	start := time.Now()
	c.Close()
	for !refused.has("http/client_closed") {
		if time.Since(start) > 5*time.Second {
			t.Fatalf("no client_closed refusal; seen %v; logs:\n%s", refused.seen, logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if refused.has("http/" + reasonRequestTimeout) {
		t.Errorf("the closed body was counted as a timeout too: %v", refused.seen)
	}
	for !strings.Contains(logs.String(), `"event":"http_refused","reason":"client_closed"`) {
		if time.Since(start) > 5*time.Second {
			t.Fatalf("client_closed not logged:\n%s", logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if strings.Contains(logs.String(), reasonRequestTimeout) {
		t.Errorf("logged as a timeout: %s", logs.String())
	}
}

// The observer sees the refusals of tools and of the listener, with the
// counters event's scope and reason.
func TestObserveRefusalsSeesToolAndListenerRefusals(t *testing.T) {
	set := testSettings()
	set.StatusPerMinute = 1
	srv := newTestServer(t, set, &fakeSearch{}, &fakeFetch{}, nil, nil)
	var refused refusalLog
	srv.ObserveRefusals(refused.observe)
	tl := startListener(t, srv, testHTTPSettings())
	c := h1Client(t)
	for i := 0; i < 2; i++ {
		if r := tl.post(c, "", statusBody, nil); r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
	}
	tl.do(c, req{method: "GET", path: "/elsewhere"})
	for _, want := range []string{"engine_status/rate_limited", "http/not_found"} {
		if !refused.has(want) {
			t.Errorf("not observed: %s (seen %v)", want, refused.seen)
		}
	}
	if n := tl.l.Sessions(); n != 0 {
		t.Errorf("%d sessions open with none started", n)
	}
}

// A rate-limited call is logged with its caller and a request id, like
// every other event of a call: whose limit it was is what the rate-limited
// count reads.
func TestREQ_MCP_010_RateLimitedCallIsLoggedWithItsCaller(t *testing.T) {
	logs := &logBuffer{}
	set := testSettings()
	set.StatusPerMinute = 1
	s := startSession(t, newTestServer(t, set, &fakeSearch{}, &fakeFetch{}, logs, newFakeClock()))
	for i := 1; i <= 2; i++ {
		s.send(call(i, "engine_status", `{}`))
		s.recvMsg()
	}
	found := false
	for _, l := range logs.lines(t) {
		if l["event"] == "refused" && l["reason"] == "rate_limited" {
			found = true
			if l["caller"] != callerLocal || l["request_id"] == "" || l["request_id"] == nil {
				t.Errorf("rate-limited refusal without its caller or id: %v", l)
			}
		}
	}
	if !found {
		t.Fatalf("no rate_limited refusal logged:\n%s", logs.String())
	}
}

// Over HTTP/2 a client that resets its stream partway through the body is
// client_closed too.
func TestREQ_OBS_007_ClientResetStreamMidBodyIsClientClosed(t *testing.T) {
	logs := &logBuffer{}
	srv := newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, logs, nil)
	var refused refusalLog
	srv.ObserveRefusals(refused.observe)
	set := testHTTPSettings()
	set.RequestTimeout = 20 * time.Second
	tl := startListener(t, srv, set)
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	r, _ := http.NewRequestWithContext(ctx, "POST", tl.base+"/mcp", pr)
	r.Header = mcpHeaders(statusBody)
	r.ContentLength = 200
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := h2cClient(t).Do(r); err == nil {
			resp.Body.Close()
		}
	}()
	pw.Write([]byte(`{"jsonrpc":`))
	time.Sleep(100 * time.Millisecond) // the handler is reading the body
	cancel()
	pw.CloseWithError(context.Canceled)
	<-done
	start := time.Now()
	for !refused.has("http/client_closed") {
		if time.Since(start) > 5*time.Second {
			t.Fatalf("no client_closed refusal; seen %v; logs:\n%s", refused.seen, logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if refused.has("http/" + reasonRequestTimeout) {
		t.Errorf("counted as a timeout too: %v", refused.seen)
	}
}
