package tool

import (
	"strings"
	"testing"
	"time"
)

// TestHungRendererRecovered: a page stuck in while(true){} makes a
// snapshot answer PAGE_UNRESPONSIVE within a few seconds (not
// OPERATION_TIMEOUT at the backstop, forever), naming ways out that exist;
// electron_reload ends the script and reloads, electron_navigate ends it
// and opens another page, and the page is usable afterwards (issue 27,
// point 14). A call whose own script runs long is not taken for a hang.
func TestHungRendererRecovered(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true, OperationTimeout: 60 * time.Second})
	e.launch("/index.html")
	tools := map[string]bool{}
	for _, n := range e.srv.Names() {
		tools[n] = true
	}

	// Our own long script is not a hang: the probe went before it.
	e.ok("electron_eval_renderer", map[string]any{"code": "const t = Date.now(); while (Date.now() - t < 4500) {} return 1", "timeoutMs": 20000})

	spin := func() {
		t.Helper()
		e.ok("electron_eval_renderer", map[string]any{"code": "setTimeout(() => { while (true) {} }, 50); return 1"})
		time.Sleep(300 * time.Millisecond)
	}
	unresponsive := func(within time.Duration) {
		t.Helper()
		start := time.Now()
		m := e.call("electron_snapshot", map[string]any{"format": "json"})
		took := time.Since(start)
		if m["code"] != "PAGE_UNRESPONSIVE" {
			t.Fatalf("snapshot of a spinning page: %v, want PAGE_UNRESPONSIVE", m)
		}
		if took > within {
			t.Errorf("PAGE_UNRESPONSIVE after %s, want within %s", took, within)
		}
		d, _ := m["details"].(map[string]any)
		if d["window_id"] == nil || d["tried"] == nil {
			t.Errorf("details: %v", d)
		}
		next, _ := m["next_actions"].([]any)
		if len(next) == 0 {
			t.Fatalf("no next_actions: %v", m)
		}
		for _, a := range next {
			name, _, _ := strings.Cut(a.(string), " ")
			if !tools[name] {
				t.Errorf("next_actions names %q, which is not a tool", name)
			}
		}
	}

	spin()
	unresponsive(6 * time.Second)
	unresponsive(3 * time.Second) // known hung: the shorter wait
	r := e.ok("electron_reload", map[string]any{"timeoutMs": 20000})
	if r["stopped_script"] != true {
		t.Errorf("reload: %v, want stopped_script", r)
	}
	e.ok("electron_snapshot", map[string]any{"format": "json"})
	if m := e.ok("electron_eval_renderer", map[string]any{"code": "return document.title"}); m["result"] != "Top" {
		t.Errorf("the page's scripts after reload: %v", m)
	}

	spin()
	unresponsive(6 * time.Second)
	n := e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/second.html"), "timeoutMs": 20000})
	if n["stopped_script"] != true || n["title"] != "Second" {
		t.Errorf("navigate: %v, want stopped_script and the second page", n)
	}
	e.ok("electron_snapshot", map[string]any{"format": "json"})
	e.ok("electron_stop", nil)
}

// TestSlowNavigationIsNotAHang: while a cross-site navigation waits for a
// slow server (Chromium holds the window's commands until it commits), a
// page tool is not answered PAGE_UNRESPONSIVE.
func TestSlowNavigationIsNotAHang(t *testing.T) {
	e := newEnv(t, Config{OperationTimeout: 60 * time.Second})
	e.launch("/index.html")
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("c.example", "/slow?ms=6000"), "waitUntil": "none"})
	start := time.Now()
	m := e.call("electron_snapshot", map[string]any{"format": "json"})
	if m["code"] == "PAGE_UNRESPONSIVE" {
		t.Fatalf("snapshot during a slow navigation (%s): %v", time.Since(start), m)
	}
	t.Logf("snapshot during a slow navigation: ok=%v code=%v after %s", m["ok"], m["code"], time.Since(start))
	e.ok("electron_stop", nil)
}

// TestHungNextActionsFollowTheProfile: with --tool-profile essential
// (no electron_reload), PAGE_UNRESPONSIVE names only ways out the client
// has, and electron_navigate recovers.
func TestHungNextActionsFollowTheProfile(t *testing.T) {
	e := newEnv(t, Config{ToolProfile: "essential", AllowEvalRenderer: true})
	e.launch("/index.html")
	e.ok("electron_eval_renderer", map[string]any{"code": "setTimeout(() => { while (true) {} }, 50); return 1"})
	time.Sleep(300 * time.Millisecond)
	m := e.call("electron_snapshot", map[string]any{"format": "json"})
	if m["code"] != "PAGE_UNRESPONSIVE" {
		t.Fatalf("snapshot: %v", m)
	}
	next, _ := m["next_actions"].([]any)
	if len(next) == 0 {
		t.Fatalf("no next_actions: %v", m)
	}
	for _, a := range next {
		name, _, _ := strings.Cut(a.(string), " ")
		if !e.srv.enabledName(name) {
			t.Errorf("next_actions names %q, which the essential profile does not offer", name)
		}
	}
	if n := e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/second.html")}); n["stopped_script"] != true {
		t.Errorf("navigate: %v", n)
	}
	e.ok("electron_snapshot", map[string]any{"format": "json"})
	e.ok("electron_stop", nil)
}

// TestHungFrameRecovered: the selected surface is a cross-site iframe
// (out of process under --site-per-process) whose script spins; its window
// answers. A page tool on the frame answers PAGE_UNRESPONSIVE within a few
// seconds naming the frame (not OPERATION_TIMEOUT at the backstop), and
// electron_surfaces_list answers (the frame marked unresponsive) and the
// window's top document works; electron_reload, the way out it names,
// ends the frame's script on the frame's own target and reloads the
// window: the frame answers again.
func TestHungFrameRecovered(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true, OperationTimeout: 60 * time.Second})
	e.launch("/index.html", "--site-per-process")
	s := e.surfacesNamed(map[string]string{"index.html": "top", "cross1.html": "cross1"})
	tools := map[string]bool{}
	for _, n := range e.srv.Names() {
		tools[n] = true
	}
	e.use(s["cross1"])
	if got := e.eval("location.host"); !strings.HasPrefix(got.(string), "b.test") {
		t.Fatalf("the frame: %v", got)
	}
	e.ok("electron_eval_renderer", map[string]any{"code": "setTimeout(() => { while (true) {} }, 50); return 1"})
	time.Sleep(300 * time.Millisecond)
	for i, within := range []time.Duration{6 * time.Second, 3 * time.Second} {
		start := time.Now()
		m := e.call("electron_snapshot", map[string]any{"format": "json"})
		took := time.Since(start)
		if m["code"] != "PAGE_UNRESPONSIVE" {
			t.Fatalf("snapshot %d of a spinning frame after %s: %v, want PAGE_UNRESPONSIVE", i, took, m)
		}
		if took > within {
			t.Errorf("PAGE_UNRESPONSIVE after %s, want within %s", took, within)
		}
		d, _ := m["details"].(map[string]any)
		if d["surface_id"] != s["cross1"]["id"] || d["window_id"] == nil || d["frame_target_id"] == nil {
			t.Errorf("details name the frame and its window: %v", d)
		}
		next, _ := m["next_actions"].([]any)
		if len(next) == 0 || !strings.HasPrefix(next[0].(string), "electron_reload") {
			t.Fatalf("next_actions: %v", next)
		}
		for _, a := range next {
			name, _, _ := strings.Cut(a.(string), " ")
			if !tools[name] {
				t.Errorf("next_actions names %q, which is not a tool", name)
			}
		}
	}
	// The listing an agent reads to switch away answers, marking the frame.
	start := time.Now()
	l := e.ok("electron_surfaces_list", nil)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("surfaces_list with a stuck frame took %s", took)
	}
	marked := false
	for _, x := range l["surfaces"].([]any) {
		if m := x.(map[string]any); m["id"] == s["cross1"]["id"] {
			marked = m["unresponsive"] == true
		} else if m["unresponsive"] == true {
			t.Errorf("a surface that answers is marked unresponsive: %v", m)
		}
	}
	if !marked {
		t.Errorf("the stuck frame is not marked unresponsive: %v", l)
	}
	e.use(s["top"])
	e.ok("electron_snapshot", map[string]any{"format": "json"})
	e.use(s["cross1"])
	r := e.ok("electron_reload", map[string]any{"timeoutMs": 20000})
	if r["stopped_script"] != true {
		t.Errorf("reload: %v, want stopped_script", r)
	}
	s = e.surfacesNamed(map[string]string{"index.html": "top", "cross1.html": "cross1"})
	e.use(s["cross1"])
	e.ok("electron_snapshot", map[string]any{"format": "json"})
	if got := e.eval("location.host"); !strings.HasPrefix(got.(string), "b.test") {
		t.Fatalf("the frame after reload: %v", got)
	}
	e.ok("electron_stop", nil)
}
