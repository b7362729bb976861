package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"rypsok/tool"
)

// Searcher is what mcp needs of the search service.
type Searcher interface {
	Search(ctx context.Context, req tool.SearchRequest) (*tool.SearchResponse, *tool.Error)
	Status(ctx context.Context) *tool.StatusResponse
	Categories() []tool.Category
}

// Fetcher is what mcp needs of the fetch service.
type Fetcher interface {
	Fetch(ctx context.Context, req tool.FetchRequest) (*tool.FetchResponse, *tool.Error)
}

// Settings are the values of the configuration that shape the protocol
// surface. A zero rate (SearchPerMinute, FetchPerMinute, StatusPerMinute)
// takes the default of LIM-C6 to LIM-C8, a zero Shutdown that of LIM-O1.
type Settings struct {
	Version           string // rypsok's version, for serverInfo
	StructuredContent bool
	Shutdown          time.Duration // LIM-O1
	StatusEnabled     bool

	SearchPerMinute int // LIM-C6
	FetchPerMinute  int // LIM-C7
	StatusPerMinute int // LIM-C8

	Languages         []string // the first is the default
	MaxResults        int
	MaxResultsCeiling int
	QueryMaxChars     int
	MaxChars          int
	MaxCharsCeiling   int
}

const (
	defaultShutdown = 3 * time.Second
	callerStdio     = "local"
)

// Server serves the three tools. One Server may serve several streams; its
// rate limits and counters are the process's.
type Server struct {
	set     Settings
	search  Searcher
	fetch   Fetcher
	log     *slog.Logger
	now     func() time.Time
	catalog *catalog
	limits  map[string]*windowLimiter
	seq     atomic.Uint64
	refused refusalCounters
}

// New returns a server. now is the clock of the rate limits. A nil search
// or fetch service leaves its tools out of the list; a nil logger discards,
// a nil clock is time.Now.
func New(s Settings, search Searcher, fetch Fetcher, log *slog.Logger, now func() time.Time) *Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	if s.Shutdown <= 0 {
		s.Shutdown = defaultShutdown
	}
	s.Languages = append([]string(nil), s.Languages...)
	var served []tool.Category
	if search != nil {
		served = search.Categories()
	}
	srv := &Server{
		set:     s,
		search:  search,
		fetch:   fetch,
		log:     log,
		now:     now,
		catalog: newCatalog(s, served, search != nil, fetch != nil),
		limits: map[string]*windowLimiter{
			tool.ToolWebSearch:    newWindowLimiter(orDefault(s.SearchPerMinute, defaultSearchPerMinute)),
			tool.ToolWebFetch:     newWindowLimiter(orDefault(s.FetchPerMinute, defaultFetchPerMinute)),
			tool.ToolEngineStatus: newWindowLimiter(orDefault(s.StatusPerMinute, defaultStatusPerMinute)),
		},
	}
	return srv
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// ServeStdio reads requests from in and writes answers to out until in ends
// or ctx is cancelled (SIGTERM), then aborts the calls in flight and returns
// within the shutdown time.
//
// At the end of in, the calls in flight may finish and answer until shortly
// before Settings.Shutdown; the rest are cancelled and get no answer. When
// ctx is cancelled every call is cancelled at once. Both return nil; an
// error is returned when reading in fails or writing out fails.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	c := newConn(s, out)

	readDone := make(chan error, 1)
	go func() { readDone <- c.readLoop(in) }()

	ticker := time.NewTicker(counterInterval)
	defer ticker.Stop()
	defer s.refused.flush(context.Background(), s.log)

	for {
		select {
		case <-ticker.C:
			s.refused.flush(context.Background(), s.log)
		case <-ctx.Done():
			start := time.Now()
			c.stopAccepting()
			c.cancelAll()
			c.stopWriter(start.Add(s.set.Shutdown - shutdownMargin(s.set.Shutdown)/2))
			return c.writeErr()
		case err := <-readDone:
			start := time.Now()
			margin := shutdownMargin(s.set.Shutdown)
			c.stopAccepting()
			c.waitCalls(ctx, start.Add(s.set.Shutdown-margin))
			c.cancelAll()
			c.stopWriter(start.Add(s.set.Shutdown - margin/2))
			if err != nil && !errors.Is(err, io.EOF) {
				return fmt.Errorf("mcp: reading the input: %w", err)
			}
			return c.writeErr()
		case <-c.writeFailed:
			c.stopAccepting()
			c.cancelAll()
			c.stopWriter(time.Now())
			return c.writeErr()
		}
	}
}

// shutdownMargin is the part of the shutdown time kept for writing the last
// answers and for the exit of the process: a tenth, between 100 ms and
// 500 ms, at most half.
func shutdownMargin(d time.Duration) time.Duration {
	m := d / 10
	if m < 100*time.Millisecond {
		m = 100 * time.Millisecond
	}
	if m > 500*time.Millisecond {
		m = 500 * time.Millisecond
	}
	if m > d/2 {
		m = d / 2
	}
	return m
}

// outMsg is one encoded answer: head and tail written one after the other
// make one line. An answer of a call is dropped when the call was
// cancelled before it could be written.
type outMsg struct {
	call *inflight
	head []byte
	tail []byte
}

// reply answers id with a result; tail comes from resultTail.
func (c *conn) reply(id, tail []byte) {
	c.send(outMsg{head: idHead(id), tail: tail})
}

// replyError answers id (nil: null) with a protocol error.
func (c *conn) replyError(id []byte, e *rpcError) {
	c.send(outMsg{head: idHead(id), tail: errorTail(e)})
}

// inflight is a tools/call that has not been answered yet.
type inflight struct {
	key       string
	cancel    context.CancelFunc
	cancelled bool // guarded by conn.mu: no answer may be written
	finished  bool // guarded by conn.mu: the answer is being written
}

// conn is one stream: its writer, its calls in flight, and the revision an
// initialize chose for the handshake-based revisions.
type conn struct {
	s *Server

	// The writer: one whole line per answer, written and flushed by the
	// goroutine that produced it while it holds wlock (a channel of one, so
	// that shutdown can wait for it with a deadline). Writing in place of
	// handing the answer to a writer goroutine spares a wake-up per answer.
	wlock       chan struct{}
	w           *bufio.Writer
	wstopped    bool          // guarded by wlock: later answers are dropped
	writeFailed chan struct{} // closed when a write failed
	failOnce    sync.Once
	werr        error

	mu       sync.Mutex
	closing  bool
	inflight map[string]*inflight
	calls    sync.WaitGroup

	negotiated atomic.Pointer[revision] // set by initialize
}

func newConn(s *Server, out io.Writer) *conn {
	return &conn{
		s:           s,
		wlock:       make(chan struct{}, 1),
		w:           bufio.NewWriterSize(out, 64<<10),
		writeFailed: make(chan struct{}),
		inflight:    make(map[string]*inflight),
	}
}

func (c *conn) writeErr() error {
	select {
	case <-c.writeFailed:
		return c.werr
	default:
		return nil
	}
}

// send writes one answer as a whole line, unless the writer was stopped or
// has failed, or the answer belongs to a call that was cancelled.
func (c *conn) send(m outMsg) {
	c.wlock <- struct{}{}
	defer func() { <-c.wlock }()
	if c.wstopped {
		return
	}
	if m.call != nil {
		c.mu.Lock()
		dropped := m.call.cancelled
		if c.inflight[m.call.key] == m.call {
			delete(c.inflight, m.call.key)
		}
		c.mu.Unlock()
		if dropped {
			return
		}
	}
	c.w.Write(m.head)
	c.w.Write(m.tail)
	if err := c.w.Flush(); err != nil {
		c.wstopped = true
		c.failOnce.Do(func() {
			c.werr = fmt.Errorf("mcp: writing the output: %w", err)
			close(c.writeFailed)
		})
	}
}

// stopWriter waits for an answer being written, until deadline at most,
// and drops every later one.
func (c *conn) stopWriter(deadline time.Time) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case c.wlock <- struct{}{}:
		c.wstopped = true
		<-c.wlock
	case <-t.C:
	}
}

func (c *conn) stopAccepting() {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
}

// cancelAll cancels every call still running; none of them will be
// answered. A call whose answer is already queued keeps it.
func (c *conn) cancelAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.inflight {
		if !f.finished {
			f.cancelled = true
			f.cancel()
		}
	}
}

// waitCalls waits until every call has ended, deadline passed or ctx is
// cancelled.
func (c *conn) waitCalls(ctx context.Context, deadline time.Time) {
	done := make(chan struct{})
	go func() {
		c.calls.Wait()
		close(done)
	}()
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	case <-ctx.Done():
	}
}

// readLoop reads and handles lines until the input ends.
func (c *conn) readLoop(in io.Reader) error {
	lr := newLineReader(in, maxLineBytes)
	for {
		line, err := lr.next()
		if err == errLineTooLong {
			c.s.log.Warn(eventLineTooLong, "limit_bytes", maxLineBytes)
			continue
		}
		if err != nil {
			return err
		}
		c.mu.Lock()
		closing := c.closing
		c.mu.Unlock()
		if closing {
			return nil
		}
		c.handleLine(line)
	}
}

// handleLine answers one line. Everything but tools/call is answered here,
// in the order read; a tools/call runs on its own goroutine.
func (c *conn) handleLine(line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	m, id, rerr := decodeMessage(line)
	if rerr != nil {
		c.s.log.Debug(eventProtocolErr, "code", rerr.code)
		c.replyError(id, rerr)
		return
	}
	if m == nil {
		return
	}
	switch m.kind {
	case kindResponse:
		return
	case kindNotification:
		c.handleNotification(m)
		return
	}
	defer func() {
		if recover() != nil {
			c.s.log.Error(eventPanic, "method", safeMethod(m.method))
			c.replyError(m.id, &rpcError{code: codeInternalError, message: "Internal error"})
		}
	}()
	c.handleRequest(m)
}

func (c *conn) handleNotification(m *message) {
	switch m.method {
	case "notifications/cancelled":
		raw, ok := m.params["requestId"]
		if !ok {
			return
		}
		key, ok := idKey(raw)
		if !ok {
			return
		}
		c.mu.Lock()
		if f := c.inflight[key]; f != nil {
			f.cancelled = true
			f.cancel()
		}
		c.mu.Unlock()
	case "notifications/initialized":
		// The handshake is complete once initialize was answered; the
		// notification changes nothing.
	}
}

// safeMethod keeps a method name for a log line only when it is one of ours.
func safeMethod(m string) string {
	switch m {
	case "initialize", "ping", "server/discover", "tools/list", "tools/call":
		return m
	}
	return "other"
}

// handleRequest chooses the revision of the request and serves it.
func (c *conn) handleRequest(m *message) {
	if m.method == "initialize" {
		c.initialize(m)
		return
	}
	if meta, ok := metaOf(m); ok {
		if _, modern := meta[metaProtocolVersion]; modern {
			rev, rerr := modernRevision(meta)
			if rerr != nil {
				c.replyError(m.id, rerr)
				return
			}
			c.serve(m, rev)
			return
		}
	}
	switch m.method {
	case "server/discover":
		// The discovery of the stateless revision needs its metadata.
		c.replyError(m.id, unsupportedVersion(""))
	case "ping":
		c.reply(m.id, resultTail([]byte("{}")))
	case "tools/list", "tools/call":
		rev := c.negotiated.Load()
		if rev == nil {
			c.replyError(m.id, &rpcError{code: codeInvalidRequest,
				message: "Invalid Request: not initialized; send initialize first, or give _meta " + metaProtocolVersion})
			return
		}
		c.serve(m, rev)
	default:
		c.replyError(m.id, methodNotFound())
	}
}

func methodNotFound() *rpcError {
	return &rpcError{code: codeMethodNotFound, message: "Method not found"}
}

func metaOf(m *message) (map[string]rawValue, bool) {
	raw, ok := m.params["_meta"]
	if !ok || firstByte(raw) != '{' {
		return nil, false
	}
	return members(raw) // raw is part of a message already validated
}

// modernRevision checks the per-request metadata of the stateless
// revision: a served version (else -32022) and a capabilities object (else
// -32602, as the revision says of a missing required field).
func modernRevision(meta map[string]rawValue) (*revision, *rpcError) {
	v, isStr := stringArg(meta[metaProtocolVersion])
	rev := revisionOf(v)
	if !isStr || rev == nil || !rev.stateless {
		return nil, unsupportedVersion(v)
	}
	if caps, ok := meta[metaClientCapabilities]; !ok || firstByte(caps) != '{' {
		// A request without a required per-request field is malformed
		// (2026-07-28, basic: -32602), not of an unsupported version.
		return nil, &rpcError{code: codeInvalidParams,
			message: "Invalid params: _meta must carry " + metaClientCapabilities + " (an object)"}
	}
	return rev, nil
}

// unsupportedVersion is the error -32022; requested is echoed only when it
// looks like a version, and is empty otherwise.
func unsupportedVersion(requested string) *rpcError {
	if !versionShaped(requested) {
		requested = ""
	}
	return &rpcError{
		code:    codeUnsupportedVersion,
		message: "Unsupported protocol version",
		data: jsonObj{
			{"supported", supportedVersions()},
			{"requested", requested},
		},
	}
}

// initialize answers the handshake of the earlier revisions: the client's
// revision when it is served, else 2025-11-25.
func (c *conn) initialize(m *message) {
	v, isStr := stringArg(m.params["protocolVersion"])
	if !isStr {
		c.replyError(m.id, &rpcError{code: codeInvalidParams,
			message: "Invalid params: protocolVersion must be a string"})
		return
	}
	rev := revisionOf(v)
	if rev == nil || rev.stateless {
		rev = revisionOf(versionDefault)
	}
	c.negotiated.Store(rev)
	c.reply(m.id, c.s.catalog.forRevision(rev).initializeTail)
}

// serve answers a request of a known revision.
func (c *conn) serve(m *message, rev *revision) {
	switch m.method {
	case "server/discover":
		if !rev.stateless {
			c.replyError(m.id, methodNotFound())
			return
		}
		c.reply(m.id, c.s.catalog.discoverTail)
	case "ping":
		if !rev.ping {
			c.replyError(m.id, methodNotFound())
			return
		}
		c.reply(m.id, resultTail(pingResult(rev)))
	case "tools/list":
		if raw, ok := m.params["cursor"]; ok && string(raw) != "null" {
			c.replyError(m.id, &rpcError{code: codeInvalidParams, message: "Invalid cursor"})
			return
		}
		c.reply(m.id, c.s.catalog.forRevision(rev).toolsListTail)
	case "tools/call":
		c.startCall(m, rev)
	default:
		c.replyError(m.id, methodNotFound())
	}
}

func pingResult(rev *revision) []byte {
	if rev.resultType {
		return []byte(`{"resultType":"complete"}`)
	}
	return []byte("{}")
}
