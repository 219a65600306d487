package urlpolicy

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The variants issue 27 found past the old guard, and their kin: each must
// be refused by Opened, whether as unparsable or as browser-acting.
var openedRefused = []string{
	"chrome://settings", "chrome\x00://settings", "chrome\u200b://settings", "\u00a0chrome://settings",
	"\ufeffchrome://settings", "chrome\u00a0://settings", "blob:chrome://settings/x", "filesystem:chrome://settings/temporary/x",
	"BLOB:CHROME://quit", "blob: chrome://quit", "view-source:blob:chrome://quit", "filesystem:view-source:about:quit",
	"\x00\x01 chrome://quit \x1f", "ch\trome://quit", "c\nhrome://quit", "chrome%3A//settings", "%63hrome://settings",
	"http://a\x00b/", "http:// /", "http:///x", "https:", "\xff\xfe", "x\u200b:y", "1chrome://quit",
	"about:settings", "blob:", "filesystem:", "view-source:", "devtools://devtools/x",
	strings.Repeat("view-source:", 20) + "https://a.test/", "http://%63hrome/", "::", ":chrome://quit",
}

var openedAllowed = map[string]string{
	"":                                    "about:blank",
	"about:blank":                         "about:blank",
	" ABOUT:BLANK ":                       "about:BLANK",
	"https://a.test/x?y#z":                "https://a.test/x?y#z",
	"HTTP:\\\\a.test\\x":                  "http://a.test/x",
	"https://a.test/\tpath":               "https://a.test/path",
	"blob:https://a.test/1234":            "blob:https://a.test/1234",
	"blob:null/1234":                      "blob:null/1234",
	"filesystem:https://a.test/temporary": "filesystem:https://a.test/temporary",
	"data:text/html,hi":                   "data:text/html,hi",
	"file:///tmp/x.html":                  "file:///tmp/x.html",
	"app://index.html":                    "app://index.html",
	"view-source:https://a.test/":         "view-source:https://a.test/",
	"javascript:1":                        "javascript:1",
	"about:blank\x00":                     "about:blank", // trailing C0 controls are stripped, as the standard does
}

func TestOpenedRefusesVariants(t *testing.T) {
	for _, raw := range openedRefused {
		if u, why := Opened(raw); why == "" {
			t.Errorf("Opened(%q) = %q, allowed; want a refusal", raw, u)
		}
	}
	for raw, want := range openedAllowed {
		u, why := Opened(raw)
		if why != "" {
			t.Errorf("Opened(%q) refused: %s", raw, why)
			continue
		}
		if u.String() != want {
			t.Errorf("Opened(%q) = %q, want %q", raw, u, want)
		}
	}
}

func TestBrowserActingWrapped(t *testing.T) {
	for _, raw := range []string{"blob:chrome://quit", "filesystem:chrome://settings/", "blob:view-source:about:quit"} {
		if BrowserActing(raw) == "" {
			t.Errorf("BrowserActing(%q) allowed", raw)
		}
	}
}

// FuzzCanonicalURL: Parse never panics; what it accepts has a valid
// scheme, no control characters, and parses again to itself (the checks
// judge a fixed point); and what Opened allows has no browser-acting layer.
func FuzzCanonicalURL(f *testing.F) {
	for _, s := range openedRefused {
		f.Add(s)
	}
	for s := range openedAllowed {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := Parse(raw)
		if err != nil {
			return
		}
		if !validScheme(u.Scheme) || u.Scheme != strings.ToLower(u.Scheme) {
			t.Fatalf("Parse(%q): scheme %q", raw, u.Scheme)
		}
		s := u.String()
		if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			t.Fatalf("Parse(%q) = %q has a control character", raw, s)
		}
		again, err := Parse(s)
		if err != nil || again.String() != s {
			t.Fatalf("Parse(%q) = %q, which parses to %v, %v", raw, s, again, err)
		}
		if _, why := Opened(raw); why == "" {
			for _, l := range u.Layers() {
				switch l.Scheme {
				case "chrome", "chrome-devtools", "chrome-untrusted", "devtools", "chrome-search":
					t.Fatalf("Opened(%q) allowed a %s: layer", raw, l.Scheme)
				}
			}
		}
	})
}
