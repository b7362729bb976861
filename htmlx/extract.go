package htmlx

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/atom"
)

// Limits bound a parse (LIM-F10, LIM-F11). A zero or negative field means
// the book's value: 100000 nodes, 256 levels.
type Limits struct {
	MaxNodes int
	MaxDepth int
}

// The book's bounds (LIM-F10, LIM-F11).
const (
	defaultMaxNodes = 100000
	defaultMaxDepth = 256
)

// Page is what extraction yields: the title (decoded, not yet cleaned), the
// main content as Markdown, and whether a bound cut the document.
type Page struct {
	Title    string
	Markdown string
	Partial  bool
}

// ErrNothingExtracted: the document has no readable main content.
var ErrNothingExtracted = errors.New("htmlx: nothing could be extracted")

// ErrShownByScripts: the document has no readable main content, while it
// holds text it keeps out of sight (hidden until a script shows it, in a
// template a script fills in, in a noscript fallback) or the code of
// scripts that build the page: a page rendered by scripts, which are
// never run, and whose hidden text is never read. It wraps
// ErrNothingExtracted.
var ErrShownByScripts = fmt.Errorf("%w: the page shows its text only through scripts", ErrNothingExtracted)

// An empty page is one shown by scripts rather than an empty one when it
// keeps minVeiledChars of text out of sight, or holds minScriptBytes of
// script code.
const (
	minVeiledChars = 200
	minScriptBytes = 1024
)

// A page whose readable content is a remnant (fewer than maxRemnantWords
// words) is shown by scripts too when it keeps far more text out of
// sight (minRemnantVeiled characters) or carries an application's code
// (minRemnantScript bytes of script). The bars are higher than for an
// empty page: a short page that is short on purpose says what it has to
// say beside its analytics.
const (
	maxRemnantWords  = 16
	minRemnantVeiled = 1024
	minRemnantScript = 64 << 10
)

// linkTargetEnd returns the length of the link target s starts with
// ("](…)" after a link's text, or an autolink "<http…>"), 0 when it
// starts with none, or -1 when the target is never closed.
func linkTargetEnd(s string) int {
	for _, t := range [...]struct {
		open  string
		close byte
	}{{"](", ')'}, {"<http", '>'}} {
		if strings.HasPrefix(s, t.open) {
			j := strings.IndexByte(s, t.close)
			if j < 0 {
				return -1
			}
			return j + 1
		}
	}
	return 0
}

// remnant reports Markdown whose text has fewer than maxRemnantWords
// words. Link targets are not text; a word is a run of letters and
// digits, and each Han character or kana counts as one, since those
// scripts do not space their words.
func remnant(md string) bool {
	words, inWord := 0, false
	for i := 0; i < len(md); {
		if end := linkTargetEnd(md[i:]); end != 0 {
			if end < 0 {
				break
			}
			i, inWord = i+end, false
			continue
		}
		r, n := utf8.DecodeRuneInString(md[i:])
		i += n
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			words, inWord = words+1, false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if !inWord {
				words, inWord = words+1, true
			}
		default:
			inWord = false
		}
		if words >= maxRemnantWords {
			return false
		}
	}
	return true
}

// ExtractHTML returns the main content of an HTML document (already UTF-8)
// as Markdown, led by the article's headline. Scripts, styles, templates,
// comments, form controls, embedded and hidden content never reach it;
// navigation, page headers and footers, sidebars, comments, share bars,
// link lists and teaser cards are left out. Content made of many blocks
// (the posts of a thread, the rows of a listing, the cards of a
// collection, the sections of a service page) is kept together. The
// page's structured data (application/ld+json, read as data and never
// run) stands in for content a page renders only with scripts, and adds
// a product's description or a question's answers the markup lacks.
// Links are made absolute against base (or the document's <base href>,
// when it is http(s)) and kept only when http(s); images contribute their
// alternative text, unless the words beside them say it already, the
// image is a link to another page (a thumbnail names the page it leads
// to) or the text says the image is a logo (a brand's mark).
//
// The bounds are enforced while parsing: the parse stops at the first
// element beyond lim.MaxDepth levels or the first node beyond
// lim.MaxNodes, and the content before the cut is extracted with Partial
// set. When no content can be found, the Page still carries the title and
// Partial, and the error is ErrNothingExtracted, or ErrShownByScripts
// (which wraps it) when the page keeps text out of sight.
func ExtractHTML(doc string, base *url.URL, lim Limits) (Page, error) {
	maxNodes, maxDepth := lim.MaxNodes, lim.MaxDepth
	if maxNodes <= 0 {
		maxNodes = defaultMaxNodes
	}
	if maxDepth <= 0 {
		maxDepth = defaultMaxDepth
	}
	page, _, err := extractHTML(doc, base, maxNodes, maxDepth)
	return page, err
}

// extractHTML is ExtractHTML; it also returns the length of the
// headline written before the content root's text (0 when none was),
// which the benchmarks of article bodies set aside.
func extractHTML(doc string, base *url.URL, maxNodes, maxDepth int) (Page, int, error) {
	t := parseHTML(doc, maxNodes, maxDepth)
	page := Page{Title: validUTF8(pageTitle(t)), Partial: t.partial}
	md, headLen := extractMain(t, documentBase(base, t.baseHref), page.Title)
	page.Markdown = validUTF8(md)
	if page.Markdown == "" {
		if t.veiledChars >= minVeiledChars || t.scriptBytes >= minScriptBytes {
			return page, 0, ErrShownByScripts
		}
		return page, 0, ErrNothingExtracted
	}
	if (t.veiledChars >= minRemnantVeiled || t.scriptBytes >= minRemnantScript) && remnant(page.Markdown) {
		// what shows is a scrap of the page's frame (its name, a
		// "Skip to content", a copyright line) while its text waits for
		// scripts: handing the scrap over as the page's content would
		// give a confident, wrong picture of it
		page.Markdown = ""
		return page, 0, ErrShownByScripts
	}
	if len(page.Markdown) != len(md) {
		headLen = 0
	}
	return page, headLen, nil
}

// ExtractText passes a plain-text or Markdown body through (line ends
// normalised, invalid UTF-8 replaced); the title is the first "# "
// heading of Markdown, if any. A blank body yields ErrNothingExtracted.
func ExtractText(body string, markdown bool) (Page, error) {
	text := validUTF8(normalizeLineEnds(body))
	page := Page{Markdown: text}
	if markdown {
		page.Title = firstMarkdownHeading(text)
	}
	if strings.TrimSpace(text) == "" {
		page.Markdown = ""
		return page, ErrNothingExtracted
	}
	return page, nil
}

// validUTF8 replaces what is not UTF-8 in a document that was supposed
// to be.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

func normalizeLineEnds(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// firstMarkdownHeading returns the text of the first ATX "# " heading
// outside fenced code.
func firstMarkdownHeading(text string) string {
	fence := ""
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		trimmed := strings.TrimLeft(line, " ")
		if len(line)-len(trimmed) > 3 {
			continue
		}
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			n := 0
			for n < len(trimmed) && trimmed[n] == trimmed[0] {
				n++
			}
			fence = trimmed[:n]
			continue
		}
		if strings.HasPrefix(trimmed, "# ") || trimmed == "#" {
			h := strings.TrimSpace(trimmed[1:])
			// a closing sequence of #s is not part of the heading
			if t := strings.TrimRight(h, "#"); t != h && (t == "" || strings.HasSuffix(t, " ")) {
				h = strings.TrimSpace(t)
			}
			if h != "" {
				return h
			}
		}
	}
	return ""
}

// documentBase is the base for links: the document's <base href> when it
// resolves to http(s), else the page address.
func documentBase(base *url.URL, baseHref string) *url.URL {
	if baseHref == "" {
		return base
	}
	u, err := url.Parse(baseHref)
	if err != nil {
		return base
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return u
	}
	return base
}

// pageTitle chooses the title: <title>, with a trailing site name removed
// only when it is the one og:site_name declares or what og:title leaves
// over; og:title when there is no <title>.
func pageTitle(t *tree) string {
	title := titleSpace(t.title)
	og := titleSpace(t.ogTitle)
	site := titleSpace(t.siteName)
	if title == "" {
		return og
	}
	if og != "" && len(og) < len(title) && strings.HasPrefix(title, og) {
		if isTitleSeparator(title[len(og):]) {
			return og
		}
	}
	if site != "" && len(site) < len(title) && strings.HasSuffix(title, site) {
		head := title[:len(title)-len(site)]
		if i := titleSeparatorSuffix(head); i > 0 {
			return strings.TrimSpace(head[:i])
		}
	}
	return title
}

var titleSeparators = []string{" | ", " - ", " – ", " — ", " · ", " :: ", " • ", " / ", ": "}

// isTitleSeparator reports whether rest is a separator and a site name.
func isTitleSeparator(rest string) bool {
	for _, sep := range titleSeparators {
		if strings.HasPrefix(rest, sep) && len(rest) > len(sep) {
			return true
		}
	}
	return false
}

// titleSeparatorSuffix returns where a trailing separator starts in head,
// or -1.
func titleSeparatorSuffix(head string) int {
	for _, sep := range titleSeparators {
		s := strings.TrimRight(sep, " ")
		h := strings.TrimRight(head, " ")
		if strings.HasSuffix(h, strings.TrimLeft(s, " ")) && len(h) > len(strings.TrimLeft(s, " ")) {
			i := len(h) - len(strings.TrimLeft(s, " "))
			if i > 0 && head[i-1] == ' ' || sep == ": " {
				return i
			}
		}
	}
	return -1
}

func titleSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// stats bits
const (
	bitHasBlock  uint8 = 1 << iota // a block element below
	bitHasTable                    // a table below
	bitDataTable                   // a table rendered as a pipe table
	bitGood                        // the block reads as prose
	bitTitleLink                   // a block below is a link and little else
	bitImgLink                     // an image inside a link below
	bitOwnImg                      // the block holds an image of its own
	bitCode                        // a code block (<pre>) below
)

// propagated are the bits a parent inherits from its children.
const propagated = bitHasBlock | bitHasTable | bitTitleLink | bitImgLink | bitCode

// nodeStats are the measures of one node: totals over its subtree with
// boilerplate left out, and for a block its own inline text.
type nodeStats struct {
	chars     int32 // text characters below
	linkChars int32 // of which inside links
	punct     int32
	ownChars  int32 // inline text of the block itself
	ownLink   int32
	ownPunct  int32
	good      int32 // characters of prose blocks below
	score     float32
	cells     int32
	maxCell   int32
	lastText  int32 // the block's last own text node, 0 when none
	firstText int32 // and its first
	linkItems int32 // blocks below whose own text is a link and little else
	bits      uint8
}

// extractor holds the per-node measures of one document.
type extractor struct {
	t    *tree
	st   []nodeStats
	junk []bool
	// consent marks what lies in a cookie or consent banner or dialog
	consent []bool
	inLink  []bool
	block   []int32
	raw     []int32 // text below each node, nothing left out
	// negative marks elements that look like chrome themselves
	negative []bool
	title    string
	// product: the page declares itself one product: og:type product,
	// or exactly one Product in its JSON-LD or microdata (a page that
	// lists products declares several)
	product bool
}

func newExtractor(t *tree, title string) *extractor {
	n := len(t.nodes)
	x := &extractor{
		t:       t,
		st:      make([]nodeStats, n),
		junk:    make([]bool, n),
		consent: make([]bool, n),
		inLink:  make([]bool, n),
		block:   make([]int32, n),
		title:   title,
	}
	x.structure()
	x.tabWidgets()
	x.raw = x.rawChars()
	x.markJunk(x.raw)
	x.measure()
	return x
}

// extractMain chooses the content root, prunes it and writes it as
// Markdown behind its headline; it falls back to the whole page without
// its chrome, then to the whole page, before giving up.
//
// headLen is the length of the headline written first (0 when none was).
func extractMain(t *tree, base *url.URL, title string) (md string, headLen int) {
	var ld ldText
	if len(t.ldjson) > 0 {
		ld = structuredText(t.ldjson)
	}
	x := newExtractor(t, title)
	x.product = ld.products == 1 || t.productItems == 1 || productType(t.ogType)
	root, lenient, tail := x.contentRoot(x.chooseRoot())
	drop := x.prune(root, lenient)
	if tail != nilNode {
		// the root took in what leads into its prose (contentRoot):
		// what follows that prose stays out
		for i, end := tail, subtreeEnd(t.nodes, root); i < end; i++ {
			drop[i] = true
		}
	}
	h := x.headline(root)
	if h != nilNode && x.within(h, root) {
		// the headline leads, wherever the page put it
		drop[h] = true
	}
	head := ""
	if h != nilNode && h != root {
		// (a root that is the headline itself writes it once)
		head = x.headlineMarkdown(h)
	}
	// repeats are left out of content made of many blocks, and of pages
	// that are not articles (an article may repeat a line on purpose);
	// a thread of posts is many blocks however its page is declared,
	// and its posts repeat what they quote
	md = renderMarkdownOpt(t, x.st, drop, root, base, title, head, lenient || !x.declaredArticle() || x.isThread(root))
	if md == "" && root != 0 {
		md = renderMarkdown(t, x.st, x.prune(0, false), 0, base, title, "")
	}
	if md == "" {
		md = renderMarkdown(t, x.st, nil, 0, base, title, "")
	}
	if len(t.ldjson) > 0 {
		// the page's structured data finds the content of a page
		// rendered by scripts, and completes what the markup hides
		md = completeFromStructured(md, ld)
	}
	if head != "" && strings.HasPrefix(md, head) {
		headLen = len(head)
	}
	return md, headLen
}

// productType reports an Open Graph type naming one product ("product",
// "product.item", "shop:product"), not a group of them.
func productType(og string) bool {
	return og == "product" || og == "product.item" || strings.HasSuffix(og, ":product")
}

// headlineMarkdown writes the headline as an ATX heading of its own level
// (1 for an element that is not a heading).
func (x *extractor) headlineMarkdown(h int32) string {
	text := x.textOf(h)
	if text == "" {
		return ""
	}
	level := max(headingLevel(x.t.nodes[h].tag), 1)
	return strings.Repeat("#", level) + " " + text
}

// structure fills the links and blocks of every node, top down.
func (x *extractor) structure() {
	nodes := x.t.nodes
	x.block[0] = 0
	for i := 1; i < len(nodes); i++ {
		nd := &nodes[i]
		p := nd.parent
		x.inLink[i] = x.inLink[p] || (nd.kind == kindElement && nd.tag == atom.A && isPageLink(nd.text))
		if nd.kind == kindElement && isBlockTag(nd.tag) {
			x.block[i] = int32(i)
		} else {
			x.block[i] = x.block[p]
		}
	}
}

// tabWidgets takes the chrome verdict away from a role=tablist element
// that holds a role=tabpanel: the bar of tabs is chrome, but an element
// so named around the panels too is the tab widget, whose panels hold
// the page's content (a shop's grid, a profile's favourites).
func (x *extractor) tabWidgets() {
	if x.t.tablists == 0 {
		return
	}
	nodes := x.t.nodes
	panel := make([]bool, len(nodes))
	for i := len(nodes) - 1; i >= 1; i-- {
		nd := &nodes[i]
		if nd.flags&flagTabpanel != 0 {
			panel[i] = true
		}
		if !panel[i] {
			continue
		}
		panel[nd.parent] = true
		if nd.flags&flagTablist != 0 {
			nd.flags &^= flagChrome
		}
	}
}

// rawChars counts the text below every node before anything is judged.
func (x *extractor) rawChars() []int32 {
	nodes := x.t.nodes
	raw := make([]int32, len(nodes))
	for i := len(nodes) - 1; i >= 1; i-- {
		if nodes[i].kind == kindText {
			raw[i] = nodes[i].chars
		}
		raw[nodes[i].parent] += raw[i]
	}
	return raw
}

// markJunk marks page chrome and boilerplate, top down: negative[i]
// says the element itself looks like chrome (by tag, role or class),
// junk[i] that it or an ancestor does. Junk is evidence here: it lowers
// scores, and prune removes it only where it is not most of the content.
func (x *extractor) markJunk(raw []int32) {
	nodes := x.t.nodes
	// an element named as a review is a reader's, one of the comments,
	// on a page that is not an article, or inside a comment or reviews
	// section; elsewhere in a declared article it is the article's own
	// (the reviewed items of a product roundup) and stays content
	article := x.declaredArticle()
	inComment := make([]bool, len(nodes))
	for i := 1; i < len(nodes); i++ {
		nd := &nodes[i]
		if nd.hints&hintReview != 0 && (!article || inComment[nd.parent]) {
			nd.hints |= hintComment
		}
		inComment[i] = inComment[nd.parent] || nd.hints&hintComment != 0
	}
	x.negative = make([]bool, len(nodes))
	img := x.imagesBelow()
	inArticle := make([]bool, len(nodes))
	inCode := make([]bool, len(nodes))
	for i := 1; i < len(nodes); i++ {
		nd := &nodes[i]
		p := nd.parent
		inArticle[i] = inArticle[p]
		inCode[i] = inCode[p]
		if nd.kind != kindElement || inCode[i] {
			// inside code, classes are a highlighter's tokens
			// ("hljs-comment", "token comment"), not page chrome
			x.junk[i] = x.junk[p]
			x.consent[i] = x.consent[p]
			continue
		}
		neg := false
		switch nd.tag {
		case atom.Pre, atom.Code:
			inCode[i] = true
		case atom.Article, atom.Main:
			inArticle[i] = true
		case atom.Nav, atom.Aside, atom.Menu:
			neg = true
		case atom.Header, atom.Footer:
			// the page's header and footer are chrome; an article's
			// own header holds its headline and standfirst
			neg = !inArticle[i]
		}
		if nd.flags&flagChrome != 0 {
			neg = true
		}
		if nd.hints&hintFilter != 0 && nd.hints&(hintArticleBody|hintMain) == 0 && headingLevel(nd.tag) == 0 && img != nil && !img[i] {
			// the filters of a listing or a shop's grid (facets,
			// refinements: labels, choices and counts) frame it; an
			// element so named that holds pictures is the filtered
			// results themselves
			neg = true
		}
		if nd.hints&hintsNegative != 0 && nd.hints&(hintArticleBody|hintMain) == 0 &&
			(headingLevel(nd.tag) == 0 || nd.hints&hintUserCard != 0) && !pagedResults(nd.hints, img != nil && img[i], raw[i]) {
			// a heading's class names its style, not chrome, unless
			// it names the heading's part (a post author's rank)
			neg = true
		}
		x.negative[i] = neg
		x.junk[i] = x.junk[p] || neg
		x.consent[i] = x.consent[p] || neg && nd.hints&hintConsent != 0
	}
}

// pagedResults reports an element named only for pagination ("pager",
// "filtering-and-pagination", hints h) that holds pictures and
// minPagedChars of text (chars): the results a pager pages through, not
// the bar of page numbers, which is short. Like the filters that hold
// pictures, it is content, not chrome.
func pagedResults(h uint32, pictures bool, chars int32) bool {
	return h&hintPager != 0 && h&hintsNegative == hintNav && pictures && chars >= minPagedChars
}

// minPagedChars is the text of an element named for pagination that
// holds the results it pages through.
const minPagedChars = 500

// imagesBelow marks the elements with an image below them, when the
// page names filters or pagination (nil otherwise), in one pass up the
// tree.
func (x *extractor) imagesBelow() []bool {
	nodes := x.t.nodes
	any := false
	for i := range nodes {
		if nodes[i].hints&(hintFilter|hintPager) != 0 {
			any = true
			break
		}
	}
	if !any {
		return nil
	}
	img := make([]bool, len(nodes))
	for i := len(nodes) - 1; i >= 1; i-- {
		if nodes[i].tag == atom.Img {
			img[i] = true
		}
		if img[i] {
			img[nodes[i].parent] = true
		}
	}
	return img
}

// measure computes the subtree measures and block scores, bottom up.
func (x *extractor) measure() {
	nodes := x.t.nodes
	st := x.st
	for i := len(nodes) - 1; i >= 0; i-- {
		nd := &nodes[i]
		s := &st[i]
		if nd.kind == kindText {
			s.chars = nd.chars
			s.punct = nd.punct
			if x.inLink[i] {
				s.linkChars = nd.chars
			}
			b := &st[x.block[i]]
			if nd.chars > 0 {
				if b.lastText == 0 {
					b.lastText = int32(i)
				}
				b.firstText = int32(i)
			}
			b.ownChars += nd.chars
			b.ownPunct += nd.punct
			if x.inLink[i] {
				b.ownLink += nd.chars
			}
		} else {
			if nd.tag == atom.Img {
				if x.inLink[i] {
					s.bits |= bitImgLink
				}
				st[x.block[i]].bits |= bitOwnImg
			}
			if isBlockTag(nd.tag) || i == 0 {
				if s.ownChars >= 3 && s.ownLink*5 >= s.ownChars*4 {
					s.bits |= bitTitleLink
					s.linkItems++
				}
				bs, good := blockScore(nd, s, nodes[s.firstText].text)
				if x.junk[i] {
					bs *= junkWeight
				}
				if x.consent[i] {
					// the legal prose of a cookie dialog is no
					// page's content, however long
					bs, good = 0, false
				}
				s.score += bs
				if good {
					s.good += s.ownChars
					s.bits |= bitGood
				}
			}
			switch nd.tag {
			case atom.Pre:
				if s.chars > 0 {
					s.bits |= bitCode
				}
			case atom.Ul, atom.Ol:
				x.listGoodness(int32(i))
			case atom.Td, atom.Th:
				s.cells = 1
				s.maxCell = s.chars
			case atom.Table:
				if s.bits&bitHasTable == 0 && s.cells >= 2 && s.maxCell <= 400 {
					s.bits |= bitDataTable
				}
			}
		}
		if i == 0 {
			break
		}
		p := &st[nd.parent]
		p.chars += s.chars
		p.linkChars += s.linkChars
		p.punct += s.punct
		p.good += s.good
		p.linkItems += s.linkItems
		p.score += s.score
		p.bits |= s.bits & propagated
		if nd.kind == kindElement {
			if isBlockTag(nd.tag) {
				p.bits |= bitHasBlock
			}
			if nd.tag == atom.Table {
				p.bits |= bitHasTable
			} else {
				p.cells += s.cells
				if s.maxCell > p.maxCell {
					p.maxCell = s.maxCell
				}
			}
		}
	}
}

// junkWeight scales the scores of blocks inside chrome.
const junkWeight = 0.25

// listGoodness takes prose status away from the items of a list where
// fewer than half of them read as prose: a list of selling points with
// one long line is not an article.
func (x *extractor) listGoodness(list int32) {
	nodes := x.t.nodes
	items, good := 0, 0
	for c := nodes[list].first; c != nilNode; c = nodes[c].next {
		if nodes[c].tag == atom.Li {
			items++
			if x.st[c].bits&bitGood != 0 {
				good++
			}
		}
	}
	if good == 0 || good*2 >= items {
		return
	}
	for c := nodes[list].first; c != nilNode; c = nodes[c].next {
		if nodes[c].tag == atom.Li && x.st[c].bits&bitGood != 0 {
			x.st[c].bits &^= bitGood
			x.st[c].good -= x.st[c].ownChars
			x.st[list].good -= x.st[c].ownChars
		}
	}
}

// isPageLink reports an href that leads to another page: not empty, not
// a fragment of this one, not a script.
func isPageLink(href string) bool {
	if href == "" || href[0] == '#' {
		return false
	}
	if len(href) >= 11 && strings.EqualFold(href[:11], "javascript:") {
		return false
	}
	return true
}

// blockScore rates the block's own inline text: prose scores its length,
// short fragments and link lists score below zero.
// first is the block's first text of its own.
func blockScore(nd *node, s *nodeStats, first string) (float32, bool) {
	c := s.ownChars
	if c == 0 {
		return 0, false
	}
	l := s.ownLink
	nonLink := float32(c - l)
	ld := float32(l) / float32(c)
	if ld > 0.5 {
		return -float32(c) * 0.5, false
	}
	penalty := float32(25)
	switch nd.tag {
	case atom.Td, atom.Th:
		// cells of a data table are short by nature; a long one is a
		// layout cell holding prose
		if c < 150 {
			return nonLink * 0.3, false
		}
	case atom.Li, atom.Dd, atom.Dt:
		penalty = 5
	}
	if s.ownPunct == 0 && c >= minUnpunctuated && !unstoppedScript(first) {
		// a long run of words without a full stop or a comma is a
		// list set as text (the towns and postcodes a business
		// serves, keywords, codes a script hides off screen), not
		// sentences: it scores as the cells of a table do
		return nonLink * 0.3, false
	}
	bonus := float32(min(s.ownPunct, 20)) * 3
	score := nonLink - penalty + bonus
	good := score > 40 && ld < 0.35 && headingLevel(nd.tag) == 0
	return score, good
}

// minUnpunctuated is the text of a block without sentence punctuation
// beyond which it is not prose.
const minUnpunctuated = 300

// unstoppedScript reports a block whose first text is in a script that
// writes sentences without punctuation (Thai, Lao, Khmer), or ends them
// with marks of its own that textCounts does not count (Armenian,
// Tibetan, Myanmar, Ethiopic): its prose may run on without a mark.
func unstoppedScript(first string) bool {
	for _, r := range first {
		switch {
		case r >= 0x0530 && r <= 0x058F, r >= 0x0E00 && r <= 0x0FFF, r >= 0x1000 && r <= 0x109F,
			r >= 0x1200 && r <= 0x137F, r >= 0x1780 && r <= 0x17FF:
			return true
		}
	}
	return false
}

// chooseRoot returns the element whose subtree scores best, looking
// inside the semantic container of the article when the page has one.
func (x *extractor) chooseRoot() int32 {
	scope := x.semanticScope()
	nodes := x.t.nodes
	within := make([]bool, len(nodes))
	within[scope] = true
	best := scope
	bestScore := float32(-1e30)
	for i := int(scope); i < len(nodes); i++ {
		nd := &nodes[i]
		if i != int(scope) {
			within[i] = within[nd.parent]
		}
		if !within[i] || nd.kind != kindElement {
			continue
		}
		s := x.st[i].score
		if s > 0 {
			boost := float32(1)
			if nd.tag == atom.Article {
				boost += 0.15
			}
			if nd.hints&hintArticleBody != 0 {
				boost += 0.25
			}
			if nd.tag == atom.Main || nd.hints&hintMain != 0 {
				boost += 0.1
			}
			s *= boost
		}
		// ties go to the deeper element, which comes later
		if s >= bestScore {
			best, bestScore = int32(i), s
		}
	}
	// descend while one child holds nearly all of the score: what the
	// parent adds is a footer or a caption, not more of the article
	for bestScore > 0 {
		next := nilNode
		for c := nodes[best].first; c != nilNode; c = nodes[c].next {
			if nodes[c].kind == kindElement && x.st[c].score >= bestScore*descendShare {
				next = c
				break
			}
		}
		if next == nilNode {
			break
		}
		best, bestScore = next, x.st[next].score
	}
	if scope != 0 && nodes[scope].hints&hintArticleBody != 0 && x.st[best].chars*2 < x.st[scope].chars {
		// the element the markup names as the article's body is the
		// article, when the best prose in it is a small part of it (a
		// post made of link lists around one paragraph)
		return scope
	}
	return best
}

// descendShare is the share of its parent's score at which a child is
// taken as the content root instead.
const descendShare = 0.9

// semanticScope returns the element that the markup names as the
// article (itemprop=articleBody or an article-body class, else a single
// dominant <article>, else <main>) when it holds a fair share of the
// page's prose, else the document.
func (x *extractor) semanticScope() int32 {
	nodes := x.t.nodes
	total := x.st[0].good
	if total == 0 {
		return 0
	}
	kinds := []func(nd *node) bool{
		func(nd *node) bool { return nd.hints&hintArticleBody != 0 },
		func(nd *node) bool { return nd.tag == atom.Article },
		func(nd *node) bool { return nd.tag == atom.Main || nd.hints&hintMain != 0 },
	}
	for _, is := range kinds {
		best, second := int32(-1), int32(0)
		for i := range nodes {
			nd := &nodes[i]
			if nd.kind != kindElement || !is(nd) {
				continue
			}
			g := x.st[i].good
			if best < 0 || g > x.st[best].good {
				if best >= 0 && !x.related(best, int32(i)) && x.st[best].good > second {
					second = x.st[best].good
				}
				best = int32(i)
			} else if !x.related(best, int32(i)) && g > second {
				second = g
			}
		}
		if best < 0 {
			continue
		}
		// marked siblings (paragraphs classed as the body) make their
		// parent the container
		parent := nodes[best].parent
		siblings := int32(0)
		for c := nodes[parent].first; c != nilNode; c = nodes[c].next {
			if c != best && nodes[c].kind == kindElement && is(&nodes[c]) {
				siblings += x.st[c].good
			}
		}
		if siblings > 0 && parent != nilNode {
			second -= min(second, siblings)
			best = parent
		}
		g := x.st[best].good
		if g >= 150 && g*5 >= total && g >= 2*second {
			return best
		}
	}
	return 0
}

// related reports whether a and b are on one line of descent (a < b in
// document order).
func (x *extractor) related(a, b int32) bool {
	if a > b {
		a, b = b, a
	}
	for n := b; n != nilNode && n >= a; n = x.t.nodes[n].parent {
		if n == a {
			return true
		}
	}
	return false
}

// linkList reports an element of blocks, without prose, whose text is
// mostly links: a menu, a list of related stories, a cloud of tags,
// which prune leaves out of a root of prose.
func (x *extractor) linkList(i int32) bool {
	s := &x.st[i]
	return s.chars > 0 && s.good == 0 && s.linkChars*2 > s.chars && s.bits&bitHasBlock != 0
}

// linkListKinds counts the lists of links inside root by kind (tag and
// class), on a page that is not an article, one product or a thread; it
// returns nil on those, whose lists of links linkSection does not judge.
func (x *extractor) linkListKinds(root int32) map[cardKey]int {
	if x.declaredArticle() || x.product || x.isThread(root) {
		return nil
	}
	nodes := x.t.nodes
	kinds := map[cardKey]int{}
	end := subtreeEnd(nodes, root)
	for i := root + 1; i < end; i++ {
		if nodes[i].kind == kindElement && x.linkList(i) {
			kinds[cardKey{nodes[i].tag, nodes[i].class}]++
		}
	}
	return kinds
}

// linkSection reports an element shaped as a list of links inside a
// root of prose that is a part of what the page says, on a page that is
// not an article, one product or a thread (kinds, from linkListKinds, is
// nil there):
//
//   - one link that wraps blocks, in wrappers of its own or not, is not
//     a list of links: it is a card (a service's name and what it does,
//     both inside the link) or a linked title; nor is what lies inside
//     it;
//   - a list that is the only one of its kind (tag and class) in the
//     root is a section of the page (the areas a service covers, the
//     firm's other services), unless it is a gallery of linked pictures
//     or opens with a heading naming related items. Lists of a kind that
//     recurs are the furniture of the root's items (the links in the
//     head of each post, under each answer) and go.
//
// On an article the same lists are the site's links around the story.
func (x *extractor) linkSection(i int32, kinds map[cardKey]int) bool {
	if kinds == nil {
		return false
	}
	nd := &x.t.nodes[i]
	if x.inLink[i] && nd.tag != atom.A || x.wrapsOneLink(i) {
		return true
	}
	return kinds[cardKey{nd.tag, nd.class}] == 1 && x.st[i].bits&bitImgLink == 0 && !x.opensWithRelated(i)
}

// wrapsOneLink reports an element that is one link wrapping blocks, or
// holds one in wrappers: the only child with text, down to the link.
// It looks through maxLeadScan nodes at most.
func (x *extractor) wrapsOneLink(i int32) bool {
	nodes := x.t.nodes
	seen := 0
	for n := i; ; {
		if nodes[n].tag == atom.A {
			return x.inLink[n] && x.st[n].bits&bitHasBlock != 0
		}
		only := nilNode
		for c := nodes[n].first; c != nilNode; c = nodes[c].next {
			if seen++; seen > maxLeadScan {
				return false
			}
			if nodes[c].kind == kindText && nodes[c].chars > 0 {
				return false
			}
			if nodes[c].kind == kindElement && x.st[c].chars > 0 {
				if only != nilNode {
					return false
				}
				only = c
			}
		}
		if only == nilNode {
			return false
		}
		n = only
	}
}

// opensWithRelated reports an element whose first line names related
// items ("Related news"). It looks through maxLeadScan nodes at most.
func (x *extractor) opensWithRelated(i int32) bool {
	nodes := x.t.nodes
	end := subtreeEnd(nodes, i)
	for k, n := i, 0; k < end && n < maxLeadScan; k, n = k+1, n+1 {
		if nodes[k].kind == kindText && nodes[k].chars > 0 {
			return x.relatedHeading(x.block[k])
		}
	}
	return false
}

// relatedOpenings are how headings over related items begin, lower-cased.
var relatedOpenings = []string{"related ", "similar ", "you may also ", "you might also ", "you may like",
	"you might like", "customers also ", "customers who ", "people also ", "people who ", "others also ", "others like you",
	"frequently bought", "recently viewed", "more like this", "recommended for you", "complete the look",
	"shop the look"}

// maxRelatedHeading bounds the text of a heading that names related
// items: a label, not a title.
const maxRelatedHeading = 60

// relatedHeading reports a heading whose text names related items.
func (x *extractor) relatedHeading(h int32) bool {
	if x.st[h].chars > maxRelatedHeading {
		return false
	}
	t := strings.TrimRight(strings.ToLower(x.textOf(h)), ":.!")
	if t == "related" || t == "similar" {
		return true
	}
	for _, o := range relatedOpenings {
		if strings.HasPrefix(t, o) {
			return true
		}
	}
	return false
}

// headedSection returns the largest ancestor of heading h below root
// whose text starts with h's and which holds no other heading of h's
// rank or above: the section h opens. It returns nilNode when h's parent
// is no such section. The scans grow with the ancestor, so each node is
// looked at once.
func (x *extractor) headedSection(h, root int32, level int) int32 {
	nodes := x.t.nodes
	sec := nilNode
	// no text from scanned to h; no heading of h's rank from h's
	// subtree to end
	scanned, end := h, subtreeEnd(nodes, h)
	for n := nodes[h].parent; n != nilNode && n > root; n = nodes[n].parent {
		for k := scanned - 1; k > n; k-- {
			if nodes[k].kind == kindText && nodes[k].chars > 0 {
				return sec
			}
		}
		scanned = n + 1
		for e := subtreeEnd(nodes, n); end < e; end++ {
			if l := headingLevel(nodes[end].tag); l > 0 && l <= level && nodes[end].kind == kindElement {
				return sec
			}
		}
		sec = n
	}
	return sec
}

// annotatedLinks reports a list of links that says something beside
// them: the items add words of their own to the linked names ("Fluke
// 117 - for most jobs"), as a list of resources or picks in an article
// does; a menu or a list of related stories is the links alone. An item
// that holds a list of its own is read the same way: the entry of an
// outline (a linked name, and below it the linked names of its parts,
// each with its type) is a list too.
func (x *extractor) annotatedLinks(i int32) bool {
	nd := &x.t.nodes[i]
	if nd.tag != atom.Ul && nd.tag != atom.Ol && nd.tag != atom.Li {
		return false
	}
	s := &x.st[i]
	return float32(s.linkChars) < annotatedLinkShare*float32(s.chars)
}

// annotatedLinkShare is the share of a list's text in its links below
// which the list is annotated.
const annotatedLinkShare = 0.9

// introducedList reports links that the text before them announces: the
// last text before the element, in its parent, is a sentence of its own
// (not a heading, not chrome inside root, mostly not links) that ends in
// a colon ("For more information, see:", "refer to the following
// pages:"). A document lists its references so; a menu or a list of
// related stories follows a heading, not a sentence leading into it.
func (x *extractor) introducedList(i, root int32) bool {
	nodes := x.t.nodes
	p := nodes[i].parent
	for k := i - 1; k > p; k-- {
		nd := &nodes[k]
		if nd.kind != kindText || nd.chars == 0 {
			continue
		}
		b := x.block[k]
		s := &x.st[b]
		if x.inChrome(b, root) || headingLevel(nodes[b].tag) > 0 || s.ownChars < minLeadInChars || s.ownLink*3 > s.ownChars {
			return false
		}
		return strings.HasSuffix(strings.TrimRight(nd.text, " \t\n\r\u00a0"), ":")
	}
	return false
}

// announcesList reports an element that holds a list its own sentence
// announces (introducedList): a section of a document made of a title,
// "Task guidance to help if you need to do the following:" and its list
// of links.
func (x *extractor) announcesList(i, root int32) bool {
	nodes := x.t.nodes
	for c := nodes[i].first; c != nilNode; c = nodes[c].next {
		if nd := &nodes[c]; nd.kind == kindElement && (nd.tag == atom.Ul || nd.tag == atom.Ol) && x.introducedList(c, root) {
			return true
		}
	}
	return false
}

// outline reports an element holding a list item that holds a list of
// its own: the outline of a document's parts (its chapters and their
// sections), not a flat list of stories.
func (x *extractor) outline(i int32) bool {
	nodes := x.t.nodes
	for k, end := i+1, subtreeEnd(nodes, i); k < end; k++ {
		if nd := &nodes[k]; nd.kind == kindElement && (nd.tag == atom.Ul || nd.tag == atom.Ol) && nodes[nd.parent].tag == atom.Li {
			return true
		}
	}
	return false
}

// listingCaption reports the caption of a figure that holds a code
// block: a code listing's title ("Listing 4-2: Assigning…"), which the
// text refers to by its number; not a photograph's caption or credit.
func (x *extractor) listingCaption(i int32) bool {
	nodes := x.t.nodes
	p := nodes[i].parent
	return nodes[i].tag == atom.Figcaption && p != nilNode && nodes[p].tag == atom.Figure && x.st[p].bits&bitCode != 0
}

// codeTabs reports a bar of tabs over code samples: a tab panel beside
// it (a child of one of its three nearest ancestors) holds a code block.
// The tabs name the samples ("npm", "yarn"; "Python", "Go"), which the
// code blocks do not.
func (x *extractor) codeTabs(i int32) bool {
	nodes := x.t.nodes
	p := nodes[i].parent
	for up := 0; up < 3 && p != nilNode; up++ {
		for c := nodes[p].first; c != nilNode; c = nodes[c].next {
			if nodes[c].flags&flagTabpanel != 0 && x.st[c].bits&bitCode != 0 {
				return true
			}
		}
		p = nodes[p].parent
	}
	return false
}

// seeAlso reports links under a heading that reads "See also": a
// document's own cross references (a manual's, an encyclopedia's),
// which a menu or a list of related stories never is. The heading leads
// the element, or is the element just before it.
func (x *extractor) seeAlso(i int32) bool {
	nodes := x.t.nodes
	h := nilNode
	end := subtreeEnd(nodes, i)
	for k := i + 1; k < end; k++ {
		if nodes[k].kind == kindText && nodes[k].chars > 0 {
			h = x.block[k]
			break
		}
	}
	if h == nilNode || headingLevel(nodes[h].tag) == 0 {
		h = nodes[i].prev
		for h != nilNode && nodes[h].kind == kindText && nodes[h].chars == 0 {
			h = nodes[h].prev
		}
		if h != nilNode && nodes[h].kind == kindElement && headingLevel(nodes[h].tag) == 0 && x.st[h].chars <= maxSeeAlso {
			// a wrapper that holds the heading alone
			// ("<div class=heading><h2>")
			for k, end := h+1, subtreeEnd(nodes, h); k < end; k++ {
				if nodes[k].kind == kindText && nodes[k].chars > 0 {
					if b := x.block[k]; x.st[b].chars == x.st[h].chars {
						h = b
					}
					break
				}
			}
		}
		if h == nilNode || headingLevel(nodes[h].tag) == 0 {
			return false
		}
	}
	return x.st[h].chars <= maxSeeAlso && seeAlsoKeys[matchKey(x.textOf(h))]
}

// maxSeeAlso bounds the text of a "See also" heading; seeAlsoKeys are
// the headings, as match keys, in some languages documentation is
// written in.
const maxSeeAlso = 16

var seeAlsoKeys = map[string]bool{"seealso": true, "voiraussi": true, "sieheauch": true,
	"véasetambién": true, "vertambién": true, "vejatambém": true, "vedianche": true}

// minLeadInChars is the text of a sentence that introduces a list.
const minLeadInChars = 15

// minMetaChars is the text outside the link that makes a linked title
// and its meta line an entry rather than a link.
const minMetaChars = 8

// titleAndMeta reports an element made of one linked title and text
// that is not linked (a date, an author, a price): the head of an entry
// in a list of posts or results, not a list of links.
func (x *extractor) titleAndMeta(i int32) bool {
	s := &x.st[i]
	return s.linkItems == 1 && s.chars-s.linkChars >= minMetaChars
}

// captionedCard reports an element classed as a caption that holds
// blocks of its own: the body of a card in a grid (a thumbnail's
// "caption" holding the product's name, maker and price), not the line
// under a photograph.
func (x *extractor) captionedCard(i int32) bool {
	return x.t.nodes[i].tag != atom.Figcaption && x.st[i].bits&bitHasBlock != 0
}

// languageLabel returns the element just before a code block whose text
// is the block's language and nothing else ("js", "Python"), or
// nilNode.
func (x *extractor) languageLabel(pre int32) int32 {
	nodes := x.t.nodes
	lang := nodes[pre].text
	if lang == "" {
		for c := nodes[pre].first; c != nilNode; c = nodes[c].next {
			if nodes[c].kind == kindElement {
				if nodes[c].tag == atom.Code {
					lang = nodes[c].text
				}
				break
			}
		}
	}
	if lang == "" {
		return nilNode
	}
	s := nodes[pre].prev
	for s != nilNode && nodes[s].kind == kindText && nodes[s].chars == 0 {
		s = nodes[s].prev
	}
	if s == nilNode || nodes[s].kind != kindElement || x.st[s].chars == 0 || x.st[s].chars > maxLabelChars || x.st[s].linkChars > 0 {
		return nilNode
	}
	if matchKey(x.textOf(s)) != matchKey(lang) {
		return nilNode
	}
	return s
}

// maxLabelChars bounds the text of a code block's language label.
const maxLabelChars = 24

// buttonItem reports an item of a list classed as buttons.
func (x *extractor) buttonItem(li int32) bool {
	nodes := x.t.nodes
	return nodes[li].tag == atom.Li && nodes[li].parent != nilNode && nodes[nodes[li].parent].hints&hintButton != 0
}

// maxPostNumber bounds the text of a post's number ("#1234567");
// maxPostHeader the other text of the line that holds it (a date).
const (
	maxPostNumber = 8
	maxPostHeader = 24
)

// postNumber reports a text that is "#" and a number.
func postNumber(t string) bool {
	if len(t) < 2 || t[0] != '#' {
		return false
	}
	for _, c := range t[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// maxButtonChars bounds the text of a link styled as a button that
// prune leaves out: a label, not a card made into a button.
const maxButtonChars = 40

// chromeIsContent reports a chrome element inside the root that prune
// keeps (see prune).
func (x *extractor) chromeIsContent(i int32, thread bool, kept map[cardKey]bool, lenient bool) bool {
	nd := &x.t.nodes[i]
	switch {
	case thread && x.onlyComment(i):
		return true
	case kept[cardKey{nd.tag, nd.class}]:
		return true
	case x.proseInChrome(i):
		return true
	case x.codeInChrome(i):
		return true
	case nd.flags&flagTablist != 0 && x.codeTabs(i):
		return true
	case x.headedBanner(i):
		return true
	}
	return lenient && !x.frameChrome(i) && !x.productChrome(i) && !x.shoppersSay(i)
}

// headedBanner reports a block named only as a promotion or a banner
// ("cta-banner", "promo-wildlife") that holds prose and is the whole of
// a section the page heads: its heading (h2 to h4) comes just before it,
// a rule between them at most, and the next heading or nothing just
// after. The page's own heading names what the banner says (a coupon
// page's "Wildlife offers" over its offer); an advert sits between
// paragraphs, or under a heading of its own inside it.
func (x *extractor) headedBanner(i int32) bool {
	nodes := x.t.nodes
	nd := &nodes[i]
	if nd.hints&hintsNegative&^(hintAd|hintCTA) != 0 || x.st[i].good == 0 {
		return false
	}
	switch nd.tag {
	case atom.Nav, atom.Aside, atom.Menu, atom.Header, atom.Footer:
		return false
	}
	prev := x.elementBeside(i, -1, true)
	if prev == nilNode {
		return false
	}
	if l := headingLevel(nodes[prev].tag); l < 2 || l > 4 || nodes[prev].hints&hintsNegative != 0 || x.relatedHeading(prev) {
		return false
	}
	next := x.elementBeside(i, 1, true)
	return next == nilNode || headingLevel(nodes[next].tag) > 0
}

// elementBeside returns the nearest element sibling of i before (dir
// -1) or after (dir 1) it, past rules (<hr>) when skipRules, or nilNode
// when text with words comes first or there is none.
func (x *extractor) elementBeside(i int32, dir int, skipRules bool) int32 {
	nodes := x.t.nodes
	for c := i; ; {
		if dir < 0 {
			c = nodes[c].prev
		} else {
			c = nodes[c].next
		}
		if c == nilNode {
			return nilNode
		}
		switch {
		case nodes[c].kind == kindText:
			if nodes[c].chars > 0 {
				return nilNode
			}
		case skipRules && nodes[c].tag == atom.Hr:
		default:
			return c
		}
	}
}

// shoppersSay reports an element named as reviews or feedback, chrome
// here, that holds no heading near its start: in content made of many
// blocks, what shoppers say of the shop or its products (the reviews
// beside a grid, the rating line of each card), not what the page lists.
// Reviews that are the page's own stories (a site's app or product
// reviews) each come under a title, and stay. It looks at maxLeadScan
// nodes at most.
func (x *extractor) shoppersSay(i int32) bool {
	nodes := x.t.nodes
	if nodes[i].hints&hintReview == 0 {
		return false
	}
	// a review that is one of the page's stories has a title
	for k, end := i, subtreeEnd(nodes, i); k < end && k-i < maxLeadScan; k++ {
		if nodes[k].kind == kindElement && headingLevel(nodes[k].tag) > 0 {
			return false
		}
	}
	return true
}

// testimonials reports an element classed as reviews or as a call to
// action, and as no other chrome, holding at least minTestimonials
// passages that open with a quotation mark, on a page that is not an
// article or one product: what a firm's clients said, set one after
// another ("“They answered every question…”"), which a service page
// shows as part of what it says. A shop's reviews are rated and dated,
// not quoted; readers' comments (classed as comments, not reviews) quote
// each other, and a page declared an article keeps its verdict. It looks
// through maxTestimonialScan nodes at most.
func (x *extractor) testimonials(i int32) bool {
	nodes := x.t.nodes
	nd := &nodes[i]
	if x.declaredArticle() || x.product || nd.hints&hintsNegative&^(hintComment|hintCTA) != 0 || nd.hints&(hintReview|hintCTA) == 0 {
		return false
	}
	switch nd.tag {
	case atom.Nav, atom.Aside, atom.Menu, atom.Header, atom.Footer:
		return false
	}
	n := 0
	end := subtreeEnd(nodes, i)
	if end-i > maxTestimonialScan {
		end = i + maxTestimonialScan
	}
	for k := i; k < end; k++ {
		if nodes[k].kind == kindText && nodes[k].chars >= minQuoteChars && opensQuote(nodes[k].text) {
			if n++; n >= minTestimonials {
				return true
			}
		}
	}
	return false
}

// opensQuote reports text that opens with a quotation mark.
func opensQuote(s string) bool {
	s = strings.TrimLeft(s, " \t\n\r\u00a0")
	return strings.HasPrefix(s, "\u201c") || strings.HasPrefix(s, "\"") ||
		strings.HasPrefix(s, "\u00ab") || strings.HasPrefix(s, "\u201e")
}

// The measures of testimonials: the quoted passages, their length, and
// the nodes looked through.
const (
	minTestimonials    = 3
	minQuoteChars      = 20
	maxTestimonialScan = 4096
)

// widgetColumn reports a root of prose, outside chrome, whose element
// children with text, two or more, are all "widgets" by their class and
// nothing else chrome: the units of a page builder's column ("so-panel
// widget"), which holds the article. A sidebar is made of widgets too,
// but a root of prose outside chrome is not one, and its widgets are its
// content, its tables and lists with its paragraphs.
func (x *extractor) widgetColumn(root int32) bool {
	nodes := x.t.nodes
	if x.junk[root] {
		return false
	}
	n := 0
	for c := nodes[root].first; c != nilNode; c = nodes[c].next {
		if nodes[c].kind != kindElement || x.st[c].chars == 0 {
			continue
		}
		if !x.negative[c] || nodes[c].flags&flagChrome != 0 || !x.classChrome(c) || nodes[c].hints&hintsNegative != hintSidebar {
			return false
		}
		n++
	}
	return n >= 2
}

// codeInChrome reports an element that looks like chrome by its class,
// id or role but holds a code block: the code samples an API reference
// sets in a side column or in tabs, a section about cookies. Menus,
// sidebars and banners hold links and fragments, not code listings; the
// page's frame (by tag) and footers and signatures keep their verdict.
func (x *extractor) codeInChrome(i int32) bool {
	nd := &x.t.nodes[i]
	if x.st[i].bits&bitCode == 0 {
		return false
	}
	switch nd.tag {
	case atom.Nav, atom.Aside, atom.Menu, atom.Header, atom.Footer:
		return false
	}
	return nd.hints&(hintFooter|hintNoise) == 0
}

// fragmentChars counts, for every node, the text below it inside links
// to a place in the page itself (href="#section").
func (x *extractor) fragmentChars() []int32 {
	nodes := x.t.nodes
	in := make([]bool, len(nodes))
	frag := make([]int32, len(nodes))
	for i := 1; i < len(nodes); i++ {
		nd := &nodes[i]
		if nd.kind == kindElement && nd.tag == atom.A {
			in[i] = len(nd.text) > 1 && nd.text[0] == '#'
		} else {
			in[i] = in[nd.parent]
		}
	}
	for i := len(nodes) - 1; i >= 1; i-- {
		if nodes[i].kind == kindText && in[i] {
			frag[i] = nodes[i].chars
		}
		frag[nodes[i].parent] += frag[i]
	}
	return frag
}

// minTOCChars is the text of a list of in-page links read as a table of
// contents, at most a third of its root; maxTOCTitle the text beside it
// in the elements that hold it (its title); minTOCItems its entries.
const (
	minTOCChars = 30
	maxTOCTitle = 40
	minTOCItems = 3
)

// namesHeadings reports a list whose items, at least half of them, name
// headings inside root: the entries of a table of contents. heads holds
// the keys of root's headings, found at the first call.
func (x *extractor) namesHeadings(list, root int32, heads *map[string]bool) bool {
	nodes := x.t.nodes
	if *heads == nil {
		*heads = map[string]bool{}
		for i := int(root); i < len(nodes); i++ {
			if headingLevel(nodes[i].tag) > 0 && x.st[i].chars > 0 && x.within(int32(i), root) {
				(*heads)[headingKey(x.textOf(int32(i)))] = true
			}
		}
	}
	items, named := 0, 0
	for c := nodes[list].first; c != nilNode; c = nodes[c].next {
		if nodes[c].tag != atom.Li {
			continue
		}
		items++
		// the item's own entry: its text before a nested list
		var b strings.Builder
		for k := nodes[c].first; k != nilNode && nodes[k].tag != atom.Ul && nodes[k].tag != atom.Ol; k = nodes[k].next {
			b.WriteString(x.textOf(k))
			b.WriteByte(' ')
		}
		if (*heads)[headingKey(b.String())] {
			named++
		}
	}
	return items >= minTOCItems && named*2 >= items
}

// headingKey is the match key of a heading's text without the number
// that may lead it ("2. Permits" names the section "Permits").
func headingKey(s string) string {
	return strings.TrimLeft(matchKey(s), "0123456789")
}

// placeholderText reports the text a page shows while a script fetches
// the content: "Loading", "Loading...", "Loading…".
func placeholderText(t string) bool {
	t = strings.TrimRight(strings.TrimSpace(t), ".…")
	return strings.EqualFold(t, "loading")
}

// maxPlaceholderChars bounds the text of a loading placeholder.
const maxPlaceholderChars = 10

// maxActionChars bounds the text of a shop's control (actionLabel).
const maxActionChars = 24

// actionLabels are the labels of the controls a shop sets on its items,
// lower-cased: putting the item in the cart, the wish list or the
// comparison, a quick look at it, picking its options.
var actionLabels = map[string]bool{
	"add to cart": true, "add to bag": true, "add to basket": true, "add to wishlist": true,
	"add to wish list": true, "add to compare": true, "add to favorites": true, "add to favourites": true,
	"compare": true, "quick view": true, "quickview": true, "quick shop": true, "quick add": true,
	"quick buy": true, "notify me": true, "notify me when available": true, "choose options": true,
	"select options": true, "more options": true, "buy now": true, "view details": true, "see details": true,
	"calculate shipping": true, "select your size": true, "select size": true, "choose size": true,
	// showing more of the items, or more of an item's variants ("+ More")
	"more": true, "show more": true, "load more": true,
	// the same in the languages shops most often use beside English
	"comparer": true, "ne plus comparer": true, "ajouter au panier": true, "vergleichen": true,
	"in den warenkorb": true, "comparar": true, "añadir al carrito": true, "agregar al carrito": true,
	"confronta": true, "aggiungi al carrello": true, "vergelijk": true, "in winkelwagen": true,
}

// controlTag reports the tags of the controls of a page: links, buttons,
// the labels of inputs.
func controlTag(a atom.Atom) bool {
	return a == atom.A || a == atom.Button || a == atom.Label
}

// badgeLabels are the badges a shop sets on the cards of its grid,
// lower-cased: the item's status, not what it is.
var badgeLabels = map[string]bool{
	"new": true, "sale": true, "new arrival": true, "top rated": true, "award winner": true,
	"limited edition": true, "best seller": true, "bestseller": true, "sold out": true,
}

// actionLabel reports an element whose text is one of actionLabels, or
// in content made of many blocks (cards) one of badgeLabels, in any case,
// with a leading "+" and trailing punctuation left out. The text is
// gathered into buf, white space collapsed; a longer one is no label.
func (x *extractor) actionLabel(i int32, cards bool, buf *[2 * maxActionChars]byte) bool {
	nodes := x.t.nodes
	n := 0
	space := false
	for k, end := i+1, subtreeEnd(nodes, i); k < end; k++ {
		if nodes[k].kind != kindText {
			continue
		}
		t := nodes[k].text
		for j := 0; j < len(t); j++ {
			c := t[j]
			if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' {
				space = n > 0
				continue
			}
			if space {
				if n == len(buf) {
					return false
				}
				buf[n] = ' '
				n++
				space = false
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if n == len(buf) {
				return false
			}
			buf[n] = c
			n++
		}
		space = n > 0
	}
	t := bytes.TrimSpace(bytes.TrimLeft(bytes.TrimRight(buf[:n], " .:!…"), "+ "))
	if len(t) < 3 || len(t) > maxActionChars {
		return false
	}
	return actionLabels[string(t)] || cards && badgeLabels[string(t)]
}

// repeatedLabels counts the texts of the short <dt> labels inside root
// (nil when there are none).
func (x *extractor) repeatedLabels(root int32) map[string]int {
	nodes := x.t.nodes
	var m map[string]int
	for i, end := root, subtreeEnd(nodes, root); i < end; i++ {
		if nodes[i].kind == kindElement && nodes[i].tag == atom.Dt && x.st[i].chars > 0 && x.st[i].chars <= maxFieldLabel {
			if m == nil {
				m = map[string]int{}
			}
			m[x.textOf(i)]++
		}
	}
	return m
}

// maxFieldLabel bounds the text of a field's label; minLabelRepeat is
// how often a label comes for it to be a template's.
const (
	maxFieldLabel  = 30
	minLabelRepeat = 10
)

// inEntry reports a node inside an entry (isEntry: a card, a teaser)
// below root, looking up maxEntryUp ancestors.
func (x *extractor) inEntry(i, root int32) bool {
	nodes := x.t.nodes
	n := nodes[i].parent
	for k := 0; k < maxEntryUp && n != nilNode && n != root; k++ {
		if x.isEntry(n) {
			return true
		}
		n = nodes[n].parent
	}
	return false
}

// maxEntryUp bounds how far up inEntry looks.
const maxEntryUp = 6

// entryDates reports a root made of entries (a run of teasers or cards,
// entryRun, or a grid of them, holdsGrid) that link to no member's page:
// the dates of its entries are when each was published. The posts of a
// thread, headed by their writers' member links, keep theirs.
func (x *extractor) entryDates(root int32) bool {
	return (x.entryRun(root) || x.holdsGrid(root, nilNode)) && !x.memberLinkIn(root)
}
