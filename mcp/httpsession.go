package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sync"
	"time"
)

// Sessions of the handshake-based revisions over HTTP: an initialize opens
// one (at most LIM-H6 live, 503 beyond), its id travels in Mcp-Session-Id,
// DELETE ends it, and it expires after sessionIdle without traffic. A
// session belongs to the caller that opened it.

type httpSessions struct {
	srv *Server
	max int

	mu sync.Mutex
	m  map[string]*httpSession
}

type httpSession struct {
	id     string
	caller string
	ss     *session
	routes *routedAnswers
	last   time.Time // guarded by httpSessions.mu
	busy   int       // requests being served, guarded by httpSessions.mu
}

func newHTTPSessions(srv *Server, max int) *httpSessions {
	return &httpSessions{srv: srv, max: max, m: map[string]*httpSession{}}
}

// expireLocked drops the sessions idle for sessionIdle, on the injected
// clock; their calls are cancelled.
func (hs *httpSessions) expireLocked(now time.Time) {
	for id, s := range hs.m {
		if s.busy == 0 && now.Sub(s.last) >= sessionIdle {
			delete(hs.m, id)
			s.ss.stopAccepting()
			s.ss.cancelAll()
		}
	}
}

// open reserves a session for an initialize, or reports that LIM-H6
// sessions are live.
func (hs *httpSessions) open(srv *Server, caller string) (*httpSession, bool) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	now := srv.now()
	hs.expireLocked(now)
	if len(hs.m) >= hs.max {
		return nil, false
	}
	var raw [16]byte
	rand.Read(raw[:])
	id := hex.EncodeToString(raw[:])
	routes := newRoutedAnswers()
	s := &httpSession{id: id, caller: caller, ss: newSession(srv, caller, routes), routes: routes, last: now, busy: 1}
	hs.m[id] = s
	return s, true
}

// get finds a live session of caller and marks it busy; release unmarks.
func (hs *httpSessions) get(id, caller string) *httpSession {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	now := hs.srv.now()
	hs.expireLocked(now)
	s := hs.m[id]
	if s == nil || s.caller != caller {
		return nil
	}
	s.busy++
	s.last = now
	return s
}

func (hs *httpSessions) release(s *httpSession) {
	hs.mu.Lock()
	s.busy--
	s.last = hs.srv.now()
	hs.mu.Unlock()
}

// drop ends a session (DELETE, or an initialize that failed).
func (hs *httpSessions) drop(id, caller string) bool {
	hs.mu.Lock()
	s := hs.m[id]
	if s == nil || s.caller != caller {
		hs.mu.Unlock()
		return false
	}
	delete(hs.m, id)
	hs.mu.Unlock()
	s.ss.stopAccepting()
	s.ss.cancelAll()
	return true
}

func (hs *httpSessions) live() int {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	return len(hs.m)
}

func (hs *httpSessions) cancelAll() {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	for _, s := range hs.m {
		s.ss.stopAccepting()
		s.ss.cancelAll()
	}
}

// routedAnswers sends each answer of a session to the request that waits
// for it, by id.
type routedAnswers struct {
	mu     sync.Mutex
	routes map[string]chan []byte
}

func newRoutedAnswers() *routedAnswers {
	return &routedAnswers{routes: map[string]chan []byte{}}
}

// route registers the request of id key; false when one with that id is
// already waiting.
func (ra *routedAnswers) route(key string) (chan []byte, bool) {
	ra.mu.Lock()
	defer ra.mu.Unlock()
	if _, dup := ra.routes[key]; dup {
		return nil, false
	}
	ch := make(chan []byte, 1)
	ra.routes[key] = ch
	return ch, true
}

func (ra *routedAnswers) unroute(key string) {
	ra.mu.Lock()
	delete(ra.routes, key)
	ra.mu.Unlock()
}

func (ra *routedAnswers) write(id []byte, gate answerGate, head, tail []byte) {
	key, ok := idKey(id)
	if !ok {
		return
	}
	ra.mu.Lock()
	defer ra.mu.Unlock()
	ch := ra.routes[key]
	if ch == nil || !gate.keep() {
		return
	}
	delete(ra.routes, key)
	ch <- append(append(make([]byte, 0, len(head)+len(tail)), head...), tail...)
}

const headerSessionID = "Mcp-Session-Id"

// serveHandshake serves a message of a handshake revision: initialize
// opens a session, anything else needs one.
func (l *Listener) serveHandshake(ctx context.Context, w http.ResponseWriter, r *http.Request, caller string, m *message, headerVersion string) {
	sid := r.Header.Get(headerSessionID)
	if m.kind == kindRequest && m.method == "initialize" && sid == "" {
		l.initializeSession(ctx, w, r, caller, m)
		return
	}
	if sid == "" {
		l.srv.refused.add(httpCounters, reasonBadRequest)
		if m.kind == kindRequest {
			rpcRefusal(w, http.StatusBadRequest, m.id, &rpcError{code: codeInvalidRequest,
				message: "Bad Request: Session ID is required; send initialize first, or give _meta " + metaProtocolVersion})
			return
		}
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	s := l.sessions.get(sid, caller)
	if s == nil {
		// Unknown, expired or terminated: the client starts again.
		l.srv.refused.add(httpCounters, reasonNotFound)
		if m.kind == kindRequest {
			rpcRefusal(w, http.StatusNotFound, m.id, &rpcError{code: codeInvalidRequest, message: "Session not found"})
			return
		}
		w.WriteHeader(http.StatusNotFound)
		return
	}
	defer l.sessions.release(s)
	if rev := s.ss.negotiated.Load(); rev != nil && headerVersion != "" && headerVersion != rev.version {
		l.srv.refused.add(httpCounters, reasonBadRequest)
		rpcRefusal(w, http.StatusBadRequest, m.id, headerMismatch("MCP-Protocol-Version does not match the negotiated revision"))
		return
	}
	w.Header().Set(headerSessionID, s.id)
	if m.kind != kindRequest {
		s.ss.handleDecoded(m)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	key, _ := idKey(m.id)
	ch, ok := s.routes.route(key)
	if !ok {
		rpcRefusal(w, http.StatusOK, m.id, &rpcError{code: codeInvalidRequest, message: "Invalid Request: this id is already used by a call in flight"})
		return
	}
	defer s.routes.unroute(key)
	s.ss.handleDecoded(m)
	l.await(ctx, w, r, s.ss, m, ch)
}

// initializeSession opens a session for an initialize (503 at LIM-H6) and
// keeps it when the handshake succeeded.
func (l *Listener) initializeSession(ctx context.Context, w http.ResponseWriter, r *http.Request, caller string, m *message) {
	if l.set.NoLegacyRevisions {
		ss := newSession(l.srv, caller, nil)
		ss.legacyOff = true
		v, _ := stringArg(m.params["protocolVersion"])
		l.srv.refused.add(httpCounters, reasonBadRequest)
		rpcRefusal(w, http.StatusBadRequest, m.id, ss.unsupportedVersion(v))
		return
	}
	s, ok := l.sessions.open(l.srv, caller)
	if !ok {
		w.Header().Set("Retry-After", retryAfterSessions)
		l.refuse(w, r, http.StatusServiceUnavailable, reasonSessionLimit, true)
		return
	}
	key, _ := idKey(m.id)
	ch, _ := s.routes.route(key)
	s.ss.handleDecoded(m)
	select {
	case b := <-ch:
		l.sessions.release(s)
		if s.ss.negotiated.Load() == nil {
			// The handshake failed (no protocolVersion): no session.
			l.sessions.drop(s.id, caller)
		} else {
			w.Header().Set(headerSessionID, s.id)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.Write(b)
	case <-ctx.Done():
		l.sessions.release(s)
		l.sessions.drop(s.id, caller)
	}
}

// deleteSession ends a session (DELETE with its Mcp-Session-Id).
func (l *Listener) deleteSession(w http.ResponseWriter, r *http.Request, caller string) {
	sid := r.Header.Get(headerSessionID)
	if sid == "" {
		l.refuse(w, r, http.StatusBadRequest, reasonBadRequest, false)
		return
	}
	if !l.sessions.drop(sid, caller) {
		l.refuse(w, r, http.StatusNotFound, reasonNotFound, false)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
