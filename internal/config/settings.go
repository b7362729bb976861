package config

// settings.go holds what Load returns: the Config and its parts, the
// warnings and the error, and what Load is given (Env, Options).

import (
	"log/slog"
	"net/url"
	"strings"

	"rypsok/fetch"
	"rypsok/mcp"
	"rypsok/rsp"
	"rypsok/search"
	"rypsok/secrets"
	"rypsok/tool"
)

// MaxFileBytes bounds the configuration file (tomlx refuses more too).
const MaxFileBytes = 1 << 20

// minTokenBytes is the shortest caller token accepted.
const minTokenBytes = 32

// Config is a validated configuration.
type Config struct {
	Source string // how the file was found, for check's first line

	Search search.Settings
	Fetch  fetch.Settings
	MCP    mcp.Settings
	// HTTP is [service.http] but its callers, which are HTTPCallers.
	HTTP        mcp.HTTPSettings
	HTTPCallers []Caller
	// Metrics is [service.metrics] (metrics.go).
	Metrics MetricsSettings

	UserAgentContact string
	Proxy            *url.URL // [egress] proxy; never printed
	LogLevel         slog.Level
	LogQueries       bool
	CacheEnabled     bool
	Scraping         bool

	// RSP is [rsp] and its plugins (rsp.go); RSPPlugins, what each plugin
	// declared at check's handshake (SetPlugins), for Report.
	RSP        rsp.Settings
	RSPPlugins []rsp.PluginInfo

	// Engines holds, per configured engine in identifier order, the state of
	// its credential as check prints it.
	Engines []EngineReport
	// Warnings are the lines of the Warnings table that apply.
	Warnings []Warning
}

// Caller is one [[service.http.auth.callers]] entry.
type Caller struct {
	ID        string
	TokenEnv  string
	TokenFile string
	Token     secrets.Secret
}

// EngineReport is what check says about one engine.
type EngineReport struct {
	ID         string
	Type       string
	Enabled    bool
	Categories []tool.Category
	Preference int
	Endpoint   string
	Credential string // "no credential needed", "credential resolved", "inactive: …", "disabled by configuration"
	Active     bool
	Scrapes    bool
	// KeyUnread: an optional key was configured but could not be read, so
	// the engine runs keyless at the provider's lower limit.
	KeyUnread bool
}

// Warning is one line of the Warnings table.
type Warning struct {
	Key  string
	What string
	Safe string
}

func (w Warning) String() string { return w.Key + ": " + w.What + "; " + w.Safe }

// Error is an invalid configuration: one message per problem, in the
// order of the file.
type Error struct{ Messages []string }

func (e *Error) Error() string { return strings.Join(e.Messages, "\n") }

// Env is how Load reads the process environment and secret files: main
// passes the real ones, tests their own.
type Env struct {
	Lookup   func(string) (string, bool)
	ReadFile func(string) (secrets.Secret, secrets.FileInfo, error)
}

// Options say what to read beyond the file.
type Options struct {
	// ReadTokens reads the callers' tokens as serve --transport http does
	// (check does it too).
	ReadTokens bool
}

// MetricsSettings are the [service.metrics] values: the listener of
// /metrics, /healthz and /readyz. An empty Bind is off (the default).
type MetricsSettings struct {
	Bind string
}
