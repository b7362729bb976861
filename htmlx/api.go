// Package htmlx turns external text into what rypsok may return: the main
// content of an HTML page as Markdown, parsed under node and depth bounds,
// and the content-boundary cleaners that every external string passes
// (markup, entities, invisible characters, bounds).
//
// It must never fetch anything, never run a script, never decode entities
// twice, and never let a hostile document cost more than a bounded one.
package htmlx
