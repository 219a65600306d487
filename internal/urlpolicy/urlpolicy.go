package urlpolicy

import "strings"

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
//   - view-source: is judged by the URL it wraps.
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
	case "view-source":
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
