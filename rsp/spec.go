package rsp

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"
)

// OnError is what a plugin's failure means for the item (D3).
type OnError string

// The three on_error settings; the zero value means OnErrorBlock.
const (
	OnErrorBlock OnError = "block" // the item is treated as blocked, the failure class recorded
	OnErrorAllow OnError = "allow" // the item passes; the Result records the failure
	OnErrorSkip  OnError = "skip"  // the plugin contributes nothing for the item; logged only
)

// OnMatch is how a plugin's verdicts are taken.
type OnMatch string

// The two on_match settings; the zero value means OnMatchVerdict.
const (
	OnMatchVerdict OnMatch = "verdict" // the verdict as answered
	OnMatchBlock   OnMatch = "block"   // any verdict other than ALLOW becomes BLOCK
)

// The tools a plugin may be called for (tool.ToolWebSearch and
// tool.ToolWebFetch); an empty tool in Judge matches every plugin.
const (
	ToolWebSearch = "web_search"
	ToolWebFetch  = "web_fetch"
)

// Limits of a plugin's settings and of the host.
const (
	MinTimeout       = 50 * time.Millisecond
	MaxTimeout       = 60 * time.Second
	DefaultTimeout   = 5 * time.Second // Q4
	MaxProcessesMax  = 64
	StderrLimitBytes = 64 << 10
	maxNameBytes     = 32
)

// PluginSpec is one configured plugin.
type PluginSpec struct {
	// Name is the operator's name for the plugin: [a-z][a-z0-9_-]{0,31},
	// unique among the plugins.
	Name string
	// Command is the argv; Command[0] is run directly, never by a shell.
	Command []string
	// Hooks, when non-empty, is the subset of the hooks the plugin
	// declares at its handshake that it is called on.
	Hooks []string
	// Tools, when non-empty, limits the plugin to these tools (the
	// default is every tool).
	Tools []string
	// OnError and OnMatch decide what failures and matches mean.
	OnError OnError
	OnMatch OnMatch
	// Timeout bounds one call (MinTimeout..MaxTimeout; zero means
	// DefaultTimeout).
	Timeout time.Duration
	// EnvPass names the environment variables passed through besides PATH.
	EnvPass []string
}

// Settings are the host's settings. The zero value has no plugins and
// judges nothing; DefaultSettings gives the documented defaults.
type Settings struct {
	// Plugins run in this order at every hook.
	Plugins []PluginSpec
	// MaxProcesses bounds the plugin processes running at once in the
	// whole process (1..64; zero means 1).
	MaxProcesses int
	// CacheEntries bounds the verdicts kept for deterministic plugins
	// (zero: none kept).
	CacheEntries int
	// InlineMaxBytes is the host's cap for inline content; larger
	// content goes by reference (zero: always by reference).
	InlineMaxBytes int64
	// MaxAnswerBytes caps one call's stdout (zero means 1 MiB).
	MaxAnswerBytes int
	// ChunkBytes is the largest chunk Ingest makes (zero means 2000).
	ChunkBytes int
	// Hooks are the hooks this host may call, sent in the handshake
	// (nil means on_retrieve and on_response, what serve calls).
	Hooks []string
}

// Deps are what a Host takes from the program rather than from its
// configuration; the zero value is usable.
type Deps struct {
	// HostVersion is rypsok's version, sent in the handshake.
	HostVersion string
	// LookupEnv reads the host's environment for PATH and EnvPass (nil
	// means os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// Logger receives the host's events (nil discards them).
	Logger *slog.Logger
}

// DefaultSettings returns the documented defaults with no plugins.
func DefaultSettings() Settings {
	return Settings{
		MaxProcesses:   4,
		CacheEntries:   4096,
		InlineMaxBytes: 1 << 20,
		MaxAnswerBytes: 1 << 20,
		ChunkBytes:     2000,
		Hooks:          serveHooks(),
	}
}

// serveHooks are the hooks rypsok serve calls.
func serveHooks() []string { return []string{HookRetrieve, HookResponse} }

// Validate reports the first setting out of its range, naming the field
// (and the plugin).
func (s Settings) Validate() error {
	if s.MaxProcesses < 0 || s.MaxProcesses > MaxProcessesMax {
		return fmt.Errorf("MaxProcesses %d is outside 1..%d", s.MaxProcesses, MaxProcessesMax)
	}
	if s.CacheEntries < 0 || s.InlineMaxBytes < 0 || s.MaxAnswerBytes < 0 || s.ChunkBytes < 0 {
		return errors.New("CacheEntries, InlineMaxBytes, MaxAnswerBytes and ChunkBytes must not be negative")
	}
	for _, h := range s.Hooks {
		if !knownHook(h) {
			return fmt.Errorf("Hooks: %q is not a hook", h)
		}
	}
	seen := map[string]bool{}
	for i, p := range s.Plugins {
		if !validName(p.Name) {
			return fmt.Errorf("plugin %d: Name %q does not match [a-z][a-z0-9_-]{0,31}", i+1, p.Name)
		}
		if seen[p.Name] {
			return fmt.Errorf("plugin %s: Name is not unique", p.Name)
		}
		seen[p.Name] = true
		if len(p.Command) == 0 || p.Command[0] == "" {
			return fmt.Errorf("plugin %s: Command is empty", p.Name)
		}
		for _, h := range p.Hooks {
			if !knownHook(h) {
				return fmt.Errorf("plugin %s: Hooks: %q is not a hook", p.Name, h)
			}
		}
		for _, t := range p.Tools {
			if t != ToolWebSearch && t != ToolWebFetch {
				return fmt.Errorf("plugin %s: Tools: %q is not web_search or web_fetch", p.Name, t)
			}
		}
		switch p.OnError {
		case "", OnErrorBlock, OnErrorAllow, OnErrorSkip:
		default:
			return fmt.Errorf("plugin %s: OnError %q is not block, allow or skip", p.Name, p.OnError)
		}
		switch p.OnMatch {
		case "", OnMatchVerdict, OnMatchBlock:
		default:
			return fmt.Errorf("plugin %s: OnMatch %q is not verdict or block", p.Name, p.OnMatch)
		}
		if p.Timeout != 0 && (p.Timeout < MinTimeout || p.Timeout > MaxTimeout) {
			return fmt.Errorf("plugin %s: Timeout %v is outside %v..%v", p.Name, p.Timeout, MinTimeout, MaxTimeout)
		}
		for _, e := range p.EnvPass {
			if !validEnvName(e) {
				return fmt.Errorf("plugin %s: EnvPass: %q is not a variable name", p.Name, e)
			}
		}
	}
	return nil
}

func validName(s string) bool {
	if len(s) == 0 || len(s) > maxNameBytes || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func validEnvName(s string) bool {
	if s == "" || len(s) > 256 || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// environ builds a plugin's environment: PATH and the EnvPass names that
// are set, nothing else.
func environ(lookup func(string) (string, bool), pass []string) []string {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	var env []string
	if v, ok := lookup("PATH"); ok {
		env = append(env, "PATH="+v)
	}
	for _, n := range pass {
		if n == "PATH" {
			continue
		}
		if v, ok := lookup(n); ok {
			env = append(env, n+"="+v)
		}
	}
	if env == nil {
		env = []string{}
	}
	return env
}

// BufferBytes is the most memory the plugin processes' buffers take at
// once, for the memory estimate of `rypsok check`: per process slot, the
// stdout cap, the kept stderr and one copy of inline content.
func (s Settings) BufferBytes() int64 {
	if len(s.Plugins) == 0 {
		return 0
	}
	slots := int64(max(s.MaxProcesses, 1))
	answer := int64(s.MaxAnswerBytes)
	if answer == 0 {
		answer = 1 << 20
	}
	return slots * (answer + StderrLimitBytes + s.InlineMaxBytes)
}
