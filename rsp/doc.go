// Package rsp is rypsok's side of the RAG Security Protocol (RSP 0.1): it
// runs operator-configured security plugins as subprocesses on external
// content and composes their verdicts, and it gives a Go program what it
// needs to be such a plugin.
//
// Host side: New starts nothing long-lived; it handshakes every configured
// plugin once and returns a Host whose Judge method runs the plugins on a
// batch of items at one hook. Each call is one process: argv without a
// shell, a clean environment, its own process group, one JSON object on
// stdin, exactly one JSON object expected on stdout, stderr captured up to
// 64 KiB. The whole group is killed when the call ends, so no plugin
// process outlives its call. Failures are named by a fixed vocabulary of
// classes (Class) and decided by the plugin's on_error setting; verdicts
// of plugins that declared themselves deterministic are cached.
//
// Both sides read the reference's dialect (the handshake is
// "hook":"handshake"; a call needs no type) and rypsok's, and refuse any
// message that is not strict JSON (StrictJSON). Content goes by reference
// only to a plugin whose handshake declares content_ref.
//
// Plugin side: Serve (and ServeIO) read one request, answer the handshake
// or call a judging function, and write one answer.
//
// Tools: Ingest is `rypsok rsp ingest` (files to judged chunks at
// on_chunk) and Conformance is `rypsok rsp conformance` (a plugin checked
// against the protocol, one PASS/FAIL line per check). docs/rsp.md is the
// contract for plugin authors.
//
// Log events (on the Settings' Logger): rsp_handshake_failed (plugin,
// failure), rsp_plugin_failed (plugin, hook, failure, on_error),
// rsp_verdict (plugin, hook, verdict, reason) for every non-ALLOW answer,
// rsp_unknown_severity (plugin, severity) once per plugin, and at debug
// rsp_plugin_stderr (plugin, the first 200 cleaned bytes).
//
// The package never imports search, fetch or mcp: they receive a Judge
// (the interface below) from main. It never logs or returns content, the
// matched bytes or span offsets; a plugin's strings are untrusted, bounded
// to 200 bytes and cleaned, and only redaction types and severities reach
// a Result.
package rsp
