// Package mcp speaks the Model Context Protocol: the JSON-RPC 2.0 codec
// (codec.go), the stateless 2026-07-28 revision and the handshake-based
// revisions in sessions (session.go), the stdio transport (stdio.go) and
// the Streamable HTTP transport with its gate (http.go, httpgate.go,
// httpsession.go, httpvocab.go), the tool definitions with their handlers
// and schemas (toolspec.go, tools.go), argument validation (validate.go), rate limits per caller and tool, cancellation,
// shutdown and the JSON log lines.
//
// It must never know an engine driver, never write anything to stdout but
// whole protocol messages, and never let a call end without exactly one
// answer (or none, when the call was cancelled).
package mcp
