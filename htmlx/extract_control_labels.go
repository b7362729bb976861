package htmlx

import "bytes"

// minControlChars and maxControlChars bound the text of a control's
// line.
const (
	minControlChars = 5
	maxControlChars = 40
)

// controlLines are those lines, lower-cased, without trailing dots or a
// colon.
var controlLines = map[string]bool{
	"click to expand": true, "click to shrink": true, "select all": true, "code: select all": true,
	"expand all": true, "collapse all": true, "share this": true, "share this article": true,
	"share this post": true, "share this story": true, "share this page": true, "print this page": true,
	"share": true, "advertisement": true, "sponsored": true, "advertisement - page continues below": true,
	"story continues below advertisement": true, "article continues below advertisement": true,
	"continue reading below": true, "scroll to continue": true, "scroll to continue with content": true,
}

// controlLine reports an element whose text, lower-cased, is one of
// controlLines or a reading time ("5 min read", "12 minute read").
func (x *extractor) controlLine(i int32) bool {
	a, b := x.leadPair(i)
	if !('0' <= a && a <= '9') && !leadIn(a, b, "click", "select", "expand", "collapse", "share", "print", "advertisement", "sponsored", "story", "article", "continue", "scroll", "code") {
		return false
	}
	var buf [2 * maxControlChars]byte
	t, ok := x.collapsedText(i, buf[:])
	if !ok {
		return false
	}
	t = bytes.TrimRight(t, " .…:")
	return controlLines[string(t)] || readingTime(t)
}

// readingTime reports "N min read", "N mins read", "N minute read" or
// "N minutes read".
func readingTime(t []byte) bool {
	k := 0
	for k < len(t) && '0' <= t[k] && t[k] <= '9' {
		k++
	}
	if k == 0 || k > 3 {
		return false
	}
	rest := bytes.TrimLeft(t[k:], " ")
	for _, u := range [...]string{"min read", "mins read", "min. read", "minute read", "minutes read"} {
		if string(rest) == u {
			return true
		}
	}
	return false
}
