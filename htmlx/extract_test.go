package htmlx

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// articleProse is a few paragraphs of ordinary article text.
const articleProse = `<p>The river rose through the night, and by morning the lower town was under water. Residents said they had never seen it climb so fast.</p>
<p>Emergency crews moved families to the school on the hill, where volunteers handed out blankets, soup and dry clothes until late in the afternoon.</p>
<p>Officials expect the water to recede over the weekend, although more rain is forecast for Tuesday and the ground is already saturated.</p>`

// chromePage wraps content in an article with the usual site chrome
// around it.
func chromePage(content string) string {
	return `<!DOCTYPE html><html><head><title>Flood reaches lower town | Valley News</title>
<meta property="og:site_name" content="Valley News"></head><body>
<header class="site-header"><a href="/">Valley News</a><nav><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/weather">Weather</a></li></ul></nav></header>
<aside class="sidebar"><h3>Most read</h3><ul><li><a href="/a">Council approves budget</a></li><li><a href="/b">New bridge opens</a></li></ul></aside>
<main><article><h1>Flood reaches lower town</h1>` + content + `</article></main>
<footer class="site-footer"><p>Copyright Valley News. All rights reserved.</p><a href="/privacy">Privacy</a></footer>
</body></html>`
}

func extract(t *testing.T, doc string) Page {
	t.Helper()
	p, err := ExtractHTML(doc, mustURL(t, "https://news.example/2024/flood"), Limits{})
	if err != nil {
		t.Fatalf("ExtractHTML: %v", err)
	}
	return p
}

func TestREQ_FETCH_002_MainContentWithoutChrome(t *testing.T) {
	p := extract(t, chromePage(articleProse))
	checkText(t, p.Markdown, []string{"The river rose through the night", "Emergency crews moved families", "recede over the weekend"}, []string{"Sport", "Weather", "Most read", "Council approves", "Copyright", "Privacy"})
}

func TestREQ_PAGE_002_ArticleFirst(t *testing.T) {
	// chrome before the article in source order must not come first
	p := extract(t, chromePage(articleProse))
	if !strings.HasPrefix(p.Markdown, "# Flood reaches lower town\n\nThe river rose") {
		t.Errorf("content does not start with the article:\n%s", p.Markdown)
	}
}

func TestREQ_CTX_005_Exclusions(t *testing.T) {
	tests := []struct {
		name, html string
	}{
		{"script", `<script>var SECRET = "x";</script>`},
		{"script with markup", `<script>document.write("<p>SECRET</p>")</script>`},
		{"style", `<style>.SECRET { color: red }</style>`},
		{"template", `<template><p>SECRET template text</p></template>`},
		{"noscript", `<noscript><p>SECRET enable scripts</p></noscript>`},
		{"comment", `<!-- SECRET comment -->`},
		{"conditional comment", `<!--[if IE]><p>SECRET for IE</p><![endif]-->`},
		{"svg", `<svg><text>SECRET svg</text><title>SECRET title</title></svg>`},
		{"math", `<math><mi>SECRET</mi></math>`},
		{"iframe", `<iframe>SECRET frame</iframe>`},
		{"object", `<object data="x"><p>SECRET fallback</p></object>`},
		{"button", `<button>SECRET Subscribe</button>`},
		{"select", `<select><option>SECRET option</option></select>`},
		{"input", `<input value="SECRET">`},
		{"textarea", `<textarea>SECRET text</textarea>`},
		{"nav", `<nav><a href="/x">SECRET link</a></nav>`},
		{"hidden attribute", `<p hidden>SECRET hidden paragraph with enough words to look like prose, really.</p>`},
		{"hidden until found", `<div hidden="until-found">SECRET</div>`},
		{"aria-hidden", `<div aria-hidden="true"><p>SECRET aria hidden</p></div>`},
		{"aria-hidden spaced", `<div aria-hidden=" TRUE ">SECRET</div>`},
		{"display none", `<div style="display:none">SECRET</div>`},
		{"display none spaced", `<div style="color: red; DISPLAY : None ;">SECRET</div>`},
		{"display none important", `<div style="display:none !important">SECRET</div>`},
		{"display none escaped", `<div style="display:n\6f ne">SECRET</div>`},
		{"display none commented", `<div style="display:/**/none">SECRET</div>`},
		{"visibility hidden", `<span style="visibility: hidden">SECRET</span>`},
		{"visibility collapse", `<span style="visibility:collapse">SECRET</span>`},
		{"opacity zero", `<span style="opacity:0">SECRET</span>`},
		{"font size zero", `<span style="font-size:0px">SECRET</span>`},
		{"type hidden", `<div type="hidden">SECRET</div>`},
		{"class hidden", `<div class="sr-only">SECRET</div>`},
		{"closed dialog", `<dialog><p>SECRET dialog</p></dialog>`},
		{"class rule in style sheet", `<style>p { color: red } .note, .ai-note { display : none }</style><div class="x ai-note">SECRET by class</div>`},
		{"id rule in style sheet", `<style>/* c */ div#ai { visibility: hidden }</style><div id="ai">SECRET by id</div>`},
		{"off screen", `<div style="position:absolute; left:-10000px">SECRET off screen</div>`},
		{"text indent", `<div style="text-indent:-9999px">SECRET indented</div>`},
		{"clipped", `<span style="position:absolute;clip:rect(0 0 0 0)">SECRET clipped</span>`},
		{"zero height", `<div style="height:0;overflow:hidden">SECRET collapsed</div>`},
		{"hidden nested deep", `<div hidden><div><div><p>SECRET deep</p></div></div></div>`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			content := articleProse[:len(articleProse)/2] + tc.html + articleProse[len(articleProse)/2:]
			p := extract(t, chromePage(`<div class="article-body">`+content+`</div>`))
			if strings.Contains(p.Markdown, "SECRET") {
				t.Errorf("excluded text present:\n%s", p.Markdown)
			}
			if !strings.Contains(p.Markdown, "Emergency crews") {
				t.Errorf("article text missing:\n%s", p.Markdown)
			}
		})
	}
	// the rules must not hide what is shown
	shown := []string{
		`<div style="display:block">`,
		`<div style="display:none;display:block">`,
		`<div aria-hidden="false">`,
		`<div class="hidden md:block">`,
		`<dialog open>`,
		`<div class="field-label-hidden">`,
		`<div style="position:relative;left:-20px">`,
		`<div class="shown">`,
	}
	for _, open := range shown {
		name := open[1:strings.IndexAny(open, " >")]
		el := open + `SHOWN in a sentence of its own, long enough to count as prose.</` + name + `>`
		p := extract(t, chromePage(`<style>@media print{.shown{display:none}}</style><div class="article-body">`+articleProse+el+`</div>`))
		if !strings.Contains(p.Markdown, "SHOWN") {
			t.Errorf("%s: visible text missing:\n%s", open, p.Markdown)
		}
	}
}

func TestREQ_CTX_005_HeaderInsideArticleIsNotChrome(t *testing.T) {
	// the page header is chrome; the article's own header is content
	doc := chromePage(`<header><p class="standfirst">A long introduction to the flood story, with several clauses, and a full stop at the end of it.</p></header>` + articleProse)
	p := extract(t, doc)
	checkText(t, p.Markdown, []string{"A long introduction"}, []string{"Valley News"})
}

func TestREQ_PAGE_006_DeepDocumentIsPartial(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("<html><body>" + articleProse)
	for i := 0; i < 1000000; i++ {
		sb.WriteString("<div>")
	}
	sb.WriteString("<p>below the cut</p>")
	p, err := ExtractHTML(sb.String(), nil, Limits{MaxNodes: 100000, MaxDepth: 256})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Partial {
		t.Error("a million nested divs is not partial")
	}
	if !strings.Contains(p.Markdown, "The river rose") {
		t.Errorf("content before the cut missing:\n%s", p.Markdown)
	}
	if strings.Contains(p.Markdown, "below the cut") {
		t.Error("content after the cut present")
	}
}

func TestREQ_PAGE_006_ManyNodesArePartial(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(articleProse)
	for i := 0; i < 120000; i++ {
		sb.WriteString("<span>x</span>")
	}
	p, err := ExtractHTML(sb.String(), nil, Limits{MaxNodes: 100000, MaxDepth: 256})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Partial || !strings.Contains(p.Markdown, "The river rose") {
		t.Errorf("partial=%v, content=%.60q", p.Partial, p.Markdown)
	}
	// the zero Limits mean the book's bounds
	p, _ = ExtractHTML(sb.String(), nil, Limits{})
	if !p.Partial {
		t.Error("zero Limits did not apply the default node bound")
	}
}

func TestREQ_PAGE_006_MalformedHTML(t *testing.T) {
	docs := []string{
		`<p>The river rose through the night, and by morning the lower town was under water. <b>Residents <i>said</b> they</i> had never seen it`,
		`<div><p>The river rose through the night, and by morning the lower town was under water.</div></p></span></table><td>stray`,
		`<table><tr><td>The river rose through the night, and by morning the lower town was under water.<tr><td>more`,
		`<p>The river rose through the night, and by morning the lower town was under water. <a href="x`,
		`<p>The river rose through the night, and by morning the lower town was under water. <!-- unterminated`,
		`<<p>>The river rose through the night, and by morning the lower town was under water.</<p>>`,
	}
	for _, doc := range docs {
		p, err := ExtractHTML(doc, nil, Limits{})
		if err != nil {
			t.Errorf("%q: %v", doc, err)
			continue
		}
		if !strings.Contains(p.Markdown, "The river rose") {
			t.Errorf("%q: got %q", doc, p.Markdown)
		}
	}
}

func TestExtractHTMLNothingExtracted(t *testing.T) {
	for _, doc := range []string{"", "<html><head><title>T</title></head><body></body></html>", "<script>x</script>", "<p hidden>x</p>"} {
		p, err := ExtractHTML(doc, nil, Limits{})
		if !errors.Is(err, ErrNothingExtracted) {
			t.Errorf("%q: err = %v, want ErrNothingExtracted", doc, err)
		}
		if p.Markdown != "" {
			t.Errorf("%q: markdown %q", doc, p.Markdown)
		}
	}
	// the title survives an empty body
	p, _ := ExtractHTML("<title>Only a title</title>", nil, Limits{})
	if p.Title != "Only a title" {
		t.Errorf("title = %q", p.Title)
	}
}

func TestExtractHTMLShortPageIsKept(t *testing.T) {
	// a page without prose still yields its text
	p := extract(t, `<html><body><h1>Opening hours</h1><ul><li>Mon 9-5</li><li>Tue 9-5</li></ul></body></html>`)
	for _, want := range []string{"Mon 9-5", "Tue 9-5"} {
		if !strings.Contains(p.Markdown, want) {
			t.Errorf("%q missing from %q", want, p.Markdown)
		}
	}
}

func TestExtractHTMLDropsLinkLists(t *testing.T) {
	related := `<div class="more"><h2>More stories</h2><ul>`
	for i := 0; i < 6; i++ {
		related += fmt.Sprintf(`<li><a href="/s%d">Another story number %d about the town</a></li>`, i, i)
	}
	related += `</ul></div>`
	p := extract(t, chromePage(`<div class="content">`+articleProse+related+`</div>`))
	if strings.Contains(p.Markdown, "Another story") {
		t.Errorf("link list present:\n%s", p.Markdown)
	}
}

func TestExtractHTMLDropsComments(t *testing.T) {
	comments := `<section id="comments"><h2>12 comments</h2>`
	for i := 0; i < 5; i++ {
		comments += `<div class="comment"><p>I live down the road and I have to say the water was higher than anything I remember from the last twenty years, truly.</p></div>`
	}
	comments += `</section>`
	p := extract(t, chromePage(articleProse+comments))
	if strings.Contains(p.Markdown, "I live down the road") {
		t.Errorf("comments present:\n%s", p.Markdown)
	}
}

func TestPageTitle(t *testing.T) {
	tests := []struct {
		head, want string
	}{
		{`<title> Flood  reaches town </title>`, "Flood reaches town"},
		{`<title>Flood reaches town | Valley News</title><meta property="og:site_name" content="Valley News">`, "Flood reaches town"},
		{`<title>Flood reaches town - Valley News</title><meta property="og:site_name" content="Valley News">`, "Flood reaches town"},
		{`<title>Flood reaches town | Other</title><meta property="og:site_name" content="Valley News">`, "Flood reaches town | Other"},
		{`<title>Flood reaches town | Valley News</title><meta property="og:title" content="Flood reaches town">`, "Flood reaches town"},
		{`<title>Q&amp;A: rivers</title>`, "Q&A: rivers"},
		{`<meta property="og:title" content="Only og">`, "Only og"},
		{`<title>First</title><title>Second</title>`, "First"},
		{`<svg><title>Icon</title></svg><title>Real</title>`, "Real"},
	}
	for _, tc := range tests {
		p, _ := ExtractHTML("<html><head>"+tc.head+"</head><body><p>x</p></body></html>", nil, Limits{})
		if p.Title != tc.want {
			t.Errorf("%s: title = %q, want %q", tc.head, p.Title, tc.want)
		}
	}
}

func TestExtractText(t *testing.T) {
	tests := []struct {
		body      string
		markdown  bool
		wantTitle string
		wantText  string
	}{
		{"line one\r\nline two\rthree", false, "", "line one\nline two\nthree"},
		{"# Title here\n\nbody", true, "Title here", "# Title here\n\nbody"},
		{"intro\n## Sub\n# Main #\n", true, "Main", "intro\n## Sub\n# Main #\n"},
		{"```\n# not a title\n```\n# Real", true, "Real", "```\n# not a title\n```\n# Real"},
		{"#hashtag\n", true, "", "#hashtag\n"},
		{"# Title", false, "", "# Title"},
	}
	for _, tc := range tests {
		p, err := ExtractText(tc.body, tc.markdown)
		if err != nil {
			t.Errorf("%q: %v", tc.body, err)
			continue
		}
		if p.Title != tc.wantTitle || p.Markdown != tc.wantText || p.Partial {
			t.Errorf("%q: got %+v", tc.body, p)
		}
	}
	if _, err := ExtractText(" \r\n ", false); !errors.Is(err, ErrNothingExtracted) {
		t.Errorf("blank text: err = %v", err)
	}
}

func TestExtractHTMLOutputIsValidUTF8(t *testing.T) {
	doc := "<p>bad \xff\xfe bytes and a split \xe2\x82 rune, then more words to read.</p>"
	p, err := ExtractHTML(doc, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.ValidString(p.Markdown) {
		t.Errorf("invalid UTF-8: %q", p.Markdown)
	}
}

// TestREQ_PAGE_006_ShownByScripts: a document without readable content
// that keeps its text out of sight (a noscript fallback, an element hidden
// until a script shows it, a template, a closed details) or holds the
// scripts that build it is ErrShownByScripts; an empty one, or one whose
// noscript holds only a tracking image and its styles, is plain
// ErrNothingExtracted. Both are ErrNothingExtracted to errors.Is. Read
// as the amended REQ-CTX-005 reads (the default), the noscript fallback
// of such a shell and a closed details are what a reader can open: their
// text is the page's content (opened).
func TestREQ_PAGE_006_ShownByScripts(t *testing.T) {
	text := strings.Repeat("Every reply in this thread compares two eyepieces for the same small telescope. ", 4)
	code := "<script>" + strings.Repeat("window.app.render(document.getElementById('root'));\n", 40) + "</script>"
	cases := []struct {
		name, doc string
		scripts   bool
		opened    bool
	}{
		{"noscript", `<body><div id="root"></div><noscript><div class="post"><p>` + text + `</p></div></noscript></body>`, true, true},
		{"hidden attribute", `<body><div hidden><p>` + text + `</p></div></body>`, true, false},
		{"visibility hidden", `<body><main style="visibility:hidden"><p>` + text + `</p></main></body>`, true, false},
		{"hidden class", `<body><div class="root hide"><p>` + text + `</p></div></body>`, true, false},
		{"template", `<body><template id="page"><article><p>` + text + `</p></article></template></body>`, true, false},
		{"closed details", `<body><details><summary></summary><p>` + text + `</p></details></body>`, true, true},
		{"script shell", `<body><div id="root"></div>` + code + `</body>`, true, false},
		{"empty", `<body><div id="root"></div></body>`, false, false},
		{"noscript pixel", `<body><div id="root"></div><noscript><style>` + strings.Repeat(".banner{display:none}", 30) +
			`</style><img src="https://example.org/pixel.gif" alt=""></noscript></body>`, false, false},
		{"short hidden line", `<body><div hidden>Loading…</div></body>`, false, false},
	}
	for _, strict := range []bool{true, false} {
		for _, c := range cases {
			page, err := ExtractHTML(c.doc, nil, Limits{StrictHidden: strict})
			if c.opened && !strict {
				if err != nil || !strings.Contains(page.Markdown, "two eyepieces") {
					t.Errorf("%s, read collapsed: %v %q, want the text", c.name, err, page.Markdown)
				}
				continue
			}
			if !errors.Is(err, ErrNothingExtracted) {
				t.Errorf("%s, strict=%v: err = %v, want ErrNothingExtracted", c.name, strict, err)
				continue
			}
			if got := errors.Is(err, ErrShownByScripts); got != c.scripts {
				t.Errorf("%s, strict=%v: shown by scripts = %v, want %v", c.name, strict, got, c.scripts)
			}
		}
		// visible content is extracted whatever is hidden beside it,
		// and a noscript beside it is never read
		page, err := ExtractHTML(`<body><article><p>`+text+`</p></article><noscript><p>SECRET `+text+`</p></noscript></body>`, nil, Limits{StrictHidden: strict})
		if err != nil || !strings.Contains(page.Markdown, "two eyepieces") || strings.Contains(page.Markdown, "SECRET") {
			t.Fatalf("visible content, strict=%v: %v %q", strict, err, page.Markdown)
		}
	}
}

// TestREQ_PAGE_006_RemnantShownByScripts: a page whose readable content is
// a scrap of its frame (the site's name, "Skip to content", a copyright
// line) while it keeps far more text out of sight, or carries an
// application's code, is ErrShownByScripts with no Markdown, not the
// scrap. A page short on purpose keeps its content beside an analytics
// script or a small hidden menu, and words of scripts that do not space
// them count one a character.
func TestREQ_PAGE_006_RemnantShownByScripts(t *testing.T) {
	text := strings.Repeat("Every reply in this thread compares two eyepieces for the same small telescope. ", 16)
	bundle := "<script>" + strings.Repeat("window.app.render(document.getElementById('root'), window.__state);\n", 1000) + "</script>"
	analytics := "<script>" + strings.Repeat("window.dataLayer.push({event: 'view'});\n", 30) + "</script>"
	jaLine := "この道具は小さな望遠鏡のための二つの接眼レンズを比べるためのものです。"
	cases := []struct {
		name, doc string
		scripts   bool
	}{
		{"site name over hidden posts", `<body><header><a href="https://forum.example/">Example Forums</a></header><div class="posts" hidden><p>` + text + `</p></div></body>`, true},
		{"copyright over hidden article", `<body><div id="app" style="display:none"><article><p>` + text + `</p></article></div><footer><p>© 2026 Example Ltd. All rights reserved.</p></footer></body>`, true},
		{"skip link beside a bundle", `<body><a href="#main">Skip to content</a><div id="root"></div>` + bundle + `</body>`, true},
		{"short page beside analytics", `<body><main><p>This page moved to its new address.</p></main>` + analytics + `</body>`, false},
		{"short page beside a hidden menu", `<body><nav hidden><a href="/a">Alpha</a> <a href="/b">Beta</a></nav><main><p>Opening hours: nine to five, closed on Sundays.</p></main></body>`, false},
		{"unspaced words over hidden text", `<body><main><p>` + jaLine + `</p></main><div hidden><p>` + text + `</p></div></body>`, false},
	}
	for _, c := range cases {
		page, err := ExtractHTML(c.doc, nil, Limits{})
		if got := errors.Is(err, ErrShownByScripts); got != c.scripts {
			t.Errorf("%s: shown by scripts = %v (err %v), want %v", c.name, got, err, c.scripts)
		}
		if c.scripts && page.Markdown != "" {
			t.Errorf("%s: the scrap is returned: %q", c.name, page.Markdown)
		}
		if !c.scripts && (err != nil || page.Markdown == "") {
			t.Errorf("%s: content lost: %v %q", c.name, err, page.Markdown)
		}
	}
	// a link's target is not text: fifteen words behind a long address
	// are still a remnant, sixteen are not
	long := "(https://example.org/" + strings.Repeat("many-words-in-a-path/", 10) + ")"
	words := strings.Fields(strings.Repeat("word ", maxRemnantWords))
	if !remnant("[" + strings.Join(words[:maxRemnantWords-1], " ") + "]" + long) {
		t.Errorf("fifteen words and a link target: not a remnant")
	}
	if remnant("[" + strings.Join(words, " ") + "]" + long) {
		t.Errorf("sixteen words: a remnant")
	}
	if remnant(jaLine) {
		t.Errorf("a sentence of %d characters without spaces: a remnant", utf8.RuneCountInString(jaLine))
	}
}
