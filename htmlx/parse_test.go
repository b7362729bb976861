package htmlx

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// treeString writes the parsed tree compactly: elements as name(...),
// text as "quoted", white space collapsed. It walks with a stack.
func treeString(t *tree) string {
	var b strings.Builder
	type item struct {
		n    int32
		exit bool
	}
	nodes := t.nodes
	stack := []item{}
	for c := nodes[0].last; c != nilNode; c = nodes[c].prev {
		stack = append(stack, item{n: c})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.exit {
			b.WriteByte(')')
			continue
		}
		nd := &nodes[it.n]
		if nd.kind == kindText {
			b.WriteString(`"` + strings.Join(strings.Fields(nd.text), " ") + `"`)
			continue
		}
		if nd.tag == 0 {
			b.WriteByte('?')
		} else {
			b.WriteString(nd.tag.String())
		}
		if nd.first == nilNode {
			continue
		}
		b.WriteByte('(')
		stack = append(stack, item{n: it.n, exit: true})
		for c := nd.last; c != nilNode; c = nodes[c].prev {
			stack = append(stack, item{n: c})
		}
	}
	return b.String()
}

func TestParseTreeRules(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"implied p end", `<p>a<p>b<div>c</div>`, `p("a")p("b")div("c")`},
		{"implied li end", `<ul><li>a<li>b</ul>`, `ul(li("a")li("b"))`},
		{"nested list keeps li open", `<ul><li>a<ul><li>b</ul><li>c</ul>`, `ul(li("a"ul(li("b")))li("c"))`},
		{"li closes through div", `<ul><li><div>a<li>b</ul>`, `ul(li(div("a"))li("b"))`},
		{"dd dt", `<dl><dt>a<dd>b<dt>c</dl>`, `dl(dt("a")dd("b")dt("c"))`},
		{"void elements", `<p>a<br>b<img alt=x>c<hr>d`, `p("a"br"b"img"c")hr"d"`},
		{"self-closing div opens", `<div/>a</div>b`, `div("a")"b"`},
		{"raw text", `<p>a<script>if (a<b) {}</p></script>b</p>`, `p("a""b")`},
		{"style", `<style>p{}</style><p>x`, `p("x")`},
		{"textarea", `<p>a<textarea><b>x</b></textarea>b`, `p("a""b")`},
		{"comment", `<p>a<!-- <b>x</b> -->b`, `p("a""b")`},
		{"stray end tags", `</div></p><p>a</span></b>b`, `p("a""b")`},
		{"misnested inline", `<p><b>a<i>b</b>c</i>d</p>`, `p(b("a"i("b"))"c""d")`},
		{"formatting across block", `<b>a<p>b</b>c</p>d`, `b("a"p("b""c")"d")`},
		{"unclosed a closed by new a", `<a href=x>a<a href=y>b`, `a("a")a("b")`},
		{"heading closes heading", `<h1>a<h2>b`, `h1("a")h2("b")`},
		{"template ignored", `<p>a<template><p>x</template>b`, `p("a""b")`},
		{"template end closes its content", `<div><template><div>x</template>y</div>z`, `div("y")"z"`},
		{"svg skipped", `<p>a<svg><text>x</text><path/></svg>b`, `p("a""b")`},
		{"svg breakout", `<svg><g><p>a</p>`, `p("a")`},
		{"math skipped", `<p>a<math><mi>x</mi></math>b`, `p("a""b")`},
		{"table cells", `<table><tr><td>a<td>b<tr><td>c</table>`, `table(tr(td("a")td("b"))tr(td("c")))`},
		{"table implied row", `<table><td>a</table>`, `table(tr(td("a")))`},
		{"table sections", `<table><thead><tr><th>h<tbody><tr><td>d</table>`, `table(thead(tr(th("h")))tbody(tr(td("d"))))`},
		{"foster parenting", `<table><tr>x<td>a</table>`, `"x"table(tr(td("a")))`},
		{"td outside table ignored", `<td>a</td><tr>b`, `"a""b"`},
		{"nested table", `<table><tr><td><table><tr><td>a</table>b</table>`, `table(tr(td(table(tr(td("a")))"b")))`},
		{"cell end ignored across table", `<table><tr><td><table><tr><td>a</td></tr></table></td></tr></table>`, `table(tr(td(table(tr(td("a"))))))`},
		{"select skipped", `<p>a<select><option>x<option>y</select>b`, `p("a""b")`},
		{"button skipped", `<p>a<button>x</button>b`, `p("a""b")`},
		{"hidden skipped", `<p>a<span hidden>x</span>b`, `p("a""b")`},
		{"pre keeps first newline out", "<pre>\nx\n y</pre>", `pre("x y")`},
		{"entities decoded once", `<p>&amp;lt; &lt;`, `p("&lt; <")`},
		{"end br is a br", `<p>a</br>b`, `p("a"br"b")`},
		{"html body head ignored", `<html><head><title>t</title></head><body><p>a</body></html>`, `p("a")`},
		{"custom element", `<my-el>a<my-el>b</my-el>c</my-el>d`, `?("a"?("b")"c")"d"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := parseHTML(tc.doc, defaultMaxNodes, defaultMaxDepth)
			got := treeString(tr)
			if got != tc.want {
				t.Errorf("tree of %q\n got %s\nwant %s", tc.doc, got, tc.want)
			}
			if tr.partial {
				t.Errorf("partial for %q", tc.doc)
			}
		})
	}
}

// TestParseRawOffsetsCoverDocument checks the invariant the zero-copy
// text relies on: the tokenizer's raw tokens are contiguous and cover
// the whole input.
func TestParseRawOffsetsCoverDocument(t *testing.T) {
	docs := []string{
		`<p>a &amp; b</p><script>x<y</script><textarea>&lt;</textarea>`,
		"<p>\r\nline\rline</p><!-- c --><!DOCTYPE html><?pi?>",
		`<a href="x>y">t</a><p a=/>q</p><br/>` + "\x00z",
		`<svg><![CDATA[ a<b ]]></svg>unterminated <!-- comment`,
		`<plaintext><p>all text`,
	}
	for _, doc := range docs {
		z := html.NewTokenizer(strings.NewReader(doc))
		n := 0
		for {
			tt := z.Next()
			n += len(z.Raw())
			if tt == html.ErrorToken {
				break
			}
		}
		if n != len(doc) {
			t.Errorf("raw tokens of %q cover %d bytes, want %d", doc, n, len(doc))
		}
	}
}

func TestParseKeepsTextOfDocument(t *testing.T) {
	doc := "<p>caf\u00e9 \r\n &eacute; x\x00y</p>"
	tr := parseHTML(doc, defaultMaxNodes, defaultMaxDepth)
	got := treeString(tr)
	// NUL stays in the node: the Markdown writer leaves it out and
	// counts it (REQ-SEC-015)
	if want := "p(\"caf\u00e9 \u00e9 x\x00y\")"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// depthOf returns the deepest element level of the tree, walking with a
// stack.
func depthOf(t *tree) int {
	type item struct {
		n     int32
		depth int
	}
	best := 0
	stack := []item{{0, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.depth > best {
			best = it.depth
		}
		for c := t.nodes[it.n].first; c != nilNode; c = t.nodes[c].next {
			if t.nodes[c].kind == kindElement {
				stack = append(stack, item{c, it.depth + 1})
			}
		}
	}
	return best
}

func TestREQ_PAGE_006_DepthBoundWhileParsing(t *testing.T) {
	nest := func(n int) string {
		return strings.Repeat("<div>", n) + "deep" + strings.Repeat("</div>", n) + "<p>after</p>"
	}
	tests := []struct {
		name        string
		levels      int
		maxDepth    int
		wantPartial bool
	}{
		{"one below the bound", 255, 256, false},
		{"exactly at the bound", 256, 256, false},
		{"one past the bound", 257, 256, true},
		{"far past the bound", 100000, 256, true},
		{"small bound", 4, 3, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := parseHTML(nest(tc.levels), defaultMaxNodes, tc.maxDepth)
			if tr.partial != tc.wantPartial {
				t.Fatalf("partial = %v, want %v", tr.partial, tc.wantPartial)
			}
			if d := depthOf(tr); d > tc.maxDepth {
				t.Errorf("tree depth %d exceeds the bound %d", d, tc.maxDepth)
			}
			got := treeString(tr)
			if !tc.wantPartial && (!strings.Contains(got, `"deep"`) || !strings.Contains(got, `"after"`)) {
				t.Errorf("content lost within the bound: %.80s", got)
			}
			if tc.wantPartial && strings.Contains(got, `"after"`) {
				t.Errorf("content after the cut was kept")
			}
		})
	}
}

func TestREQ_PAGE_006_NodeBoundWhileParsing(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("<p>first</p>")
	for i := 0; i < 150000; i++ {
		sb.WriteString("<span>w</span>")
	}
	doc := sb.String()
	tr := parseHTML(doc, 100000, defaultMaxDepth)
	if !tr.partial {
		t.Fatal("150000 elements did not make the parse partial")
	}
	if n := len(tr.nodes) - 1; n > 100000 {
		t.Errorf("%d nodes kept, bound 100000", n)
	}
	if !strings.HasPrefix(treeString(tr), `p("first")`) {
		t.Error("content before the cut is missing")
	}
	// a page exactly at the bound is whole
	exact := parseHTML(strings.Repeat("<b>x</b>", 50), 100, defaultMaxDepth)
	if exact.partial {
		t.Error("100 nodes with a bound of 100 is partial")
	}
	over := parseHTML(strings.Repeat("<b>x</b>", 50)+"<i>", 100, defaultMaxDepth)
	if !over.partial {
		t.Error("101 nodes with a bound of 100 is not partial")
	}
}

// TestParseUnclosedFormattingStaysLinear feeds thousands of distinct
// unclosed formatting elements: each costs one node, none is cloned.
func TestParseUnclosedFormattingStaysLinear(t *testing.T) {
	tags := []string{"b", "i", "em", "strong", "u", "s", "small", "font", "code", "tt"}
	var sb strings.Builder
	for i := 0; i < 20000; i++ {
		sb.WriteString("<" + tags[i%len(tags)] + ">x<p>y")
	}
	tr := parseHTML(sb.String(), defaultMaxNodes, defaultMaxDepth)
	// every start tag and text token makes at most one node
	if n := len(tr.nodes) - 1; n > 20000*4 {
		t.Errorf("%d nodes for 80000 tokens", n)
	}
}

// TestREQ_CTX_005_HiddenFormattingStaysHidden follows browsers: a hidden
// formatting element closed by a block end tag is reopened before the
// next text, so what follows stays hidden until its own end tag.
func TestREQ_CTX_005_HiddenFormattingStaysHidden(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"reopened in next paragraph", `<p>a<b hidden>x</p><p>y</p>`, `p("a")p`},
		{"own end tag ends it", `<p><b hidden>x</p><p>y</b>z</p>`, `pp("z")`},
		{"closed normally", `<p><b hidden>x</b>y</p><p>z</p>`, `p("y")p("z")`},
		{"cell boundary", `<table><tr><td><b hidden>x</td><td>y</table>`, `table(tr(tdtd("y")))`},
		{"visible formatting not reopened", `<p><b>x</p><p>y</p>`, `p(b("x"))p("y")`},
		{"nested hidden link", `<div><a hidden href=x>x</div><div>y</div><p>z</a>w`, `divdivp("w")`},
		{"quirks table inside hidden p", `<p hidden>a<table><tr><td>x</table>`, ``},
		{"standards table closes hidden p", `<!DOCTYPE html><p hidden>a<table><tr><td>x</table>`, `table(tr(td("x")))`},
		{"legacy doctype is quirks", `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p hidden>a<table><tr><td>x</table>`, ``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := treeString(parseHTML(tc.doc, defaultMaxNodes, defaultMaxDepth))
			if got != tc.want {
				t.Errorf("tree of %q\n got %s\nwant %s", tc.doc, got, tc.want)
			}
		})
	}
	// thousands of distinct hidden formatting elements stay hidden and
	// cost one node each at most
	var sb strings.Builder
	for i := 0; i < 5000; i++ {
		sb.WriteString(`<p><b hidden class="c` + strings.Repeat("x", i%7) + `">s</p>`)
	}
	tr := parseHTML(sb.String(), defaultMaxNodes, defaultMaxDepth)
	if got := treeString(tr); strings.Contains(got, `"s"`) || len(tr.nodes) > 5001 {
		t.Errorf("nodes=%d, hidden text shown: %v", len(tr.nodes), strings.Contains(got, `"s"`))
	}
	// hidden formatting elements in cells, each kept active, are bounded
	sb.Reset()
	sb.WriteString("<table><tr><td>")
	for i := 0; i < 100; i++ {
		sb.WriteString(`<table><tr><td><b hidden>s</b><i hidden>t<p>u</p>`)
	}
	tr = parseHTML(sb.String(), defaultMaxNodes, defaultMaxDepth)
	if got := treeString(tr); strings.Contains(got, `"t"`) || strings.Contains(got, `"u"`) || strings.Contains(got, `"s"`) {
		t.Errorf("hidden text shown: %.200s", got)
	}
}

func TestQuirksDoctype(t *testing.T) {
	tests := map[string]bool{
		"html": false,
		"HTML": false,
		`html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/x.dtd"`:      false,
		`html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"`:             false,
		`html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"`:                                        true,
		`html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd"`: false,
		`html PUBLIC "-//W3C//DTD HTML 3.2 Final//EN"`:                                                true,
		"svg": true,
	}
	for d, want := range tests {
		if got := quirksDoctype([]byte(d)); got != want {
			t.Errorf("quirksDoctype(%q) = %v, want %v", d, got, want)
		}
	}
}
