package search

import (
	"crypto/x509"
	"log/slog"
	"net/url"
	"time"

	"rypsok/secrets"
	"rypsok/tool"
)

// Settings are the [search], [limits] (engine part), [resilience],
// [privacy] and [cache] values that concern searches, with the engines.
// DefaultSettings gives every default of the limits table.
type Settings struct {
	Languages         []string      // offered to callers; the first is the default
	Region            string        // two upper-case letters
	SafeSearch        string        // off, moderate, strict
	MaxResults        int           // LIM-S2 default
	MaxResultsCeiling int           // LIM-S2 ceiling
	QueryMaxChars     int           // LIM-S1
	Deadline          time.Duration // LIM-S4
	EngineTimeout     time.Duration // LIM-S5
	ConnectTimeout    time.Duration // LIM-S12
	Reserve           time.Duration // LIM-S6
	EnginesPerRequest int           // LIM-S8
	ResultsPerEngine  int           // LIM-S3
	SnippetMaxChars   int           // LIM-S9
	TitleMaxChars     int           // LIM-S10
	DropFlagged       bool          // drop_flagged_results
	Attribution       bool          // engine_attribution

	OutboundInFlight  int // LIM-C1
	PerEngineInFlight int // LIM-C2

	FailuresToOpen int           // LIM-B1
	FirstCooldown  time.Duration // LIM-B2
	MaxCooldown    time.Duration // LIM-B3

	SecretDetection secrets.Mode // LIM-P1
	LogQueries      bool         // LIM-P3

	CacheEnabled       bool          // LIM-K1
	CacheTTL           time.Duration // LIM-K2
	CacheMaxEntries    int           // LIM-K3
	CacheMaxEntryBytes int           // LIM-K4

	Engines []EngineConfig
}

// EngineConfig is one [engines.<id>] table after validation.
type EngineConfig struct {
	ID         string
	Type       string // a type of the driver table (DriverTypes)
	Categories []tool.Category
	Preference int
	Endpoint   string   // brave: web or news
	BaseURL    *url.URL // a mirror, a stand-in or (searxng) the operator's instance; nil for the public API
	Site       string   // stackexchange: the site's API parameter (stackoverflow, superuser, ...)
	Key        secrets.Secret
	// Disabled is empty for an active engine; otherwise the reason
	// engine_status reports (the operator switched it off, or its key could
	// not be read).
	Disabled tool.DisabledReason
}

// DefaultSettings returns the defaults of the limits table, without engines.
func DefaultSettings() Settings {
	return Settings{
		Languages:          []string{"en"},
		Region:             "US",
		SafeSearch:         "moderate",
		MaxResults:         5,
		MaxResultsCeiling:  20,
		QueryMaxChars:      400,
		Deadline:           2500 * time.Millisecond,
		EngineTimeout:      2000 * time.Millisecond,
		ConnectTimeout:     1000 * time.Millisecond,
		Reserve:            200 * time.Millisecond,
		EnginesPerRequest:  8,
		ResultsPerEngine:   10,
		SnippetMaxChars:    300,
		TitleMaxChars:      150,
		OutboundInFlight:   32,
		PerEngineInFlight:  2,
		FailuresToOpen:     3,
		FirstCooldown:      60 * time.Second,
		MaxCooldown:        900 * time.Second,
		SecretDetection:    secrets.Refuse,
		CacheTTL:           300 * time.Second,
		CacheMaxEntries:    1000,
		CacheMaxEntryBytes: 32768,
	}
}

// withDefaults fills what a caller left zero: every number that must be
// positive, the languages, the region and safe search. So a zero Settings
// (with engines) is the book's defaults, as fetch's is; every switch is
// already safe at its zero value (the secret check refuses, queries are not
// logged, flagged results are kept and marked, the cache is off).
func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	pos := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	dur := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	if len(s.Languages) == 0 {
		s.Languages = d.Languages
	}
	if s.Region == "" {
		s.Region = d.Region
	}
	if s.SafeSearch == "" {
		s.SafeSearch = d.SafeSearch
	}
	pos(&s.MaxResults, d.MaxResults)
	pos(&s.MaxResultsCeiling, d.MaxResultsCeiling)
	pos(&s.QueryMaxChars, d.QueryMaxChars)
	dur(&s.Deadline, d.Deadline)
	dur(&s.EngineTimeout, d.EngineTimeout)
	dur(&s.ConnectTimeout, d.ConnectTimeout)
	if s.Reserve < 0 {
		s.Reserve = 0
	}
	pos(&s.EnginesPerRequest, d.EnginesPerRequest)
	pos(&s.ResultsPerEngine, d.ResultsPerEngine)
	pos(&s.SnippetMaxChars, d.SnippetMaxChars)
	pos(&s.TitleMaxChars, d.TitleMaxChars)
	pos(&s.OutboundInFlight, d.OutboundInFlight)
	pos(&s.PerEngineInFlight, d.PerEngineInFlight)
	pos(&s.FailuresToOpen, d.FailuresToOpen)
	dur(&s.FirstCooldown, d.FirstCooldown)
	dur(&s.MaxCooldown, d.MaxCooldown)
	dur(&s.CacheTTL, d.CacheTTL)
	pos(&s.CacheMaxEntries, d.CacheMaxEntries)
	pos(&s.CacheMaxEntryBytes, d.CacheMaxEntryBytes)
	return s
}

// Deps are what the process gives the service.
type Deps struct {
	Logger    *slog.Logger
	Now       func() time.Time // the clock of rate limits and circuits
	Roots     *x509.CertPool   // trust roots of engine requests
	Proxy     *url.URL         // [egress] proxy for engine traffic; nil: none
	UserAgent string
	// Returned is told every URL a search returned (strict mode of
	// web_fetch); nil: nobody listens.
	Returned func(url string)
	// Judge judges each returned result's title and snippet (the RSP
	// hook on_retrieve) after cleaning and bounding; nil: nothing is
	// judged.
	Judge tool.Judge

	// gates are the provider-wide gates New shares among the engines it
	// builds (gateRegistry).
	gates *gateRegistry
}
