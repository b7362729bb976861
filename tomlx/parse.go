package tomlx

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The bounds of a document.
const (
	maxDocumentBytes = 1 << 20
	maxLineBytes     = 64 << 10
	maxNestingDepth  = 32
	maxKeyParts      = 32
)

// keyPart is one part of a dotted key with the place it starts.
type keyPart struct {
	name      string
	line, col int
}

const byteOrderMark = "\xEF\xBB\xBF"

func parse(data []byte) (*Table, *Error) {
	if len(data) > maxDocumentBytes {
		return nil, &Error{Msg: "the file is larger than 1 MiB", Line: 1, Col: 1}
	}
	src := data
	if bytes.HasPrefix(src, []byte(byteOrderMark)) {
		src = src[len(byteOrderMark):]
	}
	if err := checkBytes(src); err != nil {
		return nil, err
	}
	p := &parser{
		src:   src,
		line:  1,
		colN:  1,
		root:  newTable(),
		state: make(map[*Table]tableState),
		aot:   make(map[*Value]bool),
	}
	p.cur = p.root
	p.state[p.root] = stateHeader
	if err := p.document(); err != nil {
		return nil, err
	}
	return p.root, nil
}

// checkBytes refuses what may appear nowhere in a document: invalid UTF-8,
// control characters other than tab and line ends, a carriage return not
// followed by a line feed, and over-long lines. The parser relies on it.
func checkBytes(src []byte) *Error {
	line, lineStart := 1, 0
	at := func(i int, msg string) *Error {
		return &Error{Msg: msg, Line: line, Col: 1 + utf8.RuneCount(src[lineStart:i])}
	}
	tooLong := func(end int) bool {
		if end > lineStart && src[end-1] == '\r' {
			end--
		}
		return end-lineStart > maxLineBytes
	}
	for i := 0; i < len(src); {
		c := src[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 {
				return at(i, "the file is not valid UTF-8")
			}
			i += size
			continue
		}
		switch {
		case c == '\n':
			if tooLong(i) {
				return &Error{Msg: "the line is longer than 64 KiB", Line: line, Col: 1}
			}
			line++
			lineStart = i + 1
		case c == '\r':
			if i+1 >= len(src) || src[i+1] != '\n' {
				return at(i, "a carriage return must be followed by a line feed")
			}
		case c == '\t':
		case c < 0x20 || c == 0x7F:
			return at(i, "a control character other than tab is not allowed")
		}
		i++
	}
	if tooLong(len(src)) {
		return &Error{Msg: "the line is longer than 64 KiB", Line: line, Col: 1}
	}
	return nil
}

func newTable() *Table {
	return &Table{
		Values:  make(map[string]*Value),
		KeyLine: make(map[string]int),
		KeyCol:  make(map[string]int),
	}
}

func addKey(t *Table, k keyPart, v *Value) {
	t.Keys = append(t.Keys, k.name)
	t.Values[k.name] = v
	t.KeyLine[k.name] = k.line
	t.KeyCol[k.name] = k.col
}

// --- key paths in messages ---

// redefined reports that the key path prefix+keys was defined before; the
// place is that of the last of keys.
func redefined(prefix []string, keys []keyPart) *Error {
	names := make([]string, 0, len(prefix)+len(keys))
	names = append(names, prefix...)
	for _, k := range keys {
		names = append(names, k.name)
	}
	last := keys[len(keys)-1]
	return &Error{Key: keyPath(names), Msg: "defined more than once", Line: last.line, Col: last.col}
}

// keyPath writes a key path as TOML would: bare parts as they are, other
// parts quoted, with quotes and backslashes escaped and every character
// that does not print (controls, format characters such as bidirectional
// overrides) written as an escape, so that a message shows what is there.
func keyPath(names []string) string {
	var b strings.Builder
	for i, name := range names {
		if i > 0 {
			b.WriteByte('.')
		}
		if isBareKey(name) {
			b.WriteString(name)
			continue
		}
		b.WriteByte('"')
		for _, r := range name {
			switch {
			case r == '"' || r == '\\':
				b.WriteByte('\\')
				b.WriteRune(r)
			case r == ' ' || unicode.IsPrint(r):
				b.WriteRune(r)
			case r <= 0xFFFF:
				fmt.Fprintf(&b, `\u%04X`, r)
			default:
				fmt.Fprintf(&b, `\U%08X`, r)
			}
		}
		b.WriteByte('"')
	}
	return b.String()
}

func isBareKey(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isBareKeyByte(s[i]) {
			return false
		}
	}
	return true
}

// --- key and scalar characters ---

func isBareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// isScalarByte reports whether c may be part of a number, boolean, date or
// time.
func isScalarByte(c byte) bool {
	return isBareKeyByte(c) || c == '+' || c == '.' || c == ':'
}

// --- document structure ---

func (p *parser) document() *Error {
	for {
		p.skipWS()
		switch c := p.peek(); {
		case p.eof():
			return nil
		case c == '#':
			p.skipComment()
		case c == '\n' || c == '\r':
			p.newline()
		case c == '[':
			if err := p.header(); err != nil {
				return err
			}
			if err := p.endOfLine("expected the end of the line after a table header"); err != nil {
				return err
			}
		default:
			if err := p.keyval(p.cur, p.curPath, 0); err != nil {
				return err
			}
			if err := p.endOfLine("expected the end of the line after a value"); err != nil {
				return err
			}
		}
	}
}

func (p *parser) endOfLine(msg string) *Error {
	p.skipWS()
	p.skipComment()
	switch {
	case p.eof():
		return nil
	case p.atNewline():
		p.newline()
		return nil
	}
	return p.errHere(msg)
}

// key reads a key of one or more parts and the whitespace after it.
func (p *parser) key() ([]keyPart, *Error) {
	var parts []keyPart
	for {
		line, col := p.place()
		name, err := p.simpleKey()
		if err != nil {
			return nil, err
		}
		if len(parts) == maxKeyParts {
			return nil, &Error{Msg: "a key has more than 32 parts", Line: line, Col: col}
		}
		parts = append(parts, keyPart{name: name, line: line, col: col})
		p.skipWS()
		if p.peek() != '.' {
			return parts, nil
		}
		p.pos++
		p.skipWS()
	}
}

func (p *parser) simpleKey() (string, *Error) {
	switch p.peek() {
	case '"':
		if p.hasPrefix(`"""`) {
			return "", p.errHere("a multi-line string cannot be a key")
		}
		return p.basicString()
	case '\'':
		if p.hasPrefix(`'''`) {
			return "", p.errHere("a multi-line string cannot be a key")
		}
		return p.literalString()
	}
	start := p.pos
	for p.pos < len(p.src) && isBareKeyByte(p.src[p.pos]) {
		p.pos++
	}
	if p.pos > start {
		return string(p.src[start:p.pos]), nil
	}
	switch c := p.peek(); {
	case c == '=':
		return "", p.errHere("a key is missing before the equals sign")
	case p.eof() || p.atNewline():
		return "", p.errHere("a key is missing")
	case c == ']':
		return "", p.errHere("a table header needs a key")
	}
	return "", p.errHere("expected a key: letters, digits, underscores and dashes, or a quoted key")
}

// header reads [key] or [[key]] and makes its table the current one.
func (p *parser) header() *Error {
	p.pos++
	arrayOfTables := p.peek() == '['
	if arrayOfTables {
		p.pos++
	}
	p.skipWS()
	keys, err := p.key()
	if err != nil {
		return err
	}
	if arrayOfTables {
		if !p.hasPrefix("]]") {
			return p.errHere("expected ]] to close the header of an array of tables")
		}
		p.pos += 2
	} else {
		if p.peek() != ']' {
			return p.errHere("expected ] to close the table header")
		}
		p.pos++
	}
	return p.defineTable(keys, arrayOfTables)
}

func (p *parser) defineTable(keys []keyPart, arrayOfTables bool) *Error {
	t := p.root
	for i, k := range keys[:len(keys)-1] {
		v, ok := t.Values[k.name]
		switch {
		case !ok:
			nt := newTable()
			p.state[nt] = stateImplicit
			addKey(t, k, &Value{Kind: KindTable, Table: nt, Line: k.line, Col: k.col})
			t = nt
		case v.Kind == KindTable && p.state[v.Table] != stateInline:
			t = v.Table
		case v.Kind == KindArray && p.aot[v]:
			t = v.Array[len(v.Array)-1].Table
		default:
			return redefined(nil, keys[:i+1])
		}
	}
	last := keys[len(keys)-1]
	v, ok := t.Values[last.name]
	var cur *Table
	switch {
	case arrayOfTables:
		if !ok {
			v = &Value{Kind: KindArray, Line: last.line, Col: last.col}
			p.aot[v] = true
			addKey(t, last, v)
		} else if v.Kind != KindArray || !p.aot[v] {
			return redefined(nil, keys)
		}
		cur = newTable()
		v.Array = append(v.Array, &Value{Kind: KindTable, Table: cur, Line: last.line, Col: last.col})
	case !ok:
		cur = newTable()
		addKey(t, last, &Value{Kind: KindTable, Table: cur, Line: last.line, Col: last.col})
	case v.Kind == KindTable && p.state[v.Table] == stateImplicit:
		cur = v.Table
		v.Line, v.Col = last.line, last.col
		t.KeyLine[last.name], t.KeyCol[last.name] = last.line, last.col
	default:
		return redefined(nil, keys)
	}
	p.state[cur] = stateHeader
	p.cur = cur
	p.curPath = p.curPath[:0]
	for _, k := range keys {
		p.curPath = append(p.curPath, k.name)
	}
	return nil
}

// keyval reads key = value into t, whose path from the root is path.
func (p *parser) keyval(t *Table, path []string, depth int) *Error {
	keys, err := p.key()
	if err != nil {
		return err
	}
	if p.peek() != '=' {
		return p.errHere("expected an equals sign after the key")
	}
	p.pos++
	p.skipWS()

	for i, k := range keys[:len(keys)-1] {
		v, ok := t.Values[k.name]
		if !ok {
			nt := newTable()
			p.state[nt] = stateDotted
			addKey(t, k, &Value{Kind: KindTable, Table: nt, Line: k.line, Col: k.col})
			t = nt
			continue
		}
		if v.Kind == KindTable {
			if s := p.state[v.Table]; s == stateDotted || s == stateImplicit {
				t = v.Table
				continue
			}
		}
		return redefined(path, keys[:i+1])
	}
	last := keys[len(keys)-1]
	if _, ok := t.Values[last.name]; ok {
		return redefined(path, keys)
	}

	var valuePath []string
	if c := p.peek(); c == '{' || c == '[' {
		valuePath = make([]string, 0, len(path)+len(keys))
		valuePath = append(valuePath, path...)
		for _, k := range keys {
			valuePath = append(valuePath, k.name)
		}
	}
	v, err := p.value(depth, valuePath)
	if err != nil {
		return err
	}
	addKey(t, last, v)
	return nil
}

// value reads one value; depth is the number of arrays and inline tables
// around it.
func (p *parser) value(depth int, path []string) (*Value, *Error) {
	line, col := p.place()
	switch c := p.peek(); {
	case c == '"':
		var s string
		var err *Error
		if p.hasPrefix(`"""`) {
			s, err = p.multiLineString('"')
		} else {
			s, err = p.basicString()
		}
		if err != nil {
			return nil, err
		}
		return &Value{Kind: KindString, Str: s, Line: line, Col: col}, nil
	case c == '\'':
		var s string
		var err *Error
		if p.hasPrefix(`'''`) {
			s, err = p.multiLineString('\'')
		} else {
			s, err = p.literalString()
		}
		if err != nil {
			return nil, err
		}
		return &Value{Kind: KindString, Str: s, Line: line, Col: col}, nil
	case c == '[':
		return p.array(depth+1, path, line, col)
	case c == '{':
		return p.inlineTable(depth+1, path, line, col)
	case p.eof() || p.atNewline():
		return nil, p.errHere("a value is missing")
	case c == '#':
		return nil, p.errHere("a value is missing before the comment")
	case isScalarByte(c):
		return p.scalar(line, col)
	}
	return nil, p.errHere("expected a value")
}

func (p *parser) scalar(line, col int) (*Value, *Error) {
	start := p.pos
	for p.pos < len(p.src) && isScalarByte(p.src[p.pos]) {
		p.pos++
	}
	// A date may be followed by a space and a time.
	if p.pos-start == 10 && p.src[start+4] == '-' && p.src[start+7] == '-' &&
		p.pos+1 < len(p.src) && p.src[p.pos] == ' ' && isDigit(p.src[p.pos+1]) {
		p.pos++
		for p.pos < len(p.src) && isScalarByte(p.src[p.pos]) {
			p.pos++
		}
	}
	v := &Value{Line: line, Col: col}
	if msg := readScalar(v, p.src[start:p.pos]); msg != "" {
		return nil, &Error{Msg: msg, Line: line, Col: col}
	}
	return v, nil
}

// array reads an array. As TOML 1.0 allows, its elements may be of any
// kinds, mixed; a reader that wants one kind checks each element.
func (p *parser) array(depth int, path []string, line, col int) (*Value, *Error) {
	if depth > maxNestingDepth {
		return nil, &Error{Msg: "arrays and inline tables are nested deeper than 32 levels", Line: line, Col: col}
	}
	p.pos++
	v := &Value{Kind: KindArray, Array: []*Value{}, Line: line, Col: col}
	for {
		p.skipBlank()
		if p.eof() {
			return nil, p.errHere("an array is not closed")
		}
		if p.peek() == ']' {
			p.pos++
			return v, nil
		}
		e, err := p.value(depth, path)
		if err != nil {
			return nil, err
		}
		v.Array = append(v.Array, e)
		p.skipBlank()
		switch {
		case p.peek() == ',':
			p.pos++
		case p.peek() == ']':
			p.pos++
			return v, nil
		case p.eof():
			return nil, p.errHere("an array is not closed")
		default:
			return nil, p.errHere("expected a comma or ] after a value in an array")
		}
	}
}

func (p *parser) inlineTable(depth int, path []string, line, col int) (*Value, *Error) {
	if depth > maxNestingDepth {
		return nil, &Error{Msg: "arrays and inline tables are nested deeper than 32 levels", Line: line, Col: col}
	}
	p.pos++
	t := newTable()
	p.state[t] = stateInline
	p.skipWS()
	if p.peek() == '}' {
		p.pos++
		return &Value{Kind: KindTable, Table: t, Line: line, Col: col}, nil
	}
	for {
		if err := p.insideInlineTable(); err != nil {
			return nil, err
		}
		if err := p.keyval(t, path, depth); err != nil {
			return nil, err
		}
		p.skipWS()
		if p.peek() == '}' {
			p.pos++
			break
		}
		if p.peek() != ',' {
			if err := p.insideInlineTable(); err != nil {
				return nil, err
			}
			return nil, p.errHere("expected a comma or } after a value in an inline table")
		}
		p.pos++
		p.skipWS()
		if p.peek() == '}' {
			return nil, p.errHere("a comma is not allowed before the } of an inline table")
		}
	}
	return &Value{Kind: KindTable, Table: t, Line: line, Col: col}, nil
}

// insideInlineTable refuses what ends an inline table too early.
func (p *parser) insideInlineTable() *Error {
	switch {
	case p.eof():
		return p.errHere("an inline table is not closed")
	case p.atNewline():
		return p.errHere("an inline table must be written on one line")
	case p.peek() == '#':
		return p.errHere("a comment is not allowed inside an inline table")
	}
	return nil
}

// Parse reads a whole document. A leading UTF-8 byte order mark is skipped
// and not counted in columns. Every error it returns is an *Error.
func Parse(data []byte) (*Table, error) {
	t, err := parse(data)
	if err != nil {
		return nil, err
	}
	return t, nil
}
