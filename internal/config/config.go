package config

import (
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"rypsok/egress"
	"rypsok/fetch"
	"rypsok/mcp"
	"rypsok/search"
	"rypsok/secrets"
	"rypsok/tomlx"
	"rypsok/tool"
)

// Load parses and validates data (nil: no file) and resolves secrets.
func Load(data []byte, source string, e Env, o Options) (*Config, error) {
	l := &loader{env: e, opts: o}
	var root *tomlx.Table
	if data != nil {
		if len(data) > MaxFileBytes {
			return nil, &Error{Messages: []string{"the configuration file is larger than 1 MiB"}}
		}
		t, err := tomlx.Parse(data)
		if err != nil {
			return nil, &Error{Messages: []string{err.Error()}}
		}
		root = t
	}
	c := l.load(root, data != nil)
	c.Source = source
	if len(l.errs) > 0 {
		sort.SliceStable(l.errs, func(i, j int) bool { return l.errs[i].order < l.errs[j].order })
		msgs := make([]string, len(l.errs))
		for i, e := range l.errs {
			msgs[i] = e.msg
		}
		return nil, &Error{Messages: msgs}
	}
	return c, nil
}

func (l *loader) load(root *tomlx.Table, fromFile bool) *Config {
	c := &Config{
		Search:   search.DefaultSettings(),
		Fetch:    fetch.DefaultSettings(),
		LogLevel: slog.LevelInfo,
		HTTP:     mcp.DefaultHTTPSettings(),
		MCP:      mcp.DefaultSettings(),
	}
	top := l.section(root, "")
	if fromFile {
		top.seen["config_version"] = true
		v := top.get("config_version")
		switch {
		case v == nil:
			l.errAt(nil, "config_version", "required; write config_version = 1 at the top of the file")
		case v.Kind != tomlx.KindInteger:
			l.errAt(v, "config_version", "expected the integer 1, "+found(v))
		case v.Int != 1:
			l.errAt(v, "config_version", "expected 1, found a version this release does not read")
		}
	}

	l.loadService(top.sub("service"), c)
	l.loadSearch(top.sub("search"), c)
	l.loadFetch(top.sub("fetch"), c)
	l.loadEgress(top.sub("egress"), c)
	l.loadLimits(top.sub("limits"), c)
	l.loadResilience(top.sub("resilience"), c)

	priv := top.sub("privacy")
	mode := "refuse"
	priv.enum("secret_detection", []string{"off", "warn", "mask", "refuse"}, &mode)
	m, _ := secrets.ParseMode(mode)
	c.Search.SecretDetection, c.Fetch.SecretDetection = m, m
	if mode == "off" {
		l.warn = append(l.warn, Warning{"privacy.secret_detection", "credentials in queries and URLs are not checked", `"refuse", the default`})
	}
	priv.done()

	lg := top.sub("logging")
	level := "info"
	lg.enum("level", []string{"error", "warn", "info", "debug"}, &level)
	c.LogLevel = map[string]slog.Level{"error": slog.LevelError, "warn": slog.LevelWarn, "info": slog.LevelInfo, "debug": slog.LevelDebug}[level]
	lg.bool("log_queries", &c.LogQueries)
	c.Search.LogQueries = c.LogQueries
	if c.LogQueries {
		l.warn = append(l.warn, Warning{"logging.log_queries", "query text is written to the debug log", "false"})
	}
	lg.done()

	st := top.sub("status")
	st.bool("enabled", &c.MCP.StatusEnabled)
	st.done()

	ca := top.sub("cache")
	ca.bool("enabled", &c.CacheEnabled)
	c.Search.CacheEnabled = c.CacheEnabled
	ca.seconds("ttl_s", 10, 3600, &c.Search.CacheTTL)
	ca.int("max_entries", 1, 100000, &c.Search.CacheMaxEntries)
	ca.int("max_entry_bytes", 1024, 1048576, &c.Search.CacheMaxEntryBytes)
	ca.done()

	sc := top.sub("scraping")
	sc.bool("enabled", &c.Scraping)
	sc.done()

	l.loadEngines(top, c)
	l.loadRSP(top.sub("rsp"), c)
	top.done()

	// The protocol surface mirrors the search and fetch settings.
	c.MCP.Languages = c.Search.Languages
	c.MCP.MaxResults = c.Search.MaxResults
	c.MCP.MaxResultsCeiling = c.Search.MaxResultsCeiling
	c.MCP.QueryMaxChars = c.Search.QueryMaxChars
	c.MCP.MaxChars = c.Fetch.MaxChars
	c.MCP.MaxCharsCeiling = c.Fetch.MaxCharsCeiling
	c.Fetch.TitleMaxChars = c.Search.TitleMaxChars

	if c.CacheEnabled {
		storable := false
		for _, e := range c.Engines {
			if d, _ := search.Driver(e.Type); e.Active && d.Storable {
				storable = true
			}
		}
		if !storable {
			l.warn = append(l.warn, Warning{"cache.enabled", "no enabled engine allows its results to be stored, so nothing is cached", "turn the cache off, or enable an engine that allows storage"})
		}
	}
	if est := memoryEstimate(c); est.totalMiB() > memoryMaxMiB && runtime.GOOS == "linux" {
		l.warn = append(l.warn, Warning{"memory", fmt.Sprintf("the worst case of about %d MiB is above the %d MiB MemoryMax of the documented unit", est.totalMiB(), memoryMaxMiB),
			"lower fetch.max_bytes, limits.fetches_in_flight, limits.parsing_in_flight, service.http.max_sessions or the [rsp] buffers"})
	}
	c.Warnings = l.warn
	return c
}

func (l *loader) loadService(s *section, c *Config) {
	s.bool("structured_content", &c.MCP.StructuredContent)
	if w, v, ok := s.str("user_agent_contact", "expected a URL or an e-mail address"); ok {
		if msg := checkContact(w); msg != "" {
			l.errAt(v, "service.user_agent_contact", msg)
		} else {
			c.UserAgentContact = w
		}
	}
	s.ms("shutdown_ms", 500, 10000, &c.MCP.Shutdown)

	h := s.sub("http")
	if w, v, ok := h.str("bind", "expected an address and port such as 127.0.0.1:8737"); ok {
		if _, err := netip.ParseAddrPort(w); err != nil {
			l.errAt(v, "service.http.bind", "expected an address and port such as 127.0.0.1:8737, found text of another form")
		} else {
			c.HTTP.Bind = w
		}
	}
	if hosts, _, ok := h.strings("allowed_hosts", "host names or host:port", true, checkAllowedHost); ok {
		c.HTTP.AllowedHosts = hosts
	}
	if origins, _, ok := h.strings("allowed_origins", "origins such as https://app.example or null", true, checkOrigin); ok {
		c.HTTP.AllowedOrigins = origins
	}
	legacy := !c.HTTP.NoLegacyRevisions
	h.bool("legacy_revisions", &legacy)
	c.HTTP.NoLegacyRevisions = !legacy
	h.int("max_connections", 1, 4096, &c.HTTP.MaxConnections)
	h.int("max_request_bytes", 4096, 1048576, &c.HTTP.MaxRequestBytes)
	h.seconds("idle_timeout_s", 5, 600, &c.HTTP.IdleTimeout)
	h.int("max_streams", 1, 256, &c.HTTP.MaxStreams)
	h.int("max_sessions", 1, 2048, &c.HTTP.MaxSessions)
	// request_timeout_s depends on fetch.deadline_ms; it is checked in
	// loadFetch once that is known.
	h.seen["request_timeout_s"] = true

	auth := h.sub("auth")
	l.loadCallers(auth, c)
	auth.done()

	bind, _ := netip.ParseAddrPort(c.HTTP.Bind)
	if a := bind.Addr(); a.IsValid() && !a.IsLoopback() {
		if len(c.HTTPCallers) == 0 {
			l.errKey(h.t, "bind", "service.http.bind", "a non-loopback bind needs [service.http.auth] callers")
		}
		if a.IsUnspecified() && len(c.HTTP.AllowedHosts) == 0 {
			l.errKey(h.t, "bind", "service.http.bind", "a bind on an unspecified address (0.0.0.0, ::) needs service.http.allowed_hosts")
		}
		l.warn = append(l.warn, Warning{"service.http.bind", "the bind is not loopback: the listener speaks plain HTTP, so tokens and traffic cross the network unencrypted", "bind loopback behind a TLS-terminating proxy"})
	}
	// request_timeout_s is read later; keep the section open for it.
	l.pendingHTTP = h
	l.loadMetrics(s.sub("metrics"), c)
	s.done()
}

func (l *loader) loadCallers(auth *section, c *Config) {
	auth.seen["callers"] = true
	v := auth.get("callers")
	if v == nil {
		return
	}
	if v.Kind != tomlx.KindArray {
		l.errAt(v, "service.http.auth.callers", "expected [[service.http.auth.callers]] tables, "+found(v))
		return
	}
	ids := map[string]bool{}
	for i, e := range v.Array {
		key := fmt.Sprintf("service.http.auth.callers[%d]", i)
		if e.Kind != tomlx.KindTable {
			l.errAt(e, key, "expected a table, "+found(e))
			continue
		}
		s := l.section(e.Table, key)
		var cl Caller
		if id, iv, ok := s.str("id", "expected an identifier (lowercase letters, digits and underscores, starting with a letter)"); ok {
			switch {
			case !isIdentifier(id):
				l.errAt(iv, key+".id", "expected an identifier (lowercase letters, digits and underscores, starting with a letter), found text of another form")
			case ids[id]:
				l.errAt(iv, key+".id", "another caller has the same id")
			default:
				ids[id] = true
				cl.ID = id
			}
		} else if iv == nil {
			l.errAt(e, key+".id", "required")
		}
		s.seen["token"] = true
		if tv := s.get("token"); tv != nil {
			l.errKey(e.Table, "token", key+".token", "give the secret by token_env or token_file")
		}
		envName, ev, hasEnv := s.str("token_env", "expected the name of an environment variable")
		file, fv, hasFile := s.str("token_file", "expected a path")
		switch {
		case hasEnv && hasFile:
			l.errAt(fv, key, "give exactly one of token_env or token_file")
		case hasEnv && !secrets.IsEnvName(envName):
			l.errAt(ev, key+".token_env", "the value is not the name of an environment variable (it is not shown)")
		case hasEnv:
			cl.TokenEnv = envName
		case hasFile:
			cl.TokenFile = file
		case ev == nil && fv == nil && s.get("token") == nil:
			l.errAt(e, key, "give the token by token_env or token_file")
		}
		s.done()
		if l.opts.ReadTokens && (cl.TokenEnv != "" || cl.TokenFile != "") {
			l.readToken(&cl, key, ev, fv)
		}
		c.HTTPCallers = append(c.HTTPCallers, cl)
	}
}

func (l *loader) readToken(cl *Caller, key string, ev, fv *tomlx.Value) {
	if cl.TokenEnv != "" {
		tok, err := secrets.FromEnv(cl.TokenEnv, l.env.Lookup)
		if err != nil {
			l.errAt(ev, key+".token_env", "environment variable "+cl.TokenEnv+" is unset or empty")
			return
		}
		if len(tok.Reveal()) < minTokenBytes {
			l.errAt(ev, key+".token_env", fmt.Sprintf("the token is shorter than %d bytes", minTokenBytes))
			return
		}
		if tokenSplit(tok.Reveal()) {
			l.errAt(ev, key+".token_env", tokenSplitMsg)
			return
		}
		cl.Token = tok
		return
	}
	tok, info, err := l.env.ReadFile(cl.TokenFile)
	if err != nil {
		l.errAt(fv, key+".token_file", "the token file cannot be read")
		return
	}
	if len(tok.Reveal()) < minTokenBytes {
		l.errAt(fv, key+".token_file", fmt.Sprintf("the token is shorter than %d bytes", minTokenBytes))
		return
	}
	if msg := tokenFileProblem(info, os.Geteuid()); msg != "" {
		l.errAt(fv, key+".token_file", msg)
		return
	}
	if tokenSplit(tok.Reveal()) {
		l.errAt(fv, key+".token_file", tokenSplitMsg)
		return
	}
	cl.Token = tok
}

// tokenSplitMsg refuses a token no client could send; it never shows the
// token.
const tokenSplitMsg = "the token has a line break or another control character inside it, which no client can send in an Authorization header; keep the token on one line"

// tokenSplit reports a token (white space around it trimmed already)
// with a line break or another control character inside: an HTTP header
// value holds none but the tab.
func tokenSplit(tok string) bool {
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return true
		}
	}
	return false
}

// tokenFileProblem holds a token file to mode 0600 or stricter, owned by
// the user rypsok runs as or by root. One form more is accepted: a
// root-owned file whose group class may read it and nothing else, which is
// how systemd's LoadCredential hands a credential to a service user (mode
// 0400 and an ACL entry, whose mask stat shows as the group's read bit).
// Where files have no Unix owner (Windows) nothing is checked.
func tokenFileProblem(info secrets.FileInfo, euid int) string {
	if info.Owner < 0 || euid < 0 {
		return ""
	}
	if info.Owner != euid && info.Owner != 0 {
		return "the token file belongs to another user; give it to the user rypsok runs as"
	}
	extra := info.Perm & 0o077
	if info.Owner == 0 && euid != 0 {
		extra &^= 0o040
	}
	if extra != 0 {
		return fmt.Sprintf("the token file's mode %04o lets other users read or change it; chmod 600", uint32(info.Perm))
	}
	return ""
}

func (l *loader) loadSearch(s *section, c *Config) {
	ss := &c.Search
	if langs, _, ok := s.strings("languages", "language tags such as en or pt-BR", false, func(w string) string {
		if !isLanguageTag(w) {
			return "expected a language tag such as en or pt-BR, found text of another form"
		}
		return ""
	}); ok {
		ss.Languages = langs
	}
	if w, v, ok := s.str("region", "expected two upper-case letters such as US"); ok {
		if !isRegionCode(w) {
			l.errAt(v, "search.region", "expected two upper-case letters such as US, found text of another form")
		} else {
			ss.Region = w
		}
	}
	s.enum("safe_search", []string{"off", "moderate", "strict"}, &ss.SafeSearch)
	s.int("max_results_ceiling", 1, 20, &ss.MaxResultsCeiling)
	maxResults := int64(ss.MaxResults)
	s.dependentInt("max_results", 1, 20, dependentRange{1, int64(ss.MaxResultsCeiling),
		fmt.Sprintf("search.max_results_ceiling %d", ss.MaxResultsCeiling)}, &maxResults)
	ss.MaxResults = int(maxResults)
	s.int("query_max_chars", 1, 600, &ss.QueryMaxChars)
	s.ms("deadline_ms", 500, 10000, &ss.Deadline)
	s.ms("reserve_ms", 50, 1000, &ss.Reserve)
	engineTimeout := ss.EngineTimeout.Milliseconds()
	s.dependentInt("engine_timeout_ms", 100, 10000, dependentRange{100, (ss.Deadline - ss.Reserve).Milliseconds(),
		fmt.Sprintf("search.deadline_ms %d minus search.reserve_ms %d", ss.Deadline.Milliseconds(), ss.Reserve.Milliseconds())}, &engineTimeout)
	ss.EngineTimeout = time.Duration(engineTimeout) * time.Millisecond
	s.ms("connect_timeout_ms", 200, 5000, &ss.ConnectTimeout)
	s.int("engines_per_request", 1, 16, &ss.EnginesPerRequest)
	s.int("results_per_engine", 5, 20, &ss.ResultsPerEngine)
	s.int("snippet_max_chars", 50, 1000, &ss.SnippetMaxChars)
	s.int("title_max_chars", 50, 300, &ss.TitleMaxChars)
	s.bool("drop_flagged_results", &ss.DropFlagged)
	s.bool("engine_attribution", &ss.Attribution)
	s.done()
}

func (l *loader) loadFetch(s *section, c *Config) {
	fs := &c.Fetch
	s.int("max_chars_ceiling", 500, 100000, &fs.MaxCharsCeiling)
	maxChars := int64(fs.MaxChars)
	s.dependentInt("max_chars", 500, 100000, dependentRange{500, int64(fs.MaxCharsCeiling),
		fmt.Sprintf("fetch.max_chars_ceiling %d", fs.MaxCharsCeiling)}, &maxChars)
	fs.MaxChars = int(maxChars)
	s.intRange("max_bytes", 65536, 10485760, &fs.MaxBytes)
	s.ms("deadline_ms", 1000, 30000, &fs.Deadline)
	s.ms("connect_timeout_ms", 500, 10000, &fs.ConnectTimeout)
	s.int("max_redirects", 0, 10, &fs.MaxRedirects)
	s.seen["ports"] = true
	if v := s.get("ports"); v != nil {
		if ports, ok := l.ports(v); ok {
			fs.Policy.Ports = ports
		}
	}
	robotsTxt := true
	s.bool("robots_txt", &robotsTxt)
	fs.IgnoreRobotsTxt = !robotsTxt
	if !robotsTxt {
		l.warn = append(l.warn, Warning{"fetch.robots_txt", "robots.txt is not honored", "true"})
	}
	s.bool("follow_cross_host_redirects", &fs.FollowCrossHostRedirects)
	if fs.FollowCrossHostRedirects {
		l.warn = append(l.warn, Warning{"fetch.follow_cross_host_redirects", "a redirect to another host is followed instead of being returned to the caller", "false"})
	}
	s.bool("strict_mode", &fs.StrictMode)
	// read_collapsed (default true) reads closed details, disclosure
	// panels and the noscript fallback of a script shell; false keeps
	// REQ-CTX-005's strict reading
	readCollapsed := true
	s.bool("read_collapsed", &readCollapsed)
	fs.StrictHidden = !readCollapsed
	s.done()

	// service.http.request_timeout_s depends on fetch.deadline_ms.
	if h := l.pendingHTTP; h != nil {
		lo := int64((fs.Deadline + 2*time.Second + time.Second - 1) / time.Second)
		x := int64(c.HTTP.RequestTimeout / time.Second)
		h.dependentInt("request_timeout_s", 3, 600, dependentRange{lo, 600,
			fmt.Sprintf("fetch.deadline_ms %d plus 2 s", fs.Deadline.Milliseconds())}, &x)
		c.HTTP.RequestTimeout = time.Duration(x) * time.Second
		h.done()
		l.pendingHTTP = nil
	}
}

func (l *loader) ports(v *tomlx.Value) ([]int, bool) {
	const expect = "expected an array of ports from 1 to 65535"
	if v.Kind != tomlx.KindArray {
		l.errAt(v, "fetch.ports", expect+", "+found(v))
		return nil, false
	}
	if len(v.Array) == 0 {
		l.errAt(v, "fetch.ports", expect+", found an empty array")
		return nil, false
	}
	var out []int
	seen := map[int64]bool{}
	ok := true
	for i, e := range v.Array {
		k := fmt.Sprintf("fetch.ports[%d]", i)
		switch {
		case e.Kind != tomlx.KindInteger:
			l.errAt(e, k, "expected an integer from 1 to 65535 (a port), "+found(e))
			ok = false
		case e.Int < 1 || e.Int > 65535:
			l.errAt(e, k, "expected an integer from 1 to 65535 (a port), found a number outside the range")
			ok = false
		case seen[e.Int]:
			l.errAt(e, k, "listed more than once")
			ok = false
		default:
			seen[e.Int] = true
			out = append(out, int(e.Int))
		}
	}
	return out, ok
}

func (l *loader) loadEgress(s *section, c *Config) {
	p := &c.Fetch.Policy
	s.bool("allow_http", &p.AllowHTTP)
	if p.AllowHTTP {
		l.warn = append(l.warn, Warning{"egress.allow_http", "plain HTTP fetches are allowed", "false"})
	}
	for _, list := range []struct {
		name string
		dst  *[]egress.Rule
	}{{"allow", &p.Allow}, {"deny", &p.Deny}} {
		s.seen[list.name] = true
		v := s.get(list.name)
		if v == nil {
			continue
		}
		if v.Kind != tomlx.KindArray {
			l.errAt(v, "egress."+list.name, "expected an array of rules (networks, addresses, host names or *.suffix), "+found(v))
			continue
		}
		for i, e := range v.Array {
			k := fmt.Sprintf("egress.%s[%d]", list.name, i)
			if e.Kind != tomlx.KindString {
				l.errAt(e, k, "expected text: a rule (a network, an address, a host name or *.suffix), "+found(e))
				continue
			}
			r, err := egress.ParseRule(e.Str)
			if err != nil {
				l.errAt(e, k, err.Error())
				continue
			}
			if list.name == "allow" && r.Wide() {
				l.warn = append(l.warn, Warning{k, "the rule admits a network wider than /16 (IPv4) or /32 (IPv6)", "host names, or a narrower network"})
			}
			*list.dst = append(*list.dst, r)
		}
	}
	if w, v, ok := s.str("proxy", "expected an http or https URL such as http://proxy.example:3128"); ok && w != "" {
		u, err := url.Parse(w)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			l.errAt(v, "egress.proxy", "expected an http or https URL such as http://proxy.example:3128, found text of another form (it is not shown)")
		} else {
			c.Proxy = u
		}
	}
	s.done()
}

func (l *loader) loadLimits(s *section, c *Config) {
	s.int("outbound_in_flight", 1, 256, &c.Search.OutboundInFlight)
	s.int("per_engine_in_flight", 1, 8, &c.Search.PerEngineInFlight)
	s.int("fetches_in_flight", 1, 64, &c.Fetch.FetchesInFlight)
	s.int("parsing_in_flight", 1, 16, &c.Fetch.ParsingInFlight)
	s.int("web_search_per_minute", 1, 6000, &c.MCP.SearchPerMinute)
	s.int("web_fetch_per_minute", 1, 6000, &c.MCP.FetchPerMinute)
	s.int("engine_status_per_minute", 1, 6000, &c.MCP.StatusPerMinute)
	s.int("strict_mode_urls", 100, 1000000, &c.Fetch.StrictModeURLs)
	s.int("robots_cache_entries", 10, 100000, &c.Fetch.RobotsCacheEntries)
	s.done()
}

func (l *loader) loadResilience(s *section, c *Config) {
	r := &c.Search
	s.int("failures_to_open", 1, 10, &r.FailuresToOpen)
	s.seconds("max_cooldown_s", 10, 3600, &r.MaxCooldown)
	maxCooldown := int64(r.MaxCooldown / time.Second)
	firstCooldown := int64(r.FirstCooldown / time.Second)
	s.dependentInt("first_cooldown_s", 10, 600, dependentRange{10, maxCooldown,
		fmt.Sprintf("resilience.max_cooldown_s %d", maxCooldown)}, &firstCooldown)
	r.FirstCooldown = time.Duration(firstCooldown) * time.Second
	s.done()
}

// defaultEngineSet is the zero-configuration set: one engine per line, its
// identifier, type and categories. Each engine is queried only for its
// categories, so general still reaches Wikipedia (and Brave with a key).
var defaultEngineSet = []struct {
	id, typ string
	cats    []tool.Category
}{
	{"arxiv", "arxiv", []tool.Category{tool.CategoryScience}},
	{"brave", "brave", []tool.Category{tool.CategoryGeneral}},
	{"crossref", "crossref", []tool.Category{tool.CategoryScience}},
	{"github", "github", []tool.Category{tool.CategoryCode}},
	{"hackernews", "hackernews", []tool.Category{tool.CategoryNews}},
	{"stackexchange", "stackexchange", []tool.Category{tool.CategoryCode}},
	{"wikipedia", "wikipedia", []tool.Category{tool.CategoryGeneral, tool.CategoryScience}},
}

// defaultEngines is the set configured when the file has no [engines.*]
// (a test checks that the driver table has each type).
func defaultEngines() []search.EngineConfig {
	var out []search.EngineConfig
	for _, d := range defaultEngineSet {
		out = append(out, search.EngineConfig{ID: d.id, Type: d.typ, Categories: append([]tool.Category(nil), d.cats...),
			Preference: 100, Endpoint: defaultEndpoint(d.typ)})
	}
	return out
}

func (l *loader) loadEngines(top *section, c *Config) {
	top.seen["engines"] = true
	v := top.get("engines")
	if v == nil {
		for _, e := range defaultEngines() {
			d, _ := search.Driver(e.Type)
			l.resolveEngine(c, e, d.KeyEnv, "", nil, nil)
		}
		return
	}
	if v.Kind != tomlx.KindTable {
		l.errAt(v, "engines", "expected [engines.<id>] tables, "+found(v))
		return
	}
	ids := append([]string(nil), v.Table.Keys...)
	sort.Strings(ids)
	if len(ids) == 0 {
		l.errKey(top.t, "engines", "engines", "no engine is configured; add an [engines.<id>] table or remove [engines]")
	}
	for _, id := range ids {
		l.loadEngine(c, v, id)
	}
}

// loadEngine reads one [engines.<id>] table of the engines table v.
func (l *loader) loadEngine(c *Config, v *tomlx.Value, id string) {
	ev := v.Table.Values[id]
	if !isIdentifier(id) {
		const rule = "an engine identifier is lowercase letters, digits and underscores, starting with a letter"
		if shown, ok := shownKey(id); ok {
			l.errKey(v.Table, id, "engines."+shown, rule+"; rename the table")
		} else {
			l.errKey(v.Table, id, "engines", rule+"; this one is not "+shown)
		}
		return
	}
	key := "engines." + id
	if ev.Kind != tomlx.KindTable {
		l.errAt(ev, key, "expected a table, "+found(ev))
		return
	}
	s := l.section(ev.Table, key)
	e := search.EngineConfig{ID: id, Preference: 100}
	types := strings.Join(search.DriverTypes(), ", ")
	typ, tv, ok := s.str("type", "expected one of "+types)
	if !ok {
		if tv == nil {
			l.errAt(ev, key+".type", "required; one of "+types)
		}
		s.done()
		return
	}
	drv, known := search.Driver(typ)
	if !known {
		l.errAt(tv, key+".type", "no such driver; use one of "+types)
		s.done()
		return
	}
	scrapes := drv.Scrapes
	e.Type = typ
	enabled := true
	s.bool("enabled", &enabled)
	if cats, cv, ok := s.strings("categories", "categories (general, news, science, code)", false, func(w string) string {
		for _, c := range tool.Categories() {
			if string(c) == w {
				return ""
			}
		}
		return "expected one of general, news, science, code, found an unknown word"
	}); ok {
		for _, w := range cats {
			e.Categories = append(e.Categories, tool.Category(w))
		}
	} else if cv == nil {
		l.errAt(ev, key+".categories", "required; at least one of general, news, science, code")
	}
	s.int("preference", -1<<31, 1<<31-1, &e.Preference)

	s.seen["api_key"] = true
	if s.get("api_key") != nil {
		l.errKey(ev.Table, "api_key", key+".api_key", "give the secret by api_key_env or api_key_file")
	}
	keyEnv, kev, hasEnv := s.str("api_key_env", "expected the name of an environment variable")
	keyFile, kfv, hasFile := s.str("api_key_file", "expected a path")
	keyed := drv.Keyed()
	switch {
	case !drv.TakesKey() && (kev != nil || kfv != nil):
		at := kev
		if at == nil {
			at = kfv
		}
		l.errAt(at, key, "the "+typ+" driver takes no key; remove api_key_env and api_key_file")
		hasEnv, hasFile = false, false
	case hasEnv && hasFile:
		l.errAt(kfv, key, "give exactly one of api_key_env or api_key_file")
		hasEnv, hasFile = false, false
	case hasEnv && !secrets.IsEnvName(keyEnv):
		l.errAt(kev, key+".api_key_env", "the value is not the name of an environment variable (it is not shown)")
		hasEnv = false
	case keyed && kev == nil && kfv == nil && s.get("api_key") == nil:
		l.errAt(ev, key, "the "+typ+" driver needs a key; give api_key_env or api_key_file")
	}
	if !hasEnv {
		keyEnv = ""
	}
	if !hasFile {
		keyFile = ""
	}

	endpoints := strings.Join(drv.Endpoints, " or ")
	if w, v, ok := s.str("endpoint", "expected "+endpoints); ok {
		switch {
		case len(drv.Endpoints) == 0:
			l.errAt(v, key+".endpoint", "the "+typ+" driver has no endpoint; remove endpoint")
		case !slices.Contains(drv.Endpoints, w):
			l.errAt(v, key+".endpoint", "expected "+endpoints+", found an unknown word")
		default:
			e.Endpoint = w
		}
	} else if len(drv.Endpoints) > 0 {
		e.Endpoint = drv.Endpoints[0]
	}
	if w, v, ok := s.str("base_url", "expected an absolute URL"); ok {
		u, err := url.Parse(w)
		check := egress.CheckEngineBaseURL
		if drv.PlainHTTP {
			check = egress.CheckInstanceURL
		}
		switch {
		case !drv.BaseURL:
			l.errAt(v, key+".base_url", "the "+typ+" driver has no base_url; remove base_url")
		case err != nil || !u.IsAbs() || u.Host == "":
			l.errAt(v, key+".base_url", "expected an absolute URL such as https://wiki.example/w/api.php, found text of another form")
		default:
			if err := check(u); err != nil {
				l.errAt(v, key+".base_url", err.Error())
			} else {
				e.BaseURL = u
				if strings.EqualFold(u.Scheme, "http") && !egress.IsLoopbackURL(u) {
					l.warn = append(l.warn, Warning{key + ".base_url", "plain http to a host that is not loopback: queries cross the network unencrypted",
						"serve the instance over https, or beside rypsok on a loopback address"})
				}
			}
		}
	} else if drv.BaseURLRequired && v == nil {
		l.errAt(ev, key+".base_url", "required; the URL of the "+typ+" instance, such as http://127.0.0.1:8888/")
	}
	if w, v, ok := s.str("site", "expected a site's API name such as stackoverflow"); ok {
		switch {
		case !drv.Site:
			l.errAt(v, key+".site", "the "+typ+" driver has no site; remove site")
		case !search.ValidStackExchangeSite(w):
			l.errAt(v, key+".site", "expected a site's API name such as stackoverflow or superuser (lowercase letters, digits, dots and hyphens), found text of another form")
		default:
			e.Site = w
		}
	}
	s.done()

	if scrapes && !c.Scraping {
		l.errAt(tv, key, `type "`+typ+`" scrapes a human-facing interface; it runs only with [scraping] enabled = true, at the operator's risk under the provider's terms`)
		return
	}
	if !enabled {
		e.Disabled = tool.DisabledByOperator
	}
	l.resolveEngine(c, e, keyEnv, keyFile, kev, kfv)
}

// resolveEngine reads the engine's key (a missing key makes it inactive, not
// invalid) and records what check says about it.
func (l *loader) resolveEngine(c *Config, e search.EngineConfig, keyEnv, keyFile string, kev, kfv *tomlx.Value) {
	r := EngineReport{ID: e.ID, Type: e.Type, Enabled: e.Disabled == "", Categories: e.Categories,
		Preference: e.Preference, Endpoint: e.Endpoint, Scrapes: scrapes(e.Type)}
	drv, _ := search.Driver(e.Type)
	// An optional key that cannot be read leaves the engine running
	// keyless, at the provider's keyless limit.
	keyless := func(why string) {
		r.Credential = "no credential: " + why + "; running keyless at the provider's lower limit"
		r.Active, r.KeyUnread = true, true
	}
	switch {
	case e.Disabled != "":
		r.Credential = "disabled by configuration"
	case keyEnv == "" && keyFile == "" && drv.OptionalKey:
		r.Credential = "no credential given (optional; a key raises the provider's limit)"
		r.Active = true
	case keyEnv == "" && keyFile == "":
		r.Credential = "no credential needed"
		r.Active = true
	case keyEnv != "":
		k, err := secrets.FromEnv(keyEnv, l.env.Lookup)
		switch {
		case err != nil && drv.OptionalKey:
			keyless("environment variable " + keyEnv + " is unset or empty")
		case err != nil:
			r.Credential = "inactive: environment variable " + keyEnv + " is unset or empty"
			e.Disabled = tool.DisabledNoKey
		default:
			e.Key = k
			r.Credential = "credential resolved"
			r.Active = true
		}
	default:
		k, _, err := l.env.ReadFile(keyFile)
		switch {
		case err != nil && drv.OptionalKey:
			keyless("the key file cannot be read")
		case err != nil:
			r.Credential = "inactive: the key file cannot be read"
			e.Disabled = tool.DisabledNoKey
		default:
			e.Key = k
			r.Credential = "credential resolved"
			r.Active = true
		}
	}
	if r.Scrapes && r.Enabled {
		l.warn = append(l.warn, Warning{"engines." + e.ID, "the engine scrapes a human-facing page, at the operator's risk under the provider's terms", "an engine with an API"})
	}
	c.Search.Engines = append(c.Search.Engines, e)
	c.Engines = append(c.Engines, r)
}

// checkContact accepts an http(s) URL or an e-mail address, bounded and free
// of control characters, since it goes into every User-Agent.
func checkContact(w string) string {
	const msg = "expected a URL or an e-mail address of at most 200 characters, found text of another form"
	if w == "" {
		return ""
	}
	if utf8.RuneCountInString(w) > 200 || strings.ContainsAny(w, "()<>\";\\") {
		return msg
	}
	for _, r := range w {
		if r < 0x21 || r == 0x7f || r > 0x7e {
			return msg
		}
	}
	if u, err := url.Parse(w); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
		return ""
	}
	if at := strings.IndexByte(w, '@'); at > 0 && at < len(w)-1 && strings.Contains(w[at+1:], ".") {
		return ""
	}
	return msg
}

func checkAllowedHost(w string) string {
	const msg = "expected a host name or host:port such as rypsok.example:443, found text of another form"
	host, port := w, ""
	if h, p, err := net.SplitHostPort(w); err == nil {
		host, port = h, p
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return msg
		}
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return ""
	}
	if !isHostName(host) {
		return msg
	}
	return ""
}

func checkOrigin(w string) string {
	const msg = "expected an origin such as https://app.example, https://app.example:* or null, found text of another form"
	if w == "null" {
		return ""
	}
	scheme, rest, ok := strings.Cut(w, "://")
	if !ok || (scheme != "http" && scheme != "https") || rest == "" || strings.ContainsAny(rest, "/?#@") {
		return msg
	}
	host, port := rest, ""
	if i := strings.LastIndexByte(rest, ':'); i >= 0 && !strings.HasSuffix(rest, "]") {
		host, port = rest[:i], rest[i+1:]
	}
	if port != "" && port != "*" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return msg
		}
	}
	if checkAllowedHost(strings.Trim(host, "[]")) != "" {
		return msg
	}
	return ""
}

// defaultEndpoint is the first endpoint of a driver type in the table.
func defaultEndpoint(typ string) string {
	if d, _ := search.Driver(typ); len(d.Endpoints) > 0 {
		return d.Endpoints[0]
	}
	return ""
}

// scrapes reports whether a driver type scrapes, from the table.
func scrapes(typ string) bool {
	d, _ := search.Driver(typ)
	return d.Scrapes
}
