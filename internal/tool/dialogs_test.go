package tool

import (
	"strings"
	"testing"
	"time"
)

// TestDialogHandler answers dialogs the fixture's buttons open (actions.html:
// #alert, #confirm, #prompt write what the dialog returned into
// #dialog-result), from the page's side: what the page got back is checked,
// not only the tool's answer.
func TestDialogHandler(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/actions.html")
	result := func() string { return e.evalString("document.getElementById('dialog-result').textContent") }

	// A dialog open now is answered by the call; oneShot leaves nothing armed.
	r := e.ok("electron_click", map[string]any{"selector": "#confirm"})
	if d, _ := r["dialog_opened"].(map[string]any); d["type"] != "confirm" {
		t.Fatalf("click: %v", r)
	}
	r = e.ok("electron_dialog_handler", map[string]any{"action": "accept", "oneShot": true})
	if now, _ := r["answered_now"].([]any); len(now) != 1 || now[0].(map[string]any)["message"] != "Are you sure?" || r["policy"] != nil || num(r["open"]) != 0 {
		t.Fatalf("answering the open confirm: %v", r)
	}
	if v := result(); v != "confirm: true" {
		t.Fatalf("the page got %q", v)
	}

	// An armed policy for prompts answers them as they open, with the text.
	r = e.ok("electron_dialog_handler", map[string]any{"action": "accept", "promptText": "Ada", "type": "prompt"})
	if p, _ := r["policy"].(map[string]any); p["action"] != "accept" || p["type"] != "prompt" {
		t.Fatalf("arming: %v", r)
	}
	r = e.ok("electron_click", map[string]any{"selector": "#prompt"})
	if d, _ := r["dialog_opened"].(map[string]any); d["type"] != "prompt" || d["note"] != "electron_dialog_handler's armed policy accepted it" {
		t.Fatalf("click on #prompt: %v", r)
	}
	if !e.waitTrue("document.getElementById('dialog-result').textContent === 'prompt: Ada'") {
		t.Fatalf("the page got %q from the prompt", result())
	}
	// A confirm is not a prompt: it stays open until answered.
	e.ok("electron_click", map[string]any{"selector": "#confirm"})
	r = e.ok("electron_dialog_handler", nil)
	if num(r["open"]) != 1 {
		t.Fatalf("the confirm should be open: %v", r)
	}
	r = e.ok("electron_dialog_handler", map[string]any{"action": "dismiss", "type": "confirm"})
	if now, _ := r["answered_now"].([]any); len(now) != 1 {
		t.Fatalf("dismissing the confirm: %v", r)
	}
	if v := result(); v != "confirm: false" {
		t.Fatalf("the page got %q", v)
	}
	// The armed dismiss for confirms now answers the next one by itself.
	e.ok("electron_click", map[string]any{"selector": "#confirm"})
	if !e.waitTrue("document.getElementById('dialog-result').textContent === 'confirm: false' && window.__events.filter(x => x.type === 'dialog').length === 4") {
		t.Fatalf("the armed dismiss: %q", result())
	}
	e.ok("electron_dialog_handler", map[string]any{"action": "off"})

	// The log: every dialog, how it was answered and by whom; since and
	// clear.
	r = e.ok("electron_dialog_handler", map[string]any{"limit": 10})
	evs, _ := r["events"].([]any)
	want := []string{"confirm accepted call", "prompt accepted policy", "confirm dismissed call", "confirm dismissed policy"}
	if len(evs) != len(want) || r["policy"] != nil {
		t.Fatalf("events: %v", r)
	}
	for i, ev := range evs {
		m := ev.(map[string]any)
		if got := m["type"].(string) + " " + m["answer"].(string) + " " + m["by"].(string); got != want[i] || m["open"] != false {
			t.Fatalf("event %d: %v, want %s", i, m, want[i])
		}
	}
	if in := evs[1].(map[string]any)["user_input"]; in != "Ada" {
		t.Fatalf("the prompt's input: %v", in)
	}
	next := num(r["next_since"])
	if r = e.ok("electron_dialog_handler", map[string]any{"since": next}); len(r["events"].([]any)) != 0 {
		t.Fatalf("since %v: %v", next, r)
	}
	e.ok("electron_dialog_handler", map[string]any{"clear": true, "type": "prompt"})
	if r = e.ok("electron_dialog_handler", nil); len(r["events"].([]any)) != 3 {
		t.Fatalf("after clearing the prompts: %v", r)
	}

	for _, bad := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"action": "maybe"}, "action"},
		{map[string]any{"type": "toast"}, "type"},
		{map[string]any{"limit": 500}, "limit"},
		{map[string]any{"promptText": "x"}, "promptText"},
		{map[string]any{"oneShot": true}, "oneShot"},
	} {
		m := e.fails("electron_dialog_handler", bad.args, "BAD_ARGUMENT")
		if d := details(m); d["field"] != bad.field {
			t.Fatalf("%v: %v", bad.args, m)
		}
	}
}

// TestDialogFromNestedOOPIF: a dialog opened by the nested cross-site frame
// is logged once and answered, and the frame's script goes on.
func TestDialogFromNestedOOPIF(t *testing.T) {
	e, s := surfaceEnv(t)
	e.use(s["cross2"])
	e.eval("setTimeout(() => { window.__answered = confirm('from cross2') }, 0); true")
	var r map[string]any
	for range 50 {
		if r = e.ok("electron_dialog_handler", nil); num(r["open"]) == 1 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if evs, _ := r["events"].([]any); len(evs) != 1 || evs[0].(map[string]any)["message"] != "from cross2" {
		t.Fatalf("the frame's dialog: %v", r)
	}
	r = e.ok("electron_dialog_handler", map[string]any{"action": "accept", "oneShot": true})
	if now, _ := r["answered_now"].([]any); len(now) != 1 {
		t.Fatalf("answering it: %v", r)
	}
	if !e.waitTrue("window.__answered === true") {
		t.Fatal("the frame did not get the answer")
	}
}

// TestDialogOpenFailsFast: while an alert is open in the active window every
// renderer tool answers DIALOG_OPEN at once (naming the dialog and the
// window) instead of hanging to the backstop; tools that do not need the
// page still work; a dialog that opens during a call ends that call soon
// after; once answered, the page works again.
func TestDialogOpenFailsFast(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true, OperationTimeout: 30 * time.Second})
	e.launch("/actions.html")
	win := e.ok("electron_windows_list", nil)["active_window_id"]

	r := e.ok("electron_click", map[string]any{"selector": "#alert"})
	if d, _ := r["dialog_opened"].(map[string]any); d["type"] != "alert" {
		t.Fatalf("click: %v", r)
	}
	blocked := func(name string, args map[string]any, typ, msg string) {
		t.Helper()
		t0 := time.Now()
		m := e.fails(name, args, "DIALOG_OPEN")
		if took := time.Since(t0); took > time.Second {
			t.Errorf("%s took %v to answer DIALOG_OPEN", name, took)
		}
		d := details(m)
		dlg, _ := d["dialog"].(map[string]any)
		if dlg["type"] != typ || dlg["message"] != msg || d["window_id"] != win || d["surface_id"] == nil {
			t.Errorf("%s: details %v", name, d)
		}
		if h, _ := m["hint"].(string); !strings.Contains(h, "electron_dialog_handler") {
			t.Errorf("%s: hint %q", name, h)
		}
	}
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"electron_snapshot", nil},
		{"electron_get_text", map[string]any{"selector": "body"}},
		{"electron_click", map[string]any{"selector": "#confirm"}},
		{"electron_screenshot", nil},
		{"electron_eval_renderer", map[string]any{"code": "1"}},
		{"electron_surfaces_list", nil},
		{"electron_navigate", map[string]any{"url": e.app.URL("a.test", "/index.html")}},
		{"electron_wait_for_selector", map[string]any{"selector": "#nothing", "timeoutMs": 20000}},
	} {
		blocked(c.name, c.args, "alert", "hi")
	}
	// What does not need the page answers, and says where the dialog is.
	t0 := time.Now()
	w := e.ok("electron_windows_list", nil)
	if took := time.Since(t0); took > time.Second {
		t.Errorf("electron_windows_list took %v", took)
	}
	if wins, _ := w["windows"].([]any); len(wins) != 1 || toJSON(wins[0].(map[string]any)["dialog_open"]) != `{"message":"hi","type":"alert"}` {
		t.Fatalf("windows: %v", w)
	}
	e.ok("electron_console_logs", nil)
	e.ok("electron_status", nil)

	// Answered: the page goes on (the handler after alert() ran).
	e.ok("electron_dialog_handler", map[string]any{"action": "accept", "oneShot": true})
	if v := e.evalString("document.getElementById('dialog-result').textContent"); v != "alert: closed" {
		t.Fatalf("after the answer the page shows %q", v)
	}
	e.ok("electron_snapshot", map[string]any{"format": "json"})

	// A dialog that opens during a call: an eval that calls confirm(), and a
	// wait during which a timer opens a prompt.
	blockedSoon := func(name string, args map[string]any, typ string) {
		t.Helper()
		t0 := time.Now()
		m := e.fails(name, args, "DIALOG_OPEN")
		if took := time.Since(t0); took > 4*time.Second {
			t.Errorf("%s took %v", name, took)
		}
		if dlg, _ := details(m)["dialog"].(map[string]any); dlg["type"] != typ {
			t.Errorf("%s: %v", name, m)
		}
	}
	blockedSoon("electron_eval_renderer", map[string]any{"code": "confirm('sure?')"}, "confirm")
	e.ok("electron_dialog_handler", map[string]any{"action": "dismiss", "oneShot": true})
	e.eval("setTimeout(() => prompt('name?'), 300); true")
	blockedSoon("electron_wait_for_selector", map[string]any{"selector": "#never-there", "timeoutMs": 20000}, "prompt")
	e.ok("electron_dialog_handler", map[string]any{"action": "dismiss", "oneShot": true})
	if got := e.eval("2 + 2"); got != float64(4) {
		t.Fatalf("after the answers: %v", got)
	}
}
