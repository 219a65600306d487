package urlpolicy

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// Canonical parses raw as the WHATWG URL parser (and so Chromium) reads an
// absolute URL, and returns it with the parts a policy compares in their
// canonical form, or an error where Chromium would refuse to parse it:
//
//   - leading and trailing C0 controls and spaces are dropped, and tabs and
//     newlines removed anywhere; the scheme is case-folded;
//   - for the special schemes (http, https, ws, wss, ftp, file) a
//     backslash is a slash, any number of slashes may follow the scheme,
//     the authority ends at the first / ? or #, and the user info (up to
//     the last @) is dropped;
//   - the host is percent-decoded, must be ASCII (a name with other
//     characters is refused: IDNA would map some of them, fullwidth or
//     mathematical digits, to ASCII ones, and the standard library has no
//     IDNA) and is lowercased; a host that ends in a number is an IPv4
//     address in any of its forms (2130706433, 0x7f000001, 0177.0.0.1,
//     127.1, 127.0.0.1.) and is written dotted-decimal, or refused when
//     the number is invalid; an IPv6 address is written compressed;
//   - the port may have leading zeros (0P is P) and is dropped when it is
//     the scheme's default; one above 65535 or with another character is
//     refused;
//   - view-source: keeps its scheme and wraps the canonical form of the
//     URL inside (url.URL.Opaque); blob: and other schemes without an
//     authority are returned as parsed.
//
// Paths, queries and fragments are kept as given (a stray % is escaped so
// that they parse); policies decide by scheme and origin.
func Canonical(raw string) (*url.URL, error) {
	s := Normalize(raw)
	scheme, rest, ok := strings.Cut(s, ":")
	if !ok || !validScheme(scheme) {
		return nil, errors.New("not an absolute URL: no scheme")
	}
	scheme = strings.ToLower(scheme)
	switch scheme {
	case "view-source":
		inner, err := Canonical(rest)
		if err != nil {
			return nil, fmt.Errorf("view-source: %w", err)
		}
		return &url.URL{Scheme: scheme, Opaque: inner.String()}, nil
	case "http", "https", "ws", "wss", "ftp", "file":
		return canonicalSpecial(scheme, rest)
	}
	u, err := url.Parse(scheme + ":" + escapeStrayPercents(rest))
	if err != nil {
		return nil, err
	}
	u.Host = strings.ToLower(u.Host)
	return u, nil
}

// canonicalSpecial parses what follows the scheme of a special URL.
func canonicalSpecial(scheme, rest string) (*url.URL, error) {
	rest = strings.ReplaceAll(rest, `\`, "/")
	if scheme == "file" {
		// file: has a host only after two slashes (file://host/path);
		// file:/x and file:x are paths.
		if r, ok := strings.CutPrefix(rest, "//"); ok {
			rest = r
		} else {
			rest = "/" + strings.TrimLeft(rest, "/")
		}
	} else {
		rest = strings.TrimLeft(rest, "/")
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority, tail := rest[:end], rest[end:]
	if scheme == "file" && !strings.HasPrefix(tail, "/") {
		tail = "/" + tail
	}
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		authority = authority[i+1:]
	}
	hostPart, port := authority, ""
	if strings.HasPrefix(hostPart, "[") {
		j := strings.IndexByte(hostPart, ']')
		if j < 0 {
			return nil, errors.New("an IPv6 host without its closing ]")
		}
		if after := hostPart[j+1:]; after != "" {
			if after[0] != ':' {
				return nil, errors.New("characters after an IPv6 host")
			}
			port = after[1:]
		}
		hostPart = hostPart[:j+1]
	} else if i := strings.LastIndexByte(hostPart, ':'); i >= 0 {
		hostPart, port = hostPart[:i], hostPart[i+1:]
	}
	host, err := canonicalHost(hostPart)
	if err != nil {
		return nil, err
	}
	if host == "" && scheme != "file" {
		return nil, errors.New("a " + scheme + ": URL needs a host")
	}
	if port != "" {
		if scheme == "file" {
			return nil, errors.New("a file: URL has no port")
		}
		for _, c := range port {
			if c < '0' || c > '9' {
				return nil, fmt.Errorf("port %q is not a number", port)
			}
		}
		n, err := strconv.ParseUint(strings.TrimLeft(port, "0")+"0", 10, 32) // n*10, overflow-safe for long zeros
		if err != nil || n/10 > 65535 {
			return nil, fmt.Errorf("port %q is out of range", port)
		}
		port = strconv.FormatUint(n/10, 10)
		if port == defaultPort(scheme) {
			port = ""
		}
	}
	if port != "" {
		host += ":" + port
	}
	u, err := url.Parse(scheme + "://" + host + escapeStrayPercents(tail))
	if err != nil {
		return nil, err
	}
	return u, nil
}

func defaultPort(scheme string) string {
	switch scheme {
	case "http", "ws":
		return "80"
	case "https", "wss":
		return "443"
	case "ftp":
		return "21"
	}
	return ""
}

// canonicalHost is the WHATWG host parser for special schemes, ASCII only.
func canonicalHost(h string) (string, error) {
	if strings.HasPrefix(h, "[") {
		a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
		if err != nil || !a.Is6() || a.Zone() != "" {
			return "", fmt.Errorf("%q is not an IPv6 address", h)
		}
		return "[" + a.String() + "]", nil
	}
	d, err := url.PathUnescape(h)
	if err != nil {
		return "", fmt.Errorf("host %q: %v", h, err)
	}
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c >= 0x80 {
			return "", fmt.Errorf("host %q is not ASCII; pass its punycode (xn--) form", d)
		}
		if c <= ' ' || c == 0x7f || strings.IndexByte("#%/:<>?@[\\]^|", c) >= 0 {
			return "", fmt.Errorf("host %q holds a character hosts may not hold (%q)", d, c)
		}
	}
	d = strings.ToLower(d)
	if endsInNumber(d) {
		return parseIPv4(d)
	}
	return d, nil
}

// endsInNumber is the WHATWG "ends in a number" check: the last label (a
// single trailing dot ignored) is decimal digits or a 0x number.
func endsInNumber(h string) bool {
	parts := strings.Split(h, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, err := ipv4Number(last)
	return err == nil
}

// ipv4Number parses one part of an IPv4 host: 0x hex, 0-led octal or
// decimal; an empty 0x is 0.
func ipv4Number(p string) (uint64, error) {
	if p == "" {
		return 0, errors.New("an empty IPv4 part")
	}
	base := 10
	switch {
	case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
		base, p = 16, p[2:]
	case len(p) >= 2 && p[0] == '0':
		base, p = 8, p[1:]
	}
	if p == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(p, base, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 1 << 40, nil // out of range, and so refused by parseIPv4
		}
		return 0, err
	}
	return n, nil
}

// parseIPv4 is the WHATWG IPv4 parser: up to four parts, each but the last
// below 256, the last filling the remaining bytes.
func parseIPv4(h string) (string, error) {
	parts := strings.Split(h, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return "", fmt.Errorf("host %q: an IPv4 address has at most four parts", h)
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, err := ipv4Number(p)
		if err != nil {
			return "", fmt.Errorf("host %q is not an IPv4 address", h)
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return "", fmt.Errorf("host %q: an IPv4 part is above 255", h)
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return "", fmt.Errorf("host %q: the IPv4 address is out of range", h)
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return fmt.Sprintf("%d.%d.%d.%d", v>>24, v>>16&255, v>>8&255, v&255), nil
}

// escapeStrayPercents escapes each % that does not start a %XX escape, as
// the WHATWG parser leaves them, so that url.Parse accepts the rest.
func escapeStrayPercents(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && !(i+2 < len(s) && ishex(s[i+1]) && ishex(s[i+2])) {
			b.WriteString("%25")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func ishex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// CanonicalOrigin is the origin a policy compares for raw: scheme://host[:port]
// of its canonical form ("file://" for files), judged by the URL inside for
// view-source:, blob: and filesystem:; a domain's single trailing dot is
// dropped (example.com. reaches example.com) and an IPv4-mapped IPv6
// address is its IPv4 address. "" means an opaque origin (data:, about:,
// a scheme without a host); err that raw does not parse.
func CanonicalOrigin(raw string) (string, error) {
	u, err := Canonical(raw)
	if err != nil {
		return "", err
	}
	switch u.Scheme {
	case "view-source", "blob", "filesystem":
		inner := u.Opaque
		if inner == "" {
			return "", nil
		}
		if u.RawQuery != "" {
			inner += "?" + u.RawQuery
		}
		o, err := CanonicalOrigin(inner)
		if err != nil && u.Scheme != "view-source" {
			return "", nil // blob:null/..., a blob of an unparsable URL: opaque
		}
		return o, err
	case "file":
		return "file://", nil
	}
	if u.Host == "" || u.Opaque != "" {
		return "", nil
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		return "", nil // app://:80 and the like: no host, no origin of its own
	}
	if a, err := netip.ParseAddr(host); err == nil && a.Is4In6() {
		host = a.Unmap().String()
	} else if len(host) > 1 && strings.HasSuffix(host, ".") && !strings.HasSuffix(host, "..") {
		host = strings.TrimSuffix(host, ".")
	}
	if strings.Contains(host, ":") {
		if _, err := netip.ParseAddr(host); err != nil {
			return "", nil // a non-special scheme's opaque host, such as "::"
		}
		host = "[" + host + "]"
	}
	if port == defaultPort(u.Scheme) {
		port = ""
	}
	if port != "" {
		return u.Scheme + "://" + host + ":" + port, nil
	}
	return u.Scheme + "://" + host, nil
}
