package main

// cli.go is what the commands share: the exit codes, the parsed command
// line (invocation) and its usage errors, the usage text of the rsp
// commands (which the main usage repeats), --config, reading and loading
// the configuration, and the signal context.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"rypsok/internal/config"
	"rypsok/secrets"
	"rypsok/tool"
)

// rspSynopsis is the usage lines of the rsp commands, in the main usage
// and in rsp's own.
const rspSynopsis = `rypsok rsp secrets [--block]
       rypsok rsp ingest [--config PATH] [--out FILE.jsonl] PATH...
       rypsok rsp conformance [--role credentials] -- CMD [ARGS...]`

// takeConfig reads the value of --config (after "=", else the next word of
// rest) into inv and returns the words left.
func (inv *invocation) takeConfig(value string, hasValue bool, rest []string) ([]string, error) {
	if !hasValue {
		if len(rest) == 0 {
			return rest, usageError("--config needs a path")
		}
		value, rest = rest[0], rest[1:]
	}
	if value == "" {
		return rest, usageError("--config needs a path")
	}
	if inv.configSet {
		return rest, usageError("--config is given more than once")
	}
	inv.configPath, inv.configSet = value, true
	return rest, nil
}

// loadConfig reads the file that --config or RYPSOK_CONFIG names (none:
// every default) and validates it. On an error it reports it as the
// command does (configFailure) and returns nil with exit code 1.
func loadConfig(inv invocation, opts config.Options, stderr io.Writer, lookup func(string) (string, bool)) (*config.Config, int) {
	data, source, err := readConfigFile(inv, lookup)
	if err != nil {
		return nil, configFailure(inv, stderr, []string{err.Error()})
	}
	cfg, err := config.Load(data, source, config.Env{Lookup: lookup, ReadFile: secrets.FromFile}, opts)
	if err != nil {
		var ce *config.Error
		if errors.As(err, &ce) {
			return nil, configFailure(inv, stderr, ce.Messages)
		}
		return nil, configFailure(inv, stderr, []string{"the configuration could not be read"})
	}
	return cfg, exitOK
}

// readConfigFile finds the file: --config, then RYPSOK_CONFIG, then none.
func readConfigFile(inv invocation, lookup func(string) (string, bool)) ([]byte, string, error) {
	path, source := inv.configPath, "--config "+inv.configPath
	if !inv.configSet {
		p, ok := lookup("RYPSOK_CONFIG")
		if !ok || p == "" {
			return nil, "defaults (no file)", nil
		}
		path, source = p, "RYPSOK_CONFIG "+p
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, source, fmt.Errorf("%s: the file cannot be read", source)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, config.MaxFileBytes+1))
	if err != nil {
		return nil, source, fmt.Errorf("%s: the file cannot be read", source)
	}
	if len(data) > config.MaxFileBytes {
		return nil, source, fmt.Errorf("%s: the file is larger than 1 MiB", source)
	}
	return data, source, nil
}

// configFailure reports configuration errors: plain lines for check (read by
// people), JSON log lines for serve (read by log pipelines).
func configFailure(inv invocation, stderr io.Writer, msgs []string) int {
	if inv.command == "serve" {
		log := slog.New(tool.NewLogHandler(stderr, slog.LevelInfo))
		for _, m := range msgs {
			log.Error("config_error", "message", m)
		}
		return exitConfig
	}
	for _, m := range msgs {
		fmt.Fprintln(stderr, "rypsok: "+m)
	}
	return exitConfig
}

// signalContext is cancelled by SIGTERM or an interrupt: serve drains,
// the rsp commands stop their plugins.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
}

// Exit codes.
const (
	exitOK      = 0
	exitConfig  = 1
	exitUsage   = 2
	exitRuntime = 3 // serve could not go on: services unbuildable, or stdout failed
)

// invocation is a parsed command line.
type invocation struct {
	command    string // serve, check, version, help
	transport  string
	configPath string
	configSet  bool
}

type usageError string

func (e usageError) Error() string { return string(e) }

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
