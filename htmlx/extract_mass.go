package htmlx

import (
	"strings"

	"golang.org/x/net/html/atom"
)

// The second reading of a page: by the mass of its text rather than the
// prose in it. Listings, collections, product and service pages, forum
// threads and documentation hold their content in many short blocks
// (cards, rows, posts, sections) that the prose score rates low or below
// zero; on such a page the best prose root is one card, one section or
// the copyright line. The mass root is where the page's text outside its
// chrome is: descending from the body while one child holds most of it,
// and stopping where it divides between siblings (the repeated set, the
// sections of the page).

// contentRoot settles the content root, starting from the prose root
// chooseRoot found. It gives way to the mass root when the prose root's
// prose is less than proseShare of the mass root's text (a listing, a
// service page, a product page: the content is many short blocks), or
// when it lies in the page footer or a cookie dialog while the page has
// minMass of text outside chrome (legal text scoring as prose). A prose
// root the page marks as its article keeps its place (articleRoot): the
// rest of an article page's text is teasers and related links.
// Otherwise, on pages that do not declare themselves articles (or whose
// best prose is a comment), it widens to the repeated set of posts or
// entries it is one of. lenient says the root is made of many blocks and
// is to be pruned as such.
//
// A prose root that is a run of entries (entryRun: the teasers of a list
// of stories hold prose) is made of many blocks too, and gives way to the
// mass root it is a part of: the page's other lists and its blurb are
// beside it.
//
// On a product page the root so found holds the shop around the product
// as well: price, options, cart, delivery terms. When the page names an
// element as the product's description (productDescription) and that
// element holds at least proseShare of the root's text outside the frame,
// the description is the content: what is left is the shop's
// machinery, short fragments the truth of a product page leaves out.
//
// A root of prose inside the mass root, on a page that does not declare
// itself an article, takes in the sections that lead into it (leadIn);
// tail is then the first node after the root's old subtree, where what
// follows it begins (nilNode otherwise).
func (x *extractor) contentRoot(root int32) (r int32, lenient bool, tail int32) {
	m := x.mass()
	r, lenient = x.manyBlocks(root, m)
	if x.product {
		if d := x.productDescription(); d != nilNode && d != r && x.within(d, r) {
			// the description's own text counts in full, even where
			// the page keeps it in a tab or an accordion
			dt := x.st[d].chars - x.st[d].linkChars
			if float32(dt) >= proseShare*float32(m[r]-m[d]+dt) {
				// the shop around it (price, options, delivery) does
				// not lead into it
				return d, false, nilNode
			}
		}
	}
	if lenient || x.declaredArticle() {
		return r, lenient, nilNode
	}
	if l := x.leadIn(r, x.massRoot(m)); l != r {
		return l, false, subtreeEnd(x.t.nodes, r)
	}
	return r, false, nilNode
}

// leadIn returns the ancestor of root, up to the mass root mr, that adds
// to it the sections leading into it: going up from root, while all that
// comes before it in each ancestor, after the page's frame opening it, is
// content (not chrome, not a list of links, not an article's byline or
// date), the highest ancestor where something does. The hero and the introduction of a service page above
// its longest section (its questions and answers, its prose), the title
// and price above a product's description, belong with it; what follows
// the root in that ancestor is left out by the caller. It returns root
// when nothing leads into it.
func (x *extractor) leadIn(root, mr int32) int32 {
	nodes := x.t.nodes
	if mr == root || !x.within(root, mr) {
		return root
	}
	best := root
	var lead int32
	for n := root; n != mr; n = nodes[n].parent {
		p := nodes[n].parent
		// the page's frame that opens p (its header, its navigation)
		// leads into nothing: prune leaves it out
		opening := true
		for c := nodes[p].first; c != n; c = nodes[c].next {
			if nodes[c].kind != kindElement || x.st[c].chars == 0 {
				continue
			}
			if opening && x.negative[c] && x.frameChrome(c) {
				continue
			}
			opening = false
			if x.junk[c] || x.linkList(c) || x.bylineIn(c) {
				return best
			}
			lead += x.st[c].chars
		}
		if lead > 0 {
			best = p
		}
	}
	return best
}

// bylineIn reports an element that holds an article's byline or date: a
// <time>, an element classed as a byline or date, a link to an author's
// page.
func (x *extractor) bylineIn(i int32) bool {
	nodes := x.t.nodes
	for k, end := i, subtreeEnd(nodes, i); k < end; k++ {
		nd := &nodes[k]
		if nd.kind == kindElement && (nd.tag == atom.Time || nd.hints&hintByline != 0 || nd.tag == atom.A && authorLink(nd.text)) {
			return true
		}
	}
	return false
}

// productDescription returns the element a product page names as the
// product's description (a class, id or itemprop "description",
// "summary"), the one with the most text outside links, at least
// minDescChars; not inside the page's frame, reviews or related items.
func (x *extractor) productDescription() int32 {
	nodes := x.t.nodes
	bad := make([]bool, len(nodes))
	desc := nilNode
	var best int32
	for i := 1; i < len(nodes); i++ {
		nd := &nodes[i]
		bad[i] = bad[nd.parent]
		if nd.kind != kindElement || bad[i] {
			continue
		}
		switch nd.tag {
		case atom.Nav, atom.Header, atom.Footer, atom.Aside, atom.Menu:
			bad[i] = true
			continue
		}
		if nd.flags&flagChrome != 0 || nd.hints&(hintComment|hintRelated|hintFooter|hintHeader|hintSidebar|hintSubscribe|hintCTA|hintAd) != 0 {
			bad[i] = true
			continue
		}
		if nd.hints&hintLead == 0 || headingLevel(nd.tag) > 0 {
			continue
		}
		if v := x.st[i].chars - x.st[i].linkChars; v >= minDescChars && v > best {
			desc, best = int32(i), v
		}
	}
	return desc
}

// minDescChars is the text a product's description needs.
const minDescChars = 100

// manyBlocks chooses between the prose root and the mass root (see
// contentRoot).
func (x *extractor) manyBlocks(root int32, m []int32) (int32, bool) {
	run := x.entryRun(root)
	mr := x.massRoot(m)
	if mr != root && !x.within(mr, root) {
		weak := !x.articleRoot(root) && float32(x.st[root].good) < proseShare*float32(m[mr])
		if weak && !run {
			// prose that is one post of a thread is weak beside the
			// page; the thread is not
			if t := x.memberThread(root); t != root && float32(m[t]) >= proseShare*float32(m[mr]) {
				return t, true
			}
		}
		chrome := (x.inFooter(root) || x.consent[root]) && m[mr] >= minMass
		// a run of entries that is a part of the mass root is one of
		// the page's lists; when it is nearly all of it, the rest is
		// the list's frame (an advert, a breadcrumb)
		part := run && x.within(root, mr) && float32(x.st[root].chars) < runShare*float32(x.st[mr].chars)
		if weak || chrome || part || x.gridBeside(root, mr) {
			return mr, true
		}
	}
	if run {
		return root, true
	}
	if !x.declaredArticle() || x.inComment(root) {
		// a page that declares itself an article and whose best
		// prose is a comment is a thread of posts
		if r := x.repeatedSet(root); r != root {
			return r, true
		}
	} else if r := x.repeatedSet(root); r != root && x.postsByMembers(r, root) {
		// on a page that declares itself an article, a run of
		// entries that carry their writers' member links is a
		// thread of posts too
		return r, true
	}
	// the prose root is the mass root, or holds it, and its prose is
	// a small part of its text: it is made of many blocks too
	weak := !x.articleRoot(root) && float32(x.st[root].good) < proseShare*float32(m[root])
	return root, weak
}

// gridBeside reports a prose root beside a grid: the mass root mr, below
// the document, holds root and, outside it, a run of at least minGridCards
// alike entries (isEntry: product cards, result rows). A category page
// sets its buying guide or its blurb beside the products it lists; the
// products are its content as much as the guide is. A page that declares
// itself an article, or whose prose the markup names as its article,
// keeps its prose root: the cards beside it are teasers.
func (x *extractor) gridBeside(root, mr int32) bool {
	if mr == 0 || !x.within(root, mr) || x.declaredArticle() || x.articleRoot(root) {
		return false
	}
	return x.holdsGrid(mr, root)
}

// holdsGrid reports a run of at least minGridCards alike entries among
// the children of an element of n's subtree, skip's subtree left out
// (nilNode: none). It looks at each node once.
func (x *extractor) holdsGrid(n, skip int32) bool {
	nodes := x.t.nodes
	counts := map[cardKey]int{}
	end := subtreeEnd(nodes, n)
	for i := n; i < end; i++ {
		if i == skip {
			i = subtreeEnd(nodes, skip) - 1
			continue
		}
		if nodes[i].kind != kindElement || nodes[i].first == nilNode {
			continue
		}
		clear(counts)
		for c := nodes[i].first; c != nilNode; c = nodes[c].next {
			if nodes[c].kind == kindElement && c != skip && x.isEntry(c) {
				k := cardKey{nodes[c].tag, nodes[c].class}
				counts[k]++
				if counts[k] >= minGridCards {
					return true
				}
			}
		}
	}
	return false
}

// minGridCards is the number of alike entries that make a grid beside a
// prose root.
const minGridCards = 10

// massShare is the share of its parent's mass at which a child is taken
// as holding the content alone.
const massShare = 0.7

// proseShare: when the prose of the prose root is less than this share
// of the mass root's text, the page is not one run of prose and the mass
// root is taken.
const proseShare = 0.4

// minMass is the text outside chrome a page needs before its mass root
// is preferred to a prose root inside chrome: a short grid of two or
// three products is a page's content, the brand's blurb in its footer is
// not.
const minMass = 100

// mass returns, for every node, the characters of text below it outside
// the page's frame (see frameChrome, productChrome).
func (x *extractor) mass() []int32 {
	nodes := x.t.nodes
	m := make([]int32, len(nodes))
	// frame marks the page's frame: navigation, headers, footers,
	// sidebars and banners by tag, role or class. Elements that are
	// chrome only by a class naming adverts, promotions, related items or
	// comments still weigh here: on a service page the "promo" cards are
	// the services, on a forum the "comments" are the posts. On a product
	// page reviews and related items are frame (productChrome). Chrome
	// that reads as prose (proseInChrome: the panels of tabs and
	// accordions) is not frame: it is where many pages keep their text.
	frame := make([]bool, len(nodes))
	for i := 1; i < len(nodes); i++ {
		frame[i] = frame[nodes[i].parent] ||
			x.negative[i] && (x.frameChrome(int32(i)) || x.productChrome(int32(i))) && !x.proseInChrome(int32(i))
	}
	for i := len(nodes) - 1; i >= 1; i-- {
		if nodes[i].kind == kindText && !frame[i] {
			m[i] = nodes[i].chars
		}
		m[nodes[i].parent] += m[i]
	}
	return m
}

// frameChrome reports chrome that frames a page rather than sits in its
// content: by tag, role, or a class naming navigation, a header or
// footer, a sidebar, a consent or subscription banner. A call to action
// ("cta") sits between the sections of a page, in its content, as its
// promotions do: on a page made of many blocks it weighs and stays.
func (x *extractor) frameChrome(i int32) bool {
	nd := &x.t.nodes[i]
	if nd.kind != kindElement {
		return false
	}
	if nd.flags&flagChrome != 0 {
		return true
	}
	switch nd.tag {
	case atom.Nav, atom.Aside, atom.Menu, atom.Header, atom.Footer:
		return true
	}
	return nd.hints&(hintNav|hintFooter|hintHeader|hintSidebar|hintSubscribe|hintShare|hintNoise|hintFilter) != 0
}

// productChrome reports, on a product page, an element named as
// reviews, comments or related items: what shoppers say and what else
// the shop sells, not the product.
func (x *extractor) productChrome(i int32) bool {
	return x.product && x.t.nodes[i].hints&(hintComment|hintRelated) != 0
}

// massRoot descends from the document while one element child holds at
// least massShare of its parent's mass, and no sibling of that child
// reads as prose leading into it (leadsInto).
func (x *extractor) massRoot(m []int32) int32 {
	nodes := x.t.nodes
	cur := int32(0)
	for {
		next := nilNode
		for c := nodes[cur].first; c != nilNode; c = nodes[c].next {
			if nodes[c].kind == kindElement && float32(m[c]) >= massShare*float32(m[cur]) && m[c] > 0 {
				next = c
				break
			}
		}
		if next == nilNode || x.leadsInto(cur, next, m) {
			return cur
		}
		cur = next
	}
}

// inFooter reports a node inside the page footer: a <footer> or an
// element classed as one that is chrome here.
func (x *extractor) inFooter(i int32) bool {
	nodes := x.t.nodes
	for n := i; n != nilNode; n = nodes[n].parent {
		if x.negative[n] && (nodes[n].tag == atom.Footer || nodes[n].hints&hintFooter != 0) {
			return true
		}
	}
	return false
}

// inComment reports a node inside an element named as a comment.
func (x *extractor) inComment(i int32) bool {
	nodes := x.t.nodes
	for n := i; n != nilNode; n = nodes[n].parent {
		if x.negative[n] && x.onlyComment(n) {
			return true
		}
	}
	return false
}

// entryRun reports a root whose text is a run of entries: element
// children that are entries (isEntry: a title and its teaser, a name and
// its price), where the kinds of entry (tag and class) that come at least
// minEntries times together hold repeatShare of the root's text (a list
// of stories may set its features apart by a class). It looks through a
// chain of wrappers, while one child holds nearly all of the text. The
// prose of a list of stories is the teasers of many, not one article.
func (x *extractor) entryRun(root int32) bool {
	nodes := x.t.nodes
	counts := map[cardKey]int{}
	sums := map[cardKey]int32{}
	n := root
	for depth := 0; depth < maxRunDepth; depth++ {
		clear(counts)
		clear(sums)
		next := nilNode
		for c := nodes[n].first; c != nilNode; c = nodes[c].next {
			cn := &nodes[c]
			if cn.kind != kindElement {
				continue
			}
			s := &x.st[c]
			if s.chars*10 >= x.st[n].chars*9 {
				next = c
			}
			if x.isEntry(c) {
				k := cardKey{cn.tag, cn.class}
				counts[k]++
				sums[k] += s.chars
			}
		}
		// the kinds of entry that repeat
		var runs int32
		for k, c := range counts {
			if c >= minEntries {
				runs += sums[k]
			}
		}
		if float32(runs) >= repeatShare*float32(x.st[n].chars) {
			return true
		}
		if next == nilNode {
			return false
		}
		n = next
	}
	return false
}

// isEntry reports an entry of a list: a block of several blocks with a
// linked image or a block that is a link (its title), short (a teaser, a
// product card), or up to twice as long when a third of it is links (a
// story's title, section and byline). The posts of a thread are mostly
// longer, and prose beside their author's link.
func (x *extractor) isEntry(i int32) bool {
	s := &x.st[i]
	if s.chars >= 2*maxEntryChars || s.linkChars == 0 || s.bits&bitHasBlock == 0 || x.t.nodes[i].tag == atom.P {
		return false
	}
	if s.chars >= maxEntryChars && s.linkChars*3 < s.chars {
		return false
	}
	return s.bits&(bitImgLink|bitTitleLink) != 0
}

// minEntries is the number of alike entries that make a run;
// maxEntryChars the text of a short entry; maxRunDepth the wrappers looked
// through; runShare the share of the mass root's text above which a run
// is the list of the page by itself.
const (
	minEntries    = 3
	maxEntryChars = 600
	maxRunDepth   = 4
	runShare      = 0.85
)

// maxRepeatUp bounds how far above the prose root a repeated set is
// looked for.
const maxRepeatUp = 8

// repeatedSet widens a prose root to the run of siblings it belongs to:
// the posts of a thread, the answers to a question, the entries of a
// list, where one of them holds the most prose and the others are short.
// Going up from root, the first ancestor whose child on the way has at
// least one sibling of its tag and class, the siblings holding text and
// together at least repeatShare of the ancestor's text, is the content.
// The child on the way may also be the one marked member of a run of
// alike siblings: its first class name is theirs, and a modifier sets it
// apart ("post first-post", "answer accepted-answer" among "post" or
// "answer" siblings); the others then share one class, at least two of
// them, so that sections of a page builder, each named after its kind
// ("section hero", "section faq"), are not a run.
// It returns root when there is none.
func (x *extractor) repeatedSet(root int32) int32 {
	return x.widenToSet(root, func(p, n int32) bool {
		nodes := x.t.nodes
		nd := &nodes[n]
		k, sum := 0, int32(0)
		// the siblings marked apart from n: how many, their text, and
		// whether they share one class
		alike, alikeSum, alikeClass, mixed := 0, int32(0), uint32(0), false
		for c := nodes[p].first; c != nilNode; c = nodes[c].next {
			cn := &nodes[c]
			if cn.kind != kindElement || cn.tag != nd.tag || x.st[c].chars < minPostChars {
				continue
			}
			if cn.class == nd.class {
				k++
				sum += x.st[c].chars
			} else if nd.class1 != 0 && cn.class1 == nd.class1 {
				if alike > 0 && cn.class != alikeClass {
					mixed = true
				}
				alike++
				alikeSum += x.st[c].chars
				alikeClass = cn.class
			}
		}
		if k == 1 && alike >= 2 && !mixed {
			k, sum = k+alike, sum+alikeSum
		}
		return k >= 2 && float32(sum) >= repeatShare*float32(x.st[p].chars) && sum-x.st[n].chars >= x.st[n].chars/4
	})
}

// widenToSet goes up from root, at most maxRepeatUp levels, and returns
// the first ancestor p where isSet(p, n) holds, n being p's child on the
// way; root when there is none.
func (x *extractor) widenToSet(root int32, isSet func(p, n int32) bool) int32 {
	nodes := x.t.nodes
	n := root
	for j := 0; j < maxRepeatUp && n > 0; j++ {
		p := nodes[n].parent
		if p == nilNode {
			break
		}
		if isSet(p, n) {
			return p
		}
		n = p
	}
	return root
}

// minPostChars is the text a sibling of the set needs; repeatShare the
// share of the container's text the set holds.
const (
	minPostChars = 30
	repeatShare  = 0.6
)

// onlyComment reports an element that is chrome only by a class or id
// naming comments, replies or a discussion: on a forum that names the
// posts themselves.
func (x *extractor) onlyComment(i int32) bool {
	nd := &x.t.nodes[i]
	if nd.flags&flagChrome != 0 || nd.hints&hintsNegative != hintComment || nd.hints&hintReview != 0 {
		// reviews and testimonials are a product's or a service's,
		// not the posts of a thread
		return false
	}
	switch nd.tag {
	case atom.Nav, atom.Aside, atom.Menu, atom.Header, atom.Footer:
		return false
	}
	return true
}

// isThread reports a root whose text is mostly in elements named as
// comments or replies, of which there are several: a thread of posts,
// the content of the page, not a comment section below an article.
func (x *extractor) isThread(root int32) bool {
	nodes := x.t.nodes
	if x.declaredArticle() {
		// an article's comments are not its content, however many,
		// unless the root is the list of posts itself, or holds it
		// with little else (a title above it) and the list is not
		// named as a comment section
		list := root
		for c := nodes[root].first; c != nilNode; c = nodes[c].next {
			if nodes[c].kind == kindElement && !x.negative[c] && float32(x.st[c].chars) >= massShare*float32(x.st[root].chars) {
				list = c
				break
			}
		}
		if !x.listOfComments(root, root) && (list == root || !x.listOfComments(list, root)) {
			return false
		}
	}
	for n := root; n != nilNode; n = nodes[n].parent {
		if x.negative[n] && nodes[n].hints&hintComment != 0 && x.st[0].good-x.st[n].good >= maxOpeningPost {
			// inside a comment section, and the page has prose of its
			// own elsewhere: an article with comments
			return false
		}
	}
	var in int32
	posts := 0
	stack := []int32{root}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if i != root && x.onlyComment(i) && x.negative[i] {
			in += x.st[i].chars
			posts++
			continue
		}
		for c := nodes[i].first; c != nilNode; c = nodes[c].next {
			if nodes[c].kind == kindElement && nodes[c].first != nilNode {
				stack = append(stack, c)
			}
		}
	}
	// prose of its own outside them (more than a question or a first
	// post) makes the root an article with comments below it
	return posts >= 2 && in*2 >= x.st[root].chars && x.st[root].good-x.commentGood(root) < maxOpeningPost
}

// listOfComments reports an element whose children include at least two
// elements named as comments, holding at least half of root's text.
func (x *extractor) listOfComments(list, root int32) bool {
	nodes := x.t.nodes
	var direct int32
	k := 0
	for c := nodes[list].first; c != nilNode; c = nodes[c].next {
		// a reply form beside the comments, without prose, is not one
		if nodes[c].kind == kindElement && x.negative[c] && x.onlyComment(c) && x.st[c].good > 0 {
			direct += x.st[c].chars
			k++
		}
	}
	return k >= 2 && direct*2 >= x.st[root].chars
}

// maxOpeningPost is the most prose a thread's root holds outside the
// posts named as comments.
const maxOpeningPost = 2000

// commentGood sums the prose inside the topmost comment-named elements
// below root.
func (x *extractor) commentGood(root int32) int32 {
	nodes := x.t.nodes
	var g int32
	stack := []int32{root}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if i != root && x.negative[i] && x.onlyComment(i) {
			g += x.st[i].good
			continue
		}
		for c := nodes[i].first; c != nilNode; c = nodes[c].next {
			if nodes[c].kind == kindElement && nodes[c].first != nilNode {
				stack = append(stack, c)
			}
		}
	}
	return g
}

// minArticleProse is the prose a root of a declared article needs to
// stand against the mass root: category and archive pages declare
// themselves articles too, and hold a blurb.
const minArticleProse = 600

// articleRoot reports a prose root that the page marks as its article:
// inside the element named as the article's body (itemprop=articleBody,
// an article-body class) and reading as prose for at least
// minBodyProseShare of its text, or, on a page that declares itself an
// article, holding minArticleProse of prose. Themes name the content
// area of every page so ("entry-content"): on a page of awards or
// products it holds a blurb and a grid of cards, which is made of many
// blocks, not an article.
func (x *extractor) articleRoot(root int32) bool {
	if x.st[root].good == 0 {
		// no prose at all: a list of filters or labels scoring on
		// its number of items
		return false
	}
	if sc := x.semanticScope(); sc != 0 && x.t.nodes[sc].hints&hintArticleBody != 0 && x.within(root, sc) &&
		float32(x.st[root].good) >= minBodyProseShare*float32(x.st[root].chars) {
		return true
	}
	return x.declaredArticle() && x.st[root].good >= minArticleProse
}

// minBodyProseShare is the share of prose in its text that makes the
// element named as the article's body an article.
const minBodyProseShare = 0.1

// declaredArticle reports a page whose Open Graph type is an article.
func (x *extractor) declaredArticle() bool {
	return x.t.ogType == "article"
}

// repeatedChrome returns the tag and class of elements inside root that
// look like chrome by their class alone but repeat and together hold
// most of root's prose: the reviews of a review site, the entries of a
// list classed "feed" or "related" by its theme. Dropped one by one, each
// holds too little prose to be kept; together they are the content.
func (x *extractor) repeatedChrome(root int32) map[cardKey]bool {
	nodes := x.t.nodes
	rootGood := x.st[root].good
	if rootGood == 0 {
		return nil
	}
	var sums map[cardKey]int32
	var counts map[cardKey]int
	stack := []int32{root}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &nodes[i]
		if i != root && x.negative[i] {
			if nd.flags&flagChrome == 0 && x.st[i].good > 0 && x.classChrome(i) {
				if sums == nil {
					sums, counts = map[cardKey]int32{}, map[cardKey]int{}
				}
				k := cardKey{nd.tag, nd.class}
				sums[k] += x.st[i].good
				counts[k]++
			}
			continue
		}
		for c := nd.first; c != nilNode; c = nodes[c].next {
			if nodes[c].kind == kindElement && nodes[c].first != nilNode {
				stack = append(stack, c)
			}
		}
	}
	var kept map[cardKey]bool
	for k, g := range sums {
		if counts[k] >= 2 && g*2 > rootGood {
			if kept == nil {
				kept = map[cardKey]bool{}
			}
			kept[k] = true
		}
	}
	for k := range x.proseRuns(root) {
		if kept == nil {
			kept = map[cardKey]bool{}
		}
		kept[k] = true
	}
	return kept
}

// minProseRun is the number of sibling cards, alike and each with prose,
// that make a run of content.
const minProseRun = 3

// proseRuns returns the tag and class of runs of at least minProseRun
// siblings inside root, alike (runKey), each holding prose, that are
// chrome by a class naming promotions, tabs or widgets: the service cards
// of a landing page ("promo-tile"). Adverts are frames and fragments, not a
// row of paragraphs. Runs named as comments or related items are left to
// their own rules (a thread; teasers below an article).
func (x *extractor) proseRuns(root int32) map[cardKey]bool {
	nodes := x.t.nodes
	var runs map[cardKey]bool
	counts := map[cardKey]int{}
	stack := []int32{root}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		clear(counts)
		for c := nodes[i].first; c != nilNode; c = nodes[c].next {
			cn := &nodes[c]
			if cn.kind != kindElement || cn.first == nilNode {
				continue
			}
			stack = append(stack, c)
			if x.proseRunMember(c) {
				counts[x.runKey(c)]++
			}
		}
		for c := nodes[i].first; c != nilNode; c = nodes[c].next {
			cn := &nodes[c]
			if cn.kind == kindElement && cn.first != nilNode && x.proseRunMember(c) && counts[x.runKey(c)] >= minProseRun {
				if runs == nil {
					runs = map[cardKey]bool{}
				}
				runs[cardKey{cn.tag, cn.class}] = true
			}
		}
	}
	return runs
}

// proseRunMember reports a member of a run proseRuns looks for: chrome by
// a class naming promotions, tabs, widgets or a layout's side column,
// holding prose.
func (x *extractor) proseRunMember(c int32) bool {
	cn := &x.t.nodes[c]
	return x.negative[c] && x.st[c].good > 0 && cn.flags&flagChrome == 0 && x.classChrome(c) &&
		cn.hints&(hintComment|hintRelated) == 0
}

// runKey is the kind of a member of a run: its tag and first class name,
// which its siblings share where a modifier sets every other one apart
// ("feature sidebar-left reversed"); its whole class when the first name
// has a digit (a grid's column, not a kind of element).
func (x *extractor) runKey(c int32) cardKey {
	cn := &x.t.nodes[c]
	if cn.class1 != 0 {
		return cardKey{cn.tag, cn.class1}
	}
	return cardKey{cn.tag, cn.class}
}

// classChrome reports an element that is chrome by its class or id
// only: not by its tag, and not named as navigation, a footer or a
// consent or subscription banner.
func (x *extractor) classChrome(i int32) bool {
	nd := &x.t.nodes[i]
	switch nd.tag {
	case atom.Nav, atom.Aside, atom.Menu, atom.Header, atom.Footer:
		return false
	}
	return nd.hints&(hintNav|hintFooter|hintSubscribe) == 0
}

// minChromeProse is the prose at which an element named like tabs, a
// menu, a sidebar or a dialog, and made mostly of prose, is content.
const minChromeProse = 150

// proseInChrome reports an element that looks like chrome by its role or
// class but reads as prose: the panels of tabs and accordions (a
// role="tablist" around them), a text column classed as
// secondary. Menus and sidebars are links and fragments; comments,
// related stories, author boxes, adverts and banners keep their verdict
// whatever their prose. A section named as a call to action that reads
// as prose is the pitch of a service page, made with a page builder's
// "cta" block; on a page that declares itself an article the same
// block is the publisher's plug for its newsletter or product, and goes.
func (x *extractor) proseInChrome(i int32) bool {
	nd := &x.t.nodes[i]
	s := &x.st[i]
	if s.good < minChromeProse || s.good*2 < s.chars {
		return false
	}
	switch nd.tag {
	case atom.Nav, atom.Aside, atom.Menu, atom.Header, atom.Footer:
		return false
	}
	if nd.hints&hintCTA != 0 && x.declaredArticle() {
		return false
	}
	return nd.hints&(hintComment|hintRelated|hintNoise|hintSubscribe|hintAd|hintFooter) == 0
}

// leadsInto reports a sibling of the dominant child c, outside chrome,
// that reads as prose: the blurb of a collection above its grid, the
// introduction of a listing. It belongs with c, so the descent stops
// at their parent.
func (x *extractor) leadsInto(parent, c int32, m []int32) bool {
	nodes := x.t.nodes
	for s := nodes[parent].first; s != nilNode; s = nodes[s].next {
		if s != c && nodes[s].kind == kindElement && m[s] > 0 && x.st[s].good > 0 && !x.junk[s] {
			return true
		}
	}
	return false
}

// postsByMembers reports a set (see repeatedSet) whose entries of the
// kind of the one holding root, at least minThreadPosts of them, mostly
// (two in three) link to a member's page: posts, each headed by its
// writer's name. Forums link a post's writer so; the sections of an
// article, or the teasers beside it, do not.
func (x *extractor) postsByMembers(set, root int32) bool {
	nodes := x.t.nodes
	n := root
	for nodes[n].parent != set {
		n = nodes[n].parent
	}
	k, members := 0, 0
	for c := nodes[set].first; c != nilNode; c = nodes[c].next {
		if !x.postLike(c, n) {
			continue
		}
		k++
		if x.memberLinkIn(c) {
			members++
		}
	}
	return k >= minThreadPosts && members*3 >= k*2
}

// minThreadPosts is the number of posts that make a thread of a page
// declared an article.
const minThreadPosts = 3

// memberLinkIn reports a link to a member's page below c.
func (x *extractor) memberLinkIn(c int32) bool {
	nodes := x.t.nodes
	for i, end := c+1, subtreeEnd(nodes, c); i < end; i++ {
		if nodes[i].kind == kindElement && nodes[i].tag == atom.A && memberLink(nodes[i].text) {
			return true
		}
	}
	return false
}

// memberPaths are the path segments of the pages of a forum's members,
// as the common forum software names them.
var memberPaths = []string{"members/", "member/", "users/", "user/", "u/", "profile/", "profiles/",
	"profile.php", "member.php", "memberlist.php", "action=profile"}

// memberLink reports a link to a member's page: one of memberPaths that
// starts the href or one of its path segments or query parameters.
func memberLink(href string) bool {
	for i := 0; i < len(href); i++ {
		if i > 0 && href[i-1] != '/' && href[i-1] != '?' && href[i-1] != '&' {
			continue
		}
		rest := href[i:]
		for _, p := range memberPaths {
			if len(p) <= len(rest) && strings.EqualFold(rest[:len(p)], p) {
				return true
			}
		}
	}
	return false
}

// memberThread widens a prose root to the thread of posts it is one
// of: going up from root (at most maxRepeatUp levels), the first
// ancestor whose child on the way has siblings of its kind (tag and
// class, or first class name), two or more of them in all, that mostly
// (two in three) link to a member's page and together hold repeatShare
// of the ancestor's text. Unlike repeatedSet, the other posts may be
// short (one reply to a question): the members' links say they are
// posts. It returns root when there is none.
func (x *extractor) memberThread(root int32) int32 {
	return x.widenToSet(root, func(p, n int32) bool {
		k, members := 0, 0
		var sum int32
		for c := x.t.nodes[p].first; c != nilNode; c = x.t.nodes[c].next {
			if !x.postLike(c, n) {
				continue
			}
			k++
			sum += x.st[c].chars
			if x.memberLinkIn(c) {
				members++
			}
		}
		return k >= 2 && members*3 >= k*2 && float32(sum) >= repeatShare*float32(x.st[p].chars)
	})
}

// postLike reports an element c of n's kind (its tag, and its class or
// at least its first class name) holding minPostChars: another post
// beside post n.
func (x *extractor) postLike(c, n int32) bool {
	cn, nd := &x.t.nodes[c], &x.t.nodes[n]
	return cn.kind == kindElement && cn.tag == nd.tag && x.st[c].chars >= minPostChars &&
		(cn.class == nd.class || nd.class1 != 0 && cn.class1 == nd.class1)
}

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
