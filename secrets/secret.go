package secrets

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
)

// redacted is what every printing path shows in place of a value.
const redacted = "[redacted]"

// Secret holds a credential. Its String, GoString, Format, MarshalJSON,
// MarshalText and LogValue never show the value.
//
// The value sits behind a pointer to a string, so that even
// reflection-based printing of a struct holding a Secret in an unexported
// field (where fmt cannot call Format, and a bad verb makes it print the
// field's insides) shows an address, never the text. Two Secrets made by
// separate calls to New are therefore not == even when their values are
// equal; compare Reveal() where equality matters.
type Secret struct{ p *string }

// New wraps v. An empty v gives the zero Secret.
func New(v string) Secret {
	if v == "" {
		return Secret{}
	}
	return Secret{p: &v}
}

// Reveal returns the value, for the one place that sends it.
func (s Secret) Reveal() string {
	if s.p == nil {
		return ""
	}
	return *s.p
}

// IsZero reports whether no value is held.
func (s Secret) IsZero() bool { return s.Reveal() == "" }

// String returns a fixed mask.
func (s Secret) String() string { return redacted }

// GoString returns a fixed mask, for %#v.
func (s Secret) GoString() string { return redacted }

// Format writes a fixed mask for every verb and flag, so that %v, %+v, %#v,
// %s, %q, %x and any other verb show no part of the value.
func (s Secret) Format(f fmt.State, verb rune) { io.WriteString(f, redacted) }

// MarshalJSON encodes a Secret as the JSON string "[redacted]".
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// MarshalText encodes a Secret as the text [redacted].
func (s Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// LogValue makes slog print a fixed mask.
func (s Secret) LogValue() slog.Value { return slog.StringValue(redacted) }

// ErrUnset: the environment variable is unset or empty.
var ErrUnset = errors.New("unset or empty")

// ErrNotEnvName: FromEnv was given something that is not the name of an
// environment variable (see IsEnvName). The name is not repeated, since a
// secret pasted in the wrong place is the usual cause.
var ErrNotEnvName = errors.New("not the name of an environment variable")

// maxEnvNameBytes bounds IsEnvName.
const maxEnvNameBytes = 256

// IsEnvName reports whether s looks like an environment variable name:
// upper-case letters, digits and underscores, not starting with a digit,
// at most 256 characters.
func IsEnvName(s string) bool {
	if s == "" || len(s) > maxEnvNameBytes {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z', c == '_':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// FromEnv reads the variable name through lookup (os.LookupEnv in
// production; nil means os.LookupEnv). Surrounding white space is trimmed.
// An unset or empty variable is ErrUnset; a name that IsEnvName refuses is
// ErrNotEnvName and is not looked up.
func FromEnv(name string, lookup func(string) (string, bool)) (Secret, error) {
	if !IsEnvName(name) {
		return Secret{}, ErrNotEnvName
	}
	if lookup == nil {
		lookup = os.LookupEnv
	}
	v, ok := lookup(name)
	v = strings.TrimSpace(v)
	if !ok || v == "" {
		return Secret{}, ErrUnset
	}
	return New(v), nil
}

// FileInfo says what was learnt about a secret file while reading it.
type FileInfo struct {
	WorldReadable bool // anyone on the host may read the file

	// Perm is the file's permission bits, and Owner the user id that owns
	// it: -1 where the platform has no such owner (Windows), and then Perm
	// says nothing about who may read the file either.
	Perm  fs.FileMode
	Owner int
}

// maxFileBytes is the largest secret file FromFile reads.
const maxFileBytes = 64 << 10

// fileError is an error of FromFile: a fixed message naming the failure
// class, wrapping the cause (for errors.Is with fs.ErrNotExist and
// fs.ErrPermission) without showing it, so that neither the path nor any
// byte of the file appears in the message.
type fileError struct {
	msg string
	err error
}

func (e *fileError) Error() string { return e.msg }
func (e *fileError) Unwrap() error { return e.err }

// FromFile reads a secret file and trims surrounding white space. The file
// must be a regular file of at most 64 KiB. Errors say which class of
// failure occurred ("cannot be read", "is not a regular file", "is larger
// than 64 KiB", "is empty") and never contain the path or the content.
func FromFile(path string) (Secret, FileInfo, error) {
	// Stat before opening, so that a FIFO or a device is refused without
	// blocking in open.
	st, err := os.Stat(path)
	if err != nil {
		return Secret{}, FileInfo{}, &fileError{"the file cannot be read", err}
	}
	if !st.Mode().IsRegular() {
		return Secret{}, FileInfo{}, &fileError{"the file is not a regular file", nil}
	}
	f, err := os.Open(path)
	if err != nil {
		return Secret{}, FileInfo{}, &fileError{"the file cannot be read", err}
	}
	defer f.Close()
	st, err = f.Stat()
	if err != nil {
		return Secret{}, FileInfo{}, &fileError{"the file cannot be read", err}
	}
	if !st.Mode().IsRegular() {
		return Secret{}, FileInfo{}, &fileError{"the file is not a regular file", nil}
	}
	info := FileInfo{WorldReadable: worldReadable(st.Mode()), Perm: st.Mode().Perm(), Owner: owner(st)}
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return Secret{}, info, &fileError{"the file cannot be read", err}
	}
	if len(data) > maxFileBytes {
		clear(data)
		return Secret{}, info, &fileError{"the file is larger than 64 KiB", nil}
	}
	v := strings.TrimSpace(string(data))
	clear(data)
	if v == "" {
		return Secret{}, info, &fileError{"the file is empty", nil}
	}
	return New(v), info, nil
}
