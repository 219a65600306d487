package tool

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// surfaceEnv attaches, through the Electron-shaped proxy, to a Chromium that
// shows the surface fixture, a second window and a webview guest.
func surfaceEnv(t *testing.T) (*env, map[string]map[string]any) {
	t.Helper()
	return surfaceEnvWith(t, Config{AllowEvalRenderer: true})
}

// surfaceEnvWith is surfaceEnv with a server configured by cfg.
func surfaceEnvWith(t *testing.T, cfg Config) (*env, map[string]map[string]any) {
	t.Helper()
	e := newEnv(t, cfg)
	ctx := t.Context()
	b := chromiumtest.Start(ctx, t)
	for _, p := range []string{"/index.html", "/second.html", "/webview-host.html", "/guest.html"} {
		if _, err := b.NewPage(ctx, e.app.URL("a.test", p)); err != nil {
			t.Fatal(err)
		}
	}
	proxy, err := fixture.StartElectronProxy(ctx, b.HTTPURL, fixture.ProxyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = proxy.Close() })
	e.ok("electron_attach", map[string]any{"cdpUrl": proxy.HTTPURL()})
	return e, e.surfacesByTitle()
}

// surfacesByTitle lists the surfaces (waiting until the fixture's frames are
// all there) keyed by document name: top, same1, same2, cross1, …
func (e *env) surfacesByTitle() map[string]map[string]any {
	e.t.Helper()
	return e.surfacesNamed(map[string]string{"index.html": "top", "same1.html": "same1", "same2.html": "same2", "cross1.html": "cross1",
		"cross2.html": "cross2", "covered.html": "covered", "removable.html": "removable", "second.html": "second",
		"webview-host.html": "host", "guest.html": "guest"})
}

// surfacesNamed waits until a surface of every document in names (URL
// suffix → name) is listed, and returns them by name.
func (e *env) surfacesNamed(names map[string]string) map[string]map[string]any {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		r := e.ok("electron_surfaces_list", nil)
		out := map[string]map[string]any{}
		for _, s := range r["surfaces"].([]any) {
			m := s.(map[string]any)
			u, _ := m["url"].(string)
			for suffix, n := range names {
				if strings.HasSuffix(u, "/"+suffix) {
					out[n] = m
				}
			}
		}
		if len(out) == len(names) {
			e.checkParentFirst(r["surfaces"].([]any))
			return out
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("surfaces never complete: have %d of %d: %v", len(out), len(names), r)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (e *env) checkParentFirst(list []any) {
	e.t.Helper()
	seen := map[string]bool{}
	for _, s := range list {
		m := s.(map[string]any)
		if p, _ := m["parentId"].(string); p != "" && !seen[p] {
			e.t.Fatalf("surface %v listed before its parent %s", m["id"], p)
		}
		seen[m["id"].(string)] = true
	}
}

func (e *env) use(s map[string]any) {
	e.t.Helper()
	r := e.ok("electron_switch_surface", map[string]any{"surfaceId": s["id"]})
	if r["active_surface_id"] != s["id"] {
		e.t.Fatalf("switch: %v", r)
	}
}

func (e *env) eval(code string) any {
	e.t.Helper()
	return e.ok("electron_eval_renderer", map[string]any{"code": code})["result"]
}

// clicksOn counts the clicks the active surface's page recorded on an id.
func (e *env) clicksOn(id string) int {
	e.t.Helper()
	return num(e.eval("window.__events.filter(x => x.type === 'click' && x.target === '" + id + "').length"))
}

func TestSurfaceProof(t *testing.T) {
	e, s := surfaceEnv(t)

	// Kinds, parents and origin relations.
	for name, want := range map[string][3]string{
		"top": {"other", "", ""}, "same1": {"frame", "top", "same-origin"}, "same2": {"frame", "same1", "same-origin"},
		"cross1": {"frame", "top", "cross-origin"}, "cross2": {"frame", "cross1", "cross-origin"},
		"second": {"other", "", ""}, "host": {"other", "", ""}, "guest": {"webview", "host", ""},
	} {
		got := s[name]
		parent := ""
		if want[1] != "" {
			parent = s[want[1]]["id"].(string)
		}
		rel, _ := got["originRelation"].(string)
		pid, _ := got["parentId"].(string)
		if got["kind"] != want[0] || pid != parent || (want[2] != "" && rel != want[2]) {
			t.Errorf("%s: kind %v parent %v relation %v, want %v (parent id %q)", name, got["kind"], pid, rel, want, parent)
		}
	}

	// Eval, snapshot and a real click in an in-process frame two deep, an
	// OOPIF inside an OOPIF, and the webview guest.
	for _, name := range []string{"same2", "cross2", "guest"} {
		e.use(s[name])
		title := map[string]string{"same2": "Same 2", "cross2": "Cross 2", "guest": "Guest"}[name]
		if got := e.eval("document.title"); got != title {
			t.Fatalf("%s: eval title %v", name, got)
		}
		snap := e.ok("electron_snapshot", map[string]any{"format": "text"})
		if snap["surface_id"] != s[name]["id"] || !strings.Contains(snap["snapshot_text"].(string), `"Click `+name+`"`) {
			t.Fatalf("%s: snapshot %v", name, snap)
		}
		before := e.clicksOn("btn")
		e.ok("electron_click", map[string]any{"selector": "#btn"})
		if after := e.clicksOn("btn"); after != before+1 {
			t.Fatalf("%s: the page recorded %d clicks on #btn, want %d", name, after, before+1)
		}
	}

	// Selecting the webview surface made it the active window.
	w := e.ok("electron_windows_list", nil)
	var guestWin string
	for _, x := range w["windows"].([]any) {
		m := x.(map[string]any)
		if m["surface_id"] == s["guest"]["id"] {
			guestWin = m["id"].(string)
			if m["type"] != "webview" {
				t.Errorf("guest window type %v", m["type"])
			}
		}
	}
	if guestWin == "" || w["active_window_id"] != guestWin {
		t.Fatalf("active window %v, guest window %q", w["active_window_id"], guestWin)
	}

	// An overlay in the top page covers the frame: the click is not sent
	// (the enclosing document is hit-tested first) and the error names it.
	e.use(s["covered"])
	m := e.fails("electron_click", map[string]any{"selector": "#btn", "timeoutMs": 300}, "ELEMENT_NOT_VISIBLE")
	if !strings.Contains(m["error"].(string), "overlay") {
		t.Errorf("the error does not name the overlay: %v", m["error"])
	}
	// details.covering has the one shape (page.Covering) wherever the
	// cover is: here an object marked enclosing, without a ref.
	if c, ok := details(m)["covering"].(map[string]any); !ok || c["enclosing"] != true || num(c["ref"]) != 0 ||
		!strings.Contains(fmt.Sprint(c["selector"]), "#overlay") || c["tag"] == "" {
		t.Errorf("details.covering of a cover in the enclosing document: %#v", details(m)["covering"])
	}
	overlayClicks := func() int {
		e.use(s["top"])
		defer e.use(s["covered"])
		return num(e.eval("window.__events.filter(x => x.type === 'click' && x.target === 'overlay').length"))
	}
	if n, o := e.clicksOn("btn"), overlayClicks(); n != 0 || o != 0 {
		t.Fatalf("after a refused click the covered frame recorded %d clicks and the overlay %d", n, o)
	}
	// With force the click is sent: the browser's hit-testing gives it to
	// the overlay, and the receipt says the element did not get it.
	m = e.fails("electron_click", map[string]any{"selector": "#btn", "force": true}, "ELEMENT_NOT_VISIBLE")
	if !strings.Contains(m["error"].(string), "overlay") {
		t.Errorf("the forced click's error does not name the overlay: %v", m["error"])
	}
	if n, o := e.clicksOn("btn"), overlayClicks(); n != 0 || o != 1 {
		t.Fatalf("after a forced click the covered frame recorded %d clicks and the overlay %d, want 0 and 1", n, o)
	}

	// A key press reaches an input focused inside a nested OOPIF.
	e.use(s["cross2"])
	e.ok("electron_key", map[string]any{"key": "q", "selector": "#inp"})
	if v := e.eval("document.querySelector('#inp').value"); v != "q" {
		t.Fatalf("cross2 input value %v after a key press", v)
	}
	// And without a selector, the frame gets the focus first.
	e.use(s["same2"])
	e.eval("document.querySelector('#inp').focus(); window.top.focus(); true")
	e.ok("electron_key", map[string]any{"key": "Shift+Z"})
	if n := num(e.eval("window.__events.filter(x => x.type === 'keydown' && x.key === 'Z').length")); n != 1 {
		t.Fatalf("same2 saw %d Z keydowns", n)
	}

	// A ref acts in the surface that issued it, never in the selected one
	// (ADR-001 as amended by issue 15): same2's ref used while cross2 is
	// selected clicks same2's button, says so, and leaves cross2 selected
	// and unclicked.
	e.use(s["same2"])
	f := e.ok("electron_find", map[string]any{"role": "button", "name_exact": "Click same2"})
	ref := f["matches"].([]any)[0].(map[string]any)["ref"]
	same2Clicks := e.clicksOn("btn")
	e.use(s["cross2"])
	e.ok("electron_snapshot", map[string]any{"format": "json"})
	before := e.clicksOn("btn")
	if r := e.ok("electron_click", map[string]any{"ref": ref}); r["surface_id"] != s["same2"]["id"] {
		t.Fatalf("a same2 ref clicked with surface_id %v", r["surface_id"])
	}
	if e.clicksOn("btn") != before {
		t.Fatal("a same2 ref clicked in cross2")
	}
	if r := e.ok("electron_get_text", map[string]any{"ref": ref}); r["surface_id"] != s["same2"]["id"] || r["text"] != "Click same2" {
		t.Fatalf("a same2 ref read from another surface: %v", r)
	}
	if l := e.ok("electron_surfaces_list", nil); l["active_surface_id"] != s["cross2"]["id"] {
		t.Fatalf("the selected surface changed to %v", l["active_surface_id"])
	}
	e.use(s["same2"])
	if e.clicksOn("btn") != same2Clicks+1 {
		t.Fatalf("same2's button got %d clicks, want %d", e.clicksOn("btn"), same2Clicks+1)
	}

	// A surface keeps its id when its frame navigates.
	e.use(s["top"])
	e.eval("navigateFrame('same1', fixtureURL('a.test', '/second.html')); true")
	e.eval("navigateFrame('cross1', fixtureURL('b.test', '/cross1.html?again=1')); true")
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := e.ok("electron_surfaces_list", nil)
		var sameOK, crossOK bool
		for _, x := range r["surfaces"].([]any) {
			m := x.(map[string]any)
			if m["id"] == s["same1"]["id"] && strings.HasSuffix(m["url"].(string), "/second.html") {
				sameOK = true
			}
			if m["id"] == s["cross1"]["id"] && strings.HasSuffix(m["url"].(string), "?again=1") {
				crossOK = true
			}
		}
		if sameOK && crossOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("navigated frames changed ids: %v", r)
		}
		time.Sleep(100 * time.Millisecond)
	}

	// A removed frame is SURFACE_CLOSED, and so is a ref it issued; an
	// unknown id SURFACE_NOT_FOUND.
	e.use(s["removable"])
	gone := e.ok("electron_find", map[string]any{"role": "button"})["matches"].([]any)[0].(map[string]any)["ref"]
	e.use(s["top"])
	e.eval("removeFrame('removable'); true")
	deadline = time.Now().Add(5 * time.Second)
	for {
		m := e.call("electron_switch_surface", map[string]any{"surfaceId": s["removable"]["id"]})
		if m["code"] == "SURFACE_CLOSED" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("removed frame: %v", m)
		}
		time.Sleep(50 * time.Millisecond)
	}
	e.fails("electron_switch_surface", map[string]any{"surfaceId": "s1-surface-9999"}, "SURFACE_NOT_FOUND")
	deadline = time.Now().Add(10 * time.Second)
	for {
		m := e.call("electron_click", map[string]any{"ref": gone, "timeoutMs": 300})
		if m["code"] == "SURFACE_CLOSED" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a ref of the removed frame: %v", m)
		}
		time.Sleep(100 * time.Millisecond)
	}
	e.ok("electron_detach", nil)
}

// TestRefsActWhereTheyPoint: refs taken in the top page, the in-process
// frame two deep (same2), the nested cross-site OOPIF (cross2) and the
// webview guest, all used while the top page stays selected: each click
// lands in its own surface (counted there by the page), each answer names
// that surface, and the selection never moves.
func TestRefsActWhereTheyPoint(t *testing.T) {
	e, s := surfaceEnv(t)
	names := []string{"top", "same2", "cross2", "guest"}
	refs, clicks := map[string]any{}, map[string]int{}
	for _, n := range names {
		e.use(s[n])
		m := e.ok("electron_find", map[string]any{"role": "button", "name_exact": "Click " + n})["matches"].([]any)
		refs[n] = m[0].(map[string]any)["ref"]
		clicks[n] = e.clicksOn("btn")
	}
	e.use(s["top"])
	for _, n := range names {
		r := e.ok("electron_click", map[string]any{"ref": refs[n]})
		if r["surface_id"] != s[n]["id"] {
			t.Errorf("%s's ref clicked in %v", n, r["surface_id"])
		}
		if tx := e.ok("electron_get_text", map[string]any{"ref": refs[n]}); tx["text"] != "Click "+n {
			t.Errorf("%s's ref reads %v", n, tx["text"])
		}
		if l := e.ok("electron_surfaces_list", nil); l["active_surface_id"] != s["top"]["id"] {
			t.Fatalf("clicking %s's ref moved the selection to %v", n, l["active_surface_id"])
		}
	}
	for _, n := range names {
		e.use(s[n])
		if got := e.clicksOn("btn"); got != clicks[n]+1 {
			t.Errorf("%s's button: %d clicks, want %d", n, got, clicks[n]+1)
		}
	}
}

// frameSurfaces lists until a surface whose URL ends with each name exists
// and returns their ids.
func (e *env) frameSurfaces(names ...string) map[string]string {
	e.t.Helper()
	out := map[string]string{}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && len(out) < len(names); time.Sleep(100 * time.Millisecond) {
		clear(out)
		for _, x := range e.ok("electron_surfaces_list", nil)["surfaces"].([]any) {
			m := x.(map[string]any)
			for _, n := range names {
				if strings.HasSuffix(m["url"].(string), "/"+n) {
					out[n] = m["id"].(string)
				}
			}
		}
	}
	if len(out) < len(names) {
		e.t.Fatalf("frames %v: found %v", names, out)
	}
	return out
}

// TestSelectedFrameGoesWithItsWindow: the selected frame (in-process or
// out-of-process) dies when its window navigates, by electron_navigate or
// by the page's own reload during a call: the next call, or the call under
// way, answers SURFACE_CLOSED at once (never CDP_DISCONNECTED or
// INTERNAL_ERROR: the app is healthy). A frame that survives (a same-document
// navigation of its window) keeps working.
func TestSelectedFrameGoesWithItsWindow(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/index.html")
	top := e.ok("electron_surfaces_list", nil)["surfaces"].([]any)[0].(map[string]any)["id"]
	closed := func(what, name string, args map[string]any) {
		t.Helper()
		t0 := time.Now()
		m := e.fails(name, args, "SURFACE_CLOSED")
		if took := time.Since(t0); took > 3*time.Second {
			t.Errorf("%s: %s took %v", what, name, took)
		}
		if h, _ := m["hint"].(string); !strings.Contains(h, "electron_switch_surface") {
			t.Errorf("%s: hint %q", what, h)
		}
	}
	for _, frame := range []string{"same1.html", "cross1.html"} {
		// electron_navigate of the window, then calls in the old frame.
		e.ok("electron_switch_surface", map[string]any{"surfaceId": e.frameSurfaces(frame)[frame]})
		e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/index.html")})
		closed(frame+" after navigate", "electron_snapshot", nil)
		closed(frame+" after navigate", "electron_get_text", map[string]any{"selector": "body"})
		closed(frame+" after navigate", "electron_eval_renderer", map[string]any{"code": "1"})

		// The window reloads itself while a call runs in the frame.
		id := e.frameSurfaces(frame)[frame]
		e.ok("electron_switch_surface", map[string]any{"surfaceId": top})
		e.eval("setTimeout(() => location.reload(), 300); true")
		e.ok("electron_switch_surface", map[string]any{"surfaceId": id})
		closed(frame+" during a reload", "electron_eval_renderer", map[string]any{"code": "new Promise(r => setTimeout(() => r(1), 5000))"})
		closed(frame+" after the reload", "electron_click", map[string]any{"selector": "body"})
		e.ok("electron_switch_surface", map[string]any{"surfaceId": top})
	}
	// A same-document navigation of the window leaves its frames alone.
	id := e.frameSurfaces("same1.html")["same1.html"]
	e.ok("electron_switch_surface", map[string]any{"surfaceId": id})
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/index.html#elsewhere")})
	if got := e.evalString("location.pathname"); got != "/same1.html" {
		t.Fatalf("the surviving frame: %q", got)
	}
	e.ok("electron_snapshot", map[string]any{"format": "json"})
}

// TestSnapshotAllSurfaces: one text snapshot of the window with every
// frame inlined under its iframe line (the frame two deep under its parent
// frame, the nested cross-site OOPIF under its cross-site parent), and the
// webview guest under its host's webview line; a ref read from it clicks
// in its own surface with the top page still selected.
func TestSnapshotAllSurfaces(t *testing.T) {
	e, s := surfaceEnv(t)
	e.use(s["top"])
	text := e.ok("electron_snapshot", map[string]any{"surfaces": "all", "format": "text"})["snapshot_text"].(string)
	t.Logf("%s", text)
	indentOf := func(needle string) int {
		t.Helper()
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, needle) {
				return len(l) - len(strings.TrimLeft(l, " "))
			}
		}
		t.Fatalf("no line with %q in\n%s", needle, text)
		return -1
	}
	top, same1, same2 := indentOf("Click top"), indentOf("Click same1"), indentOf("Click same2")
	cross1, cross2 := indentOf("Click cross1"), indentOf("Click cross2")
	if !(top < same1 && same1 < same2 && top < cross1 && cross1 < cross2) {
		t.Fatalf("nesting: top %d same1 %d same2 %d cross1 %d cross2 %d", top, same1, same2, cross1, cross2)
	}
	for _, n := range []string{"same1", "same2", "cross1", "cross2"} {
		if !strings.Contains(text, "# surface "+s[n]["id"].(string)+" frame ") {
			t.Errorf("no header for %s", n)
		}
		if i, j := strings.Index(text, "# surface "+s[n]["id"].(string)+" "), strings.Index(text, "Click "+n); i < 0 || j < i {
			t.Errorf("%s's button is not under its header", n)
		}
	}
	// The ref on cross2's button line acts in cross2.
	var ref string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "Click cross2") {
			if i := strings.Index(l, "["); i >= 0 {
				if j := strings.Index(l[i:], "]"); j > 0 {
					ref = strings.TrimPrefix(l[i+1:i+j], "ref=")
				}
			}
		}
	}
	if r := e.ok("electron_get_text", map[string]any{"ref": ref}); r["surface_id"] != s["cross2"]["id"] || r["text"] != "Click cross2" {
		t.Fatalf("cross2's ref %q from the snapshot read %v", ref, r)
	}
	if strings.Contains(text, "\"\"[") || strings.Contains(text, "\"Click top\"\n  ") {
		t.Fatalf("a child block was glued to or misplaced after its parent's line:\n%s", text)
	}
	// since:'last' across surfaces: a change in the nested OOPIF shows,
	// under its surface's header, and nothing else does.
	e.use(s["cross2"])
	e.eval("document.getElementById('btn').textContent = 'Renamed cross2'; true")
	e.use(s["top"])
	diff := e.ok("electron_snapshot", map[string]any{"surfaces": "all", "since": "last"})["snapshot_text"].(string)
	if i, j := strings.Index(diff, "# surface "+s["cross2"]["id"].(string)+" "), strings.Index(diff, "Renamed cross2"); i < 0 || j < i || strings.Contains(diff, "Click same2") {
		t.Fatalf("since:'last' across surfaces:\n%s", diff)
	}
	// The webview guest under its host's webview line.
	e.use(s["host"])
	text = e.ok("electron_snapshot", map[string]any{"surfaces": "all"})["snapshot_text"].(string)
	if !strings.Contains(text, "# surface "+s["guest"]["id"].(string)+" webview ") || !strings.Contains(text, "Click guest") {
		t.Fatalf("no guest in the host's snapshot:\n%s", text)
	}
	e.fails("electron_snapshot", map[string]any{"surfaces": "all", "format": "json"}, "BAD_ARGUMENT")
}

// TestFindAllSurfaces: one find over the window returns the buttons of the
// top page, the frame two deep and the nested OOPIF, each with its
// surface_id, and a match's ref clicks in its own surface.
func TestFindAllSurfaces(t *testing.T) {
	e, s := surfaceEnv(t)
	e.use(s["top"])
	r := e.ok("electron_find", map[string]any{"surfaces": "all", "role": "button", "name_contains": "Click"})
	bySurface := map[any]map[string]any{}
	for _, m := range r["matches"].([]any) {
		m := m.(map[string]any)
		bySurface[m["surface_id"]] = m
	}
	for _, n := range []string{"top", "same2", "cross2"} {
		m := bySurface[s[n]["id"]]
		if m == nil || m["name"] != "Click "+n {
			t.Fatalf("no match of %s in %v", n, r)
		}
	}
	e.use(s["same2"])
	before := e.clicksOn("btn")
	e.use(s["top"])
	if c := e.ok("electron_click", map[string]any{"ref": bySurface[s["same2"]["id"]]["ref"]}); c["surface_id"] != s["same2"]["id"] {
		t.Fatalf("same2's match clicked in %v", c["surface_id"])
	}
	e.use(s["same2"])
	if e.clicksOn("btn") != before+1 {
		t.Fatal("same2's button was not clicked")
	}
	e.fails("electron_find", map[string]any{"surfaces": "all", "role": "button", "scroll": true}, "BAD_ARGUMENT")
}
