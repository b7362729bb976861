package egress

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/http/httpproxy"
)

// server is a loopback test server that counts the connections it accepts
// and records the requests it answers. A canary is a server that must see
// nothing.
type server struct {
	*httptest.Server
	conns   atomic.Int64
	mu      sync.Mutex
	headers []http.Header
	hosts   []string
	paths   []string
}

func newServer(t *testing.T, tlsOn bool, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.headers = append(s.headers, r.Header.Clone())
		s.hosts = append(s.hosts, r.Host)
		s.paths = append(s.paths, r.URL.Path)
		s.mu.Unlock()
		if h != nil {
			h(w, r)
			return
		}
		io.WriteString(w, "ok")
	}))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	if tlsOn {
		s.StartTLS()
	} else {
		s.Start()
	}
	t.Cleanup(s.Close)
	return s
}

func (s *server) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.headers)
}

func (s *server) port(t *testing.T) int {
	u := mustURL(t, s.URL)
	p, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (s *server) hostPort(t *testing.T) string { return mustURL(t, s.URL).Host }

// mustBeUntouched fails the test when the canary accepted a connection.
func (s *server) mustBeUntouched(t *testing.T) {
	t.Helper()
	if n := s.conns.Load(); n != 0 {
		t.Fatalf("the canary accepted %d connections, want none", n)
	}
}

// stubResolver answers each name with a sequence of answers, one per call;
// the last answer repeats.
type stubResolver struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	calls   map[string]int
}

func newStubResolver(answers map[string][]string) *stubResolver {
	r := &stubResolver{answers: map[string][][]netip.Addr{}, calls: map[string]int{}}
	for name, seq := range answers {
		for _, a := range seq {
			var list []netip.Addr
			for _, s := range strings.Split(a, ",") {
				list = append(list, netip.MustParseAddr(s))
			}
			r.answers[name] = append(r.answers[name], list)
		}
	}
	return r
}

func (r *stubResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seq, ok := r.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	i := r.calls[host]
	r.calls[host]++
	if i >= len(seq) {
		i = len(seq) - 1
	}
	return seq[i], nil
}

// dialRecorder stands in for the final connect of the fetch dialer: it
// records every judged address and, for addresses in route, connects to the
// loopback server standing in for that public address; any other address is
// unreachable.
type dialRecorder struct {
	mu      sync.Mutex
	targets []string
	route   map[string]string
}

func (d *dialRecorder) dial(ctx context.Context, network, address string, _ func(string, string, syscall.RawConn) error) (net.Conn, error) {
	d.mu.Lock()
	d.targets = append(d.targets, address)
	to, ok := d.route[address]
	d.mu.Unlock()
	if !ok {
		return nil, &net.OpError{Op: "dial", Net: network, Err: errors.New("unreachable in the test")}
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, to)
}

func (d *dialRecorder) seen() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.targets...)
}

func testFetchClient(p *Policy, res Resolver, dial *dialRecorder, roots *x509.CertPool) *http.Client {
	d := &fetchDialer{policy: p.clone(), resolver: res, timeout: 5 * time.Second}
	if dial != nil {
		d.dial = dial.dial
	}
	return newFetchClient(d.policy, d, roots, "rypsok/test (+https://github.com/nabbisen/rypsok)")
}

func get(t *testing.T, c *http.Client, rawURL string) (*http.Response, []byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

func wantRefused(t *testing.T, err error, class string) {
	t.Helper()
	if err == nil {
		t.Fatalf("the request was admitted, want refused as %s", class)
	}
	var d *Denial
	if !errors.As(err, &d) {
		t.Fatalf("error %v carries no *Denial", err)
	}
	if d.Class != class {
		t.Fatalf("refused as %q, want %q", d.Class, class)
	}
}

func TestREQ_TEST_005_LoopbackIsReachedOnlyThroughAnAllowRule(t *testing.T) {
	srv := newServer(t, false, nil)
	allowed := testFetchClient(&Policy{AllowHTTP: true, Allow: []Rule{mustRule(t, "127.0.0.1")}}, newStubResolver(nil), nil, nil)
	resp, body, err := get(t, allowed, srv.URL+"/page")
	if err != nil || resp.StatusCode != 200 || string(body) != "ok" {
		t.Fatalf("with the allow rule: %v %v %q", err, resp, body)
	}
	before := srv.conns.Load()

	for _, p := range []*Policy{
		{AllowHTTP: true},
		{AllowHTTP: true, Ports: []int{srv.port(t)}},
		{AllowHTTP: true, Allow: []Rule{mustRule(t, "127.0.0.2")}},
		{AllowHTTP: true, Allow: []Rule{mustRule(t, "127.0.0.1")}, Deny: []Rule{mustRule(t, "127.0.0.0/8")}},
	} {
		c := testFetchClient(p, newStubResolver(nil), nil, nil)
		_, _, err := get(t, c, srv.URL+"/page")
		if err == nil {
			t.Fatalf("policy %+v reached the loopback server", p)
		}
		var d *Denial
		if !errors.As(err, &d) {
			t.Fatalf("policy %+v: error %v carries no *Denial", p, err)
		}
	}
	if n := srv.conns.Load(); n != before {
		t.Fatalf("the server accepted %d connections without an allow rule", n-before)
	}
	// The production constructor with a nil Policy refuses it too.
	_, _, err = get(t, NewFetchClient(FetchClientOptions{Roots: x509.NewCertPool()}), strings.Replace(srv.URL, "http://", "https://", 1))
	wantRefused(t, err, "loopback")
	if n := srv.conns.Load(); n != before {
		t.Fatal("NewFetchClient with the built-in profile reached the loopback server")
	}
}

func TestREQ_SEC_007_EveryResolvedAddressIsJudged(t *testing.T) {
	canary := newServer(t, false, nil)
	port := canary.port(t)
	cases := []struct {
		answer string
		class  string
	}{
		{"127.0.0.1", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"10.0.0.1,127.0.0.1", "private"},
		{"169.254.169.254", "metadata"},
		{"fd00:ec2::254,::1", "metadata"},
		{"100.64.0.1", "cgnat"},
		{"0.0.0.0", "unspecified"},
		{"64:ff9b::7f00:1", "nat64"},
		{"2002:7f00:1::1", "6to4"},
		{"fe80::1%eth0", "zone"},
		{"198.51.100.1,192.0.2.1", "documentation"},
	}
	for _, c := range cases {
		res := newStubResolver(map[string][]string{"site.example.com": {c.answer}})
		rec := &dialRecorder{}
		client := testFetchClient(&Policy{AllowHTTP: true, Ports: []int{port}}, res, rec, nil)
		_, _, err := get(t, client, "http://site.example.com:"+strconv.Itoa(port)+"/")
		if !errors.Is(err, ErrAllRefused) {
			t.Fatalf("answer %s: error %v, want ErrAllRefused", c.answer, err)
		}
		wantRefused(t, err, c.class)
		if s := rec.seen(); len(s) != 0 {
			t.Fatalf("answer %s: dialed %v", c.answer, s)
		}
	}
	canary.mustBeUntouched(t)
}

func TestREQ_SEC_007_MixedAnswersDialOnlyThePublicAddresses(t *testing.T) {
	canary := newServer(t, false, nil)
	site := newServer(t, false, nil)
	port := canary.port(t)
	p := strconv.Itoa(port)
	for _, answer := range []string{
		"127.0.0.1,93.184.216.34",
		"93.184.216.34,127.0.0.1",
		"10.0.0.1,::1,93.184.216.34,169.254.169.254",
	} {
		res := newStubResolver(map[string][]string{"mixed.example.com": {answer}})
		rec := &dialRecorder{route: map[string]string{"93.184.216.34:" + p: site.hostPort(t)}}
		client := testFetchClient(&Policy{AllowHTTP: true, Ports: []int{port}}, res, rec, nil)
		resp, body, err := get(t, client, "http://mixed.example.com:"+p+"/")
		if err != nil || resp.StatusCode != 200 || string(body) != "ok" {
			t.Fatalf("answer %s: %v", answer, err)
		}
		if got := rec.seen(); len(got) != 1 || got[0] != "93.184.216.34:"+p {
			t.Fatalf("answer %s: dialed %v, want only the public address", answer, got)
		}
	}
	// A public address that cannot be reached, then nothing admitted: the
	// refused loopback address is never tried as a fallback.
	res := newStubResolver(map[string][]string{"mixed.example.com": {"203.0.114.1,127.0.0.1"}})
	rec := &dialRecorder{}
	client := testFetchClient(&Policy{AllowHTTP: true, Ports: []int{port}}, res, rec, nil)
	if _, _, err := get(t, client, "http://mixed.example.com:"+p+"/"); err == nil || errors.Is(err, ErrAllRefused) {
		t.Fatalf("error %v, want a connection failure", err)
	}
	if got := rec.seen(); len(got) != 1 || got[0] != "203.0.114.1:"+p {
		t.Fatalf("dialed %v, want only the public address", got)
	}
	canary.mustBeUntouched(t)
}

// TestREQ_SEC_007_AnswersThatChangeBetweenCalls is DNS rebinding: the name
// passes CheckURL and first resolves to a public address, then to loopback.
func TestREQ_SEC_007_AnswersThatChangeBetweenCalls(t *testing.T) {
	canary := newServer(t, false, nil)
	public := newServer(t, false, nil)
	p := strconv.Itoa(canary.port(t))
	res := newStubResolver(map[string][]string{"rebind.example.com": {"93.184.216.34", "127.0.0.1", "::ffff:7f00:1"}})
	rec := &dialRecorder{route: map[string]string{"93.184.216.34:" + p: public.hostPort(t)}}
	policy := &Policy{AllowHTTP: true, Ports: []int{canary.port(t)}}
	client := testFetchClient(policy, res, rec, nil)
	target := "http://rebind.example.com:" + p + "/"
	if d := policy.CheckURL(mustURL(t, target)); d != nil {
		t.Fatalf("CheckURL refused the name: %v", d)
	}
	if _, body, err := get(t, client, target); err != nil || string(body) != "ok" {
		t.Fatalf("first call: %v", err)
	}
	for i := 0; i < 2; i++ {
		client.CloseIdleConnections()
		_, _, err := get(t, client, target)
		if !errors.Is(err, ErrAllRefused) {
			t.Fatalf("call %d after rebinding: %v, want ErrAllRefused", i+2, err)
		}
		wantRefused(t, err, "loopback")
	}
	if got := rec.seen(); len(got) != 1 {
		t.Fatalf("dialed %v, want only the first, public answer", got)
	}
	canary.mustBeUntouched(t)
}

// TestREQ_SEC_007_ControlHookJudgesTheConnectedAddress: if anything between
// judgment and connect changed the destination, the socket's Control hook
// refuses it before the connection is made.
func TestREQ_SEC_007_ControlHookJudgesTheConnectedAddress(t *testing.T) {
	canary := newServer(t, false, nil)
	d := &fetchDialer{policy: &Policy{}, resolver: newStubResolver(map[string][]string{"public.example.com": {"93.184.216.34"}}), timeout: 5 * time.Second}
	d.dial = func(ctx context.Context, network, _ string, control func(string, string, syscall.RawConn) error) (net.Conn, error) {
		nd := net.Dialer{Control: control}
		return nd.DialContext(ctx, network, canary.hostPort(t))
	}
	conn, err := d.DialContext(context.Background(), "tcp", "public.example.com:443")
	if err == nil {
		conn.Close()
		t.Fatal("the dialer connected to an address it did not judge")
	}
	if !errors.Is(err, ErrAllRefused) {
		t.Fatalf("error %v, want ErrAllRefused", err)
	}
	wantRefused(t, err, "loopback")
	canary.mustBeUntouched(t)

	// The production connect runs the hook.
	control := d.control("public.example.com")
	if conn, err := connect(context.Background(), "tcp", canary.hostPort(t), control); err == nil {
		conn.Close()
		t.Fatal("connect ignored the Control hook")
	} else if !errors.As(err, new(*Denial)) {
		t.Fatalf("connect error %v carries no *Denial", err)
	}
	canary.mustBeUntouched(t)

	for _, c := range []struct {
		network, address string
		refused          bool
	}{
		{"tcp4", "127.0.0.1:443", true},
		{"tcp6", "[::1]:443", true},
		{"tcp6", "[::ffff:10.0.0.1]:443", true},
		{"tcp6", "[fe80::1%eth0]:443", true},
		{"tcp4", "not-an-address", true},
		{"tcp4", "93.184.216.34:443", false},
		{"tcp6", "[2606:2800:220:1::1]:443", false},
	} {
		if err := control(c.network, c.address, nil); (err != nil) != c.refused {
			t.Errorf("control(%s) = %v, want refused %v", c.address, err, c.refused)
		}
	}
}

func TestREQ_SEC_007_LiteralHostsAreJudgedAtDial(t *testing.T) {
	canary := newServer(t, false, nil)
	p := strconv.Itoa(canary.port(t))
	d := &fetchDialer{policy: &Policy{}, resolver: newStubResolver(map[string][]string{"localhost": {"127.0.0.1"}, "printer.local": {"127.0.0.1"}}), timeout: 5 * time.Second}
	for _, addr := range []string{
		"127.0.0.1:" + p, "127.1:" + p, "0x7f.1:" + p, "2130706433:" + p, "0177.0.0.1:" + p,
		"[::ffff:127.0.0.1]:" + p, "[::1]:" + p, "localhost:" + p, "LOCALHOST.:" + p,
		"a.localhost:" + p, "printer.local:" + p, "[fe80::1%eth0]:" + p, "1.2.3.4.5:" + p,
		"bad host:" + p, "noport",
	} {
		conn, err := d.DialContext(context.Background(), "tcp", addr)
		if err == nil {
			conn.Close()
			t.Fatalf("DialContext(%q) connected", addr)
		}
		if !errors.Is(err, ErrAllRefused) {
			t.Errorf("DialContext(%q) = %v, want ErrAllRefused", addr, err)
		}
		var den *Denial
		if !errors.As(err, &den) {
			t.Errorf("DialContext(%q) = %v, want a *Denial", addr, err)
		}
	}
	if _, err := d.DialContext(context.Background(), "udp", "8.8.8.8:53"); err == nil || errors.Is(err, ErrAllRefused) {
		t.Errorf("a udp dial = %v, want an unsupported network", err)
	}
	canary.mustBeUntouched(t)

	// With the allow rule, an odd notation is dialed as the address it
	// denotes.
	site := newServer(t, false, nil)
	allowed := &fetchDialer{policy: &Policy{Allow: []Rule{mustRule(t, "127.0.0.1")}}, resolver: newStubResolver(nil), timeout: 5 * time.Second}
	conn, err := allowed.DialContext(context.Background(), "tcp", "0x7f.1:"+strconv.Itoa(site.port(t)))
	if err != nil {
		t.Fatalf("the allowed odd notation: %v", err)
	}
	if got := conn.RemoteAddr().String(); got != site.hostPort(t) {
		t.Errorf("connected to %s, want %s", got, site.hostPort(t))
	}
	conn.Close()
}

func TestREQ_SEC_007_EnvironmentProxiesAreIgnoredByFetches(t *testing.T) {
	canary := newServer(t, false, nil)
	site := newServer(t, false, nil)
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
		t.Setenv(k, canary.URL)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	target := "http://site.example.com:" + strconv.Itoa(site.port(t)) + "/"
	// The environment would send this request to the canary.
	viaEnv, err := httpproxy.FromEnvironment().ProxyFunc()(mustURL(t, target))
	if err != nil || viaEnv == nil || viaEnv.Host != canary.hostPort(t) {
		t.Fatalf("the environment does not name the canary for the target: %v %v", viaEnv, err)
	}
	res := newStubResolver(map[string][]string{"site.example.com": {"127.0.0.1"}})
	d := &fetchDialer{policy: &Policy{AllowHTTP: true, Allow: []Rule{mustRule(t, "site.example.com")}}, resolver: res, timeout: 5 * time.Second}
	client := newFetchClient(d.policy, d, nil, "ua")
	if _, body, err := get(t, client, target); err != nil || string(body) != "ok" {
		t.Fatalf("the request did not reach the site: %v", err)
	}
	if site.requests() != 1 {
		t.Fatalf("the site saw %d requests, want 1", site.requests())
	}
	canary.mustBeUntouched(t)
	if tr := NewFetchClient(FetchClientOptions{Roots: x509.NewCertPool()}).Transport.(*fetchTransport).base; tr.Proxy != nil {
		t.Fatal("the fetch transport has a proxy function")
	}
}

func TestREQ_SEC_009_OnlyGETWithoutABody(t *testing.T) {
	srv := newServer(t, false, nil)
	client := testFetchClient(&Policy{AllowHTTP: true, Allow: []Rule{mustRule(t, "127.0.0.1")}}, nil, nil, nil)
	for _, m := range []string{"POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "TRACE", "CONNECT", "get"} {
		req, err := http.NewRequest(m, srv.URL+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			t.Errorf("method %s was sent", m)
		}
	}
	req, _ := http.NewRequest("GET", srv.URL+"/", strings.NewReader("body"))
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
		t.Error("a GET with a body was sent")
	}
	srv.mustBeUntouched(t)
}

func TestREQ_SEC_009_OnlyRypsokHeadersAndNoCookies(t *testing.T) {
	srv := newServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "s1"})
		io.WriteString(w, "ok")
	})
	ua := UserAgent("1.2.3", "ops@example.org")
	d := &fetchDialer{policy: &Policy{AllowHTTP: true, Allow: []Rule{mustRule(t, "127.0.0.1")}}, resolver: newStubResolver(nil), timeout: 5 * time.Second}
	client := newFetchClient(d.policy, d, nil, ua)
	for i := 0; i < 2; i++ {
		req, _ := http.NewRequest("GET", srv.URL+"/p", nil)
		req.Header.Set("Authorization", "Bearer leaked")
		req.Header.Set("Cookie", "a=b")
		req.Header.Set("X-Forwarded-For", "10.0.0.1")
		req.Header.Set("Referer", "https://secret.example/")
		req.Header.Set("User-Agent", "Mozilla/5.0")
		req.Header.Set("Accept-Encoding", "br")
		req.Header.Set("Range", "bytes=0-10")
		req.Host = "internal.admin"
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for i, h := range srv.headers {
		var keys []string
		for k := range h {
			keys = append(keys, k)
		}
		if len(h) != 3 || h.Get("User-Agent") != ua || h.Get("Accept") != fetchAccept || h.Get("Accept-Encoding") != "gzip" {
			t.Errorf("request %d headers %v, want only User-Agent, Accept and Accept-Encoding: gzip", i, h)
		}
		if srv.hosts[i] != srv.hostPort(t) {
			t.Errorf("request %d Host %q, want the URL's host", i, srv.hosts[i])
		}
	}
}

func TestREQ_SEC_008_RedirectsAreReturnedNotFollowed(t *testing.T) {
	canary := newServer(t, false, nil)
	srv := newServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, canary.URL+"/stolen", http.StatusFound)
	})
	client := testFetchClient(&Policy{AllowHTTP: true, Allow: []Rule{mustRule(t, "127.0.0.1")}}, nil, nil, nil)
	resp, _, err := get(t, client, srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != canary.URL+"/stolen" {
		t.Fatalf("status %d location %q, want the redirect itself", resp.StatusCode, resp.Header.Get("Location"))
	}
	canary.mustBeUntouched(t)
}

func TestREQ_SEC_009_TLSVerifiedAgainstTheGivenRoots(t *testing.T) {
	srv := newServer(t, true, nil)
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	allow := &Policy{Allow: []Rule{mustRule(t, "127.0.0.1")}}
	if _, body, err := get(t, testFetchClient(allow, nil, nil, roots), srv.URL+"/"); err != nil || string(body) != "ok" {
		t.Fatalf("with the server's root: %v", err)
	}
	// By name, through the resolver: the certificate names example.com.
	byName := &Policy{Allow: []Rule{mustRule(t, "example.com")}}
	res := newStubResolver(map[string][]string{"example.com": {"127.0.0.1"}})
	if _, _, err := get(t, testFetchClient(byName, res, nil, roots), "https://example.com:"+strconv.Itoa(srv.port(t))+"/"); err != nil {
		t.Fatalf("by name: %v", err)
	}
	if _, _, err := get(t, testFetchClient(allow, nil, nil, x509.NewCertPool()), srv.URL+"/"); err == nil {
		t.Fatal("a server whose root is not trusted was admitted")
	}
	old := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	old.TLS = &tls.Config{MaxVersion: tls.VersionTLS11}
	old.StartTLS()
	defer old.Close()
	oldRoots := x509.NewCertPool()
	oldRoots.AddCert(old.Certificate())
	if _, _, err := get(t, testFetchClient(allow, nil, nil, oldRoots), old.URL+"/"); err == nil {
		t.Fatal("TLS 1.1 was accepted")
	}
}

func TestREQ_SEC_010_ResponseHeadersAreBounded(t *testing.T) {
	srv := newServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Big", strings.Repeat("a", 100<<10))
		io.WriteString(w, "ok")
	})
	client := testFetchClient(&Policy{AllowHTTP: true, Allow: []Rule{mustRule(t, "127.0.0.1")}}, nil, nil, nil)
	if _, _, err := get(t, client, srv.URL+"/"); err == nil {
		t.Fatal("a 100 KiB header was read")
	}
}

// gzipBomb is decompressedMiB MiB of zeros in gzip: one member holding
// 1 MiB, repeated (a gzip reader reads concatenated members as one stream).
func gzipBomb(t testing.TB, decompressedMiB int) []byte {
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	return bytes.Repeat(member.Bytes(), decompressedMiB)
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func TestREQ_SEC_013_GzipBombIsCutAtTheLimit(t *testing.T) {
	const decompressed = 1 << 30
	const limit = 1 << 20
	bomb := gzipBomb(t, decompressed>>20)
	srv := newServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "text/html")
		w.Write(bomb)
	})
	client := testFetchClient(&Policy{AllowHTTP: true, Allow: []Rule{mustRule(t, "127.0.0.1")}}, nil, nil, nil)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	resp, err := client.Get(srv.URL + "/bomb")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if !resp.Uncompressed {
		t.Fatal("the transport did not decode gzip")
	}
	cr := &countingReader{r: resp.Body}
	body, err := ReadBody(cr, limit)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) || body != nil {
		t.Fatalf("ReadBody = %d bytes, %v; want ErrTooLarge", len(body), err)
	}
	if cr.n > limit+1 {
		t.Fatalf("read %d decompressed bytes, want at most limit+1", cr.n)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Fatalf("allocated %d bytes for a %d-byte limit (the bomb holds %d)", alloc, limit, decompressed)
	}
	t.Logf("compressed %d bytes, decompressed bomb %d, read %d, limit %d", len(bomb), decompressed, cr.n, limit)
}

func TestNewFetchClientCopiesThePolicy(t *testing.T) {
	srv := newServer(t, false, nil)
	p := &Policy{AllowHTTP: true, Allow: []Rule{mustRule(t, "192.0.2.1")}}
	client := NewFetchClient(FetchClientOptions{Policy: p, Roots: x509.NewCertPool()})
	p.Allow[0] = mustRule(t, "127.0.0.1")
	p.Allow = append(p.Allow, mustRule(t, "127.0.0.0/8"))
	_, _, err := get(t, client, srv.URL+"/")
	wantRefused(t, err, "loopback")
	srv.mustBeUntouched(t)
}

// engineSetup is an engine origin with redirecting paths and a canary on
// another origin.
func engineSetup(t *testing.T) (origin, canary *server) {
	canary = newServer(t, false, nil)
	canaryLocalhost := strings.Replace(canary.URL, "127.0.0.1", "localhost", 1)
	var self string
	origin = newServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/other-port":
			http.Redirect(w, r, canary.URL+"/x", http.StatusFound)
		case "/other-host":
			http.Redirect(w, r, canaryLocalhost+"/x", http.StatusFound)
		case "/other-scheme":
			http.Redirect(w, r, strings.Replace(self, "http://", "https://", 1)+"/x", http.StatusFound)
		case "/same":
			http.Redirect(w, r, "/final", http.StatusMovedPermanently)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		default:
			io.WriteString(w, "ok")
		}
	})
	self = origin.URL
	return origin, canary
}

func TestREQ_TEST_015_CredentialHeaderIsNeverSentToAnotherOrigin(t *testing.T) {
	origin, canary := engineSetup(t)
	client, err := NewEngineClient(EngineClientOptions{Origin: mustURL(t, origin.URL), UserAgent: "rypsok/test", Roots: x509.NewCertPool()})
	if err != nil {
		t.Fatal(err)
	}
	do := func(rawURL string) (*http.Response, error) {
		req, err := http.NewRequest("GET", rawURL, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Subscription-Token", "secret-key")
		resp, err := client.Do(req)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return resp, err
	}
	for _, path := range []string{"/other-port", "/other-host", "/other-scheme"} {
		resp, err := do(origin.URL + path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if resp.StatusCode != http.StatusFound {
			t.Fatalf("%s: status %d, want the redirect returned", path, resp.StatusCode)
		}
	}
	localhostOrigin := strings.Replace(origin.URL, "127.0.0.1", "localhost", 1)
	for _, direct := range []string{canary.URL + "/", localhostOrigin + "/", strings.Replace(origin.URL, "http://", "https://", 1) + "/"} {
		if _, err := do(direct); err == nil {
			t.Fatalf("a request to another origin was sent")
		}
	}
	canary.mustBeUntouched(t)

	resp, err := do(origin.URL + "/same")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("same-origin redirect: %v", err)
	}
	origin.mu.Lock()
	last := origin.headers[len(origin.headers)-1]
	lastPath := origin.paths[len(origin.paths)-1]
	origin.mu.Unlock()
	if lastPath != "/final" || last.Get("X-Subscription-Token") != "secret-key" || last.Get("User-Agent") != "rypsok/test" {
		t.Fatalf("same-origin redirect reached %s with %v", lastPath, last)
	}
	before := origin.requests()
	resp, err = do(origin.URL + "/loop")
	if err != nil || resp.StatusCode != http.StatusFound {
		t.Fatalf("loop: %v %v", resp, err)
	}
	if n := origin.requests() - before; n != 1+maxEngineRedirects {
		t.Fatalf("a redirect loop made %d requests, want %d", n, 1+maxEngineRedirects)
	}
	for _, h := range origin.headers {
		if h.Get("User-Agent") != "rypsok/test" {
			t.Fatalf("a request carried User-Agent %q", h.Get("User-Agent"))
		}
	}
}

func TestREQ_TEST_015_EngineRequestsUseHTTPS(t *testing.T) {
	cases := []struct {
		url string
		msg string // "" accepted
	}{
		{"https://api.search.example/v1", ""},
		{"https://API.search.example:8443", ""},
		{"https://10.0.0.5/", ""},
		{"http://127.0.0.1:8080/", ""},
		{"http://127.9.9.9/", ""},
		{"http://[::1]:8888", ""},
		{"http://localhost:8080/search", ""},
		{"http://LOCALHOST./", ""},
		{"http://api.search.example/", "plain http is admitted only on a loopback host"},
		{"http://10.0.0.5/", "plain http is admitted only on a loopback host"},
		{"http://127.1/", "plain http is admitted only on a loopback host"},
		{"http://2130706433/", "plain http is admitted only on a loopback host"},
		{"http://[::ffff:127.0.0.1]/", ""},
		{"http://localhost.evil.example/", "plain http is admitted only on a loopback host"},
		{"http://a.localhost/", "plain http is admitted only on a loopback host"},
		{"ftp://api.search.example/", "must be an absolute https URL"},
		{"//api.search.example/", "must be an absolute https URL"},
		{"/v1/search", "must be an absolute https URL"},
		{"https:opaque", "must be an absolute https URL"},
		{"https://", "must be an absolute https URL"},
		{"https://user:key@api.search.example/", "must not carry a user name or password"},
		{"https://api.search.example:0/", "must be an absolute https URL"},
	}
	for _, c := range cases {
		err := CheckEngineBaseURL(mustURL(t, c.url))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.msg {
			t.Errorf("CheckEngineBaseURL(%q) = %q, want %q", c.url, got, c.msg)
		}
		_, err = NewEngineClient(EngineClientOptions{Origin: mustURL(t, c.url), Roots: x509.NewCertPool()})
		if (err == nil) != (c.msg == "") {
			t.Errorf("NewEngineClient(%q) = %v, want accepted %v", c.url, err, c.msg == "")
		}
	}
	if CheckEngineBaseURL(nil) == nil {
		t.Error("CheckEngineBaseURL(nil) accepted")
	}

	srv := newServer(t, true, nil)
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	client, err := NewEngineClient(EngineClientOptions{Origin: mustURL(t, srv.URL), Roots: roots})
	if err != nil {
		t.Fatal(err)
	}
	if _, body, err := get(t, client, srv.URL+"/search"); err != nil || string(body) != "ok" {
		t.Fatalf("https engine: %v", err)
	}
	untrusted, _ := NewEngineClient(EngineClientOptions{Origin: mustURL(t, srv.URL), Roots: x509.NewCertPool()})
	if _, _, err := get(t, untrusted, srv.URL+"/search"); err == nil {
		t.Fatal("an engine certificate from an untrusted root was accepted")
	}
}

// connectProxy is a minimal HTTP CONNECT proxy that tunnels to to and
// counts the tunnels it opened.
func connectProxy(t *testing.T, to string) (*httptest.Server, *atomic.Int64) {
	var tunnels atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		up, err := net.Dial("tcp", to)
		if err != nil {
			http.Error(w, "upstream", http.StatusBadGateway)
			return
		}
		tunnels.Add(1)
		hj, _ := w.(http.Hijacker)
		conn, buf, err := hj.Hijack()
		if err != nil {
			up.Close()
			return
		}
		conn.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
		go func() {
			io.Copy(up, buf)
			up.Close()
		}()
		io.Copy(conn, up)
		conn.Close()
	}))
	t.Cleanup(srv.Close)
	return srv, &tunnels
}

func TestREQ_TEST_015_EnvironmentProxiesAreIgnoredByEngines(t *testing.T) {
	canary := newServer(t, false, nil)
	engine := newServer(t, true, nil)
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
		t.Setenv(k, canary.URL)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	roots := x509.NewCertPool()
	roots.AddCert(engine.Certificate())

	// The engine is reached by name (the test certificate names
	// example.com) through the configured proxy, which the environment
	// would have replaced by the canary.
	origin := mustURL(t, "https://example.com/")
	viaEnv, _ := httpproxy.FromEnvironment().ProxyFunc()(origin)
	if viaEnv == nil || viaEnv.Host != canary.hostPort(t) {
		t.Fatalf("the environment does not name the canary: %v", viaEnv)
	}
	proxy, tunnels := connectProxy(t, engine.hostPort(t))
	client, err := NewEngineClient(EngineClientOptions{Origin: origin, Proxy: mustURL(t, proxy.URL), Roots: roots})
	if err != nil {
		t.Fatal(err)
	}
	if _, body, err := get(t, client, "https://example.com/search"); err != nil || string(body) != "ok" {
		t.Fatalf("through the configured proxy: %v", err)
	}
	if tunnels.Load() != 1 {
		t.Fatalf("the configured proxy opened %d tunnels, want 1", tunnels.Load())
	}

	// Without a configured proxy there is no proxy at all.
	direct, err := NewEngineClient(EngineClientOptions{Origin: origin, Roots: roots})
	if err != nil {
		t.Fatal(err)
	}
	if direct.Transport.(*engineTransport).base.Proxy != nil {
		t.Fatal("an engine client without a configured proxy has a proxy function")
	}
	// A loopback origin never uses the proxy.
	local, _ := NewEngineClient(EngineClientOptions{Origin: mustURL(t, engine.URL), Proxy: mustURL(t, canary.URL), Roots: roots})
	if _, _, err := get(t, local, engine.URL+"/"); err != nil {
		t.Fatalf("loopback engine: %v", err)
	}
	canary.mustBeUntouched(t)

	for _, bad := range []string{"ftp://proxy.example:21", "http://", "file:///tmp/sock"} {
		if _, err := NewEngineClient(EngineClientOptions{Origin: origin, Proxy: mustURL(t, bad), Roots: x509.NewCertPool()}); err == nil {
			t.Errorf("proxy %q accepted", bad)
		}
	}
}

func TestClientsWithoutRootsLoadTheirOwn(t *testing.T) {
	srv := newServer(t, true, nil)
	dir := t.TempDir()
	pemPath := writeFile(t, dir+"/server.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
	t.Setenv("SSL_CERT_DIR", "")
	t.Setenv("SSL_CERT_FILE", pemPath)
	engine, err := NewEngineClient(EngineClientOptions{Origin: mustURL(t, srv.URL)})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := get(t, engine, srv.URL+"/"); err != nil {
		t.Fatalf("engine with the roots of SSL_CERT_FILE: %v", err)
	}
	fetch := NewFetchClient(FetchClientOptions{Policy: &Policy{Allow: []Rule{mustRule(t, "127.0.0.1")}}})
	if _, _, err := get(t, fetch, srv.URL+"/"); err != nil {
		t.Fatalf("fetch with the roots of SSL_CERT_FILE: %v", err)
	}

	t.Setenv("SSL_CERT_FILE", dir+"/missing.pem")
	if _, err := NewEngineClient(EngineClientOptions{Origin: mustURL(t, srv.URL)}); err == nil || !strings.Contains(err.Error(), rootsError) {
		t.Fatalf("engine without roots: %v", err)
	}
	fetch = NewFetchClient(FetchClientOptions{Policy: &Policy{Allow: []Rule{mustRule(t, "127.0.0.1")}}})
	if _, _, err := get(t, fetch, srv.URL+"/"); err == nil {
		t.Fatal("a fetch without any root verified a server")
	}
}
