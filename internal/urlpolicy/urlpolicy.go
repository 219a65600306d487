package urlpolicy

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// BrowserActing reports why a URL may not be opened by a client of understudy (the relay, electron_navigate),
// or "" when it may. The rule is by scheme, the way Chromium reads the URL
// (leading and trailing spaces and control characters dropped, tabs and
// newlines removed, the scheme case-folded), because the pages that act on
// the browser itself are many and change between versions (chrome://quit,
// restart, crash, kill, hang, gpucrash, inducebrowsercrashforrealz, ...):
//
//   - every chrome:, chrome-devtools:, chrome-untrusted:, devtools: and
//     chrome-search: URL is refused — no allowlist (a WebUI page runs with
//     privileges the app never meant to give a script);
//   - about: URLs other than about:blank and about:srcdoc are refused
//     (Chromium rewrites about:quit to chrome://quit);
//   - view-source:, blob: and filesystem: are judged by the URL they wrap.
//
// Web, file:, data:, blob: and app-specific schemes are the app's business.
func BrowserActing(raw string) string {
	u := Normalize(raw)
	scheme, rest, ok := strings.Cut(u, ":")
	if !ok || !validScheme(scheme) {
		return ""
	}
	switch strings.ToLower(scheme) {
	case "chrome", "chrome-devtools", "chrome-untrusted", "devtools", "chrome-search":
		return "chrome:// and DevTools pages act on the browser and are not opened through understudy"
	case "about":
		page := strings.ToLower(rest)
		if i := strings.IndexAny(page, "?#"); i >= 0 {
			page = page[:i]
		}
		if page == "blank" || page == "srcdoc" {
			return ""
		}
		return "about: pages other than about:blank are chrome:// pages and are not opened through understudy"
	case "view-source", "blob", "filesystem":
		return BrowserActing(rest)
	}
	return ""
}

// Normalize drops what Chromium's URL parser ignores before the scheme.
func Normalize(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	}
	return s
}

func validScheme(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// Navigable checks a URL an agent asks to open in a window, before
// anything is sent: it must be absolute (a scheme, and a host for
// http/https), must not be javascript: (running code is what the eval
// tools are for, and only when the operator allows them) and must not act
// on the browser (BrowserActing). It returns why not and a hint, or "".
func Navigable(raw string) (why, hint string) {
	u := Normalize(raw)
	scheme, rest, ok := strings.Cut(u, ":")
	if !ok || !validScheme(scheme) || len(scheme) == 1 { // c:\path is a drive, not a scheme
		guess := "https://" + strings.TrimLeft(u, "/")
		if strings.ContainsAny(u, " \t") || u == "" {
			return "not a URL: it needs a scheme such as https:", "pass an absolute URL such as https://example.com/"
		}
		return "not an absolute URL: it has no scheme", "did you mean " + guess + " ?"
	}
	switch strings.ToLower(scheme) {
	case "javascript":
		return "javascript: URLs run code; they are refused", "use electron_evaluate (when the operator allows eval) to run code in the page"
	case "http", "https":
		if !strings.HasPrefix(rest, "//") || hostOf(u) == "" {
			return "an " + strings.ToLower(scheme) + ": URL needs a host", "pass a URL such as " + strings.ToLower(scheme) + "://example.com/"
		}
	}
	if why := BrowserActing(raw); why != "" {
		return why, "open a web page, a file of the app or about:blank"
	}
	return "", ""
}

func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Hostname()
}

// Origins is the operator's origin policy for navigation (the
// --allowed-origins and --blocked-origins flags, as Playwright MCP names
// them). Blocked wins over Allowed; an empty Allowed allows every origin
// not blocked. Entries are origins (scheme://host[:port]; "file://" for
// files), compared in their canonical form (Canonical: IPv4 numbers in any
// spelling, case, default ports, trailing dots; view-source:, blob: and
// filesystem: judged by the URL inside). With an
// Allowed list, opaque origins (data:, and anything without a host) are
// refused, except about:blank.
type Origins struct {
	Allowed, Blocked []string
}

// ParseOrigins splits a semicolon- or comma-separated flag value into
// normalized origins, or says which entry is not an origin.
func ParseOrigins(s string) ([]string, error) {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == ',' }) {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		o, err := CanonicalOrigin(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not an origin: %v", f, err)
		}
		if o == "" {
			return nil, fmt.Errorf("%q is not an origin (scheme://host[:port], or file://)", f)
		}
		if p, err := url.Parse(f); err != nil || (p.Path != "" && p.Path != "/") || p.RawQuery != "" || p.Fragment != "" || p.User != nil {
			return nil, fmt.Errorf("%q is not an origin: drop the path, query or user", f)
		}
		out = append(out, o)
	}
	return out, nil
}

// Check returns why the policy refuses raw, or "".
func (o Origins) Check(raw string) string {
	if len(o.Allowed) == 0 && len(o.Blocked) == 0 {
		return ""
	}
	origin, err := CanonicalOrigin(raw)
	if err != nil {
		// Chromium would not open it either, or would read it in a way
		// this parser does not: either way it is not checked, so refused.
		return "the URL does not parse as a browser reads it (" + err.Error() + "), so the operator's origin policy (--allowed-origins/--blocked-origins) cannot check it"
	}
	if origin != "" && slices.Contains(o.Blocked, origin) {
		return "the origin " + origin + " is blocked by the operator (--blocked-origins)"
	}
	if len(o.Allowed) == 0 || slices.Contains(o.Allowed, origin) {
		return ""
	}
	if origin == "" {
		if page := strings.ToLower(Normalize(raw)); page == "about:blank" {
			return ""
		}
		return "the operator allows only these origins (--allowed-origins): " + strings.Join(o.Allowed, ", ") + "; this URL has no origin of its own"
	}
	return "the origin " + origin + " is not in the operator's --allowed-origins (" + strings.Join(o.Allowed, ", ") + ")"
}
