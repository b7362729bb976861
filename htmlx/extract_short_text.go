package htmlx

// collapsedText gathers the text below element i into buf, lower-cased
// (ASCII), its runs of white space one space, without space at either
// end; ok is false when it does not fit.
func (x *extractor) collapsedText(i int32, buf []byte) (t []byte, ok bool) {
	nodes := x.t.nodes
	n := 0
	space := false
	for k, end := i+1, subtreeEnd(nodes, i); k < end; k++ {
		if nodes[k].kind != kindText {
			continue
		}
		s := nodes[k].text
		for j := 0; j < len(s); j++ {
			c := s[j]
			if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' {
				space = n > 0
				continue
			}
			if space {
				if n == len(buf) {
					return nil, false
				}
				buf[n] = ' '
				n++
				space = false
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if n == len(buf) {
				return nil, false
			}
			buf[n] = c
			n++
		}
		space = n > 0
	}
	return buf[:n], true
}

// leadPair returns the first two bytes of the text below element i,
// past white space, lower-cased (ASCII), 0 where there are none: the
// matchers of short texts look at them before they gather the text.
func (x *extractor) leadPair(i int32) (a, b byte) {
	nodes := x.t.nodes
	n := 0
	for k, end := i+1, subtreeEnd(nodes, i); k < end && n < 2; k++ {
		if nodes[k].kind != kindText || nodes[k].chars == 0 {
			continue
		}
		s := nodes[k].text
		for j := 0; j < len(s) && n < 2; j++ {
			c := s[j]
			if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' {
				if n > 0 {
					return a, ' '
				}
				continue
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if n == 0 {
				a = c
			} else {
				b = c
			}
			n++
		}
		if n == 1 {
			// the text goes on in the next text node, after a space
			// or not: either way a label may go on there
			return a, b
		}
	}
	return a, b
}

// leadIn reports whether the pair (a, b) starts one of the strings.
func leadIn(a, b byte, strs ...string) bool {
	for _, s := range strs {
		if len(s) >= 2 && s[0] == a && (b == 0 || s[1] == b) {
			return true
		}
	}
	return false
}

// trimSpaces trims the ASCII spaces at either end of b.
func trimSpaces(b []byte) []byte {
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}
