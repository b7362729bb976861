package fetch

import (
	"crypto/x509"
	"log/slog"
	"net/http"
	"time"

	"rypsok/egress"
	"rypsok/internal/semaphore"
	"rypsok/robots"
	"rypsok/secrets"
	"rypsok/tool"
)

// Settings are the [fetch] and [limits] values that concern fetches. New
// replaces a zero or negative number by its default (DefaultSettings), except
// MaxRedirects, where zero means that no redirect is followed. Every switch
// is safe at its zero value: a zero Settings honours robots.txt, refuses
// credentials, follows no cross-host redirect and admits only the built-in
// profile.
type Settings struct {
	MaxChars                 int           // LIM-F1
	MaxCharsCeiling          int           // LIM-F2
	MaxBytes                 int64         // LIM-F3
	Deadline                 time.Duration // LIM-F4
	ConnectTimeout           time.Duration // LIM-F6
	MaxRedirects             int           // LIM-F7
	IgnoreRobotsTxt          bool          // fetch.robots_txt = false: robots.txt is not read
	FollowCrossHostRedirects bool
	StrictMode               bool
	FetchesInFlight          int // LIM-C3
	ParsingInFlight          int // LIM-C5
	StrictModeURLs           int // LIM-F14
	RobotsCacheEntries       int // LIM-F15
	TitleMaxChars            int // LIM-S10
	SecretDetection          secrets.Mode
	Policy                   egress.Policy // the agent-directed profile with the operator's rules and ports

	// StrictHidden is fetch.read_collapsed = false: no closed details,
	// disclosure panel or noscript fallback is read (REQ-CTX-005 as the
	// book writes it).
	StrictHidden bool
}

// DefaultSettings returns the defaults of the limits table.
func DefaultSettings() Settings {
	return Settings{
		MaxChars:           3000,
		MaxCharsCeiling:    20000,
		MaxBytes:           5 << 20,
		Deadline:           10 * time.Second,
		ConnectTimeout:     3 * time.Second,
		MaxRedirects:       5,
		FetchesInFlight:    4,
		ParsingInFlight:    2,
		StrictModeURLs:     10000,
		RobotsCacheEntries: 1000,
		TitleMaxChars:      150,
		SecretDetection:    secrets.Refuse,
		Policy:             egress.Policy{Ports: []int{80, 443}},
	}
}

// withDefaults fills the numbers a caller left zero or negative.
func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	if s.MaxChars <= 0 {
		s.MaxChars = d.MaxChars
	}
	if s.MaxCharsCeiling <= 0 {
		s.MaxCharsCeiling = d.MaxCharsCeiling
	}
	if s.MaxBytes <= 0 {
		s.MaxBytes = d.MaxBytes
	}
	if s.Deadline <= 0 {
		s.Deadline = d.Deadline
	}
	if s.ConnectTimeout <= 0 {
		s.ConnectTimeout = d.ConnectTimeout
	}
	if s.MaxRedirects < 0 {
		s.MaxRedirects = 0
	}
	if s.FetchesInFlight <= 0 {
		s.FetchesInFlight = d.FetchesInFlight
	}
	if s.ParsingInFlight <= 0 {
		s.ParsingInFlight = d.ParsingInFlight
	}
	if s.StrictModeURLs <= 0 {
		s.StrictModeURLs = d.StrictModeURLs
	}
	if s.RobotsCacheEntries <= 0 {
		s.RobotsCacheEntries = d.RobotsCacheEntries
	}
	if s.TitleMaxChars <= 0 {
		s.TitleMaxChars = d.TitleMaxChars
	}
	return s
}

// Deps are what the process gives the service.
type Deps struct {
	Logger    *slog.Logger     // nil: nothing is logged
	Now       func() time.Time // the clock of robots.txt verdicts and latencies; nil: time.Now
	Roots     *x509.CertPool
	UserAgent string
	Resolver  egress.Resolver // nil: the Go resolver
	// Judge judges the extracted page (RSP on_retrieve) and the slice
	// returned (on_response); nil: nothing is judged.
	Judge tool.Judge
}

// Service answers web_fetch. It is safe for concurrent use; build it with
// New.
type Service struct {
	set     Settings
	log     *slog.Logger
	now     func() time.Time
	client  *http.Client
	robots  *robots.Checker
	strict  *urlSet
	fetches semaphore.Semaphore // LIM-C3
	hosts   *hostLimiter        // LIM-C4
	parsing semaphore.Semaphore // LIM-C5
	process processFunc         // replaced by tests that need a slow or failing extraction
	judge   tool.Judge          // RSP plugins; nil: none
}
