package htmlx

import (
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
	// StrictHidden reads REQ-CTX-005 as the book writes it: no closed
	// <details>, disclosure panel or noscript fallback is read
	// (fetch.read_collapsed = false). See the disclosure reading in parse.go.
	StrictHidden bool
}

// The book's bounds (LIM-F10, LIM-F11).
const (
	defaultMaxNodes = 100000
	defaultMaxDepth = 256
)

// Page is what extraction yields: the title (decoded, not yet cleaned), the
// main content as Markdown, and whether a bound cut the document.
//
// Removed counts the C0 controls and DEL of the page's text that the
// writer left out of the Markdown (REQ-SEC-015); CleanContent removes and
// counts the other invisible characters. The writer escapes as if those
// were gone already, so that nothing they stand between comes together as
// Markdown when they are removed.
type Page struct {
	Title    string
	Markdown string
	Partial  bool
	Removed  int
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
	page, _, err := extractRead(doc, base, maxNodes, maxDepth, lim.StrictHidden)
	return page, err
}

// extractHTML is ExtractHTML of a parsed document; it also returns the
// length of the headline written before the content root's text (0 when
// none was), which the benchmarks of article bodies set aside.
func extractHTML(t *tree, base *url.URL) (Page, int, error) {
	page := Page{Title: validUTF8(pageTitle(t)), Partial: t.partial}
	md, headLen, removed := extractMain(t, documentBase(base, t.baseHref), page.Title)
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
	page.Removed = removed
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
func extractMain(t *tree, base *url.URL, title string) (md string, headLen, removed int) {
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
	md, removed = renderMarkdownOpt(t, x.st, drop, root, base, title, head, lenient || !x.declaredArticle() || x.isThread(root))
	if md == "" && root != 0 {
		md, removed = renderMarkdown(t, x.st, x.prune(0, false), 0, base, title, "")
	}
	if md == "" {
		md, removed = renderMarkdown(t, x.st, nil, 0, base, title, "")
	}
	t.markupMD = md // what the markup shows (extractRead)
	if len(t.ldjson) > 0 {
		// the page's structured data finds the content of a page
		// rendered by scripts, and completes what the markup hides
		completed := completeFromStructured(md, ld)
		if !strings.HasPrefix(completed, md) {
			// it stands in for the text written: what the writer
			// left out of that is not left out of the answer
			removed = 0
		}
		md = completed
	}
	if head != "" && strings.HasPrefix(md, head) {
		headLen = len(head)
	}
	return md, headLen, removed
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
	return strings.Repeat("#", level) + " " + escapeInline(text)
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

// extractRead is ExtractHTML under a reading of hidden content (see
// parse.go). Unless strict, a page whose disclosure panels
// came before their controls is parsed again knowing them, and a script
// shell with noscript fallbacks is read again with them, as a browser
// with scripting off shows it; the fallback's reading replaces the
// shell's answer only when its markup yields more than a remnant. A page
// whose text waits in fade-ins (fadedPage) is read again with them shown,
// and that reading is taken when it yields more. A document is parsed at
// most four times.
func extractRead(doc string, base *url.URL, maxNodes, maxDepth int, strict bool) (Page, int, error) {
	read := readOpts{strict: strict}
	t := parseOnce(doc, maxNodes, maxDepth, read, nil)
	if t.reparse {
		t = parseOnce(doc, maxNodes, maxDepth, read, t.controls)
	}
	controls, faded := t.controls, !strict && fadedPage(t)
	page, headLen, err := extractHTML(t, base)
	shell := !strict && t.noscripts > 0 && scriptShell(t, err)
	t = nil // one tree at a time: the next parse may be as large
	if faded {
		read.fades = true
		shown, shownHead, shownErr := extractHTML(parseOnce(doc, maxNodes, maxDepth, read, controls), base)
		if shownErr == nil && len(shown.Markdown) > len(page.Markdown) {
			return shown, shownHead, nil
		}
		read.fades = false
	}
	if !shell {
		return page, headLen, err
	}
	read.noscript = true
	if controls == nil {
		controls = map[string]bool{}
	}
	t = parseOnce(doc, maxNodes, maxDepth, read, controls)
	shown, shownHead, shownErr := extractHTML(t, base)
	if shownErr != nil || remnant(t.markupMD) {
		return page, headLen, err
	}
	return shown, shownHead, nil
}

// scriptShell reports a page whose markup, read without its noscript
// fallbacks, shows nothing or a remnant while it keeps text out of sight
// or carries scripts: the page on which ExtractHTML answers
// ErrShownByScripts, by the same bars. The page's structured data may
// have stood in for the missing content; it is not the page's visible
// content, so such a page is a shell too.
func scriptShell(t *tree, err error) bool {
	if errors.Is(err, ErrShownByScripts) {
		return true
	}
	if t.markupMD == "" {
		return t.veiledChars >= minVeiledChars || t.scriptBytes >= minScriptBytes
	}
	return (t.veiledChars >= minRemnantVeiled || t.scriptBytes >= minRemnantScript) && remnant(t.markupMD)
}
