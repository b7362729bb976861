package boundary

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// stripMarkupOracle is the tokenizer-based stripper the fast one is held
// to; it returns the text of an HTML fragment, with its entities
// decoded exactly once: tags and comments removed, the contents of
// elements a browser does not render as text (script, style, noscript,
// iframe, noembed, noframes) dropped, and a space where a block element or
// a line break separates words.
func stripMarkupOracle(raw string) string {
	if strings.IndexByte(raw, '<') < 0 {
		return html.UnescapeString(raw)
	}
	var b strings.Builder
	b.Grow(len(raw))
	z := html.NewTokenizer(strings.NewReader(raw))
	skipText := false // the coming text token is the content of a raw element
	literal := false  // the coming text token is RAWTEXT shown as written
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			if skipText {
				continue
			}
			text := z.Raw()
			if literal || bytes.IndexByte(text, '&') < 0 {
				b.Write(text)
				continue
			}
			b.WriteString(html.UnescapeString(string(text)))
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			skipText, literal = false, false
			switch string(name) {
			case "script", "style", "noscript", "iframe", "noembed", "noframes":
				skipText = true
			case "xmp", "plaintext":
				literal = true
			}
			if separatesWords(name) {
				b.WriteByte(' ')
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			skipText, literal = false, false
			if separatesWords(name) {
				b.WriteByte(' ')
			}
		default: // comments, doctypes
			skipText, literal = false, false
		}
	}
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// FuzzStripMarkupMatchesTokenizer holds the fast stripper to the HTML
// tokenizer of x/net/html: the same text (up to white space) for any input.
func FuzzStripMarkupMatchesTokenizer(f *testing.F) {
	for _, s := range []string{
		`<span class="searchmatch">Rust</span> is &amp; was`,
		`a < b and c <= d, x<3`,
		`<a href="x>y">link</a> after`,
		`<img alt='a > b'>text`,
		`<!-- comment --> visible <!--> <!---> <!-- a -- b --!> tail`,
		`<script>var x = "</scr" + "ipt>";</script>after <style>p{}</style>x`,
		`<SCRIPT>hidden</SCRIPT >shown`,
		`</> </ not a tag> </p>end`,
		`<?xml version="1.0"?>x<!DOCTYPE html>y`,
		`unterminated <b class="x`,
		`<xmp><b>kept</b></xmp>`,
		`<p>one<br>two</p><div>three</div>`,
		`&lt;b&gt; &amp;lt; &#x41;&#66; &notanentity;`,
		`<noscript><p>no</p></noscript>yes<iframe>x</iframe>`,
		"<b\n>multi\tline</b\n>",
		`<a href=unquoted>u</a><a href= "spaced">s</a>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fast, slow := collapse(StripMarkup(s)), collapse(stripMarkupOracle(s))
		if fast != slow {
			t.Fatalf("input %q\nfast %q\ntokenizer %q", s, fast, slow)
		}
	})
}

func BenchmarkStripMarkup(b *testing.B) {
	s := `<span class="searchmatch">Rust</span> is a general-purpose <span class="searchmatch">programming</span> <span class="searchmatch">language</span> emphasizing performance, type safety, and concurrency. It enforces memory safety&mdash;meaning that all references`
	for i := 0; i < b.N; i++ {
		StripMarkup(s)
	}
}
