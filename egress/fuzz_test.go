package egress

import (
	"errors"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/idna"
)

// atonOracle reads a host as inet_aton and the WHATWG parser might, with
// strconv doing the arithmetic: an implementation independent of
// parseIPv4Parts, used to find literal addresses in fuzzed URLs.
func atonOracle(h string) (netip.Addr, bool) {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	parts := strings.Split(h, ".")
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	var nums []uint64
	for _, p := range parts {
		if p == "0x" {
			nums = append(nums, 0)
			continue
		}
		// Only the notations inet_aton and WHATWG know: 0x hexadecimal,
		// leading-zero octal, decimal (strconv would also read 0b, 0o, _).
		if digits, hex := strings.CutPrefix(p, "0x"); hex && strings.Trim(digits, "0123456789abcdef") != "" ||
			!hex && strings.Trim(p, "0123456789") != "" {
			return netip.Addr{}, false
		}
		v, err := strconv.ParseUint(p, 0, 64)
		if err != nil {
			return netip.Addr{}, false
		}
		nums = append(nums, v)
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"https://example.com/", "https://127.0.0.1/", "https://0x7f.1/", "https://2130706433/",
		"https://0177.0.0.1./", "https://[::ffff:127.0.0.1]:443/", "https://[fe80::1%25eth0]/",
		"https://１２７．０．０．１/", "https://user:pw@example.com/", "http://localhost:8080/",
		"https://a..b/", "https://[64:ff9b::a00:1]/", "https://169.254.43518/", "https://8.8.8.8:8080/",
	} {
		f.Add(s)
	}
	p := &Policy{AllowHTTP: true, Ports: []int{80, 443}}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := url.Parse(s)
		if err != nil {
			return
		}
		d := p.CheckURL(u)
		p.AllowedByRule(u)
		if d != nil && d.Error() != "egress: refused ("+d.Class+")" {
			t.Fatalf("denial text %q", d.Error())
		}
		hn := u.Hostname()
		var literal []netip.Addr
		if a, err := netip.ParseAddr(hn); err == nil {
			literal = append(literal, a)
		}
		if a, ok := atonOracle(hn); ok {
			literal = append(literal, a)
		}
		for _, a := range literal {
			if Classify(a) != "" && d == nil {
				t.Fatalf("CheckURL(%q) admitted the refused literal %s", s, a)
			}
		}
		if d != nil {
			return
		}
		// What the transport would dial: the host in ASCII. A URL CheckURL
		// admits is never dialed as a refused literal.
		ascii := hn
		if !isASCII(ascii) {
			if ascii, err = idna.Lookup.ToASCII(hn); err != nil {
				return
			}
		}
		if h, class := parseHost(ascii, false); class == "" && h.isAddr && Classify(h.addr) != "" {
			t.Fatalf("CheckURL(%q) admitted a host the dialer reads as %s", s, h.addr)
		}
	})
}

var ruleErrors = []error{
	errRuleEmpty, errRuleSpace, errRuleScheme, errRuleUserinfo, errRulePort, errRulePath,
	errRuleNetwork, errRuleBrackets, errRuleZone, errRuleIPv6, errRuleIPv4, errRuleWildcard,
	errRuleTrailDot, errRuleLeadDot, errRuleEmptyLabel, errRuleChars, errRuleIDN, errRuleLong,
}

func FuzzParseRule(f *testing.F) {
	for _, s := range []string{
		"10.0.0.0/8", "fd00::/8", "::ffff:10.0.0.0/104", "wiki.corp.example", "*.corp.example",
		"bücher.example", "example.com.", ".example.com", "a..b", "https://x", "x:80", "x/y",
		"*", "fe80::1%eth0", "0x7f.1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s)
		if err != nil {
			for _, known := range ruleErrors {
				if errors.Is(err, known) {
					return
				}
			}
			t.Fatalf("ParseRule(%q) error %q is not a fixed sentence", s, err)
		}
		set := 0
		for _, b := range []bool{r.prefix.IsValid(), r.host != "", r.suffix != ""} {
			if b {
				set++
			}
		}
		if set != 1 {
			t.Fatalf("ParseRule(%q) = %+v, want exactly one form", s, r)
		}
		r.Wide()
		canon := r.host
		switch {
		case r.prefix.IsValid():
			canon = r.prefix.String()
		case r.suffix != "":
			canon = "*." + r.suffix
		}
		if !r.prefix.IsValid() && !validNameBytes(canon[strings.IndexByte(canon, '*')+1:]) {
			t.Fatalf("ParseRule(%q) name %q has other bytes than a name", s, canon)
		}
		again, err := ParseRule(canon)
		if err != nil || again != r {
			t.Fatalf("ParseRule(%q) = %+v, its canonical form %q reads as %+v, %v", s, r, canon, again, err)
		}
	})
}

func BenchmarkCheckURL(b *testing.B) {
	p := &Policy{
		Ports: []int{80, 443},
		Allow: []Rule{mustRule(b, "*.corp.example"), mustRule(b, "10.1.0.0/16")},
		Deny:  []Rule{mustRule(b, "blocked.example.com"), mustRule(b, "8.8.4.4")},
	}
	var urls []*url.URL
	for _, s := range []string{
		"https://en.wikipedia.org/wiki/Go_(programming_language)",
		"https://www.example.com:443/a/b?c=d",
		"https://bücher.de/",
		"https://127.0.0.1/",
		"https://0x7f.1/",
		"https://[2001:4860:4860::8888]/",
		"https://[::ffff:169.254.169.254]/",
		"https://wiki.corp.example/",
		"https://printer.local/",
	} {
		urls = append(urls, mustURL(b, s))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.CheckURL(urls[i%len(urls)])
	}
}

func BenchmarkClassify(b *testing.B) {
	addrs := []netip.Addr{
		netip.MustParseAddr("93.184.216.34"),
		netip.MustParseAddr("10.1.2.3"),
		netip.MustParseAddr("2606:2800:220:1::1"),
		netip.MustParseAddr("fe80::1"),
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Classify(addrs[i%len(addrs)])
	}
}
