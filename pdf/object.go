package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// The object model: a PDF object is one of nil, bool, int64, float64, name,
// pstring, array, dict, ref or *stream.
type (
	object  = any
	name    string
	pstring string
	array   []object
	dict    map[name]object
	ref     struct{ num, gen int }
)

// stream is a stream object: its dictionary and where its raw bytes are in
// the file (or, for a stream made in memory, the bytes themselves).
type stream struct {
	hdr      dict
	from, to int // raw bytes: file[from:to]
	raw      []byte
	own      ref // the object that holds it, for decryption
}

// ErrMalformed is wrapped by every error about bytes that are not a PDF the
// reader can follow.
var ErrMalformed = errors.New("pdf: malformed file")

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrMalformed}, args...)...)
}

// Errors a caller can tell apart with errors.Is.
var (
	// ErrNeedsPassword: the document is encrypted with a user password.
	ErrNeedsPassword = errors.New("pdf: the document is encrypted and needs a password to be opened")
	// ErrUnsupportedEncryption: an encryption handler this reader does not know.
	ErrUnsupportedEncryption = errors.New("pdf: the document uses an encryption this reader does not support")
	// ErrLimit: a bound of Limits was reached.
	ErrLimit = errors.New("pdf: a reading limit was reached")
)

func limitErr(what string) error { return fmt.Errorf("%w: %s", ErrLimit, what) }

// lexer reads tokens from a byte slice. It never allocates more than the
// input it is given and never recurses beyond maxDepth.
type lexer struct {
	b        []byte
	pos      int
	maxDepth int
}

func isWhite(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func isRegular(c byte) bool { return !isWhite(c) && !isDelim(c) }

// skipSpace skips white space and comments.
func (l *lexer) skipSpace() {
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		if isWhite(c) {
			l.pos++
			continue
		}
		if c == '%' {
			for l.pos < len(l.b) && l.b[l.pos] != '\n' && l.b[l.pos] != '\r' {
				l.pos++
			}
			continue
		}
		return
	}
}

// token kinds returned by next.
type tokKind uint8

const (
	tokEOF tokKind = iota
	tokNum
	tokName
	tokString
	tokArrOpen
	tokArrClose
	tokDictOpen
	tokDictClose
	tokKeyword
)

type token struct {
	kind tokKind
	num  object // int64 or float64
	s    []byte // name, string or keyword bytes
}

func (l *lexer) next() token {
	l.skipSpace()
	// A lone '>' means nothing; it is skipped.
	for l.pos < len(l.b) && l.b[l.pos] == '>' && (l.pos+1 >= len(l.b) || l.b[l.pos+1] != '>') {
		l.pos++
		l.skipSpace()
	}
	if l.pos >= len(l.b) {
		return token{kind: tokEOF}
	}
	c := l.b[l.pos]
	switch {
	case c == '[':
		l.pos++
		return token{kind: tokArrOpen}
	case c == ']':
		l.pos++
		return token{kind: tokArrClose}
	case c == '<':
		if l.pos+1 < len(l.b) && l.b[l.pos+1] == '<' {
			l.pos += 2
			return token{kind: tokDictOpen}
		}
		return token{kind: tokString, s: l.hexString()}
	case c == '>':
		if l.pos+1 < len(l.b) && l.b[l.pos+1] == '>' {
			l.pos += 2
			return token{kind: tokDictClose}
		}
		l.pos++
		return token{kind: tokKeyword, s: []byte{'>'}}
	case c == '(':
		return token{kind: tokString, s: l.litString()}
	case c == '/':
		return token{kind: tokName, s: l.name()}
	case c == '{' || c == '}' || c == ')':
		l.pos++
		return token{kind: tokKeyword, s: []byte{c}}
	case c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9'):
		if n, ok := l.number(); ok {
			return token{kind: tokNum, num: n}
		}
	}
	start := l.pos
	for l.pos < len(l.b) && isRegular(l.b[l.pos]) {
		l.pos++
	}
	return token{kind: tokKeyword, s: l.b[start:l.pos]}
}

// number reads an integer or a real; malformed signs such as "--5" read as
// their digits, as readers do.
func (l *lexer) number() (object, bool) {
	start := l.pos
	neg := false
	for l.pos < len(l.b) && (l.b[l.pos] == '+' || l.b[l.pos] == '-') {
		neg = l.b[l.pos] == '-'
		l.pos++
	}
	var n int64
	digits, dot := 0, false
	var frac float64
	scale := 1.0
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		if c >= '0' && c <= '9' {
			digits++
			if dot {
				scale /= 10
				frac += float64(c-'0') * scale
			} else if n < 1<<53 {
				n = n*10 + int64(c-'0')
			}
		} else if c == '.' && !dot {
			dot = true
		} else {
			break
		}
		l.pos++
	}
	if digits == 0 {
		l.pos = start
		return nil, false
	}
	if dot {
		f := float64(n) + frac
		if neg {
			f = -f
		}
		return f, true
	}
	if neg {
		n = -n
	}
	return n, true
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func (l *lexer) name() []byte {
	l.pos++ // '/'
	start := l.pos
	esc := false
	for l.pos < len(l.b) && isRegular(l.b[l.pos]) {
		if l.b[l.pos] == '#' {
			esc = true
		}
		l.pos++
	}
	raw := l.b[start:l.pos]
	if !esc {
		return raw
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		if raw[i] == '#' && i+2 < len(raw) && unhex(raw[i+1]) >= 0 && unhex(raw[i+2]) >= 0 {
			out = append(out, byte(unhex(raw[i+1])<<4|unhex(raw[i+2])))
			i += 2
			continue
		}
		out = append(out, raw[i])
	}
	return out
}

func (l *lexer) hexString() []byte {
	l.pos++ // '<'
	var out []byte
	hi := -1
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		l.pos++
		if c == '>' {
			break
		}
		v := unhex(c)
		if v < 0 {
			continue
		}
		if hi < 0 {
			hi = v
		} else {
			out = append(out, byte(hi<<4|v))
			hi = -1
		}
	}
	if hi >= 0 {
		out = append(out, byte(hi<<4))
	}
	return out
}

func (l *lexer) litString() []byte {
	l.pos++ // '('
	depth := 1
	var out []byte
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		l.pos++
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return out
			}
		case '\r':
			if l.pos < len(l.b) && l.b[l.pos] == '\n' {
				l.pos++
			}
			c = '\n'
		case '\\':
			if l.pos >= len(l.b) {
				return out
			}
			e := l.b[l.pos]
			l.pos++
			switch e {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if l.pos < len(l.b) && l.b[l.pos] == '\n' {
					l.pos++
				}
				continue
			case '\n':
				continue
			default:
				if e >= '0' && e <= '7' {
					v := int(e - '0')
					for k := 0; k < 2 && l.pos < len(l.b) && l.b[l.pos] >= '0' && l.b[l.pos] <= '7'; k++ {
						v = v*8 + int(l.b[l.pos]-'0')
						l.pos++
					}
					c = byte(v)
				} else {
					c = e
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// errDepth is returned for objects nested deeper than the bound.
var errDepth = malformed("objects nested too deeply")

// object reads one object. References "n g R" are recognised when the two
// integers are followed by R.
func (l *lexer) object(depth int) (object, error) {
	if depth > l.maxDepth {
		return nil, errDepth
	}
	t := l.next()
	return l.objectFrom(t, depth)
}

func (l *lexer) objectFrom(t token, depth int) (object, error) {
	switch t.kind {
	case tokEOF:
		return nil, malformed("unexpected end of data")
	case tokNum:
		if n, ok := t.num.(int64); ok && n >= 0 {
			save := l.pos
			t2 := l.next()
			if g, ok := t2.num.(int64); t2.kind == tokNum && ok && g >= 0 {
				t3 := l.next()
				if t3.kind == tokKeyword && len(t3.s) == 1 && t3.s[0] == 'R' {
					return ref{int(min(n, 1<<31)), int(min(g, 1<<31))}, nil
				}
			}
			l.pos = save
		}
		return t.num, nil
	case tokName:
		return name(t.s), nil
	case tokString:
		return pstring(t.s), nil
	case tokArrOpen:
		var a array
		for {
			t := l.next()
			if t.kind == tokArrClose {
				return a, nil
			}
			if t.kind == tokEOF {
				return a, malformed("array not closed")
			}
			if depth+1 > l.maxDepth {
				return nil, errDepth
			}
			o, err := l.objectFrom(t, depth+1)
			if err != nil {
				return nil, err
			}
			a = append(a, o)
		}
	case tokDictOpen:
		d := dict{}
		for {
			t := l.next()
			if t.kind == tokDictClose {
				return d, nil
			}
			if t.kind == tokEOF {
				return d, malformed("dictionary not closed")
			}
			if t.kind != tokName {
				if t.kind == tokKeyword && (bytes.Equal(t.s, []byte("endobj")) || bytes.Equal(t.s, []byte("stream"))) {
					return d, malformed("dictionary not closed")
				}
				continue // stray token: skip, as readers do
			}
			if depth+1 > l.maxDepth {
				return nil, errDepth
			}
			vt := l.next()
			if vt.kind == tokDictClose {
				d[name(t.s)] = nil
				return d, nil
			}
			v, err := l.objectFrom(vt, depth+1)
			if err != nil {
				return nil, err
			}
			if v != nil {
				d[name(t.s)] = v
			}
		}
	case tokKeyword:
		switch string(t.s) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		case "null":
			return nil, nil
		}
		return keyword(t.s), nil
	}
	return nil, malformed("unexpected token")
}

// keyword is a bare word met where an object was expected (an operator in a
// content stream, or a structural word in a file).
type keyword string

// Helpers to read typed values out of objects.

func asInt(o object) (int, bool) {
	switch v := o.(type) {
	case int64:
		if v > 1<<40 || v < -(1<<40) {
			return 0, false
		}
		return int(v), true
	case float64:
		if v > 1<<40 || v < -(1<<40) || v != v {
			return 0, false
		}
		return int(v), true
	}
	return 0, false
}

func asFloat(o object) (float64, bool) {
	switch v := o.(type) {
	case int64:
		return float64(v), true
	case float64:
		if v != v {
			return 0, false
		}
		return v, true
	}
	return 0, false
}

func (d dict) name(k name) name {
	n, _ := d[k].(name)
	return n
}

func itoa(n int) string { return strconv.Itoa(n) }
