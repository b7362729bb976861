package search

import (
	"context"
	"fmt"
	"time"

	"rypsok/tool"
)

// Engine is one configured engine (REQ-ENG-001): the properties of its
// admission record, a search operation, and its own error classification.
// Its identifier and categories are its EngineConfig's. Implementations
// must be safe for concurrent use (REQ-ENG-002).
type Engine interface {
	Properties() Properties
	// Search asks the provider. The error is nil or an *EngineError; no
	// provider text ever leaves the driver (REQ-ENG-006).
	Search(ctx context.Context, req EngineRequest) ([]RawResult, error)
}

// Properties are the obligations of an engine's admission record
// (REQ-ENG-010), obeyed by the aggregator and the boundary.
type Properties struct {
	RatePerMinute int // LIM-C9: requests the provider allows per minute
	// RatePerDay, when set, replaces RatePerMinute for a provider that
	// counts a daily quota (Stack Exchange): one token per 24 h / RatePerDay.
	RatePerDay    int
	Burst         int // requests admitted at once before the rate applies
	MaxInFlight   int // the provider's concurrency cap (LIM-C2 is the ceiling)
	MaxQueryChars int // longer queries skip the engine (query_too_long)
	MaxQueryWords int // 0: no word limit
	// Languages the engine honours; nil means every language.
	Languages []string
	// TimeRanges reports whether the engine honours time_range.
	TimeRanges          bool
	Cacheable           bool
	AttributionRequired bool
	ResponseBytes       int64 // the bound of one response, after decompression
}

// EngineRequest is what one engine is asked.
type EngineRequest struct {
	Query      string
	Category   tool.Category // the category asked, for a provider with categories of its own
	MaxResults int           // LIM-S3
	Language   string
	Region     string
	SafeSearch string
	TimeRange  tool.TimeRange
}

// RawResult is one result as a driver delivers it (REQ-ENG-012): raw text,
// cleaned later by the pipeline. A driver whose text is already decoded
// (plain text, not HTML) marks the field so that markup removal and entity
// decoding are not applied to it; unmarked text is treated as raw markup,
// which errs on the safe side.
type RawResult struct {
	Title          string
	URL            string
	Snippet        string
	Date           string // YYYY-MM-DD when the provider gave one
	TitleDecoded   bool
	SnippetDecoded bool
}

// EngineError is a classified failure: one class of REQ-ENG-006 and, for
// rate limits, how long the provider asked to wait. It carries no text.
type EngineError struct {
	Class      tool.Reason
	RetryAfter time.Duration
	// NotSent: the driver's own limiter (a provider-wide gate) refused the
	// turn and nothing reached the provider. It is a skip, not the
	// provider's failure, and never counts toward the circuit.
	NotSent bool
}

func (e *EngineError) Error() string {
	if e.RetryAfter > 0 {
		return fmt.Sprintf("engine failure: %s (retry after %s)", e.Class, e.RetryAfter)
	}
	return "engine failure: " + string(e.Class)
}

func failure(class tool.Reason) *EngineError { return &EngineError{Class: class} }
