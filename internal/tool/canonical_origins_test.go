package tool

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/urlpolicy"
)

// TestBlockedOriginInEverySpelling: with --blocked-origins naming
// http://127.0.0.1:P, the spellings Chromium reads as that origin
// (2130706433, 0x7f000001, 127.1, a trailing dot, a leading zero in the
// port, view-source:) are refused by electron_navigate and
// electron_window_open before anything is sent, and the page stays where
// it was (issue 27, point 12). Chromium's own URL parser is the oracle:
// each http spelling's new URL().origin is the blocked origin, and
// urlpolicy.CanonicalOrigin agrees with Chromium on all of them.
func TestBlockedOriginInEverySpelling(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	u, err := url.Parse(e.app.URL("a.test", "/"))
	if err != nil {
		t.Fatal(err)
	}
	p := u.Port()
	blocked := "http://127.0.0.1:" + p
	e.srv.cfg.BlockedOrigins = []string{blocked}
	e.launch("/second.html")
	spellings := []string{
		"http://2130706433:" + p + "/", "http://0x7f000001:" + p + "/", "http://127.1:" + p + "/",
		"http://127.0.0.1.:" + p + "/", "http://127.0.0.1:0" + p + "/", "http://0177.0.0.1:" + p + "/",
		"http://%31%32%37.0.0.1:" + p + "/", `http://127.0.0.1:` + p + `\@a.test/`, "HTTP://127.0.0.1:" + p,
		"http:127.0.0.1:" + p + "/", "http://user@127.0.0.1:" + p + "/",
	}
	// Chromium's reading of each spelling, in the page.
	list, _ := json.Marshal(spellings)
	m := e.ok("electron_eval_renderer", map[string]any{"code": "return " + string(list) + ".map(s => { try { return new URL(s).origin } catch (e) { return 'ERR' } })"})
	var origins []string
	b, _ := json.Marshal(m["result"])
	if err := json.Unmarshal(b, &origins); err != nil || len(origins) != len(spellings) {
		t.Fatalf("origins from Chromium: %v (%v)", m, err)
	}
	for i, s := range spellings {
		if origins[i] != blocked {
			t.Errorf("Chromium reads %q as %q, not %q", s, origins[i], blocked)
		}
		if got, err := urlpolicy.CanonicalOrigin(s); err != nil || got != origins[i] {
			t.Errorf("CanonicalOrigin(%q) = %q, %v; Chromium says %q", s, got, err, origins[i])
		}
	}
	title := func() string {
		w := e.ok("electron_windows_list", nil)
		ws, _ := w["windows"].([]any)
		if len(ws) != 1 {
			t.Fatalf("windows: %v", w)
		}
		s, _ := ws[0].(map[string]any)["url"].(string)
		return s
	}
	before := title()
	for i, s := range append(spellings, "view-source:http://127.0.0.1:"+p+"/", "view-source:http://2130706433:"+p+"/") {
		// The six and view-source: are refused by the origin
		// policy; some odder spellings are refused earlier, as URLs
		// without a host Go can read (navguard), which is as good.
		byPolicy := i < 5 || i >= len(spellings)
		for _, tool := range []string{"electron_navigate", "electron_window_open"} {
			m := e.call(tool, map[string]any{"url": s})
			if m["code"] != "BAD_ARGUMENT" || byPolicy && !strings.Contains(m["error"].(string), "blocked") {
				t.Errorf("%s %q: %v, want BAD_ARGUMENT (blocked)", tool, s, m)
			}
		}
	}
	if got := title(); got != before {
		t.Errorf("the window shows %q after the refused navigations, was %q", got, before)
	}
	// The fixture's own origin still opens.
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/index.html")})
	e.ok("electron_stop", nil)
}
