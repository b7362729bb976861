package egress

import "net/netip"

// block is one row of the built-in refusal table: every address inside
// prefix is refused under the name class.
type block struct {
	prefix netip.Prefix
	class  string
}

// Classes of refused addresses. They name the rule in the operator's log and
// never the address itself.
const (
	classUnspecified     = "unspecified"
	classLoopback        = "loopback"
	classPrivate         = "private"
	classCGNAT           = "cgnat"
	classLinkLocal       = "link_local"
	classMetadata        = "metadata"
	classIETFProtocol    = "ietf_protocol"
	classAnycastService  = "anycast_service"
	classDocumentation   = "documentation"
	classBenchmarking    = "benchmarking"
	classMulticast       = "multicast"
	classReserved        = "reserved"
	classBroadcast       = "broadcast"
	classAS112           = "as112"
	classAMT             = "amt"
	class6to4            = "6to4"
	class6to4Relay       = "6to4_relay"
	classTeredo          = "teredo"
	classNAT64           = "nat64"
	classDiscard         = "discard"
	classDummy           = "dummy"
	classORCHID          = "orchid"
	classDroneDET        = "drone_det"
	classSRv6            = "srv6"
	classUniqueLocal     = "unique_local"
	classSiteLocal       = "site_local"
	classIPv4Compatible  = "ipv4_compatible"
	classIPv4Translated  = "ipv4_translated"
	classNotGlobal       = "not_global_unicast"
	classZone            = "zone"
	classInvalidAddress  = "invalid"
	classAddressMalform  = "address_malformed"
	classNameEmpty       = "name_empty"
	classNameMalformed   = "name_malformed"
	classNameLocalhost   = "name_localhost"
	classNameSingleLabel = "name_single_label"
	classNameLocal       = "name_local"
	classPort            = "port"
	classScheme          = "scheme"
	classUserinfo        = "userinfo"
	classUserinfoPass    = "userinfo_password"
	classDenyRule        = "deny_rule"
	classURLInvalid      = "url_invalid"
)

func blocks(class string, prefixes ...string) []block {
	out := make([]block, len(prefixes))
	for i, p := range prefixes {
		out[i] = block{netip.MustParsePrefix(p), class}
	}
	return out
}

func concat(parts ...[]block) []block {
	var out []block
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// refusedV4 and refusedV6 are read-only after package initialisation. The
// first matching row wins, so a narrower block comes before the block that
// holds it. Sources: the IANA IPv4 and IPv6 Special-Purpose Address
// Registries (every block that is not globally reachable, and the anycast,
// AS112, AMT and identifier blocks inside or beside them, refused on
// purpose: their nearest instance is often inside the operator's own
// network, or they are not locators at all), and the cloud metadata
// endpoints.
var refusedV4 = concat(
	// Cloud metadata endpoints: AWS/GCP/Azure/OpenStack and others, AWS ECS
	// task metadata, EKS Pod Identity, Alibaba Cloud, Oracle Cloud Classic,
	// and the Azure WireServer, which is a public address that only the
	// platform answers.
	blocks(classMetadata,
		"169.254.169.254/32", "169.254.170.2/32", "169.254.170.23/32",
		"100.100.100.200/32", "192.0.0.192/32", "168.63.129.16/32"),
	blocks(classBroadcast, "255.255.255.255/32"),
	blocks(classUnspecified, "0.0.0.0/8"),
	blocks(classPrivate, "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"),
	blocks(classCGNAT, "100.64.0.0/10"),
	blocks(classLoopback, "127.0.0.0/8"),
	blocks(classLinkLocal, "169.254.0.0/16"),
	// PCP and TURN anycast: globally reachable in the registry, but the
	// nearest instance is the operator's own gateway.
	blocks(classAnycastService, "192.0.0.9/32", "192.0.0.10/32"),
	blocks(classNAT64, "192.0.0.170/32", "192.0.0.171/32"),
	blocks(classIETFProtocol, "192.0.0.0/24"),
	blocks(classDocumentation, "192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"),
	blocks(classAS112, "192.31.196.0/24", "192.175.48.0/24"),
	blocks(classAMT, "192.52.193.0/24"),
	blocks(class6to4Relay, "192.88.99.0/24"),
	blocks(classBenchmarking, "198.18.0.0/15"),
	blocks(classMulticast, "224.0.0.0/4"),
	blocks(classReserved, "240.0.0.0/4"),
)

var refusedV6 = concat(
	// AWS instance metadata and EKS Pod Identity over IPv6, Google Cloud
	// metadata over IPv6 (all inside fc00::/7 as well).
	blocks(classMetadata, "fd00:ec2::254/128", "fd00:ec2::23/128", "fd20:ce::254/128"),
	blocks(classUnspecified, "::/128"),
	blocks(classLoopback, "::1/128"),
	blocks(classIPv4Translated, "::ffff:0:0:0/96"),
	blocks(classIPv4Compatible, "::/96"),
	blocks(classNAT64, "64:ff9b::/96", "64:ff9b:1::/48"),
	blocks(classDiscard, "100::/64"),
	blocks(classDummy, "100:0:0:1::/64"),
	// PCP, TURN and DNS-SD SRP anycast: the nearest instance is local.
	blocks(classAnycastService, "2001:1::1/128", "2001:1::2/128", "2001:1::3/128"),
	blocks(classBenchmarking, "2001:2::/48"),
	blocks(classAMT, "2001:3::/32"),
	blocks(classAS112, "2001:4:112::/48", "2620:4f:8000::/48"),
	// ORCHID and DETs are identifiers, not locators.
	blocks(classORCHID, "2001:10::/28", "2001:20::/28"),
	blocks(classDroneDET, "2001:30::/28"),
	blocks(classTeredo, "2001::/32"),
	blocks(classIETFProtocol, "2001::/23"),
	blocks(classDocumentation, "2001:db8::/32", "3fff::/20"),
	blocks(class6to4, "2002::/16"),
	blocks(classSRv6, "5f00::/16"),
	blocks(classUniqueLocal, "fc00::/7"),
	blocks(classLinkLocal, "fe80::/10"),
	blocks(classSiteLocal, "fec0::/10"),
	blocks(classMulticast, "ff00::/8"),
)

// globalUnicastV6 is the only IPv6 space ever admitted (RFC 4291 §2.4).
var globalUnicastV6 = netip.MustParsePrefix("2000::/3")

// Classify names the special-purpose block that a belongs to ("loopback",
// "private", "link_local", "metadata", "nat64", ...), or "" when a is a
// globally routable unicast address. IPv4-mapped addresses are unmapped
// first; a zone is ignored; the zero Addr is "invalid". Every IPv6 address
// outside 2000::/3 that no narrower row names is "not_global_unicast".
func Classify(a netip.Addr) string {
	if !a.IsValid() {
		return classInvalidAddress
	}
	a = a.WithZone("").Unmap()
	table := refusedV6
	if a.Is4() {
		table = refusedV4
	}
	for _, b := range table {
		if b.prefix.Contains(a) {
			return b.class
		}
	}
	if a.Is6() && !globalUnicastV6.Contains(a) {
		return classNotGlobal
	}
	return ""
}
