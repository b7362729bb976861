package main

// rsp_cmd.go is rypsok's side of the RAG Security Protocol on the command
// line (docs/rsp.md): the commands `rypsok rsp secrets`, `rypsok rsp
// ingest` and `rypsok rsp conformance`; the handshake that serve and check
// run at start; and the adapter that gives search and fetch the plugin
// host as their tool.Judge.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"rypsok/internal/config"
	"rypsok/rsp"
	rspsecrets "rypsok/rsp/plugins/secrets"
	"rypsok/tool"
)

const rspUsage = `usage: ` + rspSynopsis + `

secrets      rypsok's credential check as an RSP 0.1 plugin for any host:
             one JSON request on stdin, one answer on stdout.
ingest       split the files under each PATH into chunks, judge each at
             on_chunk with the [[rsp.plugins]] of the configuration
             (--config, else RYPSOK_CONFIG), print
             a line per BLOCK and REDACT and a summary; with --out, write
             the surviving chunks, redacted, as JSON lines.
conformance  check a plugin against the protocol: one PASS or FAIL line
             per check, exit 0 only when every check passes.

The contract is docs/rsp.md. Exit codes: 0 success, 1 failure (a check
failed, a handshake failed, a configuration error), 2 usage error.
`

// runRSP is `rypsok rsp ...`: args are the words after rsp.
func runRSP(args []string, stdin io.Reader, stdout, stderr io.Writer, lookup func(string) (string, bool)) int {
	if len(args) == 0 {
		return rspUsageError(stderr, "rsp needs a command: secrets, ingest or conformance")
	}
	switch args[0] {
	case "--help", "-help", "-h", "help":
		fmt.Fprint(stdout, rspUsage)
		return exitOK
	case "secrets":
		return rspsecrets.Main(version, args[1:], stdin, stdout, stderr)
	case "ingest":
		return rspIngest(args[1:], stdout, stderr, lookup)
	case "conformance":
		return rspConformance(args[1:], stdout, stderr)
	}
	if strings.HasPrefix(args[0], "-") {
		return rspUsageError(stderr, "unknown flag "+flagName(args[0]))
	}
	return rspUsageError(stderr, "unknown rsp command; the commands are secrets, ingest and conformance")
}

func rspUsageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "rypsok: %s\n%s", msg, rspUsage)
	return exitUsage
}

// rspIngest is `rypsok rsp ingest [--config F] [--out FILE.jsonl] PATH…`.
func rspIngest(args []string, stdout, stderr io.Writer, lookup func(string) (string, bool)) int {
	inv := invocation{command: "rsp ingest"}
	var outPath string
	outSet := false
	var paths []string
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
		if a == "--" {
			paths = append(paths, args...)
			break
		}
		name, value, hasValue := strings.Cut(a, "=")
		switch name {
		case "--config", "-config":
			var err error
			if args, err = inv.takeConfig(value, hasValue, args); err != nil {
				return rspUsageError(stderr, err.Error())
			}
		case "--out", "-out":
			if !hasValue {
				if len(args) == 0 {
					return rspUsageError(stderr, "--out needs a path")
				}
				value, args = args[0], args[1:]
			}
			if value == "" {
				return rspUsageError(stderr, "--out needs a path")
			}
			if outSet {
				return rspUsageError(stderr, "--out is given more than once")
			}
			outPath, outSet = value, true
		case "--help", "-h":
			fmt.Fprint(stdout, rspUsage)
			return exitOK
		default:
			if strings.HasPrefix(a, "-") && a != "-" {
				return rspUsageError(stderr, "unknown flag "+flagName(a))
			}
			paths = append(paths, a)
		}
	}
	if len(paths) == 0 {
		return rspUsageError(stderr, "rsp ingest needs at least one PATH")
	}

	cfg, code := loadConfig(inv, config.Options{}, stderr, lookup)
	if cfg == nil {
		return code
	}
	// The report says what each chunk became; the log adds failures, and
	// the plugins' verdicts and reasons only when [logging] level is debug.
	level := slog.LevelWarn
	if cfg.LogLevel <= slog.LevelDebug {
		level = slog.LevelDebug
	}
	log := slog.New(tool.NewLogHandler(stderr, level))
	ctx, stop := signalContext()
	defer stop()
	h, code := rspHost(ctx, cfg, []string{rsp.HookChunk}, log, lookup, stderr)
	if h == nil {
		return code
	}
	reached := false
	for _, p := range h.Plugins() {
		reached = reached || len(p.Hooks) > 0
	}
	if !reached {
		fmt.Fprintln(stderr, "rypsok: rsp ingest: no [[rsp.plugins]] entry is called on on_chunk, so nothing would be judged; configure one, such as command = [\"rypsok\", \"rsp\", \"secrets\"]")
		return exitConfig
	}

	if !outSet {
		if _, err := rsp.Ingest(ctx, h, paths, stdout, nil); err != nil {
			fmt.Fprintf(stderr, "rypsok: rsp ingest: %v\n", err)
			return exitConfig
		}
		return exitOK
	}
	// The chunks go to a file beside the destination, renamed into place
	// when the walk is complete: a failed run leaves no partial file.
	out, err := os.CreateTemp(filepath.Dir(outPath), ".rypsok-ingest-*.jsonl")
	if err != nil {
		fmt.Fprintln(stderr, "rypsok: rsp ingest: --out: the file cannot be created in "+filepath.Dir(outPath))
		return exitConfig
	}
	_, err = rsp.Ingest(ctx, h, paths, stdout, out)
	if cerr := out.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("--out: the file cannot be written")
	}
	if err == nil && os.Rename(out.Name(), outPath) != nil {
		err = fmt.Errorf("--out: the file cannot be written")
	}
	if err != nil {
		os.Remove(out.Name())
		fmt.Fprintf(stderr, "rypsok: rsp ingest: %v\n", err)
		return exitConfig
	}
	return exitOK
}

// rspConformance is `rypsok rsp conformance [--role credentials] -- CMD ARGS…`.
func rspConformance(args []string, stdout, stderr io.Writer) int {
	role := ""
	switch {
	case len(args) > 0 && args[0] == "--":
		args = args[1:]
	case len(args) > 2 && (args[0] == "--role" || args[0] == "-role") && args[2] == "--":
		if args[1] != rsp.RoleCredentials {
			return rspUsageError(stderr, "unknown --role "+strconv.Quote(args[1])+"; the role is "+rsp.RoleCredentials)
		}
		role, args = args[1], args[3:]
	case len(args) > 0 && (args[0] == "--help" || args[0] == "-h"):
		fmt.Fprint(stdout, rspUsage)
		return exitOK
	case len(args) > 0 && strings.HasPrefix(args[0], "-"):
		return rspUsageError(stderr, "unknown flag "+flagName(args[0])+"; put -- before the plugin's command")
	}
	if len(args) == 0 || args[0] == "" {
		return rspUsageError(stderr, "rsp conformance needs the plugin's command after --")
	}
	ctx, stop := signalContext()
	defer stop()
	if !rsp.ConformanceRole(ctx, role, args, stdout) {
		return exitConfig
	}
	return exitOK
}

// rspHost validates cfg's [rsp] settings for hooks and handshakes every
// plugin. On a failure it writes one line naming the plugin and the
// failure class and returns a nil host and exitConfig.
func rspHost(ctx context.Context, cfg *config.Config, hooks []string, log *slog.Logger, lookup func(string) (string, bool), stderr io.Writer) (*rsp.Host, int) {
	h, err := newHost(ctx, cfg, hooks, log, lookup)
	if err != nil {
		fmt.Fprintln(stderr, "rypsok: "+handshakeMessage(cfg, err))
		return nil, exitConfig
	}
	return h, exitOK
}

func newHost(ctx context.Context, cfg *config.Config, hooks []string, log *slog.Logger, lookup func(string) (string, bool)) (*rsp.Host, error) {
	s := cfg.RSP
	s.Hooks = hooks
	return rsp.New(ctx, s, rsp.Deps{HostVersion: version, LookupEnv: lookup, Logger: log})
}

// handshakeMessage names the plugin (with its key) and the failure class
// of a failed handshake, and what the class means. It repeats nothing the
// plugin wrote.
func handshakeMessage(cfg *config.Config, err error) string {
	var he *rsp.HandshakeError
	if !errors.As(err, &he) {
		return "rsp: the plugin settings are invalid: " + err.Error()
	}
	key := "rsp.plugins"
	for i, p := range cfg.RSP.Plugins {
		if p.Name == he.Plugin {
			key = fmt.Sprintf("rsp.plugins[%d]", i)
		}
	}
	what := map[rsp.Class]string{
		rsp.FailSpawn:     "the program could not be started",
		rsp.FailExit:      "the process exited with a status other than 0, or was killed",
		rsp.FailTimeout:   "no answer within the plugin's timeout_ms",
		rsp.FailMalformed: "its standard output was not exactly one JSON object",
		rsp.FailOversize:  "its standard output exceeded rsp.max_answer_bytes",
	}[he.Cause]
	if he.Cause == rsp.FailHandshake {
		what = he.Detail
	}
	msg := fmt.Sprintf("%s (plugin %s): the handshake failed: %s", key, he.Plugin, he.Cause)
	if what != "" {
		msg += " (" + what + ")"
	}
	return msg
}

// checkPlugins is check's handshake: the plugins are started as serve
// starts them, and what they declared goes into the report. A failure is
// exit 1, naming the plugin and the class.
func checkPlugins(cfg *config.Config, stderr io.Writer, lookup func(string) (string, bool)) int {
	if len(cfg.RSP.Plugins) == 0 {
		return exitOK
	}
	h, code := rspHost(context.Background(), cfg, nil, nil, lookup, stderr)
	if h == nil {
		return code
	}
	cfg.SetPlugins(h.Plugins())
	return exitOK
}

// newJudge handshakes the configured plugins for serve (either transport)
// and returns the judge search and fetch call: nil when no plugin is
// configured. A failed handshake is logged as startup_failed naming the
// plugin and the failure class, and returned: serve then exits 1. The
// plugins' environment is read through lookup (nil: the
// process environment).
func newJudge(ctx context.Context, cfg *config.Config, log *slog.Logger, lookup func(string) (string, bool)) (tool.Judge, error) {
	if len(cfg.RSP.Plugins) == 0 {
		return nil, nil
	}
	h, err := newHost(ctx, cfg, nil, log, lookup)
	if err != nil {
		attrs := []any{"reason", handshakeMessage(cfg, err)}
		var he *rsp.HandshakeError
		if errors.As(err, &he) {
			attrs = append(attrs, "plugin", he.Plugin, "failure", string(he.Cause))
		}
		log.Error("startup_failed", attrs...)
		return nil, err
	}
	for _, name := range config.UnreachablePlugins(h.Plugins()) {
		log.Warn("config_warning", "key", "rsp.plugins", "message", "plugin "+name+" is called on no hook of serve: it declares neither on_retrieve nor on_response among the hooks configured for it")
	}
	log.Info("rsp_plugins", "count", len(h.Plugins()))
	return hostJudge{h}, nil
}

// hostJudge gives search and fetch the plugin host as a tool.Judge.
type hostJudge struct{ h *rsp.Host }

func (j hostJudge) Judge(ctx context.Context, hook, toolName string, items []tool.JudgeItem) []tool.Verdict {
	in := make([]rsp.Item, len(items))
	for i, it := range items {
		in[i] = rsp.Item{Content: it.Content, Metadata: it.Metadata}
	}
	rs := j.h.Judge(ctx, hook, toolName, in)
	out := make([]tool.Verdict, len(rs))
	for i, r := range rs {
		out[i] = verdictOf(r)
	}
	return out
}

// verdictOf is a composed rsp.Result as search and fetch read it.
func verdictOf(r rsp.Result) tool.Verdict {
	v := tool.Verdict{
		Blocked:    r.Verdict == rsp.Block,
		BlockedBy:  r.BlockedBy,
		Failure:    string(r.Failure),
		Content:    r.Content,
		Redactions: len(r.Redactions),
		RedactedBy: r.RedactedBy,
		Types:      r.Types,
		FlaggedBy:  r.Flagged,
		Severity:   string(r.FlagSeverity),
	}
	if v.Blocked {
		v.Content, v.Redactions = "", 0
	}
	for _, f := range r.Failed {
		v.FailedBy = append(v.FailedBy, f.Plugin)
		v.Failures = append(v.Failures, string(f.Class))
	}
	return v
}
