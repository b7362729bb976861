package egress

import (
	"net/netip"
	"strings"
	"testing"
)

func TestREQ_SEC_006_ParseRuleAcceptsEachForm(t *testing.T) {
	cases := []struct {
		in     string
		prefix string // "" when the rule is a name
		host   string
		suffix string
	}{
		{"10.0.0.0/8", "10.0.0.0/8", "", ""},
		{"10.1.2.3/8", "10.0.0.0/8", "", ""},
		{"192.168.1.10", "192.168.1.10/32", "", ""},
		{"fd00::/8", "fd00::/8", "", ""},
		{"FD00::1", "fd00::1/128", "", ""},
		{"::ffff:10.0.0.1", "10.0.0.1/32", "", ""},
		{"::ffff:10.0.0.0/104", "10.0.0.0/8", "", ""},
		{"0.0.0.0/0", "0.0.0.0/0", "", ""},
		{"::/0", "::/0", "", ""},
		{"wiki.corp.example", "", "wiki.corp.example", ""},
		{"Wiki.CORP.example", "", "wiki.corp.example", ""},
		{"localhost", "", "localhost", ""},
		{"printer", "", "printer", ""},
		{"_acme.example.com", "", "_acme.example.com", ""},
		{"*.corp.example", "", "", "corp.example"},
		{"*.LAN", "", "", "lan"},
		{"bücher.example", "", "xn--bcher-kva.example", ""},
		{"*.bücher.example", "", "", "xn--bcher-kva.example"},
		{"ｅｘａｍｐｌｅ．ｃｏｍ", "", "example.com", ""},
		{"xn--bcher-kva.example", "", "xn--bcher-kva.example", ""},
	}
	for _, c := range cases {
		r, err := ParseRule(c.in)
		if err != nil {
			t.Errorf("ParseRule(%q): %v", c.in, err)
			continue
		}
		if c.prefix != "" {
			if want := netip.MustParsePrefix(c.prefix); r.prefix != want {
				t.Errorf("ParseRule(%q) prefix %v, want %v", c.in, r.prefix, want)
			}
		} else if r.prefix.IsValid() {
			t.Errorf("ParseRule(%q) is a network %v, want a name", c.in, r.prefix)
		}
		if r.host != c.host || r.suffix != c.suffix {
			t.Errorf("ParseRule(%q) = host %q suffix %q, want %q %q", c.in, r.host, r.suffix, c.host, c.suffix)
		}
	}
}

func TestREQ_SEC_006_ParseRuleRefusesWithItsOwnSentence(t *testing.T) {
	cases := []struct {
		in, msg string
	}{
		{"", "a rule must not be empty"},
		{" example.com", "a rule must not contain spaces or control characters"},
		{"exa mple.com", "a rule must not contain spaces or control characters"},
		{"example.com\n", "a rule must not contain spaces or control characters"},
		{"example.com\x00", "a rule must not contain spaces or control characters"},
		{"https://example.com", "a rule must not have a scheme"},
		{"ftp://10.0.0.1", "a rule must not have a scheme"},
		{"user@example.com", "a rule must not have a user name"},
		{"example.com:8080", "a rule must not have a port"},
		{"10.0.0.1:80", "a rule must not have a port"},
		{"[::1]:80", "an IPv6 address is written without brackets"},
		{"[::1]", "an IPv6 address is written without brackets"},
		{"example.com/path", "a rule must not have a path"},
		{"example.com/", "a rule must not have a path"},
		{"10.0.0.0/33", "a network must be an address, a slash and a prefix length"},
		{"10.0.0.0/", "a network must be an address, a slash and a prefix length"},
		{"10.0.0.0/8/8", "a network must be an address, a slash and a prefix length"},
		{"10.0.0/8", "a network must be an address, a slash and a prefix length"},
		{"fd00::/129", "a network must be an address, a slash and a prefix length"},
		{"fe80::1%eth0", "an address must not have a zone"},
		{"fe80::%eth0/64", "an address must not have a zone"},
		{"1::2::3", "an IPv6 address must be valid"},
		{"10.0.0", "an IPv4 address must be four decimal numbers from 0 to 255 without leading zeros"},
		{"010.0.0.1", "an IPv4 address must be four decimal numbers from 0 to 255 without leading zeros"},
		{"0x7f.0.0.1", "an IPv4 address must be four decimal numbers from 0 to 255 without leading zeros"},
		{"2130706433", "an IPv4 address must be four decimal numbers from 0 to 255 without leading zeros"},
		{"256.1.1.1", "an IPv4 address must be four decimal numbers from 0 to 255 without leading zeros"},
		{"example.123", "an IPv4 address must be four decimal numbers from 0 to 255 without leading zeros"},
		{"*", `a wildcard is allowed only as a leading "*."`},
		{"*example.com", `a wildcard is allowed only as a leading "*."`},
		{"a.*.example.com", `a wildcard is allowed only as a leading "*."`},
		{"*.*.example.com", `a wildcard is allowed only as a leading "*."`},
		{"example.*", `a wildcard is allowed only as a leading "*."`},
		{"example.com.", "a host pattern must not end with a dot"},
		{"*.example.com.", "a host pattern must not end with a dot"},
		{"*.", "a host pattern must not have an empty label"},
		{"example。", "a host pattern must not end with a dot"},
		{".example.com", "a host pattern must not start with a dot"},
		{"*..example.com", "a host pattern must not start with a dot"},
		{"a..example.com", "a host pattern must not have an empty label"},
		{"exa%mple.com", "a host pattern may contain only letters, digits, hyphens, underscores and dots"},
		{"exa!mple.com", "a host pattern may contain only letters, digits, hyphens, underscores and dots"},
		{"example.com?x", "a host pattern may contain only letters, digits, hyphens, underscores and dots"},
		{"ex\xffample.com", "a host pattern may contain only letters, digits, hyphens, underscores and dots"},
		{"ex_ämple.com", "a host pattern must be a valid internationalized host name"},
		{strings.Repeat("a", 64) + ".example", "a host pattern must have at most 253 characters and labels of at most 63"},
		{strings.Repeat("abcdefghi.", 26) + "com", "a host pattern must have at most 253 characters and labels of at most 63"},
	}
	for _, c := range cases {
		_, err := ParseRule(c.in)
		if err == nil {
			t.Errorf("ParseRule(%q) accepted, want %q", c.in, c.msg)
			continue
		}
		if err.Error() != c.msg {
			t.Errorf("ParseRule(%q) = %q, want %q", c.in, err.Error(), c.msg)
		}
	}
}

func TestREQ_SEC_006_RuleWide(t *testing.T) {
	cases := []struct {
		in   string
		wide bool
	}{
		{"0.0.0.0/0", true},
		{"::/0", true},
		{"10.0.0.0/8", true},
		{"172.16.0.0/12", true},
		{"10.0.0.0/15", true},
		{"10.0.0.0/16", false},
		{"192.168.0.0/24", false},
		{"10.0.0.1", false},
		{"fd00::/8", true},
		{"2001:db8::/31", true},
		{"2001:db8::/32", false},
		{"fd00::1", false},
		{"::ffff:0.0.0.0/96", true},
		{"::ffff:10.0.0.0/112", false},
		{"example.com", false},
		{"*.example.com", false},
	}
	for _, c := range cases {
		if got := mustRule(t, c.in).Wide(); got != c.wide {
			t.Errorf("ParseRule(%q).Wide() = %v, want %v", c.in, got, c.wide)
		}
	}
	if (Rule{}).Wide() {
		t.Error("the zero Rule is wide")
	}
}

func TestZeroRuleMatchesNothing(t *testing.T) {
	var r Rule
	if r.matchName("example.com") || r.matchName("") || r.matchAddr(netip.MustParseAddr("127.0.0.1")) {
		t.Error("the zero Rule matched")
	}
}
