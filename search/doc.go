// Package search answers web_search and engine_status: the engine
// abstraction and registry, one file per driver, aggregation under deadlines,
// URL normalisation, deduplication, rank fusion, the content boundary of
// results, provider limits and circuit breakers.
//
// It must never import the protocol (mcp), never let provider text leave a
// driver except as cleaned result fields, and never wait beyond the search
// deadline.
package search
