package egress

import (
	"net/url"
	"testing"
)

// TestREQ_SEC_008_CanonicalHostOfEverySpelling: one canonical form for every
// spelling a URL parser reads as the same host.
func TestREQ_SEC_008_CanonicalHostOfEverySpelling(t *testing.T) {
	cases := []struct{ in, want string }{
		{"example.com", "example.com"},
		{"Example.COM", "example.com"},
		{"example.com.", "example.com"},
		{"EXAMPLE.com.", "example.com"},
		{"ｅｘａｍｐｌｅ．ｃｏｍ", "example.com"},
		{"bücher.example", "xn--bcher-kva.example"},
		{"BÜCHER.example.", "xn--bcher-kva.example"},
		{"xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"127.0.0.1", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"0x7F.0.0.1", "127.0.0.1"},
		{"017700000001", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"127.0.0.1.", "127.0.0.1"},
		{"１２７．０．０．１", "127.0.0.1"},
		{"::ffff:169.254.169.254", "169.254.169.254"},
		{"::FFFF:a9fe:a9fe", "169.254.169.254"},
		{"2001:DB8:0:0:0:0:0:1", "2001:db8::1"},
		{"2001:0db8::0001", "2001:db8::1"},
		{"under_score.example", "under_score.example"},
		{"a.b-c.d1", "a.b-c.d1"},
	}
	for _, c := range cases {
		got, ok := CanonicalHost(c.in)
		if !ok || got != c.want {
			t.Errorf("CanonicalHost(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for _, bad := range []string{"", ".", "a..b", "a b", "fe80::1%eth0", "256.1.1.1", "1.2.3.4.5", "0x1g.example.1", "a%2fb"} {
		if got, ok := CanonicalHost(bad); ok {
			t.Errorf("CanonicalHost(%q) = %q, want no canonical form", bad, got)
		}
	}
}

// TestCanonicalHostFastPathAgreesWithTheParser: the allocation-free path
// answers only for names the full parser returns unchanged.
func TestCanonicalHostFastPathAgreesWithTheParser(t *testing.T) {
	for _, s := range []string{
		"example.com", "a", "a.b", "x-y.z_w", "1.example", "example.1", "example.0x1f", "a.0x", "a.0xg",
		"example.com.", "Example.com", "a..b", ".a", "a.", "127.0.0.1", "1e.2", "-a.b", "a.123",
		string(make([]byte, 64)) + ".com",
	} {
		if !alreadyCanonicalName(s) {
			continue
		}
		h, class := parseHost(s, false)
		if class != "" || h.isAddr || h.name != s {
			t.Errorf("fast path took %q, parser says %+v %q", s, h, class)
		}
	}
}

func FuzzCanonicalHost(f *testing.F) {
	for _, s := range []string{"example.com", "127.1", "Ex.COM.", "a.0x1", "xn--bcher-kva.example"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := CanonicalHost(s)
		if !ok {
			return
		}
		// The canonical form is a fixed point and judged as the input is.
		again, ok2 := CanonicalHost(got)
		if !ok2 || again != got {
			t.Fatalf("CanonicalHost(%q) = %q, but CanonicalHost(%q) = %q, %v", s, got, got, again, ok2)
		}
		p := &Policy{}
		a := p.CheckURL(&url.URL{Scheme: "https", Host: bracketIf(s)})
		b := p.CheckURL(&url.URL{Scheme: "https", Host: bracketIf(got)})
		if (a == nil) != (b == nil) || a != nil && a.Class != b.Class {
			t.Fatalf("%q judged %v, its canonical form %q judged %v", s, a, got, b)
		}
	})
}

func bracketIf(h string) string {
	for i := 0; i < len(h); i++ {
		if h[i] == ':' {
			return "[" + h + "]"
		}
	}
	return h
}
