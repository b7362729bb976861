package htmlx

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/atom"
)

// The Markdown writer. It walks a subtree of the parsed document with an
// explicit stack (no recursion), keeps inline content of the current block
// in a buffer with white space collapsed, and writes finished blocks with
// the prefixes of their containers (list markers and indentation, "> ").

// maxLinkURLBytes bounds a link target (LIM-F9); a longer one is dropped
// and its text kept.
const maxLinkURLBytes = 2048

// container is an open list item or block quote.
type container struct {
	first   string // prefix of its first line ("- ", "1. ", "> ")
	cont    string // prefix of the lines after it
	started bool
	list    bool
}

// listState numbers the items of an open list.
type listState struct {
	ordered bool
	next    int
}

type tableState struct {
	rows [][]string
	row  []string
}

type mdWriter struct {
	t     *tree
	stats measures
	drop  []bool
	base  *url.URL

	out        strings.Builder
	para       []byte
	space      bool // a collapsed space is pending in para
	boundary   bool // an element started or ended since the last character (gluedWords)
	heading    int
	pre        int
	preLang    string
	code       int
	codeStart  int
	links      []linkMark
	containers []container
	lists      []listState
	tables     []*tableState
	inCell     int
	lastInList bool
	wrote      bool
	title      string
	head       string // the headline written first, if any
	alts       map[string]bool
	seen       map[string]int32 // paragraphs written, for repeats: a text node of each
	listKeys   map[int32]uint64 // the hashed text of lists (otherList)
	lastText   int32            // the text node written last
	removed    int              // C0 controls and DEL left out of text
	dedupe     bool
}

// minRepeatBytes is the length from which a paragraph written before is
// left out when it comes again.
const minRepeatBytes = 40

// minCopyBytes is the length from which a paragraph that comes again is
// left out of any page, an article too: a line may be repeated on
// purpose, but a long paragraph written twice word for word is a second
// rendering of the page (for another screen size, a cloned slide).
const minCopyBytes = 250

// repeated reports a paragraph written before, and remembers it. A short
// line that comes again in another card of a grid (a sibling of the first
// one's card, of its tag and class) that starts otherwise is not a
// repeat: it is a line the cards share (the same feature of two models),
// and each card keeps it. A cloned slide starts as its original does, and
// a block printed again for another screen size or in another section is
// not a card beside it. An item of a list that comes again in another
// list whose text differs is not a repeat either (the features a bigger
// plan shares with a smaller one, listed in each); a list printed again
// word for word is a copy, and its items go.
func (w *mdWriter) repeated(text []byte) bool {
	if w.seen == nil {
		w.seen = map[string]int32{}
	}
	if first, ok := w.seen[string(text)]; ok {
		if text[0] != '#' && !(text[0] == '[' && text[len(text)-1] == ')') && w.inListItem() && w.otherList(first, w.lastText) {
			return false
		}
		return !w.sharedText(text) || !w.sharedLine(first, w.lastText)
	}
	w.seen[string(text)] = w.lastText
	return false
}

// inListItem reports a paragraph written inside a list item.
func (w *mdWriter) inListItem() bool {
	return len(w.containers) > 0 && w.containers[len(w.containers)-1].list
}

// listOf returns the nearest list (ul, ol) above n, or nilNode.
func (w *mdWriter) listOf(n int32) int32 {
	nodes := w.t.nodes
	for ; n != nilNode; n = nodes[n].parent {
		if nodes[n].kind == kindElement && (nodes[n].tag == atom.Ul || nodes[n].tag == atom.Ol) {
			return n
		}
	}
	return nilNode
}

// otherList reports text nodes a and b (a first) in two lists, apart,
// whose texts differ: the item a list repeats from another that says
// otherwise (the features a bigger plan shares with a smaller one), not
// a copy of a whole list (a block printed again for another screen).
func (w *mdWriter) otherList(a, b int32) bool {
	if a <= 0 || b <= 0 {
		return false
	}
	la, lb := w.listOf(a), w.listOf(b)
	if la == nilNode || lb == nilNode || la == lb {
		return false
	}
	nodes := w.t.nodes
	if subtreeEnd(nodes, la) > lb {
		// nested: one list lies inside the other
		return false
	}
	return w.listKey(la) != w.listKey(lb)
}

// listKey hashes the text of a list (FNV-1a), once per list.
func (w *mdWriter) listKey(l int32) uint64 {
	if k, ok := w.listKeys[l]; ok {
		return k
	}
	if w.listKeys == nil {
		w.listKeys = map[int32]uint64{}
	}
	nodes := w.t.nodes
	h := uint64(14695981039346656037)
	end := subtreeEnd(nodes, l)
	for i := l; i < end; i++ {
		if nodes[i].kind != kindText {
			continue
		}
		t := nodes[i].text
		for j := 0; j < len(t); j++ {
			if c := t[j]; c != ' ' && c != '\n' && c != '\t' && c != '\r' {
				h ^= uint64(c)
				h *= 1099511628211
			}
		}
	}
	w.listKeys[l] = h
	return h
}

// maxSharedBytes bounds a line that items share: a feature or a note,
// not a paragraph.
const maxSharedBytes = 160

// maxCardChars bounds the text of an item that shares a line with its
// siblings: a card, not a section.
const maxCardChars = 1200

// sharedText reports a paragraph that items may share: short plain text,
// not a heading (a reply's "Re:" title), a quote (a reply quoting a
// post) or a lone link (a tag).
func (w *mdWriter) sharedText(text []byte) bool {
	if len(text) > maxSharedBytes || text[0] == '#' || text[0] == '[' && text[len(text)-1] == ')' {
		return false
	}
	for _, c := range w.containers {
		if !c.list {
			return false
		}
	}
	return true
}

// sharedLine reports whether text nodes a and b (a first) lie in two
// sibling items whose first texts differ.
func (w *mdWriter) sharedLine(a, b int32) bool {
	nodes := w.t.nodes
	if a <= 0 || b <= 0 {
		return false
	}
	da, db := w.depth(a), w.depth(b)
	for ; da > db; da-- {
		a = nodes[a].parent
	}
	for ; db > da; db-- {
		b = nodes[b].parent
	}
	for nodes[a].parent != nodes[b].parent {
		a, b = nodes[a].parent, nodes[b].parent
	}
	if a == b || !w.stats.measured() || w.stats.chars(a) > maxCardChars || w.stats.chars(b) > maxCardChars {
		// the two halves of a page, or sections printed once for each
		// screen size, not cards
		return false
	}
	return nodes[a].tag == nodes[b].tag && nodes[a].class == nodes[b].class && w.firstText(a) != w.firstText(b)
}

// maxFirstTextNodes bounds the nodes firstText looks at.
const maxFirstTextNodes = 256

// depth returns the number of ancestors of n.
func (w *mdWriter) depth(n int32) int {
	d := 0
	for ; n > 0; n = w.t.nodes[n].parent {
		d++
	}
	return d
}

// firstText returns the first text in the subtree of n, trimmed, looking
// at maxFirstTextNodes nodes at most (a card's first text comes early).
func (w *mdWriter) firstText(n int32) string {
	nodes := w.t.nodes
	for i := n; i < int32(len(nodes)) && i-n < maxFirstTextNodes; i++ {
		if i != n && nodes[i].parent < n {
			// left the subtree: nodes are in document order
			break
		}
		if nodes[i].kind == kindText {
			if t := strings.TrimSpace(nodes[i].text); t != "" {
				return t
			}
		}
	}
	return ""
}

type linkMark struct {
	start  int
	href   string // empty: no link is written
	toPage bool   // the link leads to another page, not to an image file
}

type frame struct {
	n    int32
	exit bool
}

// renderMarkdown writes the subtree at root as Markdown. drop marks
// subtrees left out.
//
// head, when not empty, is a block written first (the headline); when
// nothing follows it the result is empty, so that a headline alone is not
// content. Writing it here, rather than prepending it, spares a copy of a
// page that can be megabytes.
//
// removed counts the C0 controls and DEL of the text written that were
// left out (REQ-SEC-015).
func renderMarkdown(t *tree, stats []nodeStats, drop []bool, root int32, base *url.URL, title, head string) (md string, removed int) {
	return renderMarkdownOpt(t, stats, drop, root, base, title, head, false)
}

// renderMarkdownOpt is renderMarkdown; dedupe leaves out a long paragraph
// written before (the cloned slides of a carousel, a block printed twice
// for two screen sizes), for content made of many blocks. An article may
// repeat itself on purpose (a pull quote, a recurring line of a plan) and
// keeps its repeats.
func renderMarkdownOpt(t *tree, stats []nodeStats, drop []bool, root int32, base *url.URL, title, head string, dedupe bool) (md string, removed int) {
	w := &mdWriter{t: t, stats: measures{stats}, drop: drop, base: base, title: title, head: head, dedupe: dedupe}
	if stats != nil {
		w.out.Grow(len(head) + 2 + int(stats[root].chars)*5/4 + int(stats[root].linkChars) + 64)
	}
	mark := 0
	if head != "" {
		w.out.WriteString(head)
		w.wrote = true
		mark = w.out.Len()
	}
	w.walk(root)
	w.flush()
	if w.out.Len() == mark {
		return "", 0
	}
	return w.out.String(), w.removed
}

func (w *mdWriter) walk(root int32) {
	nodes := w.t.nodes
	stack := []frame{{n: root}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.exit {
			w.leave(f.n)
			continue
		}
		if w.drop != nil && w.drop[f.n] && f.n != root {
			continue
		}
		if !w.enter(f.n) {
			continue
		}
		stack = append(stack, frame{n: f.n, exit: true})
		for c := nodes[f.n].last; c != nilNode; c = nodes[c].prev {
			stack = append(stack, frame{n: c})
		}
	}
}

// altText returns what an image contributes: its alternative text,
// unless that is a file name, the page title, the headline written first
// in other words (the lead picture described by the story's title), a
// logo's (logoAlt) or a repeat of an earlier image's.
func (w *mdWriter) altText(alt string) string {
	alt = joinFields(alt)
	if alt == "" || looksLikeFileName(alt) || strings.EqualFold(alt, w.title) || w.head != "" && wordsRepeated(alt, w.head) || logoAlt(alt) || decorativeAlt(alt) {
		return ""
	}
	if w.alts == nil {
		w.alts = map[string]bool{}
	}
	// numbers set apart the frames of one gallery ("Helmet 1", "Helmet
	// 2"); they say the same
	key := strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return -1
		}
		return unicode.ToLower(r)
	}, alt)
	if w.alts[key] {
		return ""
	}
	w.alts[key] = true
	return alt
}

// joinFields collapses the white space of s to single spaces, as
// strings.Fields and strings.Join do, but for the vertical tab: a control,
// which the writer and the cleaning remove and count (REQ-SEC-015).
func joinFields(s string) string {
	if strings.IndexByte(s, '\v') < 0 {
		return strings.Join(strings.Fields(s), " ")
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r != '\v' && unicode.IsSpace(r) }), " ")
}

// inPageLink reports an image inside a link to another page.
func (w *mdWriter) inPageLink() bool {
	for _, lm := range w.links {
		if lm.toPage {
			return true
		}
	}
	return false
}

// leadsToPage reports an href that leads to another page: not a
// fragment or a script (isPageLink), and not an image file, which a link
// around a picture opens as its larger copy.
func leadsToPage(href string) bool {
	if !isPageLink(href) {
		return false
	}
	if k := strings.IndexAny(href, "?#"); k >= 0 {
		href = href[:k]
	}
	dot := strings.LastIndexByte(href, '.')
	if dot < 0 || dot < strings.LastIndexByte(href, '/') {
		return true
	}
	switch strings.ToLower(href[dot+1:]) {
	case "jpg", "jpeg", "png", "gif", "webp", "avif", "svg", "bmp", "tif", "tiff":
		return false
	}
	return true
}

// Bounds of the look for an image's alternative text in the text
// around it.
const (
	altContextLevels = 7    // ancestors looked at
	altContextChars  = 2000 // the most text of an ancestor searched
	altContextNodes  = 256  // the most nodes of an ancestor walked
)

// altRepeatsText reports alternative text that the image's item says in
// words already: the thumbnail of a card beside the card's title, a
// product photo above the product's name. The ancestors with text, while
// they are small, are searched for the words, nearest first: a shop's
// card often wraps its picture with a badge or a "favourite" button,
// and says the product's name a level or two further up. The text may
// be said with a word of the picture's own ("Gray Trail Runner 5" over
// "Trail Runner 5"), or in other order (wordsRepeated).
func (w *mdWriter) altRepeatsText(img int32, alt string) bool {
	if !w.stats.measured() {
		return false
	}
	nodes := w.t.nodes
	n := nodes[img].parent
	for k := 0; k < altContextLevels && n != nilNode; k, n = k+1, nodes[n].parent {
		c := w.stats.chars(n)
		if c == 0 {
			continue
		}
		if c > altContextChars {
			return false
		}
		text, ok := w.subtreeText(n)
		if !ok {
			return false
		}
		if strings.Contains(matchKey(text), matchKey(alt)) || wordsRepeated(alt, text) {
			return true
		}
	}
	return false
}

// wordsRepeated reports alternative text at least two thirds of whose
// words the text around it says: a description of a picture that names
// what its item names, with a colour or a "photo of" of its own.
func wordsRepeated(alt, text string) bool {
	said := " " + strings.Map(wordRune, text) + " "
	n, words := 0, 0
	for _, w := range strings.Fields(strings.Map(wordRune, alt)) {
		words++
		if saysWord(said, w) {
			n++
		}
	}
	return words > 0 && n*3 >= words*2
}

// wordRune maps a letter or digit to its lower case and anything else to
// a space, for wordsRepeated.
func wordRune(r rune) rune {
	if unicode.IsLetter(r) || unicode.IsDigit(r) {
		return unicode.ToLower(r)
	}
	return ' '
}

// saysWord reports word w in said, a text of words between spaces that
// starts and ends with one.
func saysWord(said, w string) bool {
	for from := 0; ; {
		k := strings.Index(said[from:], w)
		if k < 0 {
			return false
		}
		k += from
		if said[k-1] == ' ' && said[k+len(w)] == ' ' {
			return true
		}
		from = k + 1
	}
}

// subtreeText returns the text below n, separated by spaces, and false
// when n holds more than altContextNodes nodes: the look stays linear in
// the document however many images it holds.
func (w *mdWriter) subtreeText(n int32) (string, bool) {
	nodes := w.t.nodes
	var b strings.Builder
	stack := []int32{n}
	for visited := 0; len(stack) > 0; visited++ {
		if visited > altContextNodes {
			return "", false
		}
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if nodes[i].kind == kindText {
			b.WriteString(nodes[i].text)
			b.WriteByte(' ')
			continue
		}
		for c := nodes[i].last; c != nilNode; c = nodes[c].prev {
			stack = append(stack, c)
		}
	}
	return b.String(), true
}

// looksLikeFileName reports alternative text that is a file name or a
// slug rather than words: "IMG_2953.jpg", "brady-pats.png".
func looksLikeFileName(alt string) bool {
	lower := strings.ToLower(alt)
	for _, ext := range []string{".jpg", ".jpeg", ".png", ".gif", ".webp", ".svg", ".avif", ".bmp", ".tif", ".tiff"} {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	if strings.ContainsAny(alt, " ") {
		return false
	}
	return strings.ContainsAny(alt, "_") || (strings.Count(alt, "-") >= 2 && strings.ContainsAny(alt, "0123456789"))
}

// isHeaderLink reports a link to a fragment of the page whose text is a
// symbol only (¶, #, §, 🔗): the permalink anchors of documentation
// headings.
func (w *mdWriter) isHeaderLink(i int32) bool {
	n := &w.t.nodes[i]
	if n.text == "" || n.text[0] != '#' {
		return false
	}
	for c := n.first; c != nilNode; c = w.t.nodes[c].next {
		cn := &w.t.nodes[c]
		if cn.kind != kindText {
			return false
		}
		for _, r := range cn.text {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return false
			}
		}
	}
	return true
}

// enter handles the start of a node; false skips its children.
func (w *mdWriter) enter(i int32) bool {
	n := &w.t.nodes[i]
	if n.kind == kindText {
		w.lastText = i
		w.text(n.text, n.flags)
		return false
	}
	w.boundary = true
	if n.flags&flagSpaceBefore != 0 {
		w.space = true
	}
	if w.pre > 0 {
		if (n.flags&flagCodeLine != 0 || isBlockTag(n.tag) && n.tag != atom.Pre) && !atLineStart(w.para) {
			// a block in a code block, or an element classed as one
			// line of it (highlighters that set each line apart by
			// its box, with no line break between them), starts a line
			w.para = append(w.para, '\n')
		}
		switch n.tag {
		case atom.Br:
			w.para = append(w.para, '\n')
		case atom.Code:
			if w.preLang == "" {
				w.preLang = n.text
			}
		case atom.Pre, atom.Listing, atom.Xmp, atom.Plaintext:
			w.pre++
		}
		return true
	}
	switch n.tag {
	case atom.Br:
		if w.inCell > 0 || w.heading > 0 || len(w.links) > 0 {
			w.space = true
		} else {
			w.lineBreak()
		}
		return false
	case atom.Img:
		if w.inPageLink() {
			// the thumbnail of a card, a logo, a banner: it names the
			// page it leads to, not a picture of this one
			return false
		}
		if alt := w.altText(n.text); alt != "" && !w.altRepeatsText(i, alt) {
			w.space = true
			w.text(alt, 0)
			w.space = true
		}
		return false
	case atom.Hr:
		w.block()
		if w.inCell == 0 && len(w.lists) == 0 {
			w.para = append(w.para[:0], "---"...)
			w.writeBlock(false)
		}
		return false
	case atom.A:
		if w.isHeaderLink(i) {
			// a "¶" or "#" anchor beside a heading
			return false
		}
		href := ""
		if w.code == 0 && w.heading == 0 && !w.stats.has(i, bitHasBlock) && len(w.links) == 0 {
			href = w.resolve(n.text)
		}
		if href != "" {
			if w.space && len(w.para) > 0 && !endsWithBreak(w.para) {
				w.para = append(w.para, ' ')
			}
			w.space = false
		}
		w.links = append(w.links, linkMark{start: len(w.para), href: href, toPage: leadsToPage(n.text)})
		return true
	case atom.Code, atom.Kbd, atom.Samp, atom.Tt:
		if w.code == 0 {
			if w.space && len(w.para) > 0 && !endsWithBreak(w.para) {
				w.para = append(w.para, ' ')
			}
			w.space = false
			w.codeStart = len(w.para)
		}
		w.code++
		return true
	}
	if !isBlockTag(n.tag) {
		return true
	}
	// block elements
	if ts := w.currentTable(); ts != nil && w.inCell == 0 {
		switch n.tag {
		case atom.Tr:
			ts.row = ts.row[:0:0]
			return true
		case atom.Td, atom.Th:
			w.inCell++
			w.para = w.para[:0]
			w.space = false
			return true
		case atom.Tbody, atom.Thead, atom.Tfoot:
			return true
		}
	}
	if w.inCell > 0 {
		w.space = true
		return true
	}
	w.block()
	switch n.tag {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		w.heading = headingLevel(n.tag)
	case atom.Pre, atom.Listing, atom.Xmp, atom.Plaintext:
		w.pre++
		w.preLang = n.text
	case atom.Ul, atom.Ol, atom.Menu, atom.Dir:
		ls := listState{ordered: n.tag == atom.Ol, next: 1}
		if ls.ordered && n.text != "" {
			if v, err := strconv.Atoi(n.text); err == nil && v >= 0 && v < 1e9 {
				ls.next = v
			}
		}
		w.lists = append(w.lists, ls)
	case atom.Li:
		marker := "- "
		if len(w.lists) > 0 {
			ls := &w.lists[len(w.lists)-1]
			if ls.ordered {
				marker = strconv.Itoa(ls.next) + ". "
				ls.next++
			}
		}
		w.containers = append(w.containers, container{first: marker, cont: strings.Repeat(" ", len(marker)), list: true})
	case atom.Blockquote:
		w.containers = append(w.containers, container{first: "> ", cont: "> "})
	case atom.Table:
		if w.stats.has(i, bitDataTable) {
			w.tables = append(w.tables, &tableState{})
		}
	}
	return true
}

// atLineStart reports a buffer that is empty or whose last line holds
// only spaces and tabs so far.
func atLineStart(b []byte) bool {
	for i := len(b) - 1; i >= 0; i-- {
		switch b[i] {
		case '\n':
			return true
		case ' ', '\t':
			continue
		}
		return false
	}
	return true
}

func endsWithBreak(b []byte) bool {
	return len(b) > 0 && b[len(b)-1] == '\n'
}

func (w *mdWriter) currentTable() *tableState {
	if len(w.tables) == 0 {
		return nil
	}
	return w.tables[len(w.tables)-1]
}

func (w *mdWriter) leave(i int32) {
	n := &w.t.nodes[i]
	w.boundary = true
	if w.pre > 0 && !(n.tag == atom.Pre || n.tag == atom.Listing || n.tag == atom.Xmp || n.tag == atom.Plaintext) {
		return
	}
	switch n.tag {
	case atom.A:
		if len(w.links) > 0 {
			lm := w.links[len(w.links)-1]
			w.links = w.links[:len(w.links)-1]
			if lm.href != "" {
				w.closeLink(lm)
			}
		}
		return
	case atom.Code, atom.Kbd, atom.Samp, atom.Tt:
		if w.code > 0 {
			w.code--
			if w.code == 0 {
				w.closeCode()
			}
		}
		return
	}
	if !isBlockTag(n.tag) {
		return
	}
	if ts := w.currentTable(); ts != nil {
		switch n.tag {
		case atom.Td, atom.Th:
			if w.inCell == 1 {
				w.inCell = 0
				ts.row = append(ts.row, cellText(w.para))
				w.para = w.para[:0]
				w.space = false
				return
			}
		case atom.Tr:
			if w.inCell == 0 {
				if len(ts.row) > 0 {
					ts.rows = append(ts.rows, ts.row)
				}
				ts.row = nil
				return
			}
		case atom.Table:
			if w.inCell == 0 && w.stats.has(i, bitDataTable) {
				w.tables = w.tables[:len(w.tables)-1]
				w.block()
				w.writeTable(ts)
				return
			}
		}
	}
	if w.inCell > 0 {
		if n.tag == atom.Td || n.tag == atom.Th {
			w.inCell--
		}
		w.space = true
		return
	}
	switch n.tag {
	case atom.Pre, atom.Listing, atom.Xmp, atom.Plaintext:
		if w.pre > 0 {
			w.pre--
			if w.pre == 0 {
				w.writeCode()
			}
		}
		return
	}
	w.block()
	switch n.tag {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		w.heading = 0
	case atom.Ul, atom.Ol, atom.Menu, atom.Dir:
		if len(w.lists) > 0 {
			w.lists = w.lists[:len(w.lists)-1]
		}
	case atom.Li, atom.Blockquote:
		if len(w.containers) > 0 {
			w.containers = w.containers[:len(w.containers)-1]
		}
	}
}

// text appends text to the current block, collapsing white space (or
// keeping it inside pre).
func (w *mdWriter) text(s string, flags uint16) {
	if flags&flagSpaceBefore != 0 {
		w.space = true
	}
	if w.pre > 0 {
		if strings.Contains(s, "\u1fef") {
			// normalization form C turns it into a backtick, which
			// could close the fence (foldToASCII)
			s = strings.ReplaceAll(s, "\u1fef", "`")
		}
		w.para = append(w.para, s...)
		return
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch c {
			case ' ', '\t', '\n', '\r', '\f':
				// white space in HTML; a vertical tab is a control
				w.space = true
				continue
			}
			if c < 0x20 || c == 0x7f {
				// a C0 control or DEL: left out, and counted
				// (REQ-SEC-015)
				w.removed++
				continue
			}
			if w.boundary {
				w.gluedWords(rune(c))
			}
			w.spaceIfPending()
			w.para = appendText(w.para, c)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\u00a0' || r == '\u3000' || (r >= '\u2000' && r <= '\u200a') || r == '\u202f' || r == '\u205f' || r == '\u2028' || r == '\u2029' || r == '\u0085' {
			w.space = true
			i += size
			continue
		}
		if w.boundary {
			w.gluedWords(r)
		}
		w.spaceIfPending()
		if c := foldToASCII(r); c != 0 {
			w.para = appendText(w.para, c)
		} else {
			w.para = append(w.para, s[i:i+size]...)
		}
		i += size
	}
}

// gluedWords sets a space between two elements' texts that abut where a
// lower-case letter meets an upper-case one ("La Sportiva" and "Aragon
// Climbing Shoes" in two spans): the pieces of a card's name, a label and
// its value, that the page's style sets on lines of their own. One word
// is not written across elements so; inside code, where a highlighter's
// spans split identifiers, nothing is added.
func (w *mdWriter) gluedWords(next rune) {
	w.boundary = false
	if w.space || w.code > 0 || len(w.para) == 0 || !unicode.IsUpper(next) {
		return
	}
	if last, _ := utf8.DecodeLastRune(w.para); unicode.IsLower(last) {
		w.space = true
	}
}

func (w *mdWriter) spaceIfPending() {
	if w.space {
		if len(w.para) > 0 && !endsWithBreak(w.para) {
			w.para = append(w.para, ' ')
		}
		w.space = false
	}
}

func (w *mdWriter) lineBreak() {
	w.para = trimRightSpace(w.para)
	if len(w.para) == 0 {
		return
	}
	w.para = append(w.para, '\n')
	w.space = false
}

func trimRightSpace(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// resolve makes href absolute and returns it when it is http(s), else "".
func (w *mdWriter) resolve(href string) string {
	if href == "" || href[0] == '#' {
		return ""
	}
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if w.base != nil {
		u = w.base.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return ""
	}
	if w.base != nil && u.Fragment != "" && u.Scheme == w.base.Scheme && u.Host == w.base.Host &&
		u.Path == w.base.Path && u.RawQuery == w.base.RawQuery {
		// a jump within the page itself
		return ""
	}
	s := u.String()
	if len(s) > maxLinkURLBytes {
		return ""
	}
	if strings.ContainsAny(s, "()<> ") {
		r := strings.NewReplacer("(", "%28", ")", "%29", "<", "%3C", ">", "%3E", " ", "%20")
		s = r.Replace(s)
	}
	return s
}

func (w *mdWriter) closeLink(lm linkMark) {
	if lm.start > len(w.para) {
		return
	}
	text := trimRightSpace(w.para[lm.start:])
	if len(text) < len(w.para[lm.start:]) {
		w.space = true
	}
	lead := 0
	for lead < len(text) && text[lead] == ' ' {
		lead++
	}
	text = text[lead:]
	if len(text) == 0 {
		return
	}
	var b []byte
	if lead > 0 && lm.start > 0 && w.para[lm.start-1] != ' ' && w.para[lm.start-1] != '\n' {
		b = append(b, ' ')
	}
	if sameAddress(string(text), lm.href) {
		// a link whose text is its address: an autolink says it once
		b = append(b, '<')
		b = append(b, lm.href...)
		b = append(b, '>')
		w.para = append(w.para[:lm.start], b...)
		return
	}
	start := lm.start
	if len(b) == 0 && lastVisibleByte(w.para[:start]) == '!' {
		// a "!" the page wrote just before the link would make it an
		// image, loaded the moment the answer is shown
		start = bytes.LastIndexByte(w.para[:start], '!')
		b = append(b, '\\')
		b = append(b, w.para[start:lm.start]...)
	}
	// the text was escaped as it was written (appendText)
	b = append(b, '[')
	for _, c := range text {
		if c == '\n' {
			c = ' '
		}
		b = append(b, c)
	}
	b = append(b, "]("...)
	b = append(b, lm.href...)
	b = append(b, ')')
	w.para = append(w.para[:start], b...)
}

// sameAddress reports link text that spells the link's own address,
// give or take the scheme, "www." and a final slash.
func sameAddress(text, href string) bool {
	norm := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		s = strings.TrimPrefix(strings.TrimPrefix(s, "https://"), "http://")
		s = strings.TrimPrefix(s, "www.")
		return strings.TrimSuffix(s, "/")
	}
	t := norm(text)
	return t != "" && t == norm(href)
}

func (w *mdWriter) closeCode() {
	if w.codeStart > len(w.para) {
		return
	}
	content := trimRightSpace(w.para[w.codeStart:])
	if len(content) < len(w.para[w.codeStart:]) {
		w.space = true
	}
	if len(content) == 0 {
		w.para = w.para[:w.codeStart]
		return
	}
	// the text was escaped as it was written (appendText); a code span
	// shows backslashes as written, so the escapes come out again and
	// the fence keeps the span closed
	content = unescapeText(content)
	ticks := longestRun(content, '`') + 1
	fence := strings.Repeat("`", ticks)
	var b []byte
	b = append(b, fence...)
	pad := content[0] == '`' || content[len(content)-1] == '`'
	if pad {
		b = append(b, ' ')
	}
	for _, c := range content {
		if c == '\n' {
			c = ' '
		}
		b = append(b, c)
	}
	if pad {
		b = append(b, ' ')
	}
	b = append(b, fence...)
	w.para = append(w.para[:w.codeStart], b...)
}

func longestRun(b []byte, c byte) int {
	best, run := 0, 0
	for _, x := range b {
		if x == c {
			run++
			if run > best {
				best = run
			}
		} else {
			run = 0
		}
	}
	return best
}

// block ends the current inline block, if any. An inline code span open
// across the end (a block inside <code>) is closed before it and opened
// again after it.
func (w *mdWriter) block() {
	if w.pre > 0 {
		return
	}
	if w.code > 0 {
		w.closeCode()
		defer func() { w.codeStart = 0 }()
	}
	if w.heading > 0 {
		w.writeHeading()
		return
	}
	w.writeBlock(true)
}

func (w *mdWriter) flush() {
	w.links = w.links[:0]
	if w.code > 0 {
		w.closeCode()
	}
	w.code = 0
	if w.pre > 0 {
		w.pre = 0
		w.writeCode()
	}
	w.block()
}

// separator writes the break before a new block.
func (w *mdWriter) separator() {
	inList := false
	for _, c := range w.containers {
		if c.list {
			inList = true
		}
	}
	if w.wrote {
		if inList && w.lastInList {
			w.out.WriteByte('\n')
		} else {
			w.out.WriteByte('\n')
			var p []byte
			for _, c := range w.containers {
				if c.started {
					p = append(p, c.cont...)
				}
			}
			w.out.Write(trimRightSpace(p))
			w.out.WriteByte('\n')
		}
	}
	w.wrote = true
	w.lastInList = inList
}

// linePrefix returns the container prefixes of the next line.
func (w *mdWriter) linePrefix() string {
	if len(w.containers) == 0 {
		return ""
	}
	var b strings.Builder
	for i := range w.containers {
		c := &w.containers[i]
		if !c.started {
			b.WriteString(c.first)
			c.started = true
		} else {
			b.WriteString(c.cont)
		}
	}
	return b.String()
}

// writeBlock writes the paragraph buffer; escape protects line starts
// that Markdown would read as structure.
func (w *mdWriter) writeBlock(escape bool) {
	text := bytes.TrimSpace(w.para)
	defer func() {
		w.para = w.para[:0]
		w.space = false
	}()
	if len(text) == 0 {
		return
	}
	if (w.dedupe && len(text) >= minRepeatBytes || len(text) >= minCopyBytes) && w.repeated(text) {
		// a carousel's cloned slides, a block printed twice for two
		// screen sizes: the reader has it already
		return
	}
	w.separator()
	blank := 0
	first := true
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			blank++
			continue
		}
		if !first {
			w.out.WriteByte('\n')
			if blank > 0 {
				w.out.WriteString(strings.TrimRight(w.contPrefix(), " "))
				w.out.WriteByte('\n')
			}
		}
		blank = 0
		first = false
		w.out.WriteString(w.linePrefix())
		if k := escapeAt(line); escape && k >= 0 {
			w.out.Write(line[:k])
			w.out.WriteByte('\\')
			line = line[k:]
		}
		w.out.Write(line)
	}
}

func (w *mdWriter) contPrefix() string {
	var b strings.Builder
	for _, c := range w.containers {
		if c.started {
			b.WriteString(c.cont)
		}
	}
	return b.String()
}

func (w *mdWriter) writeHeading() {
	level := w.heading
	w.heading = 0
	text := strings.Join(strings.Fields(string(w.para)), " ")
	w.para = w.para[:0]
	w.space = false
	if text == "" {
		w.heading = level
		return
	}
	if w.dedupe && len(text) >= minRepeatBytes && w.repeated([]byte("#"+text)) {
		// the headings of a block printed again for another screen
		// size go with its paragraphs (a heading's key is apart from
		// theirs, so a table of contents does not hide the heading)
		w.heading = level
		return
	}
	w.separator()
	w.out.WriteString(w.linePrefix())
	w.out.WriteString(strings.Repeat("#", level))
	w.out.WriteByte(' ')
	w.out.WriteString(text)
	w.heading = level
}

func (w *mdWriter) writeCode() {
	body := string(w.para)
	w.para = w.para[:0]
	w.space = false
	body = strings.Trim(body, "\n")
	if strings.TrimSpace(body) == "" {
		return
	}
	fenceLen := 3
	if r := longestRun([]byte(body), '`'); r >= fenceLen {
		fenceLen = r + 1
	}
	fence := strings.Repeat("`", fenceLen)
	w.separator()
	w.out.WriteString(w.linePrefix())
	w.out.WriteString(fence)
	w.out.WriteString(w.preLang)
	cont := w.contPrefix()
	for _, line := range strings.Split(body, "\n") {
		w.out.WriteByte('\n')
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			w.out.WriteString(strings.TrimRight(cont, " "))
			continue
		}
		w.out.WriteString(cont)
		w.out.WriteString(line)
	}
	w.out.WriteByte('\n')
	w.out.WriteString(cont)
	w.out.WriteString(fence)
	w.preLang = ""
}

func cellText(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if strings.ContainsRune(s, '|') {
		s = strings.ReplaceAll(s, "|", "\\|")
	}
	return s
}

func (w *mdWriter) writeTable(ts *tableState) {
	if ts.row != nil && len(ts.row) > 0 {
		ts.rows = append(ts.rows, ts.row)
	}
	cols := 0
	for _, r := range ts.rows {
		if len(r) > cols {
			cols = len(r)
		}
	}
	if cols == 0 {
		return
	}
	empty := true
	for _, r := range ts.rows {
		for _, c := range r {
			if c != "" {
				empty = false
			}
		}
	}
	if empty {
		return
	}
	w.separator()
	writeRow := func(r []string, first bool) {
		if !first {
			w.out.WriteByte('\n')
		}
		w.out.WriteString(w.linePrefix())
		w.out.WriteByte('|')
		for c := 0; c < cols; c++ {
			cell := ""
			if c < len(r) {
				cell = r[c]
			}
			w.out.WriteByte(' ')
			w.out.WriteString(cell)
			if cell != "" {
				w.out.WriteByte(' ')
			}
			w.out.WriteByte('|')
		}
	}
	writeRow(ts.rows[0], true)
	w.out.WriteByte('\n')
	w.out.WriteString(w.linePrefix())
	w.out.WriteByte('|')
	for c := 0; c < cols; c++ {
		w.out.WriteString(" --- |")
	}
	for _, r := range ts.rows[1:] {
		writeRow(r, false)
	}
}

// logoAlt reports alternative text that says its image is a logo ("Acme
// logo", "Logo of the Harbour Trust", "Indeed logo white"): a brand's
// mark, which the site's header, a strip of clients' marks or a
// partner's badge shows as decoration. The words of the page name what
// it is about; the marks add names without saying anything of them.
func logoAlt(alt string) bool {
	for _, f := range strings.Fields(alt) {
		f = strings.Trim(f, ".,;:!?()'\"")
		if strings.EqualFold(f, "logo") || strings.EqualFold(f, "logos") || strings.EqualFold(f, "logotype") {
			return true
		}
	}
	return false
}
