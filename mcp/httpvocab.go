package mcp

// httpvocab.go holds the HTTP listener's fixed words and numbers: its
// defaults and bounds, its log events and counter reasons, shared by the
// connection gate, the session table and the handler.

import "time"

// Defaults and fixed bounds of the listener.
const (
	defaultBind            = "127.0.0.1:8737"
	defaultMaxConnections  = 64               // LIM-H1
	defaultMaxRequestBytes = 65536            // LIM-H2
	defaultIdleTimeout     = 60 * time.Second // LIM-H3
	defaultMaxStreams      = 16               // LIM-H4
	defaultRequestTimeout  = 30 * time.Second // LIM-H5
	defaultMaxSessions     = 256              // LIM-H6
	maxHeaderBlock         = 16384            // LIM-H7, fixed
	minTokenBytes          = 32
	sessionIdle            = 300 * time.Second // a session without traffic expires
	retryAfterSessions     = "30"
	mcpPath                = "/mcp"
)

// The log events and counter reasons of the listener.
const (
	eventListening    = "listening"     // info, at the bind, so first of the transport's lines: address, callers
	eventHTTPRefused  = "http_refused"  // warn: reason, family
	eventAcceptFailed = "accept_failed" // warn, at most once per 10 s

	httpCounters = "http" // the counters group of the listener's refusals

	reasonUnauthorized       = "unauthorized"
	reasonForbidden          = "sdk_forbidden"
	reasonRequestTimeout     = "request_timeout"
	reasonClientClosed       = "client_closed" // the client went away partway through its body
	reasonBodyTooLarge       = "body_too_large"
	reasonSessionLimit       = "session_limit"
	reasonTooManyConnections = "too_many_connections"
	reasonIdleConnection     = "idle_connection"
	reasonBadRequest         = "sdk_bad_request"
	reasonNotAcceptable      = "sdk_not_acceptable"
	reasonNotFound           = "not_found"
	reasonMethodNotAllowed   = "method_not_allowed"
)
