package mcp

// What the metrics listener reads from the protocol: refusals as they are
// counted (the counters event's numbers, without waiting for the minute)
// and the sessions open. Nothing of a request is passed on.

// ObserveRefusals has f see every refusal as it is counted: scope is a
// tool name or "http" (the listener), reason a word of the vocabulary.
// Call it before serving; f must not block.
func (s *Server) ObserveRefusals(f func(scope, reason string)) {
	s.refused.mu.Lock()
	s.refused.observe = f
	s.refused.mu.Unlock()
}

// Sessions is the number of open sessions of the handshake-based
// revisions (LIM-H6 bounds it).
func (l *Listener) Sessions() int {
	l.sessions.mu.Lock()
	defer l.sessions.mu.Unlock()
	return len(l.sessions.m)
}
