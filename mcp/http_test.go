package mcp

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"rypsok/tool"
)

// The listener's contract, status by status (book §2, REQ-SEC-018,
// REQ-MCP-003).

func callersSettings() HTTPSettings {
	set := testHTTPSettings()
	set.Callers = []HTTPCaller{{ID: "alpha", Token: []byte(tokenA)}, {ID: "beta", Token: []byte(tokenB)}}
	return set
}

var statusBody = call(1, "engine_status", `{}`)

// 200: an unknown tool is the JSON-RPC error -32602 in a 200, and a
// served call is a result in a 200.
func TestREQ_MCP_003_Status200(t *testing.T) {
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), testHTTPSettings())
	c := h1Client(t)
	r := tl.post(c, "", call(1, "web_crawl", `{}`), nil)
	if r.status != 200 || r.errCode(t) != -32602 {
		t.Errorf("unknown tool: %d %s", r.status, r.body)
	}
	r = tl.post(c, "", statusBody, nil)
	if r.status != 200 || r.errCode(t) != 0 {
		t.Errorf("engine_status: %d %s", r.status, r.body)
	}
	// 2026-07-28 keeps no session: no id minted.
	if r.header.Get("Mcp-Session-Id") != "" {
		t.Error("a stateless answer carries a session id")
	}
}

// 400: a protocol header missing or disagreeing with the body (-32020),
// MCP-Protocol-Version disagreeing with _meta, an unsupported version
// (-32022), and a handshake-revision POST without a session.
func TestREQ_MCP_003_Status400(t *testing.T) {
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), testHTTPSettings())
	c := h1Client(t)
	cases := []struct {
		name string
		body string
		mod  func(http.Header)
		code float64
	}{
		{"no MCP-Protocol-Version", statusBody, func(h http.Header) { h.Del("MCP-Protocol-Version") }, codeHeaderMismatch},
		{"MCP-Protocol-Version differs from _meta", statusBody, func(h http.Header) { h.Set("MCP-Protocol-Version", "2025-11-25") }, codeHeaderMismatch},
		{"no Mcp-Method", statusBody, func(h http.Header) { h.Del("Mcp-Method") }, codeHeaderMismatch},
		{"Mcp-Method differs", statusBody, func(h http.Header) { h.Set("Mcp-Method", "tools/list") }, codeHeaderMismatch},
		{"no Mcp-Name", statusBody, func(h http.Header) { h.Del("Mcp-Name") }, codeHeaderMismatch},
		{"Mcp-Name differs", statusBody, func(h http.Header) { h.Set("Mcp-Name", "web_search") }, codeHeaderMismatch},
		{"Mcp-Name in base64 differs", statusBody, func(h http.Header) { h.Set("Mcp-Name", "=?base64?d2ViX3NlYXJjaA==?=") }, codeHeaderMismatch},
		{"header says 2026-07-28, body has no _meta", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, func(h http.Header) {
			h.Set("MCP-Protocol-Version", "2026-07-28")
		}, codeInvalidParams},
		{"header says 2026-07-28, _meta lacks the version", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}`, func(h http.Header) {
			h.Set("MCP-Protocol-Version", "2026-07-28")
		}, codeInvalidParams},
		{"missing capabilities", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, nil, codeInvalidParams},
		{"unsupported version", strings.Replace(statusBody, `"2026-07-28"`, `"1900-01-01"`, 1), func(h http.Header) {
			h.Set("MCP-Protocol-Version", "1900-01-01")
		}, codeUnsupportedVersion},
		{"handshake revision without a session", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil, codeInvalidRequest},
		{"ping without a session", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, func(h http.Header) { h.Set("MCP-Protocol-Version", "2025-11-25") }, codeInvalidRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tl.post(c, "", tc.body, tc.mod)
			if r.status != 400 || r.errCode(t) != tc.code {
				t.Errorf("%d %s", r.status, r.body)
			}
			if r.rpc(t)["id"] != 1.0 {
				t.Errorf("the id is not echoed: %s", r.body)
			}
		})
	}
	// A name in the base64 form that matches is accepted.
	r := tl.post(c, "", statusBody, func(h http.Header) { h.Set("Mcp-Name", "=?base64?ZW5naW5lX3N0YXR1cw==?=") })
	if r.status != 200 || r.errCode(t) != 0 {
		t.Errorf("base64 Mcp-Name: %d %s", r.status, r.body)
	}
}

// 401: no token, a wrong token, a token differing by one byte, another
// scheme; the scheme is case-insensitive; 401 comes before the Host check.
func TestREQ_SEC_018_Status401(t *testing.T) {
	logs := &logBuffer{}
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, logs, nil), callersSettings())
	c := h1Client(t)
	oneByte := []byte(tokenA)
	oneByte[len(oneByte)-1] ^= 1
	cases := []struct {
		name string
		mod  func(http.Header)
	}{
		{"no token", func(h http.Header) { h.Del("Authorization") }},
		{"wrong token", func(h http.Header) { h.Set("Authorization", "Bearer "+strings.Repeat("x", 40)) }},
		{"one byte differs", func(h http.Header) { h.Set("Authorization", "Bearer "+string(oneByte)) }},
		{"a prefix of the token", func(h http.Header) { h.Set("Authorization", "Bearer "+tokenA[:len(tokenA)-1]) }},
		{"another scheme", func(h http.Header) { h.Set("Authorization", "Basic "+tokenA) }},
		{"no scheme", func(h http.Header) { h.Set("Authorization", tokenA) }},
		{"two Authorization headers", func(h http.Header) { h.Add("Authorization", "Bearer "+tokenB) }},
		{"before the Host check", func(h http.Header) { h.Del("Authorization"); h.Set("Host", "evil.example") }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tl.post(c, tokenA, statusBody, tc.mod)
			if r.status != 401 {
				t.Errorf("%d %s", r.status, r.body)
			}
			if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("WWW-Authenticate %q", r.header.Get("WWW-Authenticate"))
			}
		})
	}
	for _, scheme := range []string{"Bearer", "bearer", "BEARER"} {
		r := tl.post(c, "", statusBody, func(h http.Header) { h.Set("Authorization", scheme+" "+tokenB) })
		if r.status != 200 {
			t.Errorf("scheme %q: %d", scheme, r.status)
		}
	}
	if n := strings.Count(logs.String(), `"reason":"unauthorized"`); n != len(cases) {
		t.Errorf("%d unauthorized lines, want %d", n, len(cases))
	}
}

// 403: a Host not allowed (the loopback names with the bound port always
// are), an Origin not allowed.
func TestREQ_SEC_018_Status403(t *testing.T) {
	set := testHTTPSettings()
	set.AllowedHosts = []string{"rypsok.example"}
	set.AllowedOrigins = []string{"https://app.example", "http://localhost:*"}
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), set)
	c := h1Client(t)
	port := tl.host[strings.LastIndex(tl.host, ":")+1:]
	for _, tc := range []struct {
		host, origin string
		want         int
	}{
		{tl.host, "", 200},
		{"localhost:" + port, "", 200},
		{"LOCALHOST:" + port, "", 200},
		{"rypsok.example", "", 200},
		{"evil.example", "", 403},
		{"localhost:1", "", 403},
		{"rypsok.example.evil", "", 403},
		{tl.host, "https://app.example", 200},
		{tl.host, "http://localhost:3000", 200},
		{tl.host, "https://evil.example", 403},
		{tl.host, "null", 403},
		{tl.host, "http://localhost:3000.evil", 403},
		{tl.host, "http://" + tl.host, 200}, // the listener's own loopback origin
		{"localhost:" + port, "http://localhost:" + port, 200},
		{tl.host, "http://127.0.0.1:1", 403},
		{tl.host, "https://" + tl.host, 403},
	} {
		r := tl.post(c, "", statusBody, func(h http.Header) {
			h.Set("Host", tc.host)
			if tc.origin != "" {
				h.Set("Origin", tc.origin)
			}
		})
		if r.status != tc.want {
			t.Errorf("Host %q Origin %q: %d, want %d", tc.host, tc.origin, r.status, tc.want)
		}
	}
}

// 404: another path, the old HTTP+SSE GET /sse, a terminated session;
// -32601 for a method not served (2026-07-28 asks for 404 there).
func TestREQ_MCP_003_Status404(t *testing.T) {
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), testHTTPSettings())
	c := h1Client(t)
	for _, r := range []req{
		{method: "GET", path: "/sse"},
		{method: "POST", path: "/messages", body: statusBody, header: mcpHeaders(statusBody)},
		{method: "POST", path: "/mcp/", body: statusBody, header: mcpHeaders(statusBody)},
		{method: "GET", path: "/"},
	} {
		if got := tl.do(c, r); got.status != 404 {
			t.Errorf("%s %s: %d", r.method, r.path, got.status)
		}
	}
	r := tl.post(c, "", modern(7, "completion/complete", ""), nil)
	if r.status != 404 || r.errCode(t) != codeMethodNotFound {
		t.Errorf("unknown method: %d %s", r.status, r.body)
	}
	// GET on /mcp opens no stream: 405.
	if r := tl.do(c, req{method: "GET", path: "/mcp", header: http.Header{"Accept": {"text/event-stream"}}}); r.status != 405 {
		t.Errorf("GET /mcp: %d", r.status)
	}
}

// 406: Accept lacking either media type, or one at q=0; the types match
// without regard to case.
func TestREQ_MCP_003_Status406(t *testing.T) {
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), testHTTPSettings())
	c := h1Client(t)
	for _, tc := range []struct {
		accept string
		want   int
	}{
		{"application/json", 406},
		{"text/event-stream", 406},
		{"", 406},
		{"*/*", 406},
		{"application/json, text/event-stream;q=0", 406},
		{"application/json;q=0.0, text/event-stream", 406},
		{"APPLICATION/JSON, Text/Event-Stream", 200},
		{"application/json;q=0.5, text/event-stream;q=0.1", 200},
	} {
		r := tl.post(c, "", statusBody, func(h http.Header) {
			h.Del("Accept")
			if tc.accept != "" {
				h.Set("Accept", tc.accept)
			}
		})
		if r.status != tc.want {
			t.Errorf("Accept %q: %d, want %d", tc.accept, r.status, tc.want)
		}
	}
	// Two Accept lines count together.
	r := tl.post(c, "", statusBody, func(h http.Header) {
		h.Set("Accept", "application/json")
		h.Add("Accept", "text/event-stream")
	})
	if r.status != 200 {
		t.Errorf("two Accept lines: %d", r.status)
	}
}

// 408: a request older than LIM-H5, here a tool still running; the call
// is cancelled.
func TestREQ_SEC_022_Status408ToolStillRunning(t *testing.T) {
	b := newBlockingFetch(false)
	logs := &logBuffer{}
	set := testHTTPSettings()
	set.RequestTimeout = 300 * time.Millisecond
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, b.fake(), logs, nil), set)
	r := tl.post(h1Client(t), "", call(1, "web_fetch", `{"url":"https://example.org/"}`), nil)
	if r.status != 408 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	select {
	case <-b.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the call was not cancelled")
	}
	if !strings.Contains(logs.String(), `"event":"http_refused","reason":"request_timeout"`) {
		t.Errorf("not logged: %s", logs.String())
	}
}

// 408: a body that does not arrive within LIM-H5.
func TestREQ_SEC_022_Status408SlowBody(t *testing.T) {
	set := testHTTPSettings()
	set.RequestTimeout = 300 * time.Millisecond
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), set)
	head := "POST /mcp HTTP/1.1\r\nHost: " + tl.host + "\r\nAccept: application/json, text/event-stream\r\n" +
		"Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"jsonrpc\":"
	if got := statusOf(rawExchange(t, tl.host, []byte(head))); got != 408 {
		t.Errorf("slow body: %d", got)
	}
}

// 413: a body over LIM-H2, declared or streamed; a 10 MiB body is refused
// without being read whole.
func TestREQ_SEC_018_Status413(t *testing.T) {
	logs := &logBuffer{}
	set := testHTTPSettings()
	set.MaxRequestBytes = 4096
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, logs, nil), set)
	c := h1Client(t)
	pad := strings.Repeat(" ", 4096)
	big := statusBody[:len(statusBody)-1] + pad + "}"
	if r := tl.post(c, "", big, nil); r.status != 413 {
		t.Errorf("declared: %d", r.status)
	}
	// Streamed: chunked, no length declared.
	hr, _ := http.NewRequest("POST", tl.base+"/mcp", struct{ *strings.Reader }{strings.NewReader(big)})
	hr.Header = mcpHeaders(statusBody)
	hr.ContentLength = -1
	res, err := c.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 413 {
		t.Errorf("streamed: %d", res.StatusCode)
	}
	// At the limit exactly: served.
	exact := statusBody[:len(statusBody)-1] + strings.Repeat(" ", 4096-len(statusBody)) + "}"
	if r := tl.post(c, "", exact, nil); r.status != 200 {
		t.Errorf("a body of the limit: %d", r.status)
	}
	// 10 MiB declared: refused on the headers.
	head := "POST /mcp HTTP/1.1\r\nHost: " + tl.host + "\r\nAccept: application/json, text/event-stream\r\n" +
		"Content-Type: application/json\r\nContent-Length: 10485760\r\n\r\n"
	if got := statusOf(rawExchange(t, tl.host, []byte(head+"{"))); got != 413 {
		t.Errorf("10 MiB declared: %d", got)
	}
	if n := strings.Count(logs.String(), `"reason":"body_too_large"`); n != 2 {
		t.Errorf("%d body_too_large lines, want 2 (the declared ones)", n)
	}
}

// 415: not application/json; not a JSON-RPC message (an id of null, a
// batch, no JSON).
func TestREQ_MCP_003_Status415(t *testing.T) {
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), testHTTPSettings())
	c := h1Client(t)
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "", "application/jsonx"} {
		r := tl.post(c, "", statusBody, func(h http.Header) { h.Set("Content-Type", ct) })
		if r.status != 415 {
			t.Errorf("Content-Type %q: %d", ct, r.status)
		}
	}
	if r := tl.post(c, "", statusBody, func(h http.Header) { h.Set("Content-Type", "Application/JSON; charset=utf-8") }); r.status != 200 {
		t.Errorf("application/json with a charset: %d", r.status)
	}
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"engine_status",` + modernMeta + `}}`,
		`[` + statusBody + `]`,
		`{"jsonrpc":"2.0","id":1,`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
	} {
		if r := tl.post(c, "", body, nil); r.status != 415 {
			t.Errorf("%.50s: %d", body, r.status)
		}
	}
}

// 431: a header block over LIM-H7 on HTTP/1 and on HTTP/2; one under it
// is served. Over HTTP/2 the Go client may refuse a list above the limit
// the server advertised before sending it, and one header value above the
// bound closes the connection (the book: "over HTTP/2 the connection is
// closed"); TestREQ_SEC_018_H2HeaderListBound sends it frame by frame.
func TestREQ_SEC_018_Status431(t *testing.T) {
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), testHTTPSettings())
	many := func(n int) func(http.Header) {
		return func(h http.Header) {
			for i := 0; i < n; i++ {
				h.Set(fmt.Sprintf("X-Pad-%d", i), strings.Repeat("a", 1000))
			}
		}
	}
	one := func(n int) func(http.Header) {
		return func(h http.Header) { h.Set("X-Pad", strings.Repeat("a", n)) }
	}
	for name, c := range map[string]*http.Client{"http1": h1Client(t), "h2c": h2cClient(t)} {
		for _, tc := range []struct {
			what     string
			mod      func(http.Header)
			want     int
			mayClose bool // over HTTP/2
		}{
			{"100 KiB in one header", one(100 << 10), 431, true},
			{"17 KiB in one header", one(17 << 10), 431, true},
			{"20 headers of 1000 bytes", many(20), 431, true},
			{"100 headers of 1000 bytes", many(100), 431, true}, // the Go client refuses it itself; the raw test sends it
			{"8 KiB in one header", one(8 << 10), 200, false},
			{"10 headers of 1000 bytes", many(10), 200, false},
		} {
			h := mcpHeaders(statusBody)
			tc.mod(h)
			hr, _ := http.NewRequest("POST", tl.base+"/mcp", strings.NewReader(statusBody))
			hr.Header = h
			res, err := c.Do(hr)
			if err != nil {
				if name == "h2c" && tc.mayClose {
					continue // the connection was closed
				}
				t.Errorf("%s, %s: %v", name, tc.what, err)
				continue
			}
			res.Body.Close()
			if res.StatusCode != tc.want {
				t.Errorf("%s, %s: %d, want %d", name, tc.what, res.StatusCode, tc.want)
			}
		}
	}
}

// 503 with Retry-After: 30 for a handshake while LIM-H6 sessions are
// open; the stateless revision is unaffected; DELETE ends a session and a
// terminated id gets 404.
func TestREQ_SEC_024_SessionBoundAndDelete(t *testing.T) {
	logs := &logBuffer{}
	set := testHTTPSettings()
	set.MaxSessions = 2
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, logs, nil), set)
	c := h1Client(t)
	var ids []string
	for i := 0; i < 2; i++ {
		r := tl.post(c, "", initializeBody(i, "2025-11-25"), nil)
		if r.status != 200 || r.header.Get("Mcp-Session-Id") == "" {
			t.Fatalf("initialize %d: %d %v", i, r.status, r.header)
		}
		ids = append(ids, r.header.Get("Mcp-Session-Id"))
	}
	if ids[0] == ids[1] {
		t.Fatal("two sessions with one id")
	}
	r := tl.post(c, "", initializeBody(3, "2025-11-25"), nil)
	if r.status != 503 || r.header.Get("Retry-After") != "30" || r.header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("beyond the bound: %d %v", r.status, r.header)
	}
	if !strings.Contains(logs.String(), `"reason":"session_limit"`) {
		t.Error("session_limit not logged")
	}
	if r := tl.post(c, "", statusBody, nil); r.status != 200 {
		t.Errorf("stateless at the bound: %d", r.status)
	}
	// A session works with its id.
	withID := func(id string) func(http.Header) {
		return func(h http.Header) { h.Set("Mcp-Session-Id", id); h.Set("MCP-Protocol-Version", "2025-11-25") }
	}
	if r := tl.post(c, "", `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, withID(ids[0])); r.status != 200 || r.errCode(t) != 0 {
		t.Errorf("tools/list in a session: %d %s", r.status, r.body)
	}
	// DELETE ends it; the id is then unknown.
	del := req{method: "DELETE", path: "/mcp", header: http.Header{"Mcp-Session-Id": {ids[0]}}}
	if r := tl.do(c, del); r.status != 204 {
		t.Errorf("DELETE: %d", r.status)
	}
	if r := tl.post(c, "", `{"jsonrpc":"2.0","id":6,"method":"tools/list"}`, withID(ids[0])); r.status != 404 {
		t.Errorf("a terminated session: %d", r.status)
	}
	if r := tl.do(c, del); r.status != 404 {
		t.Errorf("DELETE again: %d", r.status)
	}
	if r := tl.post(c, "", initializeBody(7, "2025-11-25"), nil); r.status != 200 {
		t.Errorf("initialize after DELETE: %d", r.status)
	}
	// A wrong MCP-Protocol-Version in a session is 400.
	r = tl.post(c, "", `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`, func(h http.Header) {
		h.Set("Mcp-Session-Id", ids[1])
		h.Set("MCP-Protocol-Version", "2025-06-18")
	})
	if r.status != 400 {
		t.Errorf("a session with another revision in the header: %d", r.status)
	}
}

// A session belongs to the caller that opened it; another caller's token
// does not reach it.
func TestREQ_SEC_019_SessionsArePerCaller(t *testing.T) {
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), callersSettings())
	c := h1Client(t)
	r := tl.post(c, tokenA, initializeBody(1, "2025-11-25"), nil)
	id := r.header.Get("Mcp-Session-Id")
	if r.status != 200 || id == "" {
		t.Fatalf("%d", r.status)
	}
	withID := func(h http.Header) { h.Set("Mcp-Session-Id", id) }
	if r := tl.post(c, tokenB, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, withID); r.status != 404 {
		t.Errorf("another caller's session: %d", r.status)
	}
	if r := tl.post(c, tokenA, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, withID); r.status != 200 {
		t.Errorf("own session: %d", r.status)
	}
}

// legacy_revisions = false: initialize is -32022 and discovery lists
// 2026-07-28 alone.
func TestREQ_MCP_006_LegacyRevisionsOff(t *testing.T) {
	set := testHTTPSettings()
	set.NoLegacyRevisions = true
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), set)
	c := h1Client(t)
	r := tl.post(c, "", initializeBody(1, "2025-11-25"), nil)
	if r.status != 400 || r.errCode(t) != codeUnsupportedVersion || r.header.Get("Mcp-Session-Id") != "" {
		t.Errorf("initialize: %d %s", r.status, r.body)
	}
	r = tl.post(c, "", modern(2, "server/discover", ""), nil)
	if r.status != 200 || !strings.Contains(r.body, `"supportedVersions":["2026-07-28"]`) {
		t.Errorf("discover: %s", r.body)
	}
}

// Per-caller limits (REQ-SEC-019): one caller exhausting its limit does
// not slow another; every call event carries the caller id.
func TestREQ_SEC_019_RateLimitsArePerCaller(t *testing.T) {
	logs := &logBuffer{}
	clock := newFakeClock()
	s := testSettings()
	s.StatusPerMinute = 2
	tl := startListener(t, newTestServer(t, s, &fakeSearch{}, &fakeFetch{}, logs, clock), callersSettings())
	c := h1Client(t)
	refused := func(r resp) bool {
		_, isErr := toolPayload(t, r.rpc(t))
		return isErr
	}
	for i := 0; i < 2; i++ {
		if refused(tl.post(c, tokenA, statusBody, nil)) {
			t.Fatalf("alpha's call %d refused", i)
		}
	}
	if !refused(tl.post(c, tokenA, statusBody, nil)) {
		t.Fatal("alpha's third call admitted")
	}
	for i := 0; i < 2; i++ {
		if refused(tl.post(c, tokenB, statusBody, nil)) {
			t.Errorf("beta's call %d refused after alpha's limit", i)
		}
	}
	calls := 0
	for _, l := range logs.lines(t) {
		if l["event"] == "call" {
			calls++
			// A call the adapter refuses before the service sees it (a rate
			// limit) has no id and no caller yet (book §5, logging).
			if l["reason"] != "rate_limited" && l["caller"] != "alpha" && l["caller"] != "beta" {
				t.Errorf("a call event without its caller: %v", l)
			}
		}
	}
	if calls != 5 {
		t.Errorf("%d call events", calls)
	}
}

// On stdio and on a listener without callers the caller is local.
func TestREQ_SEC_019_LocalCaller(t *testing.T) {
	logs := &logBuffer{}
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, logs, nil), testHTTPSettings())
	tl.post(h1Client(t), "", statusBody, nil)
	if !strings.Contains(logs.String(), `"caller":"local"`) {
		t.Errorf("no local caller: %s", logs.String())
	}
}

// The start rules: off loopback callers and allowed hosts are required,
// tokens are at least 32 bytes, ids are unique; the error names the key
// and never the token.
func TestREQ_SEC_018_StartRules(t *testing.T) {
	srv := newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil)
	short := "short-token-zebra"
	for _, tc := range []struct {
		set  HTTPSettings
		want string
	}{
		{HTTPSettings{Bind: "0.0.0.0:0", AllowedHosts: []string{"x"}}, "service.http.auth.callers"},
		{HTTPSettings{Bind: "0.0.0.0:0", Callers: []HTTPCaller{{ID: "a", Token: []byte(tokenA)}}}, "service.http.allowed_hosts"},
		{HTTPSettings{Bind: "127.0.0.1:0", Callers: []HTTPCaller{{ID: "a", Token: []byte(short)}}}, "service.http.auth.callers[0]"},
		{HTTPSettings{Bind: "127.0.0.1:0", Callers: []HTTPCaller{{ID: "a", Token: []byte(tokenA)}, {ID: "a", Token: []byte(tokenB)}}}, "service.http.auth.callers[1].id"},
		{HTTPSettings{Bind: "no-port"}, "service.http.bind"},
	} {
		l, err := srv.ListenHTTP(tc.set)
		if err == nil {
			l.gate.Close()
			t.Errorf("%+v: started", tc.set.Bind)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), short) {
			t.Errorf("error %q, want it to name %s", err, tc.want)
		}
	}
}

// A closed response stream cancels the call (REQ-MCP-007): the service
// sees its context cancelled, on HTTP/1 and HTTP/2.
func TestREQ_MCP_007_ClosedStreamCancels(t *testing.T) {
	for name, client := range map[string]func(*testing.T) *http.Client{"http1": h1Client, "h2c": h2cClient} {
		t.Run(name, func(t *testing.T) {
			b := newBlockingFetch(false)
			logs := &logBuffer{}
			tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, b.fake(), logs, nil), testHTTPSettings())
			c := client(t)
			ctx, cancel := context.WithCancel(context.Background())
			body := call(1, "web_fetch", `{"url":"https://example.org/"}`)
			hr, _ := http.NewRequestWithContext(ctx, "POST", tl.base+"/mcp", strings.NewReader(body))
			hr.Header = mcpHeaders(body)
			done := make(chan error, 1)
			go func() {
				res, err := c.Do(hr)
				if err == nil {
					res.Body.Close()
				}
				done <- err
			}()
			waitStarted(t, b)
			cancel()
			select {
			case <-b.cancelled:
			case <-time.After(5 * time.Second):
				t.Fatal("the service never saw the cancellation")
			}
			<-done
			waitFor(t, func() bool { return strings.Contains(logs.String(), `"outcome":"cancelled"`) })
		})
	}
}

// Shutdown: a call in flight finishes and is answered, then Serve returns
// nil; new connections are refused after it.
func TestREQ_OPS_002_HTTPShutdownLetsCallsFinish(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	search := &fakeSearch{search: func(ctx context.Context, req tool.SearchRequest) (*tool.SearchResponse, *tool.Error) {
		started <- struct{}{}
		<-release
		return &tool.SearchResponse{Outcome: tool.OutcomeEmpty}, nil
	}}
	tl := startListener(t, newTestServer(t, testSettings(), search, &fakeFetch{}, nil, nil), testHTTPSettings())
	c := h1Client(t)
	got := make(chan resp, 1)
	go func() { got <- tl.post(c, "", call(1, "web_search", `{"query":"q"}`), nil) }()
	<-started
	stopped := make(chan error, 1)
	go func() { stopped <- tl.stop() }()
	// Serve waits for the call.
	select {
	case <-stopped:
		t.Fatal("Serve returned with a call in flight")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if r := <-got; r.status != 200 || r.errCode(t) != 0 {
		t.Errorf("the call in flight: %d %s", r.status, r.body)
	}
	if err := <-stopped; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// A connection the gate has handed on belongs to net/http: closing the
// gate, the first thing Shutdown does, leaves it open, so the request on it
// is still served. Each round closes the gate right after the hand-over,
// racing the sniffer's own bookkeeping.
func TestREQ_OPS_002_GateLeavesHandedOnConnectionsOpen(t *testing.T) {
	srv := newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil)
	for round := range 50 {
		inner, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		g := newGateListener(inner, srv, 4, 5*time.Second)
		client, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		client.Write([]byte("POST /mcp HTTP/1.1\r\n"))
		c, err := g.Accept()
		if err != nil {
			t.Fatal(err)
		}
		g.Close()
		g.wait()
		head := make([]byte, 4)
		_, rerr := io.ReadFull(c, head)
		_, werr := c.Write([]byte("ok"))
		client.SetReadDeadline(time.Now().Add(5 * time.Second))
		got := make([]byte, 2)
		_, cerr := io.ReadFull(client, got)
		c.Close()
		client.Close()
		if rerr != nil || werr != nil || cerr != nil || string(head) != "POST" || string(got) != "ok" {
			t.Fatalf("round %d: the handed-on connection was cut: read %q %v, write %v, client read %q %v", round, head, rerr, werr, got, cerr)
		}
	}
}

// Shutdown with a call that ignores its context: Serve returns within the
// shutdown time, the call unanswered.
func TestREQ_OPS_002_HTTPShutdownIsBounded(t *testing.T) {
	b := newBlockingFetch(true)
	defer close(b.release)
	s := testSettings()
	s.Shutdown = 500 * time.Millisecond
	tl := startListener(t, newTestServer(t, s, &fakeSearch{}, b.fake(), nil, nil), testHTTPSettings())
	c := h1Client(t)
	go func() {
		hr, _ := http.NewRequest("POST", tl.base+"/mcp", strings.NewReader(call(1, "web_fetch", `{"url":"https://example.org/"}`)))
		hr.Header = mcpHeaders(call(1, "web_fetch", `{"url":"https://example.org/"}`))
		if res, err := c.Do(hr); err == nil {
			res.Body.Close()
		}
	}()
	waitStarted(t, b)
	stopped := make(chan error, 1)
	go func() { stopped <- tl.stop() }()
	select {
	case err := <-stopped:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
}

// A session without traffic for 300 s (of the injected clock) expires and
// no longer counts towards LIM-H6.
func TestREQ_SEC_024_SessionsExpire(t *testing.T) {
	clock := newFakeClock()
	set := testHTTPSettings()
	set.MaxSessions = 1
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, clock), set)
	c := h1Client(t)
	r := tl.post(c, "", initializeBody(1, "2025-11-25"), nil)
	id := r.header.Get("Mcp-Session-Id")
	if r.status != 200 || id == "" {
		t.Fatalf("%d", r.status)
	}
	clock.advance(sessionIdle - time.Second)
	if r := tl.post(c, "", initializeBody(2, "2025-11-25"), nil); r.status != 503 {
		t.Fatalf("before expiry: %d", r.status)
	}
	clock.advance(time.Second)
	if r := tl.post(c, "", initializeBody(3, "2025-11-25"), nil); r.status != 200 {
		t.Fatalf("after expiry: %d", r.status)
	}
	if r := tl.post(c, "", `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`, func(h http.Header) { h.Set("Mcp-Session-Id", id) }); r.status != 404 {
		t.Errorf("an expired session: %d", r.status)
	}
}

// The defaults are the book's (LIM-H1 to LIM-H7, bind 127.0.0.1:8737).
func TestREQ_SEC_018_DefaultHTTPSettings(t *testing.T) {
	d := DefaultHTTPSettings()
	if d.Bind != "127.0.0.1:8737" || d.MaxConnections != 64 || d.MaxRequestBytes != 65536 || d.IdleTimeout != 60*time.Second ||
		d.MaxStreams != 16 || d.RequestTimeout != 30*time.Second || d.MaxSessions != 256 || d.NoLegacyRevisions || len(d.Callers) != 0 {
		t.Errorf("%+v", d)
	}
	if maxHeaderBlock != 16384 {
		t.Errorf("LIM-H7 %d", maxHeaderBlock)
	}
}

// TestREQ_MCP_003_ListsOfUndeclaredCapabilitiesOverHTTP: the empty lists of
// the stateless revision are answered over HTTP too, 200 with the hints.
func TestREQ_MCP_003_ListsOfUndeclaredCapabilitiesOverHTTP(t *testing.T) {
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), testHTTPSettings())
	c := h1Client(t)
	for _, method := range []string{"prompts/list", "resources/list", "resources/templates/list"} {
		r := tl.post(c, "", modern(1, method, ""), nil)
		if r.status != 200 || !strings.Contains(r.body, `"ttlMs":`) || !strings.Contains(r.body, `"cacheScope":"public"`) {
			t.Fatalf("%s: %d %s", method, r.status, r.body)
		}
	}
}
