package htmlx

import "golang.org/x/net/html/atom"

// standalonePicture: a picture set apart from the text, alone in its
// block (a figure, a paragraph or a box of its own), is shown, not read:
// its alternative text describes it to those who cannot see it ("A dog
// licks its owner's hand on a sofa") and is not part of what the page
// says, so the picture goes and its description with it; so does a
// link around it that opens the picture itself (its larger copy, a
// lightbox's fragment). A picture inside a sentence ("see [a sketch of
// the logo] here") stands for words of that sentence, and one inside a
// link to another page is the link's text: both stay.
// Without it, TestREQ_PAGE_002_StandalonePictureNotRead and
// TestREQ_PAGE_002_EnlargedPictureNotRead fail.
func (p *pruner) standalonePicture(i int32, nd *node, s *nodeStats) bool {
	x := p.x
	nodes := x.t.nodes
	b := x.block[i]
	if nd.text == "" || x.st[b].ownChars > 0 {
		return false
	}
	for q := nd.parent; q != nilNode; q = nodes[q].parent {
		if nodes[q].tag == atom.A && leadsToPage(nodes[q].text) {
			return false
		}
		if q == b {
			break
		}
	}
	p.drop[i] = true
	return true
}
