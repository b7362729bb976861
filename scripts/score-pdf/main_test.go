package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// The metric of the corpus README: NFKD, lower case, final sigma folded,
// marks and format characters dropped, then \w+ tokens.
func TestTokensFoldAsTheCorpusREADMESays(t *testing.T) {
	got := strings.Join(tokens("ﬁle Müller u\u0308ber ΟΔΟΣ soft\u00adhyphen x_y 42"), "|")
	if want := "file|muller|uber|οδοσ|softhyphen|x_y|42"; got != want {
		t.Errorf("tokens = %q, want %q", got, want)
	}
}

func TestF1AndShingles(t *testing.T) {
	ref := tokens("a b c d e f g")
	if f := f1(ref, ref); f != 1 {
		t.Errorf("identical: %v", f)
	}
	if f := f1(nil, nil); f != 1 {
		t.Errorf("both empty: %v", f)
	}
	if f := f1(tokens("x"), nil); f != 0 {
		t.Errorf("text for an empty reference: %v", f)
	}
	// Half the words, all correct: P 1, R 0.5, F1 2/3.
	if f := f1(tokens("a b c"), tokens("a b c d e f")); math.Abs(f-2.0/3) > 1e-9 {
		t.Errorf("half: %v", f)
	}
	// The same words in another order: word F1 1, shingle F1 below 1.
	swapped := tokens("e f g a b c d")
	if f1(swapped, ref) != 1 || f1(shingles(swapped), shingles(ref)) >= 1 {
		t.Error("shingles do not see the order")
	}
}

func TestReaderTextUndoesMarkdown(t *testing.T) {
	md := "A \\_escaped\\_ word, a [link](https://x.example/p) and <https://auto.example>.\n```\ncode\n```\n[ref]: https://r.example"
	got := readerText(md)
	for _, gone := range []string{"x.example", "auto.example", "```", "r.example", "\\_"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q left in %q", gone, got)
		}
	}
	if !strings.Contains(got, "_escaped_") || !strings.Contains(got, "[link]") || !strings.Contains(got, "code") {
		t.Errorf("text lost: %q", got)
	}
}

func TestAMissingManifestIsReported(t *testing.T) {
	if _, err := readManifest(filepath.Join(t.TempDir(), "manifest.tsv")); err == nil {
		t.Fatal("a missing manifest read as a corpus")
	}
}
