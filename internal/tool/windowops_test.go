package tool

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// TestWindowOpenCloseHistory: a window opened by the tool is listed at once
// and loaded; browser-acting and javascript: URLs are refused; back,
// forward and reload move the real history; closing it leaves one window.
func TestWindowOpenCloseHistory(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/index.html")
	second := e.app.URL("a.test", "/second.html")
	r := e.ok("electron_window_open", map[string]any{"url": second})
	id := r["window_id"].(string)
	if r["loaded"] != true || r["url"] != second || r["title"] != "Second" || num(r["window_count"]) != 2 {
		t.Fatalf("open: %v", r)
	}
	if l := e.ok("electron_windows_list", nil); num(l["count"]) != 2 {
		t.Fatalf("list after open: %v", l)
	}
	for _, bad := range []string{"javascript:alert(1)", "chrome://quit", "chrome://crash"} {
		e.fails("electron_window_open", map[string]any{"url": bad}, "BAD_ARGUMENT")
	}
	if l := e.ok("electron_windows_list", nil); num(l["count"]) != 2 {
		t.Fatalf("a refused open opened a window: %v", l)
	}

	// History of the launched window.
	top := e.app.URL("a.test", "/index.html")
	e.ok("electron_navigate", map[string]any{"url": second})
	r = e.ok("electron_go_back", nil)
	if r["url"] != top || r["same_document"] != false {
		t.Fatalf("back: %v", r)
	}
	if got := e.eval("location.href"); got != top {
		t.Fatalf("the page is at %v after back", got)
	}
	back := num(r["index"])
	r = e.ok("electron_go_forward", nil)
	if r["url"] != second || num(r["index"]) != back+1 {
		t.Fatalf("forward: %v", r)
	}
	e.fails("electron_go_forward", nil, "HISTORY_EMPTY")
	e.eval("location.hash = 'x'; true")
	r = e.ok("electron_go_back", nil)
	if r["same_document"] != true || r["url"] != second {
		t.Fatalf("back within the document: %v", r)
	}
	e.eval("window.__mark = 7; true")
	r = e.ok("electron_reload", map[string]any{"ignoreCache": true})
	if r["url"] != second {
		t.Fatalf("reload: %v", r)
	}
	if got := e.eval("window.__mark === undefined"); got != true {
		t.Fatal("reload did not load a new document")
	}

	r = e.ok("electron_window_close", map[string]any{"windowId": id})
	if num(r["windows_left"]) != 1 {
		t.Fatalf("close: %v", r)
	}
	e.fails("electron_window_close", map[string]any{"windowId": id}, "BAD_ARGUMENT")
}

// TestWindowToolsOnAttachedElectron: an Electron app (the Electron-shaped
// proxy) decides its windows: open is refused with the app's-UI hint, and
// its last window is not closed without force.
func TestWindowToolsOnAttachedElectron(t *testing.T) {
	e := newEnv(t, Config{})
	ctx := t.Context()
	b := chromiumtest.Start(ctx, t)
	proxy, err := fixture.StartElectronProxy(ctx, b.HTTPURL, fixture.ProxyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = proxy.Close() })
	e.ok("electron_attach", map[string]any{"cdpUrl": proxy.HTTPURL()})
	wins := e.ok("electron_windows_list", nil)["windows"].([]any)
	if len(wins) != 1 {
		t.Fatalf("want one window, got %v", wins)
	}
	id := wins[0].(map[string]any)["id"].(string)
	e.fails("electron_window_open", map[string]any{"url": e.app.URL("a.test", "/second.html")}, "WINDOW_OPEN_REFUSED")
	e.fails("electron_window_close", map[string]any{"windowId": id}, "LAST_WINDOW")
	if l := e.ok("electron_windows_list", nil); num(l["count"]) != 1 {
		t.Fatalf("the refused close closed: %v", l)
	}
}
