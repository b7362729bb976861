package htmlx

import (
	"net/url"
	"strings"

	"golang.org/x/net/html/atom"
)

// A CommonMark reading of the Markdown the writer makes, for the tests
// that prove page text makes no Markdown structure. It finds what can
// lead a reader's interface somewhere or load something: links, images,
// autolinks, raw HTML and reference definitions. It follows the
// CommonMark rules that decide whether they form (backslash escapes, code
// spans, fenced code blocks, container prefixes) and errs towards finding
// more: every "<" not escaped and not in code that is followed by a
// letter, "/", "!" or "?" counts as raw HTML.

type mdFound struct {
	kind string // "link", "image", "autolink", "html", "definition"
	dest string
	at   string // the Markdown around it, for the message
}

// readMarkdown returns the constructs of md in order.
func readMarkdown(md string) []mdFound {
	var found []mdFound
	var para []string
	flush := func() {
		if len(para) > 0 {
			found = scanInline(strings.Join(para, "\n"), found)
			para = para[:0]
		}
	}
	fenceChar, fenceLen := byte(0), 0
	for _, line := range strings.Split(md, "\n") {
		body := stripContainers(line)
		if fenceLen > 0 {
			if n := runOf(body, fenceChar); n >= fenceLen && strings.TrimSpace(body[n:]) == "" {
				fenceLen = 0
			}
			continue
		}
		if c := firstByte(body); c == '`' || c == '~' {
			if n := runOf(body, c); n >= 3 && (c == '~' || !strings.Contains(body[n:], "`")) {
				flush()
				fenceChar, fenceLen = c, n
				continue
			}
		}
		if strings.TrimSpace(body) == "" {
			flush()
			continue
		}
		if label, ok := definitionLabel(body); ok {
			found = append(found, mdFound{kind: "definition", dest: label, at: line})
		}
		para = append(para, body)
	}
	flush()
	return found
}

// stripContainers removes what can stand before a paragraph's text on a
// line: indentation, block quote markers and list markers, however many.
func stripContainers(line string) string {
	for {
		s := strings.TrimLeft(line, " \t")
		switch {
		case strings.HasPrefix(s, ">"):
			s = s[1:]
		case len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && (s[1] == ' ' || s[1] == '\t'):
			s = s[2:]
		default:
			d := 0
			for d < len(s) && d < 9 && s[d] >= '0' && s[d] <= '9' {
				d++
			}
			if d > 0 && d+1 < len(s) && (s[d] == '.' || s[d] == ')') && (s[d+1] == ' ' || s[d+1] == '\t') {
				s = s[d+2:]
			} else {
				return s
			}
		}
		line = s
	}
}

func firstByte(s string) byte {
	if s == "" {
		return 0
	}
	return s[0]
}

func runOf(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// definitionLabel reports a line that opens a link reference definition:
// "[label]:" with no unescaped bracket inside the label.
func definitionLabel(s string) (string, bool) {
	if !strings.HasPrefix(s, "[") {
		return "", false
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			return "", false
		case ']':
			return s[1:i], i > 1 && i+1 < len(s) && s[i+1] == ':'
		}
	}
	return "", false
}

func isASCIIPunctByte(c byte) bool {
	return c < 0x80 && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// codeSpanEnd returns the end of the code span whose opening backticks
// start at s[i], or -1 when no closing run of the same length follows.
func codeSpanEnd(s string, i int) (end, open int) {
	n := runOf(s[i:], '`')
	for j := i + n; j < len(s); {
		if s[j] != '`' {
			j++
			continue
		}
		m := runOf(s[j:], '`')
		if m == n {
			return j + m, n
		}
		j += m
	}
	return -1, n
}

// scanInline appends the inline constructs of the paragraph s.
func scanInline(s string, found []mdFound) []mdFound {
	around := func(i int) string {
		return s[max(0, i-20):min(len(s), i+40)]
	}
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '\\':
			if i+1 < len(s) && isASCIIPunctByte(s[i+1]) {
				i += 2
				continue
			}
		case '`':
			end, n := codeSpanEnd(s, i)
			if end < 0 {
				i += n
			} else {
				i = end
			}
			continue
		case '<':
			if end := autolinkEnd(s, i); end > 0 {
				found = append(found, mdFound{kind: "autolink", dest: s[i+1 : end-1], at: around(i)})
				i = end
				continue
			}
			if i+1 < len(s) && (isASCIILetter(s[i+1]) || strings.IndexByte("/!?", s[i+1]) >= 0) {
				found = append(found, mdFound{kind: "html", at: around(i)})
			}
		case '!', '[':
			open := i
			if c == '!' {
				if i+1 >= len(s) || s[i+1] != '[' {
					break
				}
				open = i + 1
			}
			if textEnd, dest, end, ok := inlineLink(s, open); ok {
				kind := "link"
				if c == '!' {
					kind = "image"
				}
				found = append(found, mdFound{kind: kind, dest: dest, at: around(i)})
				found = scanInline(s[open+1:textEnd], found)
				i = end
				continue
			}
			i = open + 1
			continue
		}
		i++
	}
	return found
}

// autolinkEnd returns the end of the autolink at s[i] ("<scheme:...>" or
// "<user@host>"), or -1.
func autolinkEnd(s string, i int) int {
	j := i + 1
	for j < len(s) && s[j] != '>' {
		if s[j] <= ' ' || s[j] == '<' {
			return -1
		}
		j++
	}
	if j >= len(s) {
		return -1
	}
	inner := s[i+1 : j]
	if k := strings.IndexByte(inner, ':'); k >= 2 && k <= 32 && isASCIILetter(inner[0]) &&
		strings.Trim(inner[:k], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-") == "" {
		return j + 1
	}
	if at := strings.IndexByte(inner, '@'); at > 0 && at < len(inner)-1 && !strings.ContainsAny(inner, "\\") {
		return j + 1
	}
	return -1
}

// inlineLink reads "[text](destination ...)" at s[open]: the end of the
// text, the destination and the end of the link.
func inlineLink(s string, open int) (textEnd int, dest string, end int, ok bool) {
	depth := 0
	i := open
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) && isASCIIPunctByte(s[i+1]) {
				i++
			}
			continue
		case '`':
			if e, n := codeSpanEnd(s, i); e > 0 {
				i = e - 1
			} else {
				i += n - 1
			}
			continue
		case '<':
			if e := autolinkEnd(s, i); e > 0 {
				i = e - 1
			}
			continue
		case '[':
			depth++
			continue
		case ']':
			depth--
			if depth > 0 {
				continue
			}
		default:
			continue
		}
		break
	}
	if i >= len(s) || i+1 >= len(s) || s[i+1] != '(' {
		return 0, "", 0, false
	}
	textEnd = i
	j := i + 2
	for j < len(s) && (s[j] == ' ' || s[j] == '\n') {
		j++
	}
	if j < len(s) && s[j] == '<' {
		k := strings.IndexAny(s[j+1:], ">\n")
		if k < 0 || s[j+1+k] != '>' {
			return 0, "", 0, false
		}
		dest = s[j+1 : j+1+k]
		j += k + 2
	} else {
		start, paren := j, 0
		for j < len(s) && s[j] > ' ' {
			if s[j] == '\\' && j+1 < len(s) {
				j += 2
				continue
			}
			if s[j] == '(' {
				paren++
			}
			if s[j] == ')' {
				if paren == 0 {
					break
				}
				paren--
			}
			j++
		}
		dest = s[start:j]
	}
	// a title may follow; the link ends at the next ")"
	k := strings.IndexByte(s[j:], ')')
	if k < 0 {
		return 0, "", 0, false
	}
	return textEnd, dest, j + k + 1, true
}

// elementLinks returns the targets the writer may make links of: the
// href of every <a> of doc, resolved as the writer resolves them, each as
// often as an element has it.
func elementLinks(doc string, base *url.URL) map[string]int {
	t := parseHTML(doc, defaultMaxNodes, defaultMaxDepth)
	w := &mdWriter{base: documentBase(base, t.baseHref)}
	out := map[string]int{}
	for i := range t.nodes {
		if n := &t.nodes[i]; n.kind == kindElement && n.tag == atom.A {
			if href := w.resolve(n.text); href != "" {
				out[href]++
			}
		}
	}
	return out
}

// madeByPage returns the constructs of md that no element of doc made:
// every image, raw HTML and reference definition, and every link or
// autolink beyond the elements with its target.
func madeByPage(doc string, base *url.URL, md string) []mdFound {
	hrefs := elementLinks(doc, base)
	var bad []mdFound
	for _, f := range readMarkdown(md) {
		if (f.kind == "link" || f.kind == "autolink") && hrefs[f.dest] > 0 {
			hrefs[f.dest]--
			continue
		}
		bad = append(bad, f)
	}
	return bad
}
