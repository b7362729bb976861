package main

// serve_metrics.go is the metrics listener of serve ([service.metrics]):
// /metrics, /healthz and /readyz on an address of their own, with either
// transport. Every method is a no-op on a nil *opsMetrics (the listener
// off), so that serve calls them unconditionally.

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"rypsok/internal/config"
	"rypsok/internal/metrics"
	"rypsok/mcp"
	"rypsok/tool"
)

// opsMetrics is the metrics of one serve and their listener.
type opsMetrics struct {
	m        *metrics.Metrics
	bind     string
	l        *metrics.Listener
	svc      atomic.Pointer[lazyServices]
	listener atomic.Pointer[mcp.Listener]
}

// newOpsMetrics returns nil when [service.metrics] bind is empty.
func newOpsMetrics(cfg *config.Config) *opsMetrics {
	if cfg.Metrics.Bind == "" {
		return nil
	}
	o := &opsMetrics{bind: cfg.Metrics.Bind}
	set := metrics.Settings{
		Version:   version,
		GoVersion: runtime.Version(),
		Tools:     []string{tool.ToolWebSearch, tool.ToolWebFetch, tool.ToolEngineStatus},
		Now:       time.Now,
		Outbound: func() (int, int) {
			if s := o.services(); s != nil {
				return s.search.OutboundInFlight()
			}
			return 0, cfg.Search.OutboundInFlight
		},
		Fetches: func() (int, int) {
			if s := o.services(); s != nil {
				n, limit, _, _ := s.fetch.InFlight()
				return n, limit
			}
			return 0, cfg.Fetch.FetchesInFlight
		},
		Parses: func() (int, int) {
			if s := o.services(); s != nil {
				_, _, n, limit := s.fetch.InFlight()
				return n, limit
			}
			return 0, cfg.Fetch.ParsingInFlight
		},
		Sessions: func() int {
			if l := o.listener.Load(); l != nil {
				return l.Sessions()
			}
			return 0
		},
		MemoryLimit: func() int64 { return debug.SetMemoryLimit(-1) },
	}
	for _, e := range cfg.Engines {
		set.Engines = append(set.Engines, e.ID)
	}
	for _, p := range cfg.RSP.Plugins {
		set.Plugins = append(set.Plugins, p.Name)
	}
	for _, c := range cfg.HTTPCallers {
		set.Callers = append(set.Callers, c.ID)
	}
	o.m = metrics.New(set)
	return o
}

// services is the lazy services once they are built; nil before.
func (o *opsMetrics) services() *lazyServices {
	l := o.svc.Load()
	if l == nil || !l.built.Load() {
		return nil
	}
	return l
}

// handler puts the counting handler in front of the log's.
func (o *opsMetrics) handler(next slog.Handler) slog.Handler {
	if o == nil {
		return next
	}
	return o.m.Handler(next)
}

// drain: the context serving runs on ends after /readyz turned 503.
func (o *opsMetrics) drain(ctx context.Context) (context.Context, context.CancelFunc) {
	if o == nil {
		return ctx, func() {}
	}
	return o.m.Drain(ctx)
}

// listen binds the listener and serves it until close. A bind that fails
// is logged startup_failed with the key, and is exit code 1.
func (o *opsMetrics) listen(log *slog.Logger) int {
	if o == nil {
		return exitOK
	}
	l, err := o.m.Listen(o.bind)
	if err != nil {
		_, reason := startupFailure(fmt.Errorf("service.http.bind: %w", err))
		log.Error("startup_failed", "key", "service.metrics.bind", "reason", reason)
		return exitConfig
	}
	o.l = l
	log.Info("metrics_listening", "address", l.Addr().String())
	go l.Serve()
	return exitOK
}

// close ends the listener at exit: /readyz answers 503 until then.
func (o *opsMetrics) close() {
	if o != nil && o.l != nil {
		o.l.Close()
	}
}

// pluginsReady: every RSP plugin passed its handshake (or none is set).
func (o *opsMetrics) pluginsReady() {
	if o != nil {
		o.m.PluginsReady()
	}
}

// serving records the services and the protocol server, and for network
// mode the bound listener (nil for stdio): from here /readyz is 200.
func (o *opsMetrics) serving(svc *lazyServices, server *mcp.Server, l *mcp.Listener) {
	if o == nil {
		return
	}
	o.svc.Store(svc)
	server.ObserveRefusals(o.m.Refused)
	if l != nil {
		o.listener.Store(l)
	}
	o.m.Listening()
}
