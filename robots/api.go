// Package robots reads robots.txt as RFC 9309 says and answers whether a
// path may be fetched by rypsok, with a bounded per-origin cache.
//
// It must never fetch on its own: the fetch pipeline gives it a Getter that
// goes through the agent-directed egress profile.
package robots

// STUB FILE: the signatures below are the package's contract with fetch.
// The implementation replaces the bodies.

import (
	"context"
	"net/url"
	"time"
)

// Product is rypsok's product token.
const Product = "rypsok"

// MaxBytes is LIM-F13: the most of a robots.txt that is read.
const MaxBytes = 512 << 10

// TTL is LIM-F12: how long a verdict is kept.
const TTL = 24 * time.Hour

// Robots is a parsed robots.txt.
type Robots struct{ groups []group }

type group struct{}

// Parse reads a robots.txt body (at most MaxBytes are considered).
func Parse(body []byte) *Robots { panic("stub") }

// Allowed reports whether the product may fetch pathQuery (the path and
// query of a URL, as sent), by the longest match; Allow wins a tie.
func (r *Robots) Allowed(product, pathQuery string) bool { panic("stub") }

// Response is one answer of a robots.txt request: the status, the Location
// of a redirect, and the body (already bounded by the Getter).
type Response struct {
	Status   int
	Location string
	Body     []byte
}

// Getter performs one GET without following redirects.
type Getter func(ctx context.Context, u *url.URL) (Response, error)

// Options configure a Checker.
type Options struct {
	Get        Getter
	MaxEntries int              // LIM-F15
	Now        func() time.Time // the clock; tests pass their own
}

// Checker answers for URLs of any origin, reading each origin's robots.txt
// once per TTL: 2xx parsed, 4xx everything allowed, 5xx or unreachable
// everything disallowed, up to 5 redirects followed.
type Checker struct{}

// NewChecker returns a Checker.
func NewChecker(o Options) *Checker { panic("stub") }

// Allowed reports whether rypsok may fetch u.
func (c *Checker) Allowed(ctx context.Context, u *url.URL) (bool, error) { panic("stub") }
