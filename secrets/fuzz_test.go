package secrets

import (
	"testing"
	"unicode/utf8"
)

// FuzzScan checks the properties every caller relies on, for any text:
// Scan never panics; every finding has a known kind and 0 <= Start < End <=
// the number of runes; findings are ordered and do not overlap; MaskText
// masks exactly the findings, and its output has no finding of the same
// kind where a mask was put. Seeds: testdata/fuzz/FuzzScan and the
// expanded positive corpus, the negatives and the ordinary text.
func FuzzScan(f *testing.F) {
	for _, c := range readCorpus(f, "positives.txt", true) {
		f.Add(c.text)
	}
	for _, c := range readCorpus(f, "negatives.txt", false) {
		f.Add(c.text)
	}
	for _, c := range readCorpus(f, "ordinary.txt", false) {
		f.Add(c.text)
	}
	known := map[string]bool{}
	for k := kind(1); k < kindCount; k++ {
		known[k.String()] = true
	}
	f.Fuzz(func(t *testing.T, text string) {
		fs := Scan(text)
		runes := utf8.RuneCountInString(text)
		prevEnd := 0
		for _, fd := range fs {
			if !known[fd.Kind] {
				t.Fatalf("unknown kind %q", fd.Kind)
			}
			if fd.Start < prevEnd || fd.Start >= fd.End || fd.End > runes {
				t.Fatalf("bad or overlapping span %+v after %d in %d runes: %v", fd, prevEnd, runes, fs)
			}
			prevEnd = fd.End
		}
		masked, n := MaskText(text)
		if n != len(fs) {
			t.Fatalf("MaskText masked %d, Scan found %d", n, len(fs))
		}
		if n == 0 {
			if masked != text {
				t.Fatalf("MaskText changed a text without findings")
			}
			return
		}
		// Where each mask sits in the output, in runes.
		type span struct {
			kind       string
			start, end int
		}
		var masks []span
		removed := 0
		maskRunes := utf8.RuneCountInString(mask)
		for i, fd := range fs {
			at := fd.Start - removed + i*maskRunes
			masks = append(masks, span{fd.Kind, at, at + maskRunes})
			removed += fd.End - fd.Start
		}
		if got := utf8.RuneCountInString(masked); got != runes-removed+n*maskRunes {
			t.Fatalf("masked text has %d runes, want %d", got, runes-removed+n*maskRunes)
		}
		for _, g := range Scan(masked) {
			for _, m := range masks {
				if g.Kind == m.kind && g.Start < m.end && m.start < g.End {
					t.Fatalf("after masking, %s is found again at the mask %d-%d: %+v", g.Kind, m.start, m.end, g)
				}
			}
		}
	})
}
