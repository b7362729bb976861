package mcp

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"
)

// A session is one conversation with one caller, whatever carries it: a
// stdio stream is one session; an HTTP POST of the stateless revision is a
// session of one request; a handshake-era HTTP session lives as long as
// its Mcp-Session-Id. It holds the revision an initialize chose, the
// caller, the calls in flight and where the answers go.
type session struct {
	srv    *Server
	caller string
	out    answerWriter
	// legacyOff: the handshake-based revisions are not served on this
	// transport (initialize is -32022, discovery lists 2026-07-28 alone).
	legacyOff bool

	mu       sync.Mutex
	closing  bool
	inflight map[string]*inflight
	calls    sync.WaitGroup

	negotiated atomic.Pointer[revision] // set by initialize
}

// answerWriter is where a session's answers go. write writes one whole
// answer, head then tail, unless gate.keep (called under the writer's
// lock, so that a cancellation and the write of the same call are ordered)
// reports false. id is the raw id of the answer (nil: null), for a
// transport that routes answers by request.
type answerWriter interface {
	write(id []byte, gate answerGate, head, tail []byte)
}

func newSession(srv *Server, caller string, out answerWriter) *session {
	return &session{srv: srv, caller: caller, out: out, inflight: make(map[string]*inflight)}
}

// outMsg is one encoded answer: head and tail written one after the other
// make one message. An answer of a call is dropped when the call was
// cancelled before it could be written.
type outMsg struct {
	call *inflight
	id   []byte
	head []byte
	tail []byte
}

// inflight is a tools/call that has not been answered yet.
type inflight struct {
	key       string
	cancel    context.CancelFunc
	cancelled bool // guarded by session.mu: no answer may be written
	finished  bool // guarded by session.mu: the answer is being written
}

// reply answers id with a result; tail comes from resultTail.
func (ss *session) reply(id, tail []byte) {
	ss.send(outMsg{id: id, head: idHead(id), tail: tail})
}

// replyError answers id (nil: null) with a protocol error.
func (ss *session) replyError(id []byte, e *rpcError) {
	ss.send(outMsg{id: id, head: idHead(id), tail: errorTail(e)})
}

// send hands one answer to the writer, unless it belongs to a call that
// was cancelled.
func (ss *session) send(m outMsg) {
	ss.out.write(m.id, answerGate{ss: ss, call: m.call}, m.head, m.tail)
}

// answerGate decides, under the writer's lock, whether an answer is still
// wanted: an answer of a call is not when the call was cancelled. Passed by
// value, it costs no allocation.
type answerGate struct {
	ss   *session
	call *inflight
}

// keep reports whether the answer may be written, and retires its call
// from the table of calls in flight.
func (g answerGate) keep() bool {
	if g.call == nil {
		return true
	}
	ss := g.ss
	ss.mu.Lock()
	dropped := g.call.cancelled
	if ss.inflight[g.call.key] == g.call {
		delete(ss.inflight, g.call.key)
	}
	ss.mu.Unlock()
	return !dropped
}

func (ss *session) stopAccepting() {
	ss.mu.Lock()
	ss.closing = true
	ss.mu.Unlock()
}

func (ss *session) isClosing() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.closing
}

// cancelAll cancels every call still running; none of them will be
// answered. A call whose answer is already queued keeps it.
func (ss *session) cancelAll() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, f := range ss.inflight {
		if !f.finished {
			f.cancelled = true
			f.cancel()
		}
	}
}

// cancelCall cancels the call of one request id key, if it is in flight:
// notifications/cancelled on stdio, a closed response stream on HTTP.
func (ss *session) cancelCall(key string) {
	ss.mu.Lock()
	if f := ss.inflight[key]; f != nil {
		f.cancelled = true
		f.cancel()
	}
	ss.mu.Unlock()
}

// waitCalls waits until every call has ended, or until stop or ctx is
// done.
func (ss *session) waitCalls(ctx context.Context, stop <-chan time.Time) {
	done := make(chan struct{})
	go func() {
		ss.calls.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-stop:
	case <-ctx.Done():
	}
}

// handleMessage answers one message of the session. Everything but
// tools/call is answered here, in the order received; a tools/call runs on
// its own goroutine.
func (ss *session) handleMessage(raw []byte) {
	m, id, rerr := decodeMessage(raw)
	if rerr != nil {
		ss.srv.log.Debug(eventProtocolErr, "code", rerr.code)
		ss.replyError(id, rerr)
		return
	}
	if m == nil {
		return
	}
	ss.handleDecoded(m)
}

// handleDecoded answers a decoded message.
func (ss *session) handleDecoded(m *message) {
	switch m.kind {
	case kindResponse:
		return
	case kindNotification:
		ss.handleNotification(m)
		return
	}
	defer func() {
		if recover() != nil {
			ss.srv.log.Error(eventPanic, "method", safeMethod(m.method))
			ss.replyError(m.id, &rpcError{code: codeInternalError, message: "Internal error"})
		}
	}()
	ss.handleRequest(m)
}

func (ss *session) handleNotification(m *message) {
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
		ss.cancelCall(key)
	case "notifications/initialized":
		// The handshake is complete once initialize was answered; the
		// notification changes nothing.
	}
}

// safeMethod keeps a method name for a log line only when it is one of ours.
func safeMethod(m string) string {
	switch m {
	case "initialize", "ping", "server/discover", "tools/list", "tools/call",
		"prompts/list", "resources/list", "resources/templates/list":
		return m
	}
	return "other"
}

// handleRequest chooses the revision of the request and serves it.
func (ss *session) handleRequest(m *message) {
	if m.method == "initialize" {
		ss.initialize(m)
		return
	}
	if meta, ok := metaOf(m); ok {
		if _, modern := meta[metaProtocolVersion]; modern {
			rev, rerr := ss.modernRevision(meta)
			if rerr != nil {
				ss.replyError(m.id, rerr)
				return
			}
			ss.serve(m, rev)
			return
		}
	}
	switch m.method {
	case "server/discover":
		// The discovery of the stateless revision needs its metadata.
		ss.replyError(m.id, ss.unsupportedVersion(""))
	case "ping":
		ss.reply(m.id, resultTail([]byte("{}")))
	case "tools/list", "tools/call":
		rev := ss.negotiated.Load()
		if rev == nil {
			ss.replyError(m.id, &rpcError{code: codeInvalidRequest,
				message: "Invalid Request: not initialized; send initialize first, or give _meta " + metaProtocolVersion})
			return
		}
		ss.serve(m, rev)
	default:
		ss.replyError(m.id, methodNotFound())
	}
}

func methodNotFound() *rpcError {
	return &rpcError{code: codeMethodNotFound, message: "Method not found"}
}

func metaOf(m *message) (map[string]json.RawMessage, bool) {
	raw, ok := m.params["_meta"]
	if !ok || firstByte(raw) != '{' {
		return nil, false
	}
	return members(raw) // raw is part of a message already validated
}

// modernRevision checks the per-request metadata of the stateless
// revision: a served version (else -32022) and a capabilities object (else
// -32602, as the revision says of a missing required field).
func (ss *session) modernRevision(meta map[string]json.RawMessage) (*revision, *rpcError) {
	v, isStr := stringArg(meta[metaProtocolVersion])
	rev := revisionOf(v)
	if !isStr || rev == nil || !rev.stateless {
		return nil, ss.unsupportedVersion(v)
	}
	if caps, ok := meta[metaClientCapabilities]; !ok || firstByte(caps) != '{' {
		// A request without a required per-request field is malformed
		// (2026-07-28, basic: -32602), not of an unsupported version.
		return nil, &rpcError{code: codeInvalidParams,
			message: "Invalid params: _meta must carry " + metaClientCapabilities + " (an object)"}
	}
	return rev, nil
}

// unsupportedVersion is the error -32022 with the versions this session
// serves; requested is echoed only when it looks like a version, and is
// empty otherwise.
func (ss *session) unsupportedVersion(requested string) *rpcError {
	if !versionShaped(requested) {
		requested = ""
	}
	supported := supportedVersions()
	if ss.legacyOff {
		supported = statelessVersions()
	}
	return &rpcError{
		code:    codeUnsupportedVersion,
		message: "Unsupported protocol version",
		data: jsonObj{
			{"supported", supported},
			{"requested", requested},
		},
	}
}

// initialize answers the handshake of the earlier revisions: the client's
// revision when it is served, else 2025-11-25. A session has one
// handshake: a second initialize is -32600 and the first revision stays.
func (ss *session) initialize(m *message) {
	v, isStr := stringArg(m.params["protocolVersion"])
	if !isStr {
		ss.replyError(m.id, &rpcError{code: codeInvalidParams,
			message: "Invalid params: protocolVersion must be a string"})
		return
	}
	if ss.legacyOff {
		ss.replyError(m.id, ss.unsupportedVersion(v))
		return
	}
	rev := revisionOf(v)
	if rev == nil || rev.stateless {
		rev = revisionOf(versionDefault)
	}
	if !ss.negotiated.CompareAndSwap(nil, rev) {
		// One handshake per session: a second one would change the
		// revision under the calls of the first (the session keeps it).
		ss.replyError(m.id, &rpcError{code: codeInvalidRequest,
			message: "Invalid Request: this session is initialized already (protocol revision " +
				ss.negotiated.Load().version + "); one initialize per session"})
		return
	}
	ss.reply(m.id, ss.srv.catalog.forRevision(rev).initializeTail)
}

// serve answers a request of a known revision.
func (ss *session) serve(m *message, rev *revision) {
	switch m.method {
	case "server/discover":
		if !rev.stateless {
			ss.replyError(m.id, methodNotFound())
			return
		}
		if ss.legacyOff {
			ss.reply(m.id, ss.srv.catalog.discoverStatelessTail)
			return
		}
		ss.reply(m.id, ss.srv.catalog.discoverTail)
	case "ping":
		if !rev.ping {
			ss.replyError(m.id, methodNotFound())
			return
		}
		ss.reply(m.id, resultTail(pingResult(rev)))
	case "tools/list":
		if raw, ok := m.params["cursor"]; ok && string(raw) != "null" {
			ss.replyError(m.id, &rpcError{code: codeInvalidParams, message: "Invalid cursor"})
			return
		}
		ss.reply(m.id, ss.srv.catalog.forRevision(rev).toolsListTail)
	case "tools/call":
		ss.startCall(m, rev)
	case "prompts/list", "resources/list", "resources/templates/list":
		if !rev.cacheHints {
			ss.replyError(m.id, methodNotFound())
			return
		}
		ss.reply(m.id, resultTail(ss.srv.catalog.emptyList(rev, emptyLists[m.method])))
	default:
		ss.replyError(m.id, methodNotFound())
	}
}

func pingResult(rev *revision) []byte {
	if rev.resultType {
		return []byte(`{"resultType":"complete"}`)
	}
	return []byte("{}")
}

// startCall checks a tools/call request and runs it on its own goroutine.
// An unknown tool and a malformed request are protocol errors; everything
// else ends as a tool result.
func (ss *session) startCall(m *message, rev *revision) {
	name, isStr := stringArg(m.params["name"])
	if !isStr {
		ss.replyError(m.id, &rpcError{code: codeInvalidParams, message: "Invalid params: name must be a string"})
		return
	}
	spec := ss.srv.catalog.lookup(name)
	if spec == nil {
		msg := "Unknown tool"
		if toolNameShaped(name) {
			msg += ": " + name
		}
		ss.replyError(m.id, &rpcError{code: codeInvalidParams, message: msg})
		return
	}
	key, _ := idKey(m.id)
	ctx, cancel := context.WithCancel(context.Background())
	f := &inflight{key: key, cancel: cancel}
	ss.mu.Lock()
	if ss.closing {
		ss.mu.Unlock()
		cancel()
		return
	}
	if _, dup := ss.inflight[key]; dup {
		ss.mu.Unlock()
		cancel()
		ss.replyError(m.id, &rpcError{code: codeInvalidRequest, message: "Invalid Request: this id is already used by a call in flight"})
		return
	}
	ss.inflight[key] = f
	ss.calls.Add(1)
	ss.mu.Unlock()

	args := m.params["arguments"]
	go func() {
		defer ss.calls.Done()
		defer cancel()
		line, ok := ss.srv.runCall(ctx, ss.caller, spec, args, rev)
		if ok {
			ss.mu.Lock()
			f.finished = true
			ss.mu.Unlock()
			ss.send(outMsg{call: f, id: m.id, head: idHead(m.id), tail: resultTail(line)})
			return
		}
		ss.mu.Lock()
		if ss.inflight[key] == f {
			delete(ss.inflight, key)
		}
		ss.mu.Unlock()
	}()
}
