package config

// check.go writes the report of `rypsok check`: one line per part of the
// configuration with the values in effect, the warnings, and the worst-case
// memory estimate. It never prints a token, a key, the text of an egress
// rule or the address of a proxy.

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"rypsok/search"
	"rypsok/tool"
)

// The costs of the memory estimate, measured on this build by
// scripts/measure-memory (make measure-memory) and rounded up so that the
// estimate stays above every measured peak (README "Memory").
//
// Measured with serve's own collector settings (GOGC 50) and no soft limit,
// four pages fetched at once from four hosts, two parses at once, five runs
// per size: the process at rest held 7.3 to 7.6 MiB; the peaks were 77.3 to
// 99.5 MiB at 5 MiB pages and 115.7 to 153.8 MiB at 9.9 MiB pages. Less the
// rest and the four bodies, one parse cost at most 36.0 and 53.4 MiB: a line
// of 3.55 bytes per byte of page crossing at 18.2 MiB, set below as 3.4 and
// 18 because serve also holds itself to 90 % of the estimate (a soft memory
// limit), under which the 5 MiB peaks were 74.8 to 93.5 MiB.
const (
	// memBaseMiB is the process at rest (7.6 MiB measured, rounded up) plus
	// the 2 MiB bound of the robots.txt verdicts.
	memBaseMiB = 10
	// memParseFixedMiB and memParseTenthsPerByte are the cost of one parse:
	// the part that does not grow with the page, and the tenths of a byte
	// per byte of page.
	memParseFixedMiB      = 18
	memParseTenthsPerByte = 34
	// memPDFParseMiB is the least one parse may cost when the page is a PDF
	// (docs/pdf.md): its text is decoded one stream at a time, up to the
	// bound on one stream and on the characters of one page, however small
	// the file. Measured with 1 MiB PDFs whose one page decodes to 7 MiB of
	// text (scripts/measure-memory -pdf dense), GOMEMLIMIT=off: peaks of
	// 64.0 to 89.7 MiB, at most 38.6 MiB a parse less the rest and the
	// bodies.
	memPDFParseMiB = 40
	// memSessionKiB is one live session of the handshake-based revisions
	// over HTTP (LIM-M4, the book's figure: the HTTP transport is not built
	// yet, so it is not measured here).
	memSessionKiB = 60
	// memLimitPercent is the share of the estimate serve sets as the Go
	// runtime's soft memory limit.
	memLimitPercent = 90
	// memoryMaxMiB is LIM-M5, MemoryMax of the documented unit.
	memoryMaxMiB = 256
)

type memEstimate struct {
	base, bodies, parses, sessions, cache float64 // MiB
	plugins                               float64 // MiB: the RSP plugins' buffers (rsp.Settings.BufferBytes)
}

func (m memEstimate) totalMiB() int {
	return int(m.base + m.bodies + m.parses + m.sessions + m.cache + m.plugins + 0.999)
}

const mib = 1 << 20

// memoryEstimate is the book's formula (LIM-M1..M5) with this build's
// constants.
func memoryEstimate(c *Config) memEstimate {
	page := float64(c.Fetch.MaxBytes)
	m := memEstimate{
		base:   memBaseMiB,
		bodies: float64(c.Fetch.FetchesInFlight) * page / mib,
		parses: float64(c.Fetch.ParsingInFlight) * max(page*memParseTenthsPerByte/10/mib+memParseFixedMiB, memPDFParseMiB),
	}
	if !c.HTTP.NoLegacyRevisions {
		m.sessions = float64(c.HTTP.MaxSessions) * memSessionKiB / 1024
	}
	if c.CacheEnabled {
		m.cache = float64(c.Search.CacheMaxEntries) * float64(c.Search.CacheMaxEntryBytes) / mib
	}
	m.plugins = float64(c.RSP.BufferBytes()) / mib
	return m
}

// MemoryLimitMiB is the soft memory limit serve sets for the Go runtime:
// memLimitPercent of the worst-case estimate that check states, without the
// sessions, which exist only over HTTP.
func MemoryLimitMiB(c *Config) int {
	m := memoryEstimate(c)
	m.sessions = 0 // sessions exist only over HTTP
	return m.totalMiB() * memLimitPercent / 100
}

// HTTPMemoryLimitMiB is MemoryLimitMiB for serve --transport http: the
// whole estimate, the sessions' share included.
func HTTPMemoryLimitMiB(c *Config) int {
	return memoryEstimate(c).totalMiB() * memLimitPercent / 100
}

func categoriesText(cs []tool.Category) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = string(c)
	}
	return strings.Join(s, ",")
}

func intsText(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// Report returns the lines of the report of `rypsok check`, without the
// "rypsok: " prefix.
func Report(c *Config) []string {
	s := c.Search
	f := c.Fetch
	h := c.HTTP
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }

	add("configuration from %s is valid", c.Source)
	add("search: languages=%s region=%s safe_search=%s max_results=%d (ceiling %d) query_max_chars=%d deadline_ms=%s engine_timeout_ms=%s connect_timeout_ms=%s reserve_ms=%s engines_per_request=%d results_per_engine=%d snippet_max_chars=%d title_max_chars=%d drop_flagged_results=%s engine_attribution=%s",
		strings.Join(s.Languages, ","), s.Region, s.SafeSearch, s.MaxResults, s.MaxResultsCeiling, s.QueryMaxChars,
		ms(s.Deadline), ms(s.EngineTimeout), ms(s.ConnectTimeout), ms(s.Reserve), s.EnginesPerRequest, s.ResultsPerEngine,
		s.SnippetMaxChars, s.TitleMaxChars, onOff(s.DropFlagged), onOff(s.Attribution))
	add("tool rate limits per minute: web_search=%d web_fetch=%d engine_status=%d", c.MCP.SearchPerMinute, c.MCP.FetchPerMinute, c.MCP.StatusPerMinute)
	add("tool call maxima in ms: web_search=%s web_fetch=%s; engine_status reads memory only", ms(s.Deadline+300*time.Millisecond), ms(f.Deadline+time.Second))
	for _, e := range c.Engines {
		extra := ""
		if e.Endpoint != "" {
			extra = " endpoint=" + e.Endpoint
		}
		add("engine %s: type=%s enabled=%s categories=%s preference=%d%s %s", e.ID, e.Type, onOff(e.Enabled), categoriesText(e.Categories), e.Preference, extra, e.Credential)
	}
	served := search.ServedCategories(c.Search.Engines)
	if len(served) == 0 {
		add("categories served: none (no engine is active; web_search answers unavailable, no_engine)")
	} else {
		add("categories served: %s", categoriesText(served))
		add("who learns a query: %s", queryRecipients(c.Search.Engines, served))
	}
	contact := "unset"
	if c.UserAgentContact != "" {
		contact = "set"
	}
	add("service: structured_content=%s shutdown_ms=%s user_agent_contact=%s", onOff(c.MCP.StructuredContent), ms(c.MCP.Shutdown), contact)
	add("service.http: bind=%s callers=%d%s legacy_revisions=%s max_connections=%d max_request_bytes=%d idle_timeout_s=%d max_streams=%d request_timeout_s=%d max_sessions=%d",
		h.Bind, len(c.HTTPCallers), callerIDs(c.HTTPCallers), onOff(!h.NoLegacyRevisions), h.MaxConnections, h.MaxRequestBytes, int(h.IdleTimeout/time.Second), h.MaxStreams, int(h.RequestTimeout/time.Second), h.MaxSessions)
	out = append(out, metricsLine(c))
	add("fetch: ports=%s max_bytes=%d max_chars=%d (ceiling %d) deadline_ms=%s connect_timeout_ms=%s max_redirects=%d robots_txt=%s follow_cross_host_redirects=%s",
		intsText(f.Policy.Ports), f.MaxBytes, f.MaxChars, f.MaxCharsCeiling, ms(f.Deadline), ms(f.ConnectTimeout), f.MaxRedirects, onOff(!f.IgnoreRobotsTxt), onOff(f.FollowCrossHostRedirects))
	add("fetch: read_collapsed=%s", onOff(!f.StrictHidden))
	proxy := "none"
	if c.Proxy != nil {
		proxy = "set"
	}
	add("egress: allow_rules=%d deny_rules=%d allow_http=%s strict_mode=%s proxy=%s", len(f.Policy.Allow), len(f.Policy.Deny), onOff(f.Policy.AllowHTTP), onOff(f.StrictMode), proxy)
	add("privacy: secret_detection=%s", s.SecretDetection)
	add("logging: level=%s log_queries=%s", levelWord(c), onOff(c.LogQueries))
	add("status: enabled=%s", onOff(c.MCP.StatusEnabled))
	add("cache: enabled=%s max_entries=%d ttl_s=%d max_entry_bytes=%d", onOff(c.CacheEnabled), s.CacheMaxEntries, int(s.CacheTTL/time.Second), s.CacheMaxEntryBytes)
	add("scraping: enabled=%s", onOff(c.Scraping))
	add("resilience: failures_to_open=%d first_cooldown_s=%d max_cooldown_s=%d", s.FailuresToOpen, int(s.FirstCooldown/time.Second), int(s.MaxCooldown/time.Second))
	add("limits: outbound_in_flight=%d per_engine_in_flight=%d fetches_in_flight=%d parsing_in_flight=%d strict_mode_urls=%d robots_cache_entries=%d",
		s.OutboundInFlight, s.PerEngineInFlight, f.FetchesInFlight, f.ParsingInFlight, f.StrictModeURLs, f.RobotsCacheEntries)
	out = append(out, rspLines(c)...)
	out = append(out, memoryLine(c))
	for _, w := range c.Warnings {
		out = append(out, "warning: "+w.String())
	}
	return out
}

// queryRecipients says, per served category, which active engines a
// search of it asks: "general -> brave,wikipedia; code -> github".
func queryRecipients(engines []search.EngineConfig, served []tool.Category) string {
	parts := make([]string, 0, len(served))
	for _, cat := range served {
		var ids []string
		for _, e := range engines {
			if e.Disabled == "" && slices.Contains(e.Categories, cat) {
				ids = append(ids, e.ID)
			}
		}
		parts = append(parts, string(cat)+" -> "+strings.Join(ids, ","))
	}
	return strings.Join(parts, "; ")
}

// callerIDs names the callers by id, never by token: " (ids a,b)".
func callerIDs(cs []Caller) string {
	if len(cs) == 0 {
		return ""
	}
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return " (ids " + strings.Join(ids, ",") + ")"
}

func levelWord(c *Config) string {
	switch {
	case c.LogLevel <= -4:
		return "debug"
	case c.LogLevel <= 0:
		return "info"
	case c.LogLevel <= 4:
		return "warn"
	default:
		return "error"
	}
}

func memoryLine(c *Config) string {
	m := memoryEstimate(c)
	note := "measured on this build, " + runtime.GOOS + "/" + runtime.GOARCH
	if runtime.GOOS != "linux" {
		note = "measured on Linux; not measured for this platform"
	}
	sessions := ""
	if !c.HTTP.NoLegacyRevisions {
		sessions = fmt.Sprintf(" + sessions %d", int(m.sessions+0.999))
	}
	if m.plugins > 0 {
		sessions += fmt.Sprintf(" + plugins %d", int(m.plugins+0.999))
	}
	return fmt.Sprintf("memory: worst case about %d MiB (base %d + bodies %d + parses %d%s + cache %d MiB; %s)",
		m.totalMiB(), int(m.base+0.999), int(m.bodies+0.999), int(m.parses+0.999), sessions, int(m.cache+0.999), note)
}
