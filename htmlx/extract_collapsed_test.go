package htmlx

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// collapsedPage wraps hidden markup in an article with enough prose to
// be the page's main content.
func collapsedPage(hidden string) string {
	prose := strings.Repeat("The club meets on Thursdays to restore old bicycles and to teach repairs to newcomers. ", 4)
	return `<html><head><style>.is-closed{display:none}</style></head><body><main><h1>Bicycle club</h1><p>` + prose + `</p>` +
		hidden + `<p>` + prose + `</p></main></body></html>`
}

// TestREQ_CTX_005_ReadCollapsed: the maintainers' amendment. Read by
// default (1) a closed details, its summary first; (2) a disclosure
// panel hidden by the hidden attribute, an inline style or a class rule:
// role=tabpanel, or an element named by aria-controls on a role=tab or
// aria-expanded control, before or after it; (3) a noscript fallback
// only on a script shell (TestREQ_PAGE_006_ShownByScripts), never beside
// visible content; (4) nothing else hidden. The strict reading
// (Limits.StrictHidden) reads none of it.
func TestREQ_CTX_005_ReadCollapsed(t *testing.T) {
	cases := []struct {
		name, hidden string
		read         bool // read by default
	}{
		{"closed details", `<details><summary>Opening hours</summary><p>PANELTEXT Tuesdays too.</p></details>`, true},
		{"tabpanel hidden attribute", `<div role="tabpanel" hidden><p>PANELTEXT Tuesdays too.</p></div>`, true},
		{"tabpanel inline style", `<div role="tabpanel" style="display: none"><p>PANELTEXT Tuesdays too.</p></div>`, true},
		{"tabpanel class rule", `<div role="tabpanel" class="is-closed"><p>PANELTEXT Tuesdays too.</p></div>`, true},
		{"tabpanel conventional class", `<section role="tabpanel" class="tab-pane hidden"><p>PANELTEXT Tuesdays too.</p></section>`, true},
		{"aria-expanded control before", `<button aria-expanded="false" aria-controls="faq-2">Hours?</button><div id="faq-2" style="visibility:hidden"><p>PANELTEXT Tuesdays too.</p></div>`, true},
		{"tab control after", `<div id="t2" class="is-closed"><p>PANELTEXT Tuesdays too.</p></div><ul><li><a role="tab" href="#t2" aria-controls="t1 t2">Hours</a></li></ul>`, true},
		{"aria-controls without tab or aria-expanded", `<a href="#x" aria-controls="x">More</a><div id="x" hidden><p>PANELTEXT Tuesdays too.</p></div>`, false},
		{"class name alone", `<div class="accordion-panel tab-pane" style="display:none"><p>PANELTEXT Tuesdays too.</p></div>`, false},
		{"tabpanel aria-hidden", `<div role="tabpanel" aria-hidden="true"><p>PANELTEXT Tuesdays too.</p></div>`, false},
		{"hidden inside a panel", `<div role="tabpanel" hidden><p>Shown in the panel.</p><p style="display:none">PANELTEXT Tuesdays too.</p></div>`, false},
		{"streamed segment after its placeholder", `<template id="B:0"></template><div hidden id="S:0"><p>PANELTEXT Tuesdays too.</p></div>`, true},
		{"streamed segment of a P placeholder", `<template id="P:1a"></template><div hidden id="S:1a"><p>PANELTEXT Tuesdays too.</p></div>`, true},
		{"streamed segment without placeholder", `<div hidden id="S:0"><p>PANELTEXT Tuesdays too.</p></div>`, false},
		{"streamed segment before its placeholder", `<div hidden id="S:0"><p>PANELTEXT Tuesdays too.</p></div><template id="B:0"></template>`, false},
		{"streamed segment of another placeholder", `<template id="B:1"></template><div hidden id="S:0"><p>PANELTEXT Tuesdays too.</p></div>`, false},
		{"streamed segment hidden by a style too", `<template id="B:0"></template><div hidden style="display:none" id="S:0"><p>PANELTEXT Tuesdays too.</p></div>`, false},
		{"streamed segment hidden by a style alone", `<template id="B:0"></template><div style="display:none" id="S:0"><p>PANELTEXT Tuesdays too.</p></div>`, false},
		{"hidden inside a streamed segment", `<template id="B:0"></template><div hidden id="S:0"><p>Shown in the segment.</p><p hidden>PANELTEXT Tuesdays too.</p></div>`, false},
		{"noscript beside content", `<noscript><p>PANELTEXT Tuesdays too.</p></noscript>`, false},
		{"display none", `<div style="display:none"><p>PANELTEXT Tuesdays too.</p></div>`, false},
		{"visibility hidden", `<div style="visibility:hidden"><p>PANELTEXT Tuesdays too.</p></div>`, false},
		{"off screen", `<div style="position:absolute;left:-9999px"><p>PANELTEXT Tuesdays too.</p></div>`, false},
		{"zero size", `<div style="font-size:0"><p>PANELTEXT Tuesdays too.</p></div>`, false},
		{"template", `<template><p>PANELTEXT Tuesdays too.</p></template>`, false},
		{"comment", `<!-- <p>PANELTEXT Tuesdays too.</p> -->`, false},
	}
	for _, strict := range []bool{true, false} {
		for _, c := range cases {
			page, err := ExtractHTML(collapsedPage(c.hidden), nil, Limits{StrictHidden: strict})
			if err != nil || !strings.Contains(page.Markdown, "restore old bicycles") {
				t.Fatalf("%s, strict=%v: %v %q", c.name, strict, err, page.Markdown)
			}
			want := c.read && !strict
			if got := strings.Contains(page.Markdown, "PANELTEXT"); got != want {
				t.Errorf("%s, strict=%v: hidden text read = %v, want %v\n%s", c.name, strict, got, want, page.Markdown)
			}
		}
	}
}

// TestREQ_CTX_005_DetailsSummaryFirst: a closed details is read with its
// summary first, wherever the markup puts it; strictly, only the summary
// shows.
func TestREQ_CTX_005_DetailsSummaryFirst(t *testing.T) {
	doc := collapsedPage(`<details><p>BODYTEXT on Tuesdays.</p><summary>SUMMARYTEXT hours</summary></details>`)
	page, err := ExtractHTML(doc, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	s, b := strings.Index(page.Markdown, "SUMMARYTEXT"), strings.Index(page.Markdown, "BODYTEXT")
	if s < 0 || b < 0 || s > b {
		t.Errorf("summary at %d, body at %d:\n%s", s, b, page.Markdown)
	}
	page, err = ExtractHTML(doc, nil, Limits{StrictHidden: true})
	if err != nil || !strings.Contains(page.Markdown, "SUMMARYTEXT") || strings.Contains(page.Markdown, "BODYTEXT") {
		t.Errorf("strict: %v\n%s", err, page.Markdown)
	}
}

// TestREQ_CTX_005_DisclosureBounds: the relations a parse keeps are
// bounded; an id beyond maxIDLen is never a panel, and controls beyond
// maxControls name nothing more (the panel stays hidden, the strict
// reading).
func TestREQ_CTX_005_DisclosureBounds(t *testing.T) {
	long := strings.Repeat("i", maxIDLen+1)
	page, err := ExtractHTML(collapsedPage(`<button aria-expanded="false" aria-controls="`+long+`">x</button><div id="`+long+`" hidden><p>PANELTEXT</p></div>`), nil, Limits{})
	if err != nil || strings.Contains(page.Markdown, "PANELTEXT") {
		t.Errorf("long id: %v %q", err, page.Markdown)
	}
	var sb strings.Builder
	for i := 0; i < maxControls; i++ {
		sb.WriteString(`<button aria-expanded="false" aria-controls="c` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strconv.Itoa(i) + `">x</button>`)
	}
	sb.WriteString(`<button aria-expanded="false" aria-controls="last">x</button><div id="last" hidden><p>PANELTEXT</p></div>`)
	page, err = ExtractHTML(collapsedPage(sb.String()), nil, Limits{})
	if err != nil || strings.Contains(page.Markdown, "PANELTEXT") {
		t.Errorf("beyond maxControls: %v %q", err, page.Markdown)
	}
}

// TestREQ_CTX_005_NoscriptOfAShellWithStructuredData: a thread whose
// markup shows nothing while its posts wait in a noscript fallback is a
// script shell even when its structured data stands in with a summary;
// read collapsed, the fallback's posts are the content. Strictly, only
// the structured data's summary is.
func TestREQ_CTX_005_NoscriptOfAShellWithStructuredData(t *testing.T) {
	post := strings.Repeat("Which eyepiece suits a small refractor for planets and the moon on winter nights? ", 4)
	ld := `<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Eyepieces","text":"SUMMARYWORDS of the first post, as the site states it for search engines, in a sentence or two of its own."}</script>`
	code := "<script>" + strings.Repeat("window.app.boot(document.getElementById('main'));\n", 40) + "</script>"
	doc := `<html><head><title>Eyepieces</title>` + ld + `</head><body><section id="splash"><div class="dots"></div></section>` +
		`<noscript><div class="post"><p>FALLBACKPOST ` + post + `</p></div><div class="post"><p>SECONDREPLY ` + post + `</p></div></noscript>` + code + `</body></html>`
	page, err := ExtractHTML(doc, nil, Limits{})
	if err != nil || !strings.Contains(page.Markdown, "FALLBACKPOST") || !strings.Contains(page.Markdown, "SECONDREPLY") {
		t.Errorf("read collapsed: %v\n%s", err, page.Markdown)
	}
	page, err = ExtractHTML(doc, nil, Limits{StrictHidden: true})
	if err != nil || strings.Contains(page.Markdown, "FALLBACKPOST") || !strings.Contains(page.Markdown, "SUMMARYWORDS") {
		t.Errorf("strict: %v\n%s", err, page.Markdown)
	}
	// the same page with posts of its own in the markup keeps its
	// noscript unread
	shown := strings.Replace(doc, `<div class="dots"></div>`, `<article><p>`+post+`</p><p>`+post+`</p></article>`, 1)
	page, err = ExtractHTML(shown, nil, Limits{})
	if err != nil || strings.Contains(page.Markdown, "FALLBACKPOST") {
		t.Errorf("visible posts: %v\n%s", err, page.Markdown)
	}
}

// TestREQ_CTX_005_PanelIDIsTheElementsOwn: the id that makes a hidden
// element a panel is its own, never one read from an earlier tag (a
// meta, a base) whose attributes were read for other reasons.
func TestREQ_CTX_005_PanelIDIsTheElementsOwn(t *testing.T) {
	doc := `<html><body><main><h1>Bicycle club</h1><p>` +
		strings.Repeat("The club meets on Thursdays to restore old bicycles and to teach repairs. ", 4) +
		`</p><button aria-expanded="false" aria-controls="p1">More</button><meta id="p1" itemprop="x" content="y"><div hidden><p>PANELTEXT</p></div></main></body></html>`
	page, err := ExtractHTML(doc, nil, Limits{})
	if err != nil || strings.Contains(page.Markdown, "PANELTEXT") {
		t.Errorf("%v\n%s", err, page.Markdown)
	}
}

// TestREQ_CTX_005_StreamedSegmentTakesItsPlaceholdersPlace: a streaming
// renderer sends the shell with empty placeholders and the parts at the
// end of the document; the reader sees each part where its placeholder
// stood, so the extraction reads it there, a segment inside a segment
// included.
func TestREQ_CTX_005_StreamedSegmentTakesItsPlaceholdersPlace(t *testing.T) {
	prose := strings.Repeat("The club meets on Thursdays to restore old bicycles and to teach repairs to newcomers. ", 3)
	doc := `<html><body><header><a href="/">Club</a></header><main><h1>Bicycle club</h1><p>FIRST ` + prose + `</p>` +
		`<!--$?--><template id="B:0"></template><!--/$--><p>LAST ` + prose + `</p></main><footer>Contact us</footer>` +
		`<div hidden id="S:0"><p>SECOND ` + prose + `</p><!--$?--><template id="B:1"></template><!--/$--></div>` +
		`<div hidden id="S:1"><p>THIRD ` + prose + `</p></div></body></html>`
	page, err := ExtractHTML(doc, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) int { return strings.Index(page.Markdown, s) }
	if !(at("FIRST") >= 0 && at("FIRST") < at("SECOND") && at("SECOND") < at("THIRD") && at("THIRD") < at("LAST")) {
		t.Errorf("streamed parts not in their placeholders' places:\n%s", page.Markdown)
	}
	strict, err := ExtractHTML(doc, nil, Limits{StrictHidden: true})
	if err != nil || strings.Contains(strict.Markdown, "SECOND") || strings.Contains(strict.Markdown, "THIRD") {
		t.Errorf("strict reading read a streamed segment: %v\n%s", err, strict.Markdown)
	}
}

// TestREQ_CTX_005_StreamedShellIsRead: a page whose whole content is
// streamed after an empty shell was answered as shown only through
// scripts; its segments are its content.
func TestREQ_CTX_005_StreamedShellIsRead(t *testing.T) {
	prose := strings.Repeat("Pruning an apple tree in late winter opens its crown to light and air. ", 6)
	doc := `<html><body><div id="app"><!--$?--><template id="B:0"></template><!--/$--></div>` +
		`<script>` + strings.Repeat("self.__f.push([1,\"x\"]);", 200) + `</script>` +
		`<div hidden id="S:0"><article><h1>Pruning</h1><p>` + prose + `</p></article></div></body></html>`
	page, err := ExtractHTML(doc, nil, Limits{})
	if err != nil || !strings.Contains(page.Markdown, "opens its crown") {
		t.Errorf("default reading: %v\n%s", err, page.Markdown)
	}
	if _, err := ExtractHTML(doc, nil, Limits{StrictHidden: true}); !errors.Is(err, ErrShownByScripts) {
		t.Errorf("strict reading: err = %v, want ErrShownByScripts", err)
	}
}

// TestREQ_CTX_005_FadeIns: a page whose text waits in elements at an
// inline opacity:0 alone (the first frame of an entrance animation) is
// read with them shown when they hold most of its text: one wrapper of a
// script shell, the main part under a visible header, or several
// sections. What is hidden inside them stays hidden; display:none,
// visibility:hidden, a class or aria-hidden never make a fade-in; a page
// that shows its text keeps its few faded pieces out; the strict reading
// shows none.
func TestREQ_CTX_005_FadeIns(t *testing.T) {
	prose := strings.Repeat("Pruning an apple tree in late winter opens its crown to light and air. ", 16)
	page := func(body string) string {
		return `<html><head><style>.hide{display:none}</style></head><body><a href="/">Orchard</a>` + body + `</body></html>`
	}
	cases := []struct {
		name, doc string
		read      bool
	}{
		{"one wrapper", page(`<div style="opacity:0" class="page-wrapper"><article><h1>Pruning</h1><p>VEILED ` + prose + `</p></article></div>`), true},
		{"the main part", page(`<header><a href="/about">About</a></header><main style="opacity: 0"><h1>Pruning</h1><p>VEILED ` + prose + `</p></main>`), true},
		{"several sections", page(`<main><h1>Pruning</h1>` + strings.Repeat(`<section style="opacity:0;transform:translate3d(0, 60px, 0)"><p>VEILED `+prose[:400]+`</p></section>`, 4) + `</main>`), true},
		{"hidden inside a fade-in", page(`<div style="opacity:0"><main><p>` + prose + `</p><p style="display:none">VEILED, hidden twice.</p></main></div>`), false},
		{"visibility:hidden", page(`<div style="visibility:hidden;min-height:100vh"><main><p>VEILED ` + prose + `</p></main></div>`), false},
		{"display:none", page(`<div style="display:none"><main><p>VEILED ` + prose + `</p></main></div>`), false},
		{"a hiding class", page(`<div class="root hide"><main><p>VEILED ` + prose + `</p></main></div>`), false},
		{"aria-hidden", page(`<div aria-hidden="true"><main><p>VEILED ` + prose + `</p></main></div>`), false},
		{"opacity with the hidden attribute", page(`<div hidden style="opacity:0"><main><p>VEILED ` + prose + `</p></main></div>`), false},
		{"opacity with visibility", page(`<div style="opacity:0;visibility:hidden"><main><p>VEILED ` + prose + `</p></main></div>`), false},
		{"less than the page shows twice", page(`<article><h1>Orchard</h1><p>` + prose + `</p></article><div style="opacity:0"><p>VEILED ` + prose + `</p></div>`), false},
		{"less than half of what the page hides", page(`<div style="opacity:0"><p>VEILED ` + prose[:700] + `</p></div><div style="display:none"><p>` + prose + `</p></div>`), false},
		{"too little", page(`<div style="opacity:0"><p>VEILED ` + prose[:300] + `</p></div>`), false},
	}
	for _, c := range cases {
		got, err := ExtractHTML(c.doc, nil, Limits{})
		if read := err == nil && strings.Contains(got.Markdown, "VEILED"); read != c.read {
			t.Errorf("%s: faded text read = %v, want %v (%v)\n%s", c.name, read, c.read, err, got.Markdown)
		}
		if c.read && !strings.Contains(got.Markdown, "opens its crown") {
			t.Errorf("%s: the faded text is missing:\n%s", c.name, got.Markdown)
		}
		strict, err := ExtractHTML(c.doc, nil, Limits{StrictHidden: true})
		if err == nil && strings.Contains(strict.Markdown, "VEILED") {
			t.Errorf("%s: the strict reading read a fade-in:\n%s", c.name, strict.Markdown)
		}
	}
}

// preorderError reports the first node of t whose index is not its place
// in a walk of the tree in document order (the extraction takes a node's
// subtree to be the indices from it to subtreeEnd).
func preorderError(t *tree) string {
	nodes := t.nodes
	want := int32(0)
	for n := int32(0); n != nilNode; n = documentNext(nodes, n) {
		if n != want {
			return "node " + strconv.Itoa(int(n)) + " is visited at place " + strconv.Itoa(int(want))
		}
		want++
	}
	if int(want) != len(nodes) {
		return strconv.Itoa(len(nodes)-int(want)) + " nodes out of the tree"
	}
	return ""
}

// TestMovedNodesKeepTheTreeInDocumentOrder: streamed segments moved into
// their placeholders and summaries moved to the front of their details
// leave the arena in document order, so every subtree is a range.
func TestMovedNodesKeepTheTreeInDocumentOrder(t *testing.T) {
	doc := `<html><body><main><p>one</p><template id="B:0"></template><p>two</p>` +
		`<details><p>body</p><summary>Sum <b>mary</b></summary><p>more</p></details>` +
		`<div><template id="P:1"></template></div></main><footer>end</footer>` +
		`<div hidden id="S:1"><p>inner <i>part</i></p></div>` +
		`<div hidden id="S:0"><p>streamed</p><ul><li>a</li><li>b</li></ul></div></body></html>`
	tr := parseOnce(doc, 1000, 64, readOpts{}, nil)
	if msg := preorderError(tr); msg != "" {
		t.Fatal(msg)
	}
	var words []string
	for _, n := range tr.nodes {
		if n.kind == kindText {
			words = append(words, strings.TrimSpace(n.text))
		}
	}
	got := strings.Join(words, " ")
	if want := "one streamed a b two Sum mary body more inner part end"; got != want {
		t.Errorf("texts in index order: %q, want %q", got, want)
	}
}
