package htmlx

import "golang.org/x/net/html/atom"

// minChapterEntries is the links to other pages a chapter's table of
// contents holds at least: a handful of links under a title is a bar of
// tags or of sister topics, which a listing heads its items with.
const minChapterEntries = 6

// chapterContents reports the table of contents of a chapter page: an
// element named as navigation ("toc") inside the root, made of links to
// other pages (the chapter's sections, each a page of its own), that
// follows the page's first heading with no text between them and is
// followed by prose (the chapter's introduction). On such a page (a book's chapter, a manual's part) the list of sections is what
// the page says, beside a short introduction; it is not the site's menu,
// which sits before the page's title or around the content, nor an
// article's contents, whose links lead to places in the page itself and
// which the table-of-contents rule leaves out.
// Without it, TestChapterContentsKept fails.
func (x *extractor) chapterContents(i, root int32) bool {
	nodes := x.t.nodes
	nd := &nodes[i]
	s := &x.st[i]
	if nd.hints&hintNav == 0 || s.chars < minTOCChars || s.linkChars*10 < s.chars*8 || s.good*2 > s.chars {
		return false
	}
	switch nd.tag {
	case atom.Nav, atom.Aside, atom.Menu, atom.Header, atom.Footer:
		return false
	}
	end := subtreeEnd(nodes, i)
	pages := 0
	for c := i + 1; c < end; c++ {
		if n := &nodes[c]; n.kind == kindElement && n.tag == atom.A {
			if len(n.text) == 0 || n.text[0] == '#' {
				return false
			}
			pages++
		}
	}
	if pages < minChapterEntries {
		return false
	}
	// the page's first heading, then nothing to read up to the element
	h := nilNode
	for c := root + 1; c < i; c++ {
		if nodes[c].kind == kindElement && headingLevel(nodes[c].tag) > 0 && headingLevel(nodes[c].tag) <= 2 {
			h = c
			break
		}
	}
	if h == nilNode {
		return false
	}
	for c := subtreeEnd(nodes, h); c < i; c++ {
		if nodes[c].kind == kindText && nodes[c].chars > 0 {
			return false
		}
	}
	// and the chapter's introduction after it: the next text is prose
	rootEnd := subtreeEnd(nodes, root)
	for c := end; c < rootEnd; c++ {
		if nodes[c].kind == kindText && nodes[c].chars > 0 {
			return x.st[x.block[c]].bits&bitGood != 0
		}
	}
	return false
}
