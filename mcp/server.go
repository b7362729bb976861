package mcp

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"rypsok/tool"
)

// Server serves the three tools. One Server may serve several sessions on
// several transports at once; what is here is the process's: the tool
// catalog, the rate limits per caller and tool, and the refusal counters
// with their minute ticker.
type Server struct {
	set     Settings
	search  Searcher
	fetch   Fetcher
	log     *slog.Logger
	now     func() time.Time
	waits   waits // the shutdown deadlines, the counters' ticker, the accept back-off (clock.go)
	catalog *catalog
	seq     atomic.Uint64
	refused refusalCounters

	limitsMu sync.Mutex
	limits   map[limitKey]*windowLimiter

	// The counters ticker runs while at least one transport serves.
	servingMu   sync.Mutex
	serving     int
	tickerStop  chan struct{}
	tickerEnded chan struct{}
}

// limitKey names one rate limiter: a caller's limit of one tool
// (REQ-MCP-010, REQ-SEC-019).
type limitKey struct {
	caller string
	tool   string
}

// New returns a server. now is the clock of the rate limits and of the
// request ids. A nil search or fetch service leaves its tools out of the
// list; a nil logger discards, a nil clock is the wall clock.
func New(s Settings, search Searcher, fetch Fetcher, log *slog.Logger, now func() time.Time) *Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = wallClock
	}
	if s.Shutdown <= 0 {
		s.Shutdown = defaultShutdown
	}
	s.Languages = append([]string(nil), s.Languages...)
	var served []tool.Category
	if search != nil {
		served = search.Categories()
	}
	return &Server{
		set:     s,
		search:  search,
		fetch:   fetch,
		log:     log,
		now:     now,
		waits:   wallWaits{},
		catalog: newCatalog(s, served, search, fetch),
		limits:  make(map[limitKey]*windowLimiter),
	}
}

// limiter returns the rate limiter of a caller's calls of one tool,
// creating it at the caller's first call of the tool. Callers are the
// configured ones (or local), so the map stays small.
func (s *Server) limiter(caller string, spec *toolSpec) *windowLimiter {
	k := limitKey{caller: caller, tool: spec.name}
	s.limitsMu.Lock()
	defer s.limitsMu.Unlock()
	l := s.limits[k]
	if l == nil {
		l = newWindowLimiter(spec.limit)
		s.limits[k] = l
	}
	return l
}

// startServing is called by a transport when it starts; the returned
// function when it ends. The counters event is written once a minute while
// any transport serves, and once more when the last one ends.
func (s *Server) startServing() (end func()) {
	s.servingMu.Lock()
	s.serving++
	if s.serving == 1 {
		s.tickerStop = make(chan struct{})
		s.tickerEnded = make(chan struct{})
		go s.countersLoop(s.tickerStop, s.tickerEnded)
	}
	s.servingMu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.servingMu.Lock()
			s.serving--
			last := s.serving == 0
			var stop, ended chan struct{}
			if last {
				stop, ended = s.tickerStop, s.tickerEnded
			}
			s.servingMu.Unlock()
			if last {
				close(stop)
				<-ended
				s.refused.flush(context.Background(), s.log)
			}
		})
	}
}

func (s *Server) countersLoop(stop <-chan struct{}, ended chan<- struct{}) {
	defer close(ended)
	tick, stopTicker := s.waits.ticker(counterInterval)
	defer stopTicker()
	for {
		select {
		case <-tick:
			s.refused.flush(context.Background(), s.log)
		case <-stop:
			return
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
