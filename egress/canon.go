package egress

import (
	"errors"
	"net/url"
	"strings"
)

// CanonicalHost is the one canonical form of a host, as url.URL.Hostname
// returns it: a name case-folded, without its root dot, an internationalized
// name in its IDNA ASCII form; an address in its canonical text (IPv4 in
// dotted decimal whatever notation the URL used — 127.1, 2130706433,
// 0x7f.0.0.1 — IPv6 compressed, IPv4-mapped IPv6 unmapped). ok is false for
// a host no fetch would connect to as written (empty, malformed, a zone).
//
// Every key that must not be given a second slot by a different spelling —
// the per-host fetch bound, the same-host rule of redirects, robots.txt
// origins, strict mode's URLs, search's URL keys — is built from this form,
// and the policy judges the host in it.
func CanonicalHost(hostname string) (string, bool) {
	if alreadyCanonicalName(hostname) {
		return hostname, true
	}
	h, class := parseHost(hostname, false)
	if class != "" {
		return "", false
	}
	return h.String(), true
}

// alreadyCanonicalName reports, without allocating, whether s is a name that
// parseHost would return unchanged: lower-case letters, digits, '-' and '_'
// in non-empty labels of at most 63 bytes, at most 253 bytes, no root dot,
// and a last label that is not a number (which would make it an address).
func alreadyCanonicalName(s string) bool {
	if s == "" || len(s) > maxNameBytes {
		return false
	}
	labelStart, lastHasLetter := 0, false
	for i := 0; i < len(s); i++ {
		switch nameByte[s[i]] {
		case nameLetter:
			lastHasLetter = true
		case nameDigit:
		case nameDot:
			if n := i - labelStart; n == 0 || n > maxLabelBytes {
				return false
			}
			labelStart, lastHasLetter = i+1, false
		default:
			return false
		}
	}
	if n := len(s) - labelStart; n == 0 || n > maxLabelBytes {
		return false
	}
	// A last label of digits, or 0x followed by hex digits, ends in a number.
	return lastHasLetter && !endsInNumber(s[labelStart:])
}

// The classes of a byte in an already canonical name.
const (
	nameOther  = iota // no canonical name holds it
	nameLetter        // a-z, '-', '_'
	nameDigit         // 0-9
	nameDot
)

// nameByte classes every byte for alreadyCanonicalName.
var nameByte = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = nameLetter
	}
	t['-'], t['_'] = nameLetter, nameLetter
	for c := '0'; c <= '9'; c++ {
		t[c] = nameDigit
	}
	t['.'] = nameDot
	return t
}()

// String is the canonical text of the host.
func (h host) String() string {
	if h.isAddr {
		return h.addr.String()
	}
	return h.name
}

// CanonicalURL is u with its scheme lower-cased, its host in canonical form
// and the scheme's default port left out, as text; the rest of the URL is
// unchanged. ok is false when the host has no canonical form.
func CanonicalURL(u *url.URL) (string, bool) {
	if u == nil {
		return "", false
	}
	h, ok := CanonicalHost(u.Hostname())
	if !ok {
		return "", false
	}
	c := *u
	c.Scheme = strings.ToLower(u.Scheme)
	if strings.IndexByte(h, ':') >= 0 {
		h = "[" + h + "]"
	}
	port := u.Port()
	if port != "" && !(c.Scheme == "https" && port == "443" || c.Scheme == "http" && port == "80") {
		h += ":" + port
	}
	c.Host = h
	return c.String(), true
}

// ErrHostEscape is returned by ParseURL for a host whose percent escapes
// decode to bytes no host may hold.
var ErrHostEscape = errors.New("egress: a percent escape in the host decodes to a forbidden character")

// ParseURL parses raw as url.Parse does, except that percent escapes in the
// host are decoded first, as the WHATWG URL parser (and so every browser)
// decodes them: https://%31%32%37.0.0.1/ names 127.0.0.1. url.Parse
// refuses such a host, so without this a spelling that a browser reads as
// a refused address would be treated as a different kind of failure. A
// decoded byte that no host may contain (a space, a delimiter, a control)
// is an error.
func ParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err == nil {
		return u, nil
	}
	fixed, ok := decodeHostEscapes(raw)
	if !ok {
		return nil, err
	}
	return url.Parse(fixed)
}

// decodeHostEscapes rewrites the host of an absolute URL text with its
// percent escapes decoded; ok is false when there is nothing to decode or
// the result holds a forbidden host byte.
func decodeHostEscapes(raw string) (string, bool) {
	i := strings.Index(raw, "://")
	if i < 0 {
		return "", false
	}
	start := i + 3
	end := len(raw)
	if j := strings.IndexAny(raw[start:], "/?#"); j >= 0 {
		end = start + j
	}
	auth := raw[start:end]
	hostStart := start
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		hostStart = start + at + 1
	}
	hostEnd := end
	if hp := raw[hostStart:end]; !strings.HasPrefix(hp, "[") {
		if c := strings.LastIndexByte(hp, ':'); c >= 0 {
			hostEnd = hostStart + c
		}
	}
	host := raw[hostStart:hostEnd]
	if strings.IndexByte(host, '%') < 0 {
		return "", false
	}
	decoded, err := url.PathUnescape(host)
	if err != nil {
		return "", false
	}
	for k := 0; k < len(decoded); k++ {
		if c := decoded[k]; c <= ' ' || c == 0x7f || strings.IndexByte("#%/:<>?@[\\]^|", c) >= 0 {
			return "", false
		}
	}
	return raw[:hostStart] + decoded + raw[hostEnd:], true
}

// Redirect errors: what ResolveRedirect found wrong with a Location.
var (
	// ErrRedirectScheme: the target's scheme is not http or https (ftp:,
	// file:, data:, javascript:, an empty scheme, ...).
	ErrRedirectScheme = errors.New("egress: the redirect target is not an http or https URL")
	// ErrRedirectUnusable: the Location is empty, cannot be read as a URL,
	// or resolves to a URL without a host.
	ErrRedirectUnusable = errors.New("egress: the redirect target is unusable")
)

// ResolveRedirect resolves a Location header against the URL that answered
// it, the one way every redirect is read (page fetches and robots.txt
// alike): parsed with ParseURL, resolved as RFC 3986 §5 says, and required
// to be http or https with a host. The fragment is dropped. The result
// still has to be judged by the policy.
func ResolveRedirect(base *url.URL, location string) (*url.URL, error) {
	location = strings.TrimSpace(location)
	if location == "" {
		return nil, ErrRedirectUnusable
	}
	if strings.HasPrefix(location, ":") {
		return nil, ErrRedirectScheme // a scheme of no letters at all
	}
	ref, err := ParseURL(location)
	if err != nil {
		if scheme, ok := schemeOf(location); ok && scheme != "http" && scheme != "https" {
			return nil, ErrRedirectScheme
		}
		return nil, ErrRedirectUnusable
	}
	next := base.ResolveReference(ref)
	if s := strings.ToLower(next.Scheme); s != "http" && s != "https" {
		return nil, ErrRedirectScheme
	}
	if next.Opaque != "" || next.Hostname() == "" {
		return nil, ErrRedirectUnusable
	}
	next.Fragment, next.RawFragment = "", ""
	return next, nil
}

// schemeOf is the scheme of an absolute URL text (RFC 3986 §3.1:
// a letter, then letters, digits, '+', '-', '.'), lower-cased.
func schemeOf(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return strings.ToLower(s[:i]), true
		default:
			return "", false
		}
	}
	return "", false
}
