package htmlx

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/atom"
)

// leafBlocks lists, in document order, the blocks inside root that hold
// text or an image of their own, skipping dropped subtrees. It walks with
// an explicit stack.
func (x *extractor) leafBlocks(root int32, drop []bool) []int32 {
	nodes := x.t.nodes
	var out []int32
	stack := []int32{root}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if drop[i] && i != root {
			continue
		}
		nd := &nodes[i]
		if nd.kind != kindElement {
			continue
		}
		if x.block[i] == i && (x.st[i].ownChars > 0 || x.st[i].bits&bitOwnImg != 0) {
			out = append(out, i)
		}
		for c := nd.last; c != nilNode; c = nodes[c].prev {
			if nodes[c].kind == kindElement {
				stack = append(stack, c)
			}
		}
	}
	return out
}

// cardKey groups siblings that share a tag and a class.
type cardKey struct {
	tag   atom.Atom
	class uint32
}

// dropCardGroups drops runs of teaser cards inside root: three or more
// siblings of one tag and class, most of them short and led by a link
// (a linked title or a linked image), when together they hold less prose
// than the rest of the root and at most cardTailShare of the root's prose
// follows them. Lists of related stories look like this, and come after
// the article; a listicle, whose items are the article, holds most of
// the prose, and a roundup's cards of picks have its text around them.
func (x *extractor) dropCardGroups(root int32, drop []bool) {
	nodes := x.t.nodes
	rootGood := x.st[root].good
	counts := map[cardKey]int{}
	cards := map[cardKey]int{}
	goods := map[cardKey]int32{}
	// the prose of each kind of element over the whole root: cards that
	// repeat in many groups (the sections of a review index) are the
	// content when together they hold most of it
	total := map[cardKey]int32{}
	stack := []int32{root}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for c := nodes[i].first; c != nilNode; c = nodes[c].next {
			if cn := &nodes[c]; cn.kind == kindElement && !drop[c] && x.st[c].good > 0 {
				total[cardKey{cn.tag, cn.class}] += x.st[c].good
				stack = append(stack, c)
			}
		}
	}
	// before[i]: the prose of the blocks that come before i, in
	// document order
	before := make([]int32, len(nodes))
	var seen int32
	stack = append(stack[:0], root)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if nodes[i].kind != kindElement || drop[i] && i != root {
			continue
		}
		before[i] = seen
		if x.block[i] == i && x.st[i].bits&bitGood != 0 {
			seen += x.st[i].ownChars
		}
		for c := nodes[i].last; c != nilNode; c = nodes[c].prev {
			stack = append(stack, c)
		}
	}
	stack = append(stack[:0], root)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &nodes[i]
		if drop[i] || nd.kind != kindElement {
			continue
		}
		children := 0
		for c := nd.first; c != nilNode; c = nodes[c].next {
			if nodes[c].kind == kindElement && !drop[c] {
				children++
				stack = append(stack, c)
			}
		}
		if children < 3 {
			continue
		}
		clear(counts)
		clear(cards)
		clear(goods)
		for c := nd.first; c != nilNode; c = nodes[c].next {
			cn := &nodes[c]
			if cn.kind != kindElement || drop[c] {
				continue
			}
			k := cardKey{cn.tag, cn.class}
			counts[k]++
			goods[k] += x.st[c].good
			if x.isCard(c) {
				cards[k]++
			}
		}
		for k, n := range counts {
			if n < 3 || cards[k]*3 < n*2 || goods[k]*2 >= rootGood-goods[k] || total[k]*2 >= rootGood {
				continue
			}
			// the prose that follows the group's last card: teasers
			// followed by more of the article are its own (the picks
			// of a roundup, the entries of a comparison)
			var last int32 = nilNode
			for c := nd.first; c != nilNode; c = nodes[c].next {
				if cn := &nodes[c]; cn.kind == kindElement && !drop[c] && cn.tag == k.tag && cn.class == k.class {
					last = c
				}
			}
			if after := seen - before[last] - x.st[last].good; float32(after) > cardTailShare*float32(rootGood) {
				continue
			}
			for c := nd.first; c != nilNode; c = nodes[c].next {
				if cn := &nodes[c]; cn.kind == kindElement && cn.tag == k.tag && cn.class == k.class {
					drop[c] = true
				}
			}
		}
	}
}

// dropAuthorBoxes drops the boxes about an article's author that
// follow it: the nearest element above a link to an author's page
// ("/author/name") that holds prose and blocks of its own (a name, a
// photo, the bio), when it is short and starts after at least half of
// the root's prose. A byline above the article holds no prose; a
// paragraph that names its author in passing is not a box.
func (x *extractor) dropAuthorBoxes(root int32, drop []bool) {
	nodes := x.t.nodes
	rootGood := x.st[root].good
	if rootGood == 0 {
		return
	}
	// seen: the prose of the blocks met so far, in document order
	var seen int32
	stack := []int32{root}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &nodes[i]
		if nd.kind != kindElement || drop[i] && i != root {
			continue
		}
		if x.block[i] == i && x.st[i].bits&bitGood != 0 {
			seen += x.st[i].ownChars
		}
		if nd.tag == atom.A && authorLink(nd.text) && float32(seen) >= bioAfterShare*float32(rootGood) {
			b := nd.parent
			for k := 0; k < maxBioUp && b != root && x.st[b].good == 0; k++ {
				b = nodes[b].parent
			}
			if b != root && x.st[b].good > 0 && x.st[b].chars <= maxBioChars && x.st[b].bits&bitHasBlock != 0 {
				drop[b] = true
			}
		}
		for c := nd.last; c != nilNode; c = nodes[c].prev {
			stack = append(stack, c)
		}
	}
}

// authorLink reports a link to the page of an author, where blogs and
// news sites list what that person wrote.
func authorLink(href string) bool {
	// every path starts with a slash: only those places are compared
	for i := strings.IndexByte(href, '/'); i >= 0; {
		rest := href[i:]
		for _, p := range authorPaths {
			if len(p) <= len(rest) && strings.EqualFold(rest[:len(p)], p) {
				return true
			}
		}
		j := strings.IndexByte(rest[1:], '/')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// authorPaths are the path segments of the pages of an author.
var authorPaths = []string{"/author/", "/authors/"}

// maxBioUp bounds the climb from an author's link to the box holding
// the bio; maxBioChars the text of the box.
const (
	maxBioUp    = 6
	maxBioChars = 1500
)

// bioAfterShare is the share of the root's prose that precedes an
// author's box.
const bioAfterShare = 0.5

// cardTailShare is the share of the root's prose that may follow a group
// of cards dropped as teasers.
const cardTailShare = 0.05

// isCard reports a teaser: a short container with a description and a
// title link (a fifth of its text) or a linked image. The rows of a table
// are not: a row whose first cell links to the thing it describes is a
// line of the table's data.
func (x *extractor) isCard(i int32) bool {
	s := &x.st[i]
	if x.t.nodes[i].tag == atom.Tr || s.chars >= 500 || s.linkChars == 0 || s.bits&bitHasBlock == 0 || s.chars-s.linkChars < 20 {
		return false
	}
	return (s.bits&bitImgLink != 0 || (s.bits&bitTitleLink != 0 && s.linkChars*5 >= s.chars)) && x.ledByLink(i)
}

// ledByLink reports an element whose first text (or linked image) is
// inside a link: a teaser opens with its linked title or picture; a
// feature card opens with its own words and ends with a "Learn more"
// link. It looks through maxLeadScan nodes at most, in document order,
// and takes an element it has not settled for a teaser.
func (x *extractor) ledByLink(i int32) bool {
	nodes := x.t.nodes
	var stack [maxLeadScan]int32
	top := 0
	for n, j := 0, i; n < maxLeadScan; n++ {
		// push j's children, the first on top
		for c := nodes[j].last; c != nilNode; c = nodes[c].prev {
			if top == len(stack) {
				return true
			}
			stack[top] = c
			top++
		}
		if top == 0 {
			return true
		}
		top--
		j = stack[top]
		nd := &nodes[j]
		if nd.kind == kindText && nd.chars > 0 || nd.kind == kindElement && nd.tag == atom.Img && x.inLink[j] {
			return x.inLink[j]
		}
	}
	return true
}

// maxLeadScan bounds the nodes looked through for a card's first text.
const maxLeadScan = 64

// trimEdges drops what precedes the first prose and follows the last
// when it is not prose itself: headlines, bylines, dates, share and tag
// lines. A subheading (h2 to h6) before the first prose stays: it titles
// what follows (a section's list, a hero's tagline); the headline, an h1,
// is placed by headline, and a standfirst set as a heading goes. A
// chapter's table of contents kept by the rules (chapters) stays. Blocks
// are in document order of their start, so the blocks nested in a prose
// block that holds text of its own count as following it.
func (x *extractor) trimEdges(root int32, drop []bool, xrefs, chapters map[int32]bool) {
	blocks := x.leafBlocks(root, drop)
	first, last := -1, -1
	for k, b := range blocks {
		if x.st[b].bits&bitGood != 0 {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	if first < 0 {
		return
	}
	for _, b := range blocks[:first] {
		if x.sentenceLike(b) || x.sameItem(b, blocks[first], root) || x.subheading(b) || x.under(b, root, chapters) {
			continue
		}
		x.dropBlock(b, drop)
	}
	// the tail: what follows the last prose or sentence, from the end
	for k := len(blocks) - 1; k > last; k-- {
		b := blocks[k]
		if x.sentenceLike(b) || x.inDataOrList(b) || x.headingInProse(b, root) || x.pointer(b) || x.under(b, root, xrefs) || x.inCode(b) {
			break
		}
		x.dropBlock(b, drop)
	}
}

// inCode reports a block of a code block (a pre, or a block inside
// one): a listing is content wherever it comes, never a share bar or
// a byline.
func (x *extractor) inCode(b int32) bool {
	nodes := x.t.nodes
	for n, k := b, 0; n != nilNode && k < maxCodeDepth; n, k = nodes[n].parent, k+1 {
		if nodes[n].tag == atom.Pre {
			return true
		}
	}
	return false
}

// maxCodeDepth bounds the ancestors looked through for a code block.
const maxCodeDepth = 8

// subheading reports a heading below the headline's level (h2 to h6)
// that names what follows: a title, not a standfirst set as a heading,
// which is written as a sentence and ends in a full stop.
func (x *extractor) subheading(b int32) bool {
	s := &x.st[b]
	if headingLevel(x.t.nodes[b].tag) < 2 || s.lastText == 0 {
		return false
	}
	text := strings.TrimRight(x.t.nodes[s.lastText].text, " \t\n\r\u00a0")
	return !strings.HasSuffix(text, ".")
}

// headingInProse reports a heading nested in a prose block whose own
// text goes on after it: a section title of text set with <br>s.
func (x *extractor) headingInProse(b, root int32) bool {
	if headingLevel(x.t.nodes[b].tag) == 0 {
		return false
	}
	for n := x.t.nodes[b].parent; n != nilNode && n >= root; n = x.t.nodes[n].parent {
		if x.st[n].bits&bitGood != 0 && x.st[n].lastText > b {
			return true
		}
	}
	return false
}

// inDataOrList reports a cell of a data table or a list item without
// links, or a link followed by more words that describe it (a document's
// list of its parts, "Generics – types which take parameters"): content
// that is short by nature.
func (x *extractor) inDataOrList(b int32) bool {
	nodes := x.t.nodes
	switch nodes[b].tag {
	case atom.Li, atom.Dd, atom.Dt:
		s := &x.st[b]
		return s.ownChars > 0 && (s.ownLink == 0 || s.ownLink*2 <= s.ownChars && x.inLink[s.firstText])
	case atom.Td, atom.Th:
		for n := nodes[b].parent; n != nilNode; n = nodes[n].parent {
			if nodes[n].tag == atom.Table {
				return x.st[n].bits&bitDataTable != 0
			}
		}
	}
	return false
}

// sentenceLike reports a short block that reads as a sentence: few
// links and a final punctuation mark.
func (x *extractor) sentenceLike(b int32) bool {
	s := &x.st[b]
	if s.ownChars < 15 || s.ownLink*3 > s.ownChars || s.lastText == 0 {
		return false
	}
	if headingLevel(x.t.nodes[b].tag) > 0 {
		return false
	}
	text := strings.TrimRight(x.t.nodes[s.lastText].text, " \t\n\r\u00a0")
	r, _ := utf8.DecodeLastRuneInString(text)
	switch r {
	case '.', '!', '?', '…', '。', '！', '？', '"', '”', '’', ')', '»':
		return true
	}
	return false
}

// pointer reports a list item that is a sentence pointing to other
// pages: its own words first, then a link or two, and a full stop ("For
// an overview of storage, see Storage overview."). A document's closing
// list of next steps is made of them; the items of a list of related
// stories are their links, and a plug for a newsletter or for social
// accounts is a paragraph, or links to more pages.
func (x *extractor) pointer(b int32) bool {
	nodes := x.t.nodes
	s := &x.st[b]
	if nodes[b].tag != atom.Li || s.ownChars < minLeadInChars || s.ownLink*2 > s.ownChars || s.lastText == 0 || x.inLink[s.firstText] {
		return false
	}
	if !strings.HasSuffix(strings.TrimRight(nodes[s.lastText].text, " \t\n\r\u00a0"), ".") {
		return false
	}
	// the links of the item's own text, its nested blocks left out
	links := 0
	for k, end := b+1, subtreeEnd(nodes, b); k < end && links <= maxPointerLinks; k++ {
		nd := &nodes[k]
		if nd.kind != kindElement {
			continue
		}
		if isBlockTag(nd.tag) {
			k = subtreeEnd(nodes, k) - 1
			continue
		}
		if nd.tag == atom.A && x.inLink[k] {
			links++
		}
	}
	return links >= 1 && links <= maxPointerLinks
}

// maxPointerLinks bounds the links of an item pointing to other pages.
const maxPointerLinks = 2

// under reports a node below one of the elements of set, inside root.
func (x *extractor) under(n, root int32, set map[int32]bool) bool {
	if set == nil {
		return false
	}
	for ; n != nilNode && n > root; n = x.t.nodes[n].parent {
		if set[n] {
			return true
		}
	}
	return false
}

// dropBlock drops a block and the inline content it owns; its nested
// blocks are left alone.
func (x *extractor) dropBlock(b int32, drop []bool) {
	nodes := x.t.nodes
	if x.st[b].bits&bitHasBlock == 0 {
		drop[b] = true
		return
	}
	stack := []int32{}
	for c := nodes[b].first; c != nilNode; c = nodes[c].next {
		stack = append(stack, c)
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &nodes[i]
		if nd.kind == kindText {
			drop[i] = true
			continue
		}
		if isBlockTag(nd.tag) {
			continue
		}
		if x.st[i].bits&bitHasBlock == 0 {
			drop[i] = true
			continue
		}
		for c := nd.first; c != nilNode; c = nodes[c].next {
			stack = append(stack, c)
		}
	}
}

// isCaption reports figure captions and elements classed as captions or
// credits. A heading's class names its type style ("text-caption"), not
// its part in the page: the title of a card is not a photo's caption.
func isCaption(nd *node) bool {
	return nd.tag == atom.Figcaption || nd.hints&hintCaption != 0 && headingLevel(nd.tag) == 0
}

// within reports whether n is root or one of its descendants.
func (x *extractor) within(n, root int32) bool {
	for ; n != nilNode && n >= root; n = x.t.nodes[n].parent {
		if n == root {
			return true
		}
	}
	return false
}

// headline finds the article's headline for a content root, before the
// root's first prose: a heading (h1 to h3) or a short block whose text is
// the page title (or its first part, before " | Site"), preferring h1;
// else the last h1 close above the root. It returns nilNode when there is
// none.
func (x *extractor) headline(root int32) int32 {
	nodes := x.t.nodes
	keys := titleKeys(x.title)
	best, bestRank := nilNode, 100
	var lastH1 int32 = nilNode
	limit := int32(len(nodes))
	if g := x.firstGood(root); g != nilNode {
		limit = x.st[g].firstText
	}
	for i := int32(1); i < limit; i++ {
		nd := &nodes[i]
		if nd.kind != kindElement {
			continue
		}
		level := headingLevel(nd.tag)
		short := level == 0 && x.block[i] == i && x.st[i].chars > 0 && x.st[i].chars <= 200 &&
			x.st[i].bits&bitHasBlock == 0 && x.st[i].linkChars == 0
		if (level == 0 && !short) || level > 3 || x.st[i].chars == 0 || x.inChrome(i, root) {
			continue
		}
		if level == 1 && x.st[i].chars >= 10 && x.near(i, root) {
			lastH1 = i
		}
		if len(keys) == 0 {
			continue
		}
		rank := level
		if level == 0 {
			rank = 10
		}
		if rank >= bestRank {
			continue
		}
		key := matchKey(x.textOf(i))
		for k, tk := range keys {
			if (k == 0 && titleMatches(tk, key)) || (k > 0 && tk == key) {
				best, bestRank = i, rank
				break
			}
		}
	}
	if best != nilNode {
		return best
	}
	return lastH1
}

// titleKeys returns the match keys of a title: the whole title, then its
// first part before a separator ("Story | Site", "Story - Site").
func titleKeys(title string) []string {
	whole := matchKey(title)
	if whole == "" {
		return nil
	}
	keys := []string{whole}
	for _, sep := range titleSeparators {
		if i := strings.Index(title, sep); i > 0 {
			if k := matchKey(title[:i]); k != "" && k != whole {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// firstGood returns the first prose block inside root, or nilNode.
func (x *extractor) firstGood(root int32) int32 {
	for _, b := range x.leafBlocks(root, make([]bool, len(x.t.nodes))) {
		if x.st[b].bits&bitGood != 0 {
			return b
		}
	}
	return nilNode
}

// inChrome reports a node inside page chrome (navigation, the page
// header and footer, sidebars, elements classed as boilerplate) that does
// not also hold root.
func (x *extractor) inChrome(i, root int32) bool {
	for n := i; n != nilNode; n = x.t.nodes[n].parent {
		if x.within(root, n) {
			return false
		}
		if x.negative[n] {
			return true
		}
	}
	return false
}

// near reports whether h sits inside root or inside one of root's three
// nearest ancestors.
func (x *extractor) near(h, root int32) bool {
	a := root
	for k := 0; k < 4 && a != nilNode; k++ {
		if x.within(h, a) {
			return true
		}
		a = x.t.nodes[a].parent
	}
	return false
}

// textOf returns the text below a node, white space collapsed.
func (x *extractor) textOf(i int32) string {
	nodes := x.t.nodes
	var b strings.Builder
	stack := []int32{i}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &nodes[n]
		if nd.kind == kindText {
			b.WriteString(nd.text)
			b.WriteByte(' ')
			continue
		}
		for c := nd.last; c != nilNode; c = nodes[c].prev {
			stack = append(stack, c)
		}
	}
	return joinFields(b.String())
}

// titleMatches reports whether one key holds the other and the shorter
// is at least half the longer, or a third of it when it starts it.
func titleMatches(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	if strings.HasPrefix(a, b) && len(b)*3 >= len(a) {
		return true
	}
	return strings.Contains(a, b) && len(b)*2 >= len(a)
}

// sameItem reports whether block b and the first prose block g lie in
// items of one list below root (list items, articles of a run of them):
// the title and the meta line of a result, a card or a post lead its
// text and belong to the list, even where the first item's own text is
// too short to read as prose.
func (x *extractor) sameItem(b, g, root int32) bool {
	ib, ig := x.itemOf(b, root), x.itemOf(g, root)
	return ib != nilNode && ig != nilNode && x.t.nodes[ib].parent == x.t.nodes[ig].parent
}

// itemOf returns the nearest list item or article at or above n, below
// root, or nilNode.
func (x *extractor) itemOf(n, root int32) int32 {
	nodes := x.t.nodes
	for ; n != nilNode && n != root; n = nodes[n].parent {
		if nodes[n].tag == atom.Li || nodes[n].tag == atom.Article {
			return n
		}
	}
	return nilNode
}

// dropTrailing drops what follows an article's body inside a root of
// prose: when one child holds most of the root's prose (trailProse) and
// most of its score (trailScore), and the children before it hold little
// prose (trailLead: a headline, a byline), the few children after it
// (at most maxTrailing) are what a page sets below the article: a
// disclaimer, a call to action, a newsletter box, its sources, a feed of
// teasers. They are set apart from the body as siblings of it, not
// written into it. The same is looked for inside the body's own dominant
// child, down to trailLevels. A root of many sections (a landing page,
// a thread) has prose before its largest one, or many after it; on a
// product page what follows the description is the product's. A root
// with little prose (minTrailRoot) is left alone: its few sections are
// all it says.
func (x *extractor) dropTrailing(root int32, drop []bool) {
	if x.product || x.junk[root] || x.st[root].good < minTrailRoot {
		return
	}
	n := root
	for level := 0; level < trailLevels && n != nilNode; level++ {
		n = x.trailingAfter(n, drop)
	}
}

// trailingAfter drops the children of n that follow its dominant child
// (see dropTrailing) and returns that child, or nilNode when n has none.
func (x *extractor) trailingAfter(n int32, drop []bool) int32 {
	nodes := x.t.nodes
	good := x.st[n].good
	d := nilNode
	for c := nodes[n].first; c != nilNode; c = nodes[c].next {
		if nodes[c].kind == kindElement && (d == nilNode || x.st[c].good > x.st[d].good) {
			d = c
		}
	}
	if d == nilNode || float32(x.st[d].good) < trailProse*float32(good) ||
		x.st[d].score < trailScore*x.st[n].score || x.st[d].bits&bitHasBlock == 0 {
		return nilNode
	}
	var lead int32
	for c := nodes[n].first; c != d; c = nodes[c].next {
		lead += x.st[c].good
	}
	after := 0
	for c := nodes[d].next; c != nilNode; c = nodes[c].next {
		if nodes[c].kind == kindElement && x.st[c].chars > 0 && !drop[c] {
			after++
		}
	}
	if float32(lead) > trailLead*float32(good) || after > maxTrailing {
		return nilNode
	}
	for c := nodes[d].next; c != nilNode; c = nodes[c].next {
		if nodes[c].kind == kindElement {
			drop[c] = true
		}
	}
	return d
}

// The measures of dropTrailing: the shares of the prose and the score
// of its parent that make a child the body, the share of the prose that
// may precede it, how many children may follow it, how far down it is
// looked for, and the prose a root needs.
const (
	trailProse   = 0.7
	trailScore   = 0.75
	trailLead    = 0.1
	maxTrailing  = 8
	trailLevels  = 3
	minTrailRoot = 1000
)

// minLeadInChars is the text of a sentence that introduces a list.
const minLeadInChars = 15
