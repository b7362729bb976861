package main

// serve_http.go is network mode: serve --transport http. serve builds what
// both transports share (the trust check, the memory limit, the lazy
// services, the protocol server, the start-up lines) and hands the server
// here, where it is bound with the [service.http] settings and served until
// SIGTERM or an interrupt.

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"runtime/debug"
	"syscall"
	"time"

	"rypsok/internal/config"
	"rypsok/mcp"
)

// bindHTTP binds the listener of network mode, which logs listening. A
// setting the listener refuses, or an address that cannot be bound, is
// logged startup_failed with the key: no listener, and exit code 1.
func bindHTTP(cfg *config.Config, server *mcp.Server, lookup func(string) (string, bool), log *slog.Logger) (*mcp.Listener, int) {
	if v, ok := lookup("GOMEMLIMIT"); !ok || v == "" {
		// Sessions exist over HTTP: the soft limit counts their share.
		limit := config.HTTPMemoryLimitMiB(cfg)
		debug.SetMemoryLimit(int64(limit) << 20)
		log.Debug("memory_limit", "mib", limit)
	}
	set := httpSettings(cfg)
	l, err := server.ListenHTTP(set)
	for i := range set.Callers {
		clear(set.Callers[i].Token) // the listener keeps digests only
	}
	if err != nil {
		key, reason := startupFailure(err)
		log.Error("startup_failed", "key", key, "reason", reason)
		return nil, exitConfig
	}
	return l, exitOK
}

// serveHTTP serves on the bound listener until ctx ends (SIGTERM, an
// interrupt, or services that could not be built), then drains within
// shutdown_ms: exit 0, or 3 when the services failed.
func serveHTTP(ctx context.Context, l *mcp.Listener, svc *lazyServices, log *slog.Logger) int {
	start := time.Now()
	err := l.Serve(ctx)
	log.Info("stopped", "uptime_ms", time.Since(start).Milliseconds())
	if err != nil || svc.failed.Load() {
		return exitRuntime
	}
	return exitOK
}

// httpSettings turns [service.http] and its callers into the listener's
// settings. The tokens are copied as bytes; they are never logged.
func httpSettings(cfg *config.Config) mcp.HTTPSettings {
	set := cfg.HTTP
	// allowed_hosts empty means the loopback names and the bind host (the
	// book's [service.http] table); 0.0.0.0 and :: need the list, which
	// the configuration already requires.
	if ap, err := netip.ParseAddrPort(set.Bind); err == nil && len(set.AllowedHosts) == 0 &&
		!ap.Addr().IsLoopback() && !ap.Addr().IsUnspecified() {
		set.AllowedHosts = []string{set.Bind}
	}
	for _, c := range cfg.HTTPCallers {
		set.Callers = append(set.Callers, mcp.HTTPCaller{ID: c.ID, Token: []byte(c.Token.Reveal())})
	}
	return set
}

// startupFailure splits an error of ListenHTTP into the key it names and a
// reason that repeats no value: a bind error says what failed, never the
// address.
func startupFailure(err error) (key, reason string) {
	var se *mcp.SettingError
	if !errors.As(err, &se) {
		return "service.http", "the listener could not be started"
	}
	if se.Key != "service.http.bind" {
		return se.Key, se.Err.Error()
	}
	var addrErr *net.AddrError
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return se.Key, "the address is already in use"
	case errors.Is(err, syscall.EACCES):
		return se.Key, "binding the address is not permitted"
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return se.Key, "the address is not one of this host's"
	case errors.As(err, &addrErr) && (addrErr.Err == "missing port in address" || addrErr.Err == "too many colons in address"):
		return se.Key, "expected an address and port such as 127.0.0.1:8737"
	}
	return se.Key, "the address cannot be bound"
}
