package urlpolicy

import "testing"

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
