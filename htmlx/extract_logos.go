package htmlx

import "golang.org/x/net/html/atom"

// minLogoStrip is the number of pictures, each in a child of its own and
// with no words beside them, that make a strip of logos.
const minLogoStrip = 4

// logoStrip reports a row of pictures without a word beside them, each
// in an item of its own ("Trusted by" and a wall of customers' or
// partners' marks, the badges of review sites): it shows brands, and
// the pictures' alternative texts are a list of names no reader sees on
// the page, not what it says. It is an element with no text at all of
// which at least minLogoStrip children each hold pictures and no text;
// a gallery with captions, or a figure beside its text, holds text.
func (x *extractor) logoStrip(i int32) bool {
	nodes := x.t.nodes
	if x.st[i].chars != 0 || nodes[i].first == nilNode {
		return false
	}
	logos := 0
	for c := nodes[i].first; c != nilNode; c = nodes[c].next {
		if nodes[c].kind == kindElement && x.holdsPicture(c) {
			logos++
			if logos >= minLogoStrip {
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
