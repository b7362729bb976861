package mcp

// settings.go holds what a Server is given: its Settings with their
// defaults, and the services it calls (Searcher, Fetcher).

import (
	"context"
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
// surface. A zero rate (SearchPerMinute, FetchPerMinute, StatusPerMinute)
// takes the default of LIM-C6 to LIM-C8, a zero Shutdown that of LIM-O1.
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

// DefaultSettings are the book's defaults of the protocol surface:
// structured content and engine_status on, the shutdown grace of LIM-O1
// and the rates of LIM-C6 to LIM-C8. The bounds of the tools' arguments
// are search's and fetch's.
func DefaultSettings() Settings {
	return Settings{
		StructuredContent: true,
		Shutdown:          defaultShutdown,
		StatusEnabled:     true,
		SearchPerMinute:   defaultSearchPerMinute,
		FetchPerMinute:    defaultFetchPerMinute,
		StatusPerMinute:   defaultStatusPerMinute,
	}
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

const (
	defaultShutdown = 3 * time.Second
	// callerLocal is the caller of every call on stdio and on a loopback
	// listener without callers.
	callerLocal = "local"
)
