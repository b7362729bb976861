package mcp

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"log/slog"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"rypsok/tool"
)

// LIM-C6 to LIM-C8: the calls beyond the limit are refused with
// unavailable, rate_limited and the time until the next call is accepted,
// on the injected clock; the service does not see them.
func TestREQ_MCP_010_RateLimitRefusesWithRetryAfter(t *testing.T) {
	cases := []struct {
		tool, args string
		limit      int
	}{
		{"web_search", `{"query":"q"}`, 3},
		{"web_fetch", `{"url":"https://example.org/"}`, 2},
		{"engine_status", `{}`, 4},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			clock := newFakeClock()
			set := testSettings()
			set.SearchPerMinute, set.FetchPerMinute, set.StatusPerMinute = 3, 2, 4
			search, fetch := &fakeSearch{}, &fakeFetch{}
			statusCalls := 0
			search.status = func(context.Context) *tool.StatusResponse {
				statusCalls++
				return &tool.StatusResponse{Outcome: tool.OutcomeOK}
			}
			s := startSession(t, newTestServer(t, set, search, fetch, nil, clock))
			served := func() int { return len(search.recorded()) + len(fetch.recorded()) + statusCalls }
			for i := 0; i < tc.limit; i++ {
				s.send(call(i, tc.tool, tc.args))
				if _, isErr := toolPayload(t, s.recvMsg()); isErr {
					t.Fatalf("call %d refused", i)
				}
				clock.advance(10 * time.Second)
			}
			// The first admission was at t0; now is t0 + limit×10 s.
			s.send(call("over", tc.tool, tc.args))
			e := toolError(t, s.recvMsg())
			wantRetry := float64(60_000 - tc.limit*10_000)
			d := e["detail"].(map[string]any)
			if e["kind"] != "unavailable" || d["reason"] != "rate_limited" || d["retry_after_ms"] != wantRetry {
				t.Fatalf("refusal = %v, want retry_after_ms %v", e, wantRetry)
			}
			if served() != tc.limit {
				t.Errorf("the service saw %d calls", served())
			}
			// An invalid call is refused as invalid before the rate limit.
			if tc.tool == "web_search" {
				s.send(call("bad", tc.tool, `{"query":""}`))
				if e := toolError(t, s.recvMsg()); e["kind"] != "invalid_request" {
					t.Errorf("an invalid call over the limit: %v", e)
				}
			}
			clock.advance(time.Duration(wantRetry)*time.Millisecond - time.Millisecond)
			s.send(call("still", tc.tool, tc.args))
			if e := toolError(t, s.recvMsg()); e["detail"].(map[string]any)["retry_after_ms"] != 1.0 {
				t.Errorf("one millisecond early: %v", e)
			}
			clock.advance(time.Millisecond)
			s.send(call("again", tc.tool, tc.args))
			if _, isErr := toolPayload(t, s.recvMsg()); isErr {
				t.Error("refused after the window")
			}
		})
	}
}

// Tool limits are separate, and tools/list and server/discover are not
// limited.
func TestREQ_MCP_010_LimitsArePerTool(t *testing.T) {
	clock := newFakeClock()
	set := testSettings()
	set.SearchPerMinute, set.FetchPerMinute, set.StatusPerMinute = 1, 1, 1
	s := startSession(t, newTestServer(t, set, &fakeSearch{}, &fakeFetch{}, nil, clock))
	for _, c := range []string{call(1, "web_search", `{"query":"q"}`), call(2, "web_fetch", `{"url":"https://e.org/"}`), call(3, "engine_status", `{}`)} {
		s.send(c)
		if _, isErr := toolPayload(t, s.recvMsg()); isErr {
			t.Errorf("refused: %s", c)
		}
	}
	for i := 0; i < 50; i++ {
		s.send(modern(i, "tools/list", ""))
		s.send(modern(i, "server/discover", ""))
		result(t, s.recvMsg())
		result(t, s.recvMsg())
	}
}

// In any window of one minute at most limit calls are admitted, whatever
// the arrival times; a token bucket of capacity limit would admit almost
// twice as many.
func TestREQ_TEST_016_NeverMoreThanTheLimitInAnyMinute(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, limit := range []int{1, 2, 5, 60} {
		l := newWindowLimiter(limit)
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		now := t0
		var admitted []time.Time
		for i := 0; i < 5000; i++ {
			now = now.Add(time.Duration(rng.Intn(3000)) * time.Millisecond)
			ok, retry := l.admit(now)
			if ok {
				admitted = append(admitted, now)
				continue
			}
			if retry < 1 || retry > 60_000 {
				t.Fatalf("retry_after_ms %d", retry)
			}
			// Retrying at the time announced is admitted.
			if i%7 == 0 {
				at := now.Add(time.Duration(retry) * time.Millisecond)
				if ok, _ := l.admit(at); !ok {
					t.Fatalf("limit %d: refused at the announced time", limit)
				}
				now = at
				admitted = append(admitted, now)
			}
		}
		for i := range admitted {
			j := i + limit
			if j < len(admitted) && admitted[j].Sub(admitted[i]) < time.Minute {
				t.Fatalf("limit %d: %d calls within %v", limit, limit+1, admitted[j].Sub(admitted[i]))
			}
		}
		if len(admitted) < limit {
			t.Fatalf("limit %d: only %d admitted", limit, len(admitted))
		}
	}
}

var requestIDShape = regexp.MustCompile(`^[0-9a-f]{12}-[0-9a-f]{6}$`)

// Log lines are JSON with timestamp, level and event first, then the
// request_id and caller of the call for every event emitted with the
// call's context, the service's included.
func TestREQ_OBS_005_LogLinesCarryRequestIDAndCaller(t *testing.T) {
	logs := &logBuffer{}
	lg := slog.New(tool.NewLogHandler(logs, slog.LevelDebug))
	search := &fakeSearch{search: func(ctx context.Context, req tool.SearchRequest) (*tool.SearchResponse, *tool.Error) {
		lg.InfoContext(ctx, "engine_failed", "engine", "brave", "class", "timeout")
		return &tool.SearchResponse{Outcome: tool.OutcomeOK}, nil
	}}
	srv := New(testSettings(), search, &fakeFetch{}, lg, nil)
	s := startSession(t, srv)
	s.send(call(1, "web_search", `{"query":"q"}`))
	s.recv()
	s.send(call(2, "web_search", `{"query":"q"}`))
	s.recv()
	s.send(call(3, "web_search", `{"query":""}`))
	s.recv()
	var ids []string
	lines := logs.lines(t)
	for _, raw := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if strings.Contains(raw, `"request_id"`) && !regexp.MustCompile(`^\{"timestamp":"[^"]+","level":"(debug|info|warn|error)","event":"[a-z_]+","request_id":"[^"]+","caller":"local"`).MatchString(raw) {
			t.Errorf("field order: %s", raw)
		}
	}
	for _, l := range lines {
		ts, _ := l["timestamp"].(string)
		if _, err := time.Parse("2006-01-02T15:04:05.000Z", ts); err != nil {
			t.Errorf("timestamp %q is not RFC 3339 UTC with milliseconds", ts)
		}
		switch l["event"] {
		case "engine_failed":
			if l["caller"] != "local" || !requestIDShape.MatchString(l["request_id"].(string)) {
				t.Errorf("service event without the call: %v", l)
			}
			ids = append(ids, l["request_id"].(string))
		case "call":
			if l["outcome"] == "ok" {
				if l["request_id"] == nil || l["tool"] != "web_search" || l["latency_ms"] == nil {
					t.Errorf("call event: %v", l)
				}
				ids = append(ids, l["request_id"].(string))
			}
		}
	}
	if len(ids) != 4 || ids[0] != ids[1] || ids[2] != ids[3] || ids[0] == ids[2] {
		t.Errorf("request ids %v: want one per call, shared by its events", ids)
	}
}

// Calls refused by the adapter log call and refused with the reason, and
// are counted per tool and reason in the counters event.
func TestREQ_OBS_007_RefusalsAreLoggedAndCounted(t *testing.T) {
	logs := &logBuffer{}
	clock := newFakeClock()
	set := testSettings()
	set.SearchPerMinute = 1
	fetch := &fakeFetch{fetch: func(context.Context, tool.FetchRequest) (*tool.FetchResponse, *tool.Error) {
		return nil, tool.Denied(tool.ReasonRobotsTxt)
	}}
	srv := newTestServer(t, set, &fakeSearch{}, fetch, logs, clock)
	s := startSession(t, srv)
	for i, c := range []string{
		call(1, "web_search", `{"query":"q"}`),
		call(2, "web_search", `{"query":"q"}`),
		call(3, "web_search", `{"query":""}`),
		call(4, "web_search", `{"query":5}`),
		call(5, "web_fetch", `{"url":"https://example.org/"}`),
	} {
		s.send(c)
		s.recv()
		_ = i
	}
	srv.refused.flush(context.Background(), srv.log)
	var counters, refusedLines int
	for _, l := range logs.lines(t) {
		switch l["event"] {
		case "refused":
			refusedLines++
			if l["level"] != "warn" {
				t.Errorf("refused at level %v", l["level"])
			}
		case "counters":
			counters++
			want := map[string]any{
				"web_search": map[string]any{"invalid_request": 2.0, "rate_limited": 1.0},
				"web_fetch":  map[string]any{"robots_txt": 1.0},
			}
			if jsonText(l["refusals"]) != jsonText(want) {
				t.Errorf("counters %v", jsonText(l["refusals"]))
			}
		}
	}
	if refusedLines != 4 || counters != 1 {
		t.Errorf("%d refused lines, %d counters lines", refusedLines, counters)
	}
	// An engine-side rate limit answered by the service is not a refusal.
	search2 := &fakeSearch{search: func(context.Context, tool.SearchRequest) (*tool.SearchResponse, *tool.Error) {
		return nil, tool.RateLimited(1000)
	}}
	srv2 := newTestServer(t, testSettings(), search2, &fakeFetch{}, logs, clock)
	s2 := startSession(t, srv2)
	s2.send(call(1, "web_search", `{"query":"q"}`))
	s2.recv()
	srv2.refused.mu.Lock()
	if len(srv2.refused.n) != 0 {
		t.Errorf("a service's unavailable counted as a refusal: %v", srv2.refused.n)
	}
	srv2.refused.mu.Unlock()
	// Nothing to count: no counters line.
	before := len(logs.lines(t))
	srv.refused.flush(context.Background(), srv.log)
	if len(logs.lines(t)) != before {
		t.Error("a counters line without refusals")
	}
}

// No query text, URL or argument reaches the log, at info or at debug.
func TestREQ_OBS_006_NoQueryTextInLogs(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		logs := &logBuffer{}
		srv := New(testSettings(), &fakeSearch{}, &fakeFetch{}, slog.New(tool.NewLogHandler(logs, level)), nil)
		s := startSession(t, srv)
		for _, c := range []string{
			call(1, "web_search", `{"query":"zebra-secret-query"}`),
			call(2, "web_search", `{"query":"zebra-secret-query","max_results":"zebra-secret-arg"}`),
			call(3, "web_search", `{"query":"q","zebra_secret_param":1}`),
			call(4, "web_fetch", `{"url":"https://example.org/zebra-secret-path?zebra=secret"}`),
			call(5, "web_fetch", `{"url":"zebra-secret-url"}`),
			call(6, "zebra_secret_tool", `{}`),
			`{"jsonrpc":"2.0","id":7,"method":"zebra/secret"}`,
			`{"jsonrpc":"2.0","id":8,` + "zebra-secret-garbage",
		} {
			s.send(c)
			s.recv()
		}
		srv.refused.flush(context.Background(), srv.log)
		out := logs.String()
		if strings.Contains(strings.ToLower(out), "zebra") {
			t.Errorf("level %v: caller text in the log:\n%s", level, out)
		}
		if !strings.Contains(out, `"event":"call"`) {
			t.Errorf("level %v: no call event", level)
		}
	}
}

// A panic in a service (or anywhere in a call) is one panic line without
// the value and an unavailable answer; the process serves on.
func TestREQ_SEC_014_PanicIsRecovered(t *testing.T) {
	logs := &logBuffer{}
	search := &fakeSearch{
		search: func(context.Context, tool.SearchRequest) (*tool.SearchResponse, *tool.Error) {
			panic("zebra panic value")
		},
		status: func(context.Context) *tool.StatusResponse { panic("zebra status") },
	}
	fetch := &fakeFetch{fetch: func(context.Context, tool.FetchRequest) (*tool.FetchResponse, *tool.Error) {
		var m map[string]int
		m["x"] = 1
		return nil, nil
	}}
	srv := newTestServer(t, testSettings(), search, fetch, logs, nil)
	s := startSession(t, srv)
	want := map[string]string{"web_search": "all_failed", "web_fetch": "network", "engine_status": "all_failed"}
	for _, c := range []struct{ name, args string }{
		{"web_search", `{"query":"q"}`}, {"web_fetch", `{"url":"https://e.org/"}`}, {"engine_status", `{}`},
	} {
		s.send(call(1, c.name, c.args))
		e := toolError(t, s.recvMsg())
		if e["kind"] != "unavailable" || e["detail"].(map[string]any)["reason"] != want[c.name] {
			t.Errorf("%s: %v", c.name, e)
		}
	}
	s.send(modern(2, "tools/list", ""))
	result(t, s.recvMsg())
	panics := 0
	for _, l := range logs.lines(t) {
		if l["event"] == "panic" {
			panics++
			if l["request_id"] == nil || l["tool"] == nil || l["level"] != "error" {
				t.Errorf("panic line %v", l)
			}
		}
	}
	if panics != 3 {
		t.Errorf("%d panic lines", panics)
	}
	if strings.Contains(logs.String(), "zebra") || strings.Contains(logs.String(), "goroutine") || strings.Contains(logs.String(), "nil map") {
		t.Error("the panic value or stack reached the log")
	}
}

// Nothing in the module writes to stdout but the writer of this package,
// which takes out as an io.Writer: only main.go may name os.Stdout or
// print. Another command of the module (a package main outside the root,
// such as a demo under scripts/) is another process and is not inspected.
func TestREQ_MCP_002_OnlyTheWriterTouchesStdout(t *testing.T) {
	allowed := map[string]bool{"main.go": true}
	root := filepath.Join("..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal("module root not found")
	}
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" && filepath.Dir(rel) != "." {
			return nil
		}
		files++
		if allowed[filepath.ToSlash(rel)] {
			return nil
		}
		for _, use := range stdoutUses(fset, f) {
			t.Error(use)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 5 {
		t.Fatalf("only %d files inspected", files)
	}
}

// The handler's format: levels, groups, WithAttrs, and no call fields
// without a call.
func TestREQ_OBS_005_LogHandlerFormat(t *testing.T) {
	logs := &logBuffer{}
	lg := slog.New(tool.NewLogHandler(logs, slog.LevelInfo))
	lg.Debug("hidden")
	lg.With("engine", "brave").WithGroup("g").Warn("circuit_opened", "n", 3, slog.Group("sub", "a", true), "d", 1500*time.Millisecond)
	lg.Error("boom", "s", "quote\" & <tag>\n")
	ctx := tool.WithCall(context.Background(), tool.Call{RequestID: "019a2b3c4d5e-000007", Caller: "ops"})
	lg.InfoContext(ctx, "fetched", "host", "example.org")
	got := strings.Split(strings.TrimSpace(logs.String()), "\n")
	want := []string{
		`,"level":"warn","event":"circuit_opened","engine":"brave","g":{"n":3,"sub":{"a":true},"d":1500}}`,
		`,"level":"error","event":"boom","s":"quote\" & <tag>\n"}`,
		`,"level":"info","event":"fetched","request_id":"019a2b3c4d5e-000007","caller":"ops","host":"example.org"}`,
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines: %q", len(got), got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], `{"timestamp":"`) || !strings.HasSuffix(got[i], want[i]) {
			t.Errorf("line %d: %s\nwant suffix %s", i, got[i], want[i])
		}
	}
}

// stdoutUses lists the places of f that name os.Stdout or print.
func stdoutUses(fset *token.FileSet, f *ast.File) []string {
	var uses []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				if id.Name == "os" && x.Sel.Name == "Stdout" {
					uses = append(uses, fset.Position(x.Pos()).String()+": os.Stdout")
				}
				if id.Name == "fmt" && (x.Sel.Name == "Print" || x.Sel.Name == "Printf" || x.Sel.Name == "Println") {
					uses = append(uses, fset.Position(x.Pos()).String()+": fmt."+x.Sel.Name)
				}
			}
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && (id.Name == "print" || id.Name == "println") {
				uses = append(uses, fset.Position(x.Pos()).String()+": "+id.Name)
			}
		}
		return true
	})
	return uses
}

// The inspection finds every form it looks for.
func TestStdoutUsesFindsEveryForm(t *testing.T) {
	src := `package p
import ("fmt"; "os")
func f() {
	w := os.Stdout
	fmt.Println(w)
	fmt.Printf("%d", 1)
	fmt.Print()
	println("x")
	print("y")
	fmt.Fprintln(os.Stderr, "fine")
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if uses := stdoutUses(fset, f); len(uses) != 6 {
		t.Errorf("found %d of 6: %v", len(uses), uses)
	}
}
