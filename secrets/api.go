// Package secrets holds the two jobs that concern credentials: the Secret
// type, which carries a key or token read by reference and never prints it,
// and the secret check, which finds credential shapes in a query or URL
// before anything leaves the host (REQ-PRIV-002).
//
// It must never print, log or return a credential's value.
package secrets

// STUB FILE: the signatures below are the package's contract with config.go,
// search and fetch. The implementation replaces the bodies.

import "errors"

// Secret holds a credential. Its String, GoString, Format, MarshalJSON,
// MarshalText and LogValue never show the value.
type Secret struct{ v string }

// New wraps v.
func New(v string) Secret { return Secret{v: v} }

// Reveal returns the value, for the one place that sends it.
func (s Secret) Reveal() string { return s.v }

// IsZero reports whether no value is held.
func (s Secret) IsZero() bool { return s.v == "" }

// ErrUnset: the environment variable is unset or empty.
var ErrUnset = errors.New("unset or empty")

// IsEnvName reports whether s looks like an environment variable name:
// upper-case letters, digits and underscores, not starting with a digit.
func IsEnvName(s string) bool { panic("stub") }

// FromEnv reads the variable name through lookup (os.LookupEnv in
// production). An unset or empty variable is ErrUnset.
func FromEnv(name string, lookup func(string) (string, bool)) (Secret, error) { panic("stub") }

// FileInfo says what was learnt about a secret file while reading it.
type FileInfo struct {
	WorldReadable bool // anyone on the host may read the file
}

// FromFile reads a secret file and trims surrounding white space.
func FromFile(path string) (Secret, FileInfo, error) { panic("stub") }

// Mode is what happens when the check finds a credential (LIM-P1).
type Mode int

// The four modes; Refuse is the default.
const (
	Refuse Mode = iota
	Mask
	Warn
	Off
)

// ParseMode reads "refuse", "mask", "warn" or "off".
func ParseMode(s string) (Mode, bool) { panic("stub") }

// String returns the configuration word of m.
func (m Mode) String() string { panic("stub") }

// Finding is one credential found in a text: its kind (a word of a fixed
// vocabulary, such as "github_token") and where it is, in Unicode scalar
// values from the start of the text (Start inclusive, End exclusive).
type Finding struct {
	Kind  string
	Start int
	End   int
}

// Scan returns the credentials found in text, ordered by Start.
func Scan(text string) []Finding { panic("stub") }

// MaskText replaces each finding of Scan(text) by a fixed mask and returns
// the result and the number of findings masked.
func MaskText(text string) (string, int) { panic("stub") }
