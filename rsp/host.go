package rsp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"sync/atomic"
	"time"
)

// Item is one piece of content to judge and the metadata sent with it
// (for web_search: tool, field, url, engine, rank; for web_fetch: tool,
// url, title; for ingest: source, line, chunk_index).
type Item struct {
	Content  string
	Metadata map[string]any
}

// Result is the composed verdict on one Item.
type Result struct {
	// Verdict is the strictest verdict: BLOCK, REDACT, FLAG or ALLOW.
	Verdict Verdict
	// Content is the item's content with every coalesced interval
	// replaced (the original content unless Verdict is REDACT; empty when
	// BLOCK).
	Content string
	// BlockedBy names the plugin whose BLOCK (or failure, with Failure
	// set to its class, under on_error=block) ended the judging.
	BlockedBy string
	Failure   Class
	// Reason is the reason the blocking plugin gave with its BLOCK,
	// bounded and cleaned; empty for a failure, a REDACT turned BLOCK by
	// on_match, or a plugin that gave none. It is for the operator (the
	// reference's V4), never for an agent.
	Reason string
	// Redactions describes each replaced interval: types, severity and
	// plugins, never the bytes or the offsets (Q8).
	Redactions []Redaction
	// RedactedBy names the plugins that contributed a replaced span, in
	// configured order; Types all the contributing types, sorted.
	RedactedBy []string
	Types      []string
	// Flagged names the plugins that answered FLAG, in configured order;
	// FlagSeverity is the highest of their severities.
	Flagged      []string
	FlagSeverity Severity
	// Failed lists the plugins whose failure let the item pass
	// (on_error=allow): the answer carries a plugin_failed notice.
	Failed []PluginFailure
}

// Redaction is one coalesced interval of a Result.
type Redaction struct {
	Types    []string // the contributing types, sorted, unique
	Severity Severity // of the span whose replacement was written
	Plugins  []string // the contributing plugins, in configured order
}

// PluginFailure names a plugin and how its call failed.
type PluginFailure struct {
	Plugin string
	Class  Class
}

// Judge is what search and fetch receive to have external content judged.
// Judge runs the plugins configured for hook and tool on every item and
// returns one Result per item, in order. Content that is not valid UTF-8
// has each invalid sequence replaced by U+FFFD first (Result.Content
// shows it), so that spans refer to what the plugins saw. It never fails
// as a whole: a
// plugin's failure is decided per item by its on_error setting, and a
// ctx that ends before an item is judged makes the remaining calls
// timeout failures. A nil *Host, or a Host with no plugin for the hook
// and tool, returns ALLOW with the content unchanged and spawns nothing.
type Judge interface {
	Judge(ctx context.Context, hook, tool string, items []Item) []Result
}

// HandshakeError is a plugin that could not be started for service:
// its handshake failed (Cause is the class of the failed process, or
// handshake for an answer that is not a valid handshake), or its
// settings ask for a hook it does not declare.
type HandshakeError struct {
	Plugin string
	Cause  Class
	Detail string
}

func (e *HandshakeError) Error() string {
	s := "rsp plugin " + e.Plugin + ": handshake failed: " + string(e.Cause)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Class returns FailHandshake, the class of every HandshakeError.
func (e *HandshakeError) Class() Class { return FailHandshake }

// PluginInfo is what `rypsok check` prints about a plugin.
type PluginInfo struct {
	Name            string   // the configured name
	PluginName      string   // the name the plugin gave (bounded, cleaned)
	Version         string   // the version the plugin gave (bounded, cleaned)
	Hooks           []string // the hooks it will be called on
	Deterministic   bool
	InlineThreshold int64    // the effective threshold in bytes
	Warnings        []string // fails open; reached by no hook of this host
}

// Host runs the configured plugins. It is safe for concurrent use.
type Host struct {
	s       Settings
	d       Deps
	plugins []*plugin
	sem     chan struct{}
	cache   *verdictCache
	log     *slog.Logger
	spawned atomic.Int64
}

// plugin is one configured plugin after its handshake.
type plugin struct {
	index   int
	spec    PluginSpec
	hs      Handshake
	hooks   []string // effective
	inline  int64    // effective threshold
	env     []string
	timeout time.Duration
	// warned is set once an unknown severity of this plugin was logged.
	warned atomic.Bool
}

// New validates s and handshakes each plugin once, in order, with the
// program's dependencies d. It returns a *HandshakeError for the first
// plugin that fails, or the validation error.
func New(ctx context.Context, s Settings, d Deps) (*Host, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.MaxProcesses == 0 {
		s.MaxProcesses = 1
	}
	if s.MaxAnswerBytes == 0 {
		s.MaxAnswerBytes = 1 << 20
	}
	if s.ChunkBytes == 0 {
		s.ChunkBytes = 2000
	}
	if s.Hooks == nil {
		s.Hooks = serveHooks()
	}
	s.Hooks = slices.Clone(s.Hooks)
	s.Plugins = slices.Clone(s.Plugins)
	for i := range s.Plugins {
		p := &s.Plugins[i]
		p.Command, p.Hooks, p.Tools, p.EnvPass = slices.Clone(p.Command), slices.Clone(p.Hooks), slices.Clone(p.Tools), slices.Clone(p.EnvPass)
	}
	h := &Host{s: s, d: d, sem: make(chan struct{}, s.MaxProcesses), cache: newVerdictCache(s.CacheEntries), log: d.Logger}
	if h.log == nil {
		h.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	for i, spec := range s.Plugins {
		p := &plugin{index: i, spec: spec, env: environ(d.LookupEnv, spec.EnvPass), timeout: spec.Timeout}
		if p.timeout == 0 {
			p.timeout = DefaultTimeout
		}
		if err := h.handshake(ctx, p); err != nil {
			h.log.Error("rsp_handshake_failed", "plugin", spec.Name, "failure", err.Cause)
			return nil, err
		}
		h.plugins = append(h.plugins, p)
	}
	return h, nil
}

func (h *Host) handshake(ctx context.Context, p *plugin) *HandshakeError {
	req := marshal(h.handshakeRequest("rypsok", h.d.HostVersion, h.s.Hooks))
	o := h.spawn(ctx, p, req, nil)
	if o.class != "" {
		return &HandshakeError{Plugin: p.spec.Name, Cause: o.class}
	}
	hs, err := readHandshake(o.stdout)
	if err != nil {
		return &HandshakeError{Plugin: p.spec.Name, Cause: FailHandshake, Detail: "not a valid rsp 0.x handshake answer: " + err.Error()}
	}
	p.hs = hs
	for _, k := range p.spec.Hooks {
		if !contains(hs.Hooks, k) {
			return &HandshakeError{Plugin: p.spec.Name, Cause: FailHandshake, Detail: "hook " + k + " is configured but not declared by the plugin"}
		}
	}
	for _, k := range hs.Hooks {
		if contains(h.s.Hooks, k) && (len(p.spec.Hooks) == 0 || contains(p.spec.Hooks, k)) {
			p.hooks = append(p.hooks, k)
		}
	}
	p.inline = h.s.InlineMaxBytes
	if hs.InlineThreshold >= 0 && hs.InlineThreshold < p.inline {
		p.inline = hs.InlineThreshold
	}
	return nil
}

// handshakeRequest is the handshake message of this host, naming it and
// its hooks and limits.
func (h *Host) handshakeRequest(name, version string, hooks []string) handshakeRequest {
	return handshakeRequest{RSPVersion: Version, Hook: hookHandshake, Type: "handshake", Host: hostInfo{Name: name, Version: version},
		Hooks: hooks, Limits: hostLimits{InlineMaxBytes: h.s.InlineMaxBytes, MaxAnswerBytes: h.s.MaxAnswerBytes}}
}

// Plugins describes the plugins in configured order.
func (h *Host) Plugins() []PluginInfo {
	var out []PluginInfo
	for _, p := range h.plugins {
		info := PluginInfo{Name: p.spec.Name, PluginName: p.hs.Name, Version: p.hs.Version,
			Hooks: append([]string(nil), p.hooks...), Deterministic: p.hs.Deterministic, InlineThreshold: p.inline}
		if p.spec.OnError == OnErrorAllow || p.spec.OnError == OnErrorSkip {
			info.Warnings = append(info.Warnings, fmt.Sprintf("on_error = %s: a failure of this plugin lets content through (fails open)", p.spec.OnError))
		}
		if !p.hs.ContentRef {
			info.Warnings = append(info.Warnings, fmt.Sprintf("the plugin does not read content_ref: content over %d bytes meets its on_error", p.inline))
		}
		if len(p.hooks) == 0 {
			info.Warnings = append(info.Warnings, "no hook this host calls reaches this plugin")
		}
		out = append(out, info)
	}
	return out
}

// spawn runs one process of p under the global process limit: it waits
// for a slot within ctx, then gives the process p's timeout (bounded by
// ctx), from spawn to exit.
func (h *Host) spawn(ctx context.Context, p *plugin, input []byte, fd3 *os.File) outcome {
	if ctx.Err() != nil {
		return outcome{class: FailTimeout}
	}
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		return outcome{class: FailTimeout}
	}
	defer func() { <-h.sem }()
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	h.spawned.Add(1)
	return run(ctx, proc{argv: p.spec.Command, env: p.env, input: input, fd3: fd3, maxOut: h.s.MaxAnswerBytes, maxErr: StderrLimitBytes, timeout: p.timeout})
}
