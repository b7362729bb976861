package main

import (
	"math"
	"strings"
	"testing"
)

// The metric as WCXB's evaluate.py computes it: lower-cased \w+ tokens,
// multiset overlap, precision over the prediction, recall over the truth.
func TestWordF1MatchesEvaluatePy(t *testing.T) {
	if got := strings.Join(tokens("Ça va? L'été_2019 — OK,x²"), "|"); got != "ça|va|l|été_2019|ok|x²" {
		t.Errorf("tokens = %q", got)
	}
	for _, tc := range []struct {
		pred, ref string
		p, r      float64
	}{
		{"a b c", "a b c", 1, 1},
		{"a a a", "a b", 1.0 / 3, 0.5}, // overlap counts min(3, 1)
		{"", "a", 0, 0},
		{"", "", 1, 1},
		{"a", "", 0, 0},
	} {
		p, r, f1 := wordF1(tokens(tc.pred), tokens(tc.ref))
		if math.Abs(p-tc.p) > 1e-9 || math.Abs(r-tc.r) > 1e-9 {
			t.Errorf("wordF1(%q, %q) = %v, %v, want %v, %v", tc.pred, tc.ref, p, r, tc.p, tc.r)
		}
		if want := 0.0; p+r > 0 {
			want = 2 * p * r / (p + r)
			if math.Abs(f1-want) > 1e-9 {
				t.Errorf("f1 = %v, want %v", f1, want)
			}
		}
	}
	if got := plainText("a \\[b\\] \\<c> C:\\\\d\\e"); got != "a [b] <c> C:\\d\\e" {
		t.Errorf("plainText = %q", got)
	}
	if got := plainText("see [a b](https://x.example/p_(q)) and [c](http://y/)."); got != "see [a b] and [c]." {
		t.Errorf("plainText = %q", got)
	}
	if got := plainText("Run it:\n\n```yaml\nkey: value\n```\n\n> ~~~go\n> x := 1\n> ~~~"); got != "Run it:\n\n```\nkey: value\n```\n\n> ~~~\n> x := 1\n> ~~~" {
		t.Errorf("plainText = %q", got)
	}
	if got := snippetRate("Hello World", []string{"hello", "moon"}); got != 0.5 {
		t.Errorf("snippetRate = %v", got)
	}
}
