package mcp

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestREQ_MCP_006_OneHandshakePerSession: a second initialize in a
// handshake-era session is refused with -32600, and the session keeps the
// revision of the first: tool definitions stay those of that revision.
func TestREQ_MCP_006_OneHandshakePerSession(t *testing.T) {
	s := startSession(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil))
	s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	if r := result(t, s.recvMsg()); r["protocolVersion"] != "2024-11-05" {
		t.Fatalf("first initialize: %v", r)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	m := s.recvMsg()
	e, ok := m["error"].(map[string]any)
	if !ok || e["code"] != -32600.0 || m["id"] != 2.0 {
		t.Fatalf("second initialize: %v", m)
	}
	if msg, _ := e["message"].(string); !strings.Contains(msg, "2024-11-05") || !strings.Contains(msg, "initialize") {
		t.Errorf("the refusal does not say why: %q", msg)
	}
	// 2024-11-05 defines neither Tool.title nor annotations
	s.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	for _, d := range result(t, s.recvMsg())["tools"].([]any) {
		def := d.(map[string]any)
		if _, has := def["title"]; has {
			t.Fatalf("the session changed revision: %v", def)
		}
		if _, has := def["annotations"]; has {
			t.Fatalf("the session changed revision: %v", def)
		}
	}
}

// The same over Streamable HTTP: an initialize that names an open session
// is refused, and the session keeps its revision.
func TestREQ_MCP_006_OneHandshakePerHTTPSession(t *testing.T) {
	tl := startListener(t, newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil), testHTTPSettings())
	c := h1Client(t)
	r := tl.post(c, "", initializeBody(1, "2025-06-18"), nil)
	id := r.header.Get("Mcp-Session-Id")
	if r.status != 200 || id == "" {
		t.Fatalf("initialize: %d %s", r.status, r.body)
	}
	withID := func(h http.Header) { h.Set("Mcp-Session-Id", id) }
	r = tl.post(c, "", initializeBody(2, "2024-11-05"), withID)
	var m map[string]any
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatalf("second initialize: %d %q", r.status, r.body)
	}
	if e, ok := m["error"].(map[string]any); !ok || e["code"] != -32600.0 {
		t.Fatalf("second initialize: %d %s", r.status, r.body)
	}
	// the negotiated revision is still 2025-06-18: its header is accepted
	r = tl.post(c, "", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, func(h http.Header) {
		withID(h)
		h.Set("MCP-Protocol-Version", "2025-06-18")
	})
	if r.status != 200 || !strings.Contains(r.body, `"outputSchema"`) {
		t.Errorf("tools/list of the first revision: %d %.200s", r.status, r.body)
	}
}
