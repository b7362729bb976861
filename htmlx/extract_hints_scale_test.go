package htmlx

import (
	"strings"
	"testing"
)

// A class naming a step of a type scale ("caption-s") styles small
// print: the authors of a card in a grid of papers stay with its title.
func TestTypeScaleCaptionIsNotCaption(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<h1>Research</h1><p>Our team publishes the systems research behind the platform, with universities and industry labs, and shares the code of every paper.</p><div class="papers">`)
	for _, p := range []struct{ title, authors string }{
		{"Pipelined attention kernels for asymmetric hardware", "Ada Moreau (Leeds), Ben Okafor (Lyon)"},
		{"Cache-aware prefill for long prompts", "Chen Wu, Dara Novak, Eli Strand"},
		{"An open dataset for coding agents", "Farah Quist, Gil Haddad"},
		{"Speech models where it matters", "Hana Ito (Osaka), Ivo Petrov"},
	} {
		b.WriteString(`<div class="research-card"><p class="body-l">` + p.title + `</p><div class="research-card_authors"><p class="caption-s">` + p.authors + `</p></div></div>`)
	}
	b.WriteString(`</div>`)
	md := extractMD(t, servicePage("", b.String()))
	if !strings.Contains(md, "Cache-aware prefill for long prompts") {
		t.Fatalf("the cards are missing:\n%s", md)
	}
	for _, a := range []string{"Ada Moreau", "Farah Quist"} {
		if !strings.Contains(md, a) {
			t.Errorf("the authors set in a type scale's caption style are left out (%s):\n%s", a, md)
		}
	}
}

func TestTypeScaleCaption(t *testing.T) {
	for val, want := range map[string]bool{
		"caption-s":                true,
		"opacity-70 Caption_M":     true,
		"caption-lg text-muted":    true,
		"caption":                  false,
		"wp-caption":               false,
		"caption-s figure-caption": false,
		"caption-text":             false,
		"image-caption caption-2":  false,
	} {
		if got := typeScaleCaption([]byte(val)); got != want {
			t.Errorf("typeScaleCaption(%q) = %v, want %v", val, got, want)
		}
	}
}
