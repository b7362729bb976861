package mcp

import "unicode/utf8"

// toolsListOf is the encoded tools/list result of a revision version: the
// tests read what the catalog encoded at its first request.
func (c *catalog) toolsListOf(version string) []byte {
	return c.forRevision(revisionOf(version)).toolsList
}

// budget is the LIM-I1 count: the characters of the names, descriptions
// and compact input schemas of all tools, plus the server instructions.
func (c *catalog) budget() int {
	n := utf8.RuneCountInString(instructions)
	for _, t := range c.tools {
		n += utf8.RuneCountInString(t.name) + utf8.RuneCountInString(t.description)
		n += utf8.RuneCount(mustJSON(t.input))
	}
	return n
}
