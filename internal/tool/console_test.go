package tool

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// TestConsoleLogs: messages and an uncaught exception from the top page and
// from the nested OOPIF of the fixture (through the Electron-shaped proxy),
// read back with their surfaces, filtered and paged.
func TestConsoleLogs(t *testing.T) {
	e, s := surfaceEnv(t)
	e.use(s["top"])
	e.eval("console.log('top says %s and %d%%', 'hi', 42.7, {a: 1}); console.error(new Error('bad thing')); setTimeout(() => { throw new TypeError('late boom') }, 0); true")
	e.use(s["cross2"])
	e.eval("console.warn('from cross2', [1, 2], null, undefined, true); console.debug('quiet'); true")

	var entries []any
	for range 100 {
		r := e.ok("electron_console_logs", map[string]any{"since": 0})
		entries, _ = r["entries"].([]any)
		if len(pageEntries(entries)) >= 5 {
			break
		}
		e.eval("new Promise(r => setTimeout(r, 20))")
	}
	find := func(typ string) map[string]any {
		for _, x := range entries {
			// Chromium's own entries (a favicon's 404) are not the page's.
			if m := x.(map[string]any); m["type"] == typ && m["source"] != "network" {
				return m
			}
		}
		t.Fatalf("no %s entry in %v", typ, entries)
		return nil
	}
	if m := find("log"); m["text"] != "top says hi and 42% Object" || m["surface_id"] != s["top"]["id"] {
		t.Fatalf("log: %v", m)
	}
	if m := find("error"); !strings.HasPrefix(m["text"].(string), "Error: bad thing") {
		t.Fatalf("error: %v", m)
	}
	if m := find("exception"); !strings.Contains(m["text"].(string), "TypeError: late boom") || m["surface_id"] != s["top"]["id"] {
		t.Fatalf("exception: %v", m)
	}
	if m := find("warning"); m["text"] != "from cross2 Array(2) null undefined true" || m["surface_id"] != s["cross2"]["id"] {
		t.Fatalf("warning from the nested OOPIF: %v", m)
	}

	r := e.ok("electron_console_logs", map[string]any{"type": "warn"})
	if got := r["entries"].([]any); len(got) != 1 {
		t.Fatalf("type warn: %v", r)
	}
	r = e.ok("electron_console_logs", map[string]any{"match": "^(top|from) "})
	if got := r["entries"].([]any); len(got) != 2 {
		t.Fatalf("match: %v", r)
	}
	r = e.ok("electron_console_logs", map[string]any{"limit": 1})
	next := num(r["next_since"])
	if got := r["entries"].([]any); len(got) != 1 || num(got[0].(map[string]any)["seq"]) != next {
		t.Fatalf("limit 1: %v", r)
	}
	if r = e.ok("electron_console_logs", map[string]any{"since": next}); len(pageEntries(r["entries"].([]any))) != 0 {
		t.Fatalf("since the newest: %v", r)
	}
	for _, bad := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"match": "("}, "match"},
		{map[string]any{"match": strings.Repeat("a", 501)}, "match"},
		{map[string]any{"limit": 1001}, "limit"},
		{map[string]any{"since": -1}, "since"},
	} {
		if d := details(e.fails("electron_console_logs", bad.args, "BAD_ARGUMENT")); d["field"] != bad.field {
			t.Fatalf("%v: %v", bad.args, d)
		}
	}
}

// pageEntries leaves out Chromium's own network entries (a favicon's 404
// can come at any time).
func pageEntries(entries []any) []any {
	var out []any
	for _, x := range entries {
		if x.(map[string]any)["source"] != "network" {
			out = append(out, x)
		}
	}
	return out
}

// TestConsoleCaptureFromTheStart: with no renderer tool run in any window,
// electron_console_logs has the messages of a window that was there at
// attach and of one opened later, and Chromium's own log entries (the 404
// of the late page's favicon: "Failed to load resource: … 404").
func TestConsoleCaptureFromTheStart(t *testing.T) {
	e := newEnv(t, Config{})
	ctx := t.Context()
	b := chromiumtest.Start(ctx, t, "--host-resolver-rules="+fixture.HostResolverRules())
	ticker := func(word string) string {
		return "data:text/html," + url.PathEscape("<title>"+word+"</title><script>setInterval(() => console.info('"+word+" tick'), 100)</script>")
	}
	if _, err := b.NewPage(ctx, "about:blank"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.NewPage(ctx, ticker("early")); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := b.WaitList(wctx, func(ts []chromiumtest.Target) bool {
		return slices.ContainsFunc(ts, func(x chromiumtest.Target) bool { return x.Title == "early" })
	}); err != nil {
		t.Fatal(err)
	}
	e.ok("electron_attach", map[string]any{"port": b.Port})
	for _, u := range []string{ticker("late"), e.app.URL("a.test", "/missing-late.html")} {
		if _, err := b.NewPage(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]bool{"early tick": false, "late tick": false, "404": false}
	var entries []any
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		r := e.ok("electron_console_logs", map[string]any{"limit": 1000})
		entries, _ = r["entries"].([]any)
		for _, x := range entries {
			m := x.(map[string]any)
			text, _ := m["text"].(string)
			for _, w := range []string{"early", "late"} {
				if text == w+" tick" && m["type"] == "info" && m["source"] == "console" {
					want[w+" tick"] = true
				}
			}
			if m["source"] == "network" && m["type"] == "error" && strings.Contains(text, "404") && strings.HasPrefix(fmt.Sprint(m["url"]), e.app.URL("a.test", "/")) {
				want["404"] = true
			}
		}
		if !slices.Contains(slices.Collect(maps.Values(want)), false) {
			return
		}
	}
	t.Fatalf("captured %v; entries: %v", want, entries)
}
