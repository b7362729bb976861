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
	"sync"
	"sync/atomic"
	"time"

	"rypsok/egress"
	"rypsok/fetch"
	"rypsok/internal/config"
	"rypsok/mcp"
	"rypsok/search"
	"rypsok/tool"
)

// version is stamped by the build (make build: -X main.version=...).
var version = "0.0.0-dev"

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

// Exit codes.
const (
	exitOK      = 0
	exitConfig  = 1
	exitUsage   = 2
	exitRuntime = 3 // serve could not go on: services unbuildable, or stdout failed
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.LookupEnv))
}

// invocation is a parsed command line.
type invocation struct {
	command    string // serve, check, version, help
	transport  string
	configPath string
	configSet  bool
}

type usageError string

func (e usageError) Error() string { return string(e) }

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

// flagName shows a flag's name, bounded, without any value.
func flagName(a string) string {
	name, _, _ := strings.Cut(a, "=")
	var b strings.Builder
	for _, r := range name {
		if b.Len() >= 40 {
			break
		}
		if r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
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
