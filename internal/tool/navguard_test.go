package tool

import (
	"testing"
	"time"
)

// TestNavigateRefusesBrowserActingURLs: electron_navigate to chrome://quit
// and its kin answers BAD_ARGUMENT and the app keeps running.
func TestNavigateRefusesBrowserActingURLs(t *testing.T) {
	e := newEnv(t, Config{})
	e.launch("/second.html")
	for _, u := range []string{"chrome://quit/", "about:quit", " CHROME://restart", "view-source:chrome://crash"} {
		m := e.fails("electron_navigate", map[string]any{"url": u}, "BAD_ARGUMENT")
		if d, _ := m["details"].(map[string]any); d["field"] != "url" {
			t.Errorf("navigate %q: %v, want the url field named", u, m)
		}
	}
	time.Sleep(500 * time.Millisecond) // a quit that got through ends the browser by now
	e.ok("electron_windows_list", nil)
	e.ok("electron_stop", nil)
}
