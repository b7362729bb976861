package fetch

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"rypsok/tool"
)

// refusedSpellings writes the refused host hostport (an IPv4 address that
// no allow rule admits) in every spelling a URL parser reads as the same
// host: other IPv4 notations, IPv4-mapped IPv6, a trailing dot, percent
// escapes and full-width characters that IDNA maps to ASCII.
func refusedSpellings(ip4 [4]byte, port string) []string {
	a, b, c, d := int(ip4[0]), int(ip4[1]), int(ip4[2]), int(ip4[3])
	n := a<<24 | b<<16 | c<<8 | d
	dotted := strconv.Itoa(a) + "." + strconv.Itoa(b) + "." + strconv.Itoa(c) + "." + strconv.Itoa(d)
	var pct strings.Builder
	for i := 0; i < len(dotted); i++ {
		pct.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(dotted[i]), 16)))
	}
	var wide strings.Builder
	for _, r := range dotted {
		if r == '.' {
			wide.WriteRune('\uFF0E')
		} else {
			wide.WriteRune(r - '0' + '\uFF10')
		}
	}
	hosts := []string{
		dotted,
		dotted + ".",
		strconv.Itoa(n),                        // one decimal number
		"0x" + strconv.FormatInt(int64(n), 16), // one hexadecimal number
		"0" + strconv.FormatInt(int64(n), 8),   // one octal number
		"0x" + strconv.FormatInt(int64(a), 16) + "." + strconv.Itoa(b) + "." + strconv.Itoa(c) + "." + strconv.Itoa(d),
		"0" + strconv.FormatInt(int64(a), 8) + ".0." + strconv.Itoa(c) + "." + strconv.Itoa(d),
		strconv.Itoa(a) + "." + strconv.Itoa(b<<16|c<<8|d), // two parts
		"[::ffff:" + dotted + "]",
		pct.String(),
		wide.String(),
	}
	out := make([]string, len(hosts))
	for i, h := range hosts {
		out[i] = "https://" + h + ":" + port + "/secret"
	}
	return out
}

// TestREQ_SEC_008_RefusedHostInAnySpellingAsRedirectTarget: a Location
// naming a refused host in another spelling is refused exactly like that
// host given directly (denied egress, target not disclosed), with and
// without follow_cross_host_redirects, while an allow rule admits the
// redirecting host; and nothing reaches the refused host, robots.txt
// included.
func TestREQ_SEC_008_RefusedHostInAnySpellingAsRedirectTarget(t *testing.T) {
	// The refused host listens on 127.0.0.2, which the test's allow rule
	// (127.0.0.1) does not admit.
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("no second loopback address on this machine: %v", err)
	}
	var target string
	st := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", target)
		w.WriteHeader(http.StatusFound)
	})
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	var reached atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			reached.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	for _, follow := range []bool{false, true} {
		e := newEnv(t, func(s *Settings) {
			s.FollowCrossHostRedirects = follow
			s.Policy.Ports = append(s.Policy.Ports, mustPort(t, port))
		}, st)
		for _, target = range refusedSpellings([4]byte{127, 0, 0, 2}, port) {
			_, direct := e.fetch(t, target, 3000, 0)
			if direct == nil || direct.Kind != tool.KindDenied || direct.Detail.Reason != tool.ReasonEgress {
				t.Errorf("%s given directly: got %v, want denied/egress", target, direct)
				continue
			}
			_, terr := e.fetch(t, st.url("a.example.com", "/moved"), 3000, 0)
			if terr == nil || terr.Kind != direct.Kind || terr.Detail.Reason != direct.Detail.Reason {
				t.Errorf("follow %v: redirect to %s: got %v, want %s/%s as given directly", follow, target, terr, direct.Kind, direct.Detail.Reason)
				continue
			}
			if terr.Detail.Location != "" {
				t.Errorf("follow %v: redirect to %s: the refused target is disclosed", follow, target)
			}
		}
	}
	// A robots.txt redirected to the refused host in any spelling is
	// unreachable: the page is disallowed and neither is read there.
	for _, target = range refusedSpellings([4]byte{127, 0, 0, 2}, port) {
		site := newSite(t, html(pageHTML))
		site.setRobots(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", target)
			w.WriteHeader(http.StatusMovedPermanently)
		})
		e := newEnv(t, func(s *Settings) { s.Policy.Ports = append(s.Policy.Ports, mustPort(t, port)) }, site)
		_, terr := e.fetch(t, site.url("a.example.com", "/page"), 3000, 0)
		if terr == nil || terr.Kind != tool.KindDenied || terr.Detail.Reason != tool.ReasonRobotsTxt {
			t.Errorf("robots.txt redirected to %s: got %v, want denied/robots_txt", target, terr)
		}
		if site.count("/page") != 0 {
			t.Errorf("robots.txt redirected to %s: the page was requested", target)
		}
	}
	if n := reached.Load(); n != 0 {
		t.Fatalf("the refused host was reached %d times", n)
	}
}

func mustPort(t testing.TB, p string) int {
	t.Helper()
	n, err := strconv.Atoi(p)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
