package egress

import (
	"encoding/csv"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refusedBlocks is the test's own statement of every refused block and the
// class it must carry, written from the IANA registries (read 2026-11-03)
// and the cloud providers' documentation.
var refusedBlocks = []struct {
	prefix, class string
}{
	// IPv4 Special-Purpose Address Registry.
	{"0.0.0.0/8", "unspecified"},
	{"0.0.0.0/32", "unspecified"},
	{"10.0.0.0/8", "private"},
	{"100.64.0.0/10", "cgnat"},
	{"127.0.0.0/8", "loopback"},
	{"169.254.0.0/16", "link_local"},
	{"172.16.0.0/12", "private"},
	{"192.0.0.0/29", "ietf_protocol"},
	{"192.0.0.8/32", "ietf_protocol"},
	{"192.0.0.9/32", "anycast_service"},
	{"192.0.0.10/32", "anycast_service"},
	{"192.0.0.11/32", "ietf_protocol"},
	{"192.0.0.170/32", "nat64"},
	{"192.0.0.171/32", "nat64"},
	{"192.0.0.255/32", "ietf_protocol"},
	{"192.0.2.0/24", "documentation"},
	{"192.31.196.0/24", "as112"},
	{"192.52.193.0/24", "amt"},
	{"192.88.99.0/24", "6to4_relay"},
	{"192.168.0.0/16", "private"},
	{"192.175.48.0/24", "as112"},
	{"198.18.0.0/15", "benchmarking"},
	{"198.51.100.0/24", "documentation"},
	{"203.0.113.0/24", "documentation"},
	{"224.0.0.0/4", "multicast"},
	{"240.0.0.0/5", "reserved"},
	{"255.255.255.0/25", "reserved"},
	{"255.255.255.255/32", "broadcast"},
	// Cloud metadata.
	{"169.254.169.254/32", "metadata"},
	{"169.254.170.2/32", "metadata"},
	{"169.254.170.23/32", "metadata"},
	{"100.100.100.200/32", "metadata"},
	{"192.0.0.192/32", "metadata"},
	{"168.63.129.16/32", "metadata"},
	{"fd00:ec2::254/128", "metadata"},
	{"fd00:ec2::23/128", "metadata"},
	{"fd20:ce::254/128", "metadata"},
	// IPv6 Special-Purpose Address Registry.
	{"::/128", "unspecified"},
	{"::1/128", "loopback"},
	{"::2/127", "ipv4_compatible"},
	{"::/96", "ipv4_compatible"},
	{"::100:0/104", "ipv4_compatible"},
	{"::ffff:0:0:0/96", "ipv4_translated"},
	{"64:ff9b::/96", "nat64"},
	{"64:ff9b:1::/48", "nat64"},
	{"100::/64", "discard"},
	{"100:0:0:1::/64", "dummy"},
	{"2001::/32", "teredo"},
	{"2001:1::1/128", "anycast_service"},
	{"2001:1::2/128", "anycast_service"},
	{"2001:1::3/128", "anycast_service"},
	{"2001:1::4/126", "ietf_protocol"},
	{"2001:2::/48", "benchmarking"},
	{"2001:3::/32", "amt"},
	{"2001:4:112::/48", "as112"},
	{"2001:10::/28", "orchid"},
	{"2001:20::/28", "orchid"},
	{"2001:30::/28", "drone_det"},
	{"2001:40::/26", "ietf_protocol"},
	{"2001:100::/24", "ietf_protocol"},
	{"2001:db8::/32", "documentation"},
	{"2002::/16", "6to4"},
	{"2620:4f:8000::/48", "as112"},
	{"3fff::/20", "documentation"},
	{"5f00::/16", "srv6"},
	{"fc00::/7", "unique_local"},
	{"fe80::/10", "link_local"},
	{"fec0::/10", "site_local"},
	{"ff00::/8", "multicast"},
	// Outside global unicast 2000::/3.
	{"1::/16", "not_global_unicast"},
	{"4000::/3", "not_global_unicast"},
	{"8000::/1", "not_global_unicast"},
	{"e000::/4", "not_global_unicast"},
}

func TestREQ_SEC_006_EveryIANABlockIsRefused(t *testing.T) {
	for _, b := range refusedBlocks {
		p := netip.MustParsePrefix(b.prefix)
		for _, a := range firstMidLast(p) {
			got := Classify(a)
			// A block may hold a narrower row that names it otherwise
			// (metadata inside link-local); each such address is listed
			// with its own class above, so only refusal is required here.
			if got == "" {
				t.Errorf("Classify(%s) in %s = \"\", want refused as %s", a, b.prefix, b.class)
				continue
			}
			if got != b.class && !narrowerRowNames(a, got) {
				t.Errorf("Classify(%s) in %s = %q, want %q", a, b.prefix, got, b.class)
			}
		}
	}
}

// narrowerRowNames reports whether a narrower block of refusedBlocks holds a
// and carries class.
func narrowerRowNames(a netip.Addr, class string) bool {
	for _, b := range refusedBlocks {
		if p := netip.MustParsePrefix(b.prefix); p.Contains(a) && b.class == class {
			return true
		}
	}
	return false
}

func TestREQ_SEC_006_IPv4MappedIsUnmappedFirst(t *testing.T) {
	for _, b := range refusedBlocks {
		p := netip.MustParsePrefix(b.prefix)
		if !p.Addr().Is4() {
			continue
		}
		for _, a := range firstMidLast(p) {
			mapped := netip.AddrFrom16(a.As16())
			if got, want := Classify(mapped), Classify(a); got != want || got == "" {
				t.Errorf("Classify(%s) = %q, want %q as for %s", mapped, got, want, a)
			}
		}
	}
	for _, s := range []string{"::ffff:8.8.8.8", "::ffff:1.1.1.1"} {
		if got := Classify(netip.MustParseAddr(s)); got != "" {
			t.Errorf("Classify(%s) = %q, want admitted as its IPv4 address", s, got)
		}
	}
}

func TestREQ_SEC_006_GlobalUnicastIsAdmitted(t *testing.T) {
	for _, s := range []string{
		"1.1.1.1", "8.8.8.8", "9.255.255.255", "11.0.0.0", "100.63.255.255",
		"100.128.0.0", "126.255.255.255", "128.0.0.0", "169.253.255.255",
		"169.255.0.0", "172.15.255.255", "172.32.0.0", "192.0.1.0", "192.0.3.0",
		"192.88.98.255", "192.167.255.255", "192.169.0.0", "198.17.255.255",
		"198.20.0.0", "223.255.255.255", "168.63.129.17",
		"2001:200::1", "2001:4860:4860::8888", "2606:4700:4700::1111",
		"2a00:1450:4001::1", "2c0f:fb50::1", "3ffe::1", "3fff:1000::1",
		"2001:db9::1", "2003::1", "2620:4f:8001::1",
	} {
		if got := Classify(netip.MustParseAddr(s)); got != "" {
			t.Errorf("Classify(%s) = %q, want \"\" (globally routable)", s, got)
		}
	}
}

func TestClassifyOddInputs(t *testing.T) {
	cases := []struct {
		addr  netip.Addr
		class string
	}{
		{netip.Addr{}, "invalid"},
		{netip.MustParseAddr("fe80::1%eth0"), "link_local"},
		{netip.MustParseAddr("2001:4860::1%eth0"), ""},
		{netip.MustParseAddr("::ffff:0:7f00:1"), "ipv4_translated"},
		{netip.MustParseAddr("::7f00:1"), "ipv4_compatible"},
		{netip.MustParseAddr("::ffff:169.254.169.254"), "metadata"},
	}
	for _, c := range cases {
		if got := Classify(c.addr); got != c.class {
			t.Errorf("Classify(%v) = %q, want %q", c.addr, got, c.class)
		}
	}
}

// TestREQ_SEC_006_IANARegistryCrossCheck reads the IANA registries in CSV
// form from EGRESS_IANA_DIR and checks that every block whose Globally
// Reachable column is not True is refused (first, middle and last
// address). It logs the blocks marked True that rypsok refuses on purpose.
func TestREQ_SEC_006_IANARegistryCrossCheck(t *testing.T) {
	dir := os.Getenv("EGRESS_IANA_DIR")
	if dir == "" {
		t.Skip("EGRESS_IANA_DIR is not set; the always-on table test covers the blocks")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.csv"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CSV file in EGRESS_IANA_DIR")
	}
	checked, mapped := 0, 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(fh).ReadAll()
		fh.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		col := map[string]int{}
		for i, h := range rows[0] {
			col[h] = i
		}
		blockCol, ok1 := col["Address Block"]
		reachCol, ok2 := col["Globally Reachable"]
		if !ok1 || !ok2 {
			t.Fatalf("%s: missing columns", f)
		}
		for _, row := range rows[1:] {
			reach := strings.TrimSpace(row[reachCol])
			for _, cell := range strings.Split(row[blockCol], ",") {
				cell = strings.TrimSpace(cell)
				if i := strings.IndexByte(cell, ' '); i >= 0 {
					cell = cell[:i] // footnote "[2]"
				}
				p, err := netip.ParsePrefix(cell)
				if err != nil {
					t.Fatalf("%s: block %q: %v", f, cell, err)
				}
				if p.Addr().Is4In6() && p.Bits() == 96 {
					// REQ-SEC-006: an IPv4-mapped address is judged as the
					// IPv4 address it carries, never as a block of its own.
					for _, a := range firstMidLast(p) {
						if got, want := Classify(a), Classify(a.Unmap()); got != want {
							t.Errorf("%s: Classify(%s) = %q, want %q as its IPv4 address", p, a, got, want)
						}
						mapped++
					}
					continue
				}
				seen := map[netip.Addr]bool{}
				for _, a := range firstMidLast(p) {
					if seen[a] {
						continue
					}
					seen[a] = true
					got := Classify(a)
					if strings.HasPrefix(reach, "True") {
						if got != "" {
							t.Logf("globally reachable per IANA, refused on purpose: %s (%s) as %s", p, a, got)
						}
						continue
					}
					checked++
					if got == "" {
						t.Errorf("%s (Globally Reachable %q): %s is admitted", p, reach, a)
					}
				}
			}
		}
	}
	t.Logf("checked %d addresses of blocks not globally reachable, and %d IPv4-mapped addresses judged as IPv4", checked, mapped)
}
