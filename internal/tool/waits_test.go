package tool

import (
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
	"github.com/understudy-dev/understudy/internal/page"
)

// armTiming (run in a surface with electron_eval_renderer) gives any
// document actions.html's timing section, started now: #late appears after
// 300 ms, and #eventually reads "waiting" until armReady.
const armTiming = `(() => {
	const mk = (tag, id, parent) => { let el = document.getElementById(id); if (!el) { el = document.createElement(tag); el.id = id; parent.appendChild(el); } return el; };
	const slot = mk('div', 'late-slot', document.body);
	const old = document.getElementById('late'); if (old) old.remove();
	const ev = mk('span', 'eventually', document.body);
	ev.textContent = 'waiting';
	setTimeout(() => { const b = document.createElement('button'); b.id = 'late'; b.textContent = 'Late button'; slot.appendChild(b); }, 300);
	return true;
})()`

// armReady makes #eventually read "ready" 1 s from now (after #late
// appeared: a window behind another runs its timers about once a second,
// so two timers armed together could fire together).
const armReady = `setTimeout(() => { document.getElementById('eventually').textContent = 'ready'; }, 1000); true`

// waitApp is one Chromium with the fixture pages the wait tests use, seen
// through the Electron-shaped proxy (guest.html is a webview guest of
// webview-host.html), attached as an app.
func waitApp(t *testing.T) (*env, map[string]string) {
	t.Helper()
	e := newEnv(t, Config{AllowEvalRenderer: true})
	b := chromiumtest.Start(t.Context(), t)
	for _, p := range []string{"/actions.html", "/index.html", "/large.html", "/webview-host.html", "/guest.html"} {
		if _, err := b.NewPage(t.Context(), e.app.URL("a.test", p)); err != nil {
			t.Fatal(err)
		}
	}
	p, err := fixture.StartElectronProxy(t.Context(), b.HTTPURL, fixture.ProxyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	e.ok("electron_attach", map[string]any{"cdpUrl": p.HTTPURL()})
	// The surfaces by page, once every one of them has a document.
	want := map[string]string{"actions": "a.test", "same2": "a.test", "cross2": "c.example", "large": "a.test", "guest": "a.test"}
	deadline := time.Now().Add(20 * time.Second)
	for {
		ids := map[string]string{}
		kinds := map[string]string{}
		for _, s := range e.ok("electron_surfaces_list", nil)["surfaces"].([]any) {
			d := s.(map[string]any)
			u, _ := d["url"].(string)
			caps, _ := d["capabilities"].(map[string]any)
			for name, host := range want {
				if strings.Contains(u, "://"+host+":") && strings.HasSuffix(u, "/"+name+".html") && caps["snapshot"] == true {
					ids[name] = d["id"].(string)
					kinds[name] = d["kind"].(string)
				}
			}
		}
		if len(ids) == len(want) {
			if kinds["guest"] != "webview" || kinds["cross2"] != "frame" || kinds["same2"] != "frame" {
				t.Fatalf("surface kinds: %v", kinds)
			}
			return e, ids
		}
		if time.Now().After(deadline) {
			t.Fatalf("surfaces never all ready: have %v", ids)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (e *env) waitUse(surfaceID string) {
	e.t.Helper()
	r := e.ok("electron_switch_surface", map[string]any{"surfaceId": surfaceID})
	if r["active_surface_id"] != surfaceID {
		e.t.Fatalf("switch: %v", r)
	}
}

// details returns a failure's details.
func waitDetails(m map[string]any) map[string]any {
	d, _ := m["details"].(map[string]any)
	return d
}

// TestWaitsOnEverySurface runs the waits and expectations in a top page, an
// in-process frame two deep (same2), a nested OOPIF (cross2) and a webview
// guest behind the Electron-shaped proxy.
func TestWaitsOnEverySurface(t *testing.T) {
	e, ids := waitApp(t)
	var topRef int
	for _, name := range []string{"actions", "same2", "cross2", "guest"} {
		t.Run(name, func(t *testing.T) {
			e.t = t
			sid := ids[name]
			e.waitUse(sid)
			if name == "actions" {
				// Let the page's own timers run first (a window behind
				// another runs them late).
				e.ok("electron_expect_text", map[string]any{"selector": "#eventually", "equals": "ready", "timeoutMs": 10000})
			}
			e.ok("electron_eval_renderer", map[string]any{"code": armTiming})

			// wait_for_selector: #late appears after 300 ms.
			r := e.ok("electron_wait_for_selector", map[string]any{"selector": "#late"})
			el, _ := r["element"].(map[string]any)
			if r["surface_id"] != sid || r["waited_for"] != "visible" || el == nil || num(el["ref"]) == 0 || el["role"] != "button" || num(r["elapsed_ms"]) < 100 {
				t.Fatalf("wait_for_selector: %v", r)
			}
			ref := num(el["ref"])
			if name == "actions" {
				topRef = ref
			} else if topRef != 0 {
				// A ref of another surface is waited for in its own surface.
				if r := e.ok("electron_wait_for_selector", map[string]any{"ref": topRef, "timeoutMs": 0}); r["surface_id"] != ids["actions"] {
					t.Fatalf("a ref of the top surface waited in %v", r["surface_id"])
				}
			}

			// An expectation that becomes true after 1 s passes.
			e.ok("electron_eval_renderer", map[string]any{"code": armReady})
			r = e.ok("electron_expect_text", map[string]any{"selector": "#eventually", "equals": "ready"})
			if r["passed"] != true || r["actual"] != "ready" || r["surface_id"] != sid || num(r["elapsed_ms"]) < 800 {
				t.Fatalf("expect ready: %v", r)
			}
			// One that never does: EXPECTATION_FAILED with the last value.
			m := e.fails("electron_expect_text", map[string]any{"selector": "#eventually", "equals": "never", "timeoutMs": 300}, "EXPECTATION_FAILED")
			d := waitDetails(m)
			if exp, _ := d["expected"].(map[string]any); exp["equals"] != "never" || d["actual"] != "ready" || m["retryable"] != true || num(m["http"]) != 417 {
				t.Fatalf("never: %v", m)
			}
			if el := num(d["elapsed_ms"]); el < 290 || el > 3000 {
				t.Fatalf("never took %d ms", el)
			}

			// Regex, and a regex that does not compile.
			e.ok("electron_expect_text", map[string]any{"ref": ref, "regex": "^late\\s+BUTTON$", "flags": "i"})
			m = e.fails("electron_expect_text", map[string]any{"selector": "#eventually", "regex": "(ready"}, "BAD_ARGUMENT")
			if waitDetails(m)["field"] != "regex" {
				t.Fatalf("bad regex: %v", m)
			}

			// timeoutMs 0 checks once.
			m = e.fails("electron_expect_text", map[string]any{"selector": "#eventually", "not_equals": "ready", "timeoutMs": 0}, "EXPECTATION_FAILED")
			if el := num(waitDetails(m)["elapsed_ms"]); el > 1000 || waitDetails(m)["timeout_ms"] != 0.0 {
				t.Fatalf("check once: %v", m)
			}

			// A composite state, and one that never holds (last state in details).
			r = e.ok("electron_wait_for_state", map[string]any{"selector": "#late", "state": map[string]any{"visible": true, "enabled": true, "focused": false}})
			if st, _ := r["state"].(map[string]any); st["visible"] != true || st["enabled"] != true {
				t.Fatalf("wait_for_state: %v", r)
			}
			m = e.fails("electron_wait_for_state", map[string]any{"selector": "#late", "state": map[string]any{"focused": true}, "timeoutMs": 200}, "WAIT_TIMEOUT")
			if last, _ := waitDetails(m)["last_state"].(map[string]any); last["focused"] != false || last["visible"] != true || num(m["http"]) != 408 || m["retryable"] != true {
				t.Fatalf("wait_for_state timeout: %v", m)
			}
			e.ok("electron_expect_state", map[string]any{"ref": ref, "state": map[string]any{"enabled": true, "checked": false}})
			e.ok("electron_expect_visible", map[string]any{"selector": "#late"})
			e.ok("electron_expect_visible", map[string]any{"selector": "#nothing-here", "visible": false, "timeoutMs": 0})

			// An event fired by the page a little later (on a timer, again
			// and again, so the wait sees one however late it starts).
			e.ok("electron_eval_renderer", map[string]any{"code": `window.__clicks = setInterval(() => document.getElementById('late').click(), 200); true`})
			r = e.ok("electron_wait_for_event", map[string]any{"selector": "#late", "eventName": "click"})
			e.ok("electron_eval_renderer", map[string]any{"code": `clearInterval(window.__clicks); true`})
			ev, _ := r["event"].(map[string]any)
			if target, _ := ev["target"].(map[string]any); ev["type"] != "click" || num(target["ref"]) != ref {
				t.Fatalf("wait_for_event: %v", r)
			}
			e.fails("electron_wait_for_event", map[string]any{"eventName": "never-fired", "timeoutMs": 100}, "WAIT_TIMEOUT")

			// The URL of this surface's own document.
			page := map[string]string{"actions": "/actions.html", "same2": "/same2.html", "cross2": "/cross2.html", "guest": "/guest.html"}[name]
			r = e.ok("electron_expect_url", map[string]any{"contains": page})
			if !strings.HasSuffix(r["actual"].(string), page) {
				t.Fatalf("expect_url: %v", r)
			}
			e.fails("electron_expect_url", map[string]any{"matches": "^https://", "timeoutMs": 0}, "EXPECTATION_FAILED")

			// assert_pattern: one shot over the whole document's text.
			e.ok("electron_assert_pattern", map[string]any{"pattern": "Late button"})
			m = e.fails("electron_assert_pattern", map[string]any{"selector": "#eventually", "contains": "wait"}, "EXPECTATION_FAILED")
			if waitDetails(m)["actual"] != "ready" {
				t.Fatalf("assert_pattern: %v", m)
			}
		})
	}
	e.t = t

	// A frame navigates during an expectation: the wait resolves the
	// surface again (its new context) and carries on in the new document.
	t.Run("navigation during a wait", func(t *testing.T) {
		e.t = t
		e.waitUse(ids["same2"])
		e.ok("electron_eval_renderer", map[string]any{"code": `setTimeout(() => { location.href = fixtureURL('a.test', '/second.html'); }, 300); true`})
		r := e.ok("electron_expect_text", map[string]any{"selector": "h1", "equals": "Second"})
		if r["surface_id"] != ids["same2"] || num(r["navigations"]) < 1 {
			t.Fatalf("across navigation: %v", r)
		}
		e.ok("electron_expect_url", map[string]any{"contains": "/second.html", "timeoutMs": 0})
	})

	t.Run("count", func(t *testing.T) {
		e.t = t
		e.waitUse(ids["large"])
		r := e.ok("electron_expect_count", map[string]any{"selector": "tr[id^=row-]", "equals": 300})
		if r["actual"] != 300.0 || r["passed"] != true {
			t.Fatalf("count: %v", r)
		}
		e.ok("electron_expect_count", map[string]any{"role": "button", "name": "Edit", "min": 300, "max": 300})
		m := e.fails("electron_expect_count", map[string]any{"selector": "tr[id^=row-]", "equals": 301, "timeoutMs": 0}, "EXPECTATION_FAILED")
		if waitDetails(m)["actual"] != 300.0 {
			t.Fatalf("count failure: %v", m)
		}
	})
}

func TestWaitTools(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.ok("electron_wait", map[string]any{"ms": 50})
	if w := num(r["waited_ms"]); w < 50 || w > 1000 {
		t.Fatalf("wait: %v", r)
	}
	e.fails("electron_wait", map[string]any{}, "BAD_ARGUMENT")
	e.fails("electron_wait", map[string]any{"ms": -1}, "BAD_ARGUMENT")
	// Renderer tools need a session.
	e.fails("electron_expect_text", map[string]any{"selector": "#x", "equals": "y"}, "NOT_RUNNING")

	e.launch("/actions.html")
	// The fixture's own timers: #late after 300 ms, "ready" after 1 s.
	e.ok("electron_wait_for_selector", map[string]any{"selector": "#late", "state": "attached"})
	e.ok("electron_expect_text", map[string]any{"selector": "#eventually", "contains": "read"})
	e.ok("electron_wait_for_selector", map[string]any{"selector": "#toast", "state": "detached"})
	m := e.fails("electron_wait_for_selector", map[string]any{"selector": "#never", "timeoutMs": 100}, "WAIT_TIMEOUT")
	if last, _ := waitDetails(m)["last_state"].(map[string]any); last["attached"] != false {
		t.Fatalf("wait timeout: %v", m)
	}
	e.fails("electron_expect_text", map[string]any{"selector": "#nope", "equals": "x", "timeoutMs": 0}, "EXPECTATION_FAILED")
	e.fails("electron_wait_for_event", map[string]any{"selector": "#nope", "eventName": "click", "timeoutMs": 0}, "SELECTOR_NO_MATCH")

	cases := []struct {
		tool  string
		args  map[string]any
		field string
	}{
		{"electron_wait_for_selector", map[string]any{}, "selector"},
		{"electron_wait_for_selector", map[string]any{"selector": "#a", "state": "shown"}, "state"},
		{"electron_wait_for_selector", map[string]any{"selector": "#a", "timeoutMs": 60001}, "timeoutMs"},
		{"electron_wait_for_selector", map[string]any{"selector": "#a", "timeoutMs": -1}, "timeoutMs"},
		{"electron_wait_for_selector", map[string]any{"selector": "#a[", "timeoutMs": 0}, "selector"},
		{"electron_wait_for_state", map[string]any{"selector": "#a"}, "state"},
		{"electron_wait_for_state", map[string]any{"selector": "#a", "state": map[string]any{"shiny": true}}, "state.shiny"},
		{"electron_wait_for_event", map[string]any{}, "eventName"},
		{"electron_wait_for_event", map[string]any{"eventName": "a b"}, "eventName"},
		{"electron_expect_text", map[string]any{"selector": "#a"}, "equals"},
		{"electron_expect_text", map[string]any{"selector": "#a", "equals": "x", "contains": "y"}, "contains"},
		{"electron_expect_text", map[string]any{"selector": "#a", "regex": strings.Repeat("a", 1001)}, "regex"},
		{"electron_expect_text", map[string]any{"selector": "#a", "regex": "a", "flags": "g"}, "flags"},
		{"electron_expect_text", map[string]any{"selector": "#a", "equals": "a", "flags": "i"}, "flags"},
		{"electron_expect_text", map[string]any{"equals": "x"}, "selector"},
		{"electron_expect_value", map[string]any{"selector": "#text", "regex": "[", "timeoutMs": 0}, "regex"},
		{"electron_expect_count", map[string]any{"selector": "tr"}, "equals"},
		{"electron_expect_count", map[string]any{"selector": "tr", "role": "row", "equals": 1}, "selector"},
		{"electron_expect_count", map[string]any{"selector": "tr", "min": 3, "max": 1}, "min"},
		{"electron_expect_url", map[string]any{}, "contains"},
		{"electron_expect_url", map[string]any{"contains": "a", "matches": "b"}, "matches"},
		{"electron_expect_url", map[string]any{"matches": "(", "timeoutMs": 0}, "matches"},
		{"electron_assert_pattern", map[string]any{"pattern": "a", "regex": "b"}, "pattern"},
		{"electron_assert_pattern", map[string]any{"pattern": "a", "timeoutMs": 10}, "timeoutMs"},
		{"electron_assert_pattern", map[string]any{"pattern": "(x"}, "pattern"},
	}
	for _, c := range cases {
		m := e.fails(c.tool, c.args, "BAD_ARGUMENT")
		if waitDetails(m)["field"] != c.field {
			t.Errorf("%s %v: field %v, want %s (%v)", c.tool, c.args, waitDetails(m)["field"], c.field, m["error"])
		}
	}
	// electron_wait is capped at 60 s and says so (checked without sleeping
	// a minute: a cancelled call returns at once).
	if got := check(&page.SleepArgs{Ms: new(70000)}); got != nil {
		t.Fatalf("ms above the cap is accepted and capped: %v", got)
	}
}
