// Package egress decides who rypsok may connect to. It holds the two
// profiles of the external design §8: the engine profile (HTTPS to the
// configured host only) and the agent-directed profile (globally routable
// unicast destinations only, judged on every address actually connected to),
// the HTTP clients that enforce them, the trust roots, and the bounded
// reading of response bodies.
//
// It must never let a caller's input weaken a rule, never use an environment
// proxy, and never connect to an address it has not judged.
package egress

// STUB FILE: the signatures below are the package's contract with config.go,
// search and fetch. The implementation replaces the bodies.

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"rypsok/tool"
)

// Rule is an operator allow or deny rule: a CIDR network, an address, a host
// name, or a subdomain pattern "*.suffix" (which does not match suffix).
type Rule struct {
	prefix netip.Prefix
	host   string
	suffix string
}

// ParseRule reads one rule. The error's text is the sentence a configuration
// message puts after the key, such as "a host pattern must not end with a
// dot"; it never repeats the rule.
func ParseRule(s string) (Rule, error) { panic("stub") }

// Wide reports whether the rule admits a network wider than /16 (IPv4) or
// /32 (IPv6): a check warning for an allow rule.
func (r Rule) Wide() bool { panic("stub") }

// Policy is the agent-directed profile: built-in refusals, then the
// operator's rules in the order deny, allow, built-in.
type Policy struct {
	Allow     []Rule
	Deny      []Rule
	AllowHTTP bool
	Ports     []int // LIM-F8; a host matched by an allow rule may use any port
}

// Denial is a refusal by the agent-directed profile. Reason is the
// detail.reason a caller sees (egress, scheme, credential_in_url,
// secret_in_url); Class names the rule for the operator's log ("loopback",
// "private", "metadata", "name_local", "port", ...), never the host.
type Denial struct {
	Reason tool.Reason
	Class  string
}

func (d *Denial) Error() string { return "egress: refused (" + d.Class + ")" }

// CheckURL judges a URL before any resolution: scheme, port, credentials,
// the form of the host name, and an address literal in any notation.
func (p *Policy) CheckURL(u *url.URL) *Denial { panic("stub") }

// CheckAddr judges one address that host resolved to, at connect time.
func (p *Policy) CheckAddr(host string, a netip.Addr) *Denial { panic("stub") }

// AllowedByRule reports whether an allow rule (and no deny rule) matches the
// host of u; strict mode admits such URLs.
func (p *Policy) AllowedByRule(u *url.URL) bool { panic("stub") }

// Classify names the special-purpose block that a belongs to ("loopback",
// "private", "link_local", "metadata", "nat64", ...), or "" when a is a
// globally routable unicast address. IPv4-mapped addresses are unmapped
// first.
func Classify(a netip.Addr) string { panic("stub") }

// Resolver looks up the addresses of a name; tests pass a stand-in whose
// answers change between calls.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// ErrAllRefused: every address a name resolved to was refused. A fetch
// answers it exactly as an unreachable name (unavailable, network) and logs
// the refusal; errors.As finds the *Denial.
var ErrAllRefused = errors.New("egress: every address of the name was refused")

// FetchClientOptions configure the agent-directed client.
type FetchClientOptions struct {
	Policy         *Policy
	ConnectTimeout time.Duration  // LIM-F6
	Resolver       Resolver       // nil: the Go resolver
	Roots          *x509.CertPool // from LoadRoots; tests pass their own
	UserAgent      string
}

// NewFetchClient returns the client of fetches and robots.txt reads: it
// judges every address it connects to, uses no proxy, keeps no cookies,
// negotiates gzip only, follows no redirect (the caller judges each hop) and
// sends only rypsok's own headers.
func NewFetchClient(o FetchClientOptions) *http.Client { panic("stub") }

// EngineClientOptions configure the client of one engine.
type EngineClientOptions struct {
	Origin         *url.URL // scheme://host[:port] the engine may reach, nothing else
	Proxy          *url.URL // [egress] proxy; nil: none (environment variables are ignored)
	ConnectTimeout time.Duration
	Roots          *x509.CertPool
	UserAgent      string
}

// NewEngineClient returns the client of one engine: requests only to
// Origin, over HTTPS unless Origin is plain HTTP on a loopback host (a
// configured mirror), no cross-origin redirect, so that a credential header
// never reaches another origin.
func NewEngineClient(o EngineClientOptions) (*http.Client, error) { panic("stub") }

// CheckEngineBaseURL judges an operator's base_url: an absolute https URL,
// or http on a loopback host only. The error text follows the key in a
// configuration message.
func CheckEngineBaseURL(u *url.URL) error { panic("stub") }

// LoadRoots reads the trust roots: the operating system's store, or, when
// SSL_CERT_FILE or SSL_CERT_DIR is set, only those. No root at all is an
// error ("the HTTP client could not be built").
func LoadRoots(getenv func(string) string) (*x509.CertPool, error) { panic("stub") }

// ErrTooLarge: a body exceeded its limit.
var ErrTooLarge = errors.New("egress: body exceeds the limit")

// ReadBody reads r to its end, failing with ErrTooLarge as soon as more than
// limit bytes were produced (decompressed bytes, counted as they come).
func ReadBody(r io.Reader, limit int64) ([]byte, error) { panic("stub") }

// UserAgent is rypsok's one User-Agent (REQ-CMP-004):
// rypsok/<version> (+<project URL>; <operator contact>).
func UserAgent(version, contact string) string { panic("stub") }
