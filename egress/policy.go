package egress

import (
	"net/netip"
	"net/url"
	"strings"

	"rypsok/tool"
)

// Policy is the agent-directed profile: built-in refusals, then the
// operator's rules in the order deny, allow, built-in. A deny rule refuses
// even what an allow rule admits; an allow rule admits a destination the
// built-in table refuses, on any port. The zero Policy is the built-in
// profile alone: https on its default port.
type Policy struct {
	Allow     []Rule
	Deny      []Rule
	AllowHTTP bool
	Ports     []int // LIM-F8; a host matched by an allow rule may use any port
}

// Denial is a refusal by the agent-directed profile. Reason is the
// detail.reason a caller sees (egress, scheme, credential_in_url,
// secret_in_url); Class names the rule for the operator's log, never the
// host. The classes are fixed words:
//
//   - an address block of Classify: unspecified, loopback, private, cgnat,
//     link_local, metadata, ietf_protocol, anycast_service, documentation,
//     benchmarking, multicast, reserved, broadcast, as112, amt, 6to4,
//     6to4_relay, teredo, nat64, discard, dummy, orchid, drone_det, srv6,
//     unique_local, site_local, ipv4_compatible, ipv4_translated,
//     not_global_unicast, invalid;
//   - the form of the host: zone, address_malformed, name_empty,
//     name_malformed, name_localhost, name_single_label, name_local;
//   - the rest of the URL: port, scheme, userinfo, userinfo_password,
//     url_invalid; and deny_rule for an operator's deny rule.
type Denial struct {
	Reason tool.Reason
	Class  string
}

// Error returns "egress: refused (<class>)": no host, no address.
func (d *Denial) Error() string { return "egress: refused (" + d.Class + ")" }

func egressDenial(class string) *Denial {
	return &Denial{Reason: tool.ReasonEgress, Class: class}
}

// clone copies p so that a caller who changes its slices later cannot change
// a client built from it.
func (p *Policy) clone() *Policy {
	if p == nil {
		return &Policy{}
	}
	return &Policy{
		Allow:     append([]Rule(nil), p.Allow...),
		Deny:      append([]Rule(nil), p.Deny...),
		AllowHTTP: p.AllowHTTP,
		Ports:     append([]int(nil), p.Ports...),
	}
}

func matchAny(rules []Rule, h host) bool {
	for _, r := range rules {
		if h.isAddr && r.matchAddr(h.addr) || !h.isAddr && r.matchName(h.name) {
			return true
		}
	}
	return false
}

// CheckURL judges a URL before any resolution, in this order: credentials
// in the userinfo (secret_in_url for a non-empty password,
// credential_in_url for any other userinfo), the scheme (https; http only when AllowHTTP), the form of
// the host (empty, malformed, zone: refused before any rule), deny rules,
// allow rules (which admit any port), the built-in refusals of names and
// addresses, and the port (the scheme's default or one of Ports).
//
// A host is read as a browser's URL parser and a resolver would read it:
// lower-cased, internationalized names mapped to ASCII with the IDNA lookup
// profile (so full-width digits and dots are plain ones), one root dot
// removed, and a host whose last label is a number read as an IPv4 address
// in the WHATWG notations (127.1, 2130706433, 0x7f.1, 0177.0.0.1, ...) or
// refused as malformed. Such an address is judged as the address it
// denotes; the fetch client dials that address too, so a public address in
// an odd notation is admitted and connected to as its canonical form.
func (p *Policy) CheckURL(u *url.URL) *Denial {
	if p == nil {
		p = &Policy{}
	}
	if u == nil {
		return egressDenial(classURLInvalid)
	}
	if u.User != nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			return &Denial{Reason: tool.ReasonSecretInURL, Class: classUserinfoPass}
		}
		return &Denial{Reason: tool.ReasonCredentialInURL, Class: classUserinfo}
	}
	scheme := strings.ToLower(u.Scheme)
	defaultPort := 443
	switch {
	case scheme == "https":
	case scheme == "http" && p.AllowHTTP:
		defaultPort = 80
	default:
		return &Denial{Reason: tool.ReasonScheme, Class: classScheme}
	}
	if u.Opaque != "" {
		return egressDenial(classURLInvalid)
	}
	hs, bracketed, portText, ok := splitHostPort(u.Host)
	if !ok {
		return egressDenial(classNameMalformed)
	}
	port, ok := parsePort(portText)
	if !ok {
		return egressDenial(classPort)
	}
	h, class := parseHost(hs, bracketed)
	if class != "" {
		return egressDenial(class)
	}
	if matchAny(p.Deny, h) {
		return egressDenial(classDenyRule)
	}
	if matchAny(p.Allow, h) {
		return nil
	}
	if h.isAddr {
		class = Classify(h.addr)
	} else {
		class = nameClass(h.name)
	}
	if class != "" {
		return egressDenial(class)
	}
	if port != 0 && port != defaultPort && !p.portListed(port) {
		return egressDenial(classPort)
	}
	return nil
}

func (p *Policy) portListed(port int) bool {
	for _, q := range p.Ports {
		if q == port {
			return true
		}
	}
	return false
}

// CheckAddr judges one address that host resolved to, at connect time:
// deny rules (matching the name or the address), allow rules (likewise),
// then Classify. An address with a zone is refused whatever the rules say.
// hostname may be empty when only the address is known.
func (p *Policy) CheckAddr(hostname string, a netip.Addr) *Denial {
	if p == nil {
		p = &Policy{}
	}
	if !a.IsValid() {
		return egressDenial(classInvalidAddress)
	}
	if a.Zone() != "" {
		return egressDenial(classZone)
	}
	a = a.Unmap()
	name := strings.TrimSuffix(strings.ToLower(hostname), ".")
	byAddr := host{addr: a, isAddr: true}
	byName := host{name: name}
	if matchAny(p.Deny, byAddr) || matchAny(p.Deny, byName) {
		return egressDenial(classDenyRule)
	}
	if matchAny(p.Allow, byAddr) || matchAny(p.Allow, byName) {
		return nil
	}
	if class := Classify(a); class != "" {
		return egressDenial(class)
	}
	return nil
}

// AllowedByRule reports whether an allow rule (and no deny rule) matches the
// host of u; strict mode admits such URLs. A malformed host matches no
// rule.
func (p *Policy) AllowedByRule(u *url.URL) bool {
	if p == nil || u == nil || len(p.Allow) == 0 {
		return false
	}
	hs, bracketed, _, ok := splitHostPort(u.Host)
	if !ok {
		return false
	}
	h, class := parseHost(hs, bracketed)
	if class != "" {
		return false
	}
	return !matchAny(p.Deny, h) && matchAny(p.Allow, h)
}
