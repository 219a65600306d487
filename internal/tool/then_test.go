package tool

import (
	"strings"
	"testing"
)

// TestActThenObserve (issue 30, point 3): "click Save, then read the
// confirmation that appears after a fetch" is one call: the click, the
// wait for the text, and what changed since the last snapshot. When the
// awaited effect does not come, the answer says the click was done (once)
// and must not be repeated; a malformed then acts not at all.
func TestActThenObserve(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/second.html")
	// A save button whose confirmation appears 600 ms after the click (a
	// fetch's answer), with nothing changing meanwhile.
	e.eval(`(() => { const b = document.createElement('button'); b.id = 'save'; b.textContent = 'Save'; window.__saves = 0;
	  b.onclick = () => { window.__saves++; setTimeout(() => { const p = document.createElement('p'); p.id = 'done'; p.textContent = 'Saved 3 items'; document.body.append(p); }, 600); };
	  document.body.append(b); return true; })()`)
	e.ok("electron_snapshot", nil) // the agent's last look, which diff is since

	r := e.ok("electron_click", map[string]any{"selector": "#save", "then": "text=Saved;diff"})
	th, _ := r["then"].(map[string]any)
	if th["met"] != true || num(th["waited_ms"]) < 400 || !strings.Contains(th["diff"].(string), "Saved 3 items") {
		t.Fatalf("click then text=Saved;diff: %v", r)
	}
	if r["verified"] != true {
		t.Fatalf("the click itself: %v", r)
	}
	t.Logf("click + wait + diff in one call: waited %v ms, diff %q", th["waited_ms"], th["diff"])

	// The effect does not come: EXPECTATION_FAILED, the click done once.
	f := e.fails("electron_click", map[string]any{"selector": "#save", "then": "text=Never;timeout=800"}, "EXPECTATION_FAILED")
	det, _ := f["details"].(map[string]any)
	res, _ := det["result"].(map[string]any)
	if det["acted"] != true || res["clicked"] != true || !strings.Contains(f["hint"].(string), "do not repeat") {
		t.Fatalf("then not met: %v", f)
	}
	if n := num(e.eval("window.__saves")); n != 2 {
		t.Fatalf("the page counted %d saves, want 2 (one per call)", n)
	}

	// A then that says nothing to do is refused before the click.
	e.fails("electron_click", map[string]any{"selector": "#save", "then": "texts=Saved"}, "BAD_ARGUMENT")
	if n := num(e.eval("window.__saves")); n != 2 {
		t.Fatalf("a refused call clicked: %d saves", n)
	}

	// gone= and url= on other actions.
	e.eval(`document.getElementById('done').remove(); document.getElementById('save').onclick = () => { window.__saves++; const s = document.createElement('p'); s.id = 'spin'; s.textContent = 'Saving'; document.body.append(s); setTimeout(() => s.remove(), 500); }; true`)
	r = e.ok("electron_key", map[string]any{"selector": "#save", "key": "Enter", "then": "gone=#spin"})
	if th, _ := r["then"].(map[string]any); th["met"] != true {
		t.Fatalf("key then gone=#spin: %v", r)
	}
	next := e.app.URL("a.test", "/index.html")
	r = e.ok("electron_navigate", map[string]any{"url": next, "then": "url=index.html"})
	if th, _ := r["then"].(map[string]any); th["met"] != true {
		t.Fatalf("navigate then url: %v", r)
	}
}

// TestThenOnALibrary: react-select opens its menu on a click, a moment
// later; click then selector= waits for the options the library renders,
// and the chosen option is what the app holds (window.chosen).
func TestThenOnALibrary(t *testing.T) {
	e := componentsEnv(t, "select.html")
	r := e.ok("electron_click", map[string]any{"selector": "#fruit-input", "then": "selector=[role=option]"})
	if th, _ := r["then"].(map[string]any); th["met"] != true {
		t.Fatalf("click then selector: %v", r)
	}
	f := e.ok("electron_find", map[string]any{"role": "option", "name_exact": "Grape"})
	e.ok("electron_click", map[string]any{"ref": firstRef(t, f), "then": "gone=[role=option]"})
	if got := e.eval("window.chosen()"); got != "grape" {
		t.Fatalf("react-select holds %v after the click on Grape", got)
	}
}
