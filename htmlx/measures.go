package htmlx

// The per-node measures of the extractor, and the read-only view of them
// that the Markdown writer reads.

// stats bits
const (
	bitHasBlock  uint8 = 1 << iota // a block element below
	bitHasTable                    // a table below
	bitDataTable                   // a table rendered as a pipe table
	bitGood                        // the block reads as prose
	bitTitleLink                   // a block below is a link and little else
	bitImgLink                     // an image inside a link below
	bitOwnImg                      // the block holds an image of its own
	bitCode                        // a code block (<pre>) below
)

// propagated are the bits a parent inherits from its children.
const propagated = bitHasBlock | bitHasTable | bitTitleLink | bitImgLink | bitCode

// nodeStats are the measures of one node: totals over its subtree with
// boilerplate left out, and for a block its own inline text.
type nodeStats struct {
	chars     int32 // text characters below
	linkChars int32 // of which inside links
	punct     int32
	ownChars  int32 // inline text of the block itself
	ownLink   int32
	ownPunct  int32
	good      int32 // characters of prose blocks below
	score     float32
	cells     int32
	maxCell   int32
	lastText  int32 // the block's last own text node, 0 when none
	firstText int32 // and its first
	linkItems int32 // blocks below whose own text is a link and little else
	bits      uint8
}

// measures is the read-only view of the extractor's per-node measures
// that the Markdown writer reads. The zero view has measured nothing:
// every question about a node answers as for a node without measures.
type measures struct{ st []nodeStats }

// measured reports whether there are measures at all.
func (m measures) measured() bool { return m.st != nil }

// chars returns the text characters below node n.
func (m measures) chars(n int32) int32 { return m.st[n].chars }

// has reports whether node n's measures carry the stats bit.
func (m measures) has(n int32, bit uint8) bool { return m.st != nil && m.st[n].bits&bit != 0 }

// extractor holds the per-node measures of one document.
type extractor struct {
	t    *tree
	st   []nodeStats
	junk []bool
	// consent marks what lies in a cookie or consent banner or dialog
	consent []bool
	inLink  []bool
	block   []int32
	raw     []int32 // text below each node, nothing left out
	// negative marks elements that look like chrome themselves
	negative []bool
	title    string
	// product: the page declares itself one product: og:type product,
	// or exactly one Product in its JSON-LD or microdata (a page that
	// lists products declares several)
	product bool
}
