package search

import (
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"

	"rypsok/egress"
	"rypsok/tool"
)

// trackingParams are the query parameters removed from returned URLs and
// comparison keys (RFC 008): they identify a campaign or a click, never the
// resource.
var trackingParams = map[string]bool{
	"utm_source": true, "utm_medium": true, "utm_campaign": true, "utm_term": true,
	"utm_content": true, "utm_id": true, "fbclid": true, "gclid": true, "dclid": true,
	"msclkid": true, "mc_cid": true, "mc_eid": true, "igshid": true, "yclid": true,
	"_hsenc": true, "_hsmi": true, "ref_src": true,
}

// normalized is a result's URL in its two forms (REQ-RANK-002, -003).
type normalized struct {
	returned string // shown to the caller
	key      string // compared, never returned or fetched
	https    bool
}

// normalizeURL returns the two forms of raw, or the reason the result must be
// dropped: url_invalid (not http(s), credentials, a host web_fetch would
// refuse as malformed) or url_too_long (above LIM-F9).
func normalizeURL(raw string) (normalized, tool.Reason) {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" {
		return normalized{}, tool.ReasonURLInvalid
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" || u.User != nil || u.Host == "" {
		return normalized{}, tool.ReasonURLInvalid
	}
	host := u.Hostname()
	asciiHost, ok := asciiHostOf(host)
	if !ok {
		return normalized{}, tool.ReasonURLInvalid
	}

	// The returned URL: the engine's text with the host in ASCII form and
	// tracking parameters removed, nothing else changed.
	rest := raw[len(u.Scheme)+len("://"):]
	authEnd := strings.IndexAny(rest, "/?#")
	if authEnd < 0 {
		authEnd = len(rest)
	}
	authority, tail := rest[:authEnd], rest[authEnd:]
	if !isASCII(authority) || strings.Contains(authority, "%") {
		port := u.Port()
		authority = bracketed(asciiHost)
		if port != "" {
			authority += ":" + port
		}
	}
	path, query, fragment := splitTail(tail)
	query, _ = stripTracking(query)
	returned := raw[:len(u.Scheme)] + "://" + authority + path
	if query != "" {
		returned += "?" + query
	}
	if fragment != "" {
		returned += "#" + fragment
	}
	if utf8.RuneCountInString(returned) > tool.MaxURLChars {
		return normalized{}, tool.ReasonURLTooLong
	}

	// The comparison key.
	keyHost := strings.TrimPrefix(strings.ToLower(asciiHost), "www.")
	port := u.Port()
	if port == "80" && scheme == "http" || port == "443" && scheme == "https" {
		port = ""
	}
	// http and https name one resource on their default ports; an http URL
	// on another port keeps its scheme, so that the key stays its own key.
	keyScheme := "https"
	if scheme == "http" && port != "" {
		keyScheme = "http"
	}
	k := keyScheme + "://" + bracketed(keyHost)
	if port != "" {
		k += ":" + port
	}
	// Trailing slashes are not part of the resource's identity (RFC 008);
	// the root stays "/".
	p := strings.TrimRight(normalizePercent(path), "/")
	if p == "" {
		p = "/"
	}
	k += p
	if q := sortedQuery(query); q != "" {
		k += "?" + q
	}
	if w := sameWorkKey(keyHost, p); w != "" && port == "" {
		k = w
	}
	return normalized{returned: returned, key: k, https: scheme == "https"}, ""
}

// sameWorkKey is the one comparison key of a work reached through several
// addresses (issue 19, item 4), or "" for any other URL:
//   - an arXiv paper: arxiv.org/abs/<id>[vN], arxiv.org/pdf/<id>[vN][.pdf]
//     (also on export.arxiv.org) and its DataCite DOI
//     doi.org/10.48550/arXiv.<id> are "arxiv:<id>";
//   - any other DOI URL (doi.org, dx.doi.org) is "doi:<doi>", lower-cased,
//     since DOIs compare without regard to case;
//   - a Stack Exchange question, by its short (/q/<n>[/<user>]) or long
//     (/questions/<n>[/<slug>…]) URL, is https://<site>/questions/<n>.
//
// host is the key's host (lower case, without www.) and path its
// normalised path.
func sameWorkKey(host, path string) string {
	switch host {
	case "arxiv.org", "export.arxiv.org":
		for _, prefix := range []string{"/abs/", "/pdf/"} {
			if rest, ok := strings.CutPrefix(path, prefix); ok {
				if prefix == "/pdf/" {
					rest = strings.TrimSuffix(rest, ".pdf")
				}
				if id, ok := arxivID(rest); ok {
					return "arxiv:" + strings.ToLower(id)
				}
			}
		}
	case "doi.org", "dx.doi.org":
		doi, err := url.PathUnescape(strings.TrimPrefix(path, "/"))
		if err != nil || !strings.HasPrefix(doi, "10.") || !strings.Contains(doi, "/") {
			return ""
		}
		const arxivDOI = "10.48550/arxiv."
		if len(doi) > len(arxivDOI) && strings.EqualFold(doi[:len(arxivDOI)], arxivDOI) {
			if id, ok := arxivID(doi[len(arxivDOI):]); ok {
				return "arxiv:" + strings.ToLower(id)
			}
		}
		return "doi:" + strings.ToLower(doi)
	}
	if !stackExchangeSite(host) {
		return ""
	}
	rest, ok := strings.CutPrefix(path, "/q/")
	if !ok {
		rest, ok = strings.CutPrefix(path, "/questions/")
	}
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, "/")
	if !allDigits(id) || len(id) > 12 {
		return ""
	}
	return "https://" + host + "/questions/" + id
}

// stackExchangeSite: the network's sites under their own names, and every
// *.stackexchange.com site.
func stackExchangeSite(host string) bool {
	switch host {
	case "stackoverflow.com", "superuser.com", "serverfault.com", "askubuntu.com", "mathoverflow.net", "stackapps.com":
		return true
	}
	return strings.HasSuffix(host, ".stackoverflow.com") || strings.HasSuffix(host, ".stackexchange.com") && host != "api.stackexchange.com"
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func bracketed(host string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]"
	}
	return host
}

// asciiHostOf returns the host in egress's canonical form (the one form
// every host key of rypsok is built from: ASCII, case-folded, no root dot,
// an address in its canonical text) and whether web_fetch could accept it.
func asciiHostOf(host string) (string, bool) {
	return egress.CanonicalHost(host)
}

func splitTail(tail string) (path, query, fragment string) {
	if i := strings.IndexByte(tail, '#'); i >= 0 {
		tail, fragment = tail[:i], tail[i+1:]
	}
	if i := strings.IndexByte(tail, '?'); i >= 0 {
		tail, query = tail[:i], tail[i+1:]
	}
	return tail, query, fragment
}

// stripTracking removes the tracking parameters from a raw query, keeping
// the text of every other parameter as it was; the query is rebuilt only
// when one was removed.
func stripTracking(query string) (string, bool) {
	if query == "" {
		return "", false
	}
	parts := strings.Split(query, "&")
	kept := parts[:0:0]
	removed := false
	for _, p := range parts {
		name, _, _ := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if trackingParams[strings.ToLower(name)] {
			removed = true
			continue
		}
		kept = append(kept, p)
	}
	if !removed {
		return query, false
	}
	return strings.Join(kept, "&"), true
}

// sortedQuery orders the parameters by name (stable for equal names), with
// percent-encoding normalised, for the comparison key.
func sortedQuery(query string) string {
	if query == "" {
		return ""
	}
	parts := strings.Split(query, "&")
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if p != "" {
			out = append(out, normalizePercent(p))
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _, _ := strings.Cut(out[i], "=")
		b, _, _ := strings.Cut(out[j], "=")
		return a < b
	})
	return strings.Join(out, "&")
}

func unreserved(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// normalizePercent upper-cases percent-escapes and decodes those of
// unreserved characters; bytes outside ASCII printable are escaped.
func normalizePercent(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	const hexDigits = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) {
			h, ok1 := hexVal(s[i+1])
			l, ok2 := hexVal(s[i+2])
			if ok1 && ok2 {
				v := h<<4 | l
				if unreserved(v) {
					b.WriteByte(v)
				} else {
					b.WriteByte('%')
					b.WriteByte(hexDigits[v>>4])
					b.WriteByte(hexDigits[v&15])
				}
				i += 2
				continue
			}
		}
		if c <= 0x20 || c >= 0x7f {
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// arxivID validates an arXiv identifier and strips a version suffix: the
// scheme since 2007 (YYMM.NNNN or YYMM.NNNNN) or the older archive form
// (hep-th/9901001, math.GT/0309136).
func arxivID(s string) (string, bool) {
	if v := strings.LastIndexByte(s, 'v'); v > 0 && v < len(s)-1 && allDigits(s[v+1:]) {
		s = s[:v]
	}
	if dot := strings.IndexByte(s, '.'); dot == 4 && allDigits(s[:4]) && (len(s) == 9 || len(s) == 10) && allDigits(s[5:]) {
		return s, true
	}
	slash := strings.IndexByte(s, '/')
	if slash < 1 || len(s)-slash-1 != 7 || !allDigits(s[slash+1:]) {
		return "", false
	}
	archive := s[:slash]
	if dot := strings.IndexByte(archive, '.'); dot >= 0 {
		sub := archive[dot+1:]
		if len(sub) != 2 || strings.ToUpper(sub) != sub {
			return "", false
		}
		archive = archive[:dot]
	}
	if len(archive) > 16 {
		return "", false
	}
	for _, r := range archive {
		if !(r >= 'a' && r <= 'z' || r == '-') {
			return "", false
		}
	}
	return s, true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
