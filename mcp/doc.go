// Package mcp speaks the Model Context Protocol: JSON-RPC 2.0 framing, the
// stateless 2026-07-28 revision and the handshake-based revisions, the tool
// definitions and their schemas, argument validation, per-tool rate limits,
// cancellation, shutdown and the JSON log lines.
//
// It must never know an engine driver, never write anything to stdout but
// whole protocol messages, and never let a call end without exactly one
// answer (or none, when the call was cancelled).
package mcp
