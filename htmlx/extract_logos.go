package htmlx

import "golang.org/x/net/html/atom"

// minLogoStrip is the number of pictures, each in a child of its own and
// with no words beside them, that make a strip of logos.
const minLogoStrip = 4

// logoStrip: a row of pictures without a word beside them, each in an
// item of its own ("Trusted by" and a wall of customers' or partners'
// marks, the badges of review sites), shows brands: their alternative
// texts are a list of names no reader sees on the page, not what it
// says. The element goes when it holds no text at all and at least
// minLogoStrip of its children each hold pictures and no text; a
// gallery with captions, or a figure beside its text, holds text and
// stays.
// Without it, TestLogoStripLeftOut fails.
func (p *pruner) logoStrip(i int32, nd *node, s *nodeStats) bool {
	if s.chars != 0 || nd.first == nilNode {
		return false
	}
	nodes := p.x.t.nodes
	logos := 0
	for c := nd.first; c != nilNode; c = nodes[c].next {
		if nodes[c].kind == kindElement && p.x.holdsPicture(c) {
			logos++
			if logos >= minLogoStrip {
				p.drop[i] = true
				return true
			}
		}
	}
	return false
}

// holdsPicture reports an image with alternative text in c's subtree
// (c itself included).
func (x *extractor) holdsPicture(c int32) bool {
	nodes := x.t.nodes
	for k, end := c, subtreeEnd(nodes, c); k < end; k++ {
		if nodes[k].kind == kindElement && nodes[k].tag == atom.Img && nodes[k].text != "" {
			return true
		}
	}
	return false
}
