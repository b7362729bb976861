package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"rypsok/tool"
)

// checkAnswer fails unless line is one valid JSON-RPC 2.0 response: a
// result or an error with an integer code and a string message, and an id
// that is a string, an integer or (for an error) null.
func checkAnswer(t testing.TB, line []byte) {
	t.Helper()
	if bytes.ContainsAny(line, "\n\r") {
		t.Fatalf("answer with a line break: %q", line)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("answer is not a JSON object: %q", line)
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		t.Fatalf("jsonrpc: %q", line)
	}
	id, hasID := m["id"]
	if !hasID || !(validID(id) || string(id) == "null") {
		t.Fatalf("id: %q", line)
	}
	_, hasResult := m["result"]
	rawErr, hasErr := m["error"]
	if hasResult == hasErr {
		t.Fatalf("result and error: %q", line)
	}
	if hasErr {
		var e struct {
			Code    *json.Number
			Message *string
		}
		if json.Unmarshal(rawErr, &e) != nil || e.Code == nil || e.Message == nil {
			t.Fatalf("error object: %q", line)
		}
		if _, err := e.Code.Int64(); err != nil {
			t.Fatalf("error code: %q", line)
		}
	} else if string(id) == "null" {
		t.Fatalf("a result with a null id: %q", line)
	}
}

// FuzzDecodeMessage feeds one line to the decoder and to a whole server:
// nothing panics, and every answer is one valid JSON-RPC response.
func FuzzDecodeMessage(f *testing.F) {
	seeds := []string{
		modern(1, "server/discover", ""),
		modern("a", "tools/list", ""),
		call(2, "web_search", `{"query":"rust","max_results":5.0,"category":"science"}`),
		call(3, "web_fetch", `{"url":"https://example.org/","max_chars":1e3,"start_char":0}`),
		call(4, "engine_status", `{}`),
		`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1e3,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"\ud800","method":"ping"}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"web_search","arguments":{"query":"\u0000"},"_meta":{"io.modelcontextprotocol/protocolVersion":"9999"}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"web_search","arguments":[1,2],` + modernMeta + `}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"web_search\",\"arguments\":{\"query\":\"q\",\"max_results\":-0.0e-0}," + modernMeta + "}}",
		`{"a":`,
		"\xef\xbb\xbf{}",
		``,
		`null`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	search := &fakeSearch{search: func(context.Context, tool.SearchRequest) (*tool.SearchResponse, *tool.Error) {
		return &tool.SearchResponse{Outcome: tool.OutcomeEmpty}, nil
	}}
	srv := New(testSettings(), search, &fakeFetch{}, slog.New(slog.DiscardHandler), nil)
	f.Fuzz(func(t *testing.T, line []byte) {
		m, id, rerr := decodeMessage(line)
		if rerr != nil {
			if m != nil {
				t.Fatal("a message and an error")
			}
			checkAnswer(t, bytes.TrimSuffix(errorLine(id, rerr), []byte("\n")))
		}
		if bytes.ContainsAny(line, "\n") {
			return
		}
		// The same line through a whole stream: every answer is valid.
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.ServeStdio(ctx, io.MultiReader(bytes.NewReader(line), bytes.NewReader([]byte("\n"))), &out); err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			if len(l) > 0 {
				checkAnswer(t, l)
			}
		}
	})
}

// appendJSONString writes what encoding/json writes without HTML escaping.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "Rust & Bone <b>", "\x00\x01\x1f\x7f", "\b\f\n\r\t\"\\", "\u2028\u2029", "\xff\xfe", "é—日本", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := encodeJSON(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, []byte(s)); string(got) != string(want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}
