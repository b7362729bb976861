package mcp

// The protocol revisions served, and everything that differs between them.
// A revision is a row of data: serving another one is a new row here (and,
// for a new kind of field, one switch in tools.go or server.go).

const (
	versionModern  = "2026-07-28"
	versionDefault = "2025-11-25" // answered to an initialize naming a revision not served
)

// revision describes one protocol revision.
type revision struct {
	version string

	// stateless: every request carries its revision in _meta (2026-07-28);
	// otherwise the revision is chosen by initialize.
	stateless bool
	// resultType: every result carries "resultType": "complete".
	resultType bool
	// cacheHints: cacheable results carry ttlMs and cacheScope.
	cacheHints bool
	// serverInfoMeta: results other than tool results carry
	// _meta["io.modelcontextprotocol/serverInfo"].
	serverInfoMeta bool
	// ping: the ping method exists.
	ping bool

	// Tool definitions and tool results.
	toolTitle       bool // Tool.title
	annotations     bool // Tool.annotations
	annotationTitle bool // annotations.title (when Tool.title does not exist)
	outputSchema    bool // Tool.outputSchema and CallToolResult.structuredContent
}

// revisions lists every revision served, newest first; it is the
// supportedVersions of server/discover.
var revisions = [...]revision{
	{version: versionModern, stateless: true, resultType: true, cacheHints: true, serverInfoMeta: true,
		toolTitle: true, annotations: true, outputSchema: true},
	{version: "2025-11-25", ping: true, toolTitle: true, annotations: true, outputSchema: true},
	{version: "2025-06-18", ping: true, toolTitle: true, annotations: true, outputSchema: true},
	{version: "2025-03-26", ping: true, annotations: true, annotationTitle: true},
	{version: "2024-11-05", ping: true},
}

// revisionOf returns the revision named v, or nil.
func revisionOf(v string) *revision {
	for i := range revisions {
		if revisions[i].version == v {
			return &revisions[i]
		}
	}
	return nil
}

func supportedVersions() []string {
	vs := make([]string, len(revisions))
	for i, r := range revisions {
		vs[i] = r.version
	}
	return vs
}

// The _meta keys of the stateless revision.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// versionShaped reports whether a requested version may be echoed in an
// error: short, and made of the characters of a version.
func versionShaped(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '.' || r == '_') {
			return false
		}
	}
	return true
}

// statelessVersions are the served revisions without a handshake: the
// supportedVersions of a transport that serves no handshake revision.
func statelessVersions() []string {
	var vs []string
	for _, r := range revisions {
		if r.stateless {
			vs = append(vs, r.version)
		}
	}
	return vs
}
