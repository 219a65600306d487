package tool

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// earlyPage is a document whose first inline script reads the time and
// sets a timer, before anything else of it runs.
const earlyPage = `<!doctype html><title>Early</title><script>window.__early = Date.now(); window.__fired = []; setTimeout(() => __fired.push(Date.now()), 500);</script><h1>Early</h1>`

// TestClockBeforeFirstScriptOfNewWindows: with the clock installed, a
// window.open popup and an electron_window_open window (Target.createTarget)
// are held until the clock is in them (ADR-033), so the first inline script
// of their first document reads the clock's time and its timer fires only
// on clock_advance; the clock's hold goes when the clock does.
func TestClockBeforeFirstScriptOfNewWindows(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.app.Mount("/early/", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, earlyPage)
	}))
	e.launch("/index.html")
	top := e.surfaceByURL("/index.html")
	sess := e.srv.sessions.List()[0]
	const start = 1767225600000 // 2026-01-01T00:00:00Z
	e.ok("clock_install", map[string]any{"time": itoa(start)})
	check := func(what string, at int) {
		t.Helper()
		if got := e.eval("__early"); num(got) != at {
			t.Fatalf("%s: its first script read Date.now() = %v, not the clock's %d", what, got, at)
		}
		time.Sleep(800 * time.Millisecond) // a real 500 ms timer would have fired
		if got := e.eval("__fired.length"); num(got) != 0 {
			t.Fatalf("%s: its first script's timer fired in real time (%v)", what, e.eval("__fired.join()"))
		}
		e.ok("clock_advance", map[string]any{"ms": 1000})
		if got := e.eval("__fired.join()"); got != itoa(at+500) {
			t.Fatalf("%s: after clock_advance its timer fired at %v, want %d", what, got, at+500)
		}
	}

	e.use(top)
	e.eval("window.open('/early/popup.html', '_blank', 'popup'); true")
	e.use(e.surfaceByURL("/early/popup.html"))
	check("a window.open popup", start)

	e.ok("electron_window_open", map[string]any{"url": e.app.URL("a.test", "/early/window.html"), "select": true})
	check("an electron_window_open window", start+1000)
	if got := e.eval("history.length + ' ' + location.pathname"); got != "1 /early/window.html" {
		t.Fatalf("the held window's history: %v (it opened blank and went to its URL)", got)
	}

	if st := sess.Pool.Stats(); st.Holds != 1 || st.ChildAttach == 0 {
		t.Fatalf("with the clock installed the pool has %+v, want 1 hold and OOPIFs held", st)
	}
	k, err := sess.Clock()
	if err != nil {
		t.Fatal(err)
	}
	_ = k.Close() // what the session's end does
	if st := sess.Pool.Stats(); st.Holds != 0 || st.ChildAttach != 0 {
		t.Fatalf("after the clock closed the pool has %+v", st)
	}
}

// TestNetworkLateOOPIFFirstRequests: an OOPIF that appears after capture
// and a stub started is held until both are on it (ADR-033): the nested
// OOPIF fixture added to the top page has its document and its first
// subresource recorded with its own surface, and the stub answers that
// first subresource, in it and in the OOPIF nested in it.
func TestNetworkLateOOPIFFirstRequests(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/index.html")
	top := e.surfaceByURL("/index.html")
	e.surfaceByURL("/cross2.html") // the fixture's own frames are there
	e.lateOOPIF(top, "late")
}

// lateOOPIF runs TestNetworkLateOOPIFFirstRequests's scenario from the top
// page's surface: the nested OOPIF fixture is added as cross1.html?query.
// It leaves capture and stubs off.
func (e *env) lateOOPIF(top map[string]any, query string) {
	t := e.t
	t.Helper()
	e.ok("network_capture_start", nil)
	const css = "h1 { color: rgb(1, 2, 3) }"
	stub := e.ok("network_stub", map[string]any{"urls": []string{"/shared/fixture.css"}, "contentType": "text/css", "body": css})

	e.use(top)
	e.eval("const f = document.createElement('iframe'); f.src = fixtureURL('b.test', '/cross1.html?" + query + "'); document.body.appendChild(f); true")
	late := e.surfaceByURL("/cross1.html?" + query)
	var nested map[string]any
	deadline := time.Now().Add(60 * time.Second)
	for nested == nil {
		for _, x := range e.ok("electron_surfaces_list", nil)["surfaces"].([]any) {
			m := x.(map[string]any)
			if u, _ := m["url"].(string); strings.HasSuffix(u, "/cross2.html") && m["parentId"] == late["id"] {
				nested = m
			}
		}
		if nested == nil && time.Now().After(deadline) {
			t.Fatal("the OOPIF nested in the late one never appeared")
		}
		time.Sleep(100 * time.Millisecond)
	}

	b, c := e.app.URL("b.test", "/shared/fixture.css"), e.app.URL("c.example", "/shared/fixture.css")
	evs := e.netEvents(nil, "the late OOPIFs' requests", func(evs []map[string]any) bool {
		return withURL(evs, "/cross1.html?"+query) != nil && withURL(evs, b) != nil && withURL(evs, c) != nil
	})
	if d := withURL(evs, "/cross1.html?"+query); d["resourceType"] != "Document" || num(d["status"]) != 200 || d["surface_id"] != late["id"] {
		t.Fatalf("the late OOPIF's document request: %v (OOPIF %v)", d, late["id"])
	}
	for _, x := range []struct {
		url     string
		surface map[string]any
	}{{b, late}, {c, nested}} {
		r := withURL(evs, x.url)
		if r["surface_id"] != x.surface["id"] || r["stubbed"] != stub["id"] || r["resourceType"] != "Stylesheet" {
			t.Fatalf("the first subresource %s: %v (OOPIF %v, stub %v)", x.url, r, x.surface["id"], stub["id"])
		}
		e.use(x.surface)
		if got := e.eval("getComputedStyle(document.querySelector('h1')).color"); got != "rgb(1, 2, 3)" {
			t.Fatalf("the stub did not answer %s's first subresource: h1 is %v", x.surface["url"], got)
		}
	}
	e.ok("network_unstub", nil)
	e.ok("network_capture_stop", nil)
}
