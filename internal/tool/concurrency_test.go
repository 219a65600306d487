package tool

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// busyWith waits until the session has a call of that tool in flight.
func busyWith(t *testing.T, e *env, tool string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, s := range e.srv.Sessions().List() {
			if slices.Contains(s.Busy(), tool) {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%s never came in flight", tool)
}

// TestReadsBesideAWait: a long electron_wait_for_selector on a session does
// not hold back reads on it (get_text, snapshot, find answer while the
// wait is still in flight), and the ref the wait's answer issues is not one
// the reads issued meanwhile: it names the element the wait found.
func TestReadsBesideAWait(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/actions.html")
	type answer struct {
		m  map[string]any
		at time.Time
	}
	done := make(chan answer, 1)
	go func() {
		m := e.call("electron_wait_for_selector", map[string]any{"selector": "#arrives-later", "timeoutMs": 60000})
		done <- answer{m, time.Now()}
	}()
	busyWith(t, e, "electron_wait_for_selector")
	inFlight := func(what string) {
		t.Helper()
		select {
		case a := <-done:
			t.Fatalf("%s answered only after the wait ended: %v", what, a.m)
		default:
		}
	}
	text := e.ok("electron_get_text", map[string]any{"selector": "body"})
	inFlight("get_text")
	if s, _ := text["text"].(string); s == "" {
		t.Fatalf("get_text beside a wait read nothing: %v", text)
	}
	snap := e.ok("electron_snapshot", map[string]any{"format": "json"})
	inFlight("snapshot")
	found := e.ok("electron_find", map[string]any{"role": "button"})
	inFlight("find")
	// Now the element arrives (an action beside the wait), and the wait
	// answers with its ref.
	e.ok("electron_eval_renderer", map[string]any{"code": `(() => { const b = document.createElement('button'); b.id = 'arrives-later'; b.textContent = 'Arrived late'; document.body.appendChild(b); return true; })()`})
	var a answer
	select {
	case a = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the wait never answered after its element arrived")
	}
	if a.m["ok"] != true || a.m["waited_for"] != "visible" {
		t.Fatalf("wait: %v", a.m)
	}
	el, _ := a.m["element"].(map[string]any)
	ref := num(el["ref"])
	if ref <= 0 {
		t.Fatalf("the wait's element has no ref: %v", a.m)
	}
	earlier := toJSON(snap) + toJSON(found)
	for _, r := range refsIn(earlier) {
		if r == ref {
			t.Fatalf("the wait's ref %d was issued to another element by a read beside it", ref)
		}
	}
	got := e.ok("electron_get_text", map[string]any{"ref": ref})
	if s, _ := got["text"].(string); !strings.Contains(s, "Arrived late") {
		t.Fatalf("ref %d from the wait names %v", ref, got)
	}
}

// refsIn collects every "ref": N in a JSON text, and every [N] of a
// snapshot's text.
func refsIn(s string) []int {
	var out []int
	for _, sep := range []string{`"ref":`, `[`} {
		for _, part := range strings.Split(s, sep)[1:] {
			n := 0
			for _, c := range part {
				if c < '0' || c > '9' {
					break
				}
				n = n*10 + int(c-'0')
			}
			if n > 0 {
				out = append(out, n)
			}
		}
	}
	return out
}

// TestActionsStayOrdered: an action that arrives while another is in
// flight on the same session waits for it, and a read still answers beside
// both.
func TestActionsStayOrdered(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/actions.html")
	e.ok("electron_eval_renderer", map[string]any{"code": "window.__order = []; true"})
	first := make(chan map[string]any, 1)
	go func() {
		first <- e.call("electron_eval_renderer", map[string]any{"code": "new Promise(r => setTimeout(() => { window.__order.push('first'); r(true); }, 1500))"})
	}()
	busyWith(t, e, "electron_eval_renderer")
	second := make(chan map[string]any, 1)
	go func() {
		second <- e.call("electron_eval_renderer", map[string]any{"code": "window.__order.push('second'); true"})
	}()
	// A read answers while the first action runs and the second waits.
	e.ok("electron_get_text", map[string]any{"selector": "body"})
	for _, ch := range []chan map[string]any{first, second} {
		select {
		case m := <-ch:
			if m["ok"] != true {
				t.Fatalf("action: %v", m)
			}
		case <-time.After(60 * time.Second):
			t.Fatal("an action never answered")
		}
	}
	order := e.ok("electron_eval_renderer", map[string]any{"code": "window.__order.join(',')"})["result"]
	if order != "first,second" {
		t.Fatalf("actions ran out of order: %v", order)
	}
}
