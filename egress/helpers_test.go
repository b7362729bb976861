package egress

import (
	"net/netip"
	"net/url"
	"testing"
)

// firstMidLast returns the first address of p, the address halfway through
// it and its last address.
func firstMidLast(p netip.Prefix) [3]netip.Addr {
	p = p.Masked()
	first := p.Addr()
	b := first.AsSlice()
	bits := p.Bits()
	last := append([]byte(nil), b...)
	for i := bits; i < len(b)*8; i++ {
		last[i/8] |= 1 << (7 - i%8)
	}
	mid := append([]byte(nil), b...)
	if bits < len(b)*8 {
		mid[bits/8] |= 1 << (7 - bits%8)
	}
	l, _ := netip.AddrFromSlice(last)
	m, _ := netip.AddrFromSlice(mid)
	return [3]netip.Addr{first, m, l}
}

func mustRule(t testing.TB, s string) Rule {
	t.Helper()
	r, err := ParseRule(s)
	if err != nil {
		t.Fatalf("ParseRule(%q): %v", s, err)
	}
	return r
}

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatalf("url.Parse(%q): %v", s, err)
	}
	return u
}
