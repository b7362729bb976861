package tomlx

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics; an error is an *Error with a place inside
// the document; a parsed document has a place on every value and key and a
// consistent key list in every table.
func FuzzParse(f *testing.F) {
	for _, tc := range validCases {
		f.Add([]byte(tc.doc))
	}
	for _, tc := range invalidCases {
		f.Add([]byte(tc.doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Parse(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error of type %T", err)
			}
			lines := strings.Count(string(data), "\n") + 1
			if e.Msg == "" || e.Line < 1 || e.Col < 1 || e.Line > lines {
				t.Fatalf("error %q at %d:%d in a document of %d lines", e.Msg, e.Line, e.Col, lines)
			}
			if doc != nil {
				t.Fatal("a document and an error")
			}
			return
		}
		if d := checkTree(doc); d != "" {
			t.Fatal(d)
		}
	})
}
