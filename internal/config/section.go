package config

// section.go holds the reading primitives config.go and the section files
// build on: the loader with its messages in file order, the word checks,
// and a section's typed reads, each with its range.

import (
	"fmt"
	"strings"
	"time"

	"rypsok/tomlx"
)

type configErr struct {
	order int // line*10000+column; positionless messages sort last
	msg   string
}

type loader struct {
	env  Env
	opts Options
	errs []configErr
	warn []Warning
	// pendingHTTP is [service.http], kept open until fetch.deadline_ms,
	// on which request_timeout_s depends, is known.
	pendingHTTP *section
}

func place(v *tomlx.Value) string {
	return fmt.Sprintf(" (line %d, column %d)", v.Line, v.Col)
}

func (l *loader) errAt(v *tomlx.Value, key, msg string) {
	o := 1 << 40
	s := key + ": " + msg
	if v != nil {
		o = v.Line*10000 + v.Col
		s += place(v)
	}
	l.errs = append(l.errs, configErr{order: o, msg: s})
}

func (l *loader) errKey(t *tomlx.Table, name, key, msg string) {
	o := 1 << 40
	s := key + ": " + msg
	if t != nil {
		if line, ok := t.KeyLine[name]; ok {
			o = line*10000 + t.KeyCol[name]
			s += fmt.Sprintf(" (line %d, column %d)", line, t.KeyCol[name])
		}
	}
	l.errs = append(l.errs, configErr{order: o, msg: s})
}

// found names the kind of a value without repeating it.
func found(v *tomlx.Value) string {
	switch v.Kind {
	case tomlx.KindString:
		return "found text"
	case tomlx.KindInteger:
		return "found an integer"
	case tomlx.KindFloat:
		return "found a decimal number; this configuration has no key that takes a float"
	case tomlx.KindBool:
		return "found a boolean"
	case tomlx.KindDatetime:
		return "found a date or time; this configuration has no key that takes a date"
	case tomlx.KindArray:
		return "found an array"
	default:
		return "found a table"
	}
}

// The forms below are checked by hand rather than with package-level
// regular expressions, which would be compiled at every start.

// isPlainKey: 1 to 64 of [A-Za-z0-9_-].
func isPlainKey(k string) bool {
	if len(k) < 1 || len(k) > 64 {
		return false
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; !(isLower(c) || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isLanguageTag: 2 or 3 lower-case letters, then subtags of 1 to 8 letters
// or digits after hyphens ("en", "pt-BR", "zh-Hant").
func isLanguageTag(w string) bool {
	parts := strings.Split(w, "-")
	if len(parts[0]) < 2 || len(parts[0]) > 3 {
		return false
	}
	for i := 0; i < len(parts[0]); i++ {
		if !isLower(parts[0][i]) {
			return false
		}
	}
	for _, p := range parts[1:] {
		if len(p) < 1 || len(p) > 8 {
			return false
		}
		for i := 0; i < len(p); i++ {
			if c := p[i]; !(isLower(c) || c >= 'A' && c <= 'Z' || isDigit(c)) {
				return false
			}
		}
	}
	return true
}

// isRegionCode: two upper-case letters.
func isRegionCode(w string) bool {
	return len(w) == 2 && w[0] >= 'A' && w[0] <= 'Z' && w[1] >= 'A' && w[1] <= 'Z'
}

// isIdentifier: a lower-case letter, then up to 63 of [a-z0-9_].
func isIdentifier(w string) bool {
	if len(w) < 1 || len(w) > 64 || !isLower(w[0]) {
		return false
	}
	for i := 1; i < len(w); i++ {
		if c := w[i]; !(isLower(c) || isDigit(c) || c == '_') {
			return false
		}
	}
	return true
}

// isHostName: dot-separated labels of [a-z0-9-], 1 to 63 characters, not
// starting or ending with a hyphen.
func isHostName(h string) bool {
	if h == "" {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if len(label) < 1 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !(isLower(c) || isDigit(c) || c == '-') {
				return false
			}
		}
	}
	return true
}

// maxShownKey bounds a key a message shows.
const maxShownKey = 64

// shownKey is a key as a message shows it: a key is a name the operator
// wrote, not a value, and the message names it. A bare key is shown as
// written; another key of printable ASCII is quoted, with " and \
// escaped, as TOML writes it. A key longer than maxShownKey, or with a
// character beyond printable ASCII, is not shown: the message gives its
// place only (the line and column errKey adds), and ok is false.
func shownKey(k string) (shown string, ok bool) {
	if isPlainKey(k) {
		return k, true
	}
	if k == "" || len(k) > maxShownKey {
		return "(a key not shown, longer than 64 characters)", false
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c < 0x20 || c > 0x7e {
			return "(a key not shown, of characters beyond printable ASCII)", false
		}
		if c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return b.String(), true
}

// section is one table of the schema being read: it records the keys the
// schema knows so that the rest can be refused.
type section struct {
	l    *loader
	path string
	t    *tomlx.Table // nil: the table is absent
	seen map[string]bool
}

func (l *loader) section(t *tomlx.Table, path string) *section {
	return &section{l: l, path: path, t: t, seen: map[string]bool{}}
}

// sub returns the sub-table name of s, refusing a value of another kind.
func (s *section) sub(name string) *section {
	s.seen[name] = true
	path := s.path + "." + name
	if s.path == "" {
		path = name
	}
	v := s.get(name)
	if v == nil {
		return s.l.section(nil, path)
	}
	if v.Kind != tomlx.KindTable {
		s.l.errAt(v, path, "expected a table, "+found(v))
		return s.l.section(nil, path)
	}
	return s.l.section(v.Table, path)
}

func (s *section) key(name string) string {
	if s.path == "" {
		return name
	}
	return s.path + "." + name
}

func (s *section) get(name string) *tomlx.Value {
	if s.t == nil {
		return nil
	}
	return s.t.Values[name]
}

// done refuses every key the schema did not ask for.
func (s *section) done() {
	if s.t == nil {
		return
	}
	for _, k := range s.t.Keys {
		if s.seen[k] {
			continue
		}
		what := "unknown key"
		if v := s.t.Values[k]; v != nil && v.Kind == tomlx.KindTable {
			what = "unknown table"
		}
		shown, _ := shownKey(k)
		s.l.errKey(s.t, k, s.key(shown), what+"; see the configuration reference for the keys of this table")
	}
}

// intRange reads an integer in [min, max] into dst (which holds the default).
func (s *section) intRange(name string, min, max int64, dst *int64) *tomlx.Value {
	s.seen[name] = true
	v := s.get(name)
	if v == nil {
		return nil
	}
	expect := fmt.Sprintf("expected an integer from %d to %d", min, max)
	switch {
	case v.Kind != tomlx.KindInteger:
		s.l.errAt(v, s.key(name), expect+", "+found(v))
	case v.Int < min:
		s.l.errAt(v, s.key(name), expect+", found a smaller number")
	case v.Int > max:
		s.l.errAt(v, s.key(name), expect+", found a larger number")
	default:
		*dst = v.Int
	}
	return v
}

func (s *section) int(name string, min, max int64, dst *int) *tomlx.Value {
	x := int64(*dst)
	v := s.intRange(name, min, max, &x)
	*dst = int(x)
	return v
}

func (s *section) ms(name string, min, max int64, dst *time.Duration) *tomlx.Value {
	x := dst.Milliseconds()
	v := s.intRange(name, min, max, &x)
	*dst = time.Duration(x) * time.Millisecond
	return v
}

func (s *section) seconds(name string, min, max int64, dst *time.Duration) *tomlx.Value {
	x := int64(*dst / time.Second)
	v := s.intRange(name, min, max, &x)
	*dst = time.Duration(x) * time.Second
	return v
}

// dependentRange is the range in force of an integer key whose bounds
// depend on other keys: lo to hi, given the values in force of the keys that
// why names with those values.
type dependentRange struct {
	lo, hi int64
	why    string
}

// dependentInt reads an integer key of range min to max whose range in force
// is narrowed by r, into dst (which holds the default). Every refusal gives
// the range in force, never the key's own wider range, and one message per
// key. As the book's troubleshooting table shows them, a number outside the
// key's own range reads "expected an integer from lo to hi (why), found a
// larger number", like a value of the wrong kind; one inside it but outside
// the range in force reads "must be between lo and hi (why), found ...". A
// value of another kind names the keys r depends on when they narrow the
// range; a default outside the range in force is refused too; when no value
// fits, the message says so, whatever the key holds. The key's own value is
// never repeated.
func (s *section) dependentInt(name string, min, max int64, r dependentRange, dst *int64) *tomlx.Value {
	s.seen[name] = true
	v := s.get(name)
	lo, hi := r.lo, r.hi
	if lo < min {
		lo = min
	}
	if hi > max {
		hi = max
	}
	between := fmt.Sprintf("must be between %d and %d (%s)", lo, hi, r.why)
	if v != nil && v.Kind == tomlx.KindInteger && (v.Int < min || v.Int > max) {
		between = fmt.Sprintf("expected an integer from %d to %d (%s)", lo, hi, r.why)
	}
	switch {
	case lo > hi:
		s.l.errKey(s.t, name, s.key(name), fmt.Sprintf("no value fits: its range would be %d to %d (%s); change the keys it depends on", lo, hi, r.why))
	case v == nil:
		if *dst < lo || *dst > hi {
			s.l.errKey(s.t, name, s.key(name), fmt.Sprintf("%s; the default, %d, is outside it, so set this key", between, *dst))
		}
	case v.Kind != tomlx.KindInteger:
		expect := fmt.Sprintf("expected an integer from %d to %d", lo, hi)
		if lo != min || hi != max {
			expect += " (" + r.why + ")"
		}
		s.l.errAt(v, s.key(name), expect+", "+found(v))
	case v.Int < lo:
		s.l.errAt(v, s.key(name), between+", found a smaller number")
	case v.Int > hi:
		s.l.errAt(v, s.key(name), between+", found a larger number")
	default:
		*dst = v.Int
	}
	return v
}

func (s *section) bool(name string, dst *bool) {
	s.seen[name] = true
	v := s.get(name)
	if v == nil {
		return
	}
	if v.Kind != tomlx.KindBool {
		s.l.errAt(v, s.key(name), "expected true or false (without quotes), "+found(v))
		return
	}
	*dst = v.Bool
}

// str reads a string; ok is false when absent or refused.
func (s *section) str(name, expect string) (string, *tomlx.Value, bool) {
	s.seen[name] = true
	v := s.get(name)
	if v == nil {
		return "", nil, false
	}
	if v.Kind != tomlx.KindString {
		s.l.errAt(v, s.key(name), expect+", "+found(v))
		return "", v, false
	}
	return v.Str, v, true
}

func (s *section) enum(name string, words []string, dst *string) {
	expect := "expected one of " + strings.Join(words, ", ")
	w, v, ok := s.str(name, expect)
	if !ok {
		return
	}
	for _, x := range words {
		if w == x {
			*dst = w
			return
		}
	}
	s.l.errAt(v, s.key(name), expect+", found an unknown word")
}

// strings reads an array of strings, each checked by valid (which returns
// the error sentence or ""). The array's elements are named key[N].
func (s *section) strings(name, expect string, allowEmpty bool, valid func(string) string) ([]string, *tomlx.Value, bool) {
	s.seen[name] = true
	v := s.get(name)
	if v == nil {
		return nil, nil, false
	}
	if v.Kind != tomlx.KindArray {
		s.l.errAt(v, s.key(name), "expected an array of "+expect+", "+found(v))
		return nil, v, false
	}
	if len(v.Array) == 0 && !allowEmpty {
		s.l.errAt(v, s.key(name), "expected at least one of "+expect+", found an empty array")
		return nil, v, false
	}
	out := make([]string, 0, len(v.Array))
	ok := true
	seen := map[string]bool{}
	for i, e := range v.Array {
		k := fmt.Sprintf("%s[%d]", s.key(name), i)
		if e.Kind != tomlx.KindString {
			s.l.errAt(e, k, "expected text: "+expect+", "+found(e))
			ok = false
			continue
		}
		if msg := valid(e.Str); msg != "" {
			s.l.errAt(e, k, msg)
			ok = false
			continue
		}
		if seen[e.Str] {
			s.l.errAt(e, k, "listed more than once")
			ok = false
			continue
		}
		seen[e.Str] = true
		out = append(out, e.Str)
	}
	return out, v, ok
}
