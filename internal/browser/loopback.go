package browser

import (
	"net/netip"
	"strings"
)

// IsLoopbackHost is the one loopback rule of understudy (ADR-004): every
// attach, discovery, inspector URL, listener address, Host header and Origin
// check goes through it. host is a URL host without its port: an IP literal
// (IPv6 with or without brackets) or a name. It is true only for
//
//   - an IP literal in 127.0.0.0/8 (also written as an IPv4-mapped IPv6
//     address), without a zone;
//   - the IPv6 loopback ::1, without a zone;
//   - the name "localhost" (any case, with or without the root dot).
//
// Every other name is false, even one that starts with "127." or
// "localhost.", because anyone can point such a name anywhere. A string with
// a port ("127.0.0.1:9222") is false: split the port off first.
func IsLoopbackHost(host string) bool {
	h := host
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") {
			return false
		}
		h = h[1 : len(h)-1]
		// Brackets hold an IPv6 literal, never a name.
		ip, err := netip.ParseAddr(h)
		return err == nil && ip.Is6() && ip.Zone() == "" && ip.Unmap().IsLoopback()
	}
	if strings.EqualFold(strings.TrimSuffix(h, "."), "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	if err != nil || ip.Zone() != "" {
		return false
	}
	return ip.Unmap().IsLoopback()
}
