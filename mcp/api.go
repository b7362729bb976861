// Package mcp speaks the Model Context Protocol: JSON-RPC 2.0 framing, the
// stateless 2026-07-28 revision and the handshake-based revisions, the tool
// definitions and their schemas, argument validation, per-tool rate limits,
// cancellation, shutdown and the JSON log lines.
//
// It must never know an engine driver, never write anything to stdout but
// whole protocol messages, and never let a call end without exactly one
// answer (or none, when the call was cancelled).
package mcp

// STUB FILE: the signatures below are the package's contract with main.
// The implementation replaces the bodies.

import (
	"context"
	"io"
	"log/slog"
	"time"

	"rypsok/tool"
)

// Searcher is what mcp needs of the search service.
type Searcher interface {
	Search(ctx context.Context, req tool.SearchRequest) (*tool.SearchResponse, *tool.Error)
	Status(ctx context.Context) *tool.StatusResponse
	Categories() []tool.Category
}

// Fetcher is what mcp needs of the fetch service.
type Fetcher interface {
	Fetch(ctx context.Context, req tool.FetchRequest) (*tool.FetchResponse, *tool.Error)
}

// Settings are the values of the configuration that shape the protocol
// surface.
type Settings struct {
	Version           string // rypsok's version, for serverInfo
	StructuredContent bool
	Shutdown          time.Duration // LIM-O1
	StatusEnabled     bool

	SearchPerMinute int // LIM-C6
	FetchPerMinute  int // LIM-C7
	StatusPerMinute int // LIM-C8

	Languages         []string // the first is the default
	MaxResults        int
	MaxResultsCeiling int
	QueryMaxChars     int
	MaxChars          int
	MaxCharsCeiling   int
}

// Server serves the three tools.
type Server struct{}

// New returns a server. now is the clock of the rate limits.
func New(s Settings, search Searcher, fetch Fetcher, log *slog.Logger, now func() time.Time) *Server {
	panic("stub")
}

// ServeStdio reads requests from in and writes answers to out until in ends
// or ctx is cancelled (SIGTERM), then aborts the calls in flight and returns
// within the shutdown time.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error { panic("stub") }

// NewLogHandler returns the handler of rypsok's log lines: one JSON object
// per line with timestamp (RFC 3339, UTC), level and event, plus request_id
// and caller for every event emitted with a call's context.
func NewLogHandler(w io.Writer, level slog.Level) slog.Handler { panic("stub") }
