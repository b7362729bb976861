package htmlx

import (
	"strings"

	"golang.org/x/net/html/atom"
)

// prune marks what is left out inside the chosen root: chrome that is
// not most of the root's prose, and link lists without prose.
//
// Chrome is kept where it is the content: posts named as comments in a
// thread (isThread), elements of one chrome class that together hold
// most of the prose or make a run of prose cards (repeatedChrome), and
// tab or accordion panels that read as prose (proseInChrome).
//
// lenient prunes a root made of many blocks (a mass root, a repeated
// set): link lists, card groups and what is chrome by a class alone
// (promo cards, related items) are its content there, and only the
// page's frame is left out (frameChrome), with, on a product page, the
// reviews and related items (productChrome), and elsewhere what
// shoppers say (shoppersSay); its first and last items are
// not an article's byline and share bar, so the edges are not trimmed;
// the bodies of its cards, classed as captions by some themes, stay.
//
// The rules are the ordered table pruneRules, asked of every element of
// the root in document order, then the sweeps of pruneSweeps over the
// whole root.
func (x *extractor) prune(root int32, lenient bool) []bool {
	p := x.newPruner(root, lenient)
	var rules [len(pruneRules)]*pruneRule
	active := rules[:0]
	for r := range pruneRules {
		if rule := &pruneRules[r]; rule.on&p.mode() != 0 {
			active = append(active, rule)
		}
	}
	nodes := x.t.nodes
	drop := p.drop
	for i := int(root) + 1; i < len(nodes); i++ {
		nd := &nodes[i]
		if drop[nd.parent] {
			drop[i] = true
			continue
		}
		if nd.kind != kindElement {
			if nd.kind == kindText && nd.chars > 0 && nd.chars <= maxPlaceholderChars && placeholderText(nd.text) {
				// the placeholder a script replaces with the
				// content it fetches ("Loading..."): never content
				drop[i] = true
			}
			continue
		}
		s := &x.st[i]
		var is pruneNeed
		if x.negative[i] {
			is |= needNegative
		}
		if headingLevel(nd.tag) > 0 {
			is |= needHeading
		}
		for _, rule := range active {
			if (rule.tag == 0 || rule.tag == nd.tag) && rule.need&^is == 0 && rule.apply(p, int32(i), nd, s) {
				break
			}
		}
	}
	for r := range pruneSweeps {
		if sweep := &pruneSweeps[r]; sweep.on&p.mode() != 0 {
			sweep.apply(p)
		}
	}
	return drop
}

// pruner is what one prune carries from element to element.
type pruner struct {
	x        *extractor
	root     int32
	lenient  bool
	drop     []bool
	rootGood int32
	// thread: the root is a thread of posts (isThread)
	thread bool
	// kept: the chrome kinds kept as content (repeatedChrome)
	kept map[cardKey]bool
	// column: a root whose parts are all widgets is a page builder's
	// column
	column bool
	// frag: the characters below each node in links to places in the
	// page; tables of contents are looked for in a root of prose only
	frag  []int32
	heads map[string]bool
	// xrefs: links under a "See also" heading, kept (seeAlso)
	xrefs map[int32]bool
	// announced: the subtree of links a sentence announces
	// (introducedList) ends before it
	announced int32
	kinds     map[cardKey]int
	// quoted: the end of the testimonials being kept (see testimonials)
	quoted int32
	labels map[string]int
	// entryDates: whether the dates of entries go (entryDates), once a
	// date is met: 0 not asked yet, 1 they go, 2 they stay
	entryDates int
	// contents: the end of the chapter's table of contents being kept
	// (chapterContents), and the tables kept, which the edges' sweep
	// spares
	contents int32
	chapters map[int32]bool
	// label: the lower-cased text of a short element (actionLabel)
	label [2 * maxActionChars]byte
	// clones: the measures of the clone rule, made on first use
	clones *cloneStats
}

func (x *extractor) newPruner(root int32, lenient bool) *pruner {
	p := &pruner{
		x:        x,
		root:     root,
		lenient:  lenient,
		drop:     make([]bool, len(x.t.nodes)),
		rootGood: x.st[root].good,
		thread:   x.isThread(root),
		kept:     x.repeatedChrome(root),
		column:   x.widgetColumn(root),
		quoted:   -1,
	}
	if !lenient && x.st[root].good*2 >= x.st[root].chars {
		p.frag = x.fragmentChars()
	}
	if !lenient {
		p.kinds = x.linkListKinds(root)
	}
	p.labels = x.repeatedLabels(root)
	return p
}

// pruneMode says which prunes a rule takes part in.
type pruneMode uint8

const (
	pruneStrict  pruneMode = 1 << iota // a root of prose
	pruneLenient                       // a root of many blocks
	pruneAlways  = pruneStrict | pruneLenient
)

func (p *pruner) mode() pruneMode {
	if p.lenient {
		return pruneLenient
	}
	return pruneStrict
}

// pruneRule is one rule of prune. apply looks at element i of the root
// (nd, with the measures s) and marks what goes in p.drop; it reports
// whether the element is settled, so that the rules after it are not
// asked.
type pruneRule struct {
	name string
	on   pruneMode
	// tag, when set, is the only element the rule looks at
	tag atom.Atom
	// need: what else an element must be for the rule to look at it
	need  pruneNeed
	apply func(p *pruner, i int32, nd *node, s *nodeStats) bool
}

// pruneNeed is a set of what an element is, as a rule's filter.
type pruneNeed uint8

const (
	needNegative pruneNeed = 1 << iota // it looks like chrome (negative)
	needHeading                        // a heading, h1 to h6
)

// pruneRules are the rules of prune, in the order they are asked. Each
// is needed: the comment of each rule's method names a test that fails
// without it.
var pruneRules = [...]pruneRule{
	{name: "chapter-contents", on: pruneAlways, apply: (*pruner).chapterContents},
	{name: "testimonials", on: pruneAlways, need: needNegative, apply: (*pruner).testimonials},
	{name: "chrome", on: pruneAlways, need: needNegative, apply: (*pruner).chromeElement},
	{name: "thread-noise", on: pruneAlways, need: needNegative, apply: (*pruner).threadNoise},
	{name: "link-list", on: pruneStrict, apply: (*pruner).linkList},
	{name: "button-link", on: pruneAlways, tag: atom.A, apply: (*pruner).buttonLink},
	{name: "entry-date", on: pruneLenient, tag: atom.Time, apply: (*pruner).entryDate},
	{name: "field-label", on: pruneAlways, tag: atom.Dt, apply: (*pruner).fieldLabel},
	{name: "action-label", on: pruneAlways, apply: (*pruner).actionLabel},
	{name: "post-number", on: pruneAlways, tag: atom.A, apply: (*pruner).postNumber},
	{name: "poster-stats", on: pruneAlways, apply: (*pruner).posterStats},
	{name: "reply-prompt", on: pruneAlways, apply: (*pruner).replyPrompt},
	{name: "signup-call", on: pruneAlways, apply: (*pruner).signupCall},
	{name: "control-line", on: pruneAlways, apply: (*pruner).controlLine},
	{name: "role-button", on: pruneAlways, tag: atom.A, apply: (*pruner).roleButton},
	{name: "table-of-contents", on: pruneAlways, apply: (*pruner).tableOfContents},
	{name: "code-label", on: pruneAlways, tag: atom.Pre, apply: (*pruner).codeLabel},
	{name: "caption", on: pruneAlways, apply: (*pruner).caption},
	{name: "form", on: pruneAlways, tag: atom.Form, apply: (*pruner).form},
	{name: "shop-related-heading", on: pruneAlways, need: needHeading, apply: (*pruner).shopRelatedHeading},
	{name: "related-class-heading", on: pruneStrict, need: needHeading, apply: (*pruner).relatedClassHeading},
	{name: "related-label", on: pruneAlways, apply: (*pruner).relatedLabel},
	{name: "page-jump", on: pruneAlways, apply: (*pruner).pageJump},
	{name: "logo-strip", on: pruneAlways, apply: (*pruner).logoStrip},
	{name: "clone", on: pruneAlways, apply: (*pruner).clone},
}

// pruneSweep is a rule of prune over the whole root, after the elements'
// rules.
type pruneSweep struct {
	name  string
	on    pruneMode
	apply func(p *pruner)
}

// pruneSweeps are the sweeps of prune, in order; the edges of a root of
// many blocks are its first and last items, not an article's byline and
// share bar, so none of them runs there.
// Without each, a test fails: TestTrailingBoxAfterBodyLeftOut,
// TestAuthorBoxAfterArticleLeftOut, TestTeaserCardsAfterArticleOnly and
// TestTrailingCodeBlockKept.
var pruneSweeps = [...]pruneSweep{
	{name: "trailing", on: pruneStrict, apply: func(p *pruner) { p.x.dropTrailing(p.root, p.drop) }},
	{name: "author-boxes", on: pruneStrict, apply: func(p *pruner) { p.x.dropAuthorBoxes(p.root, p.drop) }},
	{name: "card-groups", on: pruneStrict, apply: func(p *pruner) { p.x.dropCardGroups(p.root, p.drop) }},
	{name: "edges", on: pruneStrict, apply: func(p *pruner) { p.x.trimEdges(p.root, p.drop, p.xrefs, p.chapters) }},
}

// chapterContents: a chapter's table of contents (see
// extractor.chapterContents) is the chapter's content: no rule after
// this one is asked of it or of what it holds, and the edges' sweep
// spares it.
// Without it, TestChapterContentsKept fails.
func (p *pruner) chapterContents(i int32, nd *node, s *nodeStats) bool {
	if i < p.contents {
		return true
	}
	if p.x.chapterContents(i, p.root) {
		p.contents = subtreeEnd(p.x.t.nodes, i)
		if p.chapters == nil {
			p.chapters = map[int32]bool{}
		}
		p.chapters[i] = true
		return true
	}
	return false
}

// testimonials: clients' words, quoted one after another, are content,
// with all that lies inside (see extractor.testimonials). It settles
// nothing; the chrome rule then spares what it covers.
// Without it, TestQuotedTestimonialsStay fails.
func (p *pruner) testimonials(i int32, nd *node, s *nodeStats) bool {
	if p.x.negative[i] && i >= p.quoted && !p.thread && p.x.testimonials(i) {
		p.quoted = subtreeEnd(p.x.t.nodes, i)
	}
	return false
}

// chromeElement: an element that looks like chrome and is not most of the
// root's prose goes, unless it is the content (chromeIsContent) or a
// part of a page builder's column.
// Without it, TestExtractHTMLDropsComments fails.
func (p *pruner) chromeElement(i int32, nd *node, s *nodeStats) bool {
	if p.x.negative[i] && i >= p.quoted && s.good*2 <= p.rootGood && !(p.column && nd.parent == p.root) && !p.x.chromeIsContent(i, p.thread, p.kept, p.lenient) {
		p.drop[i] = true
		return true
	}
	return false
}

// linkList: in a root of prose, a list of links without prose goes,
// unless a sentence announces it (an outline's lists are then its own),
// it sits under "See also" (kept, and spared by the edges' sweep), or it
// is a section of links the page is made of (linkSection).
// Without it, TestOnlyListOfItsKindStays fails.
func (p *pruner) linkList(i int32, nd *node, s *nodeStats) bool {
	x := p.x
	if i < p.announced || !x.linkList(i) || x.annotatedLinks(i) || x.titleAndMeta(i) {
		return false
	}
	switch {
	case x.introducedList(i, p.root) || x.announcesList(i, p.root):
		if x.outline(i) {
			// the lists inside an outline a sentence announces (a
			// wrapper's list, the nested lists of its items) are its
			// own
			p.announced = subtreeEnd(x.t.nodes, i)
		}
	case x.seeAlso(i):
		if p.xrefs == nil {
			p.xrefs = map[int32]bool{}
		}
		p.xrefs[i] = true
	case !x.linkSection(i, p.kinds):
		p.drop[i] = true
		return true
	}
	return false
}

// buttonLink: a link styled as a button ("Try for free", "Get a demo",
// "Expand"), or the link of an item in a list classed as buttons (a
// post's "permalink", "save", "report"), is an action, not content.
// Without it, TestREQ_PAGE_002_ButtonLinksDropped fails.
func (p *pruner) buttonLink(i int32, nd *node, s *nodeStats) bool {
	if s.chars < maxButtonChars && (nd.hints&hintButton != 0 || p.x.t.nodes[nd.parent].hints&hintButton != 0 || p.x.buttonItem(nd.parent)) {
		p.drop[i] = true
		return true
	}
	return false
}

// entryDate: in a root of many blocks, the date of an entry of a list or
// a grid says when its teaser or card was published, not what it says.
// Without it, TestEntryDates fails.
func (p *pruner) entryDate(i int32, nd *node, s *nodeStats) bool {
	if p.entryDates == 0 {
		p.entryDates = 2
		if p.x.entryDates(p.root) {
			p.entryDates = 1
		}
	}
	if p.entryDates == 1 {
		p.drop[i] = true
		return true
	}
	return false
}

// fieldLabel: the label of a field that every card of a grid repeats
// ("Brand Name", "Price") is the cards' template, said again for each;
// the value beside it stays.
// Without it, TestRepeatedFieldLabels fails.
func (p *pruner) fieldLabel(i int32, nd *node, s *nodeStats) bool {
	if p.labels != nil && s.chars <= maxFieldLabel && p.labels[p.x.textOf(i)] >= minLabelRepeat && p.x.inEntry(i, p.root) {
		p.drop[i] = true
		return true
	}
	return false
}

// actionLabel: a shop's control ("Add to cart", "Quick view",
// "Compare"), a button or a line of its own, is what a visitor does with
// the item, not what the page says about it.
// Without it, TestShopControlsOfCards fails.
func (p *pruner) actionLabel(i int32, nd *node, s *nodeStats) bool {
	if s.chars >= 3 && s.chars <= maxActionChars && (p.x.st[p.x.block[i]].ownChars == s.chars || controlTag(nd.tag)) && p.x.actionLabel(i, p.lenient, &p.label) {
		p.drop[i] = true
		return true
	}
	return false
}

// postNumber: a post's number ("#12") on a short line of its own (the
// post's date beside it) links to its place in the thread: a permalink,
// not what the post says. An issue's number in a sentence stays.
// Without it, TestPostNumberLeftOut fails.
func (p *pruner) postNumber(i int32, nd *node, s *nodeStats) bool {
	if s.chars <= maxPostNumber && p.x.st[p.x.block[i]].ownChars-s.chars < maxPostHeader && postNumber(p.x.textOf(i)) {
		p.drop[i] = true
		return true
	}
	return false
}

// roleButton: a link that leads nowhere and is a button by its role
// ("Click to expand...", "Show more") works the page: a control, not
// content. One that names a heading is the title of an accordion's
// panel.
// Without it, TestRoleButtonControlLeftOut fails.
func (p *pruner) roleButton(i int32, nd *node, s *nodeStats) bool {
	if nd.hints&(hintRoleButton|hintTitle) == hintRoleButton && !isPageLink(nd.text) && s.chars < maxButtonChars {
		p.drop[i] = true
		return true
	}
	return false
}

// tableOfContents: a list of links to places in the page, naming the
// headings that follow in the root, says the root again; it goes with
// its title ("Contents").
// Without it, TestTableOfContentsLeftOut fails.
func (p *pruner) tableOfContents(i int32, nd *node, s *nodeStats) bool {
	x := p.x
	if p.frag == nil || (nd.tag != atom.Ul && nd.tag != atom.Ol) || s.chars < minTOCChars || p.frag[i]*10 < s.chars*9 ||
		s.chars*3 > x.st[p.root].chars || !x.namesHeadings(i, p.root, &p.heads) {
		return false
	}
	nodes := x.t.nodes
	t := i
	for q := nd.parent; q != p.root && x.st[q].chars <= s.chars+maxTOCTitle; q = nodes[q].parent {
		t = q
	}
	p.drop[t] = true
	p.drop[i] = true
	return true
}

// codeLabel: the label over a code block that names its language ("js")
// is said again by the block's fence. The block itself is asked on.
// Without it, TestCodeLanguageLabelOnce fails.
func (p *pruner) codeLabel(i int32, nd *node, s *nodeStats) bool {
	if l := p.x.languageLabel(i); l != nilNode {
		p.drop[l] = true
	}
	return false
}

// caption: a caption goes, unless it is the body of a card in a root of
// many blocks (captionedCard) or a listing's caption; the element is
// asked on.
// Without it, TestCodeSampleNamesKept fails.
func (p *pruner) caption(i int32, nd *node, s *nodeStats) bool {
	if isCaption(nd) && !(p.lenient && p.x.captionedCard(i)) && !p.x.listingCaption(i) {
		p.drop[i] = true
	}
	return false
}

// form: a form inside an article (a quote request, a sign-up, the
// filters of a comparison table) is labels and choices, not the article:
// one that is mostly not prose goes. Posts a thread wraps in forms sit
// in comment chrome (junk) and stay. In content made of many blocks the
// form beside the grid is its filters and sorting, and goes too, unless
// it holds most of the text (a page wrapped in one form) or the page is
// one product's (its options are the product's).
// Without it, TestREQ_PAGE_002_FormInArticleIsDropped fails.
func (p *pruner) form(i int32, nd *node, s *nodeStats) bool {
	x := p.x
	if !x.junk[i] && s.good*2 <= p.rootGood && s.good*4 < s.chars && (!p.lenient || !x.product && s.chars*2 <= x.st[p.root].chars) {
		p.drop[i] = true
		return true
	}
	return false
}

// shopRelatedHeading: on a product page or a page of many blocks, a
// heading that names related items ("You may also like", "Similar
// items") heads the shop's other products or the site's other threads:
// the section it opens goes, or else it and what follows it up to the
// next heading of its rank.
// Without it, TestRelatedItemsHeadingOnProductPage fails.
func (p *pruner) shopRelatedHeading(i int32, nd *node, s *nodeStats) bool {
	level := headingLevel(nd.tag)
	if level == 0 || !(p.lenient || p.x.product) || !p.x.relatedHeading(i) {
		return false
	}
	if sec := p.x.headedSection(i, p.root, level); sec != nilNode {
		p.drop[sec] = true
		return true
	}
	p.dropHeaded(i, nd, level)
	return true
}

// relatedClassHeading: in a root of prose, a heading classed as related
// items ("relatedposts-title") heads them: it and what follows it in its
// container, up to the next heading of its rank, are the related
// stories, however much prose their teasers hold.
// Without it, TestREQ_PAGE_002_RelatedHeadingDropsItsTeasers fails.
func (p *pruner) relatedClassHeading(i int32, nd *node, s *nodeStats) bool {
	if level := headingLevel(nd.tag); level > 0 && nd.hints&hintRelated != 0 {
		p.dropHeaded(i, nd, level)
		return true
	}
	return false
}

// dropHeaded drops heading i of level and its following siblings up to
// the next heading of its rank or above.
func (p *pruner) dropHeaded(i int32, nd *node, level int) {
	nodes := p.x.t.nodes
	p.drop[i] = true
	for c := nd.next; c != nilNode; c = nodes[c].next {
		if l := headingLevel(nodes[c].tag); l > 0 && l <= level {
			break
		}
		p.drop[c] = true
	}
}

// posterStats: the figures forum software prints beside every post about
// its author ("Join Date: Aug 2008", "Posts: 1,077", "Registered:
// 2012-09-03", "Reputation: 7") say who wrote, not what the post says:
// an element made of such figures alone goes, wherever the root is (a
// thread read as many blocks keeps its chrome, and these figures are
// seldom classed).
// Without it, TestREQ_PAGE_002_PosterStatsLeftOut fails.
func (p *pruner) posterStats(i int32, nd *node, s *nodeStats) bool {
	if s.chars < minStatChars || s.chars > maxStatChars || !p.x.posterStats(i) {
		return false
	}
	p.drop[i] = true
	return true
}

// replyPrompt: the prompts around a thread's reply box ("You must log in
// to answer this question", "By clicking “Post Your Answer”, you agree
// to our terms", "Start asking to get answers") and the notice of a
// thread that takes no more posts ("Not open for further replies") say
// what a visitor may do, not what the thread says: a block of its own
// whose short text opens with one of them goes.
// Without it, TestREQ_PAGE_002_ReplyPromptLeftOut fails.
func (p *pruner) replyPrompt(i int32, nd *node, s *nodeStats) bool {
	x := p.x
	if x.block[i] != i || s.chars < minPromptChars || s.chars > maxPromptChars || !x.replyPrompt(i) {
		return false
	}
	p.drop[i] = true
	return true
}

// threadNoise: in a thread of posts, an element inside a post named
// only as noise (the post's signature, its toolbar, a badge) is not what
// the post says, however much of the root's prose it holds: on a short
// thread one long signature can outweigh the posts, which the chrome
// rule's share would spare.
// Without it, TestREQ_PAGE_002_ThreadSignatureLeftOut fails.
func (p *pruner) threadNoise(i int32, nd *node, s *nodeStats) bool {
	if !p.thread || nd.hints&hintsNegative != hintNoise || s.good >= p.rootGood || !p.x.inPost(i, p.root) {
		return false
	}
	p.drop[i] = true
	return true
}

// signupCall: an invitation to subscribe set inside an article ("Join
// our newsletter", "Get the latest posts delivered to your inbox",
// "Subscribe") asks the reader for an address; it is the publisher's
// plug, not what the article says. A block of its own (a heading, a
// paragraph, a box with its form) whose short text is such an
// invitation goes: one that starts by inviting ("Sign up", "Join",
// "Get", "Stay") and names the channel (a newsletter, an inbox, a
// mailing list), or a bare label ("Subscribe", "Newsletter"). A step of
// a tutorial ("Sign up for an account") names no channel and stays.
// Without it, TestREQ_PAGE_002_SignupCallLeftOut fails.
func (p *pruner) signupCall(i int32, nd *node, s *nodeStats) bool {
	x := p.x
	if x.block[i] != i || s.chars < minSignupChars || s.chars > maxSignupChars || !x.signupCall(i) {
		return false
	}
	p.drop[i] = true
	return true
}

// controlLine: a line of its own that only names a control of the page
// ("Click to expand...", "Select all", "Share this article", "Print this
// page") or the slot of an advert ("Advertisement", "Sponsored", "Story
// continues below advertisement"), or says how long the page takes to
// read ("5 min read"), works or frames the page and says nothing of its
// own: it goes. The same words inside a sentence stay.
// Without it, TestREQ_PAGE_002_ControlLinesLeftOut fails.
func (p *pruner) controlLine(i int32, nd *node, s *nodeStats) bool {
	x := p.x
	if s.chars < minControlChars || s.chars > maxControlChars || x.st[x.block[i]].ownChars != s.chars && x.block[i] != i && !controlTag(nd.tag) {
		return false
	}
	if !x.controlLine(i) {
		return false
	}
	p.drop[i] = true
	return true
}

// relatedLabel: on a page that does not declare itself an article (a
// product page, a page of many blocks, a service page), a line that is
// not a heading but names related items the way a heading does ("You may
// also like", "Frequently bought together", "Related posts", set in a
// styled <div> or <p>) labels the group of items that comes right after
// it: the label, with the wrapper it alone fills, and that group go. The
// group must be items (a list, or cards named by their links): prose
// after such a line is the page's own. An article's "Related:" line
// leading into its own reading list is left to the article's rules.
// Without it, TestREQ_PAGE_002_RelatedLabelOnProductPage fails.
func (p *pruner) relatedLabel(i int32, nd *node, s *nodeStats) bool {
	x := p.x
	if !(p.lenient || x.product || !x.declaredArticle()) || headingLevel(nd.tag) > 0 || s.chars == 0 || s.chars > maxRelatedHeading ||
		x.st[x.block[i]].ownChars != s.chars || strings.IndexByte(relatedLeads, x.leadLetter(i)) < 0 || !x.relatedHeading(i) {
		return false
	}
	nodes := x.t.nodes
	// the label's wrapper: the ancestors it fills, with a short link
	// beside it at most ("Shop all")
	w := i
	for a := nd.parent; a != p.root && a != nilNode && x.st[a].chars <= s.chars+maxLabelExtra; a = nodes[a].parent {
		w = a
	}
	next := nodes[w].next
	for next != nilNode && (nodes[next].kind != kindElement || x.st[next].chars == 0) {
		next = nodes[next].next
	}
	if next == nilNode || x.st[next].chars*2 > x.st[p.root].chars || !x.itemGroup(next) {
		return false
	}
	p.drop[w] = true
	p.drop[next] = true
	return true
}

// maxLabelExtra is the text beside a label in the wrapper it fills.
const maxLabelExtra = 16

// itemGroup reports an element made of items rather than prose: a list,
// or a block most of whose text is in links (the names of cards).
func (x *extractor) itemGroup(i int32) bool {
	switch x.t.nodes[i].tag {
	case atom.Ul, atom.Ol:
		return true
	}
	s := &x.st[i]
	return s.linkChars*2 >= s.chars || s.good*2 < s.chars
}

// pageJump: a link or a line that only moves the reader about the page
// ("Skip to main content", "Back to top", "Return to top of page") is a
// control of the page's frame, whatever its class: themes that do not
// name it as a skip link still print it, often once per section.
// Without it, TestREQ_PAGE_002_PageJumpsLeftOut fails.
func (p *pruner) pageJump(i int32, nd *node, s *nodeStats) bool {
	if s.chars < 5 || s.chars > maxPageJump || nd.tag != atom.A && p.x.st[p.x.block[i]].ownChars != s.chars ||
		strings.IndexByte(pageJumpLeads, p.x.leadLetter(i)) < 0 || !pageJumpText(p.x.textOf(i)) {
		return false
	}
	p.drop[i] = true
	return true
}

// maxPageJump bounds the text of a link that moves about the page.
const maxPageJump = 32

// pageJumps are how the links that move about a page read, lower-cased.
var pageJumps = []string{"skip to ", "skip navigation", "back to top", "back to the top", "return to top",
	"scroll to top", "jump to top", "go to top", "top of page"}

// pageJumpLeads are the first letters of pageJumps, and relatedLeads
// those of relatedOpenings: an element whose text starts otherwise is
// not read out.
const (
	pageJumpLeads = "sbrjgt"
	relatedLeads  = "rsycpofme"
)

// leadLetter returns the first ASCII letter or digit of element i's text,
// lower-cased, or 0; it looks through maxLeadScan nodes at most.
func (x *extractor) leadLetter(i int32) byte {
	nodes := x.t.nodes
	end := subtreeEnd(nodes, i)
	for k, n := i+1, 0; k < end && n < maxLeadScan; k, n = k+1, n+1 {
		if nodes[k].kind != kindText || nodes[k].chars == 0 {
			continue
		}
		t := nodes[k].text
		for j := 0; j < len(t); j++ {
			switch c := t[j]; {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				return c
			case 'A' <= c && c <= 'Z':
				return c + 'a' - 'A'
			}
		}
	}
	return 0
}

// pageJumpText reports the text of a link that moves about the page.
func pageJumpText(text string) bool {
	t := strings.ToLower(strings.Trim(strings.Join(strings.Fields(text), " "), " ↑^⬆▲."))
	for _, j := range pageJumps {
		if strings.HasPrefix(t, j) {
			return true
		}
	}
	return false
}

// logoStrip: a strip of logos (see extractor.logoStrip) goes.
// Without it, TestLogoStripLeftOut fails.
func (p *pruner) logoStrip(i int32, nd *node, s *nodeStats) bool {
	if p.x.logoStrip(i) {
		p.drop[i] = true
		return true
	}
	return false
}

// clone: a block that repeats, whole, one met before it in the root (see
// cloneStats.copyOf) goes: a carousel's looped slides, a section
// rendered again for another screen size.
// Without it, TestClonedBlockOnce fails.
func (p *pruner) clone(i int32, nd *node, s *nodeStats) bool {
	if s.chars < minCloneChars {
		return false
	}
	if p.clones == nil {
		p.clones = p.x.cloneStats(p.root)
	}
	if p.clones.copyOf(p.x, i, p.root) {
		p.drop[i] = true
		return true
	}
	return false
}
