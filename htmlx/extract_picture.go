package htmlx

import "golang.org/x/net/html/atom"

// standalonePicture reports an image with alternative text alone in its
// block, not inside a link to another page (see pruner.standalonePicture).
func (x *extractor) standalonePicture(i int32) bool {
	nodes := x.t.nodes
	b := x.block[i]
	if nodes[i].text == "" || x.st[b].ownChars > 0 {
		return false
	}
	for q := nodes[i].parent; q != nilNode; q = nodes[q].parent {
		if nodes[q].tag == atom.A && leadsToPage(nodes[q].text) {
			return false
		}
		if q == b {
			break
		}
	}
	return true
}
