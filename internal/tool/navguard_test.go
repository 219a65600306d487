package tool

import (
	"net/url"
	"strings"
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

// TestNavigateRefusesScriptsAndNonURLs: javascript: never runs (it used to
// answer BAD_ARGUMENT after running), and a URL without a scheme is
// BAD_ARGUMENT with a hint, not INTERNAL_ERROR.
func TestNavigateRefusesScriptsAndNonURLs(t *testing.T) {
	e := newEnv(t, Config{})
	e.launch("/second.html")
	title := func() string {
		m := e.ok("electron_windows_list", nil)
		ws, _ := m["windows"].([]any)
		if len(ws) == 0 {
			t.Fatalf("no windows: %v", m)
		}
		w, _ := ws[0].(map[string]any)
		s, _ := w["title"].(string)
		return s
	}
	before := title()
	for _, u := range []string{"javascript:document.title='pwned'", " JAVASCRIPT:document.title='pwned'", "java\nscript:document.title='pwned'"} {
		e.fails("electron_navigate", map[string]any{"url": u}, "BAD_ARGUMENT")
	}
	time.Sleep(200 * time.Millisecond)
	if got := title(); got != before {
		t.Errorf("title %q after javascript: navigations, was %q: the script ran", got, before)
	}
	for u, hint := range map[string]string{"not a url": "https://", "example.com": "https://example.com"} {
		m := e.fails("electron_navigate", map[string]any{"url": u}, "BAD_ARGUMENT")
		if h, _ := m["hint"].(string); !strings.Contains(h, hint) {
			t.Errorf("navigate %q: hint %q, want it to suggest %q", u, h, hint)
		}
	}
	e.ok("electron_stop", nil)
}

// TestNavigateOrigins: --allowed-origins and --blocked-origins hold for
// electron_navigate.
func TestNavigateOrigins(t *testing.T) {
	e := newEnv(t, Config{})
	u, err := url.Parse(e.app.URL("a.test", "/"))
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's port is known only now; the policy is read per call.
	e.srv.cfg.AllowedOrigins = []string{"http://a.test:" + u.Port(), "http://b.test:" + u.Port()}
	e.srv.cfg.BlockedOrigins = []string{"http://b.test:" + u.Port()}
	e.launch("/second.html")
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/index.html")})
	for _, bad := range []string{e.app.URL("b.test", "/second.html"), e.app.URL("c.example", "/second.html"), "data:text/html,<script>1</script>"} {
		m := e.fails("electron_navigate", map[string]any{"url": bad}, "BAD_ARGUMENT")
		if d, _ := m["details"].(map[string]any); d["field"] != "url" {
			t.Errorf("navigate %s: %v", bad, m)
		}
	}
	e.ok("electron_stop", nil)
}
