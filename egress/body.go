package egress

import (
	"errors"
	"io"
	"strings"
	"unicode"
)

// ErrTooLarge: a body exceeded its limit.
var ErrTooLarge = errors.New("egress: body exceeds the limit")

// firstReadBytes is the size of the first buffer of ReadBody; it doubles
// up to the limit.
const firstReadBytes = 4 << 10

// ReadBody reads r to its end, failing with ErrTooLarge as soon as more than
// limit bytes were produced (decompressed bytes, counted as they come). It
// asks r for at most limit+1 bytes, never trusts a declared length, and no
// buffer it allocates is larger than limit. A negative limit is 0. On a
// read error the bytes read so far are returned with it; on ErrTooLarge
// none are.
func ReadBody(r io.Reader, limit int64) ([]byte, error) {
	if limit < 0 {
		limit = 0
	}
	buf := make([]byte, 0, min(limit, firstReadBytes))
	for {
		if int64(len(buf)) == limit {
			if err := probeEnd(r); err != nil {
				return nil, err
			}
			return buf, nil
		}
		if len(buf) == cap(buf) {
			next := make([]byte, len(buf), min(int64(2*cap(buf)), limit))
			copy(next, buf)
			buf = next
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// probeEnd reads one more byte after the limit was reached: none means the
// body fit exactly. A reader that keeps answering nothing is an error.
func probeEnd(r io.Reader) error {
	var one [1]byte
	for empty := 0; empty < 100; empty++ {
		n, err := r.Read(one[:])
		if n > 0 {
			return ErrTooLarge
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return io.ErrNoProgress
}

// projectURL is where the User-Agent sends a provider who wants to know
// what rypsok is.
const projectURL = "https://github.com/nabbisen/rypsok"

// UserAgent is rypsok's one User-Agent (REQ-CMP-004):
// rypsok/<version> (+<project URL>; <operator contact>). Without a contact
// the "; <contact>" part is left out. Control and invisible format
// characters are removed from both values, and surrounding spaces trimmed,
// so that the result is a valid header value.
func UserAgent(version, contact string) string {
	s := "rypsok/" + headerSafe(version) + " (+" + projectURL
	if c := headerSafe(contact); c != "" {
		s += "; " + c
	}
	return s + ")"
}

func headerSafe(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == unicode.ReplacementChar || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s))
}
