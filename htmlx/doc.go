// Package htmlx turns an HTML page into its main content as Markdown.
//
// It parses the page under node and depth bounds, measures every node,
// chooses the content root, prunes it with one ordered table of rules
// (extract_prune_rules.go) and writes what is left as Markdown. Decoding
// the fetched bytes is htmlx/charset's job; cleaning the text at the
// content boundary is boundary's.
//
// It must never fetch anything, never run a script, never decode entities
// twice, and never let a hostile document cost more than a bounded one.
package htmlx
