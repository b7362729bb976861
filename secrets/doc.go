// Package secrets holds the two jobs that concern credentials: the Secret
// type, which carries a key or token read by reference and never prints it,
// and the secret check, which finds credential shapes in a query or URL
// before anything leaves the host (REQ-PRIV-002).
//
// The check recognises credentials by a fixed prefix or structure and the
// length of the real format, never by how random text looks; it reads
// through invisible characters and percent escapes and reports positions in
// Unicode scalar values of the original text.
//
// It must never print, log or return a credential's value: a Finding names
// a kind and a position, an error names a failure class.
package secrets
