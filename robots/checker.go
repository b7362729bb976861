package robots

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"

	"rypsok/egress"
)

// TTL is LIM-F12: how long a verdict is kept.
const TTL = 24 * time.Hour

// DefaultMaxEntries is LIM-F15's default: the origins whose verdict is kept
// when Options.MaxEntries is not positive.
const DefaultMaxEntries = 1000

// maxRedirects is how many consecutive redirects of a robots.txt request
// are followed (RFC 9309 §2.3.1.2); one more makes the file unreachable.
const maxRedirects = 5

// Response is one answer of a robots.txt request: the status, the Location
// of a redirect, and the body (already bounded by the Getter).
type Response struct {
	Status   int
	Location string
	Body     []byte
}

// Getter performs one GET without following redirects. It should read at
// least MaxBytes of the body (more is ignored). An error means the file
// could not be reached, and a 2xx body that could not be read to its end
// (or to MaxBytes) must be an error, never a shorter Body; Get does all
// this with the pipeline's HTTP client. Every error disallows everything
// for the origin; when the context passed in has ended, the Checker
// reports the context's error instead and keeps nothing.
type Getter func(ctx context.Context, u *url.URL) (Response, error)

// Options configure a Checker.
type Options struct {
	Get        Getter           // nil: every origin is unreachable (everything disallowed)
	MaxEntries int              // LIM-F15; not positive: DefaultMaxEntries
	Now        func() time.Time // the clock; tests pass their own; nil: time.Now

	// MaxKeptBytes bounds the estimated memory of the kept verdicts, all
	// origins together: the least recently used are evicted beyond it (the
	// newest is always kept). Not positive: only MaxEntries bounds the
	// cache. One origin's verdict can reach about 1.7 MB (a 512 KiB file
	// of short rules), so MaxEntries alone allows MaxEntries times that.
	MaxKeptBytes int
}

// Checker answers for URLs of any origin, reading each origin's robots.txt
// once per TTL: 2xx parsed, 4xx everything allowed, 5xx or unreachable
// everything disallowed, up to 5 redirects followed. Concurrent questions
// about one origin share one read. A Checker is safe for concurrent use;
// build it with NewChecker.
//
// The status table follows RFC 9309 §2.3.1: every 4xx status, 429
// included, is "unavailable" and allows everything (§2.3.1.3 names the
// whole 400-499 range); 5xx, a network error (the connection refused, or
// closed or reset after it was established: before the status line or in
// a 2xx body cut short), more than 5 redirects, a redirect without a
// usable Location, and any other status (1xx, 3xx other than 301, 302,
// 303, 307 and 308) are "unreachable" and disallow everything (§2.3.1.4).
// §2.3.1.2 lets a crawler treat more than 5 redirects as "unavailable";
// rypsok takes the stricter "unreachable".
// Every verdict is kept for TTL, the disallowing ones too; an ended
// context is returned as an error and nothing is kept.
type Checker struct {
	get        Getter
	now        func() time.Time
	maxEntries int
	maxKept    int // MaxKeptBytes; 0: no bound

	mu       sync.Mutex
	kept     int                      // estimated bytes of the kept entries
	order    *list.List               // of *entry, most recently used first
	byOrigin map[string]*list.Element // origin -> element of order
	inflight map[string]*read         // origin -> the read under way
}

type verdictKind uint8

const (
	disallowAll verdictKind = iota // the zero verdict denies
	allowAll
	byRules
)

// verdict is what is kept of an origin: the kind of answer and, for a
// parsed file, only the rules that answer for Product.
type verdict struct {
	kind  verdictKind
	rules []rule
}

func verdictOf(r *Robots) verdict {
	rules := r.rulesFor(Product)
	if len(rules) == 0 {
		return verdict{kind: allowAll}
	}
	return verdict{kind: byRules, rules: rules}
}

func (v verdict) allowed(pathQuery string) bool {
	if v.kind == allowAll {
		return true
	}
	path, always := canonicalRequest(pathQuery)
	if always || v.kind == disallowAll {
		return always
	}
	_, allow := bestMatch(v.rules, path, -1, true)
	return allow
}

type entry struct {
	origin  string
	v       verdict
	expires time.Time
	size    int // estimated bytes held by the entry
}

// entryOverheadBytes estimates an entry's cost besides its origin and rules:
// the entry, its list element and its map slot.
const entryOverheadBytes = 160

// ruleBytes is the size of a rule besides its text (a test checks it).
const ruleBytes = 32

func (e *entry) estimateSize() int {
	n := entryOverheadBytes + len(e.origin) + len(e.v.rules)*ruleBytes
	for i := range e.v.rules {
		n += (len(e.v.rules[i].text) + 7) &^ 7 // allocations come in multiples of 8
	}
	return n
}

// read is one robots.txt read that other callers may wait for.
type read struct {
	done    chan struct{}
	v       verdict
	err     error
	waiters int // callers waiting for it; guarded by Checker.mu
}

// NewChecker returns a Checker.
func NewChecker(o Options) *Checker {
	c := &Checker{
		get:        o.Get,
		now:        o.Now,
		maxEntries: o.MaxEntries,
		maxKept:    max(o.MaxKeptBytes, 0),
		order:      list.New(),
		byOrigin:   make(map[string]*list.Element),
		inflight:   make(map[string]*read),
	}
	c.now = clockOr(c.now)
	if c.maxEntries <= 0 {
		c.maxEntries = DefaultMaxEntries
	}
	return c
}

// Allowed reports whether rypsok may fetch u, an absolute http or https
// URL. The error is non-nil only for such a URL's absence and when ctx
// ends before the verdict is known; then the answer is false and nothing
// is cached.
func (c *Checker) Allowed(ctx context.Context, u *url.URL) (bool, error) {
	origin, robotsURL, err := originOf(u)
	if err != nil {
		return false, err
	}
	pathQuery := u.EscapedPath()
	if u.RawQuery != "" || u.ForceQuery {
		pathQuery += "?" + u.RawQuery
	}
	v, err := c.verdictFor(ctx, origin, robotsURL)
	if err != nil {
		return false, err
	}
	return v.allowed(pathQuery), nil
}

// originOf returns the cache key scheme://host:port of u, with the host
// lower-cased, without its root dot and the port made explicit, and the
// URL of its robots.txt (no user information, query or fragment).
func originOf(u *url.URL) (string, *url.URL, error) {
	if u == nil {
		return "", nil, errors.New("robots: no URL")
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", nil, errors.New("robots: the URL is not http or https")
	}
	if u.Hostname() == "" {
		return "", nil, errors.New("robots: the URL has no host")
	}
	// egress's canonical form: one origin, one entry, one read, however
	// the host is written (case, root dot, IDNA, IPv4 notations).
	host, ok := egress.CanonicalHost(u.Hostname())
	if !ok {
		return "", nil, errors.New("robots: the URL's host is malformed")
	}
	port := u.Port()
	if port == "" {
		port = "443"
		if scheme == "http" {
			port = "80"
		}
	}
	origin := scheme + "://" + net.JoinHostPort(host, port)
	robotsHost := host
	if strings.IndexByte(host, ':') >= 0 {
		robotsHost = "[" + host + "]"
	}
	if p := u.Port(); p != "" && origin != scheme+"://"+net.JoinHostPort(host, defaultPort(scheme)) {
		robotsHost += ":" + p
	}
	return origin, &url.URL{Scheme: scheme, Host: robotsHost, Path: "/robots.txt"}, nil
}

// verdictFor returns the origin's verdict from the cache, from a read under
// way, or from a new read.
func (c *Checker) verdictFor(ctx context.Context, origin string, robotsURL *url.URL) (verdict, error) {
	for {
		if err := ctx.Err(); err != nil {
			return verdict{}, contextError(err)
		}
		c.mu.Lock()
		if v, ok := c.lookup(origin); ok {
			c.mu.Unlock()
			return v, nil
		}
		if r, ok := c.inflight[origin]; ok {
			r.waiters++
			c.mu.Unlock()
			select {
			case <-r.done:
			case <-ctx.Done():
				return verdict{}, contextError(ctx.Err())
			}
			if r.err == nil {
				return r.v, nil
			}
			continue // the reader's context ended; read again with ours
		}
		r := &read{done: make(chan struct{})}
		c.inflight[origin] = r
		c.mu.Unlock()
		c.lead(ctx, origin, robotsURL, r)
		return r.v, r.err
	}
}

// lead performs the read r for origin, keeps its verdict unless it failed,
// and wakes the callers waiting for it, even if the Getter panics.
func (c *Checker) lead(ctx context.Context, origin string, robotsURL *url.URL, r *read) {
	r.err = errors.New("robots: the robots.txt read was abandoned")
	defer func() {
		c.mu.Lock()
		delete(c.inflight, origin)
		if r.err == nil {
			c.store(origin, r.v)
		}
		c.mu.Unlock()
		close(r.done)
	}()
	r.v, r.err = c.fetch(ctx, robotsURL)
}

// fetch reads robots.txt at u, following up to maxRedirects redirects, and
// turns the answer into a verdict for the initial origin.
func (c *Checker) fetch(ctx context.Context, u *url.URL) (verdict, error) {
	if c.get == nil {
		return verdict{kind: disallowAll}, nil
	}
	for redirects := 0; ; redirects++ {
		if err := ctx.Err(); err != nil {
			return verdict{}, contextError(err)
		}
		resp, err := c.get(ctx, u)
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return verdict{}, contextError(ctxErr)
			}
			return verdict{kind: disallowAll}, nil
		}
		switch s := resp.Status; {
		case 200 <= s && s <= 299:
			return verdictOf(Parse(resp.Body)), nil
		case 400 <= s && s <= 499:
			return verdict{kind: allowAll}, nil
		case s == 301 || s == 302 || s == 303 || s == 307 || s == 308:
			if redirects == maxRedirects {
				return verdict{kind: disallowAll}, nil
			}
			next, ok := redirectTarget(u, resp.Location)
			if !ok {
				return verdict{kind: disallowAll}, nil
			}
			u = next
		default:
			return verdict{kind: disallowAll}, nil
		}
	}
}

// redirectTarget resolves a Location against the URL that answered it, as
// every redirect is read (egress.ResolveRedirect); user information is
// dropped.
func redirectTarget(base *url.URL, location string) (*url.URL, bool) {
	next, err := egress.ResolveRedirect(base, location)
	if err != nil {
		return nil, false
	}
	next.User = nil
	return next, true
}

func contextError(err error) error {
	return fmt.Errorf("robots: %w", err)
}

// lookup returns the origin's live verdict and marks it recently used; an
// expired one is removed. c.mu is held.
func (c *Checker) lookup(origin string) (verdict, bool) {
	el, ok := c.byOrigin[origin]
	if !ok {
		return verdict{}, false
	}
	e := el.Value.(*entry)
	if !c.now().Before(e.expires) {
		c.remove(el)
		return verdict{}, false
	}
	c.order.MoveToFront(el)
	return e.v, true
}

// store keeps the origin's verdict for TTL, evicting the least recently
// used origins beyond maxEntries or maxKept. c.mu is held.
func (c *Checker) store(origin string, v verdict) {
	if el, ok := c.byOrigin[origin]; ok {
		c.remove(el)
	}
	e := &entry{origin: origin, v: v, expires: c.now().Add(TTL)}
	e.size = e.estimateSize()
	c.byOrigin[origin] = c.order.PushFront(e)
	c.kept += e.size
	for c.order.Len() > 1 && (c.order.Len() > c.maxEntries || c.maxKept > 0 && c.kept > c.maxKept) {
		c.remove(c.order.Back())
	}
}

// remove forgets one entry. c.mu is held.
func (c *Checker) remove(el *list.Element) {
	e := c.order.Remove(el).(*entry)
	delete(c.byOrigin, e.origin)
	c.kept -= e.size
}

func defaultPort(scheme string) string {
	if scheme == "http" {
		return "80"
	}
	return "443"
}
