package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"rypsok/tool"
)

// fakeSearch is a Searcher whose behaviour each test chooses. It records
// every request it receives.
type fakeSearch struct {
	categories []tool.Category
	search     func(ctx context.Context, req tool.SearchRequest) (*tool.SearchResponse, *tool.Error)
	status     func(ctx context.Context) *tool.StatusResponse

	mu    sync.Mutex
	calls []tool.SearchRequest
}

func (f *fakeSearch) Search(ctx context.Context, req tool.SearchRequest) (*tool.SearchResponse, *tool.Error) {
	f.mu.Lock()
	f.calls = append(f.calls, req)
	f.mu.Unlock()
	if f.search != nil {
		return f.search(ctx, req)
	}
	return &tool.SearchResponse{Outcome: tool.OutcomeEmpty}, nil
}

func (f *fakeSearch) Status(ctx context.Context) *tool.StatusResponse {
	if f.status != nil {
		return f.status(ctx)
	}
	return &tool.StatusResponse{Outcome: tool.OutcomeOK, Engines: []tool.EngineStatus{{ID: "wikipedia", State: tool.StateClosed}}}
}

func (f *fakeSearch) Categories() []tool.Category {
	if f.categories == nil {
		return []tool.Category{tool.CategoryGeneral, tool.CategoryScience}
	}
	return f.categories
}

func (f *fakeSearch) recorded() []tool.SearchRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]tool.SearchRequest(nil), f.calls...)
}

// fakeFetch is a Fetcher whose behaviour each test chooses.
type fakeFetch struct {
	fetch func(ctx context.Context, req tool.FetchRequest) (*tool.FetchResponse, *tool.Error)

	mu    sync.Mutex
	calls []tool.FetchRequest
}

func (f *fakeFetch) Fetch(ctx context.Context, req tool.FetchRequest) (*tool.FetchResponse, *tool.Error) {
	f.mu.Lock()
	f.calls = append(f.calls, req)
	f.mu.Unlock()
	if f.fetch != nil {
		return f.fetch(ctx, req)
	}
	return &tool.FetchResponse{Outcome: tool.OutcomeOK, URL: req.URL, Title: "t", Content: "c"}, nil
}

func (f *fakeFetch) recorded() []tool.FetchRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]tool.FetchRequest(nil), f.calls...)
}

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 9, 30, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// testSettings are the defaults of the book: one language, the default
// limits, structured content on.
func testSettings() Settings {
	return Settings{
		Version:           "0.0.0-test",
		StructuredContent: true,
		Shutdown:          3 * time.Second,
		StatusEnabled:     true,
		SearchPerMinute:   60,
		FetchPerMinute:    30,
		StatusPerMinute:   30,
		Languages:         []string{"en"},
		MaxResults:        5,
		MaxResultsCeiling: 20,
		QueryMaxChars:     400,
		MaxChars:          3000,
		MaxCharsCeiling:   20000,
	}
}

// logBuffer collects log lines safely.
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

// lines returns the decoded log lines.
func (l *logBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, ln := range strings.Split(strings.TrimSpace(l.String()), "\n") {
		if ln == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(ln), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", ln)
		}
		out = append(out, m)
	}
	return out
}

// stdioPeer runs ServeStdio over pipes.
type stdioPeer struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan []byte
	done   chan error
	cancel context.CancelFunc
}

func startSession(t *testing.T, srv *Server) *stdioPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	s := &stdioPeer{t: t, in: inW, lines: make(chan []byte, 1024), done: make(chan error, 1), cancel: cancel}
	go func() {
		err := srv.ServeStdio(ctx, inR, outW)
		outW.Close()
		s.done <- err
	}()
	go func() {
		r := bufio.NewReaderSize(outR, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				s.lines <- line
			}
			if err != nil {
				close(s.lines)
				return
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		inR.Close()
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			t.Error("ServeStdio did not return")
		}
	})
	return s
}

func (s *stdioPeer) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("writing a line: %v", err)
	}
}

// recv returns the next answer line (without its newline).
func (s *stdioPeer) recv() []byte {
	s.t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.t.Fatal("the output ended")
		}
		if !bytes.HasSuffix(l, []byte("\n")) {
			s.t.Fatalf("an answer line without newline: %q", l)
		}
		return bytes.TrimSuffix(l, []byte("\n"))
	case <-time.After(10 * time.Second):
		s.t.Fatal("no answer within 10 s")
		return nil
	}
}

// recvMsg returns the next answer decoded.
func (s *stdioPeer) recvMsg() map[string]any {
	s.t.Helper()
	l := s.recv()
	var m map[string]any
	if err := json.Unmarshal(l, &m); err != nil {
		s.t.Fatalf("answer is not JSON: %q", l)
	}
	return m
}

// noAnswer checks that nothing arrives for d.
func (s *stdioPeer) noAnswer(d time.Duration) {
	s.t.Helper()
	select {
	case l := <-s.lines:
		s.t.Fatalf("unexpected answer: %s", l)
	case <-time.After(d):
	}
}

// closeInput closes the input and returns how long ServeStdio took to end.
func (s *stdioPeer) closeInput() (time.Duration, error) {
	start := time.Now()
	s.in.Close()
	select {
	case err := <-s.done:
		s.done <- err
		return time.Since(start), err
	case <-time.After(15 * time.Second):
		s.t.Fatal("ServeStdio did not return after end of input")
		return 0, nil
	}
}

const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`

// modern builds a request of the stateless revision; params is the inside
// of the params object without braces (may be empty).
func modern(id any, method, params string) string {
	p := modernMeta
	if params != "" {
		p = params + "," + modernMeta
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{%s}}`, jsonText(id), method, p)
}

// call builds a tools/call of the stateless revision.
func call(id any, name, args string) string {
	if args == "" {
		return modern(id, "tools/call", fmt.Sprintf(`"name":%q`, name))
	}
	return modern(id, "tools/call", fmt.Sprintf(`"name":%q,"arguments":%s`, name, args))
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// result returns the result object of a response, failing on an error.
func result(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	r, ok := m["result"].(map[string]any)
	if !ok {
		t.Fatalf("not a result: %v", m)
	}
	return r
}

// toolPayload returns the structured content of a tool result, checking
// that the text content is the same JSON, and isError.
func toolPayload(t *testing.T, m map[string]any) (map[string]any, bool) {
	t.Helper()
	r := result(t, m)
	content := r["content"].([]any)
	if len(content) != 1 {
		t.Fatalf("content has %d items", len(content))
	}
	item := content[0].(map[string]any)
	if item["type"] != "text" {
		t.Fatalf("content type %v", item["type"])
	}
	var fromText map[string]any
	if err := json.Unmarshal([]byte(item["text"].(string)), &fromText); err != nil {
		t.Fatalf("text is not JSON: %v", err)
	}
	if sc, ok := r["structuredContent"]; ok {
		a, _ := json.Marshal(sc)
		b, _ := json.Marshal(fromText)
		if !bytes.Equal(a, b) {
			t.Fatalf("structuredContent and text differ:\n%s\n%s", a, b)
		}
	}
	isErr, ok := r["isError"].(bool)
	if !ok {
		t.Fatalf("isError missing: %v", r)
	}
	return fromText, isErr
}

// toolError returns the error object of an isError result.
func toolError(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	p, isErr := toolPayload(t, m)
	if !isErr {
		t.Fatalf("expected a tool error, got %v", p)
	}
	return p["error"].(map[string]any)
}

func newTestServer(t *testing.T, s Settings, search *fakeSearch, fetch *fakeFetch, log *logBuffer, clock *fakeClock) *Server {
	t.Helper()
	var lg *slog.Logger
	if log != nil {
		lg = slog.New(tool.NewLogHandler(log, slog.LevelDebug))
	}
	var now func() time.Time
	if clock != nil {
		now = clock.now
	}
	var se Searcher
	if search != nil {
		se = search
	}
	var fe Fetcher
	if fetch != nil {
		fe = fetch
	}
	return New(s, se, fe, lg, now)
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached within 10 s")
		}
		time.Sleep(2 * time.Millisecond)
	}
}
