package config

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"rypsok/rsp"
)

// plugin is a minimal valid [[rsp.plugins]] table with extra lines.
func pluginDoc(extra string) string {
	return "config_version = 1\n[[rsp.plugins]]\nname = \"p\"\ncommand = [\"/usr/local/bin/rsp-p\"]\n" + extra
}

func TestRSP_DefaultsWithoutATable(t *testing.T) {
	c := mustLoad(t, "config_version = 1\n", nil)
	want := rsp.DefaultSettings()
	if c.RSP.MaxProcesses != want.MaxProcesses || c.RSP.CacheEntries != want.CacheEntries || c.RSP.InlineMaxBytes != want.InlineMaxBytes ||
		c.RSP.MaxAnswerBytes != want.MaxAnswerBytes || c.RSP.ChunkBytes != want.ChunkBytes || len(c.RSP.Plugins) != 0 {
		t.Fatalf("defaults: %+v", c.RSP)
	}
	if c.RSP.MaxProcesses != 4 || c.RSP.CacheEntries != 4096 || c.RSP.InlineMaxBytes != 1<<20 || c.RSP.MaxAnswerBytes != 1<<20 || c.RSP.ChunkBytes != 2000 {
		t.Fatalf("the documented defaults changed: %+v", c.RSP)
	}
	if c.RSP.BufferBytes() != 0 {
		t.Fatal("no plugin, no buffers")
	}
	text := strings.Join(Report(c), "\n")
	if !strings.Contains(text, "\nrsp: plugins=0 (no plugin judges what web_search and web_fetch return)\n") || strings.Contains(text, "+ plugins") {
		t.Fatalf("report:\n%s", text)
	}
}

// Every integer key of [rsp] and of a plugin: its default, both ends of its
// range, one past each end and a value of another kind, each refusal naming
// the key, the range and the place.
func TestRSP_EveryIntegerKeyDefaultRangeAndType(t *testing.T) {
	keys := []struct {
		key      string
		min, max int64
		def      int64
		get      func(*Config) int64
	}{
		{"rsp.max_processes", 1, 64, 4, func(c *Config) int64 { return int64(c.RSP.MaxProcesses) }},
		{"rsp.cache_entries", 0, 100000, 4096, func(c *Config) int64 { return int64(c.RSP.CacheEntries) }},
		{"rsp.inline_max_bytes", 0, 16 << 20, 1 << 20, func(c *Config) int64 { return c.RSP.InlineMaxBytes }},
		{"rsp.max_answer_bytes", 1, 16 << 20, 1 << 20, func(c *Config) int64 { return int64(c.RSP.MaxAnswerBytes) }},
		{"rsp.chunk_bytes", 1, 1 << 20, 2000, func(c *Config) int64 { return int64(c.RSP.ChunkBytes) }},
		{"rsp.plugins[0].timeout_ms", 50, 60000, 5000, func(c *Config) int64 { return c.RSP.Plugins[0].Timeout.Milliseconds() }},
	}
	for _, k := range keys {
		t.Run(k.key, func(t *testing.T) {
			doc := func(value string) string {
				if strings.HasPrefix(k.key, "rsp.plugins[0].") {
					return pluginDoc(strings.TrimPrefix(k.key, "rsp.plugins[0].") + " = " + value + "\n")
				}
				return "config_version = 1\n[rsp]\n" + strings.TrimPrefix(k.key, "rsp.") + " = " + value + "\n[[rsp.plugins]]\nname = \"p\"\ncommand = [\"/x\"]\n"
			}
			if got := k.get(mustLoad(t, pluginDoc(""), nil)); got != k.def {
				t.Fatalf("default %d, want %d", got, k.def)
			}
			for _, v := range []int64{k.min, k.max} {
				c := mustLoad(t, doc(fmt.Sprint(v)), nil)
				if got := k.get(c); got != v {
					t.Fatalf("%d: effective %d", v, got)
				}
				if err := c.RSP.Validate(); err != nil {
					t.Fatalf("%d: the host refuses what the configuration accepts: %v", v, err)
				}
			}
			rng := fmt.Sprintf("%s: expected an integer from %d to %d", k.key, k.min, k.max)
			mustRefuse(t, doc(fmt.Sprint(k.min-1)), nil, rng+", found a smaller number (line ")
			mustRefuse(t, doc(fmt.Sprint(k.max+1)), nil, rng+", found a larger number (line ")
			mustRefuse(t, doc(`"12"`), nil, rng+", found text (line ")
		})
	}
}

func TestRSP_APluginTableBecomesItsSpec(t *testing.T) {
	c := mustLoad(t, `config_version = 1
[rsp]
max_processes = 8
cache_entries = 0
inline_max_bytes = 0
max_answer_bytes = 65536
chunk_bytes = 512

[[rsp.plugins]]
name = "injection"
command = ["/usr/local/bin/rsp-injection", "--strict", "", "--strict"]
hooks = ["on_retrieve"]
tools = ["web_search"]
on_error = "block"
on_match = "block"
timeout_ms = 250
env_pass = ["HOME", "http_proxy"]

[[rsp.plugins]]
name = "secrets_2"
command = ["rypsok", "rsp", "secrets"]
`, nil)
	s := c.RSP
	if s.MaxProcesses != 8 || s.CacheEntries != 0 || s.InlineMaxBytes != 0 || s.MaxAnswerBytes != 65536 || s.ChunkBytes != 512 || len(s.Plugins) != 2 {
		t.Fatalf("%+v", s)
	}
	p := s.Plugins[0]
	if p.Name != "injection" || !slices.Equal(p.Command, []string{"/usr/local/bin/rsp-injection", "--strict", "", "--strict"}) ||
		!slices.Equal(p.Hooks, []string{"on_retrieve"}) || !slices.Equal(p.Tools, []string{"web_search"}) ||
		p.OnError != rsp.OnErrorBlock || p.OnMatch != rsp.OnMatchBlock || p.Timeout != 250*time.Millisecond ||
		!slices.Equal(p.EnvPass, []string{"HOME", "http_proxy"}) {
		t.Fatalf("%+v", p)
	}
	q := s.Plugins[1]
	if q.Name != "secrets_2" || q.Hooks != nil || q.Tools != nil || q.OnError != rsp.OnErrorBlock || q.OnMatch != rsp.OnMatchVerdict || q.Timeout != rsp.DefaultTimeout || len(q.EnvPass) != 0 {
		t.Fatalf("defaults of a plugin: %+v", q)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 0 {
		t.Fatalf("warnings: %v", c.Warnings)
	}
	// 8 slots of 64 KiB of stdout, 64 KiB of stderr and no inline copy.
	if s.BufferBytes() != 8*(65536+rsp.StderrLimitBytes) {
		t.Fatalf("buffers %d", s.BufferBytes())
	}
}

// Each refusal names its key and place, and none repeats the value: a
// plugin's command line may carry a token.
func TestRSP_RefusalsNameTheKeyAndNeverTheValue(t *testing.T) {
	const secret = "sk_live_51HcommandLineToken"
	cases := []struct {
		name, doc, want string
	}{
		{"not a table", "config_version = 1\nrsp = 3\n", "rsp: expected a table, found an integer (line 2, column 7)"},
		{"plugins not tables", "config_version = 1\n[rsp]\nplugins = [\"" + secret + "\"]\n", "rsp.plugins[0]: expected a table, found text (line 3, column 12)"},
		{"plugins not an array", "config_version = 1\n[rsp]\nplugins = \"" + secret + "\"\n", "rsp.plugins: expected [[rsp.plugins]] tables, found text (line 3, column 11)"},
		{"unknown key of rsp", "config_version = 1\n[rsp]\nmax_plugins = 3\n", "rsp.max_plugins: unknown key; see the configuration reference for the keys of this table (line 3, column 1)"},
		{"unknown key of a plugin", pluginDoc("token = \"" + secret + "\"\n"), "rsp.plugins[0].token: unknown key; see the configuration reference for the keys of this table (line 5, column 1)"},
		{"name missing", "config_version = 1\n[[rsp.plugins]]\ncommand = [\"/x\"]\n", "rsp.plugins[0].name: required (line 2, column 7)"},
		{"name of another form", "config_version = 1\n[[rsp.plugins]]\nname = \"Secret-" + secret + "\"\ncommand = [\"/x\"]\n",
			"rsp.plugins[0].name: expected a name of lowercase letters, digits, _ and -, starting with a letter, at most 32 bytes, found text of another form (line 3, column 8)"},
		{"name too long", "config_version = 1\n[[rsp.plugins]]\nname = \"" + strings.Repeat("a", 33) + "\"\ncommand = [\"/x\"]\n",
			"rsp.plugins[0].name: expected a name of lowercase letters, digits, _ and -, starting with a letter, at most 32 bytes, found text of another form (line 3, column 8)"},
		{"name twice", pluginDoc("[[rsp.plugins]]\nname = \"p\"\ncommand = [\"/y\"]\n"), "rsp.plugins[1].name: another plugin has the same name (line 6, column 8)"},
		{"command missing", "config_version = 1\n[[rsp.plugins]]\nname = \"p\"\n", "rsp.plugins[0].command: required (line 2, column 7)"},
		{"command a string", "config_version = 1\n[[rsp.plugins]]\nname = \"p\"\ncommand = \"/x " + secret + "\"\n",
			`rsp.plugins[0].command: expected an array of strings, the program and its arguments, such as ["/usr/local/bin/rsp-plugin", "--strict"], found text (line 4, column 11)`},
		{"command empty", "config_version = 1\n[[rsp.plugins]]\nname = \"p\"\ncommand = []\n",
			`rsp.plugins[0].command: expected an array of strings, the program and its arguments, such as ["/usr/local/bin/rsp-plugin", "--strict"], found an empty array (line 4, column 11)`},
		{"command word not text", "config_version = 1\n[[rsp.plugins]]\nname = \"p\"\ncommand = [\"/x\", \"" + secret + "\", 3]\n", "rsp.plugins[0].command[2]: expected text, found an integer (line 4, column "},
		{"command program empty", "config_version = 1\n[[rsp.plugins]]\nname = \"p\"\ncommand = [\"\", \"" + secret + "\"]\n", "rsp.plugins[0].command[0]: expected the program to run, found empty text (line 4, column 12)"},
		{"command NUL", "config_version = 1\n[[rsp.plugins]]\nname = \"p\"\ncommand = [\"/x\", \"" + secret + "\\u0000\"]\n", "rsp.plugins[0].command[1]: a word of a command line cannot hold a NUL character (line 4, column 18)"},
		{"hook unknown", pluginDoc("hooks = [\"on_source\"]\n"), "rsp.plugins[0].hooks[0]: expected one of on_chunk, on_retrieve, on_response, found an unknown word (line 5, column 10)"},
		{"hooks empty", pluginDoc("hooks = []\n"), "rsp.plugins[0].hooks: expected at least one of hooks (on_chunk, on_retrieve, on_response), found an empty array (line 5, column 9)"},
		{"hook twice", pluginDoc("hooks = [\"on_retrieve\", \"on_retrieve\"]\n"), "rsp.plugins[0].hooks[1]: listed more than once (line 5, column 25)"},
		{"tool unknown", pluginDoc("tools = [\"engine_status\"]\n"), "rsp.plugins[0].tools[0]: expected one of web_search, web_fetch, found an unknown word (line 5, column 10)"},
		{"tools empty", pluginDoc("tools = []\n"), "rsp.plugins[0].tools: expected at least one of tools (web_search, web_fetch), found an empty array (line 5, column 9)"},
		{"on_error", pluginDoc("on_error = \"ignore\"\n"), "rsp.plugins[0].on_error: expected one of block, allow, skip, found an unknown word (line 5, column 12)"},
		{"on_match", pluginDoc("on_match = true\n"), "rsp.plugins[0].on_match: expected one of verdict, block, found a boolean (line 5, column 12)"},
		{"env_pass not a name", pluginDoc("env_pass = [\"" + secret + "=1\"]\n"), "rsp.plugins[0].env_pass[0]: expected the name of an environment variable, found text of another form (it is not shown) (line 5, column 13)"},
		{"env_pass a digit first", pluginDoc("env_pass = [\"1PATH\"]\n"), "rsp.plugins[0].env_pass[0]: expected the name of an environment variable, found text of another form (it is not shown) (line 5, column 13)"},
		{"too many plugins", "config_version = 1\n" + strings.Repeat("[[rsp.plugins]]\nname = \"p\"\ncommand = [\"/x\"]\n", 17),
			"rsp.plugins: expected at most 16 [[rsp.plugins]] tables, found more"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := mustRefuse(t, c.doc, nil, c.want)
			if strings.Contains(msg, secret) || strings.Contains(msg, "Secret-") {
				t.Fatalf("the message repeats the value: %q", msg)
			}
		})
	}
}

func TestRSP_FailsOpenIsAWarning(t *testing.T) {
	for _, mode := range []string{"allow", "skip"} {
		c := mustLoad(t, pluginDoc("on_error = \""+mode+"\"\n"), nil)
		if c.RSP.Plugins[0].OnError != rsp.OnError(mode) {
			t.Fatalf("%s: %+v", mode, c.RSP.Plugins[0])
		}
		want := "warning: rsp.plugins[0].on_error: plugin p fails open: when it fails, content passes unjudged by it (on_error = " + mode + `); "block", the default`
		if text := strings.Join(Report(c), "\n"); !strings.Contains(text, want) {
			t.Fatalf("no warning %q:\n%s", want, text)
		}
	}
	if c := mustLoad(t, pluginDoc("on_error = \"block\"\n"), nil); len(c.Warnings) != 0 {
		t.Fatalf("block warns: %v", c.Warnings)
	}
}

// What main's handshake found goes into check's report: one line per
// plugin with name, version, the hooks it is called on, deterministic and
// its threshold, and a warning for a plugin no hook of serve reaches. The
// command line is never printed.
func TestRSP_CheckReportsEachPluginAfterItsHandshake(t *testing.T) {
	c := mustLoad(t, `config_version = 1
[[rsp.plugins]]
name = "secrets"
command = ["/opt/rypsok", "rsp", "secrets", "--token=sk_live_51HcommandLineToken"]
tools = ["web_fetch"]
[[rsp.plugins]]
name = "chunks"
command = ["/opt/chunker"]
env_pass = ["HOME"]
`, nil)
	before := strings.Join(Report(c), "\n")
	if !strings.Contains(before, "rsp plugin secrets: on_error=block on_match=verdict timeout_ms=5000 tools=web_fetch env_pass=0\n") {
		t.Fatalf("before the handshake:\n%s", before)
	}
	c.SetPlugins([]rsp.PluginInfo{
		{Name: "secrets", PluginName: "rypsok-secrets", Version: "1.4.0", Hooks: []string{"on_retrieve", "on_response"}, Deterministic: true, InlineThreshold: 1 << 20},
		{Name: "chunks", PluginName: "chunker", Version: "0.1", InlineThreshold: 0},
	})
	text := strings.Join(Report(c), "\n")
	for _, want := range []string{
		"rsp: plugins=2 max_processes=4 cache_entries=4096 inline_max_bytes=1048576 max_answer_bytes=1048576 chunk_bytes=2000\n",
		`rsp plugin secrets: on_error=block on_match=verdict timeout_ms=5000 tools=web_fetch env_pass=0 handshake: name="rypsok-secrets" version="1.4.0" hooks=on_retrieve,on_response deterministic=true inline_threshold=1048576` + "\n",
		`rsp plugin chunks: on_error=block on_match=verdict timeout_ms=5000 tools=web_search,web_fetch env_pass=1 handshake: name="chunker" version="0.1" hooks=none deterministic=false inline_threshold=0` + "\n",
		"warning: rsp.plugins[1]: plugin chunks is called on no hook of serve: it declares neither on_retrieve nor on_response among the hooks configured for it (rypsok rsp ingest alone calls on_chunk); remove it, or configure hooks it declares",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q\n%s", want, text)
		}
	}
	for _, never := range []string{"sk_live", "/opt/", "HOME", "--token"} {
		if strings.Contains(text, never) {
			t.Errorf("report shows %q", never)
		}
	}
	if got := UnreachablePlugins(c.RSPPlugins); !slices.Equal(got, []string{"chunks"}) {
		t.Fatalf("unreachable: %v", got)
	}
}

// The memory estimate adds the plugins' buffers (rsp.Settings.BufferBytes:
// per process slot, the stdout cap, the kept stderr and one inline copy),
// and serve's soft limit follows.
func TestRSP_MemoryEstimateIncludesThePluginBuffers(t *testing.T) {
	base := mustLoad(t, "config_version = 1\n", nil)
	c := mustLoad(t, "config_version = 1\n[rsp]\nmax_processes = 8\ninline_max_bytes = 4194304\nmax_answer_bytes = 4194304\n[[rsp.plugins]]\nname = \"p\"\ncommand = [\"/x\"]\n", nil)
	buffers := c.RSP.BufferBytes()
	if buffers != 8*(4<<20+4<<20+rsp.StderrLimitBytes) {
		t.Fatalf("buffers %d", buffers)
	}
	mibs := int((buffers + mib - 1) / mib) // 64.5 MiB: 65
	if got, want := memoryEstimate(c).totalMiB(), memoryEstimate(base).totalMiB()+mibs; got != want && got != want-1 {
		t.Fatalf("estimate %d MiB, want about %d", got, want)
	}
	if line := memoryLine(c); !strings.Contains(line, fmt.Sprintf(" + plugins %d + cache 0 MiB;", mibs)) {
		t.Fatalf("memory line %q", line)
	}
	if MemoryLimitMiB(c) <= MemoryLimitMiB(base) {
		t.Fatal("serve's soft limit ignores the plugin buffers")
	}
	// A large configuration warns above the unit's MemoryMax, as the rest do.
	big := mustLoad(t, "config_version = 1\n[rsp]\nmax_processes = 64\nmax_answer_bytes = 4194304\n[[rsp.plugins]]\nname = \"p\"\ncommand = [\"/x\"]\n", nil)
	found := false
	for _, w := range big.Warnings {
		found = found || w.Key == "memory"
	}
	if !found {
		t.Fatalf("no memory warning at %d MiB: %v", memoryEstimate(big).totalMiB(), big.Warnings)
	}
}
