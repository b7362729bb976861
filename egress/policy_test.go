package egress

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"rypsok/tool"
)

// refusedURLs: each URL and the reason and class the built-in profile
// (AllowHTTP false, Ports 80 and 443, no rule) refuses it with.
var refusedURLs = []struct {
	url    string
	reason tool.Reason
	class  string
}{
	// Schemes.
	{"http://example.com/", tool.ReasonScheme, "scheme"},
	{"ftp://example.com/", tool.ReasonScheme, "scheme"},
	{"file:///etc/passwd", tool.ReasonScheme, "scheme"},
	{"gopher://example.com/", tool.ReasonScheme, "scheme"},
	{"ws://example.com/", tool.ReasonScheme, "scheme"},
	{"wss://example.com/", tool.ReasonScheme, "scheme"},
	{"javascript:alert(1)", tool.ReasonScheme, "scheme"},
	{"data:text/html,hi", tool.ReasonScheme, "scheme"},
	{"//example.com/", tool.ReasonScheme, "scheme"},
	{"HTTP://example.com/", tool.ReasonScheme, "scheme"},
	// Credentials.
	{"https://user:pass@example.com/", tool.ReasonSecretInURL, "userinfo_password"},
	{"https://user:p%40ss@example.com/", tool.ReasonSecretInURL, "userinfo_password"},
	{"https://user@example.com/", tool.ReasonCredentialInURL, "userinfo"},
	{"https://user:@example.com/", tool.ReasonCredentialInURL, "userinfo"},
	{"https://@example.com/", tool.ReasonCredentialInURL, "userinfo"},
	{"https://:secret@example.com/", tool.ReasonSecretInURL, "userinfo_password"},
	{"ftp://user:pass@example.com/", tool.ReasonSecretInURL, "userinfo_password"},
	// Ports.
	{"https://example.com:8443/", tool.ReasonEgress, "port"},
	{"https://example.com:22/", tool.ReasonEgress, "port"},
	{"https://example.com:6379/", tool.ReasonEgress, "port"},
	{"https://example.com:65535/", tool.ReasonEgress, "port"},
	{"https://example.com:0/", tool.ReasonEgress, "port"},
	{"https://example.com:65536/", tool.ReasonEgress, "port"},
	{"https://example.com:99999999999999999999/", tool.ReasonEgress, "port"},
	{"https://[2001:4860::1]:8080/", tool.ReasonEgress, "port"},
	{"https://8.8.8.8:25/", tool.ReasonEgress, "port"},
	// Names.
	{"https://localhost/", tool.ReasonEgress, "name_localhost"},
	{"https://LOCALHOST/", tool.ReasonEgress, "name_localhost"},
	{"https://localhost./", tool.ReasonEgress, "name_localhost"},
	{"https://localhost:443/", tool.ReasonEgress, "name_localhost"},
	{"https://foo.localhost/", tool.ReasonEgress, "name_localhost"},
	{"https://a.b.localhost./", tool.ReasonEgress, "name_localhost"},
	{"https://%EF%BD%8C%EF%BD%8F%EF%BD%83%EF%BD%81%EF%BD%8C%EF%BD%88%EF%BD%8F%EF%BD%93%EF%BD%94/", tool.ReasonEgress, "name_localhost"}, // full-width "localhost"
	{"https://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/", tool.ReasonEgress, "name_localhost"},
	{"https://localhost。/", tool.ReasonEgress, "name_localhost"},
	{"https://local­host/", tool.ReasonEgress, "name_localhost"},
	{"https://printer.local｡/", tool.ReasonEgress, "name_local"},
	{"https://example.com:443@127.0.0.1/", tool.ReasonSecretInURL, "userinfo_password"},
	{"https://127.0.0.1#@example.com/", tool.ReasonEgress, "loopback"},
	{"https://127.0.0.1?@example.com/", tool.ReasonEgress, "loopback"},
	{"https://intranet/", tool.ReasonEgress, "name_single_label"},
	{"https://router/", tool.ReasonEgress, "name_single_label"},
	{"https://com/", tool.ReasonEgress, "name_single_label"},
	{"https://printer.local/", tool.ReasonEgress, "name_local"},
	{"https://metadata.google.internal/", tool.ReasonEgress, "name_local"},
	{"https://host.docker.internal/", tool.ReasonEgress, "name_local"},
	{"https://1.0.0.127.in-addr.arpa/", tool.ReasonEgress, "name_local"},
	{"https://b.a.9.8.ip6.arpa/", tool.ReasonEgress, "name_local"},
	{"https://nas.home.arpa/", tool.ReasonEgress, "name_local"},
	{"https://server.lan/", tool.ReasonEgress, "name_local"},
	{"https://router.home/", tool.ReasonEgress, "name_local"},
	{"https://dc.corp/", tool.ReasonEgress, "name_local"},
	{"https://box.localdomain/", tool.ReasonEgress, "name_local"},
	{"https://wiki.intranet/", tool.ReasonEgress, "name_local"},
	{"https://x.private/", tool.ReasonEgress, "name_local"},
	{"https://exchange.mail/", tool.ReasonEgress, "name_local"},
	{"https://site.test/", tool.ReasonEgress, "name_local"},
	{"https://nothing.invalid/", tool.ReasonEgress, "name_local"},
	{"https://some.example/", tool.ReasonEgress, "name_local"},
	{"https://hidden.onion/", tool.ReasonEgress, "name_local"},
	{"https://x.alt/", tool.ReasonEgress, "name_local"},
	{"https://PRINTER.LOCAL./", tool.ReasonEgress, "name_local"},
	{"https://a..example.com/", tool.ReasonEgress, "name_malformed"},
	{"https://.example.com/", tool.ReasonEgress, "name_malformed"},
	{"https://example.com../", tool.ReasonEgress, "name_malformed"},
	{"https://exa_mple.com%E2%80%AE/", tool.ReasonEgress, "name_malformed"},
	{"https://" + strings.Repeat("a", 64) + ".com/", tool.ReasonEgress, "name_malformed"},
	{"https://" + strings.Repeat("abcdefghi.", 26) + "com/", tool.ReasonEgress, "name_malformed"},
	{"https://exa$mple.com/", tool.ReasonEgress, "name_malformed"},
	{"https://exa!mple.com/", tool.ReasonEgress, "name_malformed"},
	{"https:///path", tool.ReasonEgress, "name_empty"},
	{"https://./", tool.ReasonEgress, "name_empty"},
	{"https://:443/", tool.ReasonEgress, "name_empty"},
	{"https:opaque", tool.ReasonEgress, "url_invalid"},
	// IPv4 literals in every notation.
	{"https://127.0.0.1/", tool.ReasonEgress, "loopback"},
	{"https://127.0.0.1./", tool.ReasonEgress, "loopback"},
	{"https://127.1/", tool.ReasonEgress, "loopback"},
	{"https://127.0.1/", tool.ReasonEgress, "loopback"},
	{"https://127.255.255.254/", tool.ReasonEgress, "loopback"},
	{"https://2130706433/", tool.ReasonEgress, "loopback"},
	{"https://017700000001/", tool.ReasonEgress, "loopback"},
	{"https://0177.0.0.1/", tool.ReasonEgress, "loopback"},
	{"https://0177.1/", tool.ReasonEgress, "loopback"},
	{"https://00000177.0.0.01/", tool.ReasonEgress, "loopback"},
	{"https://0x7f.0.0.1/", tool.ReasonEgress, "loopback"},
	{"https://0X7F.0.0.1/", tool.ReasonEgress, "loopback"},
	{"https://0x7f000001/", tool.ReasonEgress, "loopback"},
	{"https://0x00000000000007f000001/", tool.ReasonEgress, "loopback"},
	{"https://0x7f.1/", tool.ReasonEgress, "loopback"},
	{"https://0x7f.0x0.0x0.0x1/", tool.ReasonEgress, "loopback"},
	{"https://0x7f.0.0x0.1/", tool.ReasonEgress, "loopback"},
	{"https://0x7f.00.0.1/", tool.ReasonEgress, "loopback"},
	{"https://127.0x0.01/", tool.ReasonEgress, "loopback"},
	{"https://0x7f.0x.0.1/", tool.ReasonEgress, "loopback"},
	{"https://127.0.0.0x1/", tool.ReasonEgress, "loopback"},
	{"https://%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1/", tool.ReasonEgress, "loopback"}, // full-width digits
	{"https://１２７．０．０．１/", tool.ReasonEgress, "loopback"},
	{"https://127。0。0。1/", tool.ReasonEgress, "loopback"},
	{"https://①②⑦.0.0.1/", tool.ReasonEgress, "loopback"},
	{"https://0/", tool.ReasonEgress, "unspecified"},
	{"https://0.0.0.0/", tool.ReasonEgress, "unspecified"},
	{"https://0x0/", tool.ReasonEgress, "unspecified"},
	{"https://00/", tool.ReasonEgress, "unspecified"},
	{"https://0x/", tool.ReasonEgress, "unspecified"},
	{"https://10.0.0.1/", tool.ReasonEgress, "private"},
	{"https://10.1/", tool.ReasonEgress, "private"},
	{"https://10.1.1/", tool.ReasonEgress, "private"},
	{"https://167772161/", tool.ReasonEgress, "private"},
	{"https://012.0.0.1/", tool.ReasonEgress, "private"},
	{"https://0xa.0.0.1/", tool.ReasonEgress, "private"},
	{"https://172.16.0.1/", tool.ReasonEgress, "private"},
	{"https://172.31.255.255/", tool.ReasonEgress, "private"},
	{"https://0xac100001/", tool.ReasonEgress, "private"},
	{"https://192.168.1.1/", tool.ReasonEgress, "private"},
	{"https://192.168.257/", tool.ReasonEgress, "private"},
	{"https://3232235777/", tool.ReasonEgress, "private"},
	{"https://0300.0250.01.01/", tool.ReasonEgress, "private"},
	{"https://100.64.0.1/", tool.ReasonEgress, "cgnat"},
	{"https://100.127.255.255/", tool.ReasonEgress, "cgnat"},
	{"https://169.254.0.1/", tool.ReasonEgress, "link_local"},
	{"https://169.254.169.254/", tool.ReasonEgress, "metadata"},
	{"https://169.254.169.254:443/latest/meta-data/", tool.ReasonEgress, "metadata"},
	{"https://2852039166/", tool.ReasonEgress, "metadata"},
	{"https://0xa9fea9fe/", tool.ReasonEgress, "metadata"},
	{"https://0251.0376.0251.0376/", tool.ReasonEgress, "metadata"},
	{"https://169.254.43518/", tool.ReasonEgress, "metadata"},
	{"https://169.254.170.2/", tool.ReasonEgress, "metadata"},
	{"https://100.100.100.200/", tool.ReasonEgress, "metadata"},
	{"https://168.63.129.16/", tool.ReasonEgress, "metadata"},
	{"https://192.0.0.1/", tool.ReasonEgress, "ietf_protocol"},
	{"https://192.0.0.8/", tool.ReasonEgress, "ietf_protocol"},
	{"https://192.0.0.9/", tool.ReasonEgress, "anycast_service"},
	{"https://192.0.0.10/", tool.ReasonEgress, "anycast_service"},
	{"https://192.0.0.170/", tool.ReasonEgress, "nat64"},
	{"https://192.0.0.171/", tool.ReasonEgress, "nat64"},
	{"https://192.0.2.1/", tool.ReasonEgress, "documentation"},
	{"https://198.51.100.7/", tool.ReasonEgress, "documentation"},
	{"https://203.0.113.255/", tool.ReasonEgress, "documentation"},
	{"https://192.31.196.1/", tool.ReasonEgress, "as112"},
	{"https://192.175.48.6/", tool.ReasonEgress, "as112"},
	{"https://192.52.193.1/", tool.ReasonEgress, "amt"},
	{"https://192.88.99.1/", tool.ReasonEgress, "6to4_relay"},
	{"https://198.18.0.1/", tool.ReasonEgress, "benchmarking"},
	{"https://198.19.255.255/", tool.ReasonEgress, "benchmarking"},
	{"https://224.0.0.1/", tool.ReasonEgress, "multicast"},
	{"https://239.255.255.250/", tool.ReasonEgress, "multicast"},
	{"https://240.0.0.1/", tool.ReasonEgress, "reserved"},
	{"https://254.255.255.255/", tool.ReasonEgress, "reserved"},
	{"https://255.255.255.255/", tool.ReasonEgress, "broadcast"},
	{"https://4294967295/", tool.ReasonEgress, "broadcast"},
	{"https://0xffffffff/", tool.ReasonEgress, "broadcast"},
	// Malformed numeric hosts: an IPv4 address or nothing.
	{"https://4294967296/", tool.ReasonEgress, "address_malformed"},
	{"https://127.0.0.256/", tool.ReasonEgress, "address_malformed"},
	{"https://256.0.0.1/", tool.ReasonEgress, "address_malformed"},
	{"https://1.2.3.4.5/", tool.ReasonEgress, "address_malformed"},
	{"https://08.0.0.1/", tool.ReasonEgress, "address_malformed"},
	{"https://0x7g.0.0.1/", tool.ReasonEgress, "address_malformed"},
	{"https://example.123/", tool.ReasonEgress, "address_malformed"},
	{"https://foo.0x10/", tool.ReasonEgress, "address_malformed"},
	{"https://127.0.0.1.local/", tool.ReasonEgress, "name_local"},
	{"https://1.2.3.09/", tool.ReasonEgress, "address_malformed"},
	{"https://127.16777216/", tool.ReasonEgress, "address_malformed"},
	// IPv6 literals.
	{"https://[::1]/", tool.ReasonEgress, "loopback"},
	{"https://[0:0:0:0:0:0:0:1]/", tool.ReasonEgress, "loopback"},
	{"https://[0000::0001]/", tool.ReasonEgress, "loopback"},
	{"https://[::1]:443/", tool.ReasonEgress, "loopback"},
	{"https://[::]/", tool.ReasonEgress, "unspecified"},
	{"https://[::ffff:127.0.0.1]/", tool.ReasonEgress, "loopback"},
	{"https://[::ffff:7f00:1]/", tool.ReasonEgress, "loopback"},
	{"https://[0:0:0:0:0:ffff:127.0.0.1]/", tool.ReasonEgress, "loopback"},
	{"https://[::FFFF:A9FE:A9FE]/", tool.ReasonEgress, "metadata"},
	{"https://[::ffff:10.0.0.1]/", tool.ReasonEgress, "private"},
	{"https://[::ffff:192.168.0.1]/", tool.ReasonEgress, "private"},
	{"https://[::127.0.0.1]/", tool.ReasonEgress, "ipv4_compatible"},
	{"https://[::8.8.8.8]/", tool.ReasonEgress, "ipv4_compatible"},
	{"https://[::ffff:0:127.0.0.1]/", tool.ReasonEgress, "ipv4_translated"},
	{"https://[64:ff9b::127.0.0.1]/", tool.ReasonEgress, "nat64"},
	{"https://[64:ff9b::8.8.8.8]/", tool.ReasonEgress, "nat64"},
	{"https://[64:ff9b:1::a00:1]/", tool.ReasonEgress, "nat64"},
	{"https://[100::1]/", tool.ReasonEgress, "discard"},
	{"https://[100:0:0:1::1]/", tool.ReasonEgress, "dummy"},
	{"https://[2001::1]/", tool.ReasonEgress, "teredo"},
	{"https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", tool.ReasonEgress, "teredo"},
	{"https://[2001:1::1]/", tool.ReasonEgress, "anycast_service"},
	{"https://[2001:2::1]/", tool.ReasonEgress, "benchmarking"},
	{"https://[2001:3::1]/", tool.ReasonEgress, "amt"},
	{"https://[2001:4:112::1]/", tool.ReasonEgress, "as112"},
	{"https://[2001:10::1]/", tool.ReasonEgress, "orchid"},
	{"https://[2001:20::1]/", tool.ReasonEgress, "orchid"},
	{"https://[2001:30::1]/", tool.ReasonEgress, "drone_det"},
	{"https://[2001:1ff::1]/", tool.ReasonEgress, "ietf_protocol"},
	{"https://[2001:db8::1]/", tool.ReasonEgress, "documentation"},
	{"https://[3fff::1]/", tool.ReasonEgress, "documentation"},
	{"https://[2002:7f00:1::]/", tool.ReasonEgress, "6to4"},
	{"https://[2002:808:808::1]/", tool.ReasonEgress, "6to4"},
	{"https://[2620:4f:8000::1]/", tool.ReasonEgress, "as112"},
	{"https://[5f00::1]/", tool.ReasonEgress, "srv6"},
	{"https://[fc00::1]/", tool.ReasonEgress, "unique_local"},
	{"https://[fd12:3456::1]/", tool.ReasonEgress, "unique_local"},
	{"https://[fd00:ec2::254]/", tool.ReasonEgress, "metadata"},
	{"https://[fe80::1]/", tool.ReasonEgress, "link_local"},
	{"https://[FE80::1]/", tool.ReasonEgress, "link_local"},
	{"https://[febf::1]/", tool.ReasonEgress, "link_local"},
	{"https://[fec0::1]/", tool.ReasonEgress, "site_local"},
	{"https://[ff02::1]/", tool.ReasonEgress, "multicast"},
	{"https://[ff05::1:3]/", tool.ReasonEgress, "multicast"},
	{"https://[::2]/", tool.ReasonEgress, "ipv4_compatible"},
	{"https://[1::1]/", tool.ReasonEgress, "not_global_unicast"},
	{"https://[4000::1]/", tool.ReasonEgress, "not_global_unicast"},
	{"https://[fe80::1%25eth0]/", tool.ReasonEgress, "zone"},
	{"https://[2001:4860::1%25eth0]/", tool.ReasonEgress, "zone"},
}

func TestREQ_SEC_006_URLsAreRefusedForTheStatedReason(t *testing.T) {
	if len(refusedURLs) < 150 {
		t.Fatalf("the table holds %d URLs, want at least 150", len(refusedURLs))
	}
	p := &Policy{Ports: []int{80, 443}}
	for _, c := range refusedURLs {
		u, err := url.Parse(c.url)
		if err != nil {
			t.Errorf("url.Parse(%q): %v (the table must hold URLs a caller can send)", c.url, err)
			continue
		}
		d := p.CheckURL(u)
		if d == nil {
			t.Errorf("CheckURL(%q) admitted, want %s/%s", c.url, c.reason, c.class)
			continue
		}
		if d.Reason != c.reason || d.Class != c.class {
			t.Errorf("CheckURL(%q) = %s/%s, want %s/%s", c.url, d.Reason, d.Class, c.reason, c.class)
		}
	}
}

// denialClasses is the fixed vocabulary of Denial.Class.
var denialClasses = map[string]bool{
	"unspecified": true, "loopback": true, "private": true, "cgnat": true,
	"link_local": true, "metadata": true, "ietf_protocol": true,
	"anycast_service": true, "documentation": true, "benchmarking": true,
	"multicast": true, "reserved": true, "broadcast": true, "as112": true,
	"amt": true, "6to4": true, "6to4_relay": true, "teredo": true,
	"nat64": true, "discard": true, "dummy": true, "orchid": true,
	"drone_det": true, "srv6": true, "unique_local": true, "site_local": true,
	"ipv4_compatible": true, "ipv4_translated": true,
	"not_global_unicast": true, "zone": true, "invalid": true,
	"address_malformed": true, "name_empty": true, "name_malformed": true,
	"name_localhost": true, "name_single_label": true, "name_local": true,
	"port": true, "scheme": true, "userinfo": true, "userinfo_password": true,
	"deny_rule": true, "url_invalid": true,
}

// TestREQ_SEC_006_DenialNamesNeitherHostNorAddress: the error text of a
// denial is built from a class of the fixed vocabulary alone.
func TestREQ_SEC_006_DenialNamesNeitherHostNorAddress(t *testing.T) {
	p := &Policy{}
	for _, c := range refusedURLs {
		u, err := url.Parse(c.url)
		if err != nil {
			continue
		}
		d := p.CheckURL(u)
		if d == nil {
			continue
		}
		if want := "egress: refused (" + d.Class + ")"; d.Error() != want {
			t.Errorf("Denial text %q, want %q", d.Error(), want)
		}
		if !denialClasses[d.Class] {
			t.Errorf("CheckURL(%q) class %q is not in the fixed vocabulary", c.url, d.Class)
		}
	}
}

func TestREQ_SEC_006_PublicURLsAreAdmitted(t *testing.T) {
	p := &Policy{Ports: []int{80, 443}}
	for _, s := range []string{
		"https://example.com/",
		"https://EXAMPLE.com./path?q=1#f",
		"https://www.example.com:443/",
		"https://www.example.com:80/",
		"https://www.example.com:0443/",
		"https://www.example.com:/",
		"https://bücher.de/",
		"https://xn--bcher-kva.de/",
		"https://ｅｘａｍｐｌｅ．ｃｏｍ/",
		"https://_dmarc.example.com/",
		"https://a-b.example.com/",
		"https://localhost.example.com/",
		"https://local.example.com/",
		"https://example.localhost.com/",
		"https://internal.example/x",
		"https://8.8.8.8/",
		"https://134744072/",
		"https://0x08080808/",
		"https://010.010.010.010/",
		"https://8.8.2056/",
		"https://[2001:4860:4860::8888]/",
		"https://[::ffff:8.8.8.8]/",
		"https://1.1.1.1./",
		"https://" + strings.Repeat("a", 63) + ".com/",
	} {
		u := mustURL(t, s)
		if s == "https://internal.example/x" {
			// .example is refused; this row checks the table's own control.
			if p.CheckURL(u) == nil {
				t.Errorf("CheckURL(%q) admitted, want refused", s)
			}
			continue
		}
		if d := p.CheckURL(u); d != nil {
			t.Errorf("CheckURL(%q) = %s/%s, want admitted", s, d.Reason, d.Class)
		}
	}
}

func TestREQ_SEC_009_SchemeAndPortRules(t *testing.T) {
	cases := []struct {
		policy Policy
		url    string
		class  string // "" admitted
	}{
		{Policy{}, "https://example.com/", ""},
		{Policy{}, "https://example.com:80/", "port"},
		{Policy{}, "http://example.com/", "scheme"},
		{Policy{AllowHTTP: true}, "http://example.com/", ""},
		{Policy{AllowHTTP: true}, "http://example.com:443/", "port"},
		{Policy{AllowHTTP: true, Ports: []int{80, 443}}, "http://example.com:443/", ""},
		{Policy{AllowHTTP: true}, "ftp://example.com/", "scheme"},
		{Policy{Ports: []int{8443}}, "https://example.com:8443/", ""},
		{Policy{Ports: []int{8443}}, "https://example.com:8080/", "port"},
		{Policy{Allow: []Rule{mustRule(t, "example.com")}}, "https://example.com:8080/", ""},
		{Policy{Allow: []Rule{mustRule(t, "example.com")}}, "https://other.example.com:8080/", "port"},
		{Policy{Allow: []Rule{mustRule(t, "*.example.com")}}, "https://a.example.com:8080/", ""},
		{Policy{Allow: []Rule{mustRule(t, "example.com")}}, "http://example.com/", "scheme"},
		{Policy{Allow: []Rule{mustRule(t, "example.com")}}, "https://u:p@example.com/", "userinfo_password"},
	}
	for _, c := range cases {
		d := c.policy.CheckURL(mustURL(t, c.url))
		got := ""
		if d != nil {
			got = d.Class
		}
		if got != c.class {
			t.Errorf("%+v CheckURL(%q) = %q, want %q", c.policy, c.url, got, c.class)
		}
	}
}

func TestREQ_SEC_006_RulesApplyDenyThenAllowThenBuiltIn(t *testing.T) {
	cases := []struct {
		name  string
		allow []string
		deny  []string
		url   string
		class string
	}{
		{"allow admits loopback", []string{"127.0.0.1"}, nil, "https://127.0.0.1/", ""},
		{"allow admits any notation of it", []string{"127.0.0.1"}, nil, "https://0x7f000001/", ""},
		{"allow admits mapped form", []string{"127.0.0.1"}, nil, "https://[::ffff:127.0.0.1]/", ""},
		{"allow is exact", []string{"127.0.0.1"}, nil, "https://127.0.0.2/", "loopback"},
		{"allow network", []string{"10.0.0.0/8"}, nil, "https://10.9.8.7:8080/", ""},
		{"allow v6 network", []string{"fd00::/8"}, nil, "https://[fd00::1]/", ""},
		{"allow mapped network is v4", []string{"::ffff:10.0.0.0/104"}, nil, "https://10.1.2.3/", ""},
		{"deny beats allow", []string{"10.0.0.0/8"}, []string{"10.0.0.1"}, "https://10.0.0.1/", "deny_rule"},
		{"deny beats allow by name", []string{"*.corp.example.com"}, []string{"secret.corp.example.com"}, "https://secret.corp.example.com/", "deny_rule"},
		{"deny a public name", nil, []string{"blocked.example.com"}, "https://blocked.example.com/", "deny_rule"},
		{"deny matches without root dot", nil, []string{"blocked.example.com"}, "https://BLOCKED.example.com./", "deny_rule"},
		{"deny a public network", nil, []string{"8.8.0.0/16"}, "https://8.8.8.8/", "deny_rule"},
		{"deny a public address in odd notation", nil, []string{"8.8.8.8"}, "https://0x08080808/", "deny_rule"},
		{"deny v6 by v4-mapped", nil, []string{"8.8.8.8"}, "https://[::ffff:808:808]/", "deny_rule"},
		{"suffix does not match itself", []string{"*.corp.example.com"}, nil, "https://corp.example.com:8080/", "port"},
		{"suffix matches deeper", []string{"*.lan"}, nil, "https://a.b.printer.lan/", ""},
		{"suffix needs a label boundary", []string{"*.lan"}, nil, "https://printerlan/", "name_single_label"},
		{"host rule admits a local name", []string{"printer.lan"}, nil, "https://printer.lan/", ""},
		{"host rule admits localhost", []string{"localhost"}, nil, "https://localhost:3000/", ""},
		{"an empty label is never matched", []string{"*.example.com"}, nil, "https://a..example.com/", "name_malformed"},
		{"a leading dot is never matched", []string{"*.example.com"}, nil, "https://.a.example.com/", "name_malformed"},
		{"a zone is never matched", []string{"fe80::/10"}, nil, "https://[fe80::1%25eth0]/", "zone"},
		{"IDN rule matches the ASCII form", []string{"bücher.lan"}, nil, "https://xn--bcher-kva.lan/", ""},
		{"IDN host matches the ASCII rule", []string{"xn--bcher-kva.lan"}, nil, "https://BÜCHER.lan/", ""},
		{"a name rule does not match an address", []string{"printer.lan"}, nil, "https://10.0.0.1/", "private"},
		{"a network rule does not match a name", []string{"10.0.0.0/8"}, nil, "https://printer.lan/", "name_local"},
		{"credentials still refused", []string{"127.0.0.1"}, nil, "https://a:b@127.0.0.1/", "userinfo_password"},
	}
	for _, c := range cases {
		var p Policy
		for _, s := range c.allow {
			p.Allow = append(p.Allow, mustRule(t, s))
		}
		for _, s := range c.deny {
			p.Deny = append(p.Deny, mustRule(t, s))
		}
		d := p.CheckURL(mustURL(t, c.url))
		got := ""
		if d != nil {
			got = d.Class
		}
		if got != c.class {
			t.Errorf("%s: CheckURL(%q) = %q, want %q", c.name, c.url, got, c.class)
		}
	}
}

func TestREQ_SEC_007_CheckAddr(t *testing.T) {
	p := &Policy{
		Allow: []Rule{mustRule(t, "wiki.corp.example"), mustRule(t, "192.168.5.0/24"), mustRule(t, "*.lab.example")},
		Deny:  []Rule{mustRule(t, "192.168.5.66"), mustRule(t, "evil.lab.example"), mustRule(t, "8.8.4.4")},
	}
	cases := []struct {
		host, addr, class string
	}{
		{"example.com", "93.184.216.34", ""},
		{"example.com", "127.0.0.1", "loopback"},
		{"example.com", "::ffff:127.0.0.1", "loopback"},
		{"example.com", "169.254.169.254", "metadata"},
		{"example.com", "fd00:ec2::254", "metadata"},
		{"example.com", "10.0.0.1", "private"},
		{"example.com", "64:ff9b::a00:1", "nat64"},
		{"example.com", "fe80::1%eth0", "zone"},
		{"wiki.corp.example", "10.0.0.1", ""},
		{"WIKI.corp.example.", "10.0.0.1", ""},
		{"x.lab.example", "127.0.0.1", ""},
		{"evil.lab.example", "93.184.216.34", "deny_rule"},
		{"other.example", "192.168.5.7", ""},
		{"other.example", "::ffff:192.168.5.7", ""},
		{"other.example", "192.168.5.66", "deny_rule"},
		{"wiki.corp.example", "192.168.5.66", "deny_rule"},
		{"", "8.8.4.4", "deny_rule"},
		{"", "8.8.8.8", ""},
		{"", "192.168.6.1", "private"},
	}
	for _, c := range cases {
		d := p.CheckAddr(c.host, netip.MustParseAddr(c.addr))
		got := ""
		if d != nil {
			got = d.Class
			if d.Reason != tool.ReasonEgress {
				t.Errorf("CheckAddr(%q, %s) reason %s, want egress", c.host, c.addr, d.Reason)
			}
		}
		if got != c.class {
			t.Errorf("CheckAddr(%q, %s) = %q, want %q", c.host, c.addr, got, c.class)
		}
	}
	if d := p.CheckAddr("example.com", netip.Addr{}); d == nil || d.Class != "invalid" {
		t.Errorf("CheckAddr of the zero address = %v, want invalid", d)
	}
	var nilPolicy *Policy
	if d := nilPolicy.CheckAddr("example.com", netip.MustParseAddr("127.0.0.1")); d == nil {
		t.Error("a nil Policy admitted loopback")
	}
}

func TestREQ_SEC_021_AllowedByRule(t *testing.T) {
	p := &Policy{
		Allow: []Rule{mustRule(t, "docs.example.com"), mustRule(t, "*.wiki.example"), mustRule(t, "10.0.0.0/8")},
		Deny:  []Rule{mustRule(t, "secret.wiki.example"), mustRule(t, "10.6.6.6")},
	}
	cases := []struct {
		url  string
		want bool
	}{
		{"https://docs.example.com/a", true},
		{"http://DOCS.example.com.:8080/a", true},
		{"https://other.example.com/", false},
		{"https://a.wiki.example/", true},
		{"https://wiki.example/", false},
		{"https://secret.wiki.example/", false},
		{"https://10.1.2.3/", true},
		{"https://0xa010203/", true},
		{"https://10.6.6.6/", false},
		{"https://a..wiki.example/", false},
		{"https:opaque", false},
	}
	for _, c := range cases {
		if got := p.AllowedByRule(mustURL(t, c.url)); got != c.want {
			t.Errorf("AllowedByRule(%q) = %v, want %v", c.url, got, c.want)
		}
	}
	if (&Policy{}).AllowedByRule(mustURL(t, "https://docs.example.com/")) {
		t.Error("a policy without allow rules admitted a URL by rule")
	}
	if p.AllowedByRule(nil) {
		t.Error("AllowedByRule(nil) = true")
	}
}

func TestCheckURLNilInputs(t *testing.T) {
	var p *Policy
	if d := p.CheckURL(mustURL(t, "https://127.0.0.1/")); d == nil || d.Class != "loopback" {
		t.Errorf("nil Policy CheckURL = %v, want loopback", d)
	}
	if d := (&Policy{}).CheckURL(nil); d == nil || d.Reason != tool.ReasonEgress {
		t.Errorf("CheckURL(nil) = %v, want egress", d)
	}
	hand := &url.URL{Scheme: "https", Host: "%31%32%37.0.0.1"}
	if d := (&Policy{}).CheckURL(hand); d == nil {
		t.Error("a hand-built URL with a percent sign in the host was admitted")
	}
	hand = &url.URL{Scheme: "https", Host: "::1"}
	if d := (&Policy{}).CheckURL(hand); d == nil {
		t.Error("a hand-built URL with an unbracketed IPv6 host was admitted")
	}
	hand = &url.URL{Scheme: "https", Host: "127.0.0.1:80:80"}
	if d := (&Policy{}).CheckURL(hand); d == nil {
		t.Error("a hand-built URL with two ports was admitted")
	}
}
