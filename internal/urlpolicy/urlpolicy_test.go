package urlpolicy

import (
	"strings"
	"testing"
)

func TestBrowserActing(t *testing.T) {
	refusedURLs := []string{
		"chrome://quit/", "chrome://restart", "chrome://crash", "chrome://kill", "chrome://hang",
		"chrome://inducebrowsercrashforrealz", "chrome://gpucrash", "chrome://settings", "chrome://version",
		"CHROME://QUIT", " \tchrome://quit", "chr\tome://quit", "chrome:quit", "chrome-devtools://devtools/bundled/inspector.html",
		"devtools://devtools", "chrome-untrusted://x", "chrome-search://x", "about:quit", "ABOUT:crash", "about:version",
		"view-source:chrome://quit", "view-source:view-source:about:quit",
	}
	for _, u := range refusedURLs {
		if BrowserActing(u) == "" {
			t.Errorf("%q is allowed", u)
		}
	}
	allowed := []string{
		"", "about:blank", "about:blank#x", "ABOUT:BLANK", "about:srcdoc", "https://example.com/chrome://quit",
		"http://a.test/", "file:///tmp/x.html", "data:text/html,hi", "view-source:https://example.com", "app://index.html",
		"not a url", "chrome", "javascript:1",
	}
	for _, u := range allowed {
		if why := BrowserActing(u); why != "" {
			t.Errorf("%q is refused: %s", u, why)
		}
	}
}

func TestNavigable(t *testing.T) {
	for raw, wantHint := range map[string]string{
		"javascript:alert(1)":   "electron_evaluate",
		" JavaScript:alert(1)":  "electron_evaluate",
		"java\tscript:alert(1)": "electron_evaluate",
		"not a url":             "https://example.com/",
		"example.com":           "https://example.com",
		"example.com/path":      "https://example.com/path",
		"":                      "https://example.com/",
		"https:example.com":     "https://example.com/",
		"http://":               "http://example.com/",
		"chrome://quit":         "about:blank",
		`c:\windows\system.ini`: "https://",
		"/etc/passwd":           "https://etc/passwd",
	} {
		why, hint := Navigable(raw)
		if why == "" || !strings.Contains(hint, wantHint) {
			t.Errorf("Navigable(%q) = %q, %q; want a refusal with a hint containing %q", raw, why, hint, wantHint)
		}
	}
	for _, ok := range []string{"https://example.com", "http://a.test:8080/x?y#z", "about:blank", "data:text/html,hi", "file:///tmp/x.html", "app://index.html"} {
		if why, _ := Navigable(ok); why != "" {
			t.Errorf("Navigable(%q) refused: %s", ok, why)
		}
	}
}

func TestOrigins(t *testing.T) {
	allowed, err := ParseOrigins("https://Example.com:443; http://localhost:3000,file://")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"https://example.com", "http://localhost:3000", "file://"}; strings.Join(allowed, " ") != strings.Join(want, " ") {
		t.Fatalf("ParseOrigins: %v, want %v", allowed, want)
	}
	for _, bad := range []string{"example.com", "https://example.com/path", "https://u@example.com", "data:text/html,x"} {
		if _, err := ParseOrigins(bad); err == nil {
			t.Errorf("ParseOrigins(%q) accepted", bad)
		}
	}
	blocked, _ := ParseOrigins("http://localhost:3000")
	o := Origins{Allowed: allowed, Blocked: blocked}
	for raw, ok := range map[string]bool{
		"https://example.com/a":             true,
		"https://EXAMPLE.com:443/b":         true,
		"https://example.com:8443/":         false,
		"http://example.com/":               false,
		"https://evil.example/":             false,
		"http://localhost:3000/":            false, // blocked wins
		"file:///tmp/x.html":                true,
		"about:blank":                       true,
		"data:text/html,<script>1</script>": false,
		"blob:https://example.com/uuid":     true,
	} {
		if got := o.Check(raw) == ""; got != ok {
			t.Errorf("Check(%q) allowed=%v, want %v (%s)", raw, got, ok, o.Check(raw))
		}
	}
	if (Origins{}).Check("data:text/html,x") != "" {
		t.Error("an empty policy refused something")
	}
}
