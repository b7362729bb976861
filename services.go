package main

// services.go holds the search and fetch services as serve builds them:
// on the first call that needs them, for both transports.

import (
	"context"
	"crypto/x509"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"rypsok/egress"
	"rypsok/fetch"
	"rypsok/internal/config"
	"rypsok/search"
	"rypsok/tool"
)

// lazyServices builds the search and fetch services on the first call that
// needs them; until then it answers what the configuration alone tells.
type lazyServices struct {
	cfg        *config.Config
	log        *slog.Logger
	loadRoots  func() (*x509.CertPool, error)
	categories []tool.Category
	stop       func()     // ends serving; nil: nothing to stop
	judge      tool.Judge // the RSP plugins (rsp_cmd.go newJudge); nil: none
	once       sync.Once
	failed     atomic.Bool
	built      atomic.Bool // search and fetch are set
	search     *search.Service
	fetch      *fetch.Service
}

// stopGrace is how long serving goes on after the services failed to
// build, so that the calls that found them missing are answered first.
const stopGrace = 200 * time.Millisecond

func newLazyServices(cfg *config.Config, log *slog.Logger, loadRoots func() (*x509.CertPool, error)) *lazyServices {
	return &lazyServices{cfg: cfg, log: log, loadRoots: loadRoots, categories: search.ServedCategories(cfg.Search.Engines)}
}

// build wires the services behind the protocol and reports whether they
// exist. A failure here can only be a trust store whose certificates all
// fail to parse, or an engine without a driver: the process cannot serve.
// It is not an exit from inside a call, which would drop the answers of
// the calls in flight: every call answers unavailable, and serving stops
// after stopGrace with exit code 3.
func (l *lazyServices) build() bool {
	l.once.Do(func() {
		fail := func(reason string) {
			l.log.Error("service_failed", "reason", reason)
			l.failed.Store(true)
			if l.stop != nil {
				time.AfterFunc(stopGrace, l.stop)
			}
		}
		roots, err := l.loadRoots()
		if err != nil {
			fail("the HTTP client could not be built: no trust root could be loaded")
			return
		}
		ua := egress.UserAgent(version, l.cfg.UserAgentContact)
		f := fetch.New(l.cfg.Fetch, fetch.Deps{Logger: l.log, Now: time.Now, Roots: roots, UserAgent: ua, Judge: l.judge})
		s, err := search.New(l.cfg.Search, search.Deps{
			Logger: l.log, Now: time.Now, Roots: roots, Proxy: l.cfg.Proxy, UserAgent: ua,
			Returned: f.Remember, Judge: l.judge,
		})
		if err != nil {
			fail(err.Error())
			return
		}
		l.fetch, l.search = f, s
		l.built.Store(true)
	})
	return !l.failed.Load()
}

// Categories is known from the configuration: the categories an active
// engine serves.
func (l *lazyServices) Categories() []tool.Category { return l.categories }

func (l *lazyServices) Search(ctx context.Context, req tool.SearchRequest) (*tool.SearchResponse, *tool.Error) {
	if !l.build() {
		return nil, tool.Stopping()
	}
	return l.search.Search(ctx, req)
}

// Status without services reports no engine: the process is stopping.
func (l *lazyServices) Status(ctx context.Context) *tool.StatusResponse {
	if !l.build() {
		return &tool.StatusResponse{Engines: []tool.EngineStatus{}, Notices: []tool.Notice{}, Outcome: tool.OutcomeOK}
	}
	return l.search.Status(ctx)
}

func (l *lazyServices) Fetch(ctx context.Context, req tool.FetchRequest) (*tool.FetchResponse, *tool.Error) {
	if !l.build() {
		return nil, tool.Stopping()
	}
	return l.fetch.Fetch(ctx, req)
}
