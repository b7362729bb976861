package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// The committed table is what the generator makes of the committed data:
// nobody edited it by hand, and the data is the one named.
func TestTableIsGeneratedFromTheData(t *testing.T) {
	f, err := os.Open("confusables-latin.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	header, pairs, err := read(f)
	if err != nil {
		t.Fatal(err)
	}
	want, err := goTable(header, pairs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../boundary/clean_confusables.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("boundary/clean_confusables.go differs from the generator's output; run go generate ./boundary")
	}
	if !strings.Contains(string(got), "Version: 15.1.0") || len(pairs) < 100 {
		t.Fatalf("unexpected data: %d pairs", len(pairs))
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		line   string
		keep   bool
		letter byte
	}{
		{"0456 ;\t0069 ;\tMA\t# ( і → i ) CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I → LATIN SMALL LETTER I\t# ", true, 'i'},
		{"0406 ;\t006C ;\tMA\t# ( І → l ) CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I → LATIN SMALL LETTER L\t# ", true, 'i'},
		{"0410 ;\t0041 ;\tMA\t# ( А → A ) CYRILLIC CAPITAL LETTER A → LATIN CAPITAL LETTER A\t# ", true, 'a'},
		{"006D ;\t0072 006E ;\tMA\t# ( m → rn ) LATIN SMALL LETTER M → LATIN SMALL LETTER R, LATIN SMALL LETTER N\t# ", false, 0},
		{"043C ;\t0072 006E ;\tMA\t# ( м → rn ) CYRILLIC SMALL LETTER EM → LATIN SMALL LETTER R, LATIN SMALL LETTER N\t# ", false, 0},
		{"1D41A ;\t0061 ;\tMA\t# ( 𝐚 → a ) MATHEMATICAL BOLD SMALL A → LATIN SMALL LETTER A\t# ", false, 0},
		{"0030 ;\t004F ;\tMA\t# ( 0 → O ) DIGIT ZERO → LATIN CAPITAL LETTER O\t# ", false, 0},
		{"not a line", false, 0},
	} {
		p, ok := parse(tc.line)
		if ok != tc.keep || ok && p.letter != tc.letter {
			t.Errorf("parse(%q) = %q %v, want %q %v", tc.line, p.letter, ok, tc.letter, tc.keep)
		}
	}
}
