// Package tomlx parses the subset of TOML 1.0 that rypsok's configuration
// needs, keeping the line and column of every value so that a message can
// name the place.
//
// It must never panic, never loop, and never accept a document it would
// misread: what it does not support it refuses with a message.
package tomlx

// STUB FILE: the signatures below are the package's contract with config.go.
// The implementation replaces the bodies.

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
// characters) where it starts.
type Value struct {
	Kind  Kind
	Str   string
	Int   int64
	Bool  bool
	Array []*Value // KindArray; for an array of tables, each element has KindTable
	Table *Table   // KindTable
	Line  int
	Col   int
}

// Table is a table: its keys in the order they were defined.
type Table struct {
	Keys   []string
	Values map[string]*Value
	// KeyLine and KeyCol give the place of each key as written.
	KeyLine map[string]int
	KeyCol  map[string]int
}

// Error is a parse error with its place. When Key is set the error is about
// that key (a redefinition) and reads "<key>: <msg> (line L, column C)";
// otherwise it reads "TOML syntax error: <msg> (line L, column C)".
type Error struct {
	Key  string
	Msg  string
	Line int
	Col  int
}

func (e *Error) Error() string { panic("stub") }

// Parse reads a whole document.
func Parse(data []byte) (*Table, error) { panic("stub") }
