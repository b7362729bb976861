// Package boundary cleans every external string before rypsok returns it:
// markup stripped, entities decoded once, invisible and control characters
// removed, text normalised and bounded, and instruction-like text told.
//
// Search snippets and fetched pages pass the same cleaners, so that one
// boundary holds for all external text (REQ-CTX-004, REQ-SEC-003,
// REQ-SEC-015). It never fetches, never logs, and runs in linear time.
package boundary
