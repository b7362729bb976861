package robots

import (
	"bytes"
	"slices"
	"strings"
)

// Product is rypsok's product token.
const Product = "rypsok"

// MaxBytes is LIM-F13: the most of a robots.txt that is read.
const MaxBytes = 512 << 10

// Robots is a parsed robots.txt. A nil or zero Robots allows everything.
type Robots struct{ groups []group }

type group struct {
	agents []string // product tokens of the group's user-agent lines
	star   bool     // a "user-agent: *" line names the group
	rules  []rule   // most specific first (see sortRules)
}

type fieldKind int

const (
	fieldOther fieldKind = iota
	fieldUserAgent
	fieldAllow
	fieldDisallow
)

const bom = "\xEF\xBB\xBF"

// Parse reads a robots.txt body (at most MaxBytes are considered). It never
// fails: lines it cannot read are skipped, as RFC 9309 §2.3.1.5 asks.
func Parse(body []byte) *Robots {
	body = skipBOM(boundBody(body))

	r := &Robots{}
	cur := -1        // index of the group being read; -1 before any user-agent line
	sawRule := false // the current group has had an allow or disallow line
	for len(body) > 0 {
		var line []byte
		line, body = nextLine(body)
		kind, value, ok := splitRecord(line)
		if !ok {
			continue
		}
		switch kind {
		case fieldUserAgent:
			if cur < 0 || sawRule {
				r.groups = append(r.groups, group{})
				cur = len(r.groups) - 1
				sawRule = false
			}
			g := &r.groups[cur]
			if isStar(value) {
				g.star = true
			} else if tok := productToken(value); tok != "" {
				g.agents = append(g.agents, tok)
			}
		case fieldAllow, fieldDisallow:
			if cur < 0 {
				continue // §2.2.2: rules outside any group are ignored
			}
			sawRule = true
			if value == "" {
				continue // an empty pattern matches nothing
			}
			g := &r.groups[cur]
			g.rules = append(g.rules, compileRule(kind == fieldAllow, value))
		}
	}
	for i := range r.groups {
		sortRules(r.groups[i].rules)
	}
	return r
}

// skipBOM skips a UTF-8 byte order mark at the start of body, also when
// only its first one or two octets are there (EF, or EF BB), as Google's
// parser does: those octets cannot begin a record in a UTF-8 file, and
// reading the first line without them keeps the record they hide.
func skipBOM(body []byte) []byte {
	for i := 0; i < len(bom) && len(body) > 0 && body[0] == bom[i]; i++ {
		body = body[1:]
	}
	return body
}

// boundBody keeps the first MaxBytes of body. When the bound may have cut
// the file, a last line without its end of line is dropped, so that a cut
// rule is not read as a shorter one.
func boundBody(body []byte) []byte {
	if len(body) < MaxBytes {
		return body
	}
	body = body[:MaxBytes]
	if i := bytes.LastIndexAny(body, "\r\n"); i >= 0 {
		return body[:i+1]
	}
	return nil
}

// nextLine splits off the first line; the end of line is LF, CR or CRLF.
func nextLine(b []byte) (line, rest []byte) {
	i := bytes.IndexAny(b, "\r\n")
	if i < 0 {
		return b, nil
	}
	if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
		return b[:i], b[i+2:]
	}
	return b[:i], b[i+1:]
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }

func indexWS(b []byte) int {
	for i, c := range b {
		if isWS(c) {
			return i
		}
	}
	return -1
}

func trimWS(b []byte) []byte {
	for len(b) > 0 && isWS(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isWS(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// splitRecord reads one line as "name: value", without its comment. ok is
// false for an empty line, a comment and a record that cannot be read.
func splitRecord(line []byte) (kind fieldKind, value string, ok bool) {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	line = trimWS(line)
	if len(line) == 0 {
		return fieldOther, "", false
	}
	var name, val []byte
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, val = trimWS(line[:i]), trimWS(line[i+1:])
	} else {
		// Lenient reading of "Disallow /path": a known name, one word.
		i := indexWS(line)
		if i < 0 {
			return fieldOther, "", false
		}
		name, val = line[:i], trimWS(line[i:])
		if indexWS(val) >= 0 {
			return fieldOther, "", false
		}
	}
	kind = kindOf(name)
	if kind == fieldOther {
		return fieldOther, "", false
	}
	return kind, string(val), true
}

func kindOf(name []byte) fieldKind {
	switch {
	case equalFoldAny(name, "user-agent", "useragent", "user agent"):
		return fieldUserAgent
	case equalFoldAny(name, "allow"):
		return fieldAllow
	case equalFoldAny(name, "disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"):
		return fieldDisallow
	}
	return fieldOther
}

func equalFoldAny(b []byte, names ...string) bool {
	for _, n := range names {
		if len(b) == len(n) && bytes.EqualFold(b, []byte(n)) {
			return true
		}
	}
	return false
}

func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-'
}

// productToken is the leading run of letters, "_" and "-" of a user-agent
// value (RFC 9309 §2.2.1).
func productToken(value string) string {
	i := 0
	for i < len(value) && isTokenByte(value[i]) {
		i++
	}
	return value[:i]
}

func isStar(value string) bool {
	return value == "*" || len(value) > 1 && value[0] == '*' && isWS(value[1])
}

// sortRules orders rules so that the first one that matches is the most
// specific: longer patterns first and, at equal length, allow first.
func sortRules(rules []rule) {
	slices.SortStableFunc(rules, func(a, b rule) int {
		if a.length != b.length {
			return int(b.length - a.length)
		}
		switch {
		case a.allow == b.allow:
			return 0
		case a.allow:
			return -1
		default:
			return 1
		}
	})
}

func (g *group) names(product string) bool {
	for _, a := range g.agents {
		if strings.EqualFold(a, product) {
			return true
		}
	}
	return false
}

// Allowed reports whether the product may fetch pathQuery (the path and
// query of a URL, as sent), by the longest match; Allow wins a tie. The
// groups naming the product are merged; without one, the "*" groups are;
// without those, everything is allowed. "/robots.txt" is always allowed.
// product is a bare product token, compared without regard to case.
func (r *Robots) Allowed(product, pathQuery string) bool {
	if r == nil || len(r.groups) == 0 {
		return true
	}
	path, always := canonicalRequest(pathQuery)
	if always {
		return true
	}
	named := r.names(product)
	bestLen, bestAllow := int32(-1), true
	for i := range r.groups {
		if g := &r.groups[i]; g.applies(product, named) {
			bestLen, bestAllow = bestMatch(g.rules, path, bestLen, bestAllow)
		}
	}
	return bestAllow
}

// canonicalRequest returns the canonical form of a path and query, and
// whether it is /robots.txt, which is always allowed.
func canonicalRequest(pathQuery string) (path string, robotsTxt bool) {
	if pathQuery == "" || pathQuery[0] == '?' {
		pathQuery = "/" + pathQuery
	}
	path = normalizePath(pathQuery)
	return path, path == "/robots.txt" || strings.HasPrefix(path, "/robots.txt?")
}

// names reports whether any group names the product.
func (r *Robots) names(product string) bool {
	for i := range r.groups {
		if r.groups[i].names(product) {
			return true
		}
	}
	return false
}

// applies reports whether the group's rules are the product's: it names
// the product, or no group does and it is a "*" group.
func (g *group) applies(product string, named bool) bool {
	if named {
		return g.names(product)
	}
	return g.star
}

// rulesFor returns the rules that answer for product, merged and sorted, in
// a slice of their own: all a Checker keeps of a parsed file.
func (r *Robots) rulesFor(product string) []rule {
	if r == nil {
		return nil
	}
	named := r.names(product)
	n := 0
	for i := range r.groups {
		if g := &r.groups[i]; g.applies(product, named) {
			n += len(g.rules)
		}
	}
	if n == 0 {
		return nil
	}
	rules := make([]rule, 0, n)
	for i := range r.groups {
		if g := &r.groups[i]; g.applies(product, named) {
			rules = append(rules, g.rules...)
		}
	}
	sortRules(rules)
	return rules
}

// bestMatch improves on the best match so far (its length, -1 for none,
// and whether it allows) with rules sorted by sortRules.
func bestMatch(rules []rule, path string, bestLen int32, bestAllow bool) (int32, bool) {
	for j := range rules {
		ru := &rules[j]
		if ru.length < bestLen || ru.length == bestLen && (bestAllow || !ru.allow) {
			break // no later rule can do better
		}
		if ru.match(path) {
			return ru.length, ru.allow
		}
	}
	return bestLen, bestAllow
}
