// Package fetch answers web_fetch: the pipeline of REQ-PAGE-001 from
// validation to truncation, redirects, strict mode and continuation.
//
// One call runs, in this order: the URL's form, the secret check, strict
// mode, the egress policy (with the http-to-https upgrade), robots.txt,
// the request under the fetch and per-host concurrency limits, redirects
// (each hop judged again), the status, the byte limit while streaming, the
// media type, and then, off the request goroutine under the parsing limit,
// charset decoding, extraction under node and depth bounds (for a PDF, the
// pdf package's reading under its bounds, only as far as the window needs)
// and cleaning; last the cut to max_chars from start_char.
//
// It must never import the protocol (mcp), never connect anywhere except
// through the agent-directed egress profile, never return a 4xx or 5xx body,
// never log a URL path, query or content, and never retain a page beyond the
// call.
package fetch
