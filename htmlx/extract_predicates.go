package htmlx

import (
	"bytes"
	"strings"

	"golang.org/x/net/html/atom"
)

// The predicates the extractor asks of elements: what a list of links,
// a section, a control or a label is.

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

// relatedOpenings are how headings over related items begin, lower-cased:
// naming them ("Related posts", "You may also like"), or inviting the
// reader to them ("Explore related items", "Shop similar styles").
var relatedOpenings = []string{"related ", "similar ", "you may also ", "you might also ", "you may like",
	"you might like", "customers also ", "customers who ", "people also ", "people who ", "others also ", "others like you",
	"frequently bought", "recently viewed", "more like this", "recommended for you", "complete the look",
	"shop the look", "explore related ", "explore similar ", "shop similar ", "shop related "}

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
	t, ok := x.collapsedText(i, buf[:])
	if !ok {
		return false
	}
	t = bytes.TrimSpace(bytes.TrimLeft(bytes.TrimRight(t, " .:!…"), "+ "))
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
