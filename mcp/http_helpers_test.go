package mcp

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Helpers of the HTTP tests: a listener on 127.0.0.1 with a free port,
// clients for HTTP/1.1 and HTTP/2 without TLS, and requests with the
// protocol headers derived from their body.

const (
	tokenA = "token-of-caller-a-0123456789abcdef" // 34 bytes
	tokenB = "token-of-caller-b-0123456789abcdef"
)

type testListener struct {
	t      *testing.T
	l      *Listener
	base   string // http://127.0.0.1:port
	host   string // 127.0.0.1:port
	cancel context.CancelFunc
	done   chan error
}

func testHTTPSettings() HTTPSettings {
	return HTTPSettings{Bind: "127.0.0.1:0"}
}

func startListener(t *testing.T, srv *Server, set HTTPSettings) *testListener {
	t.Helper()
	l, err := srv.ListenHTTP(set)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	tl := &testListener{t: t, l: l, host: l.Addr().String(), cancel: cancel, done: make(chan error, 1)}
	tl.base = "http://" + tl.host
	go func() { tl.done <- l.Serve(ctx) }()
	t.Cleanup(func() { tl.stop() })
	return tl
}

// stop cancels Serve and waits for it (at most 15 s).
func (tl *testListener) stop() error {
	tl.cancel()
	select {
	case err := <-tl.done:
		tl.done <- err
		return err
	case <-time.After(15 * time.Second):
		tl.t.Error("Serve did not return")
		return nil
	}
}

// h1Client speaks HTTP/1.1 only; each test gets its own connections.
func h1Client(t *testing.T) *http.Client {
	tr := &http.Transport{MaxIdleConnsPerHost: 8, DisableCompression: true}
	var p http.Protocols
	p.SetHTTP1(true)
	tr.Protocols = &p
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 20 * time.Second}
}

// h2cClient speaks HTTP/2 without TLS (prior knowledge).
func h2cClient(t *testing.T) *http.Client {
	tr := &http.Transport{DisableCompression: true, TLSClientConfig: &tls.Config{}}
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	tr.Protocols = &p
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 20 * time.Second}
}

// req is one HTTP request of a test.
type req struct {
	method string
	path   string
	body   string
	header http.Header
}

type resp struct {
	status int
	header http.Header
	body   string
	proto  int // major version
}

// mcpHeaders are the headers of a well-formed POST of body: Accept,
// Content-Type and, for the stateless revision, the protocol headers.
func mcpHeaders(body string) http.Header {
	h := http.Header{}
	h.Set("Accept", "application/json, text/event-stream")
	h.Set("Content-Type", "application/json")
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name string         `json:"name"`
			Meta map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal([]byte(body), &m) == nil {
		if v, ok := m.Params.Meta[metaProtocolVersion].(string); ok {
			h.Set("MCP-Protocol-Version", v)
			h.Set("Mcp-Method", m.Method)
			if m.Method == "tools/call" {
				h.Set("Mcp-Name", m.Params.Name)
			}
		}
	}
	return h
}

// post sends a well-formed POST of body to /mcp, with the token when it
// is not empty and the header changes of mod.
func (tl *testListener) post(c *http.Client, token, body string, mod func(http.Header)) resp {
	tl.t.Helper()
	h := mcpHeaders(body)
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	if mod != nil {
		mod(h)
	}
	return tl.do(c, req{method: "POST", path: "/mcp", body: body, header: h})
}

func (tl *testListener) do(c *http.Client, r req) resp {
	tl.t.Helper()
	return tl.doCtx(context.Background(), c, r)
}

func (tl *testListener) doCtx(ctx context.Context, c *http.Client, r req) resp {
	tl.t.Helper()
	hr, err := http.NewRequestWithContext(ctx, r.method, tl.base+r.path, strings.NewReader(r.body))
	if err != nil {
		tl.t.Fatal(err)
	}
	for k, vs := range r.header {
		for _, v := range vs {
			if k == "Host" {
				hr.Host = v
				continue
			}
			hr.Header.Add(k, v)
		}
	}
	res, err := c.Do(hr)
	if err != nil {
		tl.t.Fatalf("%s %s: %v", r.method, r.path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return resp{status: res.StatusCode, header: res.Header, body: string(b), proto: res.ProtoMajor}
}

// rpc decodes the body of an answer.
func (r resp) rpc(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatalf("status %d, body is not JSON: %q", r.status, r.body)
	}
	return m
}

// errCode is the JSON-RPC error code of an answer, 0 when it is a result.
func (r resp) errCode(t *testing.T) float64 {
	t.Helper()
	e, ok := r.rpc(t)["error"].(map[string]any)
	if !ok {
		return 0
	}
	return e["code"].(float64)
}

// rawExchange writes raw bytes on a new connection and returns what the
// server answered until it closed the connection or 10 s passed.
func rawExchange(t *testing.T, addr string, write []byte) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(write)
	c.SetReadDeadline(deadlineIn(10 * time.Second))
	b, _ := io.ReadAll(c)
	return string(b)
}

// statusOf is the status code of a raw HTTP/1 answer, 0 when there is none.
func statusOf(raw string) int {
	res, err := http.ReadResponse(bufio.NewReader(strings.NewReader(raw)), nil)
	if err != nil {
		return 0
	}
	res.Body.Close()
	return res.StatusCode
}

func initializeBody(id any, version string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, jsonText(id), version)
}
