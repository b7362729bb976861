package egress

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Resolver looks up the addresses of a name; tests pass a stand-in whose
// answers change between calls. *net.Resolver implements it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// ErrAllRefused: every address a name resolved to was refused. A fetch
// answers it exactly as an unreachable name (unavailable, network) and logs
// the refusal; errors.As finds the *Denial.
var ErrAllRefused = errors.New("egress: every address of the name was refused")

// Defaults of the clients when an option is zero.
const (
	defaultFetchConnectTimeout  = 3000 * time.Millisecond // LIM-F6
	defaultEngineConnectTimeout = 1000 * time.Millisecond // LIM-S12
	// maxResponseHeaderBytes bounds the status line and headers of every
	// response.
	maxResponseHeaderBytes = 64 << 10
	// maxEngineRedirects is the number of same-origin redirects an engine
	// client follows.
	maxEngineRedirects = 3
	// minAttemptTime is the least time one address gets when the connect
	// timeout is shared among several addresses.
	minAttemptTime  = 2 * time.Second
	idleConnTimeout = 90 * time.Second
	fetchAccept     = "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,*/*;q=0.1"
	defaultUA       = "rypsok"
)

// Errors of the clients. None carries a host, an address or a URL.
var (
	errMethod        = errors.New("egress: only GET is allowed for a fetch")
	errRequestBody   = errors.New("egress: a fetch carries no body")
	errNetwork       = errors.New("egress: unsupported network")
	errResolve       = errors.New("egress: the name could not be resolved")
	errOtherOrigin   = errors.New("egress: an engine client reaches only its configured origin")
	errEngineOrigin  = errors.New("egress: the engine origin is missing or invalid")
	errProxyURL      = errors.New("must be an http, https or socks5 URL with a host")
	errBaseAbsolute  = errors.New("must be an absolute https URL")
	errBaseUserinfo  = errors.New("must not carry a user name or password")
	errBasePlainHTTP = errors.New("plain http is admitted only on a loopback host")
)

// FetchClientOptions configure the agent-directed client.
type FetchClientOptions struct {
	Policy         *Policy        // nil: the built-in profile alone
	ConnectTimeout time.Duration  // LIM-F6; zero: 3 s. Also bounds the TLS handshake.
	Resolver       Resolver       // nil: the Go resolver
	Roots          *x509.CertPool // from LoadRoots; nil: LoadRoots(nil), or no root at all when that fails
	UserAgent      string         // empty: "rypsok"
	// PlainHTTP admits an http origin on any host: the operator's own
	// instance on a private network (the searxng driver). Otherwise plain
	// http is admitted on a loopback host only.
	PlainHTTP bool
}

// NewFetchClient returns the client of fetches and robots.txt reads: it
// judges every address it connects to, uses no proxy, keeps no cookies,
// negotiates gzip only, follows no redirect (the caller judges each hop) and
// sends only rypsok's own headers.
//
// Each request is judged by Policy.CheckURL before the network and refused
// unless it is a GET without a body; its headers are replaced by
// User-Agent and Accept (the transport adds Host and Accept-Encoding:
// gzip, and decodes gzip itself). The dialer resolves the name, judges
// every address with Policy.CheckAddr, dials only the admitted ones in
// order within ConnectTimeout, and judges the remote address again in the
// socket's Control hook just before connect. When every address is refused
// the error wraps ErrAllRefused and the *Denial. The Policy is copied: a
// later change to it does not change the client.
func NewFetchClient(o FetchClientOptions) *http.Client {
	p := o.Policy.clone()
	d := &fetchDialer{policy: p, resolver: o.Resolver, timeout: o.ConnectTimeout}
	if d.resolver == nil {
		d.resolver = &net.Resolver{PreferGo: true}
	}
	if d.timeout <= 0 {
		d.timeout = defaultFetchConnectTimeout
	}
	roots := o.Roots
	if roots == nil {
		var err error
		if roots, err = LoadRoots(nil); err != nil {
			roots = x509.NewCertPool() // fail closed: no https fetch verifies
		}
	}
	return newFetchClient(p, d, roots, o.UserAgent)
}

func newFetchClient(p *Policy, d *fetchDialer, roots *x509.CertPool, ua string) *http.Client {
	if ua == "" {
		ua = defaultUA
	}
	base := &http.Transport{
		Proxy:                  nil,
		DialContext:            d.DialContext,
		TLSClientConfig:        &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    d.timeout,
		ForceAttemptHTTP2:      true,
		MaxResponseHeaderBytes: maxResponseHeaderBytes,
		MaxIdleConns:           64,
		IdleConnTimeout:        idleConnTimeout,
	}
	return &http.Client{
		Transport:     &fetchTransport{policy: p, base: base, userAgent: ua},
		CheckRedirect: noRedirect,
	}
}

func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// fetchTransport enforces the request side of the agent-directed profile
// before the network: the URL, the method, no body, only rypsok's headers.
type fetchTransport struct {
	policy    *Policy
	base      *http.Transport
	userAgent string
}

func (t *fetchTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	hasBody := req.Body != nil && req.Body != http.NoBody
	if hasBody {
		req.Body.Close()
	}
	if req.Method != "" && req.Method != http.MethodGet {
		return nil, errMethod
	}
	if hasBody {
		return nil, errRequestBody
	}
	if d := t.policy.CheckURL(req.URL); d != nil {
		return nil, d
	}
	r := req.Clone(req.Context())
	r.Method = http.MethodGet
	r.Header = http.Header{"User-Agent": {t.userAgent}, "Accept": {fetchAccept}}
	r.Host = ""
	r.Body, r.GetBody, r.ContentLength = nil, nil, 0
	r.TransferEncoding, r.Trailer, r.Form, r.PostForm, r.MultipartForm = nil, nil, nil, nil, nil
	return t.base.RoundTrip(r)
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the
// pooled connections.
func (t *fetchTransport) CloseIdleConnections() { t.base.CloseIdleConnections() }

// fetchDialer resolves, judges and connects; dial, when set by a test,
// replaces the final connect (it receives the judged address).
type fetchDialer struct {
	policy   *Policy
	resolver Resolver
	timeout  time.Duration
	dial     func(ctx context.Context, network, address string, control func(string, string, syscall.RawConn) error) (net.Conn, error)
}

// refusal is the error of a dial whose every address was refused.
func refusal(d *Denial) error { return fmt.Errorf("%w: %w", ErrAllRefused, d) }

// cleanError keeps the cause of a failure for errors.Is and errors.As but
// prints only a fixed sentence, since the cause names the host or address.
type cleanError struct {
	msg   string
	cause error
}

func (e *cleanError) Error() string { return e.msg }
func (e *cleanError) Unwrap() error { return e.cause }

// DialContext is the transport's dialer. address is host:port as the
// transport builds it: the URL host in ASCII (brackets removed) and the
// port.
func (d *fetchDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	var ipNetwork string
	switch network {
	case "tcp":
		ipNetwork = "ip"
	case "tcp4":
		ipNetwork = "ip4"
	case "tcp6":
		ipNetwork = "ip6"
	default:
		return nil, errNetwork
	}
	hs, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, refusal(egressDenial(classNameMalformed))
	}
	h, class := parseHost(hs, false)
	if class != "" {
		return nil, refusal(egressDenial(class))
	}
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()

	var addrs []netip.Addr
	hostname := h.name
	if h.isAddr {
		addrs = []netip.Addr{h.addr}
	} else {
		// A name is judged as CheckURL judges it, so that a caller who skips
		// CheckURL still cannot reach localhost or a local suffix.
		name := host{name: h.name}
		if matchAny(d.policy.Deny, name) {
			return nil, refusal(egressDenial(classDenyRule))
		}
		if c := nameClass(h.name); c != "" && !matchAny(d.policy.Allow, name) {
			return nil, refusal(egressDenial(c))
		}
		addrs, err = d.resolver.LookupNetIP(ctx, ipNetwork, h.name)
		if err != nil {
			return nil, &cleanError{errResolve.Error(), err}
		}
		if len(addrs) == 0 {
			return nil, errResolve
		}
	}

	var admitted []netip.Addr
	var first *Denial
	for _, a := range addrs {
		if den := d.policy.CheckAddr(hostname, a); den != nil {
			if first == nil {
				first = den
			}
			continue
		}
		admitted = append(admitted, a.Unmap())
	}
	if len(admitted) == 0 {
		return nil, refusal(first)
	}
	return d.dialInOrder(ctx, network, hostname, port, admitted)
}

// dialInOrder tries each admitted address in turn, sharing the time left
// among the addresses not yet tried.
func (d *fetchDialer) dialInOrder(ctx context.Context, network, hostname, port string, addrs []netip.Addr) (net.Conn, error) {
	control := d.control(hostname)
	var lastErr error
	refusedAll := true
	for i, a := range addrs {
		attemptCtx := ctx
		cancel := func() {}
		if left, ok := remaining(ctx); ok {
			share := left / time.Duration(len(addrs)-i)
			if share < minAttemptTime {
				share = minAttemptTime
			}
			attemptCtx, cancel = context.WithTimeout(ctx, share)
		}
		target := net.JoinHostPort(a.String(), port)
		dial := connect
		if d.dial != nil {
			dial = d.dial
		}
		conn, err := dial(attemptCtx, network, target, control)
		cancel()
		if err == nil {
			return conn, nil
		}
		var den *Denial
		if !errors.As(err, &den) {
			refusedAll = false
		}
		lastErr = err
		if ctx.Err() != nil {
			break
		}
	}
	var den *Denial
	if refusedAll && errors.As(lastErr, &den) {
		return nil, refusal(den)
	}
	return nil, &cleanError{"egress: the connection failed", lastErr}
}

// connect opens a TCP connection to a judged address; control runs on the
// socket just before it connects.
func connect(ctx context.Context, network, address string, control func(string, string, syscall.RawConn) error) (net.Conn, error) {
	nd := net.Dialer{Control: control}
	return nd.DialContext(ctx, network, address)
}

// control judges the remote address of a socket just before it connects:
// the address validated is the address connected to (REQ-SEC-007).
func (d *fetchDialer) control(hostname string) func(network, address string, c syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return egressDenial(classInvalidAddress)
		}
		if den := d.policy.CheckAddr(hostname, ap.Addr()); den != nil {
			return den
		}
		return nil
	}
}

// EngineClientOptions configure the client of one engine.
type EngineClientOptions struct {
	Origin         *url.URL       // scheme://host[:port] the engine may reach, nothing else
	Proxy          *url.URL       // [egress] proxy; nil: none (environment variables are ignored)
	ConnectTimeout time.Duration  // LIM-S12; zero: 1 s. Also bounds the TLS handshake.
	Roots          *x509.CertPool // from LoadRoots; nil: LoadRoots(nil)
	UserAgent      string         // empty: "rypsok"
	// PlainHTTP admits an http origin on any host: the operator's own
	// instance on a private network (the searxng driver). Otherwise plain
	// http is admitted on a loopback host only.
	PlainHTTP bool
}

// origin is the scheme, host and port that an engine client may reach.
type origin struct {
	scheme, host, port string
}

func originOf(u *url.URL) (origin, bool) {
	if u == nil || u.Opaque != "" || u.Host == "" {
		return origin{}, false
	}
	o := origin{
		scheme: strings.ToLower(u.Scheme),
		host:   strings.TrimSuffix(strings.ToLower(u.Hostname()), "."),
		port:   u.Port(),
	}
	if o.host == "" {
		return origin{}, false
	}
	if o.port == "" {
		switch o.scheme {
		case "https":
			o.port = "443"
		case "http":
			o.port = "80"
		default:
			return origin{}, false
		}
	}
	return o, true
}

// NewEngineClient returns the client of one engine: requests only to
// Origin, over HTTPS unless Origin is plain HTTP on a loopback host (a
// configured mirror), no cross-origin redirect, so that a credential header
// never reaches another origin.
//
// A request to any other origin fails before the network; a redirect is
// followed only to the same origin and at most three times, otherwise the
// redirect response itself is returned. The User-Agent is set on every
// request; the driver's other headers are sent as they are. The configured
// Proxy is used for every request except to a loopback origin (a proxy
// cannot reach the operator's loopback); environment proxy variables never
// are. No cookies are kept.
func NewEngineClient(o EngineClientOptions) (*http.Client, error) {
	check := CheckEngineBaseURL
	if o.PlainHTTP {
		check = CheckInstanceURL
	}
	if err := check(o.Origin); err != nil {
		return nil, err
	}
	org, ok := originOf(o.Origin)
	if !ok {
		return nil, errEngineOrigin
	}
	roots := o.Roots
	if roots == nil {
		var err error
		if roots, err = LoadRoots(nil); err != nil {
			return nil, err
		}
	}
	timeout := o.ConnectTimeout
	if timeout <= 0 {
		timeout = defaultEngineConnectTimeout
	}
	ua := o.UserAgent
	if ua == "" {
		ua = defaultUA
	}
	base := &http.Transport{
		Proxy:                  nil,
		DialContext:            (&net.Dialer{Timeout: timeout}).DialContext,
		TLSClientConfig:        &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    timeout,
		ForceAttemptHTTP2:      true,
		MaxResponseHeaderBytes: maxResponseHeaderBytes,
		MaxIdleConns:           16,
		IdleConnTimeout:        idleConnTimeout,
	}
	if o.Proxy != nil && !isLoopbackHost(org.host) {
		switch strings.ToLower(o.Proxy.Scheme) {
		case "http", "https", "socks5", "socks5h":
		default:
			return nil, errProxyURL
		}
		if o.Proxy.Hostname() == "" {
			return nil, errProxyURL
		}
		proxy := *o.Proxy
		base.Proxy = http.ProxyURL(&proxy)
	}
	return &http.Client{
		Transport: &engineTransport{origin: org, base: base, userAgent: ua},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxEngineRedirects {
				return http.ErrUseLastResponse
			}
			if got, ok := originOf(req.URL); !ok || got != org {
				return http.ErrUseLastResponse
			}
			return nil
		},
	}, nil
}

// engineTransport refuses every request outside the engine's origin before
// the network and sets the User-Agent.
type engineTransport struct {
	origin    origin
	base      *http.Transport
	userAgent string
}

func (t *engineTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if got, ok := originOf(req.URL); !ok || got != t.origin {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, errOtherOrigin
	}
	r := req.Clone(req.Context())
	r.Header.Set("User-Agent", t.userAgent)
	r.Host = ""
	return t.base.RoundTrip(r)
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the
// pooled connections.
func (t *engineTransport) CloseIdleConnections() { t.base.CloseIdleConnections() }

// CheckEngineBaseURL judges an operator's base_url: an absolute https URL,
// or http on a loopback host only (127.0.0.0/8, ::1, localhost), without a
// user name or password. The error text follows the key in a configuration
// message and never repeats the URL.
func CheckEngineBaseURL(u *url.URL) error {
	if u == nil || u.Opaque != "" || u.Host == "" || u.Hostname() == "" {
		return errBaseAbsolute
	}
	if u.User != nil {
		return errBaseUserinfo
	}
	if p := u.Port(); p != "" {
		if _, ok := parsePort(p); !ok {
			return errBaseAbsolute
		}
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return nil
	case "http":
		if isLoopbackHost(strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")) {
			return nil
		}
		return errBasePlainHTTP
	}
	return errBaseAbsolute
}

// CheckInstanceURL judges the base URL of an instance the operator runs
// (SearXNG): as CheckEngineBaseURL, except that plain http is admitted on
// any host, since such an instance usually sits on a private network.
func CheckInstanceURL(u *url.URL) error {
	if u != nil && strings.EqualFold(u.Scheme, "http") {
		v := *u
		v.Scheme = "https"
		return CheckEngineBaseURL(&v)
	}
	return CheckEngineBaseURL(u)
}

// IsLoopbackURL reports whether u's host is localhost or a loopback
// address: what check says of a plain-http instance elsewhere.
func IsLoopbackURL(u *url.URL) bool {
	return u != nil && isLoopbackHost(strings.TrimSuffix(strings.ToLower(u.Hostname()), "."))
}

// isLoopbackHost: localhost or a loopback address literal in its standard
// notation.
func isLoopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.Zone() == "" && a.Unmap().IsLoopback()
}
