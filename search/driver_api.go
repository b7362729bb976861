package search

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"rypsok/secrets"
	"rypsok/tool"
)

// This file holds what the API drivers added with the developer, news and
// instance engines share: where a request goes, whose limit it counts
// against, the small readings of answers they have in common, and the
// primary subtag of a language tag, which the service's language check
// uses too.

// apiBase is the origin and path prefix of a driver's requests: the
// engine's base_url (a mirror or a stand-in) when given, else the
// provider's public one.
func apiBase(cfg EngineConfig, public string) (*url.URL, error) {
	if cfg.BaseURL != nil {
		u := *cfg.BaseURL
		u.RawQuery, u.Fragment = "", ""
		u.Path = strings.TrimSuffix(u.Path, "/")
		u.RawPath = ""
		return &u, nil
	}
	return url.Parse(public)
}

// originOf is the scheme and host of u, for the engine client.
func originOf(u *url.URL) *url.URL { return &url.URL{Scheme: u.Scheme, Host: u.Host} }

// limitKeyOf names the limit a request counts against: the provider's
// origin and, with a key, a digest of the key (never the key itself);
// keyless requests count against the process's address.
func limitKeyOf(origin *url.URL, key secrets.Secret) string {
	o := strings.ToLower(origin.Scheme + "://" + origin.Host)
	if key.IsZero() {
		return o + " address"
	}
	sum := sha256.Sum256([]byte(key.Reveal()))
	return o + " key " + hex.EncodeToString(sum[:8])
}

// resultCount is the number of results to ask for: MaxResults within
// 1..max, 10 when unset.
func resultCount(n, max int) int {
	if n < 1 {
		n = 10
	}
	if n > max {
		n = max
	}
	return n
}

// periodStart is the first instant of a time range before now; ok is false
// for no range.
func periodStart(tr tool.TimeRange, now time.Time) (time.Time, bool) {
	switch tr {
	case tool.TimeRangeDay:
		return now.AddDate(0, 0, -1), true
	case tool.TimeRangeWeek:
		return now.AddDate(0, 0, -7), true
	case tool.TimeRangeMonth:
		return now.AddDate(0, -1, 0), true
	case tool.TimeRangeYear:
		return now.AddDate(-1, 0, 0), true
	}
	return time.Time{}, false
}

// unixDate is the UTC date of a Unix time in seconds, "" for none or one
// outside years 1970..9999.
func unixDate(sec int64) string {
	if sec <= 0 || sec > 253402300799 {
		return ""
	}
	return time.Unix(sec, 0).UTC().Format(time.DateOnly)
}

// isoDate is the date of an RFC 3339 or ISO 8601 time ("2026-01-02T..."),
// "" when the text does not start with a valid date.
func isoDate(s string) string {
	if len(s) < 10 {
		return ""
	}
	if _, err := time.Parse(time.DateOnly, s[:10]); err != nil {
		return ""
	}
	return s[:10]
}

// statusClass is the classification of the statuses most APIs share: 429
// a rate limit with the provider's Retry-After, 401 an authentication
// failure, other non-200 statuses a request failure. ok is true for 200.
func statusClass(status int, h http.Header, now time.Time) (*EngineError, bool) {
	switch {
	case status == http.StatusOK:
		return nil, true
	case status == http.StatusTooManyRequests:
		return rateLimited(retryAfter(h, now)), false
	case status == http.StatusUnauthorized:
		return failure(tool.ReasonAuthFailure), false
	}
	return failure(tool.ReasonRequestFailure), false
}

// epochReset reads a reset header given as Unix seconds (GitHub's
// X-RateLimit-Reset): the wait until then, bounded by maxRetryAfter.
func epochReset(v string, now time.Time) time.Duration {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n <= 0 {
		return 0
	}
	d := time.Unix(n, 0).Sub(now)
	if d <= 0 {
		return 0
	}
	if d > maxRetryAfter {
		return maxRetryAfter
	}
	return d
}

// primarySubtag is the language of a tag, lower-cased: "pt-BR" → "pt".
func primarySubtag(tag string) string {
	p, _, _ := strings.Cut(tag, "-")
	return strings.ToLower(p)
}
