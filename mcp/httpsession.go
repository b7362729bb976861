package mcp

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"
)

// Sessions of the handshake-based revisions over HTTP: an initialize opens
// one (at most LIM-H6 live, 503 beyond), its id travels in Mcp-Session-Id,
// DELETE ends it, and it expires after sessionIdle without traffic. A
// session belongs to the caller that opened it. This file holds the table
// of those sessions; http.go opens, finds and ends them in answer to the
// requests.

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
