package egress

import (
	"errors"
	"net/netip"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Rule is an operator allow or deny rule: a CIDR network, an address, a host
// name, or a subdomain pattern "*.suffix" (which does not match suffix).
// The zero Rule matches nothing.
type Rule struct {
	prefix netip.Prefix
	host   string
	suffix string
}

// The errors of ParseRule. Each is the sentence a configuration message
// puts after the key; none repeats the rule.
var (
	errRuleEmpty      = errors.New("a rule must not be empty")
	errRuleSpace      = errors.New("a rule must not contain spaces or control characters")
	errRuleScheme     = errors.New("a rule must not have a scheme")
	errRuleUserinfo   = errors.New("a rule must not have a user name")
	errRulePort       = errors.New("a rule must not have a port")
	errRulePath       = errors.New("a rule must not have a path")
	errRuleNetwork    = errors.New("a network must be an address, a slash and a prefix length")
	errRuleBrackets   = errors.New("an IPv6 address is written without brackets")
	errRuleZone       = errors.New("an address must not have a zone")
	errRuleIPv6       = errors.New("an IPv6 address must be valid")
	errRuleIPv4       = errors.New("an IPv4 address must be four decimal numbers from 0 to 255 without leading zeros")
	errRuleWildcard   = errors.New(`a wildcard is allowed only as a leading "*."`)
	errRuleTrailDot   = errors.New("a host pattern must not end with a dot")
	errRuleLeadDot    = errors.New("a host pattern must not start with a dot")
	errRuleEmptyLabel = errors.New("a host pattern must not have an empty label")
	errRuleChars      = errors.New("a host pattern may contain only letters, digits, hyphens, underscores and dots")
	errRuleIDN        = errors.New("a host pattern must be a valid internationalized host name")
	errRuleLong       = errors.New("a host pattern must have at most 253 characters and labels of at most 63")
)

// ParseRule reads one rule. The error's text is the sentence a configuration
// message puts after the key, such as "a host pattern must not end with a
// dot"; it never repeats the rule.
//
// Networks are masked to their prefix length (10.1.2.3/8 is 10.0.0.0/8);
// IPv4-mapped IPv6 networks and addresses become IPv4 ones; names are
// lower-cased, and internationalized names converted to ASCII with the IDNA
// lookup profile.
func ParseRule(s string) (Rule, error) {
	if s == "" {
		return Rule{}, errRuleEmpty
	}
	if !utf8.ValidString(s) {
		return Rule{}, errRuleChars
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return Rule{}, errRuleSpace
		}
	}
	if strings.Contains(s, "://") {
		return Rule{}, errRuleScheme
	}
	if strings.IndexByte(s, '@') >= 0 {
		return Rule{}, errRuleUserinfo
	}
	if strings.HasPrefix(s, "[") {
		return Rule{}, errRuleBrackets
	}
	if i := strings.IndexByte(s, '/'); i >= 0 {
		return parseNetworkRule(s, s[:i])
	}
	if strings.IndexByte(s, '%') >= 0 {
		if _, err := netip.ParseAddr(s); err == nil {
			return Rule{}, errRuleZone
		}
		return Rule{}, errRuleChars
	}
	if a, err := netip.ParseAddr(s); err == nil {
		a = a.Unmap()
		return Rule{prefix: netip.PrefixFrom(a, a.BitLen())}, nil
	}
	if n := strings.Count(s, ":"); n == 1 {
		return Rule{}, errRulePort
	} else if n > 1 {
		return Rule{}, errRuleIPv6
	}
	return parseNameRule(s)
}

func parseNetworkRule(s, addrPart string) (Rule, error) {
	a, err := netip.ParseAddr(addrPart)
	if err != nil {
		if strings.IndexByte(addrPart, '%') >= 0 {
			return Rule{}, errRuleZone
		}
		if strings.IndexByte(addrPart, ':') >= 0 || endsInNumber(lastLabel(addrPart)) {
			return Rule{}, errRuleNetwork
		}
		return Rule{}, errRulePath
	}
	if a.Zone() != "" {
		return Rule{}, errRuleZone
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return Rule{}, errRuleNetwork
	}
	p = p.Masked()
	if p.Addr().Is4In6() && p.Bits() >= 96 {
		p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
	}
	return Rule{prefix: p}, nil
}

func lastLabel(s string) string {
	return s[strings.LastIndexByte(s, '.')+1:]
}

func parseNameRule(s string) (Rule, error) {
	wildcard := strings.HasPrefix(s, "*.")
	if wildcard {
		s = s[2:]
	}
	if strings.IndexByte(s, '*') >= 0 {
		return Rule{}, errRuleWildcard
	}
	if err := checkDots(s); err != nil {
		return Rule{}, err
	}
	ascii, ok := toASCII(s)
	if !ok {
		if !utf8.ValidString(s) || isASCII(s) {
			return Rule{}, errRuleChars
		}
		return Rule{}, errRuleIDN
	}
	if err := checkDots(ascii); err != nil {
		return Rule{}, err
	}
	if !validNameBytes(ascii) {
		return Rule{}, errRuleChars
	}
	if endsInNumber(lastLabel(ascii)) {
		return Rule{}, errRuleIPv4
	}
	if len(ascii) > maxNameBytes {
		return Rule{}, errRuleLong
	}
	for _, l := range strings.Split(ascii, ".") {
		if len(l) > maxLabelBytes {
			return Rule{}, errRuleLong
		}
	}
	if wildcard {
		return Rule{suffix: ascii}, nil
	}
	return Rule{host: ascii}, nil
}

func checkDots(s string) error {
	switch {
	case s == "":
		return errRuleEmptyLabel
	case strings.HasSuffix(s, "."):
		return errRuleTrailDot
	case strings.HasPrefix(s, "."):
		return errRuleLeadDot
	case strings.Contains(s, ".."):
		return errRuleEmptyLabel
	}
	return nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Wide reports whether the rule admits a network wider than /16 (IPv4) or
// /32 (IPv6): a check warning for an allow rule.
func (r Rule) Wide() bool {
	if !r.prefix.IsValid() {
		return false
	}
	if r.prefix.Addr().Is4() {
		return r.prefix.Bits() < 16
	}
	return r.prefix.Bits() < 32
}

// matchName reports whether the rule matches a normalised host name.
func (r Rule) matchName(name string) bool {
	switch {
	case name == "":
		return false
	case r.host != "":
		return name == r.host
	case r.suffix != "":
		return len(name) > len(r.suffix)+1 &&
			strings.HasSuffix(name, r.suffix) &&
			name[len(name)-len(r.suffix)-1] == '.'
	}
	return false
}

// matchAddr reports whether the rule's network holds a (unmapped, without
// zone).
func (r Rule) matchAddr(a netip.Addr) bool {
	return r.prefix.IsValid() && a.IsValid() && r.prefix.Contains(a.WithZone("").Unmap())
}
