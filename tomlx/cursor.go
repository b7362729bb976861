package tomlx

// The parser's state and its cursor over the bytes: positions, errors at
// the cursor, and the characters between tokens. The string forms
// (strings.go) and the document structure (parse.go) read through it.

import (
	"bytes"
	"unicode/utf8"
)

// tableState records how a table came to exist, which decides whether a
// later header or dotted key may define or extend it.
type tableState uint8

const (
	// stateImplicit: created as the parent in a header ([a] of [a.b]); a
	// header of its own may define it once, dotted keys may extend it.
	stateImplicit tableState = iota
	// stateHeader: defined by a header, an element of an array of tables,
	// or the root. Neither a header nor a dotted key may define it again.
	stateHeader
	// stateDotted: created by a dotted key; headers may pass through it to
	// define sub-tables, dotted keys may extend it, no header may define it.
	stateDotted
	// stateInline: an inline table; closed. The tables its dotted keys
	// create are reached only through it, so they need no state of their
	// own.
	stateInline
)

type parser struct {
	src       []byte
	pos       int
	line      int
	lineStart int
	// colPos and colN cache the column of one position on the current
	// line, so that counting characters stays linear.
	colPos, colN int

	root    *Table
	cur     *Table
	curPath []string
	state   map[*Table]tableState
	aot     map[*Value]bool // arrays created by [[header]]
}

// col is the column of p.pos.
func (p *parser) col() int {
	if p.colPos < p.lineStart || p.pos < p.colPos {
		p.colPos, p.colN = p.lineStart, 1
	}
	p.colN += utf8.RuneCount(p.src[p.colPos:p.pos])
	p.colPos = p.pos
	return p.colN
}

func (p *parser) place() (line, col int) {
	return p.line, p.col()
}

func (p *parser) errHere(msg string) *Error {
	return &Error{Msg: msg, Line: p.line, Col: p.col()}
}

func (p *parser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0 // checkBytes refuses NUL, so 0 means the end
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) hasPrefix(s string) bool {
	return bytes.HasPrefix(p.src[p.pos:], []byte(s))
}

func (p *parser) atNewline() bool {
	c := p.peek()
	return c == '\n' || c == '\r' // checkBytes: a CR is always followed by LF
}

// newline consumes "\n" or "\r\n".
func (p *parser) newline() {
	if p.src[p.pos] == '\r' {
		p.pos++
	}
	p.pos++
	p.line++
	p.lineStart = p.pos
}

func (p *parser) skipWS() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

func (p *parser) skipComment() {
	if p.peek() != '#' {
		return
	}
	for p.pos < len(p.src) && p.src[p.pos] != '\n' && p.src[p.pos] != '\r' {
		p.pos++
	}
}

// skipBlank skips whitespace, comments and line ends, as inside an array.
func (p *parser) skipBlank() {
	for {
		p.skipWS()
		p.skipComment()
		if !p.atNewline() {
			return
		}
		p.newline()
	}
}
