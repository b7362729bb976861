// Command rypsok is a headless meta-search service for AI agents: it serves
// the MCP tools web_search, web_fetch and engine_status over stdio or
// Streamable HTTP (serve --transport stdio|http), checks a configuration
// (check), and runs the RAG Security Protocol commands (rsp secrets, rsp
// ingest, rsp conformance).
//
// main.go is the command line: it wires the packages together and owns
// the exit codes: 0 success, 1 configuration (or a failed check, plugin
// handshake or listener setting), 2 usage, 3 serve stopped because it
// could not go on. cli.go holds what every command shares (the usage
// text, reading the configuration, the signal context); serve_http.go is
// network mode, rsp_cmd.go the rsp commands. It is the only code that
// names standard output.
package main

import (
	"context"
	"crypto/x509"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"rypsok/egress"
	"rypsok/internal/config"
	"rypsok/mcp"
	"rypsok/tool"
)

const usage = `usage: rypsok serve [--transport stdio|http] [--config PATH]
       rypsok check [--config PATH]
       ` + rspSynopsis + `
       rypsok --version
       rypsok --help

The configuration is read from --config, else from the file named by the
environment variable RYPSOK_CONFIG, else every default applies. check
refuses what serve --transport http would refuse at start, a token_file
too: one its group or others may read (chmod 600), of another owner, or
whose token has a line break inside.
Exit codes: 0 success, 1 configuration error, 2 usage error, 3 serve
stopped because it could not go on (its services could not be built at
the first call, or standard output failed). rypsok rsp --help tells the
RAG Security Protocol commands (docs/rsp.md).
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.LookupEnv))
}

// parseArgs reads the command line. It never echoes a flag's value.
func parseArgs(args []string) (invocation, error) {
	var inv invocation
	if len(args) == 0 {
		return inv, usageError("a command is required")
	}
	switch args[0] {
	case "--version", "-version", "version":
		if len(args) > 1 {
			return inv, usageError("--version takes no arguments")
		}
		return invocation{command: "version"}, nil
	case "--help", "-help", "-h", "help":
		return invocation{command: "help"}, nil
	case "serve", "check":
		inv.command = args[0]
	default:
		if strings.HasPrefix(args[0], "-") {
			return inv, usageError("unknown flag " + flagName(args[0]))
		}
		return inv, usageError("unknown command; the commands are serve, check and rsp")
	}
	inv.transport = "stdio"
	rest := args[1:]
	for len(rest) > 0 {
		a := rest[0]
		rest = rest[1:]
		name, value, hasValue := strings.Cut(a, "=")
		switch name {
		case "--config", "-config":
			var err error
			if rest, err = inv.takeConfig(value, hasValue, rest); err != nil {
				return inv, err
			}
		case "--transport", "-transport":
			if inv.command != "serve" {
				return inv, usageError("--transport belongs to serve")
			}
			if !hasValue {
				if len(rest) == 0 {
					return inv, usageError("--transport needs stdio or http")
				}
				value, rest = rest[0], rest[1:]
			}
			if value != "stdio" && value != "http" {
				return inv, usageError("--transport must be stdio or http")
			}
			inv.transport = value
		case "--help", "-h":
			return invocation{command: "help"}, nil
		default:
			if strings.HasPrefix(a, "-") {
				return inv, usageError("unknown flag " + flagName(a))
			}
			return inv, usageError("unexpected argument; " + inv.command + " takes only flags")
		}
	}
	return inv, nil
}

// run is main without the process: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, lookup func(string) (string, bool)) int {
	if len(args) > 0 && args[0] == "rsp" {
		return runRSP(args[1:], stdin, stdout, stderr, lookup) // rsp_cmd.go
	}
	inv, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "rypsok: %s\n%s", err, usage)
		return exitUsage
	}
	switch inv.command {
	case "version":
		fmt.Fprintf(stdout, "rypsok %s\n", version)
		return exitOK
	case "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}

	cfg, code := loadConfig(inv, config.Options{ReadTokens: inv.command == "check" || inv.transport == "http"}, stderr, lookup)
	if cfg == nil {
		return code
	}
	if inv.command == "check" {
		if code := checkPlugins(cfg, stderr, lookup); code != exitOK {
			return code // rsp_cmd.go: a plugin's handshake failed
		}
		for _, line := range config.Report(cfg) {
			fmt.Fprintln(stderr, "rypsok: "+line)
		}
		return exitOK
	}
	return serve(inv, cfg, stdin, stdout, stderr, lookup)
}

// serve builds the services and serves until the input ends or SIGTERM.
func serve(inv invocation, cfg *config.Config, stdin io.Reader, stdout, stderr io.Writer, lookup func(string) (string, bool)) int {
	// SIGTERM is taken from the first moment: one that arrives while the
	// process starts ends it with status 0, like one that arrives later.
	ctx, stop := signalContext()
	defer stop()
	mx := newOpsMetrics(cfg) // serve_metrics.go; nil when off
	log := slog.New(mx.handler(tool.NewLogHandler(stderr, cfg.LogLevel)))
	getenv := func(k string) string { v, _ := lookup(k); return v }
	// A broken trust configuration stops the process at start, once. The
	// store itself is parsed, and the engines built, when the first tool
	// call needs them (as Go's own system pool is loaded lazily), so that
	// the process answers server/discover and tools/list at once and stays
	// small while idle.
	if err := egress.CheckRoots(getenv); err != nil {
		log.Error("startup_failed", "reason", "the HTTP client could not be built: no trust root could be loaded")
		return exitConfig
	}
	limitMemory(cfg, lookup, log)
	ctx, undrain := mx.drain(ctx) // /readyz turns 503 before serving stops
	defer undrain()
	if code := mx.listen(log); code != exitOK {
		return code
	}
	defer mx.close()
	ctx, failStop := context.WithCancel(ctx)
	defer failStop()
	judge, jerr := newJudge(ctx, cfg, log, lookup) // rsp_cmd.go: the RSP plugins' handshake
	if jerr != nil {
		return exitConfig
	}
	mx.pluginsReady()
	svc := newLazyServices(cfg, log, func() (*x509.CertPool, error) { return egress.LoadRoots(getenv) })
	svc.stop = failStop
	svc.judge = judge
	cfg.MCP.Version = version
	server := mcp.New(cfg.MCP, svc, svc, log, time.Now)
	// Network mode binds first, so that listening is the log's first line
	// (Tutorial 4) and a bind that fails is said before anything else.
	var listener *mcp.Listener
	if inv.transport == "http" {
		var code int
		if listener, code = bindHTTP(cfg, server, lookup, log); listener == nil { // serve_http.go
			return code
		}
	}

	mx.serving(svc, server, listener)

	active := 0
	for _, e := range cfg.Engines {
		if e.Active {
			active++
		} else {
			log.Warn("engine_inactive", "engine", e.ID, "reason", e.Credential)
		}
		if e.KeyUnread {
			log.Warn("engine_keyless", "engine", e.ID, "reason", e.Credential)
		}
		if e.Active && e.Scrapes {
			log.Warn("scraping_enabled", "engine", e.ID)
		}
	}
	for _, w := range cfg.Warnings {
		log.Warn("config_warning", "key", w.Key, "message", w.What+"; "+w.Safe)
	}
	log.Info("starting", "version", version, "transport", inv.transport, "engines_active", active)
	if listener != nil {
		return serveHTTP(ctx, listener, svc, log)
	}
	start := time.Now()
	err := server.ServeStdio(ctx, stdin, stdout)
	log.Info("stopped", "uptime_ms", time.Since(start).Milliseconds())
	if err != nil || svc.failed.Load() {
		return exitRuntime
	}
	return exitOK
}

// limitMemory holds the process to the worst case that check states for its
// configuration. rypsok's heap is mostly the short-lived garbage of parses,
// so the collector runs at GOGC 50 (about 2 % more CPU in the extraction
// benchmark) and a soft limit of 90 % of the estimate (without the
// sessions, which exist only over HTTP) makes it work harder near that
// bound instead of letting garbage double the live memory. An operator's
// GOGC and GOMEMLIMIT win.
func limitMemory(cfg *config.Config, lookup func(string) (string, bool), log *slog.Logger) {
	if v, ok := lookup("GOGC"); !ok || v == "" {
		debug.SetGCPercent(50)
	}
	if v, ok := lookup("GOMEMLIMIT"); ok && v != "" {
		return
	}
	limit := config.MemoryLimitMiB(cfg)
	debug.SetMemoryLimit(int64(limit) << 20)
	log.Debug("memory_limit", "mib", limit)
}
