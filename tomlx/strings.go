package tomlx

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The four string forms. checkBytes has already refused control characters
// and lone carriage returns, so the loops look only for delimiters,
// escapes and line ends.

func (p *parser) basicString() (string, *Error) {
	p.pos++
	var buf []byte
	start := p.pos
	for {
		if p.eof() {
			return "", p.errHere("a string is not closed")
		}
		switch p.src[p.pos] {
		case '"':
			s := p.src[start:p.pos]
			p.pos++
			if buf == nil {
				return string(s), nil
			}
			return string(append(buf, s...)), nil
		case '\\':
			buf = append(buf, p.src[start:p.pos]...)
			var err *Error
			if buf, err = p.escape(buf); err != nil {
				return "", err
			}
			start = p.pos
		case '\n', '\r':
			return "", p.errHere("a string must be closed on the line where it starts")
		default:
			p.pos++
		}
	}
}

func (p *parser) literalString() (string, *Error) {
	p.pos++
	start := p.pos
	for {
		if p.eof() {
			return "", p.errHere("a string is not closed")
		}
		switch p.src[p.pos] {
		case '\'':
			p.pos++
			return string(p.src[start : p.pos-1]), nil
		case '\n', '\r':
			return "", p.errHere("a string must be closed on the line where it starts")
		default:
			p.pos++
		}
	}
}

// closeQuotes handles a run of quote characters inside a multi-line
// string: up to two are content, three to five close the string with the
// extra ones as content, more are an error.
func (p *parser) closeQuotes(buf []byte, quote byte) (out []byte, closed bool, err *Error) {
	n := 0
	for p.pos+n < len(p.src) && p.src[p.pos+n] == quote {
		n++
	}
	switch {
	case n < 3:
		buf = append(buf, p.src[p.pos:p.pos+n]...)
		p.pos += n
		return buf, false, nil
	case n > 5:
		p.pos += 5
		return nil, false, p.errHere("too many quotation marks at the end of a multi-line string")
	}
	buf = append(buf, p.src[p.pos:p.pos+n-3]...)
	p.pos += n
	return buf, true, nil
}

// multiLineString reads a multi-line string whose delimiter is three of
// quote: a basic one (") with escapes and line-ending backslashes, or a
// literal one (') without.
func (p *parser) multiLineString(quote byte) (string, *Error) {
	basic := quote == '"'
	p.pos += 3
	if p.atNewline() {
		p.newline()
	}
	buf := []byte{}
	for {
		if p.eof() {
			return "", p.errHere("a multi-line string is not closed")
		}
		switch c := p.src[p.pos]; {
		case c == quote:
			var closed bool
			var err *Error
			if buf, closed, err = p.closeQuotes(buf, quote); err != nil {
				return "", err
			}
			if closed {
				return string(buf), nil
			}
		case c == '\\' && basic:
			if p.lineEndingBackslash() {
				continue
			}
			var err *Error
			if buf, err = p.escape(buf); err != nil {
				return "", err
			}
		case c == '\n' || c == '\r':
			buf = append(buf, '\n')
			p.newline()
		default:
			start := p.pos
			for p.pos < len(p.src) {
				c := p.src[p.pos]
				if c == quote || c == '\n' || c == '\r' || basic && c == '\\' {
					break
				}
				p.pos++
			}
			buf = append(buf, p.src[start:p.pos]...)
		}
	}
}

// lineEndingBackslash skips a backslash that ends its line (white space
// may follow it) and all white space and line ends after it, and reports
// whether there was one.
func (p *parser) lineEndingBackslash() bool {
	j := p.pos + 1
	for j < len(p.src) && (p.src[j] == ' ' || p.src[j] == '\t') {
		j++
	}
	if j >= len(p.src) || p.src[j] != '\n' && p.src[j] != '\r' {
		return false
	}
	p.pos = j
	for {
		p.skipWS()
		if !p.atNewline() {
			return true
		}
		p.newline()
	}
}

// escape reads the escape sequence at the backslash under p.pos and
// appends the character it stands for.
func (p *parser) escape(buf []byte) ([]byte, *Error) {
	line, col := p.place()
	p.pos++
	if p.eof() {
		return nil, &Error{Msg: "a string is not closed", Line: line, Col: col}
	}
	c := p.src[p.pos]
	p.pos++
	// the escapes of one letter, and the character each stands for
	const letters, chars = `btnfr"\`, "\b\t\n\f\r\"\\"
	if k := strings.IndexByte(letters, c); k >= 0 {
		return append(buf, chars[k]), nil
	}
	switch c {
	case 'u', 'U':
		digits := 4
		msg := `a \u escape needs exactly 4 hexadecimal digits`
		if c == 'U' {
			digits = 8
			msg = `a \U escape needs exactly 8 hexadecimal digits`
		}
		if p.pos+digits > len(p.src) {
			return nil, &Error{Msg: msg, Line: line, Col: col}
		}
		// base 16 given: no sign, no prefix, no underscore is read
		r, err := strconv.ParseUint(string(p.src[p.pos:p.pos+digits]), 16, 32)
		if err != nil {
			return nil, &Error{Msg: msg, Line: line, Col: col}
		}
		p.pos += digits
		if r > utf8.MaxRune || r >= 0xD800 && r <= 0xDFFF {
			return nil, &Error{Msg: "an escape names a code point that is not a Unicode character (a surrogate or above U+10FFFF)", Line: line, Col: col}
		}
		return utf8.AppendRune(buf, rune(r)), nil
	}
	return nil, &Error{Msg: `an escape sequence is not valid; TOML 1.0 has \b \t \n \f \r \" \\ \uXXXX and \UXXXXXXXX`, Line: line, Col: col}
}
