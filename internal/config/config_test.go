package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"rypsok/search"
	"rypsok/secrets"
)

// testEnv is an environment with the given variables and no files.
func testEnv(vars map[string]string) Env {
	return Env{
		Lookup: func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
		ReadFile: func(p string) (secrets.Secret, secrets.FileInfo, error) {
			return secrets.FromFile(p)
		},
	}
}

func load(t *testing.T, doc string, vars map[string]string) (*Config, error) {
	t.Helper()
	return Load([]byte(doc), "--config test.toml", testEnv(vars), Options{ReadTokens: true})
}

func mustLoad(t *testing.T, doc string, vars map[string]string) *Config {
	t.Helper()
	c, err := load(t, doc, vars)
	if err != nil {
		t.Fatalf("configuration refused:\n%s\n--- document ---\n%s", err, doc)
	}
	return c
}

func mustRefuse(t *testing.T, doc string, vars map[string]string, want ...string) string {
	t.Helper()
	_, err := load(t, doc, vars)
	if err == nil {
		t.Fatalf("configuration accepted, want refusal containing %q\n--- document ---\n%s", want, doc)
	}
	msg := err.Error()
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Fatalf("message %q does not contain %q", msg, w)
		}
	}
	return msg
}

// intKey describes one integer key of the schema.
type intKey struct {
	table, key string
	min, max   int64
	def        int64
	get        func(*Config) int64
}

func intKeys() []intKey {
	msf := func(d time.Duration) int64 { return d.Milliseconds() }
	sf := func(d time.Duration) int64 { return int64(d / time.Second) }
	return []intKey{
		{"service", "shutdown_ms", 500, 10000, 3000, func(c *Config) int64 { return msf(c.MCP.Shutdown) }},
		{"service.http", "max_connections", 1, 4096, 64, func(c *Config) int64 { return int64(c.HTTP.MaxConnections) }},
		{"service.http", "max_request_bytes", 4096, 1048576, 65536, func(c *Config) int64 { return int64(c.HTTP.MaxRequestBytes) }},
		{"service.http", "idle_timeout_s", 5, 600, 60, func(c *Config) int64 { return int64(c.HTTP.IdleTimeout / time.Second) }},
		{"service.http", "max_streams", 1, 256, 16, func(c *Config) int64 { return int64(c.HTTP.MaxStreams) }},
		{"service.http", "max_sessions", 1, 2048, 256, func(c *Config) int64 { return int64(c.HTTP.MaxSessions) }},
		{"search", "max_results_ceiling", 1, 20, 20, func(c *Config) int64 { return int64(c.Search.MaxResultsCeiling) }},
		{"search", "query_max_chars", 1, 600, 400, func(c *Config) int64 { return int64(c.Search.QueryMaxChars) }},
		{"search", "connect_timeout_ms", 200, 5000, 1000, func(c *Config) int64 { return msf(c.Search.ConnectTimeout) }},
		{"search", "engines_per_request", 1, 16, 8, func(c *Config) int64 { return int64(c.Search.EnginesPerRequest) }},
		{"search", "results_per_engine", 5, 20, 10, func(c *Config) int64 { return int64(c.Search.ResultsPerEngine) }},
		{"search", "snippet_max_chars", 50, 1000, 300, func(c *Config) int64 { return int64(c.Search.SnippetMaxChars) }},
		{"search", "title_max_chars", 50, 300, 150, func(c *Config) int64 { return int64(c.Search.TitleMaxChars) }},
		{"fetch", "max_chars_ceiling", 500, 100000, 20000, func(c *Config) int64 { return int64(c.Fetch.MaxCharsCeiling) }},
		{"fetch", "max_bytes", 65536, 10485760, 5242880, func(c *Config) int64 { return c.Fetch.MaxBytes }},
		{"fetch", "connect_timeout_ms", 500, 10000, 3000, func(c *Config) int64 { return msf(c.Fetch.ConnectTimeout) }},
		{"fetch", "max_redirects", 0, 10, 5, func(c *Config) int64 { return int64(c.Fetch.MaxRedirects) }},
		{"limits", "outbound_in_flight", 1, 256, 32, func(c *Config) int64 { return int64(c.Search.OutboundInFlight) }},
		{"limits", "per_engine_in_flight", 1, 8, 2, func(c *Config) int64 { return int64(c.Search.PerEngineInFlight) }},
		{"limits", "fetches_in_flight", 1, 64, 4, func(c *Config) int64 { return int64(c.Fetch.FetchesInFlight) }},
		{"limits", "parsing_in_flight", 1, 16, 2, func(c *Config) int64 { return int64(c.Fetch.ParsingInFlight) }},
		{"limits", "web_search_per_minute", 1, 6000, 60, func(c *Config) int64 { return int64(c.MCP.SearchPerMinute) }},
		{"limits", "web_fetch_per_minute", 1, 6000, 30, func(c *Config) int64 { return int64(c.MCP.FetchPerMinute) }},
		{"limits", "engine_status_per_minute", 1, 6000, 30, func(c *Config) int64 { return int64(c.MCP.StatusPerMinute) }},
		{"limits", "strict_mode_urls", 100, 1000000, 10000, func(c *Config) int64 { return int64(c.Fetch.StrictModeURLs) }},
		{"limits", "robots_cache_entries", 10, 100000, 1000, func(c *Config) int64 { return int64(c.Fetch.RobotsCacheEntries) }},
		{"resilience", "failures_to_open", 1, 10, 3, func(c *Config) int64 { return int64(c.Search.FailuresToOpen) }},
		{"resilience", "max_cooldown_s", 10, 3600, 900, func(c *Config) int64 { return sf(c.Search.MaxCooldown) }},
		{"cache", "ttl_s", 10, 3600, 300, func(c *Config) int64 { return sf(c.Search.CacheTTL) }},
		{"cache", "max_entries", 1, 100000, 1000, func(c *Config) int64 { return int64(c.Search.CacheMaxEntries) }},
		{"cache", "max_entry_bytes", 1024, 1048576, 32768, func(c *Config) int64 { return int64(c.Search.CacheMaxEntryBytes) }},
	}
}

// docWith is a minimal valid file with one key set in its table. The
// dependent keys are widened so that each key can reach both ends of its
// own range.
func docWith(table, key, value string) string {
	var b strings.Builder
	b.WriteString("config_version = 1\n")
	// Keys that another key's range depends on come with that key at its
	// smallest, after the key under test so that it stays on line 3.
	extra := map[string]string{
		"resilience.max_cooldown_s":  "first_cooldown_s = 10\n",
		"search.max_results_ceiling": "max_results = 1\n",
		"fetch.max_chars_ceiling":    "max_chars = 500\n",
	}[table+"."+key]
	fmt.Fprintf(&b, "[%s]\n%s = %s\n%s", table, key, value, extra)
	b.WriteString("[engines.wikipedia]\ntype = \"wikipedia\"\ncategories = [\"general\"]\n")
	return b.String()
}

func TestREQ_CFG_003_EveryIntegerKeyDefaultRangeAndType(t *testing.T) {
	for _, k := range intKeys() {
		k := k
		t.Run(k.table+"."+k.key, func(t *testing.T) {
			full := k.table + "." + k.key
			// Default.
			c := mustLoad(t, docWith("search", "safe_search", `"moderate"`), nil)
			if got := k.get(c); got != k.def {
				t.Fatalf("default: got %d, want %d", got, k.def)
			}
			// Both ends.
			for _, v := range []int64{k.min, k.max} {
				c := mustLoad(t, docWith(k.table, k.key, fmt.Sprint(v)), nil)
				if got := k.get(c); got != v {
					t.Fatalf("%s = %d: effective %d", full, v, got)
				}
			}
			// One past each end: the message names the key and the range.
			rng := fmt.Sprintf("expected an integer from %d to %d", k.min, k.max)
			for _, v := range []int64{k.min - 1, k.max + 1} {
				msg := mustRefuse(t, docWith(k.table, k.key, fmt.Sprint(v)), nil, full+": ", rng, "(line 3, column ")
				if strings.Contains(msg, fmt.Sprint(v)) && v > 99 {
					t.Fatalf("message repeats the value: %q", msg)
				}
			}
			// Wrong types: the message names key, expectation, found kind, place.
			for value, kind := range map[string]string{`"12"`: "found text", "true": "found a boolean", "1.5": "found a decimal number", "[1]": "found an array", "1979-05-27": "found a date or time"} {
				msg := mustRefuse(t, docWith(k.table, k.key, value), nil, full+": "+rng+", "+kind, "(line 3, column ")
				if strings.Contains(msg, "12") {
					t.Fatalf("message repeats the text: %q", msg)
				}
			}
		})
	}
}

// refusedWith loads doc and requires exactly the messages want, in order.
func refusedWith(t *testing.T, doc string, vars map[string]string, want ...string) []string {
	t.Helper()
	_, err := load(t, doc, vars)
	ce, ok := err.(*Error)
	if !ok {
		t.Fatalf("got %v (%T), want a refusal\n--- document ---\n%s", err, err, doc)
	}
	if strings.Join(ce.Messages, "\n") != strings.Join(want, "\n") {
		t.Fatalf("messages:\n%s\nwant:\n%s\n--- document ---\n%s", strings.Join(ce.Messages, "\n"), strings.Join(want, "\n"), doc)
	}
	return ce.Messages
}

// Every key whose range depends on another key (the book's "depends on"
// rows: search.max_results, search.engine_timeout_ms, fetch.max_chars,
// service.http.request_timeout_s, resilience.first_cooldown_s) is refused
// with the range in force, never its own wider range: the message gives
// both ends, names the key and every key the range depends on with the
// value in force (set in the file or the default), and never repeats the
// key's own value. There is one message per key, also when the value lies
// outside the key's own range or the default lies outside the range in
// force. A number outside the key's own range reads "expected an integer
// from", as the book's troubleshooting table shows a too large number; one
// only outside the range in force reads "must be between", as its
// dependent-range row shows.
func TestREQ_CFG_005_DependentRanges(t *testing.T) {
	cases := []struct {
		name, doc string
		want      string
		hidden    string // the key's value, which the message must not repeat
	}{
		// search.max_results, 1 to search.max_results_ceiling.
		{"max_results above its ceiling", "config_version = 1\n[search]\nmax_results_ceiling = 10\nmax_results = 12\n",
			"search.max_results: must be between 1 and 10 (search.max_results_ceiling 10), found a larger number (line 4, column 15)", ""},
		{"max_results above its own range gives the ceiling in force", "config_version = 1\n[search]\nmax_results_ceiling = 10\nmax_results = 77\n",
			"search.max_results: expected an integer from 1 to 10 (search.max_results_ceiling 10), found a larger number (line 4, column 15)", "77"},
		{"max_results above the default ceiling", "config_version = 1\n[search]\nmax_results = 21\n",
			"search.max_results: expected an integer from 1 to 20 (search.max_results_ceiling 20), found a larger number (line 3, column 15)", "21"},
		{"max_results below the range", "config_version = 1\n[search]\nmax_results_ceiling = 10\nmax_results = 0\n",
			"search.max_results: expected an integer from 1 to 10 (search.max_results_ceiling 10), found a smaller number (line 4, column 15)", ""},
		{"max_results of another kind under a lower ceiling", "config_version = 1\n[search]\nmax_results_ceiling = 10\nmax_results = \"many\"\n",
			"search.max_results: expected an integer from 1 to 10 (search.max_results_ceiling 10), found text (line 4, column 15)", "many"},
		{"default max_results above a lower ceiling", "config_version = 1\n[search]\nmax_results_ceiling = 3\n",
			"search.max_results: must be between 1 and 3 (search.max_results_ceiling 3); the default, 5, is outside it, so set this key", ""},

		// fetch.max_chars, 500 to fetch.max_chars_ceiling.
		{"max_chars above the default ceiling", "config_version = 1\n[fetch]\nmax_chars = 30000\n",
			"fetch.max_chars: must be between 500 and 20000 (fetch.max_chars_ceiling 20000), found a larger number (line 3, column 13)", "30000"},
		{"max_chars above its own range gives the ceiling in force", "config_version = 1\n[fetch]\nmax_chars = 123456\n",
			"fetch.max_chars: expected an integer from 500 to 20000 (fetch.max_chars_ceiling 20000), found a larger number (line 3, column 13)", "123456"},
		{"max_chars above a lower ceiling", "config_version = 1\n[fetch]\nmax_chars_ceiling = 1000\nmax_chars = 3001\n",
			"fetch.max_chars: must be between 500 and 1000 (fetch.max_chars_ceiling 1000), found a larger number (line 4, column 13)", "3001"},
		{"max_chars below the range", "config_version = 1\n[fetch]\nmax_chars_ceiling = 1000\nmax_chars = 499\n",
			"fetch.max_chars: expected an integer from 500 to 1000 (fetch.max_chars_ceiling 1000), found a smaller number (line 4, column 13)", "499"},
		{"default max_chars above a lower ceiling", "config_version = 1\n[fetch]\nmax_chars_ceiling = 2000\n",
			"fetch.max_chars: must be between 500 and 2000 (fetch.max_chars_ceiling 2000); the default, 3000, is outside it, so set this key", ""},

		// search.engine_timeout_ms, 100 to search.deadline_ms - search.reserve_ms.
		{"engine timeout within deadline minus reserve", "config_version = 1\n[search]\ndeadline_ms = 500\nreserve_ms = 200\nengine_timeout_ms = 400\n",
			"search.engine_timeout_ms: must be between 100 and 300 (search.deadline_ms 500 minus search.reserve_ms 200), found a larger number (line 5, column 21)", ""},
		{"engine timeout above its own range gives the defaults in force", "config_version = 1\n[search]\nengine_timeout_ms = 54321\n",
			"search.engine_timeout_ms: expected an integer from 100 to 2300 (search.deadline_ms 2500 minus search.reserve_ms 200), found a larger number (line 3, column 21)", "54321"},
		{"engine timeout below the range", "config_version = 1\n[search]\nreserve_ms = 1000\nengine_timeout_ms = 99\n",
			"search.engine_timeout_ms: expected an integer from 100 to 1500 (search.deadline_ms 2500 minus search.reserve_ms 1000), found a smaller number (line 4, column 21)", "99"},
		{"engine timeout of another kind", "config_version = 1\n[search]\nengine_timeout_ms = true\n",
			"search.engine_timeout_ms: expected an integer from 100 to 2300 (search.deadline_ms 2500 minus search.reserve_ms 200), found a boolean (line 3, column 21)", ""},
		{"engine timeout of another kind under a short deadline is one message", "config_version = 1\n[search]\ndeadline_ms = 1000\nengine_timeout_ms = \"fast\"\n",
			"search.engine_timeout_ms: expected an integer from 100 to 800 (search.deadline_ms 1000 minus search.reserve_ms 200), found text (line 4, column 21)", "fast"},
		{"default engine timeout above a short deadline", "config_version = 1\n[search]\ndeadline_ms = 1000\n",
			"search.engine_timeout_ms: must be between 100 and 800 (search.deadline_ms 1000 minus search.reserve_ms 200); the default, 2000, is outside it, so set this key", ""},
		{"no engine timeout fits", "config_version = 1\n[search]\ndeadline_ms = 500\nreserve_ms = 1000\nengine_timeout_ms = 100\n",
			"search.engine_timeout_ms: no value fits: its range would be 100 to -500 (search.deadline_ms 500 minus search.reserve_ms 1000); change the keys it depends on (line 5, column 1)", ""},

		// service.http.request_timeout_s, fetch.deadline_ms + 2 s (rounded up) to 600.
		{"request timeout below fetch deadline plus 2 s", "config_version = 1\n[service.http]\nrequest_timeout_s = 11\n",
			"service.http.request_timeout_s: must be between 12 and 600 (fetch.deadline_ms 10000 plus 2 s), found a smaller number (line 3, column 21)", ""},
		{"request timeout below its own range is one message", "config_version = 1\n[service.http]\nrequest_timeout_s = 1\n[fetch]\ndeadline_ms = 30000\n",
			"service.http.request_timeout_s: expected an integer from 32 to 600 (fetch.deadline_ms 30000 plus 2 s), found a smaller number (line 3, column 21)", ""},
		{"request timeout above the range", "config_version = 1\n[service.http]\nrequest_timeout_s = 6543\n",
			"service.http.request_timeout_s: expected an integer from 12 to 600 (fetch.deadline_ms 10000 plus 2 s), found a larger number (line 3, column 21)", "6543"},
		{"request timeout rounds the fetch deadline up", "config_version = 1\n[service.http]\nrequest_timeout_s = 12\n[fetch]\ndeadline_ms = 10500\n",
			"service.http.request_timeout_s: must be between 13 and 600 (fetch.deadline_ms 10500 plus 2 s), found a smaller number (line 3, column 21)", ""},
		{"request timeout of another kind under a longer fetch deadline", "config_version = 1\n[service.http]\nrequest_timeout_s = \"slow\"\n[fetch]\ndeadline_ms = 30000\n",
			"service.http.request_timeout_s: expected an integer from 32 to 600 (fetch.deadline_ms 30000 plus 2 s), found text (line 3, column 21)", "slow"},
		{"default request timeout below a longer fetch deadline", "config_version = 1\n[fetch]\ndeadline_ms = 30000\n",
			"service.http.request_timeout_s: must be between 32 and 600 (fetch.deadline_ms 30000 plus 2 s); the default, 30, is outside it, so set this key", ""},

		// resilience.first_cooldown_s, 10 to the lower of 600 and resilience.max_cooldown_s.
		{"first cooldown above max", "config_version = 1\n[resilience]\nfirst_cooldown_s = 120\nmax_cooldown_s = 60\n",
			"resilience.first_cooldown_s: must be between 10 and 60 (resilience.max_cooldown_s 60), found a larger number (line 3, column 20)", "120"},
		{"first cooldown above its own range gives the max in force", "config_version = 1\n[resilience]\nfirst_cooldown_s = 700\nmax_cooldown_s = 60\n",
			"resilience.first_cooldown_s: expected an integer from 10 to 60 (resilience.max_cooldown_s 60), found a larger number (line 3, column 20)", "700"},
		{"first cooldown above its own range under the default max", "config_version = 1\n[resilience]\nfirst_cooldown_s = 700\n",
			"resilience.first_cooldown_s: expected an integer from 10 to 600 (resilience.max_cooldown_s 900), found a larger number (line 3, column 20)", "700"},
		{"first cooldown below the range", "config_version = 1\n[resilience]\nfirst_cooldown_s = 9\nmax_cooldown_s = 60\n",
			"resilience.first_cooldown_s: expected an integer from 10 to 60 (resilience.max_cooldown_s 60), found a smaller number (line 3, column 20)", ""},
		{"default first cooldown above a lower max", "config_version = 1\n[resilience]\nmax_cooldown_s = 30\n",
			"resilience.first_cooldown_s: must be between 10 and 30 (resilience.max_cooldown_s 30); the default, 60, is outside it, so set this key", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msgs := refusedWith(t, c.doc, nil, c.want)
			if c.hidden != "" && strings.Contains(msgs[0], c.hidden) {
				t.Fatalf("the message repeats the value %s: %q", c.hidden, msgs[0])
			}
		})
	}
	// And the edges that fit.
	mustLoad(t, "config_version = 1\n[search]\ndeadline_ms = 500\nreserve_ms = 200\nengine_timeout_ms = 300\n", nil)
	mustLoad(t, "config_version = 1\n[search]\ndeadline_ms = 500\nreserve_ms = 400\nengine_timeout_ms = 100\n", nil)
	mustLoad(t, "config_version = 1\n[resilience]\nfirst_cooldown_s = 60\nmax_cooldown_s = 60\n", nil)
	mustLoad(t, "config_version = 1\n[resilience]\nfirst_cooldown_s = 600\nmax_cooldown_s = 3600\n", nil)
	mustLoad(t, "config_version = 1\n[service.http]\nrequest_timeout_s = 12\n", nil)
	mustLoad(t, "config_version = 1\n[service.http]\nrequest_timeout_s = 13\n[fetch]\ndeadline_ms = 10500\n", nil)
	c := mustLoad(t, "config_version = 1\n[search]\nmax_results_ceiling = 10\nmax_results = 10\n", nil)
	if c.Search.MaxResults != 10 || c.MCP.MaxResultsCeiling != 10 {
		t.Fatalf("max_results %d ceiling %d", c.Search.MaxResults, c.MCP.MaxResultsCeiling)
	}
	c = mustLoad(t, "config_version = 1\n[fetch]\nmax_chars_ceiling = 1000\nmax_chars = 1000\n", nil)
	if c.Fetch.MaxChars != 1000 || c.MCP.MaxCharsCeiling != 1000 {
		t.Fatalf("max_chars %d ceiling %d", c.Fetch.MaxChars, c.MCP.MaxCharsCeiling)
	}
	c = mustLoad(t, "config_version = 1\n[search]\nengine_timeout_ms = 2300\n[service.http]\nrequest_timeout_s = 600\n[resilience]\nfirst_cooldown_s = 10\n", nil)
	if c.Search.EngineTimeout != 2300*time.Millisecond || c.HTTP.RequestTimeout != 600*time.Second || c.Search.FirstCooldown != 10*time.Second {
		t.Fatalf("engine timeout %v, request timeout %v, first cooldown %v", c.Search.EngineTimeout, c.HTTP.RequestTimeout, c.Search.FirstCooldown)
	}
}

// TOML 1.0 allows arrays of mixed kinds, so every array-valued key of the
// schema must refuse an element of the wrong kind itself: the message names
// the key and the element, the kind expected and the kind found, and the
// element's own line and column.
func TestREQ_CFG_005_ArrayElementOfTheWrongKind(t *testing.T) {
	tok := map[string]string{"TOK": strings.Repeat("t", 40)}
	cases := []struct {
		name, doc string
		vars      map[string]string
		want      []string
	}{
		{"search.languages", docWith("search", "languages", `["en", 3]`), nil,
			[]string{"search.languages[1]: expected text: language tags such as en or pt-BR, found an integer (line 3, column 20)"}},
		{"search.languages, two elements", docWith("search", "languages", `[1, "en", {}]`), nil,
			[]string{"search.languages[0]: expected text: language tags such as en or pt-BR, found an integer (line 3, column 14)",
				"search.languages[2]: expected text: language tags such as en or pt-BR, found a table (line 3, column 23)"}},
		{"service.http.allowed_hosts", docWith("service.http", "allowed_hosts", `["localhost", {h = 1}]`), nil,
			[]string{"service.http.allowed_hosts[1]: expected text: host names or host:port, found a table (line 3, column 31)"}},
		{"service.http.allowed_origins", docWith("service.http", "allowed_origins", `["null", true]`), nil,
			[]string{"service.http.allowed_origins[1]: expected text: origins such as https://app.example or null, found a boolean (line 3, column 28)"}},
		{"service.http.auth.callers", docWith("service.http.auth", "callers", "[{id = \"a\", token_env = \"TOK\"},\n  \"b\"]"), tok,
			[]string{"service.http.auth.callers[1]: expected a table, found text (line 4, column 3)"}},
		{"fetch.ports", docWith("fetch", "ports", `[443, "8443"]`), nil,
			[]string{"fetch.ports[1]: expected an integer from 1 to 65535 (a port), found text (line 3, column 15)"}},
		{"egress.allow", docWith("egress", "allow", `["wiki.corp.example", 10]`), nil,
			[]string{"egress.allow[1]: expected text: a rule (a network, an address, a host name or *.suffix), found an integer (line 3, column 31)"}},
		{"egress.deny", docWith("egress", "deny", `[["x"], "*.ads.example"]`), nil,
			[]string{"egress.deny[0]: expected text: a rule (a network, an address, a host name or *.suffix), found an array (line 3, column 9)"}},
		{"engines.<id>.categories", "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\ncategories = [\n  \"general\",\n  1.5,\n]\n", nil,
			[]string{"engines.w.categories[1]: expected text: categories (general, news, science, code), found a decimal number; this configuration has no key that takes a float (line 6, column 3)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { refusedWith(t, c.doc, c.vars, c.want...) })
	}
	// The same arrays with elements of the one right kind are read.
	c := mustLoad(t, "config_version = 1\n[search]\nlanguages = [\"en\", \"ja\"]\n[fetch]\nports = [443, 8443]\n[egress]\nallow = [\"wiki.corp.example\"]\ndeny = [\"*.ads.example\"]\n"+
		"[engines.w]\ntype = \"wikipedia\"\ncategories = [\"general\", \"science\"]\n", nil)
	if fmt.Sprint(c.Search.Languages, c.Fetch.Policy.Ports, len(c.Fetch.Policy.Allow), len(c.Fetch.Policy.Deny), c.Engines[0].Categories) != "[en ja] [443 8443] 1 1 [general science]" {
		t.Fatalf("read %v %v %d %d %v", c.Search.Languages, c.Fetch.Policy.Ports, len(c.Fetch.Policy.Allow), len(c.Fetch.Policy.Deny), c.Engines[0].Categories)
	}
}

func TestREQ_CFG_003_OtherKeysDefaultsAndForms(t *testing.T) {
	c := mustLoad(t, "config_version = 1\n", nil)
	if got := strings.Join(c.Search.Languages, ","); got != "en" || c.Search.Region != "US" || c.Search.SafeSearch != "moderate" {
		t.Fatalf("search defaults: %s %s %s", got, c.Search.Region, c.Search.SafeSearch)
	}
	if c.Search.MaxResults != 5 || c.Search.Deadline != 2500*time.Millisecond || c.Search.EngineTimeout != 2000*time.Millisecond || c.Search.Reserve != 200*time.Millisecond {
		t.Fatalf("search numbers: %+v", c.Search)
	}
	if c.Fetch.MaxChars != 3000 || c.Fetch.Deadline != 10*time.Second || c.Fetch.IgnoreRobotsTxt || c.Fetch.StrictMode || c.Fetch.FollowCrossHostRedirects {
		t.Fatalf("fetch defaults: %+v", c.Fetch)
	}
	if fmt.Sprint(c.Fetch.Policy.Ports) != "[80 443]" || c.Fetch.Policy.AllowHTTP {
		t.Fatalf("egress defaults: %+v", c.Fetch.Policy)
	}
	if c.Search.SecretDetection != secrets.Refuse || c.LogQueries || !c.MCP.StatusEnabled || c.CacheEnabled || c.Scraping || !c.MCP.StructuredContent {
		t.Fatalf("switch defaults wrong")
	}
	if c.HTTP.Bind != "127.0.0.1:8737" || c.HTTP.NoLegacyRevisions || c.HTTP.RequestTimeout != 30*time.Second {
		t.Fatalf("http defaults: %+v", c.HTTP)
	}
	if c.Search.FirstCooldown != 60*time.Second || c.Search.MaxCooldown != 900*time.Second {
		t.Fatalf("resilience defaults")
	}

	// Booleans: both values, and a wrong type.
	for _, b := range []struct{ table, key string }{
		{"service", "structured_content"}, {"service.http", "legacy_revisions"}, {"search", "drop_flagged_results"},
		{"search", "engine_attribution"}, {"fetch", "robots_txt"}, {"fetch", "follow_cross_host_redirects"},
		{"fetch", "strict_mode"}, {"fetch", "read_collapsed"}, {"egress", "allow_http"}, {"logging", "log_queries"}, {"status", "enabled"},
		{"cache", "enabled"}, {"scraping", "enabled"},
	} {
		mustLoad(t, docWith(b.table, b.key, "true"), nil)
		mustLoad(t, docWith(b.table, b.key, "false"), nil)
		mustRefuse(t, docWith(b.table, b.key, `"yes"`), nil, b.table+"."+b.key+": expected true or false (without quotes), found text (line 3, column ")
	}
	// Enumerations: every word, an unknown word (never repeated), a wrong type.
	for _, e := range []struct {
		table, key string
		words      []string
	}{
		{"search", "safe_search", []string{"off", "moderate", "strict"}},
		{"privacy", "secret_detection", []string{"off", "warn", "mask", "refuse"}},
		{"logging", "level", []string{"error", "warn", "info", "debug"}},
	} {
		for _, w := range e.words {
			mustLoad(t, docWith(e.table, e.key, `"`+w+`"`), nil)
		}
		msg := mustRefuse(t, docWith(e.table, e.key, `"verbose-please"`), nil, e.table+"."+e.key+": expected one of "+strings.Join(e.words, ", ")+", found an unknown word")
		if strings.Contains(msg, "verbose-please") {
			t.Fatalf("message repeats the word: %q", msg)
		}
		mustRefuse(t, docWith(e.table, e.key, "3"), nil, e.table+"."+e.key+": expected one of", "found an integer")
	}
	// Strings and arrays with their own forms.
	mustLoad(t, docWith("search", "languages", `["en", "ja", "pt-BR"]`), nil)
	mustRefuse(t, docWith("search", "languages", `[]`), nil, "search.languages: expected at least one of language tags")
	mustRefuse(t, docWith("search", "languages", `["en", "not a tag"]`), nil, "search.languages[1]: expected a language tag")
	mustRefuse(t, docWith("search", "languages", `["en", "en"]`), nil, "search.languages[1]: listed more than once")
	mustRefuse(t, docWith("search", "region", `"usa"`), nil, "search.region: expected two upper-case letters")
	mustLoad(t, docWith("fetch", "ports", `[443, 8443]`), nil)
	mustRefuse(t, docWith("fetch", "ports", `[0]`), nil, "fetch.ports[0]: expected an integer from 1 to 65535 (a port), found a number outside the range (line 3, column 10)")
	mustRefuse(t, docWith("fetch", "ports", `[]`), nil, "fetch.ports: expected an array of ports")
	mustLoad(t, docWith("service", "user_agent_contact", `"ops@example.org"`), nil)
	mustLoad(t, docWith("service", "user_agent_contact", `"https://example.org/contact"`), nil)
	mustRefuse(t, docWith("service", "user_agent_contact", `"call me (maybe)"`), nil, "service.user_agent_contact: expected a URL or an e-mail address")
	mustLoad(t, docWith("egress", "proxy", `"http://proxy.example:3128"`), nil)
	msg := mustRefuse(t, docWith("egress", "proxy", `"socks5://user:hunter2@proxy"`), nil, "egress.proxy: expected an http or https URL")
	if strings.Contains(msg, "hunter2") || strings.Contains(msg, "socks5") {
		t.Fatalf("proxy message repeats the value: %q", msg)
	}
	mustRefuse(t, docWith("service.http", "bind", `"somewhere"`), nil, "service.http.bind: expected an address and port")
	mustLoad(t, docWith("service.http", "allowed_hosts", `["rypsok.example", "rypsok.example:443", "127.0.0.1"]`), nil)
	mustRefuse(t, docWith("service.http", "allowed_hosts", `["bad host"]`), nil, "service.http.allowed_hosts[0]: expected a host name")
	mustLoad(t, docWith("service.http", "allowed_origins", `["https://app.example", "http://localhost:*", "null"]`), nil)
	mustRefuse(t, docWith("service.http", "allowed_origins", `["app.example"]`), nil, "service.http.allowed_origins[0]: expected an origin")
}

func TestREQ_MAIN_003_ConfigVersion(t *testing.T) {
	mustRefuse(t, "[search]\nmax_results = 3\n", nil, "config_version: required; write config_version = 1")
	mustRefuse(t, "config_version = 2\n", nil, "config_version: expected 1, found a version this release does not read (line 1, column 18)")
	mustRefuse(t, "config_version = \"1\"\n", nil, "config_version: expected the integer 1, found text")
	// No file at all: every default, no version needed.
	c, err := Load(nil, "defaults (no file)", testEnv(nil), Options{})
	if err != nil || c.Search.MaxResults != 5 {
		t.Fatalf("defaults: %v", err)
	}
}

func TestREQ_CFG_005_UnknownKeysAndTables(t *testing.T) {
	mustRefuse(t, "config_version = 1\n[search]\nmax_resluts = 3\n", nil, "search.max_resluts: unknown key", "(line 3, column 1)")
	mustRefuse(t, "config_version = 1\n[serach]\nmax_results = 3\n", nil, "serach: unknown table", "(line 2, column 2)")
	mustRefuse(t, "config_version = 1\nverbose = true\n", nil, "verbose: unknown key; see the configuration reference for the keys of this table (line 2, column 1)")
	mustRefuse(t, "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\ncategories = [\"general\"]\ncolour = \"red\"\n", nil, "engines.w.colour: unknown key")
	mustRefuse(t, "config_version = 1\n[service.http.auth]\nrealm = \"x\"\n", nil, "service.http.auth.realm: unknown key")
	// a key is a name, not a value: a quoted key is named, escaped;
	// one too long or beyond printable ASCII is given by its place only
	mustRefuse(t, "config_version = 1\n\"max results\" = 1\n", nil, "\"max results\": unknown key", "(line 2, column 1)")
	mustRefuse(t, "config_version = 1\n[search]\n\"a\\\"b\" = 1\n", nil, "search.\"a\\\"b\": unknown key")
	long := strings.Repeat("k", 65)
	msg := mustRefuse(t, "config_version = 1\n\""+long+" x\" = 1\n", nil, "(a key not shown, longer than 64 characters): unknown key", "(line 2, column 1)")
	for _, doc := range []string{"config_version = 1\n\"caf\u00e9\" = 1\n", "config_version = 1\n\"a\\u0007b\" = 1\n"} {
		msg += mustRefuse(t, doc, nil, "(a key not shown, of characters beyond printable ASCII): unknown key", "(line 2, column 1)")
	}
	if strings.Contains(msg, long) || strings.Contains(msg, "caf") || strings.Contains(msg, "\a") {
		t.Fatalf("a key that may not be shown is: %q", msg)
	}
}

// TestREQ_CFG_005_EngineIdentifierIsNamed: an engine identifier that
// breaks the naming rule is named in its error, escaped and bounded; one
// that cannot be shown is given by its place.
// TestREQ_CFG_004_TokenWithALineBreakIsRefused: a caller's token with a
// line break inside, after trimming, could never be sent by a client; it
// is refused at start, naming the key and never showing the token.
func TestREQ_CFG_004_TokenWithALineBreakIsRefused(t *testing.T) {
	dir := t.TempDir()
	for _, content := range []string{
		"first-half-of-the-token-0123456789\nsecond-half-0123456789\n",
		"first-half-of-the-token-0123456789\r\nsecond-half-0123456789",
		"first-half-of-the-token-0123456789\x00second-half-0123456789",
	} {
		tf := filepath.Join(dir, "token")
		if err := os.WriteFile(tf, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		msg := mustRefuse(t, "config_version = 1\n[[service.http.auth.callers]]\nid = \"ops\"\ntoken_file = \""+tf+"\"\n", nil,
			"service.http.auth.callers[0].token_file: the token has a line break")
		envMsg := mustRefuse(t, "config_version = 1\n[[service.http.auth.callers]]\nid = \"ops\"\ntoken_env = \"OPS_TOKEN\"\n",
			map[string]string{"OPS_TOKEN": content}, "service.http.auth.callers[0].token_env: the token has a line break")
		if strings.Contains(msg+envMsg, "half") {
			t.Fatalf("the token is shown: %q %q", msg, envMsg)
		}
	}
	// trimmed white space around a token, and a tab inside, are fine
	tf := filepath.Join(dir, "token")
	os.WriteFile(tf, []byte("\n  one-line-token-0123456789\tabcdefghijkl  \r\n"), 0o600)
	if c := mustLoad(t, "config_version = 1\n[[service.http.auth.callers]]\nid = \"ops\"\ntoken_file = \""+tf+"\"\n", nil); c.HTTPCallers[0].Token.Reveal() != "one-line-token-0123456789\tabcdefghijkl" {
		t.Fatalf("a one-line token: %q", c.HTTPCallers[0].Token.Reveal())
	}
}

func TestREQ_CFG_005_EngineIdentifierIsNamed(t *testing.T) {
	doc := func(id string) string {
		return "config_version = 1\n[engines." + id + "]\ntype = \"wikipedia\"\ncategories = [\"general\"]\n"
	}
	for _, tc := range []struct{ id, want string }{
		{"Wiki", "engines.Wiki: an engine identifier is lowercase letters, digits and underscores, starting with a letter; rename the table (line 2, column 10)"},
		{"my-wiki", "engines.my-wiki: an engine identifier"},
		{"1wiki", "engines.1wiki: an engine identifier"},
		{"\"my wiki\"", "engines.\"my wiki\": an engine identifier"},
		{"'a\"b'", "engines.\"a\\\"b\": an engine identifier"},
		{"\"" + strings.Repeat("w", 65) + "\"", "engines: an engine identifier is lowercase letters, digits and underscores, starting with a letter; this one is not (a key not shown, longer than 64 characters) (line 2, column 10)"},
		{"\"wik\u00ed\"", "engines: an engine identifier is lowercase letters, digits and underscores, starting with a letter; this one is not (a key not shown, of characters beyond printable ASCII)"},
	} {
		mustRefuse(t, doc(tc.id), nil, tc.want)
	}
}

func TestREQ_CFG_004_SecretsByReference(t *testing.T) {
	doc := "config_version = 1\n[engines.brave]\ntype = \"brave\"\ncategories = [\"general\"]\napi_key_env = \"BRAVE_API_KEY\"\n"
	c := mustLoad(t, doc, nil)
	if c.Engines[0].Active || c.Search.Engines[0].Disabled != "no_credential" {
		t.Fatalf("missing key must make the engine inactive: %+v", c.Engines[0])
	}
	if !strings.Contains(c.Engines[0].Credential, "inactive: environment variable BRAVE_API_KEY is unset or empty") {
		t.Fatalf("credential line: %q", c.Engines[0].Credential)
	}
	const key = "BSAfakekeyfortests0123456789"
	c = mustLoad(t, doc, map[string]string{"BRAVE_API_KEY": key})
	if !c.Engines[0].Active || c.Search.Engines[0].Key.Reveal() != key || c.Engines[0].Credential != "credential resolved" {
		t.Fatalf("key not resolved: %+v", c.Engines[0])
	}
	for _, line := range Report(c) {
		if strings.Contains(line, key) {
			t.Fatalf("check prints the key: %s", line)
		}
	}
	if s := fmt.Sprintf("%v %+v", c.Search.Engines[0], c.Search); strings.Contains(s, key) {
		t.Fatalf("settings print the key")
	}
	// A key file.
	dir := t.TempDir()
	kf := filepath.Join(dir, "brave.key")
	os.WriteFile(kf, []byte(key+"\n"), 0o600)
	c = mustLoad(t, strings.Replace(doc, `api_key_env = "BRAVE_API_KEY"`, `api_key_file = "`+kf+`"`, 1), nil)
	if c.Search.Engines[0].Key.Reveal() != key {
		t.Fatalf("key file not read")
	}
	c = mustLoad(t, strings.Replace(doc, `api_key_env = "BRAVE_API_KEY"`, `api_key_file = "`+filepath.Join(dir, "missing")+`"`, 1), nil)
	if c.Engines[0].Active {
		t.Fatalf("an unreadable key file must make the engine inactive")
	}
	mustRefuse(t, strings.Replace(doc, `api_key_env = "BRAVE_API_KEY"`, `api_key_env = "BRAVE_API_KEY"`+"\n"+`api_key_file = "/x"`, 1), nil, "engines.brave: give exactly one of api_key_env or api_key_file")
	mustRefuse(t, "config_version = 1\n[engines.brave]\ntype = \"brave\"\ncategories = [\"general\"]\n", nil, "engines.brave: the brave driver needs a key")
	mustRefuse(t, "config_version = 1\n[engines.w]\ntype = \"wikipedia\"\ncategories = [\"general\"]\napi_key_env = \"X\"\n", nil, "engines.w: the wikipedia driver takes no key")
	// Caller tokens: an inline token is refused; a token file must be mode
	// 0600 or stricter and belong to the user rypsok runs as (or root).
	mustRefuse(t, "config_version = 1\n[[service.http.auth.callers]]\nid = \"a\"\ntoken = \"abc\"\n", nil, "service.http.auth.callers[0].token: give the secret by token_env or token_file")
	tf := filepath.Join(dir, "token")
	os.WriteFile(tf, []byte(strings.Repeat("k", 40)), 0o600)
	tokenDoc := "config_version = 1\n[[service.http.auth.callers]]\nid = \"ops\"\ntoken_file = \"" + tf + "\"\n"
	c = mustLoad(t, tokenDoc, nil)
	if len(c.HTTPCallers) != 1 || c.HTTPCallers[0].Token.Reveal() != strings.Repeat("k", 40) {
		t.Fatalf("callers: %+v", c.HTTPCallers)
	}
	if runtime.GOOS != "windows" {
		for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o620} {
			os.Chmod(tf, mode)
			msg := mustRefuse(t, tokenDoc, nil, fmt.Sprintf("service.http.auth.callers[0].token_file: the token file's mode %04o lets other users read or change it; chmod 600", mode))
			if strings.Contains(msg, strings.Repeat("k", 40)) {
				t.Fatal("the message shows the token")
			}
		}
		os.Chmod(tf, 0o400)
		mustLoad(t, tokenDoc, nil)
		if os.Geteuid() == 0 {
			// Root may give the file away: owned by another user, refused.
			os.Chmod(tf, 0o600)
			if err := os.Chown(tf, 65534, 65534); err != nil {
				t.Fatal(err)
			}
			mustRefuse(t, tokenDoc, nil, "service.http.auth.callers[0].token_file: the token file belongs to another user; give it to the user rypsok runs as")
		}
	}
	mustRefuse(t, "config_version = 1\n[[service.http.auth.callers]]\nid = \"ops\"\ntoken_file = \""+filepath.Join(dir, "nope")+"\"\n", nil,
		"service.http.auth.callers[0].token_file: the token file cannot be read")
	mustRefuse(t, "config_version = 1\n[[service.http.auth.callers]]\nid = \"ops\"\ntoken_env = \"A\"\n[[service.http.auth.callers]]\nid = \"ops\"\ntoken_env = \"A\"\n",
		map[string]string{"A": strings.Repeat("x", 32)}, "service.http.auth.callers[1].id: another caller has the same id")
}

func TestREQ_OPS_003_DefaultEngines(t *testing.T) {
	c := mustLoad(t, "config_version = 1\n", nil)
	// The zero-configuration set of the issue that added the API engines.
	want := map[string]string{"arxiv": "science", "brave": "general", "crossref": "science", "github": "code", "hackernews": "news", "stackexchange": "code", "wikipedia": "general,science"}
	for _, d := range defaultEngineSet {
		if _, ok := search.Driver(d.typ); !ok {
			t.Fatalf("default engine %s: the driver table has no type %s", d.id, d.typ)
		}
	}
	if len(c.Engines) != len(want) {
		t.Fatalf("default engines: %+v", c.Engines)
	}
	for _, e := range c.Engines {
		if cats, ok := want[e.ID]; !ok || categoriesText(e.Categories) != cats || e.Type != e.ID {
			t.Fatalf("default engine %+v", e)
		}
		if e.Active != (e.ID != "brave") {
			t.Fatalf("only brave is inactive without its key: %+v", e)
		}
	}
	if got := categoriesText(search.ServedCategories(c.Search.Engines)); got != "general,news,science,code" {
		t.Fatalf("categories offered with no configuration: %s", got)
	}
	// check says, per category, who learns a query: brave is inactive
	// without its key, so general goes to wikipedia alone.
	science := "arxiv,crossref,wikipedia"
	report := strings.Join(Report(c), "\n")
	if want := "who learns a query: general -> wikipedia; news -> hackernews; science -> " + science + "; code -> github,stackexchange"; !strings.Contains(report, want) {
		t.Fatalf("report lacks %q\n%s", want, report)
	}
	for _, id := range []string{"github", "stackexchange"} {
		if !strings.Contains(report, "engine "+id+": type="+id+" enabled=true categories=code preference=100") {
			t.Fatalf("report lacks the %s engine\n%s", id, report)
		}
	}
	c = mustLoad(t, "config_version = 1\n", map[string]string{"BRAVE_API_KEY": "k-for-tests-0123456789abcdef"})
	if i := slices.IndexFunc(c.Engines, func(e EngineReport) bool { return e.ID == "brave" }); i < 0 || !c.Engines[i].Active {
		t.Fatalf("brave must be active with BRAVE_API_KEY")
	}
}

func TestREQ_CFG_003_KeysOfTheAPIEngines(t *testing.T) {
	eng := func(id, body string) string {
		return "config_version = 1\n[engines." + id + "]\n" + body
	}
	c := mustLoad(t, eng("so", "type = \"stackexchange\"\ncategories = [\"code\"]\nsite = \"superuser\"\nbase_url = \"https://127.0.0.1:9443\"\n"), nil)
	if e := c.Search.Engines[0]; e.Site != "superuser" || e.BaseURL == nil || e.BaseURL.Host != "127.0.0.1:9443" || !c.Engines[0].Active ||
		c.Engines[0].Credential != "no credential given (optional; a key raises the provider's limit)" {
		t.Fatalf("stackexchange: %+v %+v", e, c.Engines[0])
	}
	c = mustLoad(t, eng("gh", "type = \"github\"\ncategories = [\"code\"]\nendpoint = \"issues\"\napi_key_env = \"GH_TOKEN\"\n"), map[string]string{"GH_TOKEN": "ghp_" + strings.Repeat("Ab1", 12)})
	if e := c.Search.Engines[0]; e.Endpoint != "issues" || e.Key.Reveal() != "ghp_"+strings.Repeat("Ab1", 12) || c.Engines[0].Credential != "credential resolved" {
		t.Fatalf("github: %+v", c.Engines[0])
	}
	for _, line := range Report(c) {
		if strings.Contains(line, "Ab1Ab1") {
			t.Fatalf("check prints the token: %s", line)
		}
	}
	// An optional key that cannot be read leaves the engine keyless.
	c = mustLoad(t, eng("gh", "type = \"github\"\ncategories = [\"code\"]\napi_key_env = \"GH_TOKEN\"\n"), nil)
	if !c.Engines[0].Active || !c.Engines[0].KeyUnread || !c.Search.Engines[0].Key.IsZero() ||
		c.Engines[0].Credential != "no credential: environment variable GH_TOKEN is unset or empty; running keyless at the provider's lower limit" {
		t.Fatalf("unset optional key: %+v", c.Engines[0])
	}
	// SearXNG: base_url required; plain http admitted anywhere, with a
	// warning off loopback.
	mustRefuse(t, eng("sx", "type = \"searxng\"\ncategories = [\"general\"]\n"), nil, "engines.sx.base_url: required; the URL of the searxng instance, such as http://127.0.0.1:8888/")
	c = mustLoad(t, eng("sx", "type = \"searxng\"\ncategories = [\"general\", \"code\"]\nbase_url = \"http://searx.lan:8888/\"\n"), nil)
	if c.Search.Engines[0].BaseURL == nil || len(c.Warnings) != 1 || c.Warnings[0].Key != "engines.sx.base_url" {
		t.Fatalf("searxng on the private network: %+v %+v", c.Search.Engines[0], c.Warnings)
	}
	c = mustLoad(t, eng("sx", "type = \"searxng\"\ncategories = [\"general\"]\nbase_url = \"http://127.0.0.1:8888\"\n"), nil)
	if len(c.Warnings) != 0 {
		t.Fatalf("a loopback instance is not warned about: %+v", c.Warnings)
	}
	// The other new types: plain http on loopback only; no site, no key
	// where the driver takes none.
	mustRefuse(t, eng("hn", "type = \"hackernews\"\ncategories = [\"news\"]\nbase_url = \"http://hn.lan/\"\n"), nil, "engines.hn.base_url: plain http is admitted only on a loopback host")
	mustLoad(t, eng("hn", "type = \"hackernews\"\ncategories = [\"news\"]\nbase_url = \"http://localhost:8080/\"\n"), nil)
	mustRefuse(t, eng("hn", "type = \"hackernews\"\ncategories = [\"news\"]\napi_key_env = \"X\"\n"), nil, "engines.hn: the hackernews driver takes no key")
	mustRefuse(t, eng("gh", "type = \"github\"\ncategories = [\"code\"]\nsite = \"x\"\n"), nil, "engines.gh.site: the github driver has no site; remove site")
	mustRefuse(t, eng("gh", "type = \"github\"\ncategories = [\"code\"]\nendpoint = \"code\"\n"), nil, "engines.gh.endpoint: expected repositories or issues, found an unknown word")
	mustRefuse(t, eng("so", "type = \"stackexchange\"\ncategories = [\"code\"]\nsite = \"Stack Overflow\"\n"), nil, "engines.so.site: expected a site's API name such as stackoverflow or superuser")
}

func TestCheckReportLines(t *testing.T) {
	c := mustLoad(t, "config_version = 1\n[egress]\nallow = [\"10.0.0.0/8\", \"wiki.corp.example\"]\nproxy = \"http://proxy.corp.example:3128\"\n[engines.wikipedia]\ntype = \"wikipedia\"\ncategories = [\"general\", \"science\"]\n", nil)
	lines := Report(c)
	text := strings.Join(lines, "\n")
	for _, want := range []string{
		"configuration from --config test.toml is valid",
		"engine wikipedia: type=wikipedia enabled=true categories=general,science preference=100 no credential needed",
		"categories served: general,science",
		"tool rate limits per minute: web_search=60 web_fetch=30 engine_status=30",
		"tool call maxima in ms: web_search=2800 web_fetch=11000; engine_status reads memory only",
		"service.http: bind=127.0.0.1:8737 callers=0 legacy_revisions=true max_connections=64 max_request_bytes=65536 idle_timeout_s=60 max_streams=16 request_timeout_s=30 max_sessions=256",
		"fetch: ports=80,443 max_bytes=5242880 max_chars=3000 (ceiling 20000) deadline_ms=10000 connect_timeout_ms=3000 max_redirects=5 robots_txt=true follow_cross_host_redirects=false",
		"fetch: read_collapsed=true",
		"egress: allow_rules=2 deny_rules=0 allow_http=false strict_mode=false proxy=set",
		"privacy: secret_detection=refuse",
		"logging: level=info log_queries=false",
		"cache: enabled=false max_entries=1000 ttl_s=300 max_entry_bytes=32768",
		"scraping: enabled=false",
		"resilience: failures_to_open=3 first_cooldown_s=60 max_cooldown_s=900",
		"limits: outbound_in_flight=32 per_engine_in_flight=2 fetches_in_flight=4 parsing_in_flight=2 strict_mode_urls=10000 robots_cache_entries=1000",
		"memory: worst case about ",
		"warning: egress.allow[0]: the rule admits a network wider than /16 (IPv4) or /32 (IPv6); host names, or a narrower network",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q\n%s", want, text)
		}
	}
	for _, never := range []string{"10.0.0.0", "wiki.corp.example", "proxy.corp.example", "3128"} {
		if strings.Contains(text, never) {
			t.Errorf("report shows %q", never)
		}
	}
}

func TestCheckWarnings(t *testing.T) {
	cases := map[string]string{
		"config_version = 1\n[privacy]\nsecret_detection = \"off\"\n":                                                                   "privacy.secret_detection: ",
		"config_version = 1\n[logging]\nlog_queries = true\n":                                                                           "logging.log_queries: query text is written to the debug log; false",
		"config_version = 1\n[fetch]\nrobots_txt = false\n":                                                                             "fetch.robots_txt: robots.txt is not honored; true",
		"config_version = 1\n[egress]\nallow_http = true\n":                                                                             "egress.allow_http: plain HTTP fetches are allowed; false",
		"config_version = 1\n[fetch]\nfollow_cross_host_redirects = true\n":                                                             "fetch.follow_cross_host_redirects: ",
		"config_version = 1\n[egress]\nallow = [\"::/0\"]\n":                                                                            "egress.allow[0]: ",
		"config_version = 1\n[fetch]\nmax_bytes = 10485760\n[limits]\nparsing_in_flight = 4\n":                                          "memory: the worst case of about ",
		"config_version = 1\n[cache]\nenabled = true\n[engines.b]\ntype = \"brave\"\ncategories = [\"general\"]\napi_key_env = \"K\"\n": "cache.enabled: ",
	}
	for doc, want := range cases {
		c := mustLoad(t, doc, map[string]string{"K": "key-0123456789-abcdef"})
		text := strings.Join(Report(c), "\n")
		if !strings.Contains(text, "warning: "+want) {
			t.Errorf("no warning %q for\n%s\n%s", want, doc, text)
		}
	}
	// A narrow allow rule gives no warning.
	c := mustLoad(t, "config_version = 1\n[egress]\nallow = [\"10.1.2.0/24\"]\n", nil)
	if len(c.Warnings) != 0 {
		t.Fatalf("unexpected warnings: %v", c.Warnings)
	}
}

func TestFormsOfValues(t *testing.T) {
	for w, ok := range map[string]bool{"en": true, "pt-BR": true, "zh-Hant": true, "ast": true, "e": false, "english": false, "EN": false, "en-": false, "en--x": false, "en-toolongsubtag": false} {
		if isLanguageTag(w) != ok {
			t.Errorf("language %q: %v", w, !ok)
		}
	}
	for w, ok := range map[string]bool{"wikipedia": true, "brave_news": true, "b2": true, "2b": false, "Brave": false, "a-b": false, "": false} {
		if isIdentifier(w) != ok {
			t.Errorf("identifier %q: %v", w, !ok)
		}
	}
	for w, ok := range map[string]bool{"rypsok.example": true, "a-b.example": true, "x": true, "-a.example": false, "a-.example": false, "a..b": false, "A.example": false, "a_b.example": false} {
		if isHostName(w) != ok {
			t.Errorf("host %q: %v", w, !ok)
		}
	}
	if !isRegionCode("US") || isRegionCode("us") || isRegionCode("USA") {
		t.Error("region codes")
	}
}

// TestMemoryEstimateAboveMeasuredPeaks pins the estimate's constants to the
// peaks make measure-memory printed on this build (four pages at once, two
// parses): the estimate without the HTTP sessions must stay above each,
// with and without serve's soft limit.
func TestMemoryEstimateAboveMeasuredPeaks(t *testing.T) {
	for _, m := range []struct {
		pageMiB           float64
		peakMiB, freePeak float64 // under serve's limit, and with GOMEMLIMIT=off
	}{
		{5, 93.7, 99.5},
		{9.9, 139.4, 153.8},
	} {
		c := mustLoad(t, fmt.Sprintf("config_version = 1\n[fetch]\nmax_bytes = %d\n", int(m.pageMiB*(1<<20))+64<<10), nil)
		est := memoryEstimate(c)
		est.sessions = 0
		if got := float64(est.totalMiB()); got < m.peakMiB || got < m.freePeak {
			t.Errorf("%.1f MiB pages: estimate %.0f MiB below a measured peak (%.1f, %.1f)", m.pageMiB, got, m.peakMiB, m.freePeak)
		}
	}
	// The defaults print what the book's format says, with this build's figure.
	c := mustLoad(t, "config_version = 1\n", nil)
	if got := memoryLine(c); got != "memory: worst case about 125 MiB (base 10 + bodies 20 + parses 80 + sessions 15 + cache 0 MiB; measured on this build, "+runtime.GOOS+"/"+runtime.GOARCH+")" {
		t.Fatalf("memory line %q", got)
	}
}

// TestTokenFileModeAndOwner is the rule of a token file without the file
// system: mode 0600 or stricter, owned by the user rypsok runs as or by
// root; a root-owned credential that systemd shares through an ACL (0440)
// is accepted for a service user and refused to root itself.
func TestTokenFileModeAndOwner(t *testing.T) {
	for _, c := range []struct {
		perm        os.FileMode
		owner, euid int
		ok          bool
	}{
		{0o600, 1000, 1000, true}, {0o400, 1000, 1000, true}, {0o700, 1000, 1000, true},
		{0o640, 1000, 1000, false}, {0o604, 1000, 1000, false}, {0o660, 1000, 1000, false}, {0o644, 1000, 1000, false},
		{0o600, 1001, 1000, false}, {0o400, 0, 1000, true}, {0o440, 0, 1000, true}, {0o460, 0, 1000, false},
		{0o444, 0, 1000, false}, {0o440, 0, 0, false}, {0o600, 0, 0, true},
		{0o644, -1, 1000, true}, // no Unix owner: nothing to check
	} {
		got := tokenFileProblem(secrets.FileInfo{Perm: c.perm, Owner: c.owner}, c.euid)
		if (got == "") != c.ok {
			t.Errorf("mode %04o owner %d euid %d: %q", c.perm, c.owner, c.euid, got)
		}
	}
}

// TestCheckReportNetworkMode: the service.http line names the callers by
// id and never shows a token; a bind off loopback warns; the memory line
// has the sessions' share while legacy_revisions is on, and not after.
func TestCheckReportNetworkMode(t *testing.T) {
	tokA, tokB := strings.Repeat("a1", 20), strings.Repeat("b2", 20)
	doc := "config_version = 1\n[service.http]\nbind = \"0.0.0.0:8737\"\nallowed_hosts = [\"rypsok.example\"]\nmax_sessions = 2048\n" +
		"[[service.http.auth.callers]]\nid = \"mimlys\"\ntoken_env = \"TOK_A\"\n[[service.http.auth.callers]]\nid = \"ops\"\ntoken_env = \"TOK_B\"\n"
	vars := map[string]string{"TOK_A": tokA, "TOK_B": tokB}
	c := mustLoad(t, doc, vars)
	text := strings.Join(Report(c), "\n")
	for _, want := range []string{
		"service.http: bind=0.0.0.0:8737 callers=2 (ids mimlys,ops) legacy_revisions=true max_connections=64 max_request_bytes=65536 idle_timeout_s=60 max_streams=16 request_timeout_s=30 max_sessions=2048",
		"+ sessions 120 ",
		"warning: service.http.bind: the bind is not loopback: the listener speaks plain HTTP, so tokens and traffic cross the network unencrypted; bind loopback behind a TLS-terminating proxy",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q\n%s", want, text)
		}
	}
	for _, never := range []string{tokA[:8], tokB[:8], "TOK_A", "rypsok.example"} {
		if strings.Contains(text, never) {
			t.Errorf("report shows %q", never)
		}
	}
	if got, want := HTTPMemoryLimitMiB(c)-MemoryLimitMiB(c), 100; got < want {
		t.Errorf("the HTTP soft limit is only %d MiB above stdio's with 2048 sessions", got)
	}
	c = mustLoad(t, strings.Replace(doc, "max_sessions = 2048", "legacy_revisions = false", 1), vars)
	if text := strings.Join(Report(c), "\n"); strings.Contains(text, "sessions") && strings.Contains(text, "+ sessions") {
		t.Errorf("a session share without legacy revisions:\n%s", text)
	}
}
