package tool

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture/components"
)

// waitEval polls a renderer expression until it is true (15 s at most).
func (e *env) waitEval(expr string) {
	e.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for e.eval("!!("+expr+")") != true {
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting for %s", expr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSnapshotPlainTextThroughMCP: text under body (text nodes, span, em,
// small) is in the snapshot, and the status a click writes shows in
// since:'last', through the dispatcher.
func TestSnapshotPlainTextThroughMCP(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/index.html")
	e.eval(`document.body.innerHTML = 'Loose words <em>stressed</em> <small>fine print</small> <span>and a span</span>' +
		'<button id="go" onclick="document.getElementById(\'st\').textContent = \'Draft saved\'">Save</button> <span id="st"></span>'; true`)
	full := e.ok("electron_snapshot", map[string]any{"format": "text"})["snapshot_text"].(string)
	if !strings.Contains(full, "\ntext \"Loose words stressed fine print and a span\"\n") || strings.Count(full, "Save") != 1 {
		t.Fatalf("text snapshot:\n%s", full)
	}
	e.ok("electron_click", map[string]any{"selector": "#go"})
	since := e.ok("electron_snapshot", map[string]any{"format": "text", "since": "last"})["snapshot_text"].(string)
	if !regexp.MustCompile(`(?m)^\+\[\d+\] text "Draft saved"$`).MatchString(since) {
		t.Fatalf("since:'last' after the click:\n%s", since)
	}
	js := e.ok("electron_snapshot", map[string]any{"format": "json", "since": "last"})
	if num(js["count"]) != 0 {
		t.Fatalf("nothing changed since, yet: %v", js)
	}
}

// TestVirtualListThroughMCP: react-window's 10,000-row list shows its
// extent; plain find does not scroll; find {scroll:true} and
// scroll_into_view bring "Item 5000" in and a click on its ref lands.
func TestVirtualListThroughMCP(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.app.Mount(components.Prefix, components.Handler(components.Require(t)))
	e.launch(components.Prefix + "pages/reactwindow.html")
	e.waitEval(`window.__ready && document.querySelector('[role=listitem]')`)
	text := e.ok("electron_snapshot", map[string]any{"format": "text"})["snapshot_text"].(string)
	if !regexp.MustCompile(`\[\d+\] list "Files" rows≈10000 rendered=\d+\n`).MatchString(text) {
		t.Fatalf("no extent:\n%s", text)
	}
	scroller := `document.querySelector('[role=list] [role=list]')`

	f := e.ok("electron_find", map[string]any{"role": "button", "name_exact": "Item 5000"})
	if num(f["count"]) != 0 || num(e.eval(scroller+".scrollTop")) != 0 {
		t.Fatalf("plain find scrolled or found: %v", f)
	}
	f = e.ok("electron_find", map[string]any{"role": "button", "name_exact": "Item 5000", "scroll": true, "timeoutMs": 30000})
	if num(f["count"]) != 1 || num(f["scrolled_pages"]) == 0 {
		t.Fatalf("find scroll:true: %v", f)
	}
	ref := num(f["matches"].([]any)[0].(map[string]any)["ref"])
	e.ok("electron_click", map[string]any{"ref": ref})
	if got := toJSON(e.eval("window.__clicked")); got != "[5000]" {
		t.Fatalf("window.__clicked = %s, want [5000]", got)
	}

	e.eval(scroller + ".scrollTop = 0; window.__clicked = []; true")
	e.waitEval(`document.querySelector('[data-react-window-index="0"]')`)
	r := e.ok("electron_scroll_into_view", map[string]any{"role": "button", "name": "Item 5000", "timeoutMs": 30000})
	if r["name"] != "Item 5000" || r["in_view"] != true || num(r["ref"]) == 0 {
		t.Fatalf("scroll_into_view: %v", r)
	}
	e.ok("electron_click", map[string]any{"ref": num(r["ref"])})
	if got := toJSON(e.eval("window.__clicked")); got != "[5000]" {
		t.Fatalf("window.__clicked = %s, want [5000]", got)
	}
	// A selector that matches nothing rendered is sought the same way, and
	// one that never renders fails with how far it scrolled.
	r = e.ok("electron_scroll_into_view", map[string]any{"selector": "[data-react-window-index='9990'] button", "timeoutMs": 30000})
	if r["name"] != "Item 9990" {
		t.Fatalf("scroll_into_view by selector: %v", r)
	}
	m := e.fails("electron_scroll_into_view", map[string]any{"role": "button", "name": "Item 123456", "timeoutMs": 1000}, "ELEMENT_NOT_FOUND")
	if d, _ := m["details"].(map[string]any); d == nil || d["lists"] == nil {
		t.Fatalf("details: %v", m)
	}
	e.fails("electron_scroll_into_view", map[string]any{"role": "button", "ref": 3}, "BAD_ARGUMENT")
	e.fails("electron_find", map[string]any{"interactive": true, "scroll": true}, "BAD_ARGUMENT")
}
