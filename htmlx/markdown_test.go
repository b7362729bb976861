package htmlx

import (
	"net/url"
	"strings"
	"testing"
)

// renderDoc parses doc and renders the whole tree, without main-content
// selection, to test the Markdown writer alone.
func renderDoc(t *testing.T, doc, base string) string {
	t.Helper()
	var u *url.URL
	if base != "" {
		var err error
		if u, err = url.Parse(base); err != nil {
			t.Fatal(err)
		}
	}
	tr := parseHTML(doc, defaultMaxNodes, defaultMaxDepth)
	x := newExtractor(tr, pageTitle(tr))
	md, _ := renderMarkdown(tr, x.st, nil, 0, u, "", "")
	return md
}

func TestREQ_FETCH_004_MarkdownConstructs(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"paragraphs", `<p>One  two
three.</p><p>Four.</p>`, "One two three.\n\nFour."},
		{"headings", `<h1>A</h1><h2>B <i>c</i></h2><h3>C</h3><h4>D</h4><h5>E</h5><h6>F</h6>`,
			"# A\n\n## B c\n\n### C\n\n#### D\n\n##### E\n\n###### F"},
		{"unordered list", `<ul><li>a</li><li>b</li></ul>`, "- a\n- b"},
		{"ordered list", `<ol><li>a<li>b</ol>`, "1. a\n2. b"},
		{"ordered list start", `<ol start="7"><li>a<li>b</ol>`, "7. a\n8. b"},
		{"nested lists", `<ul><li>a<ul><li>b<ol><li>c</ol></ul><li>d</ul>`, "- a\n  - b\n    1. c\n- d"},
		{"list item paragraphs", `<ul><li><p>a</p><p>b</p></li></ul>`, "- a\n  b"},
		{"block quote", `<blockquote><p>a</p><p>b</p></blockquote>`, "> a\n>\n> b"},
		{"quote in list", `<ul><li>x<blockquote>q</blockquote></ul>`, "- x\n  > q"},
		{"code block with language", "<pre><code class=\"language-go\">func f() {\n\treturn\n}</code></pre>",
			"```go\nfunc f() {\n\treturn\n}\n```"},
		{"code block keeps markup text", "<pre>a &lt;b&gt;\n  <b>c</b></pre>", "```\na <b>\n  c\n```"},
		{"code block with fences inside", "<pre>```\nx\n```</pre>", "````\n```\nx\n```\n````"},
		{"inline code", `<p>Run <code>go test</code> now.</p>`, "Run `go test` now."},
		{"inline code with backtick", "<p><code>a`b</code></p>", "``a`b``"},
		{"line break", `<p>a<br>b<br/>c</p>`, "a\nb\nc"},
		{"image alt", `<p>see <img src="x.png" alt="a red fox"> here</p>`, "see a red fox here"},
		{"image without alt", `<p>see <img src="x.png"> here</p>`, "see here"},
		{"image file name alt", `<p>see <img src="x.png" alt="IMG_2041.jpg"> here</p>`, "see here"},
		{"logo alt", `<p>Trusted by <img src="a.svg" alt="Harbour Trust logo white"> <img src="b.svg" alt="Logo of Fenwick Rail."> teams</p>`, "Trusted by teams"},
		{"alt naming a logo's design", `<p>see <img src="x.png" alt="sketches for a logotypeface"> here</p>`, "see sketches for a logotypeface here"},
		{"rule", `<p>a</p><hr><p>b</p>`, "a\n\n---\n\nb"},
		{"table", `<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ann</td><td>7</td></tr><tr><td>Bo|b</td><td>9<br>y</td></tr></table>`,
			"| Name | Age |\n| --- | --- |\n| Ann | 7 |\n| Bo\\|b | 9 y |"},
		{"table ragged rows", `<table><tr><td>a<td>b<tr><td>c</table>`, "| a | b |\n| --- | --- |\n| c | |"},
		{"layout table", `<table><tr><td><p>` + strings.Repeat("Long prose. ", 50) + `</p><p>More.</p></td></tr></table>`,
			strings.TrimSpace(strings.Repeat("Long prose. ", 50)) + "\n\nMore."},
		{"definition list", `<dl><dt>term</dt><dd>meaning</dd></dl>`, "term\n\nmeaning"},
		{"escape line starts", `<p># not a heading</p><p>- not a list</p><p>1. not a list</p><p>&gt; not a quote</p>`,
			"\\# not a heading\n\n\\- not a list\n\n1\\. not a list\n\n\\> not a quote"},
		{"no escape mid line", `<p>a # b - c 1. d</p>`, "a # b - c 1. d"},
		{"inline spacing", `<p><b>a</b> <i>b</i><span>c</span></p>`, "a bc"},
		{"no blank runs", `<p>a</p><div></div><p></p><p>  </p><br><br><p>b</p>`, "a\n\nb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := renderDoc(t, tc.doc, "")
			if got != tc.want {
				t.Errorf("Markdown of %q\n got %q\nwant %q", tc.doc, got, tc.want)
			}
			for _, line := range strings.Split(got, "\n") {
				if strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
					t.Errorf("trailing space in %q", line)
				}
			}
		})
	}
}

func TestREQ_FETCH_004_Links(t *testing.T) {
	const base = "https://example.org/news/story.html?id=1"
	tests := []struct {
		name, doc, want string
	}{
		{"absolute", `<p>a <a href="https://other.example/x">link</a> b</p>`, "a [link](https://other.example/x) b"},
		{"relative", `<p><a href="../about?x=1">about</a></p>`, "[about](https://example.org/about?x=1)"},
		{"root relative", `<p><a href="/a b">sp</a></p>`, "[sp](https://example.org/a%20b)"},
		{"scheme relative", `<p><a href="//cdn.example/y">cdn</a></p>`, "[cdn](https://cdn.example/y)"},
		{"javascript", `<p><a href="javascript:alert(1)">run</a> it</p>`, "run it"},
		{"mailto", `<p><a href="mailto:a@example.org">mail</a></p>`, "mail"},
		{"data", `<p><a href="data:text/html,hi">data</a></p>`, "data"},
		{"fragment", `<p><a href="#top">top</a></p>`, "top"},
		{"same page fragment", `<p><a href="story.html?id=1#s2">section</a></p>`, "section"},
		{"ftp", `<p><a href="ftp://example.org/f">file</a></p>`, "file"},
		{"no href", `<p><a name="x">anchor</a></p>`, "anchor"},
		{"parens escaped", `<p><a href="/wiki/Go_(language)">Go</a></p>`, "[Go](https://example.org/wiki/Go_%28language%29)"},
		{"brackets in text", `<p><a href="/x">a [b]</a></p>`, "[a \\[b\\]](https://example.org/x)"},
		{"space moves out", `<p>x<a href="/x"> y </a>z</p>`, "x [y](https://example.org/x) z"},
		{"empty text", `<p>x<a href="/x"><img src="i.png"></a>y</p>`, "xy"},
		// a linked thumbnail names the page it leads to: a card's title
		// link says it in words; a picture opened in its larger copy, or
		// a link that leads nowhere, keeps its words
		{"image linked to a page", `<p><a href="/shop/blue-kettle"><img src="k.png" alt="Blue kettle, front view"></a> <a href="/shop/blue-kettle">Blue kettle</a></p>`, "[Blue kettle](https://example.org/shop/blue-kettle)"},
		{"image linked to a page, in a card", `<a href="/p/1"><div><img src="k.png" alt="black"></div></a><p>Walking pad</p>`, "Walking pad"},
		{"image linked to its file", `<p><a href="/img/chart-large.PNG?w=2000"><img src="chart.png" alt="a chart of rainfall"></a></p>`, "[a chart of rainfall](https://example.org/img/chart-large.PNG?w=2000)"},
		{"image linked to a fragment", `<p><a href="#gallery"><img src="i.png" alt="the kiln at night"></a></p>`, "the kiln at night"},
		{"block inside link", `<a href="/x"><div><h3>Title</h3><p>text</p></div></a>`, "### Title\n\ntext"},
		{"text is the address", `<p>see <a href="https://www.example.com/">www.example.com</a></p>`, "see <https://www.example.com/>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := renderDoc(t, tc.doc, base)
			if got != tc.want {
				t.Errorf("Markdown of %q\n got %q\nwant %q", tc.doc, got, tc.want)
			}
		})
	}
	// <base href> changes the base of relative links
	doc := `<head><base href="https://cdn.example/dir/"></head><p><a href="page">p</a></p>`
	p, err := ExtractHTML(doc, mustURL(t, base), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "[p](https://cdn.example/dir/page)"; p.Markdown != want {
		t.Errorf("with <base>: got %q, want %q", p.Markdown, want)
	}
	// without a base only absolute links survive
	if got := renderDoc(t, `<p><a href="/rel">r</a> <a href="http://x.example/">x</a></p>`, ""); got != "r [x](http://x.example/)" {
		t.Errorf("without base: got %q", got)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestEscapeLineStart(t *testing.T) {
	tests := map[string]string{
		"#":          "\\#",
		"## x":       "\\## x",
		"#hashtag":   "#hashtag",
		"####### x":  "####### x",
		"- x":        "\\- x",
		"-x":         "-x",
		"+ x":        "\\+ x",
		"* x":        "\\* x",
		"***":        "\\***",
		"---":        "\\---",
		"_ _ _":      "\\_ _ _",
		"===":        "\\===",
		"> x":        "\\> x",
		"12. x":      "12\\. x",
		"3) x":       "3\\) x",
		"3.5 litres": "3.5 litres",
		"2019.":      "2019\\.",
		"```go":      "\\```go",
		"| a | b |":  "\\| a | b |",
		"plain":      "plain",
	}
	for in, want := range tests {
		if got := escapeLineStart(in); got != want {
			t.Errorf("escapeLineStart(%q) = %q, want %q", in, got, want)
		}
	}
}
