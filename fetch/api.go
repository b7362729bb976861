// Package fetch answers web_fetch: the pipeline of REQ-PAGE-001 from
// validation to truncation, redirects, strict mode and continuation.
//
// It must never import the protocol (mcp), never connect anywhere except
// through the agent-directed egress profile, never return a 4xx or 5xx body,
// and never retain a page beyond the call.
package fetch

// STUB FILE: the signatures below are the package's contract with config.go,
// main and mcp. The implementation replaces the bodies.

import (
	"context"
	"crypto/x509"
	"log/slog"
	"time"

	"rypsok/egress"
	"rypsok/secrets"
	"rypsok/tool"
)

// Settings are the [fetch] and [limits] values that concern fetches.
type Settings struct {
	MaxChars                 int           // LIM-F1
	MaxCharsCeiling          int           // LIM-F2
	MaxBytes                 int64         // LIM-F3
	Deadline                 time.Duration // LIM-F4
	ConnectTimeout           time.Duration // LIM-F6
	MaxRedirects             int           // LIM-F7
	RobotsTxt                bool
	FollowCrossHostRedirects bool
	StrictMode               bool
	FetchesInFlight          int // LIM-C3
	ParsingInFlight          int // LIM-C5
	StrictModeURLs           int // LIM-F14
	RobotsCacheEntries       int // LIM-F15
	TitleMaxChars            int // LIM-S10
	SecretDetection          secrets.Mode
	Policy                   egress.Policy // the agent-directed profile with the operator's rules and ports
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
		RobotsTxt:          true,
		FetchesInFlight:    4,
		ParsingInFlight:    2,
		StrictModeURLs:     10000,
		RobotsCacheEntries: 1000,
		TitleMaxChars:      150,
		SecretDetection:    secrets.Refuse,
		Policy:             egress.Policy{Ports: []int{80, 443}},
	}
}

// Deps are what the process gives the service.
type Deps struct {
	Logger    *slog.Logger
	Now       func() time.Time
	Roots     *x509.CertPool
	UserAgent string
	Resolver  egress.Resolver // nil: the Go resolver
}

// Service answers web_fetch.
type Service struct{}

// New builds the service.
func New(s Settings, d Deps) *Service { panic("stub") }

// Remember records a URL web_search returned, for strict mode.
func (s *Service) Remember(url string) { panic("stub") }

// Fetch runs one fetch. The error is nil or a *tool.Error; when ctx is
// cancelled the caller discards whatever is returned.
func (s *Service) Fetch(ctx context.Context, req tool.FetchRequest) (*tool.FetchResponse, *tool.Error) {
	panic("stub")
}
