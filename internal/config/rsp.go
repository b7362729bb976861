package config

// rsp.go reads [rsp] and its [[rsp.plugins]] tables: the RAG Security
// Protocol plugins that judge every search result and page before it is
// returned (docs/rsp.md, section 10), and says in check's report what each
// plugin declared at its handshake. Like the rest of the schema, every
// message names its key and place and never repeats a value: a plugin's
// command line may carry a token.

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"rypsok/rsp"
	"rypsok/tomlx"
)

// The ranges of the [rsp] keys.
const (
	rspMaxCacheEntries = 100000
	rspMaxInlineBytes  = 16 << 20
	rspMaxAnswerBytes  = 16 << 20
	rspMaxChunkBytes   = 1 << 20
	rspMaxPlugins      = 16
)

// servedHooks are the hooks serve calls; on_chunk is called only by
// rypsok rsp ingest.
var servedHooks = []string{rsp.HookRetrieve, rsp.HookResponse}

func (l *loader) loadRSP(s *section, c *Config) {
	set := rsp.DefaultSettings()
	s.int("max_processes", 1, rsp.MaxProcessesMax, &set.MaxProcesses)
	s.int("cache_entries", 0, rspMaxCacheEntries, &set.CacheEntries)
	s.intRange("inline_max_bytes", 0, rspMaxInlineBytes, &set.InlineMaxBytes)
	s.int("max_answer_bytes", 1, rspMaxAnswerBytes, &set.MaxAnswerBytes)
	s.int("chunk_bytes", 1, rspMaxChunkBytes, &set.ChunkBytes)
	set.Plugins = l.loadPlugins(s)
	s.done()
	c.RSP = set
}

// loadPlugins reads the [[rsp.plugins]] tables, in order.
func (l *loader) loadPlugins(s *section) []rsp.PluginSpec {
	s.seen["plugins"] = true
	v := s.get("plugins")
	if v == nil {
		return nil
	}
	if v.Kind != tomlx.KindArray {
		l.errAt(v, "rsp.plugins", "expected [[rsp.plugins]] tables, "+found(v))
		return nil
	}
	if len(v.Array) > rspMaxPlugins {
		l.errAt(v, "rsp.plugins", fmt.Sprintf("expected at most %d [[rsp.plugins]] tables, found more", rspMaxPlugins))
		return nil
	}
	var out []rsp.PluginSpec
	names := map[string]bool{}
	for i, e := range v.Array {
		key := fmt.Sprintf("rsp.plugins[%d]", i)
		if e.Kind != tomlx.KindTable {
			l.errAt(e, key, "expected a table, "+found(e))
			continue
		}
		p := l.loadPlugin(l.section(e.Table, key), e, names)
		if p.OnError == rsp.OnErrorAllow || p.OnError == rsp.OnErrorSkip {
			l.warn = append(l.warn, Warning{key + ".on_error", fmt.Sprintf("plugin %s fails open: when it fails, content passes unjudged by it (on_error = %s)", p.Name, p.OnError), `"block", the default`})
		}
		out = append(out, p)
	}
	return out
}

const pluginNameForm = "expected a name of lowercase letters, digits, _ and -, starting with a letter, at most 32 bytes"

func (l *loader) loadPlugin(s *section, e *tomlx.Value, names map[string]bool) rsp.PluginSpec {
	p := rsp.PluginSpec{OnError: rsp.OnErrorBlock, OnMatch: rsp.OnMatchVerdict, Timeout: rsp.DefaultTimeout}
	if name, nv, ok := s.str("name", pluginNameForm); ok {
		switch {
		case !isPluginName(name):
			l.errAt(nv, s.key("name"), pluginNameForm+", found text of another form")
		case names[name]:
			l.errAt(nv, s.key("name"), "another plugin has the same name")
		default:
			names[name] = true
			p.Name = name
		}
	} else if nv == nil {
		l.errAt(e, s.key("name"), "required")
	}
	p.Command = l.command(s, e)
	if hooks, _, ok := s.strings("hooks", "hooks (on_chunk, on_retrieve, on_response)", false, func(w string) string {
		if w != rsp.HookChunk && w != rsp.HookRetrieve && w != rsp.HookResponse {
			return "expected one of on_chunk, on_retrieve, on_response, found an unknown word"
		}
		return ""
	}); ok {
		p.Hooks = hooks
	}
	if tools, _, ok := s.strings("tools", "tools (web_search, web_fetch)", false, func(w string) string {
		if w != rsp.ToolWebSearch && w != rsp.ToolWebFetch {
			return "expected one of web_search, web_fetch, found an unknown word"
		}
		return ""
	}); ok {
		p.Tools = tools
	}
	onError, onMatch := string(p.OnError), string(p.OnMatch)
	s.enum("on_error", []string{"block", "allow", "skip"}, &onError)
	s.enum("on_match", []string{"verdict", "block"}, &onMatch)
	p.OnError, p.OnMatch = rsp.OnError(onError), rsp.OnMatch(onMatch)
	s.ms("timeout_ms", rsp.MinTimeout.Milliseconds(), rsp.MaxTimeout.Milliseconds(), &p.Timeout)
	if pass, _, ok := s.strings("env_pass", "environment variable names", true, func(w string) string {
		if !isVariableName(w) {
			return "expected the name of an environment variable, found text of another form (it is not shown)"
		}
		return ""
	}); ok {
		p.EnvPass = pass
	}
	s.done()
	return p
}

// command reads a plugin's argv: a non-empty array of strings whose first
// is the program. Words may repeat and be empty (after the first); none is
// ever shown.
func (l *loader) command(s *section, e *tomlx.Value) []string {
	const expect = `expected an array of strings, the program and its arguments, such as ["/usr/local/bin/rsp-plugin", "--strict"]`
	s.seen["command"] = true
	v := s.get("command")
	switch {
	case v == nil:
		l.errAt(e, s.key("command"), "required")
		return nil
	case v.Kind != tomlx.KindArray:
		l.errAt(v, s.key("command"), expect+", "+found(v))
		return nil
	case len(v.Array) == 0:
		l.errAt(v, s.key("command"), expect+", found an empty array")
		return nil
	}
	argv := make([]string, 0, len(v.Array))
	for i, w := range v.Array {
		k := fmt.Sprintf("%s[%d]", s.key("command"), i)
		switch {
		case w.Kind != tomlx.KindString:
			l.errAt(w, k, "expected text, "+found(w))
			return nil
		case i == 0 && w.Str == "":
			l.errAt(w, k, "expected the program to run, found empty text")
			return nil
		case strings.IndexByte(w.Str, 0) >= 0:
			l.errAt(w, k, "a word of a command line cannot hold a NUL character")
			return nil
		}
		argv = append(argv, w.Str)
	}
	return argv
}

func isPluginName(w string) bool {
	if len(w) == 0 || len(w) > 32 || !isLower(w[0]) {
		return false
	}
	for i := 1; i < len(w); i++ {
		if c := w[i]; !(isLower(c) || isDigit(c) || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// isVariableName is a POSIX-portable environment variable name, in either
// case (http_proxy is one).
func isVariableName(w string) bool {
	if len(w) == 0 || len(w) > 256 || isDigit(w[0]) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; !(isLower(c) || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_') {
			return false
		}
	}
	return true
}

// SetPlugins records what each plugin declared at the handshake that main
// ran for check, for Report, and adds the warning for a plugin that no
// hook serve calls reaches.
func (c *Config) SetPlugins(infos []rsp.PluginInfo) {
	c.RSPPlugins = infos
	for i, p := range infos {
		if len(p.Hooks) > 0 {
			continue
		}
		c.Warnings = append(c.Warnings, Warning{fmt.Sprintf("rsp.plugins[%d]", i),
			fmt.Sprintf("plugin %s is called on no hook of serve: it declares neither on_retrieve nor on_response among the hooks configured for it (rypsok rsp ingest alone calls on_chunk)", p.Name),
			"remove it, or configure hooks it declares"})
	}
}

// UnreachablePlugins names the plugins serve calls on no hook, for serve's
// log.
func UnreachablePlugins(infos []rsp.PluginInfo) []string {
	var out []string
	for _, p := range infos {
		if len(p.Hooks) == 0 {
			out = append(out, p.Name)
		}
	}
	return out
}

// rspLines are check's lines about [rsp]: the host's settings, then one
// line per plugin with what its handshake declared.
func rspLines(c *Config) []string {
	s := c.RSP
	if len(s.Plugins) == 0 {
		return []string{"rsp: plugins=0 (no plugin judges what web_search and web_fetch return)"}
	}
	out := []string{fmt.Sprintf("rsp: plugins=%d max_processes=%d cache_entries=%d inline_max_bytes=%d max_answer_bytes=%d chunk_bytes=%d",
		len(s.Plugins), s.MaxProcesses, s.CacheEntries, s.InlineMaxBytes, s.MaxAnswerBytes, s.ChunkBytes)}
	for i, p := range s.Plugins {
		tools := "web_search,web_fetch"
		if len(p.Tools) > 0 {
			tools = strings.Join(p.Tools, ",")
		}
		line := fmt.Sprintf("rsp plugin %s: on_error=%s on_match=%s timeout_ms=%d tools=%s env_pass=%d",
			p.Name, p.OnError, p.OnMatch, p.Timeout/time.Millisecond, tools, len(p.EnvPass))
		if i < len(c.RSPPlugins) {
			info := c.RSPPlugins[i]
			hooks := "none"
			if len(info.Hooks) > 0 {
				hooks = strings.Join(info.Hooks, ",")
			}
			line += fmt.Sprintf(" handshake: name=%s version=%s hooks=%s deterministic=%s inline_threshold=%d",
				strconv.Quote(info.PluginName), strconv.Quote(info.Version), hooks, onOff(info.Deterministic), info.InlineThreshold)
		}
		out = append(out, line)
	}
	return out
}
