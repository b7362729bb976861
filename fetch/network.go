package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"rypsok/egress"
	"rypsok/robots"
	"rypsok/tool"
)

// maxRetryAfterSeconds is the longest Retry-After passed on to the caller
// (REQ-FETCH-011: at most an hour).
const maxRetryAfterSeconds = 3600

// hop is one request of a call: the URL requested, the text the response
// reports for it, and whether it is the https upgrade of an http URL.
type hop struct {
	u        *url.URL
	text     string
	upgraded bool
}

// response is what one request answered: a 2xx carries its body (at most
// LIM-F3 bytes), a redirect its Location; no other body is ever read.
type response struct {
	hop          hop
	status       int
	location     string
	contentType  string
	retryAfterMs int64
	body         []byte
}

func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// retrieve requests h and follows redirects (REQ-FETCH-006, REQ-SEC-008)
// until a response that is not a redirect: a 2xx is returned, a 4xx or 5xx
// ends the call with http_status (logged as fetched, with the latency since
// start).
func (s *Service) retrieve(ctx, netCtx context.Context, h hop, start time.Time) (*response, *tool.Error) {
	for followed := 0; ; {
		got, terr := s.exchange(ctx, netCtx, h)
		if terr != nil {
			return nil, terr
		}
		switch {
		case got.status >= 200 && got.status <= 299:
			return got, nil
		case got.status >= 400 && got.status <= 599:
			s.logFetched(ctx, got, start, kindUnsupported)
			return nil, tool.HTTPStatus(got.status, got.retryAfterMs)
		case !isRedirect(got.status):
			return nil, tool.Network()
		}
		next, terr := s.redirectTarget(ctx, h, got.location)
		if terr != nil {
			return nil, terr
		}
		if !sameHost(h.u, next.u) && !s.set.FollowCrossHostRedirects {
			return nil, tool.Redirected(next.text)
		}
		// Too many redirects has no reason of its own in the book: the
		// page could not be reached.
		if followed == s.set.MaxRedirects {
			return nil, tool.Network()
		}
		followed++
		h = next
	}
}

// redirectTarget judges a Location (REQ-SEC-008): resolved against the
// current URL by egress.ResolveRedirect (a scheme other than http or https
// is denied with scheme; a Location that is no URL with a host, or longer
// than LIM-F9, is unusable: network), upgraded to https unless plain HTTP
// is allowed, and admitted by the egress policy exactly as a first URL is
// (else denied egress, without the target).
func (s *Service) redirectTarget(ctx context.Context, cur hop, location string) (hop, *tool.Error) {
	u, err := egress.ResolveRedirect(cur.u, location)
	switch {
	case errors.Is(err, egress.ErrRedirectScheme):
		return hop{}, tool.Denied(tool.ReasonScheme)
	case err != nil:
		return hop{}, tool.Network()
	}
	canonicalize(u)
	next := hop{u: u}
	if up, ok := s.upgrade(u); ok {
		next = hop{u: up, upgraded: true}
	}
	next.text = next.u.String()
	if utf8.RuneCountInString(next.text) > tool.MaxURLChars {
		return hop{}, tool.Network()
	}
	if d := s.set.Policy.CheckURL(next.u); d != nil {
		s.logRefused(ctx, d)
		return hop{}, tool.Denied(tool.ReasonEgress)
	}
	return next, nil
}

// hostKey names the host of u for the per-host limit (LIM-C4) and the
// same-host rule: egress's canonical form, so that writing a host
// differently never gives it a second slot. A host without one was refused
// by the policy before any request; it keys as written.
func hostKey(u *url.URL) string {
	if h, ok := egress.CanonicalHost(u.Hostname()); ok {
		return h
	}
	return u.Hostname()
}

// schemePort is the scheme and the effective port of u.
func schemePort(u *url.URL) (string, string) {
	p := u.Port()
	if p == "" {
		p = "443"
		if u.Scheme == "http" {
			p = "80"
		}
	}
	return u.Scheme, p
}

// sameHost reports whether next is on the host of cur: the same host name,
// and the same scheme and port except for the upgrade from http on port 80
// to https on port 443.
func sameHost(cur, next *url.URL) bool {
	if hostKey(cur) != hostKey(next) {
		return false
	}
	cs, cp := schemePort(cur)
	ns, np := schemePort(next)
	return cs == ns && cp == np || cs == "http" && cp == "80" && ns == "https" && np == "443"
}

// exchange performs one hop under the concurrency limits (REQ-SEC-012):
// the host's turn (LIM-C4), then a process permit (LIM-C3), both held until
// the body is read; robots.txt for the hop's URL (REQ-CMP-005); the GET.
func (s *Service) exchange(ctx, netCtx context.Context, h hop) (*response, *tool.Error) {
	host := hostKey(h.u)
	if !s.hosts.acquire(netCtx, host) {
		return nil, ended(ctx, tool.Busy())
	}
	defer s.hosts.release(host)
	if !s.fetches.Acquire(netCtx) {
		return nil, ended(ctx, tool.Busy())
	}
	defer s.fetches.Release()

	if !s.set.IgnoreRobotsTxt {
		if terr := s.checkRobots(ctx, netCtx, h); terr != nil {
			return nil, terr
		}
	}

	req, err := http.NewRequestWithContext(netCtx, http.MethodGet, h.u.String(), nil)
	if err != nil {
		return nil, tool.Network()
	}
	resp, err := s.send(req)
	if err != nil {
		return nil, s.transportError(ctx, netCtx, err, h)
	}
	defer resp.Body.Close()
	got := &response{hop: h, status: resp.StatusCode}
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
		got.contentType = resp.Header.Get("Content-Type")
		got.body, err = egress.ReadBody(resp.Body, s.set.MaxBytes)
		if errors.Is(err, egress.ErrTooLarge) {
			return nil, tool.TooLarge(s.set.MaxBytes)
		}
		if err != nil {
			if netCtx.Err() != nil {
				return nil, ended(ctx, tool.FetchDeadline())
			}
			return nil, tool.Network()
		}
		// A read that ended once the deadline had passed may have been
		// ended by it (a cancelled HTTP/2 stream can read as a clean end):
		// such a body is not known to be whole.
		if netCtx.Err() != nil {
			return nil, ended(ctx, tool.FetchDeadline())
		}
	case isRedirect(resp.StatusCode):
		got.location = resp.Header.Get("Location")
	default:
		got.retryAfterMs = retryAfterMs(resp.Header.Get("Retry-After"))
	}
	return got, nil
}

// retryAfterMs reads a Retry-After that is a number of seconds from 0 to
// an hour; a date or anything else is ignored (0).
func retryAfterMs(v string) int64 {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > 4 {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > maxRetryAfterSeconds || v[0] == '+' || v[0] == '-' {
		return 0
	}
	return int64(n) * int64(time.Second/time.Millisecond)
}

// transportError answers a request that got no response: the deadline,
// a refusal of every address (logged, and answered as an unreachable name),
// or a network failure; a failed https upgrade is denied with scheme.
func (s *Service) transportError(ctx, netCtx context.Context, err error, h hop) *tool.Error {
	if netCtx.Err() != nil {
		return ended(ctx, tool.FetchDeadline())
	}
	var d *egress.Denial
	refusedAll := errors.Is(err, egress.ErrAllRefused)
	if errors.As(err, &d) {
		s.logRefused(ctx, d)
		if !refusedAll {
			return tool.Denied(d.Reason)
		}
	}
	if h.upgraded {
		return tool.DeniedSchemeRetry()
	}
	return tool.Network()
}

// checkRobots asks the robots.txt cache about the hop's URL. A robots.txt
// that could not be read for a network reason ends the call as the page
// itself would (network, deadline, or the failed upgrade) and is not
// cached as a verdict: the page is not requested either way.
func (s *Service) checkRobots(ctx, netCtx context.Context, h hop) *tool.Error {
	rctx, cancel := context.WithCancel(netCtx)
	defer cancel()
	p := &robotsProbe{cancel: cancel}
	allowed, err := s.robots.Allowed(context.WithValue(rctx, probeKey{}, p), h.u)
	if err != nil {
		if perr := p.failure(); perr != nil {
			return s.transportError(ctx, netCtx, perr, h)
		}
		if netCtx.Err() != nil {
			return ended(ctx, tool.FetchDeadline())
		}
		return tool.Network()
	}
	if !allowed {
		return tool.Denied(tool.ReasonRobotsTxt)
	}
	return nil
}

// probeKey carries a call's *robotsProbe to the robots.txt Getter.
type probeKey struct{}

// robotsProbe records the network failure of a call's robots.txt read and
// ends the read's context, so that the Checker returns an error and keeps
// no verdict.
type robotsProbe struct {
	cancel context.CancelFunc
	mu     sync.Mutex
	err    error
}

func (p *robotsProbe) fail(err error) {
	p.mu.Lock()
	if p.err == nil {
		p.err = err
	}
	p.mu.Unlock()
	p.cancel()
}

func (p *robotsProbe) failure() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// getRobots is the Checker's Getter: robots.Get through the fetch client's
// transport (so the egress profile judges it, no redirect followed). A read
// that never got a connection is the site's network failure: the probe ends
// the read, the call answers as the page would and nothing is kept. A
// refusal by the policy, and any failure after the connection was
// established (closed or reset before a status line, a response cut
// short), is left to the Checker: unreachable, everything disallowed
// (RFC 9309 §2.3.1.4, REQ-CMP-005), so the page is never requested.
func (s *Service) getRobots(ctx context.Context, u *url.URL) (robots.Response, error) {
	resp, err := robots.Get(ctx, s.send, u)
	if err == nil || ctx.Err() != nil {
		return resp, err
	}
	var re *robots.ReadError
	var d *egress.Denial
	policyRefusal := errors.As(err, &d) && !errors.Is(err, egress.ErrAllRefused)
	if p, _ := ctx.Value(probeKey{}).(*robotsProbe); p != nil && !policyRefusal && errors.As(err, &re) && !re.Connected {
		p.fail(err)
	}
	return resp, err
}

// send performs one request through the fetch client's transport. The
// client never follows a redirect, and http.Client.Do would parse the
// Location header itself before asking whether to follow it, turning a
// Location it cannot parse (a host with percent escapes, which a browser
// decodes) into an error of its own; every Location is read by
// egress.ResolveRedirect instead.
func (s *Service) send(req *http.Request) (*http.Response, error) {
	return s.client.Transport.RoundTrip(req)
}

// canonicalize writes u's host in egress's canonical form, keeping the port
// as written: the host a browser's URL parser would request, connect to and
// verify the certificate of (127.1 is 127.0.0.1, EXAMPLE.com. is
// example.com). A host without a canonical form is left for the policy to
// refuse.
func canonicalize(u *url.URL) {
	h, ok := egress.CanonicalHost(u.Hostname())
	if !ok {
		return
	}
	if strings.IndexByte(h, ':') >= 0 {
		h = "[" + h + "]"
	}
	if p := u.Port(); p != "" {
		h += ":" + p
	}
	u.Host = h
}

// upgrade returns the https form of an http URL when plain HTTP is not
// allowed (REQ-FETCH-010): the scheme changes and an explicit port 80 is
// dropped; another explicit port is kept.
func (s *Service) upgrade(u *url.URL) (*url.URL, bool) {
	if u.Scheme != "http" || s.set.Policy.AllowHTTP {
		return u, false
	}
	up := *u
	up.Scheme = "https"
	if up.Port() == "80" {
		up.Host = strings.TrimSuffix(up.Host, ":80")
	}
	return &up, true
}

// ended is the answer of a wait that ended: when the caller cancelled, a
// network error (discarded anyway), otherwise the given answer.
func ended(ctx context.Context, answer *tool.Error) *tool.Error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return tool.Network()
	}
	return answer
}

// logRefused records a refusal of the egress policy: the reason and the
// denial's class, never the host.
func (s *Service) logRefused(ctx context.Context, d *egress.Denial) {
	s.log.WarnContext(ctx, "refused", "tool", tool.ToolWebFetch, "reason", string(d.Reason), "class", d.Class)
}

// logFetched records the end of the network part of a call: the host (it
// passed the egress policy), the status, the bytes read, the latency and
// the media kind; never the path, query or content.
func (s *Service) logFetched(ctx context.Context, got *response, start time.Time, kind mediaKind) {
	attrs := []any{"host", got.hop.u.Hostname(), "status", got.status, "bytes", len(got.body),
		"latency_ms", s.now().Sub(start).Milliseconds()}
	if got.status >= 200 && got.status <= 299 {
		attrs = append(attrs, "media", kind.String())
	}
	s.log.InfoContext(ctx, "fetched", attrs...)
}
