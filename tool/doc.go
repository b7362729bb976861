// Package tool is the shared vocabulary of rypsok's answers: the requests the
// three tools accept, the responses they give, the outcomes, the error kinds
// and reasons, and the notices.
//
// Everything rypsok asserts about a call is built here from fixed words:
// constructors take typed values (numbers, names from the tool schemas, the
// closed vocabularies below), never text that came from an engine or a page,
// and every message is bounded by LIM-I4. Fields that carry external data
// (titles, snippets, content, URLs, a redirect location, a media type) are
// separate fields of the responses and never part of a message.
//
// The package imports nothing from the project; search, fetch and mcp all
// import it, so that the core never depends on the protocol (REQ-ARCH-005).
package tool
