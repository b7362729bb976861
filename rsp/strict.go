package rsp

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds the nesting of arrays and objects in one message. A
// plugin's answer needs three levels (answer, spans, span); metadata a
// few more.
const maxDepth = 32

// maxSafeInteger is 2^53−1, the largest integer every JSON reader holds
// exactly: beyond it, readers that keep numbers as IEEE doubles disagree
// with readers that keep integers.
const maxSafeInteger = 1<<53 - 1

// JSONError is a message that is not strict JSON: what is wrong and the
// byte offset where it was found.
type JSONError struct {
	Offset int
	Why    string
}

func (e *JSONError) Error() string {
	return fmt.Sprintf("not strict JSON at byte %d: %s", e.Offset, e.Why)
}

// StrictJSON reports whether b is one message in the strict JSON both
// sides of RSP read (see strictObject); a plugin refuses any other
// request, and a host refuses any other answer. The error says what is
// wrong and where.
func StrictJSON(b []byte) error { return strictObject(b) }

// strictObject checks that b is exactly one JSON object with nothing but
// JSON whitespace (space, tab, CR, LF) around it, in the strict grammar
// both sides of RSP read, so that the same bytes mean the same message to
// every reader:
//
//   - no object repeats a key, at any depth, compared after unescaping;
//   - strings are valid UTF-8 with no lone surrogate, raw or escaped;
//   - numbers follow RFC 8259 (no leading zero, no NaN or Infinity) and
//     an integer lies within ±(2^53−1);
//   - arrays and objects nest at most maxDepth deep.
//
// It allocates only for the keys of objects. The walk is linear in len(b).
func strictObject(b []byte) error {
	w := walker{b: b}
	w.space()
	if w.i >= len(b) || b[w.i] != '{' {
		return w.fail("the message is not a JSON object")
	}
	if err := w.value(0); err != nil {
		return err
	}
	w.space()
	if w.i != len(b) {
		return w.fail("bytes after the object")
	}
	return nil
}

// walker is one pass over a message.
type walker struct {
	b []byte
	i int
}

func (w *walker) fail(why string) error { return &JSONError{Offset: w.i, Why: why} }

func (w *walker) space() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\r', '\n':
			w.i++
		default:
			return
		}
	}
}

func (w *walker) value(depth int) error {
	if w.i >= len(w.b) {
		return w.fail("the message ends early")
	}
	switch c := w.b[w.i]; {
	case c == '{':
		return w.object(depth + 1)
	case c == '[':
		return w.array(depth + 1)
	case c == '"':
		_, err := w.str(false)
		return err
	case c == '-' || c >= '0' && c <= '9':
		return w.number()
	}
	for _, lit := range []string{"true", "false", "null"} {
		if len(w.b)-w.i >= len(lit) && string(w.b[w.i:w.i+len(lit)]) == lit {
			w.i += len(lit)
			return nil
		}
	}
	return w.fail("not a JSON value (NaN, Infinity and bare words are not JSON)")
}

func (w *walker) object(depth int) error {
	if depth > maxDepth {
		return w.fail(fmt.Sprintf("nested deeper than %d levels", maxDepth))
	}
	w.i++ // {
	w.space()
	if w.i < len(w.b) && w.b[w.i] == '}' {
		w.i++
		return nil
	}
	var keys []string
	for {
		w.space()
		if w.i >= len(w.b) || w.b[w.i] != '"' {
			return w.fail("an object key must be a string")
		}
		at := w.i
		k, err := w.str(true)
		if err != nil {
			return err
		}
		for _, seen := range keys {
			if seen == k {
				w.i = at
				return w.fail("a key is repeated in one object") // the offset shows which; a plugin's bytes are not echoed
			}
		}
		keys = append(keys, k)
		w.space()
		if w.i >= len(w.b) || w.b[w.i] != ':' {
			return w.fail("a key must be followed by ':'")
		}
		w.i++
		w.space()
		if err := w.value(depth); err != nil {
			return err
		}
		w.space()
		if w.i >= len(w.b) {
			return w.fail("the message ends inside an object")
		}
		switch w.b[w.i] {
		case ',':
			w.i++
		case '}':
			w.i++
			return nil
		default:
			return w.fail("expected ',' or '}' in an object")
		}
	}
}

func (w *walker) array(depth int) error {
	if depth > maxDepth {
		return w.fail(fmt.Sprintf("nested deeper than %d levels", maxDepth))
	}
	w.i++ // [
	w.space()
	if w.i < len(w.b) && w.b[w.i] == ']' {
		w.i++
		return nil
	}
	for {
		w.space()
		if err := w.value(depth); err != nil {
			return err
		}
		w.space()
		if w.i >= len(w.b) {
			return w.fail("the message ends inside an array")
		}
		switch w.b[w.i] {
		case ',':
			w.i++
		case ']':
			w.i++
			return nil
		default:
			return w.fail("expected ',' or ']' in an array")
		}
	}
}

// str checks the string at w.i and moves past it. With keep it returns
// the unescaped string (for keys); otherwise it returns "" and allocates
// nothing.
func (w *walker) str(keep bool) (string, error) {
	w.i++ // "
	start := w.i
	var out []byte
	plain := true // no escape so far: the key is b[start:w.i]
	for w.i < len(w.b) {
		c := w.b[w.i]
		switch {
		case c == '"':
			s := ""
			if keep {
				if plain {
					s = string(w.b[start:w.i])
				} else {
					s = string(out)
				}
			}
			w.i++
			return s, nil
		case c < 0x20:
			return "", w.fail("a control character must be escaped inside a string")
		case c == '\\':
			if keep && plain {
				out = append(out, w.b[start:w.i]...)
				plain = false
			}
			r, err := w.escape()
			if err != nil {
				return "", err
			}
			if keep {
				out = utf8.AppendRune(out, r)
			}
		case c < utf8.RuneSelf:
			if keep && !plain {
				out = append(out, c)
			}
			w.i++
		default:
			r, n := utf8.DecodeRune(w.b[w.i:])
			if r == utf8.RuneError && n <= 1 {
				return "", w.fail("a string is not valid UTF-8 (or holds a raw surrogate)")
			}
			if keep && !plain {
				out = append(out, w.b[w.i:w.i+n]...)
			}
			w.i += n
		}
	}
	return "", w.fail("the message ends inside a string")
}

// escape reads the escape at w.i (a backslash) and returns what it
// stands for; a \u escape of a surrogate must be a high surrogate
// followed at once by an escaped low one.
func (w *walker) escape() (rune, error) {
	if w.i+1 >= len(w.b) {
		return 0, w.fail("the message ends inside an escape")
	}
	c := w.b[w.i+1]
	w.i += 2
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
	default:
		w.i -= 2
		return 0, w.fail("an unknown escape in a string")
	}
	r, ok := w.hex4()
	if !ok {
		return 0, w.fail("\\u must be followed by four hexadecimal digits")
	}
	switch {
	case r >= 0xDC00 && r <= 0xDFFF:
		return 0, w.fail("a lone low surrogate escape")
	case r >= 0xD800 && r <= 0xDBFF:
		if w.i+1 >= len(w.b) || w.b[w.i] != '\\' || w.b[w.i+1] != 'u' {
			return 0, w.fail("a high surrogate escape without its low surrogate")
		}
		w.i += 2
		lo, ok := w.hex4()
		if !ok || lo < 0xDC00 || lo > 0xDFFF {
			return 0, w.fail("a high surrogate escape without its low surrogate")
		}
		return utf16.DecodeRune(r, lo), nil
	}
	return r, nil
}

func (w *walker) hex4() (rune, bool) {
	if len(w.b)-w.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range w.b[w.i : w.i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	w.i += 4
	return r, true
}

// number checks an RFC 8259 number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
// An integer (no fraction, no exponent) must lie within ±(2^53−1).
func (w *walker) number() error {
	start := w.i
	if w.b[w.i] == '-' {
		w.i++
	}
	digits := w.i
	switch {
	case w.i < len(w.b) && w.b[w.i] == '0':
		w.i++
		if w.i < len(w.b) && w.b[w.i] >= '0' && w.b[w.i] <= '9' {
			return w.fail("a number with a leading zero")
		}
	case w.i < len(w.b) && w.b[w.i] >= '1' && w.b[w.i] <= '9':
		w.skipDigits()
	default:
		return w.fail("a '-' without digits")
	}
	integer := true
	if w.i < len(w.b) && w.b[w.i] == '.' {
		w.i++
		if w.skipDigits() == 0 {
			return w.fail("a '.' without digits after it")
		}
		integer = false
	}
	if w.i < len(w.b) && (w.b[w.i] == 'e' || w.b[w.i] == 'E') {
		w.i++
		if w.i < len(w.b) && (w.b[w.i] == '+' || w.b[w.i] == '-') {
			w.i++
		}
		if w.skipDigits() == 0 {
			return w.fail("an exponent without digits")
		}
		integer = false
	}
	if integer {
		n := w.b[digits:w.i]
		if len(n) > 16 {
			w.i = start
			return w.fail("an integer beyond ±(2^53−1)")
		}
		var v uint64
		for _, c := range n {
			v = v*10 + uint64(c-'0')
		}
		if v > maxSafeInteger {
			w.i = start
			return w.fail("an integer beyond ±(2^53−1)")
		}
	}
	return nil
}

func (w *walker) skipDigits() int {
	n := 0
	for w.i < len(w.b) && w.b[w.i] >= '0' && w.b[w.i] <= '9' {
		w.i++
		n++
	}
	return n
}
