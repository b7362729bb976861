package mcp

import (
	"bufio"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"rypsok/tool"
)

// blockingFetch blocks every fetch until its context is cancelled and
// reports when it saw the cancellation. When ignoreCtx is set it blocks on
// release instead, like a service that ignores its context.
type blockingFetch struct {
	started   chan struct{}
	cancelled chan time.Time
	release   chan struct{}
	ignoreCtx bool
}

func newBlockingFetch(ignoreCtx bool) *blockingFetch {
	return &blockingFetch{started: make(chan struct{}, 16), cancelled: make(chan time.Time, 16), release: make(chan struct{}), ignoreCtx: ignoreCtx}
}

func (b *blockingFetch) fake() *fakeFetch {
	return &fakeFetch{fetch: func(ctx context.Context, req tool.FetchRequest) (*tool.FetchResponse, *tool.Error) {
		b.started <- struct{}{}
		if b.ignoreCtx {
			<-b.release
		} else {
			<-ctx.Done()
			b.cancelled <- time.Now()
		}
		return &tool.FetchResponse{Outcome: tool.OutcomeOK, URL: req.URL}, nil
	}}
}

func waitStarted(t *testing.T, b *blockingFetch) {
	t.Helper()
	select {
	case <-b.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the fetch did not start")
	}
}

// A cancelled call's context is cancelled within LIM-O2, it gets no answer,
// and the next call works.
func TestREQ_MCP_007_CancellationAbortsAndAnswersNothing(t *testing.T) {
	for _, id := range []string{`"abc"`, `42`} {
		b := newBlockingFetch(false)
		s := startSession(t, newTestServer(t, testSettings(), &fakeSearch{}, b.fake(), nil, nil))
		s.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"web_fetch","arguments":{"url":"https://example.org/"},` + modernMeta + `}}`)
		waitStarted(t, b)
		sent := time.Now()
		s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"user"}}`)
		select {
		case at := <-b.cancelled:
			if d := at.Sub(sent); d > 500*time.Millisecond {
				t.Errorf("the service saw the cancellation after %v (LIM-O2 is 500 ms)", d)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the service never saw the cancellation")
		}
		s.send(call("next", "engine_status", `{}`))
		if m := s.recvMsg(); m["id"] != "next" {
			t.Fatalf("an answer for the cancelled call: %v", m)
		}
		s.noAnswer(150 * time.Millisecond)
	}
}

// A service that ignores its context and answers after the cancellation:
// the answer is dropped at the writer.
func TestREQ_MCP_007_CancellationDropsALateAnswer(t *testing.T) {
	b := newBlockingFetch(true)
	s := startSession(t, newTestServer(t, testSettings(), &fakeSearch{}, b.fake(), nil, nil))
	s.send(call(5, "web_fetch", `{"url":"https://example.org/"}`))
	waitStarted(t, b)
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`)
	s.send(call(6, "engine_status", `{}`))
	if m := s.recvMsg(); m["id"] != 6.0 {
		t.Fatalf("unexpected answer %v", m)
	}
	close(b.release)
	s.noAnswer(200 * time.Millisecond)
	s.send(call(5, "engine_status", `{}`))
	if m := s.recvMsg(); m["id"] != 5.0 {
		t.Fatalf("the id of a cancelled call cannot be used again: %v", m)
	}
}

// A slow fetch delays neither engine_status nor tools/list.
func TestREQ_MCP_002_CallsRunConcurrently(t *testing.T) {
	b := newBlockingFetch(false)
	s := startSession(t, newTestServer(t, testSettings(), &fakeSearch{}, b.fake(), nil, nil))
	for i := 0; i < 3; i++ {
		s.send(call(100+i, "web_fetch", `{"url":"https://example.org/"}`))
	}
	for i := 0; i < 3; i++ {
		waitStarted(t, b)
	}
	s.send(modern(1, "tools/list", ""))
	s.send(call(2, "engine_status", `{}`))
	got := map[any]bool{}
	for i := 0; i < 2; i++ {
		got[s.recvMsg()["id"]] = true
	}
	if !got[1.0] || !got[2.0] {
		t.Errorf("answers while fetches block: %v", got)
	}
}

// At the end of input the calls in flight may still answer (the pipe of
// the first tutorial), and ServeStdio returns.
func TestREQ_MCP_002_EndOfInputLetsCallsFinish(t *testing.T) {
	release := make(chan struct{})
	search := &fakeSearch{search: func(ctx context.Context, req tool.SearchRequest) (*tool.SearchResponse, *tool.Error) {
		<-release
		return &tool.SearchResponse{Outcome: tool.OutcomeEmpty}, nil
	}}
	s := startSession(t, newTestServer(t, testSettings(), search, &fakeFetch{}, nil, nil))
	s.send(modern(1, "server/discover", ""))
	s.send(call(2, "web_search", `{"query":"rust"}`))
	waitFor(t, func() bool { return len(search.recorded()) == 1 })
	go func() {
		time.Sleep(100 * time.Millisecond)
		close(release)
	}()
	d, err := s.closeInput()
	if err != nil {
		t.Fatal(err)
	}
	if m := s.recvMsg(); m["id"] != 1.0 {
		t.Fatalf("first answer %v", m)
	}
	if m := s.recvMsg(); m["id"] != 2.0 {
		t.Fatalf("second answer %v", m)
	}
	if d > 3*time.Second {
		t.Errorf("returned after %v", d)
	}
}

// At the end of input a call that does not end in time is cancelled, gets
// no answer, and ServeStdio returns within LIM-O1 even when the service
// ignores its context.
func TestREQ_MCP_002_EndOfInputShutsDownWithinTheLimit(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		b := newBlockingFetch(ignore)
		set := testSettings()
		set.Shutdown = 500 * time.Millisecond
		s := startSession(t, newTestServer(t, set, &fakeSearch{}, b.fake(), nil, nil))
		s.send(call(1, "web_fetch", `{"url":"https://example.org/"}`))
		waitStarted(t, b)
		d, err := s.closeInput()
		if err != nil {
			t.Fatal(err)
		}
		// Generous: the bound proves that a call ignoring its context cannot
		// hold the shutdown, not the precision of timers on a busy machine.
		if d > set.Shutdown+time.Second {
			t.Errorf("ignore=%v: returned after %v, limit %v", ignore, d, set.Shutdown)
		}
		if d < 200*time.Millisecond {
			t.Errorf("ignore=%v: returned after %v without waiting for the call", ignore, d)
		}
		if l, ok := <-s.lines; ok {
			t.Errorf("an answer after shutdown: %s", l)
		}
		if !ignore {
			select {
			case <-b.cancelled:
			case <-time.After(time.Second):
				t.Error("the call was not cancelled")
			}
		}
		close(b.release)
	}
}

// SIGTERM (ctx cancelled): every call is cancelled at once and ServeStdio
// returns promptly, with a call in flight that ignores its context, and
// before any message at all.
func TestREQ_OPS_002_SignalShutsDownPromptly(t *testing.T) {
	t.Run("call in flight", func(t *testing.T) {
		b := newBlockingFetch(true)
		srv := newTestServer(t, testSettings(), &fakeSearch{}, b.fake(), nil, nil)
		inR, inW := io.Pipe()
		defer inW.Close()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		out := &logBuffer{}
		go func() { done <- srv.ServeStdio(ctx, inR, out) }()
		io.WriteString(inW, call(1, "web_fetch", `{"url":"https://example.org/"}`)+"\n")
		waitStarted(t, b)
		start := time.Now()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ServeStdio: %v", err)
			}
			// Within the shutdown time although the service ignores its
			// context (in practice at once).
			if d := time.Since(start); d > testSettings().Shutdown {
				t.Errorf("returned after %v", d)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("ServeStdio did not return")
		}
		close(b.release)
		time.Sleep(50 * time.Millisecond)
		if out.String() != "" {
			t.Errorf("an answer after the signal: %q", out.String())
		}
	})
	t.Run("before the first message", func(t *testing.T) {
		srv := newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil)
		inR, inW := io.Pipe()
		defer inW.Close()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- srv.ServeStdio(ctx, inR, io.Discard) }()
		start := time.Now()
		cancel()
		select {
		case <-done:
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("returned after %v", d)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("ServeStdio did not return")
		}
	})
	t.Run("end of input before the first message", func(t *testing.T) {
		srv := newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil)
		start := time.Now()
		if err := srv.ServeStdio(context.Background(), strings.NewReader(""), io.Discard); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("returned after %v", d)
		}
	})
}

// A write error ends the serving with an error.
func TestREQ_MCP_002_WriteErrorEndsServing(t *testing.T) {
	srv := newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, nil, nil)
	inR, inW := io.Pipe()
	defer inW.Close()
	outR, outW := io.Pipe()
	outR.Close()
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), inR, outW) }()
	io.WriteString(inW, modern(1, "tools/list", "")+"\n")
	select {
	case err := <-done:
		if err == nil {
			t.Error("no error for a closed output")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return")
	}
}

// A line above LIM-O3 is dropped without an answer and the next line is
// answered (the exact boundary is in TestLineReaderBoundary).
func TestREQ_MCP_002_LongLineIsDropped(t *testing.T) {
	logs := &logBuffer{}
	srv := newTestServer(t, testSettings(), &fakeSearch{}, &fakeFetch{}, logs, nil)
	prefix := `{"jsonrpc":"2.0","id":"big","method":"tools/list","params":{` + modernMeta + `,"pad":"`
	suffix := `"}}` + "\n"
	// With its newline the line is one byte above the limit.
	pad := strings.Repeat("x", maxLineBytes+1-len(prefix)-len(suffix))
	in := io.MultiReader(strings.NewReader(prefix), strings.NewReader(pad), strings.NewReader(suffix),
		strings.NewReader(modern("after", "tools/list", "")+"\n"))
	out := &logBuffer{}
	if err := srv.ServeStdio(context.Background(), in, out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], `{"jsonrpc":"2.0","id":"after",`) {
		t.Fatalf("answers: %d, first %.60s", len(lines), lines[0])
	}
	if !strings.Contains(logs.String(), `"event":"line_too_long"`) {
		t.Error("the dropped line was not logged")
	}
}

// The limit counts the newline: a line of limit bytes with its newline is
// read, one byte more is dropped, also for a last line without newline.
func TestLineReaderBoundary(t *testing.T) {
	const limit = 8
	cases := []struct {
		in   string
		want string
	}{
		{"1234567\n", "1234567"},
		{"12345678\n", "<dropped>"},
		{"123456\r\n", "123456"},
		{"1234567", "1234567"},
		{"12345678", "<dropped>"},
	}
	for _, tc := range cases {
		for _, bufBytes := range []int{16, 4096} {
			lr := newLineReader(strings.NewReader(tc.in), limit)
			lr.r = bufio.NewReaderSize(strings.NewReader(tc.in), bufBytes)
			l, err := lr.next()
			got := string(l)
			if err == errLineTooLong {
				got = "<dropped>"
			} else if err != nil {
				t.Fatalf("%q: %v", tc.in, err)
			}
			if got != tc.want {
				t.Errorf("%q (buffer %d): %q, want %q", tc.in, bufBytes, got, tc.want)
			}
		}
	}
}

func TestLineReader(t *testing.T) {
	in := "a\r\n\nb\n" + strings.Repeat("y", 20) + "\nlast"
	lr := newLineReader(strings.NewReader(in), 10)
	var got []string
	for {
		l, err := lr.next()
		if err == errLineTooLong {
			got = append(got, "<dropped>")
			continue
		}
		if err != nil {
			break
		}
		got = append(got, string(l))
	}
	want := []string{"a", "", "b", "<dropped>", "last"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", got, want)
	}
}

// fakeWaits are waits a test ends by hand: each timer asked for is
// reported on made and fires when the test fires its duration.
type fakeWaits struct {
	made   chan time.Duration
	mu     sync.Mutex
	timers map[time.Duration][]chan time.Time
}

func newFakeWaits() *fakeWaits {
	return &fakeWaits{made: make(chan time.Duration, 16), timers: map[time.Duration][]chan time.Time{}}
}

func (f *fakeWaits) timer(d time.Duration) (<-chan time.Time, func() bool) {
	c := make(chan time.Time, 1)
	f.mu.Lock()
	f.timers[d] = append(f.timers[d], c)
	f.mu.Unlock()
	f.made <- d
	return c, func() bool { return true }
}

func (f *fakeWaits) ticker(time.Duration) (<-chan time.Time, func()) {
	return make(chan time.Time), func() {}
}

// fire ends every timer of duration d asked for so far.
func (f *fakeWaits) fire(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.timers[d] {
		c <- time.Time{}
	}
	f.timers[d] = nil
}

// TestREQ_OPS_002_ShutdownDeadlinesAreTheServersWaits: when the input ends
// with a call in flight that ignores its context, ServeStdio asks the
// Server's waits for the writer's and the calls' deadlines, and returns
// when the calls' deadline fires, however long the shutdown time: the
// waits are injected, not taken from the wall clock.
func TestREQ_OPS_002_ShutdownDeadlinesAreTheServersWaits(t *testing.T) {
	b := newBlockingFetch(true)
	defer close(b.release)
	set := testSettings()
	set.Shutdown = time.Hour
	srv := newTestServer(t, set, &fakeSearch{}, b.fake(), nil, nil)
	waits := newFakeWaits()
	srv.waits = waits
	inR, inW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), inR, io.Discard) }()
	io.WriteString(inW, call(1, "web_fetch", `{"url":"https://example.org/"}`)+"\n")
	waitStarted(t, b)
	inW.Close()
	margin := shutdownMargin(time.Hour)
	want := map[time.Duration]bool{time.Hour - margin/2: true, time.Hour - margin: true}
	for range 2 {
		select {
		case d := <-waits.made:
			if !want[d] {
				t.Fatalf("a wait of %v asked for; want the writer's %v and the calls' %v", d, time.Hour-margin/2, time.Hour-margin)
			}
			delete(want, d)
		case <-time.After(5 * time.Second):
			t.Fatal("no shutdown deadline was asked of the waits")
		}
	}
	select {
	case err := <-done:
		t.Fatalf("ServeStdio returned before its deadline fired: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	waits.fire(time.Hour - margin)
	waits.fire(time.Hour - margin/2)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return when its deadlines fired")
	}
}
