package htmlx

import (
	"hash/maphash"

	"golang.org/x/net/html/atom"
)

// A block printed twice in one page, word for word and line for line
// (the slides a carousel clones to loop, a section rendered once for
// wide screens and again for narrow ones, a tab's panel repeated under
// each of its tabs), says once what it says: the second copy goes. The
// writer already leaves out a long paragraph that comes again; a cloned
// block is mostly short lines (a figure and its label, a card's title
// and its link), each too short to be judged a repeat on its own, which
// together are one.
const (
	// minCloneLines is the number of texts a block needs to be judged
	// a copy as a whole
	minCloneLines = 6
	// minCloneChars is the text it needs
	minCloneChars = 150
)

// cloneStats is, for each node of a root, a hash of its texts in order,
// the number of its texts, and the blocks met so far by hash.
type cloneStats struct {
	hash  []uint64
	lines []int32
	// code: the node holds code or is inside it: documentation repeats
	// code on purpose (the same call in two examples)
	code  []bool
	first map[uint64]int32
}

// cloneSeed seeds the hashes of texts: a hash is compared within one page
// only.
var cloneSeed = maphash.MakeSeed()

func (x *extractor) cloneStats(root int32) *cloneStats {
	nodes := x.t.nodes
	end := subtreeEnd(nodes, root)
	c := &cloneStats{hash: make([]uint64, end-root), lines: make([]int32, end-root), code: make([]bool, end-root), first: map[uint64]int32{}}
	// inside code, top down
	for i := root + 1; i < end; i++ {
		nd := &nodes[i]
		c.code[i-root] = c.code[nd.parent-root] ||
			nd.kind == kindElement && (nd.tag == atom.Pre || nd.tag == atom.Code || nd.flags&flagCodeLine != 0)
	}
	// bottom up, each node's hash folds its children's, last child
	// first; what holds code is marked as what is inside it is
	for i := end - 1; i > root; i-- {
		nd := &nodes[i]
		k := i - root
		if nd.kind == kindText && nd.chars > 0 {
			c.hash[k] ^= maphash.String(cloneSeed, nd.text)
			c.lines[k]++
		}
		p := nd.parent - root
		c.hash[p] = (c.hash[p]*0x100000001b3 ^ c.hash[k]) + 0x9e3779b97f4a7c15
		c.lines[p] += c.lines[k]
		if p > 0 && c.code[k] {
			c.code[p] = true
		}
	}
	return c
}

// copyOf reports a block that repeats, whole, a block met before it in
// the root (see minCloneLines), i being asked in document order; a block
// met first is remembered.
func (c *cloneStats) copyOf(x *extractor, i, root int32) bool {
	s := &x.st[i]
	k := i - root
	if s.chars < minCloneChars || int(k) >= len(c.hash) || c.lines[k] < minCloneLines || c.code[k] {
		return false
	}
	h := c.hash[k] ^ uint64(s.chars)<<32
	f, ok := c.first[h]
	if !ok {
		c.first[h] = i
		return false
	}
	return subtreeEnd(x.t.nodes, f) <= i && x.st[f].chars == s.chars
}
