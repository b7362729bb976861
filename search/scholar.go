package search

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"rypsok/tool"
)

// Helpers shared by the scholarly drivers (arxiv, crossref, openalex).

// endpointOf is the URL a driver asks: the provider's public endpoint, or
// the operator's base_url (a mirror or a stand-in). A base_url that already
// ends in the endpoint's last path segment is taken as the endpoint itself;
// otherwise the endpoint's path is appended to it, so both
// http://127.0.0.1:8080 and http://127.0.0.1:8080/works name a stand-in of
// /works.
func endpointOf(base *url.URL, public string) *url.URL {
	pub, _ := url.Parse(public)
	if base == nil {
		return pub
	}
	u := *base
	u.RawQuery, u.Fragment, u.RawPath = "", "", ""
	last := pub.Path[strings.LastIndexByte(pub.Path, '/'):]
	if !strings.HasSuffix(strings.TrimRight(u.Path, "/"), last) {
		u.Path = strings.TrimRight(u.Path, "/") + pub.Path
	} else {
		u.Path = strings.TrimRight(u.Path, "/")
	}
	return &u
}

// providerGate spaces the requests of one provider and bounds how many run
// at once, across every engine of this process that reaches it with the
// same identity: providers count per IP or per credential, not per engine.
// The service's bucket and semaphore already apply the record's limits to
// one engine; the gate adds what they cannot see: a second engine of the
// same provider, and limits the provider advertises at run time.
type providerGate struct {
	mu       sync.Mutex
	now      func() time.Time
	floor    time.Duration // the record's spacing: never less
	slotsMax int           // the record's concurrency: never more
	spacing  time.Duration // in force: the floor or what the provider advertises
	slots    int
	inFlight int
	// The next request starts a spacing after the last start and after the
	// last end, with the spacing in force when it asks.
	lastStart, lastEnd time.Time
}

// gateRegistry holds the gates of one search service, so that its engines
// of one provider and identity share a gate while another service (a test,
// an embedding host) keeps its own.
type gateRegistry struct {
	mu    sync.Mutex
	gates map[string]*providerGate
}

// gateFor returns the gate of key (provider type, origin and identity),
// creating it with the record's spacing and concurrency. A nil registry (a
// driver built alone) gives the driver a gate of its own.
func (r *gateRegistry) gateFor(key string, spacing time.Duration, slots int, now func() time.Time) *providerGate {
	if slots < 1 {
		slots = 1
	}
	newGate := func() *providerGate {
		return &providerGate{now: now, floor: spacing, slotsMax: slots, spacing: spacing, slots: slots}
	}
	if r == nil {
		return newGate()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if g, ok := r.gates[key]; ok {
		return g
	}
	if r.gates == nil {
		r.gates = map[string]*providerGate{}
	}
	g := newGate()
	r.gates[key] = g
	return g
}

// enter takes the next turn: it waits for it when the wait ends before
// ctx's deadline, and otherwise reports rate_limited with the wait, marked
// NotSent. The returned func ends the turn.
func (g *providerGate) enter(ctx context.Context) (func(), *EngineError) {
	g.mu.Lock()
	t := g.now()
	if g.inFlight >= g.slots {
		g.mu.Unlock()
		return nil, notSent(g.spacing)
	}
	start := t
	for _, last := range []time.Time{g.lastStart, g.lastEnd} {
		if n := last.Add(g.spacing); n.After(start) {
			start = n
		}
	}
	wait := start.Sub(t)
	if !fitsBefore(ctx, wait) {
		g.mu.Unlock()
		return nil, notSent(wait)
	}
	g.lastStart = start
	g.inFlight++
	g.mu.Unlock()
	release := func() {
		// The spacing also runs from the end of this request, so that a
		// request delayed on its way (a slow handshake) is never followed
		// closer than the spacing at the provider's end.
		g.mu.Lock()
		g.inFlight--
		if n := g.now(); n.After(g.lastEnd) {
			g.lastEnd = n
		}
		g.mu.Unlock()
	}
	if !sleep(ctx, wait) {
		release()
		return nil, notSent(0)
	}
	return release, nil
}

// notSent is the gate's refusal: rate_limited, with nothing sent.
func notSent(wait time.Duration) *EngineError {
	return &EngineError{Class: tool.ReasonRateLimited, RetryAfter: wait, NotSent: true}
}

// advertise applies limits the provider announced: requests per interval
// and a concurrency. Either may be zero (not announced). The record's
// values stay the ceiling; a later announcement replaces an earlier one.
func (g *providerGate) advertise(limit int, interval time.Duration, concurrency int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.spacing = g.floor
	if limit > 0 && interval > 0 {
		if s := interval / time.Duration(limit); s > g.spacing {
			g.spacing = s
		}
	}
	g.slots = g.slotsMax
	if concurrency > 0 && concurrency < g.slots {
		g.slots = concurrency
	}
}

// limits reports the spacing and concurrency in force (for tests and the
// record's live check).
func (g *providerGate) limits() (time.Duration, int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.spacing, g.slots
}

// contactEmail is the operator's e-mail address from the User-Agent built
// from [service] user_agent_contact ("rypsok/1.0 (+https://…; ops@x.org)"),
// or "" when the contact is a URL or absent.
func contactEmail(ua string) string {
	i := strings.LastIndex(ua, "; ")
	if i < 0 || !strings.HasSuffix(ua, ")") {
		return ""
	}
	c := strings.TrimPrefix(ua[i+2:len(ua)-1], "mailto:")
	at := strings.IndexByte(c, '@')
	if at < 1 || at == len(c)-1 || len(c) > 254 || strings.Contains(c, "://") {
		return ""
	}
	for _, r := range c {
		if r <= ' ' || r >= 0x7f || strings.ContainsRune(`"(),;:<>[\]`, r) {
			return ""
		}
	}
	return c
}

// doiURL is https://doi.org/<doi>, percent-encoded as a path, or "" when doi
// is not a DOI (10.<registrant>/<suffix>, printable, at most 300 bytes).
func doiURL(doi string) string {
	doi = strings.TrimSpace(doi)
	for _, p := range []string{"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi:"} {
		if len(doi) >= len(p) && strings.EqualFold(doi[:len(p)], p) {
			doi = doi[len(p):]
			break
		}
	}
	slash := strings.IndexByte(doi, '/')
	if !strings.HasPrefix(doi, "10.") || slash < 4 || slash == len(doi)-1 || len(doi) > 300 || !utf8.ValidString(doi) {
		return ""
	}
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteString("https://doi.org/")
	for i := 0; i < len(doi); i++ {
		c := doi[i]
		switch {
		case c < 0x20 || c == 0x7f:
			return ""
		case unreserved(c) || strings.IndexByte("!$&'()*+,;=:@/", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
		}
	}
	return b.String()
}

// oneLine collapses every run of white space to one space and trims, for
// hard-wrapped titles and abstracts, cutting at max bytes on a rune
// boundary.
func oneLine(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if b.Len() >= max {
			break
		}
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// fromDate is the first day a time range covers, as YYYY-MM-DD on now's
// date; "" for no range.
func fromDate(tr tool.TimeRange, now time.Time) string {
	var from time.Time
	switch tr {
	case tool.TimeRangeDay:
		from = now.AddDate(0, 0, -1)
	case tool.TimeRangeWeek:
		from = now.AddDate(0, 0, -7)
	case tool.TimeRangeMonth:
		from = now.AddDate(0, -1, 0)
	case tool.TimeRangeYear:
		from = now.AddDate(-1, 0, 0)
	default:
		return ""
	}
	return from.UTC().Format("2006-01-02")
}

// datePart formats a date from its parts (year, month, day), as Crossref's
// date-parts give them: YYYY-MM-DD when all three are plausible, else "".
func datePart(parts []int) string {
	if len(parts) < 3 {
		return ""
	}
	y, m, d := parts[0], parts[1], parts[2]
	if y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return ""
	}
	return strconv.Itoa(y) + "-" + twoDigits(m) + "-" + twoDigits(d)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// eachItem decodes every item of a provider's list into T and keeps what
// result turns it into (ok false: the item has no usable result). An item
// of the wrong shape is skipped; a list whose every item is malformed is a
// parse_failure.
func eachItem[T any](items []json.RawMessage, result func(T) (RawResult, bool)) ([]RawResult, error) {
	out := make([]RawResult, 0, len(items))
	bad := 0
	for _, raw := range items {
		var it T
		if err := json.Unmarshal(raw, &it); err != nil {
			bad++
			continue
		}
		if r, ok := result(it); ok {
			out = append(out, r)
		}
	}
	if bad > 0 && bad == len(items) {
		return nil, failure(tool.ReasonParseFailure)
	}
	return out, nil
}

// cutAt cuts s to at most n bytes without splitting a character.
func cutAt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
