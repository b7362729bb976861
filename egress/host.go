package egress

import (
	"net/netip"
	"strings"

	"golang.org/x/net/idna"
)

// host is a URL or dial host after normalisation: either a name (ASCII,
// lower-case, without the root dot) or an address (IPv4-mapped forms
// unmapped, no zone).
type host struct {
	name   string
	addr   netip.Addr
	isAddr bool
}

// maxNameBytes and maxLabelBytes are the DNS bounds of RFC 1035 §2.3.4 for
// a name written without its root dot.
const (
	maxNameBytes  = 253
	maxLabelBytes = 63
)

// refusedTLDs are top-level labels that never name a public site: the
// special-use names of RFC 6761, 6762, 7686, 8375 (under arpa) and 9476,
// ICANN's private-use .internal, and the names ICANN withholds for good or
// that are common on private networks (home, corp, mail, lan, intranet,
// private, localdomain). A search domain or local resolver could otherwise
// answer them with an address of the operator's network.
var refusedTLDs = map[string]bool{
	"local": true, "localdomain": true, "internal": true, "intranet": true,
	"private": true, "lan": true, "home": true, "corp": true, "mail": true,
	"arpa": true, "test": true, "invalid": true, "example": true,
	"onion": true, "alt": true,
}

// splitHostPort splits the Host field of a URL ("name", "name:port",
// "[v6]", "[v6]:port"). port is "" when absent or empty. ok is false for a
// form no URL parser produces.
func splitHostPort(hostport string) (h string, bracketed bool, port string, ok bool) {
	if strings.HasPrefix(hostport, "[") {
		end := strings.IndexByte(hostport, ']')
		if end < 0 {
			return "", false, "", false
		}
		h, rest := hostport[1:end], hostport[end+1:]
		switch {
		case rest == "":
			return h, true, "", true
		case rest[0] == ':':
			return h, true, rest[1:], true
		}
		return "", false, "", false
	}
	switch strings.Count(hostport, ":") {
	case 0:
		return hostport, false, "", true
	case 1:
		i := strings.IndexByte(hostport, ':')
		return hostport[:i], false, hostport[i+1:], true
	}
	return "", false, "", false
}

// parsePort reads a URL port: decimal digits (leading zeros allowed, as the
// WHATWG URL parser allows them), 1 to 65535. "" means the scheme's default
// and is returned as 0.
func parsePort(s string) (int, bool) {
	if s == "" {
		return 0, true
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
		if n > 65535 {
			return 0, false
		}
	}
	return n, n > 0
}

// parseHost normalises a host as a URL host parser and a resolver would
// read it, or returns the class of its refusal. bracketed says the host was
// written in brackets, which only an IPv6 address may be.
func parseHost(h string, bracketed bool) (host, string) {
	if bracketed {
		if strings.IndexByte(h, '%') >= 0 {
			return host{}, classZone
		}
		a, err := netip.ParseAddr(h)
		if err != nil || !a.Is6() {
			return host{}, classAddressMalform
		}
		return host{addr: a.Unmap(), isAddr: true}, ""
	}
	if h == "" {
		return host{}, classNameEmpty
	}
	// A dial address or a hand-built URL may hold an IPv6 literal without
	// brackets.
	if strings.IndexByte(h, ':') >= 0 {
		if strings.IndexByte(h, '%') >= 0 {
			return host{}, classZone
		}
		a, err := netip.ParseAddr(h)
		if err != nil || !a.Is6() {
			return host{}, classAddressMalform
		}
		return host{addr: a.Unmap(), isAddr: true}, ""
	}
	s, ok := toASCII(h)
	if !ok {
		return host{}, classNameMalformed
	}
	s = strings.TrimSuffix(s, ".")
	if s == "" {
		return host{}, classNameEmpty
	}
	if !validNameBytes(s) {
		return host{}, classNameMalformed
	}
	labels := strings.Split(s, ".")
	for _, l := range labels {
		if l == "" {
			return host{}, classNameMalformed
		}
	}
	if endsInNumber(labels[len(labels)-1]) {
		a, ok := parseIPv4Parts(labels)
		if !ok {
			return host{}, classAddressMalform
		}
		return host{addr: a, isAddr: true}, ""
	}
	if len(s) > maxNameBytes {
		return host{}, classNameMalformed
	}
	for _, l := range labels {
		if len(l) > maxLabelBytes {
			return host{}, classNameMalformed
		}
	}
	return host{name: s}, ""
}

// toASCII lower-cases an ASCII host and maps any other host with the IDNA
// lookup profile (UTS #46), so that full-width letters, digits and dots
// become the ASCII they look like.
func toASCII(h string) (string, bool) {
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 {
			s, err := idna.Lookup.ToASCII(h)
			if err != nil {
				return "", false
			}
			return strings.ToLower(s), true
		}
	}
	return strings.ToLower(h), true
}

// validNameBytes admits the bytes of a host name: letters, digits, hyphen,
// underscore and dot. Everything else (spaces, percent signs, slashes,
// backslashes, controls, ...) is in no name rypsok connects to.
func validNameBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}

// endsInNumber is the WHATWG URL "ends in a number" test on the last label:
// all decimal digits, or a number in the 0x form. Such a host is an IPv4
// address or invalid, never a name.
func endsInNumber(last string) bool {
	if allDigits(last) {
		return true
	}
	if len(last) >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X') {
		for i := 2; i < len(last); i++ {
			if !isHex(last[i]) {
				return false
			}
		}
		return true
	}
	return false
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

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// parseIPv4Number reads one part of an IPv4 host as the WHATWG URL parser
// (and inet_aton) do: "0x" hexadecimal (digits may be absent), a leading
// zero octal, otherwise decimal. Values above 2^32 are reported as too
// large without overflowing.
func parseIPv4Number(s string) (v uint64, ok bool) {
	base := uint64(10)
	switch {
	case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		base, s = 16, s[2:]
	case len(s) >= 2 && s[0] == '0':
		base, s = 8, s[1:]
	case s == "":
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		v = v*base + d
		if v > 1<<32 {
			v = 1<<32 + 1 // saturate: too large for any part
		}
	}
	return v, true
}

// parseIPv4Parts is the WHATWG IPv4 parser on labels whose trailing empty
// label was already removed: one to four numbers; every number but the last
// is one byte, the last fills the remaining bytes.
func parseIPv4Parts(labels []string) (netip.Addr, bool) {
	if len(labels) > 4 {
		return netip.Addr{}, false
	}
	var nums [4]uint64
	for i, l := range labels {
		v, ok := parseIPv4Number(l)
		if !ok {
			return netip.Addr{}, false
		}
		nums[i] = v
	}
	n := len(labels)
	for i := 0; i < n-1; i++ {
		if nums[i] > 255 {
			return netip.Addr{}, false
		}
	}
	last := nums[n-1]
	if last >= uint64(1)<<(8*(5-n)) {
		return netip.Addr{}, false
	}
	v := last
	for i := 0; i < n-1; i++ {
		v += nums[i] << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// nameClass returns the class of a built-in refusal of a normalised name,
// or "".
func nameClass(name string) string {
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return classNameLocalhost
	}
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 {
		return classNameSingleLabel
	}
	if refusedTLDs[name[dot+1:]] {
		return classNameLocal
	}
	return ""
}
