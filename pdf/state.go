package pdf

// state.go holds what the reader carries while it reads: the document's
// shared state and its pages, a page's interpreter state, the fonts and
// the glyphs they show. The files that read them build on it.

// docReader carries what is shared by the pages of one document.
type docReader struct {
	f           *file
	lim         Limits
	fonts       map[int]*font
	defaultFont *font
	pages       []pageRef
	glyphBuf    []glyph // the last page's glyphs, reused by the next page
}

type pageRef struct {
	d      dict
	res    dict
	box    [4]float64
	rotate int
	hasBox bool
}

// font is what the reader needs of a font: the text and width of each code.
type font struct {
	composite bool
	codes     *cmap // Type0: code lengths and CIDs (nil: two bytes, CID = code)
	toUni     *cmap
	enc       [256]string // simple fonts: text by code
	widths    []float64   // simple fonts: glyph-space widths from firstChar
	firstChar int
	missing   float64
	dw        float64
	cidW      map[int]float64
	scale     float64           // glyph space to text space (0.001, or Type3's FontMatrix)
	std       *[95]uint16       // a standard font's ASCII widths, when /Widths is absent
	memo      map[uint32]string // ToUnicode texts already looked up
}

// matrix is an affine transform [a b c d e f].
type matrix [6]float64

// glyph is one shown code: its text, where its origin and advance are on
// the page (user space), and the size of its font there.
type glyph struct {
	text   string
	x, y   float64 // origin
	adv    float64 // advance along the line
	size   float64
	dx, dy float64 // unit direction of the line
	space  bool    // the code is a word space
}

type gstate struct {
	ctm                  matrix
	font                 *font
	size, tc, tw, th, tl float64
	rise                 float64
}

// pageReader runs the content streams of one page.
type pageReader struct {
	f       *file
	doc     *docReader
	glyphs  []glyph
	ops     int
	gs      gstate
	stack   []gstate
	tm, tlm matrix
	depth   int // Form XObject nesting
	res     dict
	marks   []mark
	err     error
}

// mark is an open marked-content sequence; with ActualText the glyphs
// shown inside it are replaced by that text.
type mark struct {
	actual   string
	has      bool
	firstGly int
}
