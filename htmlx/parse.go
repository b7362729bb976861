package htmlx

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Bounds on the structured data (JSON-LD) the parser keeps for
// extract_ld.go to decode.
const (
	maxLDJSONBytes   = 1 << 20 // script text kept for decoding, in all
	maxLDJSONScripts = 64
)

// The tree builder: a streaming, bounded subset of the HTML tree
// construction rules, on top of html.Tokenizer. It keeps what matters for
// reading a page and for hiding what a browser hides: implied end tags,
// void and raw-text elements, table rows and cells with foster parenting,
// stray and misnested end tags, foreign content and its break-out tags,
// the quirks-mode <table> inside <p>, the select that holds its ground,
// closed <details>, and the reopening of implicitly closed *hidden*
// formatting elements. It leaves out what only moves visible text around
// (the adoption agency's restructuring, cloning of shown formatting
// elements). Every rule is O(1) per token, or bounded by a small constant
// (the stack depth, 32 hidden formatting elements), so the cost is linear
// in the input.
//
// Bounds: the parse stops at the first element that would exceed
// Limits.MaxDepth open elements or the first node beyond Limits.MaxNodes;
// everything before the cut is kept and the result is marked partial.
// Excluded subtrees (scripts, styles, hidden elements, form controls,
// foreign content, templates...) are tracked on the stack but keep no
// nodes and no text; their elements still count toward MaxNodes.
//
// Hidden means: the hidden attribute, aria-hidden="true", type="hidden",
// an inline style or a simple class or id rule of an earlier <style> that
// hides (display:none, visibility:hidden, opacity:0, font-size:0, off
// screen...), and conventional hiding classes (sr-only, d-none...).

const (
	kindElement uint8 = iota
	kindText
)

// node flags
const (
	flagSpaceBefore uint16 = 1 << iota // white space preceded the node
	flagPre                            // text whose white space is kept
	flagTH                             // a header cell
	flagChrome                         // page chrome by tag or role
	flagTablist                        // role=tablist
	flagTabpanel                       // role=tabpanel
	flagCodeLine                       // a span or div classed "line": one line of highlighted code
)

// nilNode marks an absent link in the node arena.
const nilNode int32 = -1

// node is one element or text run of the document. Nodes live in an arena
// in document order, so a parent always precedes its descendants: a loop
// over the arena backwards visits every child before its parent.
type node struct {
	tag   atom.Atom
	kind  uint8
	flags uint16
	hints uint32 // class/id/role hint bits
	class uint32 // hash of the class attribute, to find repeated siblings
	// class1 hashes the first class name alone: siblings of one kind
	// whose modifiers differ ("post first", "post odd") share it. It is
	// zero for a name with a digit: a utility class of a spacing or grid
	// scale ("pl-3", "col-12") names no kind of element.
	class1 uint32
	parent int32
	first  int32
	last   int32
	next   int32
	prev   int32
	// text is the text of a text node; for an element it is the
	// attribute that matters for rendering: href of a, alt of img, the
	// code language of pre and code, the start number of ol.
	text string
	// chars counts non-space characters of a text node; punct its
	// sentence punctuation.
	chars int32
	punct int32
}

// tag ids for the elements whose topmost open position is tracked, so
// that scope checks and end tags cost O(1) instead of a stack walk.
const (
	idNone uint8 = iota
	idP
	idLI
	idDD
	idDT
	idA
	idButton
	idTable
	idTR
	idTD
	idTH
	idTSection
	idCaption
	idColgroup
	idSelect
	idTemplate
	idHeading
	idForm
	idOption
	idOptgroup
	idApplet
	idMarquee
	idObject
	idRuby
	idRt
	// special blocks whose end tag needs an element in scope
	idAddress
	idArticle
	idAside
	idBlockquote
	idCenter
	idDetails
	idDialog
	idDir
	idDiv
	idDL
	idFieldset
	idFigcaption
	idFigure
	idFooter
	idHeader
	idHgroup
	idListing
	idMain
	idMenu
	idNav
	idOL
	idPre
	idSearch
	idSection
	idSummary
	idUL
	// formatting elements
	idB
	idBig
	idCode
	idEm
	idFont
	idI
	idNobr
	idS
	idSmall
	idStrike
	idStrong
	idTT
	idU
	numIDs
)

func tagID(a atom.Atom) uint8 {
	switch a {
	case atom.P:
		return idP
	case atom.Li:
		return idLI
	case atom.Dd:
		return idDD
	case atom.Dt:
		return idDT
	case atom.A:
		return idA
	case atom.Button:
		return idButton
	case atom.Table:
		return idTable
	case atom.Tr:
		return idTR
	case atom.Td:
		return idTD
	case atom.Th:
		return idTH
	case atom.Tbody, atom.Thead, atom.Tfoot:
		return idTSection
	case atom.Caption:
		return idCaption
	case atom.Colgroup:
		return idColgroup
	case atom.Select:
		return idSelect
	case atom.Template:
		return idTemplate
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return idHeading
	case atom.Form:
		return idForm
	case atom.Option:
		return idOption
	case atom.Optgroup:
		return idOptgroup
	case atom.Applet:
		return idApplet
	case atom.Marquee:
		return idMarquee
	case atom.Object:
		return idObject
	case atom.Ruby:
		return idRuby
	case atom.Rt, atom.Rp, atom.Rb, atom.Rtc:
		return idRt
	case atom.Address:
		return idAddress
	case atom.Article:
		return idArticle
	case atom.Aside:
		return idAside
	case atom.Blockquote:
		return idBlockquote
	case atom.Center:
		return idCenter
	case atom.Details:
		return idDetails
	case atom.Dialog:
		return idDialog
	case atom.Dir:
		return idDir
	case atom.Div:
		return idDiv
	case atom.Dl:
		return idDL
	case atom.Fieldset:
		return idFieldset
	case atom.Figcaption:
		return idFigcaption
	case atom.Figure:
		return idFigure
	case atom.Footer:
		return idFooter
	case atom.Header:
		return idHeader
	case atom.Hgroup:
		return idHgroup
	case atom.Listing:
		return idListing
	case atom.Main:
		return idMain
	case atom.Menu:
		return idMenu
	case atom.Nav:
		return idNav
	case atom.Ol:
		return idOL
	case atom.Pre:
		return idPre
	case atom.Search:
		return idSearch
	case atom.Section:
		return idSection
	case atom.Summary:
		return idSummary
	case atom.Ul:
		return idUL
	case atom.B:
		return idB
	case atom.Big:
		return idBig
	case atom.Code:
		return idCode
	case atom.Em:
		return idEm
	case atom.Font:
		return idFont
	case atom.I:
		return idI
	case atom.Nobr:
		return idNobr
	case atom.S:
		return idS
	case atom.Small:
		return idSmall
	case atom.Strike:
		return idStrike
	case atom.Strong:
		return idStrong
	case atom.Tt:
		return idTT
	case atom.U:
		return idU
	}
	return idNone
}

// isSpecial reports the HTML "special" category: elements that stop the
// search for a misnested end tag.
func isSpecial(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Applet, atom.Area, atom.Article, atom.Aside,
		atom.Base, atom.Basefont, atom.Bgsound, atom.Blockquote, atom.Body,
		atom.Br, atom.Button, atom.Caption, atom.Center, atom.Col,
		atom.Colgroup, atom.Dd, atom.Details, atom.Dir, atom.Div, atom.Dl,
		atom.Dt, atom.Embed, atom.Fieldset, atom.Figcaption, atom.Figure,
		atom.Footer, atom.Form, atom.Frame, atom.Frameset, atom.H1, atom.H2,
		atom.H3, atom.H4, atom.H5, atom.H6, atom.Head, atom.Header,
		atom.Hgroup, atom.Hr, atom.Html, atom.Iframe, atom.Img, atom.Input,
		atom.Keygen, atom.Li, atom.Link, atom.Listing, atom.Main,
		atom.Marquee, atom.Menu, atom.Meta, atom.Nav, atom.Noembed,
		atom.Noframes, atom.Noscript, atom.Object, atom.Ol, atom.P,
		atom.Param, atom.Plaintext, atom.Pre, atom.Script, atom.Search,
		atom.Section, atom.Select, atom.Source, atom.Style, atom.Summary,
		atom.Table, atom.Tbody, atom.Td, atom.Template, atom.Textarea,
		atom.Tfoot, atom.Th, atom.Thead, atom.Title, atom.Tr, atom.Track,
		atom.Ul, atom.Wbr, atom.Xmp:
		return true
	}
	return false
}

// closesP reports start tags that close an open p in button scope.
func closesP(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote,
		atom.Center, atom.Details, atom.Dialog, atom.Dir, atom.Div, atom.Dl,
		atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer,
		atom.Header, atom.Hgroup, atom.Main, atom.Menu, atom.Nav, atom.Ol,
		atom.P, atom.Search, atom.Section, atom.Summary, atom.Ul, atom.H1,
		atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Pre, atom.Listing,
		atom.Form, atom.Plaintext, atom.Table, atom.Hr, atom.Xmp, atom.Li,
		atom.Dd, atom.Dt:
		return true
	}
	return false
}

func isVoid(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Basefont, atom.Bgsound, atom.Br,
		atom.Col, atom.Embed, atom.Frame, atom.Hr, atom.Img, atom.Image,
		atom.Input, atom.Keygen, atom.Link, atom.Meta, atom.Param,
		atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}

// excludedTag reports elements whose content a reader never sees as page
// text: raw text and scripting, embedded and foreign content, form
// controls, templates, closed dialogs.
func excludedTag(a atom.Atom) bool {
	switch a {
	case atom.Script, atom.Style, atom.Template, atom.Noscript,
		atom.Iframe, atom.Object, atom.Applet, atom.Embed, atom.Noembed,
		atom.Noframes, atom.Frameset, atom.Button, atom.Select,
		atom.Input, atom.Textarea, atom.Option, atom.Optgroup,
		atom.Datalist, atom.Svg, atom.Math, atom.Canvas, atom.Video,
		atom.Audio, atom.Map, atom.Title, atom.Head, atom.Dialog,
		atom.Menuitem:
		return true
	}
	return false
}

// breaksOutOfForeign reports HTML start tags that end svg or math content.
func breaksOutOfForeign(a atom.Atom) bool {
	switch a {
	case atom.B, atom.Big, atom.Blockquote, atom.Body, atom.Br,
		atom.Center, atom.Code, atom.Dd, atom.Div, atom.Dl, atom.Dt,
		atom.Em, atom.Embed, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5,
		atom.H6, atom.Head, atom.Hr, atom.I, atom.Img, atom.Li,
		atom.Listing, atom.Menu, atom.Meta, atom.Nobr, atom.Ol, atom.P,
		atom.Pre, atom.Ruby, atom.S, atom.Small, atom.Span, atom.Strong,
		atom.Strike, atom.Sub, atom.Sup, atom.Table, atom.Tt, atom.U,
		atom.Ul, atom.Var:
		return true
	}
	return false
}

// entry is one open element on the parser's stack. The position fields
// are stack positions (-1 when there is none) of the topmost element at
// or below this entry with the named property, so scope questions are
// answered from the top entry alone.
type entry struct {
	node        int32 // arena index, or nilNode inside an excluded subtree
	tag         atom.Atom
	name        string // tag name of an element without an atom
	id          uint8
	skip        bool  // excluded subtree: no nodes, no text
	veiled      bool  // skipped as hidden, a template, noscript or a closed details: text kept out of sight
	veil        int32 // 1 + the index in parser.veils of the outermost hidden element this one is inside, or 0
	pre         bool  // white space is kept
	closed      bool  // a <details> without open: only its first summary shows
	ldjson      bool  // a script of structured data (application/ld+json)
	summary     bool  // that summary has been seen
	afe         int32 // index in parser.afe of a hidden formatting element, or -1
	marker      bool  // a cell, caption or object: a boundary of parser.afe
	prevTop     int32
	special     int32
	specialLI   int32 // special, not counting address, div and p
	scope       int32 // default scope barrier
	listScope   int32
	buttonScope int32
	tableScope  int32
	foreign     int32 // the svg or math root
}

// tree is the parser's result.
type tree struct {
	nodes    []node
	partial  bool
	title    string
	ogTitle  string
	siteName string
	ogType   string // og:type, lower-cased: "article", "website", "product"...
	baseHref string
	// ldjson holds the text of the application/ld+json scripts outside
	// excluded subtrees, at most maxLDJSONBytes in all
	ldjson  []string
	ldjsonN int
	// productItems counts the visible elements marked up as a product
	// (microdata itemtype schema.org/Product)
	productItems int
	// veiledChars counts, up to maxVeiledCount, the characters of text
	// the page keeps out of sight (see parser.countVeiled)
	veiledChars int
	// scriptBytes counts the bytes of script code (structured data
	// left out)
	scriptBytes int
	tablists    int  // elements with role=tablist
	noscripts   int  // noscript fallbacks outside excluded subtrees
	details     bool // a <details> was read
	// reparse: a hidden disclosure panel came before the control that
	// names it, so the page is parsed again knowing controls
	reparse  bool
	controls map[string]bool
	// hiddenChars counts the characters of text in the outermost hidden
	// elements, fadedChars those in the faded ones among them (fadedPage)
	hiddenChars, fadedChars int
	// markupMD is the Markdown the markup gave, before the structured
	// data completed it
	markupMD string
	counted  int // elements and text runs parsed
	deepest  int // most elements open at once
}

type parser struct {
	z            *html.Tokenizer
	doc          string
	pos          int
	t            tree
	stack        []entry
	top          [numIDs]int32
	maxNodes     int
	maxDepth     int
	count        int // elements and text runs parsed, excluded ones included
	pendingSpace bool
	dropNewline  bool // the token after <pre> loses one leading newline
	inTitle      bool
	titleSeen    bool
	stopped      bool
	scratch      []byte
	classCache   [classSlots]classSlot // see classInfo
	hiddenSel    hiddenSelectors
	pageHidden   bool // <html> or <body> hidden by its own markup: nothing is shown
	// afe lists the formatting elements that are still active in the
	// HTML sense. Hidden ones closed implicitly (by a block end tag, say)
	// are reopened before the next text, as browsers do, so what they
	// hide stays hidden. Markers fence cells and captions.
	afe         []afeEntry
	afeHidden   int
	quirks      bool // no or a legacy doctype: <table> leaves <p> open
	closeSelect bool // the current pop may close an open select
	formOpen    bool // the form element pointer: set by <form>, cleared by </form>
	sawDoctype  bool
	sawElement  bool
	read        readOpts    // what of the hidden text is read (the disclosure reading, below in parse.go)
	disc        disclosures // the disclosure relations seen so far
	stream      streamed    // a streaming renderer's placeholders and segments
	fostered    bool        // a node was placed before a table made earlier (foster parenting)
	veils       []veil      // the outermost hidden elements, while fewer than maxVeils
	// the id and aria-controls of the start tag being read, valid until
	// the tokenizer's next token
	attrID, attrControls []byte
}

// afeEntry is a formatting element or a marker. Only hidden entries are
// reopened; shown ones are kept so that an end tag matches the element a
// browser would match.
type afeEntry struct {
	tag    atom.Atom
	marker bool
	open   bool
	hidden bool
}

// maxHiddenFormatting bounds the hidden formatting elements kept active;
// a document with more is cut there (read in part).
const maxHiddenFormatting = 32

func isFormatting(a atom.Atom) bool {
	switch a {
	case atom.A, atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I,
		atom.Nobr, atom.S, atom.Small, atom.Strike, atom.Strong, atom.Tt, atom.U:
		return true
	}
	return false
}

// reconstructs reports start tags before which browsers reopen the
// active formatting elements: inline, void and ordinary elements, not
// blocks, table parts or head elements.
func reconstructs(a atom.Atom) bool {
	if closesP(a) {
		return false
	}
	switch a {
	case atom.Table, atom.Caption, atom.Colgroup, atom.Col, atom.Tbody,
		atom.Thead, atom.Tfoot, atom.Tr, atom.Td, atom.Th, atom.Html,
		atom.Head, atom.Body, atom.Title, atom.Meta, atom.Base, atom.Link,
		atom.Script, atom.Style, atom.Template, atom.Noscript, atom.Frameset,
		atom.Frame, atom.Option, atom.Optgroup, atom.Rb, atom.Rp, atom.Rt,
		atom.Rtc, atom.Svg, atom.Math:
		return false
	}
	return true
}

// maxEndTagScan bounds the walk down the stack for an end tag of an
// element without a tracked id (span, custom elements...). Such elements
// left open more than this many levels below are not closed by it; their
// text is kept either way.
const maxEndTagScan = 24

// parseHTML builds the bounded tree of doc, reading hidden content as
// the book's REQ-CTX-005 strictly does.
func parseHTML(doc string, maxNodes, maxDepth int) *tree {
	return parseOnce(doc, maxNodes, maxDepth, readOpts{strict: true}, nil)
}

// parseOnce is one pass of the tree builder; controls are the ids the
// page's disclosure controls name, when an earlier pass found them.
func parseOnce(doc string, maxNodes, maxDepth int, read readOpts, controls map[string]bool) *tree {
	p := &parser{
		z:        html.NewTokenizer(strings.NewReader(doc)),
		doc:      doc,
		maxNodes: maxNodes,
		maxDepth: maxDepth,
		read:     read,
	}
	p.disc.controls, p.disc.preset = controls, controls != nil
	for i := range p.top {
		p.top[i] = -1
	}
	p.quirks = true // until a doctype says otherwise
	est := len(doc) / 64
	if est > maxNodes {
		est = maxNodes
	}
	if est < 16 {
		est = 16
	}
	p.t.nodes = make([]node, 1, est)
	p.t.nodes[0] = node{kind: kindElement, tag: atom.Body, parent: nilNode, first: nilNode, last: nilNode, next: nilNode, prev: nilNode}
	p.stack = make([]entry, 0, 64)
	p.run()
	p.t.counted = p.count
	for _, v := range p.veils {
		p.t.hiddenChars += v.chars
		if v.faded {
			p.t.fadedChars += v.chars
		}
	}
	moved := p.stream.place(p.t.nodes)
	p.t.reparse = p.disc.reparse()
	p.t.controls = p.disc.controls
	if !p.read.strict && summariesFirst(&p.t) {
		moved = true
	}
	if moved || p.fostered {
		inDocumentOrder(p.t.nodes)
	}
	return &p.t
}

// documentNext returns the node after n in document order (its first
// child, else the next sibling of it or of its nearest ancestor that has
// one), or nilNode after the last.
func documentNext(nodes []node, n int32) int32 {
	if nodes[n].first != nilNode {
		return nodes[n].first
	}
	for n != nilNode && nodes[n].next == nilNode {
		n = nodes[n].parent
	}
	if n != nilNode {
		n = nodes[n].next
	}
	return n
}

// inDocumentOrder renumbers the arena after nodes were moved (a streamed
// segment into its placeholder's place, a summary to the front of its
// details) or placed before a table made earlier (foster parenting), so
// that it is in document order again: each node's subtree
// is the range of indices from the node to subtreeEnd, which the
// extraction relies on. The permutation is applied in place, by its
// cycles; nodes no longer reachable from the root (none are made today)
// keep their order after the reachable ones.
func inDocumentOrder(nodes []node) {
	to := make([]int32, len(nodes)) // old index -> new index
	for i := range to {
		to[i] = nilNode
	}
	next := int32(0)
	for n := int32(0); n != nilNode; n = documentNext(nodes, n) {
		to[n] = next
		next++
	}
	for i := range to {
		if to[i] == nilNode {
			to[i] = next
			next++
		}
	}
	remap := func(i int32) int32 {
		if i == nilNode {
			return nilNode
		}
		return to[i]
	}
	for i := range nodes {
		n := &nodes[i]
		n.parent, n.first, n.last = remap(n.parent), remap(n.first), remap(n.last)
		n.next, n.prev = remap(n.next), remap(n.prev)
	}
	// follow each cycle of the permutation, carrying the displaced node
	for i := range nodes {
		for to[i] != int32(i) {
			j := to[i]
			nodes[i], nodes[j] = nodes[j], nodes[i]
			to[i], to[j] = to[j], to[i]
		}
	}
}

func (p *parser) run() {
	z := p.z
	for !p.stopped {
		tt := z.Next()
		raw := z.Raw()
		start := p.pos
		p.pos += len(raw)
		if tt != html.TextToken {
			p.dropNewline = false
		}
		switch tt {
		case html.ErrorToken:
			return
		case html.TextToken:
			if !p.sawElement && !isSpaceOnly(raw) {
				// content before a doctype: the doctype no longer counts
				p.sawElement = true
			}
			p.text(raw, start)
		case html.StartTagToken:
			p.startTag(false)
		case html.SelfClosingTagToken:
			p.startTag(true)
		case html.EndTagToken:
			p.sawElement = true
			p.endTag()
		case html.DoctypeToken:
			if !p.sawDoctype && !p.sawElement {
				p.sawDoctype = true
				p.quirks = quirksDoctype(z.Text())
			}
		}
		p.z.AllowCDATA(p.inForeign())
	}
}

func (p *parser) current() *entry {
	if len(p.stack) == 0 {
		return nil
	}
	return &p.stack[len(p.stack)-1]
}

func (p *parser) inForeign() bool {
	if e := p.current(); e != nil {
		return e.foreign >= 0
	}
	return false
}

func (p *parser) skipping() bool {
	if e := p.current(); e != nil {
		return e.skip
	}
	return false
}

// parentNode is the arena index new nodes attach to.
func (p *parser) parentNode() int32 {
	for i := len(p.stack) - 1; i >= 0; i-- {
		if n := p.stack[i].node; n != nilNode {
			return n
		}
	}
	return 0
}

func (p *parser) countNode() bool {
	if p.count >= p.maxNodes {
		p.t.partial = true
		p.stopped = true
		return false
	}
	p.count++
	return true
}

// appendNode adds n as the last child of parent, or, for foster
// parenting, before the sibling before (when before != nilNode).
func (p *parser) appendNode(n node, parent, before int32) int32 {
	idx := int32(len(p.t.nodes))
	n.parent = parent
	n.first, n.last, n.next, n.prev = nilNode, nilNode, nilNode, nilNode
	if p.pendingSpace {
		n.flags |= flagSpaceBefore
		p.pendingSpace = false
	}
	nodes := append(p.t.nodes, n)
	par := &nodes[parent]
	if before != nilNode {
		p.fostered = true // placed before a node made earlier
		b := &nodes[before]
		nodes[idx].next = before
		nodes[idx].prev = b.prev
		if b.prev != nilNode {
			nodes[b.prev].next = idx
		} else {
			par.first = idx
		}
		b.prev = idx
	} else {
		if par.last != nilNode {
			nodes[par.last].next = idx
			nodes[idx].prev = par.last
		} else {
			par.first = idx
		}
		par.last = idx
	}
	p.t.nodes = nodes
	return idx
}

// insertionPoint returns the parent for new content and, when the
// current node is a table part (content there is foster parented before
// the table), the table to insert before.
func (p *parser) insertionPoint() (parent, before int32) {
	parent = p.parentNode()
	switch p.t.nodes[parent].tag {
	case atom.Table, atom.Tbody, atom.Thead, atom.Tfoot, atom.Tr:
		if e := p.current(); e != nil && !e.skip {
			tpos := p.top[idTable]
			if tpos >= 0 {
				tbl := p.stack[tpos].node
				if tbl != nilNode && p.t.nodes[tbl].parent != nilNode {
					return p.t.nodes[tbl].parent, tbl
				}
			}
		}
	}
	return parent, nilNode
}

func isSpaceOnly(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r', '\f':
		default:
			return false
		}
	}
	return true
}

// maxVeiledCount is where counting the text kept out of sight stops:
// enough to tell a page that shows it only through scripts.
const maxVeiledCount = 4096

// countVeiled adds the non-space characters of text kept out of sight
// (hidden, in a template, a closed details or a noscript fallback) to
// the tree's count, up to maxVeiledCount. A noscript's content is raw
// markup: what is between its tags counts, not the tags, nor the code of
// a style or script inside it.
func (p *parser) countVeiled(raw []byte, markup bool) {
	for i := 0; i < len(raw) && p.t.veiledChars < maxVeiledCount; i++ {
		c := raw[i]
		if markup && c == '<' {
			end := bytes.IndexByte(raw[i:], '>')
			if end < 0 {
				return
			}
			tag := raw[i+1 : i+end]
			i += end
			for _, code := range []string{"style", "script"} {
				if len(tag) >= len(code) && asciiEqualFold(tag[:len(code)], code) {
					// skip to the end tag of the code
					if close := bytes.Index(raw[i:], []byte("</")); close >= 0 {
						i += close - 1 // the loop reads the end tag next
					} else {
						return
					}
				}
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r', '\f':
		default:
			p.t.veiledChars++
		}
	}
}

func (p *parser) text(raw []byte, start int) {
	z := p.z
	if p.inTitle {
		if !p.titleSeen {
			p.t.title = string(z.Text())
			p.titleSeen = true
		}
		return
	}
	if p.afeHidden > 0 && !p.skipping() && !isSpaceOnly(raw) {
		p.reconstruct()
		if p.stopped {
			return
		}
	}
	if p.pageHidden && !p.skipping() {
		p.countVeiled(raw, false)
		return // text of the hidden root itself
	}
	if p.skipping() {
		p.dropNewline = false
		if e := p.current(); e.tag == atom.Script && !e.ldjson {
			p.t.scriptBytes += len(raw)
		}
		if e := p.current(); e.veiled {
			switch e.tag {
			case atom.Script, atom.Style, atom.Textarea, atom.Title, atom.Xmp,
				atom.Iframe, atom.Noembed, atom.Noframes, atom.Plaintext:
				// code and raw text, not words a page shows
			default:
				if e.veil > 0 && e.tag != atom.Noscript {
					p.veils[e.veil-1].chars += nonSpace(raw)
				}
				p.countVeiled(raw, e.tag == atom.Noscript)
			}
		}
		if e := p.current(); e.tag == atom.Style && e.foreign < 0 {
			p.hiddenSel.scan(z.Text(), &p.scratch)
		} else if e.ldjson && len(p.t.ldjson) > 0 {
			// structured data is read as data, never rendered
			room := maxLDJSONBytes - p.t.ldjsonN
			if len(raw) <= room {
				p.t.ldjson[len(p.t.ldjson)-1] += string(raw)
				p.t.ldjsonN += len(raw)
			} else {
				// cut: the block will not decode, and is skipped
				p.t.ldjson[len(p.t.ldjson)-1] = ""
				p.t.ldjsonN = maxLDJSONBytes
			}
		}
		return
	}
	e := p.current()
	if e != nil && e.closed {
		p.countVeiled(raw, false)
		return
	}
	pre := e != nil && e.pre
	if p.dropNewline {
		p.dropNewline = false
		if len(raw) > 0 && raw[0] == '\n' {
			raw = raw[1:]
			start++
		} else if len(raw) > 1 && raw[0] == '\r' && raw[1] == '\n' {
			raw = raw[2:]
			start += 2
		}
		if len(raw) == 0 {
			return
		}
	}
	if !pre && isSpaceOnly(raw) {
		p.pendingSpace = true
		return
	}
	var s string
	if bytes.IndexByte(raw, '&') < 0 && bytes.IndexByte(raw, '\r') < 0 && bytes.IndexByte(raw, 0) < 0 &&
		start+len(raw) <= len(p.doc) && p.doc[start:start+len(raw)] == string(raw) {
		s = p.doc[start : start+len(raw)]
	} else {
		s = string(z.Text())
		if len(raw) < len(z.Raw()) {
			// the dropped newline after <pre>
			s = strings.TrimPrefix(s, "\n")
		}
		// browsers ignore NUL in text; it stays in the node, for the
		// Markdown writer to leave out and count (REQ-SEC-015)
	}
	if s == "" {
		return
	}
	if !p.countNode() {
		return
	}
	chars, punct := textCounts(s)
	n := node{kind: kindText, text: s, chars: int32(chars), punct: int32(punct)}
	if pre {
		n.flags |= flagPre
	}
	parent, before := p.insertionPoint()
	p.appendNode(n, parent, before)
}

// attrs are the attributes of a start tag that matter here.
type attrs struct {
	hidden bool
	// hiddenMarkup: hidden by the element's own markup (the hidden
	// attribute, aria-hidden, an inline style), not by a class or id,
	// which on <html> or <body> is often a loading veil a script lifts.
	hiddenMarkup bool
	faded        bool // the inline style hides it by opacity:0 alone
	hints        uint32
	class        uint32
	class1       uint32
	href         string
	alt          string
	lang         string
	start        string
	// meta attributes, valid until the tokenizer's next token
	property  []byte
	name      []byte
	content   []byte
	open      bool
	ldjson    bool // type="application/ld+json" on a script
	product   bool // itemtype="https://schema.org/Product"
	chrome    bool
	tablist   bool // role=tablist
	tabpanel  bool // role=tabpanel
	codeLine  bool // class name "line" on a span or div
	fontBreak bool // a color, face or size attribute (font leaves svg)
	// hiddenBy says how the element is hidden (hideAttr...), for the
	// reading of disclosure panels
	hiddenBy uint8
	control  bool // role=tab or aria-expanded: its aria-controls names panels
}

func (p *parser) readAttrs(a atom.Atom, hasAttr bool) attrs {
	var at attrs
	p.attrID, p.attrControls = nil, nil
	z := p.z
	for hasAttr {
		var key, val []byte
		key, val, hasAttr = z.TagAttr()
		switch string(key) {
		case "class":
			ci := p.classInfo(val)
			at.class, at.class1 = ci.class, ci.class1
			if p.hiddenSel.hidesClass(val) {
				at.hidden = true
				at.hiddenBy |= hideClass
			}
			at.hints |= ci.hints
			if ci.hidden {
				at.hidden = true
				at.hiddenBy |= hideClass
			}
			if (a == atom.Span || a == atom.Div) && ci.line {
				at.codeLine = true
			}
			if a == atom.Pre || a == atom.Code {
				if l := codeLanguage(val); l != "" {
					at.lang = l
				}
			}
		case "id", "itemprop":
			if string(key) == "id" {
				p.attrID = val
				if p.hiddenSel.hidesID(val) {
					at.hidden = true
					at.hiddenBy |= hideID
				}
			}
			if string(key) == "id" && (slugLike(val) || headingLevel(a) > 0) {
				// an anchor made from a heading's words
				// ("receive-and-reply-to-an-sms"), and any id of a
				// heading ("recommended-providers"), names the text,
				// not the element's part in the page
				break
			}
			at.hints |= classHints(val, &p.scratch)
			if string(key) == "itemprop" && asciiEqualFold(bytes.TrimSpace(val), "articlebody") {
				at.hints |= hintArticleBody
			}
		case "itemtype":
			at.product = productItemType(val)
		case "role":
			r := bytes.TrimSpace(val)
			switch {
			case asciiEqualFold(r, "navigation"), asciiEqualFold(r, "banner"),
				asciiEqualFold(r, "contentinfo"), asciiEqualFold(r, "complementary"),
				asciiEqualFold(r, "search"), asciiEqualFold(r, "menu"),
				asciiEqualFold(r, "menubar"), asciiEqualFold(r, "toolbar"),
				asciiEqualFold(r, "tablist"), asciiEqualFold(r, "alertdialog"):
				at.chrome = true
				at.tablist = asciiEqualFold(r, "tablist")
			case asciiEqualFold(r, "dialog"):
				at.chrome = true
			case asciiEqualFold(r, "main"), asciiEqualFold(r, "article"):
				at.hints |= hintMain
			case asciiEqualFold(r, "tabpanel"):
				at.tabpanel = true
			case asciiEqualFold(r, "tab"):
				at.control = true
			case asciiEqualFold(r, "button"):
				// a control; a link that is one and leads nowhere is
				// left out (prune)
				at.hints |= hintRoleButton
			}
		case "hidden":
			at.hidden, at.hiddenMarkup = true, true
			at.hiddenBy |= hideAttr
		case "aria-hidden":
			if asciiEqualFold(bytes.TrimSpace(val), "true") {
				at.hidden, at.hiddenMarkup = true, true
				at.hiddenBy |= hideOther
			}
		case "aria-expanded":
			at.control = true
		case "aria-controls":
			p.attrControls = val
		case "type":
			if asciiEqualFold(bytes.TrimSpace(val), "hidden") {
				at.hidden = true
				at.hiddenBy |= hideOther
			}
			if a == atom.Script && asciiEqualFold(bytes.TrimSpace(val), "application/ld+json") {
				at.ldjson = true
			}
		case "style":
			if hidden, faded := styleHiding(val, &p.scratch); hidden {
				at.hidden, at.hiddenMarkup = true, true
				at.hiddenBy |= hideStyle
				at.faded = faded
			}
		case "href":
			if a == atom.A || a == atom.Base {
				at.href = string(bytes.TrimSpace(val))
			}
		case "alt":
			if a == atom.Img || a == atom.Image {
				at.alt = string(val)
			}
		case "start":
			if a == atom.Ol {
				at.start = string(bytes.TrimSpace(val))
			}
		case "property":
			if a == atom.Meta {
				at.property = val
			}
		case "name":
			if a == atom.Meta {
				at.name = val
			}
		case "content":
			if a == atom.Meta {
				at.content = val
			}
		case "open":
			at.open = true
		case "color", "face", "size":
			at.fontBreak = true
		case "data-lang", "data-language":
			if a == atom.Pre || a == atom.Code {
				at.lang = codeLanguageWord(val)
			}
		}
	}
	return at
}

// hasClassName reports whether the class value val holds name as one of
// its white-space separated names (class names match case-sensitively).
func hasClassName(val []byte, name string) bool {
	if !bytes.Contains(val, []byte(name)) {
		return false
	}
	for len(val) > 0 {
		val = bytes.TrimLeft(val, " \t\n\r\f")
		f := firstField(val)
		if string(f) == name {
			return true
		}
		val = val[len(f):]
	}
	return false
}

// firstField returns the first white-space separated field of val.
func firstField(val []byte) []byte {
	for len(val) > 0 && isCSSSpace(val[0]) {
		val = val[1:]
	}
	for i, c := range val {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' {
			return val[:i]
		}
	}
	return val
}

// classFacts are what a class value says whatever element carries it:
// its hashes, its hint bits, whether a conventional class hides it, and
// whether it names a line of code.
type classFacts struct {
	class, class1 uint32
	hints         uint32
	hidden        bool
	line          bool
}

// classSlots is the size of the table of class values a parse
// remembers; a value's slot is picked by its 64-bit hash, and a later
// value with the same slot takes it over.
const classSlots = 512

// classSlot is a remembered class value: its 64-bit FNV-1a hash (never
// zero) and its facts.
type classSlot struct {
	key   uint64
	facts classFacts
}

// classInfo returns the facts of a class value. A page repeats its
// class values many times over (every card, row and post), so each
// value's facts are remembered in a table of classSlots slots, by a
// 64-bit hash: no allocation, and two values would have to share all
// 64 bits to be taken for one another.
func (p *parser) classInfo(val []byte) classFacts {
	key := uint64(14695981039346656037)
	for _, c := range val {
		key ^= uint64(c)
		key *= 1099511628211
	}
	key |= 1
	slot := &p.classCache[key%classSlots]
	if slot.key == key {
		return slot.facts
	}
	ci := classFacts{
		class:  classHash(val),
		hints:  classHints(val, &p.scratch),
		hidden: hiddenClass(val, &p.scratch),
		line:   hasClassName(val, "line"),
	}
	if f := firstField(val); !hasDigit(f) {
		ci.class1 = classHash(f)
	}
	*slot = classSlot{key: key, facts: ci}
	return ci
}

// hasDigit reports an ASCII digit in b.
func hasDigit(b []byte) bool {
	for _, c := range b {
		if '0' <= c && c <= '9' {
			return true
		}
	}
	return false
}

// classHash is the FNV-1a hash of a class value with white space
// trimmed; zero stays for "no class".
func classHash(val []byte) uint32 {
	val = bytes.TrimSpace(val)
	if len(val) == 0 {
		return 0
	}
	h := uint32(2166136261)
	for _, c := range val {
		h ^= uint32(c)
		h *= 16777619
	}
	if h == 0 {
		h = 1
	}
	return h
}

func (p *parser) startTag(selfClosing bool) {
	z := p.z
	nameBytes, hasAttr := z.TagName()
	a := atom.Lookup(nameBytes)
	var pre attrs
	havePre := false
	if p.inForeign() {
		var done bool
		if pre, havePre, done = p.foreignStartTag(a, nameBytes, hasAttr, selfClosing); done {
			return
		}
	}
	p.sawElement = true
	switch a {
	case atom.Html, atom.Body, atom.Frameset:
		// Their attributes merge into the one root. Hidden by its own
		// markup, the root hides the whole page, as in a browser.
		if hasAttr && p.readAttrs(a, hasAttr).hiddenMarkup {
			p.pageHidden = true
		}
		return
	case atom.Head:
		return
	case atom.Image:
		a = atom.Img
	}
	if p.afeHidden > 0 && !p.skipping() && reconstructs(a) {
		p.reconstruct()
		if p.stopped {
			return
		}
	}
	if (a == atom.Meta || a == atom.Base || a == atom.Title) && p.headTag(a, hasAttr) {
		return
	}
	formInTable := a == atom.Form && p.inTableMode()
	if !p.impliedEndTags(a, formInTable) || p.stopped {
		return
	}
	// attributes are read once the implied end tags have closed what
	// they close; inside an excluded subtree only the hiding of a
	// formatting element matters (browsers reopen it after its parent
	// closes)
	var at attrs
	if havePre {
		at = pre
	} else if !p.skipping() || isFormatting(a) {
		at = p.readAttrs(a, hasAttr)
	}
	// the readings of hidden content; hidden elements and templates are
	// few, so one test keeps the rest of the tags on the short path
	var segment, faded, veilCandidate bool
	if (at.hidden || at.control || a == atom.Template) && !p.read.strict && !p.skipping() {
		if a == atom.Template {
			if len(p.attrID) > 0 {
				p.placeholder()
			}
		} else if at.hidden && at.hiddenBy == hideAttr && len(p.attrID) > 0 && p.stream.awaited(p.attrID) {
			// a streamed segment whose placeholder came first: the
			// page's renderer moves it into view
			at.hidden, segment = false, true
		}
		if at.hidden || at.control {
			p.disclose(&at)
		}
		faded = at.hidden && at.faded && at.hiddenBy == hideStyle
		if faded && p.read.fades {
			at.hidden = false // a fade-in of a page whose text waits in them
		}
		veilCandidate = at.hidden
	}
	excluded := excludedTag(a)
	if a == atom.Noscript && !p.skipping() {
		p.t.noscripts++
	}
	if a == atom.Noscript && p.read.noscript && !p.skipping() {
		// the page as a browser with scripting off shows it: the
		// fallback's markup is parsed as markup
		excluded = false
		z.NextIsNotRawText()
	}
	skip := p.skipping() || p.pageHidden || at.hidden || excluded
	veiled := p.pageHidden || at.hidden || a == atom.Template || a == atom.Noscript && excluded
	if e := p.current(); e != nil && e.closed {
		// a closed <details> shows its first <summary> only
		if a == atom.Summary && !e.summary {
			e.summary = true
		} else {
			skip, veiled = true, true
		}
	}
	if a == atom.Dialog && at.open {
		skip = p.skipping() || at.hidden
	}
	void := isVoid(a)
	if !void && !selfClosingForeign(a, selfClosing) && len(p.stack) >= p.maxDepth {
		p.t.partial = true
		p.stopped = true
		return
	}
	if !p.countNode() {
		return
	}
	idx := nilNode
	if !skip {
		idx = p.elementNode(a, &at)
		if segment && idx != nilNode {
			p.stream.arrived(p.attrID, idx)
		}
	}
	if void {
		return
	}
	if a == atom.Svg || a == atom.Math {
		if selfClosing {
			return
		}
		p.push(a, nameBytes, idx, true, true)
		return
	}
	p.push(a, nameBytes, idx, skip, false)
	if veiled && skip {
		p.current().veiled = true
	}
	if veilCandidate && len(p.veils) < maxVeils {
		p.veils = append(p.veils, veil{faded: faded})
		p.current().veil = int32(len(p.veils))
	}
	if at.ldjson && p.t.ldjsonN < maxLDJSONBytes && len(p.t.ldjson) < maxLDJSONScripts {
		p.current().ldjson = true
		p.t.ldjson = append(p.t.ldjson, "")
	}
	if a == atom.Details && !at.open && p.read.strict {
		p.current().closed = true
	}
	if a == atom.Details && !skip {
		p.t.details = true
	}
	switch a {
	case atom.Td, atom.Th, atom.Caption, atom.Applet, atom.Object, atom.Marquee, atom.Template:
		if len(p.afe) > 0 {
			p.afe = append(p.afe, afeEntry{marker: true})
			p.current().marker = true
		}
	}
	if isFormatting(a) {
		if at.hidden {
			if p.afeHidden >= maxHiddenFormatting {
				p.t.partial = true
				p.stopped = true
				return
			}
			p.afeHidden++
		} else {
			p.noahsArk(a)
		}
		p.afe = append(p.afe, afeEntry{tag: a, open: true, hidden: at.hidden})
		p.current().afe = int32(len(p.afe) - 1)
	}
	switch a {
	case atom.Pre, atom.Listing, atom.Textarea:
		p.dropNewline = true
	case atom.Form:
		if p.top[idTemplate] < 0 {
			p.formOpen = true
		}
		// a form in a table (outside a cell) holds nothing; browsers
		// pop it at once
		if formInTable {
			p.popTo(len(p.stack) - 1)
		}
	}
}

// foreignStartTag handles a start tag inside svg or math: one that breaks
// out of foreign content (or a font with a color, face or size) closes it
// and is read as HTML (done false, with the font's attributes, when read,
// in pre); any other is an element of the foreign content (done true).
func (p *parser) foreignStartTag(a atom.Atom, nameBytes []byte, hasAttr, selfClosing bool) (pre attrs, havePre, done bool) {
	if a == atom.Font && hasAttr {
		pre, havePre = p.readAttrs(a, hasAttr), true
	}
	if breaksOutOfForeign(a) || havePre && pre.fontBreak {
		p.popTo(int(p.current().foreign))
		return pre, havePre, false
	}
	switch a {
	case atom.Script, atom.Style, atom.Title, atom.Textarea, atom.Xmp,
		atom.Iframe, atom.Noembed, atom.Noframes, atom.Noscript, atom.Plaintext:
		// in svg and math these hold markup, not raw text
		p.z.NextIsNotRawText()
	}
	if !p.countNode() {
		return pre, havePre, true
	}
	if !selfClosing {
		if len(p.stack) >= p.maxDepth {
			p.t.partial = true
			p.stopped = true
			return pre, havePre, true
		}
		p.push(a, nameBytes, nilNode, true, false)
	}
	return pre, havePre, true
}

// headTag reads the elements of the head that add no node (meta, base)
// and reports whether the tag was one; a title's text is taken from here on.
func (p *parser) headTag(a atom.Atom, hasAttr bool) bool {
	switch a {
	case atom.Meta:
		if !p.skipping() {
			at := p.readAttrs(a, hasAttr)
			p.meta(&at)
		}
		return true
	case atom.Base:
		if !p.skipping() {
			at := p.readAttrs(a, hasAttr)
			if p.t.baseHref == "" && at.href != "" {
				p.t.baseHref = at.href
			}
		}
		return true
	case atom.Title:
		if !p.skipping() && !p.titleSeen {
			p.inTitle = true
		}
	}
	return false
}

// impliedEndTags closes what the start tag a closes, as the HTML parsing
// algorithm says, and reports whether the tag goes on to open an element:
// a form inside a form, or a table part the table refuses, does not.
func (p *parser) impliedEndTags(a atom.Atom, formInTable bool) bool {
	switch {
	case a == atom.Li:
		p.closeListItem(idLI, idLI)
	case a == atom.Dd || a == atom.Dt:
		p.closeListItem(idDD, idDT)
	}
	if a == atom.Form && p.formOpen && p.top[idTemplate] < 0 {
		// a form inside a form is ignored, tag and all
		return false
	}
	if closesP(a) && !(a == atom.Table && p.quirks) && !formInTable {
		p.closePInButtonScope()
	}
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		// a heading closes a heading that is the current node; when that
		// one is hidden the new one nests in it instead, since a browser
		// may have reopened a formatting element inside it first
		if e := p.current(); e != nil && e.id == idHeading && !e.skip {
			p.popTo(len(p.stack) - 1)
		}
	case atom.A:
		if t := p.top[idA]; t >= 0 && t > p.current().special && t > p.current().scope {
			p.popTo(int(t))
		}
	case atom.Option, atom.Optgroup:
		if e := p.current(); e != nil && e.id == idOption {
			p.popTo(len(p.stack) - 1)
		}
	case atom.Button:
		if t := p.top[idButton]; t >= 0 && t > p.current().scope {
			p.popTo(int(t))
		}
	case atom.Tbody, atom.Thead, atom.Tfoot, atom.Tr, atom.Td, atom.Th, atom.Caption, atom.Colgroup, atom.Col:
		if !p.tableStart(a) {
			return false
		}
	case atom.Rb, atom.Rp, atom.Rt, atom.Rtc:
		if e := p.current(); e != nil && e.id == idRt {
			p.popTo(len(p.stack) - 1)
		}
	}
	return true
}

// elementNode adds the node of a shown element with the attributes at,
// and returns it; an element that renders nothing has none (nilNode).
func (p *parser) elementNode(a atom.Atom, at *attrs) int32 {
	if at.product {
		p.t.productItems++
	}
	switch a {
	case atom.Area, atom.Base, atom.Basefont, atom.Bgsound, atom.Col,
		atom.Embed, atom.Frame, atom.Input, atom.Keygen, atom.Link,
		atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr:
		// no node: nothing to render
		return nilNode
	}
	n := node{kind: kindElement, tag: a, hints: at.hints, class: at.class, class1: at.class1}
	switch a {
	case atom.A:
		n.text = at.href
	case atom.Img:
		n.text = at.alt
	case atom.Pre, atom.Code:
		n.text = at.lang
	case atom.Ol:
		n.text = at.start
	case atom.Th:
		n.flags |= flagTH
	}
	if at.chrome {
		n.flags |= flagChrome
	}
	if at.tablist {
		n.flags |= flagTablist
		p.t.tablists++
	}
	if at.tabpanel {
		n.flags |= flagTabpanel
	}
	if at.codeLine {
		n.flags |= flagCodeLine
	}
	parent, before := p.parentNode(), nilNode
	switch a {
	case atom.Table, atom.Caption, atom.Colgroup, atom.Tbody, atom.Thead,
		atom.Tfoot, atom.Tr, atom.Td, atom.Th, atom.Form:
	default:
		parent, before = p.insertionPoint()
	}
	return p.appendNode(n, parent, before)
}

func selfClosingForeign(a atom.Atom, selfClosing bool) bool {
	return selfClosing && (a == atom.Svg || a == atom.Math)
}

// productItemType reports a microdata itemtype naming a schema.org
// Product.
func productItemType(val []byte) bool {
	v := bytes.TrimRight(bytes.TrimSpace(val), "/")
	const suffix = "schema.org/product"
	return len(v) >= len(suffix) && asciiEqualFold(v[len(v)-len(suffix):], suffix)
}

func (p *parser) meta(at *attrs) {
	key := bytes.TrimSpace(at.property)
	if len(key) == 0 {
		key = bytes.TrimSpace(at.name)
	}
	switch {
	case asciiEqualFold(key, "og:title"):
		if p.t.ogTitle == "" {
			p.t.ogTitle = string(at.content)
		}
	case asciiEqualFold(key, "og:type"):
		if p.t.ogType == "" {
			p.t.ogType = strings.ToLower(strings.TrimSpace(string(at.content)))
		}
	case asciiEqualFold(key, "og:site_name"), asciiEqualFold(key, "application-name"):
		if p.t.siteName == "" {
			p.t.siteName = string(at.content)
		}
	}
}

// push opens an element. skip marks an excluded subtree; foreignRoot an
// svg or math element.
func (p *parser) push(a atom.Atom, name []byte, idx int32, skip, foreignRoot bool) {
	pos := int32(len(p.stack))
	e := entry{node: idx, tag: a, skip: skip, prevTop: -1, afe: -1,
		special: -1, specialLI: -1, scope: -1, listScope: -1,
		buttonScope: -1, tableScope: -1, foreign: -1}
	if a == 0 {
		e.name = string(name)
	}
	if prev := p.current(); prev != nil {
		e.special, e.specialLI = prev.special, prev.specialLI
		e.scope, e.listScope = prev.scope, prev.listScope
		e.buttonScope, e.tableScope = prev.buttonScope, prev.tableScope
		e.foreign = prev.foreign
		e.pre = prev.pre
		if prev.skip {
			e.skip = true
		}
		e.veiled = prev.veiled
		e.veil = prev.veil
	}
	if foreignRoot && e.foreign < 0 {
		e.foreign = pos
	}
	inForeign := e.foreign >= 0
	if !inForeign {
		e.id = tagID(a)
		if isSpecial(a) {
			e.special = pos
			if a != atom.Address && a != atom.Div && a != atom.P {
				e.specialLI = pos
			}
		}
		switch a {
		case atom.Applet, atom.Caption, atom.Html, atom.Table, atom.Td,
			atom.Th, atom.Marquee, atom.Object, atom.Template:
			e.scope = pos
		case atom.Ol, atom.Ul:
			e.listScope = pos
		case atom.Button:
			e.buttonScope = pos
		}
		switch a {
		case atom.Html, atom.Table, atom.Template:
			e.tableScope = pos
		}
		switch a {
		case atom.Pre, atom.Listing, atom.Textarea, atom.Xmp, atom.Plaintext:
			e.pre = true
		}
	}
	// svg and math elements are neither special nor scope barriers: an
	// HTML end tag inside them closes them with what it closes
	if e.id != idNone {
		e.prevTop = p.top[e.id]
		p.top[e.id] = pos
	}
	p.stack = append(p.stack, e)
	if len(p.stack) > p.t.deepest {
		p.t.deepest = len(p.stack)
	}
}

// popTo closes every open element from the top down to position pos,
// inclusive.
func (p *parser) popTo(pos int) {
	if sel := p.top[idSelect]; sel >= 0 && pos <= int(sel) && !p.closeSelect && p.top[idTemplate] < sel {
		// an open select holds its ground: only its own end tag closes
		// it. Browsers differ on which start tags end a select (newer
		// ones let it hold content); keeping it open hides more, never
		// less
		return
	}
	for len(p.stack) > pos && len(p.stack) > 0 {
		e := &p.stack[len(p.stack)-1]
		if e.id != idNone {
			p.top[e.id] = e.prevTop
		}
		if e.tag == atom.Title {
			p.inTitle = false
		}
		if e.afe >= 0 && int(e.afe) < len(p.afe) {
			p.afe[e.afe].open = false
		}
		if e.marker {
			p.clearToMarker()
		}
		p.stack = p.stack[:len(p.stack)-1]
	}
}

func maxPos(a, b int32) int32 {
	if a > b {
		return a
	}
	return b
}

func (p *parser) closePInButtonScope() {
	e := p.current()
	if e == nil {
		return
	}
	if t := p.top[idP]; t >= 0 && t > maxPos(e.scope, e.buttonScope) {
		p.popTo(int(t))
	}
}

// closeListItem closes an open li (or dd/dt) unless a special element
// other than address, div and p is open above it.
func (p *parser) closeListItem(id1, id2 uint8) {
	e := p.current()
	if e == nil {
		return
	}
	t := maxPos(p.top[id1], p.top[id2])
	if t >= 0 && t >= e.specialLI {
		p.popTo(int(t))
	}
}

// tableStart applies the table rules to a start tag of a table part. It
// reports whether the element is to be inserted.
func (p *parser) tableStart(a atom.Atom) bool {
	e := p.current()
	tbl := p.top[idTable]
	if tbl < 0 || tbl < e.tableScope {
		// outside a table (or a template inside it) browsers ignore
		// table parts
		return false
	}
	closeAbove := func(id uint8) {
		if t := p.top[id]; t > tbl {
			p.popTo(int(t))
		}
	}
	closeCell := func() {
		if t := maxPos(p.top[idTD], p.top[idTH]); t > tbl {
			p.popTo(int(t))
		}
	}
	switch a {
	case atom.Caption, atom.Colgroup:
		p.popTo(int(tbl) + 1)
	case atom.Col:
		return false
	case atom.Tbody, atom.Thead, atom.Tfoot:
		p.popTo(int(tbl) + 1)
	case atom.Tr:
		closeCell()
		closeAbove(idTR)
		closeAbove(idCaption)
	case atom.Td, atom.Th:
		closeCell()
		closeAbove(idCaption)
		if t := p.top[idTR]; t < tbl {
			// a cell without a row: open the row browsers imply
			if len(p.stack) >= p.maxDepth {
				p.t.partial = true
				p.stopped = true
				return false
			}
			if !p.countNode() {
				return false
			}
			idx := nilNode
			if !p.skipping() {
				idx = p.appendNode(node{kind: kindElement, tag: atom.Tr}, p.parentNode(), nilNode)
			}
			p.push(atom.Tr, nil, idx, false, false)
		}
	}
	return true
}

func (p *parser) endTag() {
	z := p.z
	nameBytes, _ := z.TagName()
	a := atom.Lookup(nameBytes)
	e := p.current()
	if e == nil {
		if a == atom.Br {
			p.brFromEndTag()
		}
		return
	}
	if e.foreign >= 0 {
		// in svg or math: close the matching foreign element, if any
		// above the root; the root's own end tag closes it all
		for i, n := len(p.stack)-1, 0; i >= int(e.foreign) && n < maxEndTagScan; i, n = i-1, n+1 {
			s := &p.stack[i]
			if s.tag == a && (a != 0 || s.name == string(nameBytes)) {
				p.popTo(i)
				return
			}
		}
		if a == atom.P || a == atom.Br {
			p.popTo(int(e.foreign))
			e = p.current()
			if e == nil {
				return
			}
		}
		// otherwise the HTML rules apply, and close the svg or math
		// element with what they close
	}
	id := tagID(a)
	switch id {
	case idNone:
		switch a {
		case atom.Br:
			p.brFromEndTag()
			return
		case atom.Html, atom.Body, atom.Head:
			return
		case atom.Title, atom.Style, atom.Script, atom.Textarea, atom.Iframe,
			atom.Noscript, atom.Noembed, atom.Noframes, atom.Xmp:
			if e.tag == a {
				p.popTo(len(p.stack) - 1)
			}
			return
		}
		// any other end tag: walk down to a special element
		for i, n := len(p.stack)-1, 0; i >= 0 && n < maxEndTagScan; i, n = i-1, n+1 {
			s := &p.stack[i]
			if s.tag == a && (a != 0 || s.name == string(nameBytes)) {
				p.popTo(i)
				return
			}
			if isSpecial(s.tag) {
				return
			}
		}
		return
	case idP:
		if t := p.top[idP]; t >= 0 && t > maxPos(e.scope, e.buttonScope) {
			p.popTo(int(t))
		}
	case idLI:
		if t := p.top[idLI]; t >= 0 && t > maxPos(e.scope, e.listScope) {
			p.popTo(int(t))
		}
	case idTable, idTR, idTD, idTH, idTSection, idCaption, idColgroup:
		if t := p.top[id]; t >= 0 && t >= e.tableScope {
			p.popTo(int(t))
		}
	case idTemplate:
		if t := p.top[id]; t >= 0 {
			p.closeSelect = true
			p.popTo(int(t))
			p.closeSelect = false
		}
	case idSelect:
		// not across a template opened inside it
		if t := p.top[id]; t >= 0 && t >= e.scope {
			p.popSelect(t)
		}
	case idForm:
		// browsers take the form alone off the stack and leave what it
		// holds open; closing it is only safe when it is the current node
		if p.top[idTemplate] < 0 {
			p.formOpen = false
		}
		if t := p.top[id]; t >= 0 && int(t) == len(p.stack)-1 {
			p.popTo(int(t))
		}
	case idOption, idOptgroup, idRt:
		if e.id == id {
			p.popTo(len(p.stack) - 1)
		}
	case idApplet, idMarquee, idObject:
		// scope barriers themselves
		if t := p.top[id]; t >= 0 && t >= e.scope {
			p.popTo(int(t))
		}
	case idA, idB, idBig, idCode, idEm, idFont, idI, idNobr, idS, idSmall,
		idStrike, idStrong, idTT, idU:
		// formatting: close it when no block is open above it
		k := p.lastActive(a)
		t := p.top[id]
		closes := t >= 0 && t >= e.special && t > e.scope
		if k >= 0 && !p.afe[k].open {
			// implicitly closed earlier: the end tag ends it for good
			p.removeActive(k)
			return
		}
		if closes {
			if k >= 0 && p.stack[t].afe == int32(k) {
				p.removeActive(k)
			}
			p.popTo(int(t))
		}
	default:
		if t := p.top[id]; t >= 0 && t > e.scope {
			p.popTo(int(t))
		}
	}
}

// brFromEndTag treats </br> as <br>, as browsers do.
func (p *parser) brFromEndTag() {
	if p.skipping() || !p.countNode() {
		return
	}
	parent, before := p.insertionPoint()
	p.appendNode(node{kind: kindElement, tag: atom.Br}, parent, before)
}

// reconstruct reopens, as excluded subtrees, the hidden formatting
// elements after the last marker that were closed implicitly.
func (p *parser) reconstruct() {
	start := len(p.afe)
	for start > 0 && !p.afe[start-1].marker {
		start--
	}
	for k := start; k < len(p.afe); k++ {
		if p.afe[k].open || !p.afe[k].hidden {
			continue
		}
		if len(p.stack) >= p.maxDepth || !p.countNode() {
			p.t.partial = true
			p.stopped = true
			return
		}
		p.push(p.afe[k].tag, nil, nilNode, true, false)
		p.current().afe = int32(k)
		p.afe[k].open = true
	}
}

// lastActive returns the index of the last hidden formatting element
// with tag a after the last marker, or -1.
func (p *parser) lastActive(a atom.Atom) int {
	for k := len(p.afe) - 1; k >= 0; k-- {
		if p.afe[k].marker {
			return -1
		}
		if p.afe[k].tag == a {
			return k
		}
	}
	return -1
}

// noahsArk keeps at most two earlier shown entries of tag a after the
// last marker, removing the earliest, as browsers keep three alike.
func (p *parser) noahsArk(a atom.Atom) {
	count, first := 0, -1
	for k := len(p.afe) - 1; k >= 0 && !p.afe[k].marker; k-- {
		if p.afe[k].tag == a && !p.afe[k].hidden {
			count++
			first = k
		}
	}
	if count >= 3 {
		p.removeActive(first)
	}
}

// removeActive deletes entry k and renumbers the stack's references.
func (p *parser) removeActive(k int) {
	if p.afe[k].hidden {
		p.afeHidden--
	}
	p.afe = append(p.afe[:k], p.afe[k+1:]...)
	for i := range p.stack {
		switch e := &p.stack[i]; {
		case e.afe == int32(k):
			e.afe = -1
		case e.afe > int32(k):
			e.afe--
		}
	}
}

// clearToMarker removes the entries after the last marker, and the
// marker.
func (p *parser) clearToMarker() {
	for k := len(p.afe) - 1; k >= 0; k-- {
		m := p.afe[k].marker
		if p.afe[k].hidden {
			p.afeHidden--
		}
		p.afe = p.afe[:k]
		if m {
			return
		}
	}
}

// quirksDoctype reports a doctype that puts browsers in quirks mode:
// not "html", or a legacy public identifier.
func quirksDoctype(doctype []byte) bool {
	d := strings.ToLower(strings.Join(strings.Fields(string(doctype)), " "))
	if d == "html" {
		return false
	}
	if !strings.HasPrefix(d, "html ") && d != "html" {
		return true
	}
	pub := ""
	if i := strings.Index(d, "public"); i >= 0 {
		pub = strings.TrimLeft(d[i+len("public"):], " ")
		pub = strings.Trim(pub, "\"'")
	}
	for _, prefix := range []string{
		"-//w3c//dtd html 3", "-//w3c//dtd html 4.0 transitional", "-//w3c//dtd html 4.0 frameset",
		"-//ietf//", "-//w3o//", "-//netscape", "-//microsoft", "-//softquad", "-//spyglass",
		"-//webtechs", "-//sun microsystems", "-//o'reilly", "-//metrius", "-//silmaril",
		"-//sq//", "-//as//", "-//advasoft", "+//silmaril", "-//w3c//dtd w3 html",
		"-//w3c//dtd html experimental", "html",
	} {
		if strings.HasPrefix(pub, prefix) {
			return true
		}
	}
	if strings.HasPrefix(pub, "-//w3c//dtd html 4.01 transitional") || strings.HasPrefix(pub, "-//w3c//dtd html 4.01 frameset") {
		// without a system identifier
		return strings.Count(d, "\"") < 4
	}
	return false
}

// popSelect closes the select at stack position sel and what it holds.
func (p *parser) popSelect(sel int32) {
	p.closeSelect = true
	p.popTo(int(sel))
	p.closeSelect = false
}

// inTableMode reports whether the innermost open table is not inside a
// cell or caption of its own: content there is foster parented and a
// form holds nothing.
func (p *parser) inTableMode() bool {
	e := p.current()
	t := p.top[idTable]
	return e != nil && t >= 0 && t >= e.tableScope && t > maxPos(p.top[idTD], p.top[idTH]) && t > p.top[idCaption]
}

// subtreeEnd returns the node after n's subtree in document order.
func subtreeEnd(nodes []node, n int32) int32 {
	for ; n != nilNode; n = nodes[n].parent {
		if nodes[n].next != nilNode {
			return nodes[n].next
		}
	}
	return int32(len(nodes))
}

// isBlockTag reports an element that starts a block of its own.
func isBlockTag(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Body,
		atom.Center, atom.Dd, atom.Details, atom.Dialog, atom.Dir, atom.Div,
		atom.Dl, atom.Dt, atom.Fieldset, atom.Figcaption, atom.Figure,
		atom.Footer, atom.Form, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5,
		atom.H6, atom.Header, atom.Hgroup, atom.Hr, atom.Legend, atom.Li,
		atom.Listing, atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.P,
		atom.Pre, atom.Section, atom.Summary, atom.Table, atom.Caption,
		atom.Tbody, atom.Thead, atom.Tfoot, atom.Tr, atom.Td, atom.Th,
		atom.Ul, atom.Xmp, atom.Plaintext, atom.Search, atom.Html,
		atom.Frameset, atom.Noscript, atom.Picture:
		return true
	}
	return false
}

// headingLevel returns the level of a heading element, 1 to 6, or 0.
func headingLevel(a atom.Atom) int {
	switch a {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

// The reading of text a reader can open (the maintainers' amendment of
// REQ-CTX-005). The threat behind the rule (THR-03) is text a reviewer
// cannot see; text one click away, or the page a browser shows with
// scripting off, is text a reviewer can see. So, unless the operator
// asks for the book's strict reading (fetch.read_collapsed = false):
//
//   - a closed <details> is read, its <summary> first;
//   - a disclosure panel is read though hidden by the hidden attribute,
//     an inline style or a class rule: an element with role=tabpanel, or
//     one whose id an aria-controls names on an element with role=tab or
//     with aria-expanded. The relation must be in the markup; a class
//     name alone never makes a panel;
//   - a <noscript> fallback is read only when the page read without it
//     is a script shell (ErrShownByScripts): what a browser with
//     scripting off shows (extractRead, in extract.go);
//   - everything else hidden stays out: aria-hidden="true", type=hidden,
//     an id rule of a style sheet, hiding with no disclosure relation,
//     templates, comments.
//
// Text so read is parsed, cleaned, judged and bounded as any other.

// readOpts say what of the hidden text a parse reads.
type readOpts struct {
	strict   bool // the book's reading: nothing hidden is read
	noscript bool // noscript fallbacks are read as markup
	fades    bool // elements hidden by an inline opacity:0 alone are read (fadedPage)
}

// Fade-ins: an element hidden by an inline opacity:0 and nothing else is
// drawn, transparent: the first frame of an entrance animation a script
// plays when the page loads or the reader scrolls to it. A page whose text
// waits in such elements shows it to every reader a moment later. The
// parse measures the text of the outermost hidden elements (at most
// maxVeils of them) and of the faded ones among them; when the faded ones
// hold most of the page's text (fadedPage), the page is read again with
// every faded element shown. Everything else hidden inside them stays
// hidden; display:none, visibility:hidden, a class, an id rule or
// aria-hidden never make a fade-in (the amendment keeps those out).
const (
	maxVeils      = 256
	minFadedChars = 500
)

type veil struct {
	chars int
	faded bool // hidden by an inline opacity:0 alone
}

// fadedPage reports a page whose text waits in fade-ins: their text is at
// least minFadedChars characters, more than half of all the text the page
// hides, and at least twice the text it shows. A page that shows its text
// and fades in a few pieces keeps them out.
func fadedPage(t *tree) bool {
	if t.fadedChars < minFadedChars || 2*t.fadedChars <= t.hiddenChars {
		return false
	}
	shown := 0
	for i := range t.nodes {
		shown += int(t.nodes[i].chars)
	}
	return t.fadedChars >= 2*shown
}

// nonSpace counts the bytes of raw that are not ASCII white space.
func nonSpace(raw []byte) int {
	n := 0
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\n', '\r', '\f':
		default:
			n++
		}
	}
	return n
}

// How an element is hidden (attrs.hiddenBy).
const (
	hideAttr  uint8 = 1 << iota // the hidden attribute
	hideStyle                   // an inline style
	hideClass                   // a class: a style sheet's rule or a conventional hiding class
	hideID                      // a style sheet's rule for the id
	hideOther                   // aria-hidden="true", type=hidden
)

// liftable are the hidings a disclosure panel is read through.
const liftable = hideAttr | hideStyle | hideClass

// Bounds of the disclosure relations a parse keeps: ids named by
// controls, ids of hidden elements waiting for a control that may come
// later, and the length of an id worth keeping. Beyond them a panel is
// left hidden: the strict reading, never a wrong one.
const (
	maxControls = 1024
	maxPending  = 1024
	maxIDLen    = 256
)

// disclosures are the disclosure relations a parse has seen. A control
// may come before its panel (tabs above their panels, an accordion's
// button above its body) or after it; panels seen before their control
// are remembered (pending), and when a later control names one, the
// document is parsed a second time with the controls known from the
// start (preset). A page is parsed at most twice for its panels.
type disclosures struct {
	controls map[string]bool
	preset   bool
	pending  []string
}

// name records the ids of an aria-controls value (a list of ids
// separated by white space).
func (d *disclosures) name(list []byte) {
	for len(list) > 0 {
		for len(list) > 0 && isCSSSpace(list[0]) {
			list = list[1:]
		}
		f := firstField(list)
		if len(f) == 0 {
			return
		}
		list = list[len(f):]
		if len(f) > maxIDLen || len(d.controls) >= maxControls {
			continue
		}
		if d.controls == nil {
			d.controls = make(map[string]bool)
		}
		d.controls[string(f)] = true
	}
}

// reparse reports a pending panel that a later control named.
func (d *disclosures) reparse() bool {
	if d.preset {
		return false
	}
	for _, id := range d.pending {
		if d.controls[id] {
			return true
		}
	}
	return false
}

// disclose records the element's disclosure relation and shows a hidden
// disclosure panel.
func (p *parser) disclose(at *attrs) {
	if at.control && len(p.attrControls) > 0 {
		p.disc.name(p.attrControls)
	}
	if !at.hidden || at.hiddenBy&^liftable != 0 {
		return
	}
	if at.tabpanel {
		at.hidden = false
		return
	}
	id := p.attrID
	if len(id) == 0 || len(id) > maxIDLen {
		return
	}
	if p.disc.controls[string(id)] {
		at.hidden = false
		return
	}
	if !p.disc.preset && len(p.disc.pending) < maxPending {
		p.disc.pending = append(p.disc.pending, string(id))
	}
}

// A streaming renderer (React's server renderer, and those that follow its
// protocol) sends a page's shell first, with an empty placeholder where a
// part is still being rendered, <template id="B:x"> (a boundary) or
// <template id="P:x"> (a segment), and sends the part later, at the end of
// the document, as <div hidden id="S:x">; an inline script of the page then
// moves it into the placeholder. What the reader sees is the part in the
// placeholder's place. The relation is in the markup: the placeholder's id
// and the segment's id share the suffix x, and the placeholder comes first.
// The segment must be hidden by the hidden attribute alone, as the renderer
// writes it; a segment also hidden by a style or a class, or one without a
// placeholder before it, stays hidden. Archived copies of such pages often
// lack the scripts, so the scripts are not required.
const maxStreamed = 1024

// streamAnchor is where a placeholder stood: the node it was a child of and
// the child before it (nilNode when it was the first).
type streamAnchor struct{ parent, after int32 }

type streamed struct {
	anchors map[string]streamAnchor // by the suffix of B:x and P:x
	moves   []streamMove
}

type streamMove struct {
	node int32
	to   streamAnchor
}

// streamSuffix returns x of an id "<c>:x" with c one of kinds, x of 1 to 16
// letters and digits.
func streamSuffix(id []byte, kinds string) (string, bool) {
	if len(id) < 3 || len(id) > 18 || id[1] != ':' || strings.IndexByte(kinds, id[0]) < 0 {
		return "", false
	}
	for _, c := range id[2:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return "", false
		}
	}
	return string(id[2:]), true
}

// placeholder records where a streaming renderer's placeholder stands.
func (p *parser) placeholder() {
	x, ok := streamSuffix(p.attrID, "BP")
	if !ok || len(p.stream.anchors) >= maxStreamed {
		return
	}
	parent, before := p.insertionPoint()
	after := p.t.nodes[parent].last
	if before != nilNode {
		after = p.t.nodes[before].prev
	}
	if p.stream.anchors == nil {
		p.stream.anchors = make(map[string]streamAnchor)
	}
	if _, seen := p.stream.anchors[x]; !seen {
		p.stream.anchors[x] = streamAnchor{parent, after}
	}
}

// awaited reports a segment id whose placeholder has been seen.
func (s *streamed) awaited(id []byte) bool {
	x, ok := streamSuffix(id, "S")
	if !ok {
		return false
	}
	_, seen := s.anchors[x]
	return seen
}

// arrived records the node of an awaited segment, to be moved into its
// placeholder's place once the document is parsed; a placeholder takes one
// segment.
func (s *streamed) arrived(id []byte, node int32) {
	x, _ := streamSuffix(id, "S")
	to, ok := s.anchors[x]
	if !ok {
		return
	}
	delete(s.anchors, x)
	s.moves = append(s.moves, streamMove{node, to})
}

// place moves each segment to where its placeholder stood. A placeholder's
// parent precedes the segment in the arena, so it is never inside the
// segment it receives. When the child before the placeholder has left its
// parent since (markup the tree builder rearranged), the segment is read
// where it arrived.
func (s *streamed) place(nodes []node) (moved bool) {
	for _, m := range s.moves {
		parent, after := m.to.parent, m.to.after
		if after != nilNode && nodes[after].parent != parent || parent >= m.node {
			continue
		}
		unlink(nodes, m.node)
		n := &nodes[m.node]
		n.parent, n.prev = parent, after
		if after == nilNode {
			n.next = nodes[parent].first
			nodes[parent].first = m.node
		} else {
			n.next = nodes[after].next
			nodes[after].next = m.node
		}
		if n.next != nilNode {
			nodes[n.next].prev = m.node
		} else {
			nodes[parent].last = m.node
		}
		moved = true
	}
	return moved
}

// unlink takes a node out of its parent's children.
func unlink(nodes []node, i int32) {
	n := &nodes[i]
	if n.prev != nilNode {
		nodes[n.prev].next = n.next
	} else {
		nodes[n.parent].first = n.next
	}
	if n.next != nilNode {
		nodes[n.next].prev = n.prev
	} else {
		nodes[n.parent].last = n.prev
	}
	n.prev, n.next = nilNode, nilNode
}

// summariesFirst moves the first <summary> of each <details> to the
// front, where a browser draws it, and reports whether it moved one.
func summariesFirst(t *tree) (moved bool) {
	if !t.details {
		return false
	}
	nodes := t.nodes
	for i := range nodes {
		d := &nodes[i]
		if d.kind != kindElement || d.tag != atom.Details || d.first == nilNode {
			continue
		}
		s := d.first
		for s != nilNode && !(nodes[s].kind == kindElement && nodes[s].tag == atom.Summary) {
			s = nodes[s].next
		}
		if s == nilNode || s == d.first {
			continue
		}
		// unlink s, then link it first
		sn := &nodes[s]
		nodes[sn.prev].next = sn.next
		if sn.next != nilNode {
			nodes[sn.next].prev = sn.prev
		} else {
			d.last = sn.prev
		}
		sn.prev, sn.next = nilNode, d.first
		nodes[d.first].prev = s
		d.first = s
		moved = true
	}
	return moved
}
