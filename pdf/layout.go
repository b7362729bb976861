package pdf

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Layout constants, in units of the font size.
const (
	wordGapEm  = 0.15 // a wider gap between glyphs is a word space
	colGapEm   = 1.2  // a wider gap on a line separates two pieces of text
	baselineEm = 0.4  // runs whose baselines are this close share a line
	paraGapEm  = 1.5  // a wider space between baselines starts a paragraph
	headingMin = 1.15 // a line this much larger than the body is a heading
	heading1   = 1.6  // and this much larger, a first-level heading
)

// run is text set along one baseline without a wide gap, in content order.
type run struct {
	x0, x1, y, size float64
	text            strings.Builder
	chars           int
	trailingSpace   bool
	sizeSum         float64 // sizes of the glyphs so far
	glyphs          int
}

type seg struct {
	x0, x1, y, size float64
	text            string
	chars           int
}

type line struct {
	y, size float64
	segs    []*seg
}

// outLine is a line in reading order.
type outLine struct {
	text         string
	y, size, x0  float64
	flow         int
	header       bool
	headerKey    string
	newParagraph bool
}

// layout turns pages of glyphs into Markdown.
type layout struct {
	b            strings.Builder
	chars        int
	firstHeading string
	seenEdges    map[string]bool
	flow         int
	pendingBlank bool
	anyText      bool
	bodySize     float64
	work         int // lines and pieces compared for columns on this page
}

// maxLayoutWork bounds the work of looking for columns on one page (lines
// and pieces of lines compared): past it, the rest of the page is read line
// by line. An ordinary page never comes near it.
const maxLayoutWork = 1000000

func newLayout() *layout { return &layout{seenEdges: map[string]bool{}} }

func (l *layout) finish() string { return strings.TrimRight(l.b.String(), "\n ") + "\n" }

var combining = map[string]string{
	"\u00a8": "\u0308", "\u00b4": "\u0301", "`": "\u0300", "\u02c6": "\u0302", "\u02dc": "\u0303",
	"\u00af": "\u0304", "\u02d8": "\u0306", "\u02d9": "\u0307", "\u02da": "\u030a", "\u00b8": "\u0327",
	"\u02dd": "\u030b", "\u02db": "\u0328", "\u02c7": "\u030c",
}

// runs groups horizontal glyphs into runs; other glyphs (rotated text) go
// to rot, in content order.
func runs(gl []glyph) (out []*run, rot []string) {
	var cur *run
	var rotB strings.Builder
	var lastRot *glyph
	var accent *glyph
	flushAccent := func() {
		if accent != nil && cur != nil {
			cur.text.WriteString(accent.text)
			cur.chars++
		}
		accent = nil
	}
	var prev *glyph
	for i := range gl {
		g := &gl[i]
		if math.Abs(g.dy) > 0.1 || g.dx < 0 || g.size <= 0 {
			if lastRot != nil {
				gap := (g.x-lastRot.x)*lastRot.dx + (g.y-lastRot.y)*lastRot.dy - lastRot.adv
				off := math.Abs((g.x-lastRot.x)*lastRot.dy - (g.y-lastRot.y)*lastRot.dx)
				if off > baselineEm*g.size || gap > colGapEm*g.size || gap < -g.size {
					rot = append(rot, rotB.String())
					rotB.Reset()
				} else if gap > wordGapEm*g.size && !g.space {
					rotB.WriteByte(' ')
				}
			}
			if !g.space {
				rotB.WriteString(g.text)
			} else {
				rotB.WriteByte(' ')
			}
			lastRot = g
			continue
		}
		if g.space {
			if cur != nil {
				cur.trailingSpace = true
				cur.x1 = math.Max(cur.x1, g.x+g.adv)
			}
			continue
		}
		// Text drawn twice at the same place (fake bold) is read once.
		if prev != nil && prev.text == g.text && math.Abs(prev.x-g.x) < 0.1*g.size && math.Abs(prev.y-g.y) < 0.1*g.size {
			continue
		}
		prev = g
		if c, ok := combining[g.text]; ok && cur != nil {
			// A spacing accent over the glyph before it, or over the next.
			if g.x < cur.x1-0.1*g.size && math.Abs(g.y-cur.y) < g.size {
				cur.text.WriteString(c)
				continue
			}
			flushAccent()
			accent = g
			continue
		}
		gap := 0.0
		join := false
		if cur != nil {
			gap = g.x - cur.x1
			sz := math.Max(g.size, cur.size)
			join = math.Abs(g.y-cur.y) < 0.3*sz && gap > -0.6*sz && gap < colGapEm*sz
		}
		if !join {
			flushAccent()
			cur = &run{x0: g.x, x1: g.x + g.adv, y: g.y, size: g.size}
			out = append(out, cur)
		} else if (gap > wordGapEm*math.Max(g.size, cur.size) || cur.trailingSpace) && cur.chars > 0 {
			if accent != nil && !(accent.x+accent.adv > g.x) {
				flushAccent()
			}
			cur.text.WriteByte(' ')
			cur.chars++
		}
		cur.trailingSpace = false
		cur.text.WriteString(g.text)
		cur.chars += utf8.RuneCountInString(g.text)
		if accent != nil {
			if accent.x+accent.adv > g.x-0.1*g.size && accent.x < g.x+g.adv {
				cur.text.WriteString(combining[accent.text])
			} else {
				cur.text.WriteString(accent.text)
			}
			accent = nil
		}
		cur.x1 = math.Max(cur.x1, g.x+g.adv)
		// The run's size is the mean of its glyphs': one large symbol
		// does not make it large.
		cur.sizeSum += g.size
		cur.glyphs++
		cur.size = cur.sizeSum / float64(cur.glyphs)
	}
	flushAccent()
	if rotB.Len() > 0 {
		rot = append(rot, rotB.String())
	}
	return out, rot
}

// lines clusters runs by baseline, top to bottom, and splits each line at
// wide gaps into segments.
func lines(rs []*run) []*line {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].y > rs[j].y })
	var out []*line
	var cur []*run
	flush := func() {
		if len(cur) == 0 {
			return
		}
		sort.SliceStable(cur, func(i, j int) bool { return cur[i].x0 < cur[j].x0 })
		ln := &line{}
		var s *seg
		var sb strings.Builder
		// The line's size and baseline are those of its longest run: a
		// large symbol or a superscript does not make it a heading.
		most := 0
		for _, r := range cur {
			if r.chars == 0 {
				continue
			}
			if r.chars > most {
				most, ln.size, ln.y = r.chars, r.size, r.y
			}
			sz := r.size
			if s != nil {
				sz = math.Max(sz, s.size)
			}
			if s != nil && r.x0-s.x1 < colGapEm*sz {
				if r.x0-s.x1 > wordGapEm*sz && !strings.HasSuffix(sb.String(), " ") {
					sb.WriteByte(' ')
					s.chars++
				}
				sb.WriteString(r.text.String())
				s.chars += r.chars
				s.x1 = math.Max(s.x1, r.x1)
				s.size = math.Max(s.size, r.size)
				continue
			}
			if s != nil {
				s.text = sb.String()
				ln.segs = append(ln.segs, s)
			}
			sb.Reset()
			sb.WriteString(r.text.String())
			s = &seg{x0: r.x0, x1: r.x1, y: r.y, size: r.size, chars: r.chars}
		}
		if s != nil {
			s.text = sb.String()
			ln.segs = append(ln.segs, s)
		}
		if len(ln.segs) > 0 {
			out = append(out, ln)
		}
		cur = cur[:0]
	}
	for _, r := range rs {
		if n := len(cur); n > 0 && cur[n-1].y-r.y > baselineEm*math.Max(r.size, cur[n-1].size) {
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

type interval struct{ lo, hi float64 }

// free is the horizontal space of ln not covered by its segments, inside
// [x0, x1].
func free(ln *line, x0, x1 float64) []interval {
	var out []interval
	at := x0
	for _, s := range ln.segs {
		if s.x0 > at {
			out = append(out, interval{at, s.x0})
		}
		at = math.Max(at, s.x1)
	}
	if x1 > at {
		out = append(out, interval{at, x1})
	}
	return out
}

// intersect is the overlap of two sorted lists of disjoint intervals,
// keeping the pieces at least minW wide, in one pass over both.
func intersect(a, b []interval, minW float64) []interval {
	var out []interval
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := math.Max(a[i].lo, b[j].lo), math.Min(a[i].hi, b[j].hi)
		if hi-lo >= minW {
			out = append(out, interval{lo, hi})
		}
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// order writes lines in reading order: a run of lines sharing a vertical
// gutter is read as columns, left column first, each recursively.
func (l *layout) order(ls []*line, out []outLine, depth int) []outLine {
	if len(ls) == 0 {
		return out
	}
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, ln := range ls {
		for _, s := range ln.segs {
			x0, x1 = math.Min(x0, s.x0), math.Max(x1, s.x1)
		}
	}
	minGutter := math.Max(0.8*l.bodySize, 4)
	single := func(ln *line) {
		if len(out) == 0 || out[len(out)-1].flow != l.flow || out[len(out)-1].y < ln.y {
			l.flow++
		}
		var sb strings.Builder
		for i, s := range ln.segs {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(s.text)
		}
		out = append(out, outLine{text: sb.String(), y: ln.y, size: ln.size, x0: ln.segs[0].x0, flow: l.flow})
	}
	for i := 0; i < len(ls); {
		if depth < 6 && l.work < maxLayoutWork {
			f := intersect(free(ls[i], x0, x1), []interval{{x0, x1}}, minGutter)
			j := i + 1
			for ; j < len(ls) && len(f) > 0 && l.work < maxLayoutWork; j++ {
				l.work += 1 + len(f) + len(ls[j].segs)
				nf := intersect(f, free(ls[j], x0, x1), minGutter)
				if len(nf) == 0 {
					break
				}
				f = nf
			}
			if j-i >= 3 {
				if left, right, ok := split(ls[i:j], f); ok {
					l.flow++
					out = l.order(left, out, depth+1)
					l.flow++
					out = l.order(right, out, depth+1)
					l.flow++
					i = j
					continue
				}
			}
		}
		single(ls[i])
		i++
	}
	return out
}

// split divides a band of lines at the first gutter that leaves text
// columns on both sides: each side with at least two lines and mostly
// full lines, and the lines with text on each side at least a third of
// the band.
func split(band []*line, gutters []interval) (left, right []*line, ok bool) {
	bx0, bx1 := math.Inf(1), math.Inf(-1)
	for _, ln := range band {
		for _, s := range ln.segs {
			bx0, bx1 = math.Min(bx0, s.x0), math.Max(bx1, s.x1)
		}
	}
	for k, g := range gutters {
		if k >= 8 {
			break // a page of many gutters is a table, not columns
		}
		if g.lo <= bx0 || g.hi >= bx1 {
			continue
		}
		var ls, rs []*line
		var lw, rw []float64
		lx0, lx1, rx0, rx1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, ln := range band {
			a, b := &line{y: ln.y, size: ln.size}, &line{y: ln.y, size: ln.size}
			for _, s := range ln.segs {
				if s.x1 <= g.lo+0.01 {
					a.segs = append(a.segs, s)
					lx0, lx1 = math.Min(lx0, s.x0), math.Max(lx1, s.x1)
				} else {
					b.segs = append(b.segs, s)
					rx0, rx1 = math.Min(rx0, s.x0), math.Max(rx1, s.x1)
				}
			}
			if len(a.segs) > 0 {
				ls = append(ls, a)
				lw = append(lw, a.segs[len(a.segs)-1].x1-a.segs[0].x0)
			}
			if len(b.segs) > 0 {
				rs = append(rs, b)
				rw = append(rw, b.segs[len(b.segs)-1].x1-b.segs[0].x0)
			}
		}
		if len(ls) < 2 || len(rs) < 2 || 3*len(ls) < len(band) || 3*len(rs) < len(band) {
			continue
		}
		if median(lw) < 0.5*(lx1-lx0) || median(rw) < 0.5*(rx1-rx0) {
			continue
		}
		return ls, rs, true
	}
	return nil, nil, false
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64{}, v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// edgeKey is a running header's or footer's identity: the text without
// white space, lower-cased, with a number at either end (the page number)
// folded, so that "Chapter 2 ... 17" and "Chapter 2 ... 18" compare equal.
func edgeKey(s string) string {
	f := strings.Fields(strings.ToLower(s))
	isNum := func(w string) bool {
		return strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' && r != '-' }) < 0
	}
	if len(f) > 0 && isNum(f[0]) {
		f[0] = "#"
	}
	if len(f) > 1 && isNum(f[len(f)-1]) {
		f[len(f)-1] = "#"
	}
	return strings.Join(f, " ")
}

// runningKey says whether an edge key can be a running header or footer:
// a page number, or text with at least four letters (a closing brace at
// the top of two pages of code is not a header).
func runningKey(k string) bool {
	if k == "#" {
		return true
	}
	letters := 0
	for _, r := range k {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 4
}

// page lays out one page's glyphs and appends its Markdown.
func (l *layout) page(gl []glyph, _ pageRef) {
	rs, rot := runs(gl)
	ls := lines(rs)
	// The body size: the size most characters on the page are set in.
	weight := map[float64]int{}
	for _, r := range rs {
		weight[math.Round(r.size*2)/2] += r.chars
	}
	best := 0
	for s, w := range weight {
		if w > best || (w == best && s < l.bodySize) {
			best, l.bodySize = w, s
		}
	}
	// The top and bottom lines are running headers and footers when the
	// same text (digits aside) was met at an edge of an earlier page.
	edge := map[*line]string{}
	if len(ls) > 1 {
		for _, ln := range []*line{ls[0], ls[len(ls)-1]} {
			var sb strings.Builder
			for _, s := range ln.segs {
				sb.WriteString(s.text)
			}
			edge[ln] = edgeKey(sb.String())
		}
	}
	var keep []*line
	var met []string
	for _, ln := range ls {
		if k, ok := edge[ln]; ok && runningKey(k) {
			if l.seenEdges[k] {
				continue
			}
			met = append(met, k)
		}
		keep = append(keep, ln)
	}
	// Compared with earlier pages only: a page whose first and last lines
	// are alike keeps both.
	for _, k := range met {
		if len(l.seenEdges) < 1024 {
			l.seenEdges[k] = true
		}
	}
	l.work = 0
	out := l.order(keep, nil, 0)
	for _, t := range rot {
		if strings.TrimSpace(t) != "" {
			l.flow++
			out = append(out, outLine{text: t, size: l.bodySize, flow: l.flow})
		}
	}
	l.write(out)
}

// write turns ordered lines into paragraphs and headings.
func (l *layout) write(out []outLine) {
	// Group into paragraphs.
	var paras [][]outLine
	for i, o := range out {
		newPara := i == 0
		if i > 0 {
			p := out[i-1]
			gap := p.y - o.y
			sz := math.Max(p.size, o.size)
			switch {
			case o.flow != p.flow:
				newPara = true
			case gap < -0.5*sz || gap > paraGapEm*sz:
				newPara = true
			case math.Abs(o.size-p.size) > 0.15*sz && (l.isHeading(o.size) || l.isHeading(p.size)):
				newPara = true
			}
		}
		if newPara {
			paras = append(paras, nil)
		}
		paras[len(paras)-1] = append(paras[len(paras)-1], o)
	}
	for _, p := range paras {
		var buf []byte
		heading := ""
		if sz := p[0].size; l.isHeading(sz) && len(p) <= 3 {
			heading = "## "
			if sz >= heading1*l.bodySize {
				heading = "# "
			}
		}
		for i, o := range p {
			t := strings.TrimSpace(o.text)
			if t == "" {
				continue
			}
			if i > 0 && len(buf) > 0 {
				if joinHyphen(string(buf[max(0, len(buf)-8):]), t) {
					// Drop the hyphen: one byte, or the two of a soft hyphen.
					if buf[len(buf)-1] == '-' {
						buf = buf[:len(buf)-1]
					} else {
						buf = buf[:len(buf)-2]
					}
				} else if heading != "" {
					buf = append(buf, ' ')
				} else {
					buf = append(buf, '\n')
				}
			}
			buf = append(buf, t...)
		}
		text := string(buf)
		if strings.TrimSpace(text) == "" {
			continue
		}
		if heading != "" && utf8.RuneCountInString(text) > 200 {
			heading = ""
		}
		var md string
		if heading != "" {
			md = heading + escapeLine(text, true)
			if l.firstHeading == "" {
				l.firstHeading = strings.Join(strings.Fields(text), " ")
			}
		} else {
			ls := strings.Split(text, "\n")
			for i := range ls {
				ls[i] = escapeLine(ls[i], false)
			}
			md = strings.Join(ls, "\n")
		}
		if l.b.Len() > 0 {
			l.b.WriteString("\n\n")
			l.chars += 2
		}
		l.b.WriteString(md)
		l.chars += utf8.RuneCountInString(md)
	}
}

func (l *layout) isHeading(size float64) bool {
	return l.bodySize > 0 && size >= headingMin*l.bodySize
}

// joinHyphen says whether a line ending in a hyphen joins the next line's
// first word: a letter before the hyphen and a letter after it.
func joinHyphen(prev, next string) bool {
	var trimmed string
	switch {
	case strings.HasSuffix(prev, "-"):
		trimmed = prev[:len(prev)-1]
	case strings.HasSuffix(prev, "\u00ad"):
		trimmed = prev[:len(prev)-2]
	default:
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(trimmed)
	n, _ := utf8.DecodeRuneInString(next)
	return unicode.IsLetter(r) && unicode.IsLetter(n)
}

// escapeLine keeps a line of text from being read as Markdown markup.
func escapeLine(s string, heading bool) string {
	var sb strings.Builder
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0xfffd {
			return -1
		}
		return r
	}, s)
	// A bullet starts a list item.
	for _, b := range []string{"•", "◦", "▪", "‣", "∙", "·", "–"} {
		if strings.HasPrefix(s, b) {
			rest := strings.TrimSpace(s[len(b):])
			if rest != "" && !heading {
				return "- " + escapeLine(rest, false)
			}
		}
	}
	for i, r := range s {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '<':
			sb.WriteByte('\\')
		case '#', '>', '+', '-', '=':
			if i == 0 && !heading {
				sb.WriteByte('\\')
			}
		}
		sb.WriteRune(r)
	}
	return sb.String()
}
