package tool

import "testing"

// TestChangedIsABoolOrAbsent: "changed" is a boolean wherever a tool
// returns it; a check whose click opened a dialog (so the state could not
// be verified) leaves it out instead of answering the string "unknown".
func TestChangedIsABoolOrAbsent(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/actions.html")
	e.eval(`(() => { const c = document.createElement('input'); c.type = 'checkbox'; c.id = 'asks';
		c.addEventListener('click', () => confirm('Really?')); document.body.prepend(c); return true })()`)
	r := e.ok("electron_check", map[string]any{"selector": "#asks"})
	if _, has := r["changed"]; has {
		t.Errorf("changed with a dialog open: %v", r)
	}
	if d, _ := r["dialog_opened"].(map[string]any); d["type"] != "confirm" {
		t.Fatalf("dialog_opened: %v", r)
	}
	e.ok("electron_dialog_handler", map[string]any{"action": "accept"})
	e.eval(`(() => { const c = document.createElement('input'); c.type = 'checkbox'; c.id = 'plain'; document.body.prepend(c); return true })()`)
	if r := e.ok("electron_check", map[string]any{"selector": "#plain"}); r["changed"] != true {
		t.Errorf("check of an unchecked box: %v", r)
	}
	if r := e.ok("electron_check", map[string]any{"selector": "#plain"}); r["changed"] != false {
		t.Errorf("check of a checked box: %v", r)
	}
}
