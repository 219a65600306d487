package browser

import (
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// RemoteAllow is the operator's --allow-remote list (ADR-027): the hosts,
// with or without a port, that endpoints off loopback may name. The zero
// value allows nothing off loopback; loopback is always allowed
// (IsLoopbackHost stays the one loopback rule).
type RemoteAllow struct {
	entries []remoteEntry
}

type remoteEntry struct {
	host string // lower case, IPv6 without brackets
	port int    // 0: any port
}

// ParseRemoteAllow reads HOST[:PORT] entries (IPv6 in brackets when a
// port follows). A bad entry is BAD_ARGUMENT naming "allow-remote".
func ParseRemoteAllow(list []string) (RemoteAllow, error) {
	var a RemoteAllow
	for _, raw := range list {
		for _, item := range strings.Split(raw, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			e, err := parseRemoteEntry(item)
			if err != nil {
				return RemoteAllow{}, err
			}
			a.entries = append(a.entries, e)
		}
	}
	return a, nil
}

func parseRemoteEntry(item string) (remoteEntry, error) {
	if strings.ContainsAny(item, "/@?# \t\r\n") {
		return remoteEntry{}, errs.BadArg("allow-remote", "%q is not HOST or HOST:PORT", item)
	}
	host, port := item, 0
	if h, p, err := net.SplitHostPort(item); err == nil {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return remoteEntry{}, errs.BadArg("allow-remote", "%q has a bad port", item)
		}
		host, port = h, n
	} else if strings.Count(item, ":") == 1 {
		return remoteEntry{}, errs.BadArg("allow-remote", "%q has a bad port", item)
	}
	host = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	if host == "" {
		return remoteEntry{}, errs.BadArg("allow-remote", "%q names no host", item)
	}
	return remoteEntry{host: host, port: port}, nil
}

// Empty reports whether nothing off loopback is allowed.
func (a RemoteAllow) Empty() bool { return len(a.entries) == 0 }

// Allows reports whether host:port may be dialled: loopback, or an entry.
func (a RemoteAllow) Allows(host string, port int) bool {
	if IsLoopbackHost(host) {
		return true
	}
	h := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	for _, e := range a.entries {
		if e.host == h && (e.port == 0 || e.port == port) {
			return true
		}
	}
	return false
}

// CheckURL checks a ws, wss, http or https URL given in field against the
// list: its host must be loopback or allowed. Off loopback without an
// entry it is REMOTE_NOT_ALLOWED naming the --allow-remote flag; a URL
// that does not parse is BAD_ARGUMENT naming field.
func (a RemoteAllow) CheckURL(field, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, errs.BadArg(field, "%q is not a URL", raw)
	}
	if u.User != nil {
		return nil, errs.BadArg(field, "credentials in the URL are refused; pass them as a header (--remote-header)")
	}
	def := 0
	switch u.Scheme {
	case "http", "ws":
		def = 80
	case "https", "wss":
		def = 443
	default:
		return nil, errs.BadArg(field, "scheme %q is not http, https, ws or wss", u.Scheme)
	}
	port := def
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return nil, errs.BadArg(field, "bad port in %q", raw)
		}
		port = n
	}
	if !a.Allows(u.Hostname(), port) {
		hp := net.JoinHostPort(u.Hostname(), strconv.Itoa(port))
		return nil, errs.New(errs.RemoteNotAllowed, "%s names %s, which is not on loopback and not allowed: start the server with --allow-remote %s",
			field, hp, hp).With("host", hp).With("field", field)
	}
	return u, nil
}

// RedactURL is a URL as results, logs and printed lines may show it: no
// user info, no query and no fragment (tokens travel there on some
// tunnels); "" when it does not parse.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.User = nil
	u.RawQuery, u.ForceQuery, u.Fragment = "", false, ""
	return u.String()
}
