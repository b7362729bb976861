package htmlx

import (
	"encoding/json"
	"strings"
	"unicode"

	"rypsok/boundary"
)

// Structured data: the application/ld+json blocks a page declares about
// itself (schema.org). They are read as data, never run: a question and
// its answers (QAPage), a forum post and its comments
// (DiscussionForumPosting), an article's body, a product's name and
// description, the questions and answers of an FAQPage, the entries of
// an ItemList. They find the main content when the visible document does
// not hold it (an application that renders its page with scripts) and
// complete it when the document hides what they state (a description
// behind a tab that is not in the markup). Their text is markup-stripped,
// entity-decoded once and bounded like everything else.

// Bounds on what is read.
const (
	maxLDTextChars = 100000 // text taken from structured data
	maxLDDepth     = 24     // nesting followed inside one block
)

// ldText is what the structured data says the page holds.
type ldText struct {
	headline string
	parts    []string // paragraphs, in order
	// complete marks the parts that may complete a document's own text:
	// a product's description, a question and its answers. An article's
	// body and a list's entries only stand in for a document that has
	// no text of its own (the page's visible article is the better copy,
	// and a list may name other pages).
	complete []bool
	// described marks the parts of a product's description, which a
	// page often says again in its own words
	described  []bool
	describing bool
	chars      int
	adding     bool // the parts being added may complete
	// products counts the objects describing a product (Product,
	// ProductGroup) outside lists
	products int
}

func (l *ldText) add(s string) {
	for _, line := range strings.Split(s, "\n") {
		line = strings.Join(strings.Fields(boundary.StripMarkup(line)), " ")
		if line == "" || l.chars >= maxLDTextChars || boundary.LooksLikeMarkup(line) {
			// markup escaped twice is markup soup once decoded
			continue
		}
		if len(line) > maxLDTextChars-l.chars {
			line = validUTF8(line[:maxLDTextChars-l.chars])
		}
		l.parts = append(l.parts, line)
		l.complete = append(l.complete, l.adding)
		l.described = append(l.described, l.describing)
		l.chars += len(line)
	}
}

// structuredText reads the page's structured data blocks.
func structuredText(blocks []string) ldText {
	var l ldText
	for _, b := range blocks {
		b = strings.TrimSpace(b)
		if b == "" {
			continue
		}
		// some pages wrap the JSON in an HTML comment or CDATA
		b = strings.TrimSuffix(strings.TrimPrefix(b, "<!--"), "-->")
		var v any
		if json.Unmarshal([]byte(b), &v) != nil {
			continue
		}
		l.walk(v, 0)
	}
	return l
}

// ldTypes returns the @type names of an object.
func ldTypes(o map[string]any) []string {
	switch t := o["@type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func ldString(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case map[string]any:
		if t, ok := s["text"].(string); ok {
			return t
		}
		if t, ok := s["name"].(string); ok {
			return t
		}
	}
	return ""
}

// ldList returns v as a list: itself when it is one, else a list of it.
func ldList(v any) []any {
	switch l := v.(type) {
	case []any:
		return l
	case nil:
		return nil
	}
	return []any{v}
}

// walk visits the objects of a block and keeps the text of the kinds
// that carry a page's main content.
func (l *ldText) walk(v any, depth int) {
	if depth > maxLDDepth || l.chars >= maxLDTextChars {
		return
	}
	switch o := v.(type) {
	case []any:
		for _, e := range o {
			l.walk(e, depth+1)
		}
		return
	case map[string]any:
		if g, ok := o["@graph"]; ok {
			l.walk(g, depth+1)
		}
		for _, t := range ldTypes(o) {
			switch t {
			case "QAPage", "FAQPage":
				l.adding = true
				for _, q := range ldList(o["mainEntity"]) {
					l.post(q, depth+1)
				}
				l.adding = false
			case "Question", "DiscussionForumPosting", "SocialMediaPosting", "Comment", "Answer":
				l.adding = true
				l.post(o, depth)
				l.adding = false
			case "Article", "NewsArticle", "BlogPosting", "TechArticle", "Report", "ScholarlyArticle":
				l.setHeadline(ldString(o["headline"]))
				if body := ldString(o["articleBody"]); body != "" {
					l.add(body)
				}
			case "Product", "ProductGroup":
				l.products++
				l.setHeadline(ldString(o["name"]))
				if d := ldString(o["description"]); d != "" {
					l.adding, l.describing = true, true
					l.add(d)
					l.adding, l.describing = false, false
				}
			case "ItemList":
				for _, e := range ldList(o["itemListElement"]) {
					if m, ok := e.(map[string]any); ok {
						name := ldString(m["name"])
						if name == "" {
							name = ldString(m["item"])
						}
						if name != "" {
							l.add(name)
						}
					}
				}
			}
		}
	}
}

func (l *ldText) setHeadline(h string) {
	if l.headline == "" {
		l.headline = strings.Join(strings.Fields(boundary.StripMarkup(h)), " ")
	}
}

// post keeps a question or a post, its text and the answers, comments
// and replies below it, in order.
func (l *ldText) post(v any, depth int) {
	o, ok := v.(map[string]any)
	if !ok || depth > maxLDDepth || l.chars >= maxLDTextChars {
		return
	}
	l.setHeadline(ldString(o["name"]))
	if l.headline == "" {
		l.setHeadline(ldString(o["headline"]))
	}
	name := ldString(o["name"])
	for _, t := range ldTypes(o) {
		if t == "Question" && name != "" && l.headline != strings.Join(strings.Fields(boundary.StripMarkup(name)), " ") {
			// the questions of an FAQ
			l.add(name)
		}
	}
	text := ldString(o["text"])
	if text == "" {
		text = ldString(o["articleBody"])
	}
	if text != "" {
		l.add(text)
	}
	for _, key := range []string{"acceptedAnswer", "suggestedAnswer", "comment"} {
		for _, a := range ldList(o[key]) {
			l.post(a, depth+1)
		}
	}
}

// markdown writes the structured text as a headline and paragraphs.
func (l *ldText) markdown() string {
	if len(l.parts) == 0 {
		return ""
	}
	var b strings.Builder
	if l.headline != "" {
		b.WriteString("# ")
		b.WriteString(escapeInline(l.headline))
		b.WriteString("\n\n")
	}
	for i, p := range l.parts {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(escapeText(p))
	}
	return b.String()
}

// Thresholds for using structured data.
const (
	// a document whose extracted text is shorter than this, and than a
	// third of what its structured data states, is a shell rendered by
	// scripts: the structured data is its content
	maxShellChars = 500
	// a paragraph of structured data this long that the extracted text
	// lacks is added to it
	minMissingChars = 80
	// the characters of a paragraph's start compared
	matchPrefixChars = 48
	// the paragraphs looked for in the extracted text, at most: the
	// cost stays linear in the page
	maxMissingChecks = 32
)

// completeFromStructured finds or completes the main content md with the
// page's structured data: it replaces a near-empty extraction, and adds
// the long paragraphs the extraction lacks.
func completeFromStructured(md string, l ldText) string {
	if len(l.parts) == 0 {
		return md
	}
	if len(md) < maxShellChars && l.chars > 3*len(md) {
		return l.markdown()
	}
	have := matchKey(md)
	var missing []string
	var words map[string]bool
	checks := 0
	for i, p := range l.parts {
		if len(p) < minMissingChars || !l.complete[i] {
			continue
		}
		if checks++; checks > maxMissingChecks {
			break
		}
		k := matchKey(p)
		if len(k) > matchPrefixChars {
			k = k[:matchPrefixChars]
		}
		if k == "" || strings.Contains(have, k) {
			continue
		}
		if l.described[i] {
			if words == nil {
				words = wordSet(md)
			}
			if saidAgain(p, words) {
				continue
			}
		}
		missing = append(missing, p)
	}
	if len(missing) == 0 {
		return md
	}
	var b strings.Builder
	b.WriteString(md)
	for _, p := range missing {
		b.WriteString("\n\n")
		b.WriteString(escapeText(p))
	}
	return b.String()
}

// wordSet returns the lower-cased words of text.
func wordSet(text string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), notWordRune) {
		set[w] = true
	}
	return set
}

func notWordRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// saidShare is the share of a paragraph's words that the extracted text
// holds when it says the paragraph again in other words.
const saidShare = 0.6

// saidAgain reports a paragraph of structured data whose words the
// extracted text holds, most of them: the page's description reworded or
// reordered, not one it lacks.
func saidAgain(p string, words map[string]bool) bool {
	n, in := 0, 0
	for _, w := range strings.FieldsFunc(strings.ToLower(p), notWordRune) {
		if len(w) < 4 {
			continue
		}
		n++
		if words[w] {
			in++
		}
	}
	return n > 0 && float64(in) >= saidShare*float64(n)
}
