package htmlx

import "bytes"

// A page can hide text with a class or id rule in a <style> element
// instead of an inline style. The parser reads the style sheets that come
// before the elements and keeps the simple selectors (".name", "#name",
// "tag.name", "tag#name") whose declarations hide; rules inside at-rules
// (@media print, @supports...) and complex selectors are ignored, so a
// rule never hides more than a browser would on a plain screen.

// maxHiddenSelectors bounds the selectors kept from a page's style
// sheets.
const maxHiddenSelectors = 4096

// hiddenSelectors are the class names and ids that style sheets hide.
type hiddenSelectors struct {
	classes map[string]bool
	ids     map[string]bool
}

func (h *hiddenSelectors) empty() bool {
	return len(h.classes) == 0 && len(h.ids) == 0
}

func (h *hiddenSelectors) size() int {
	return len(h.classes) + len(h.ids)
}

// scan reads a style sheet. scratch is reused for the declarations.
func (h *hiddenSelectors) scan(css []byte, scratch *[]byte) {
	css = stripCSSComments(css)
	for len(css) > 0 && h.size() < maxHiddenSelectors {
		open := bytes.IndexAny(css, "{;}")
		if open < 0 {
			return
		}
		prelude := bytes.TrimSpace(css[:open])
		switch css[open] {
		case ';', '}':
			// an at-statement or a stray brace
			css = css[open+1:]
			continue
		}
		end := matchingBrace(css, open)
		block := css[open+1 : end]
		if end < len(css) {
			css = css[end+1:]
		} else {
			css = nil
		}
		if len(prelude) == 0 || prelude[0] == '@' || bytes.IndexByte(block, '{') >= 0 {
			continue
		}
		if !hiddenStyle(block, scratch) {
			continue
		}
		for _, sel := range bytes.Split(prelude, []byte(",")) {
			h.add(bytes.TrimSpace(sel))
		}
	}
}

// add keeps a simple selector.
func (h *hiddenSelectors) add(sel []byte) {
	i := 0
	for i < len(sel) && isCSSNameByte(sel[i]) {
		i++ // an optional type selector
	}
	if i+1 >= len(sel) || (sel[i] != '.' && sel[i] != '#') {
		return
	}
	name := sel[i+1:]
	for _, c := range name {
		if !isCSSNameByte(c) {
			return
		}
	}
	if sel[i] == '.' {
		if h.classes == nil {
			h.classes = map[string]bool{}
		}
		h.classes[string(name)] = true
	} else {
		if h.ids == nil {
			h.ids = map[string]bool{}
		}
		h.ids[string(name)] = true
	}
}

// hidesClass reports whether a class attribute names a hidden class.
func (h *hiddenSelectors) hidesClass(val []byte) bool {
	if len(h.classes) == 0 {
		return false
	}
	for len(val) > 0 {
		i := 0
		for i < len(val) && !isCSSSpace(val[i]) {
			i++
		}
		if i > 0 && h.classes[string(val[:i])] {
			return true
		}
		for i < len(val) && isCSSSpace(val[i]) {
			i++
		}
		val = val[i:]
	}
	return false
}

// hidesID reports whether an id attribute names a hidden id.
func (h *hiddenSelectors) hidesID(val []byte) bool {
	return len(h.ids) > 0 && h.ids[string(bytes.TrimSpace(val))]
}

func isCSSNameByte(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') || c == '-' || c == '_' || c >= 0x80
}

// stripCSSComments removes /* */ comments; it returns css itself when
// there are none.
func stripCSSComments(css []byte) []byte {
	if bytes.Index(css, []byte("/*")) < 0 {
		return css
	}
	out := make([]byte, 0, len(css))
	for {
		i := bytes.Index(css, []byte("/*"))
		if i < 0 {
			return append(out, css...)
		}
		out = append(out, css[:i]...)
		out = append(out, ' ')
		j := bytes.Index(css[i+2:], []byte("*/"))
		if j < 0 {
			return out
		}
		css = css[i+2+j+2:]
	}
}

// matchingBrace returns the index of the brace that closes the one at
// open, or len(css).
func matchingBrace(css []byte, open int) int {
	depth := 0
	for i := open; i < len(css); i++ {
		switch css[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(css)
}
