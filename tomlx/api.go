package tomlx

import "fmt"

// Kind is the type of a value.
type Kind int

// The kinds of values. Float and Datetime are recognised so that a message
// can say what was found; no key of the configuration takes them.
const (
	KindString Kind = iota
	KindInteger
	KindFloat
	KindBool
	KindDatetime
	KindArray
	KindTable
)

// Value is one value with the place (1-based line and column, counted in
// characters) where it starts. A table defined by a header starts at the
// last part of its header's key; a table created by a dotted key, at that
// key part. Values of KindFloat and KindDatetime carry no value.
type Value struct {
	Kind  Kind
	Str   string
	Int   int64
	Bool  bool
	Array []*Value // KindArray, elements of any kinds; for an array of tables, each has KindTable
	Table *Table   // KindTable
	Line  int
	Col   int
}

// Table is a table: its keys in the order they were defined. In a parsed
// document the maps are never nil.
type Table struct {
	Keys   []string
	Values map[string]*Value
	// KeyLine and KeyCol give the place of each key as written: for a
	// table header [a.b] the place of its last part b, for a dotted key
	// a.b = 1 the place of b in this table and of a in its parent. A table
	// first created as the parent in a header and defined later by its own
	// header takes the place of that header.
	KeyLine map[string]int
	KeyCol  map[string]int
}

// Error is a parse error with its place. When Key is set the error is about
// that key (a redefinition, at the place of the second definition) and
// reads "<key>: <msg> (line L, column C)"; Key is the full dotted path, a
// part that is not a bare key quoted as TOML writes it, characters that do
// not print escaped. Otherwise it reads
// "TOML syntax error: <msg> (line L, column C)". Msg never repeats text of
// the document.
type Error struct {
	Key  string
	Msg  string
	Line int
	Col  int
}

// Error renders the error with its place.
func (e *Error) Error() string {
	if e.Key != "" {
		return fmt.Sprintf("%s: %s (line %d, column %d)", e.Key, e.Msg, e.Line, e.Col)
	}
	return fmt.Sprintf("TOML syntax error: %s (line %d, column %d)", e.Msg, e.Line, e.Col)
}
