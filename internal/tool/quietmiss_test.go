package tool

import (
	"testing"
	"time"
)

// TestSelectorMissOnAQuietPage (issue 30, point 6): an action's default
// wait gives up on a selector that matches nothing once the page has been
// quiet for a second, not after 5 s; a page that keeps changing is waited
// for, and so is a timeout the caller gave.
func TestSelectorMissOnAQuietPage(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/second.html")

	start := time.Now()
	f := e.fails("electron_click", map[string]any{"selector": "#nope"}, "SELECTOR_NO_MATCH")
	took := time.Since(start)
	det, _ := f["details"].(map[string]any)
	if det["quiet_ms"] == nil || took > 3*time.Second {
		t.Errorf("quiet page: answered after %s: %v", took, f)
	}
	t.Logf("a selector that cannot match on a quiet page failed after %s", took.Round(time.Millisecond))

	// The caller's own timeout is waited in full.
	start = time.Now()
	e.fails("electron_click", map[string]any{"selector": "#nope", "timeoutMs": 2500}, "SELECTOR_NO_MATCH")
	if took := time.Since(start); took < 2400*time.Millisecond {
		t.Errorf("timeoutMs 2500 gave up after %s", took)
	}

	// A page that keeps changing (a ticker) is not quiet: the button it
	// adds after 2.5 s is clicked within the default wait.
	e.eval(`(() => { const p = document.createElement('p'); document.body.append(p); let n = 0;
	  window.__tick = setInterval(() => { p.textContent = 'tick ' + (n++); }, 200);
	  setTimeout(() => { const b = document.createElement('button'); b.id = 'late'; b.textContent = 'Late';
	    b.onclick = () => { window.__late = true; }; document.body.append(b); }, 2500);
	  return true; })()`)
	start = time.Now()
	e.ok("electron_click", map[string]any{"selector": "#late"})
	if e.eval("window.__late") != true {
		t.Fatal("the late button did not get the click")
	}
	t.Logf("a button added after 2.5 s on a busy page was clicked after %s", time.Since(start).Round(time.Millisecond))
	e.eval("clearInterval(window.__tick); true")

	// A quiet page that adds the element within the quiet window: found.
	e.eval(`setTimeout(() => { const b = document.createElement('button'); b.id = 'soon'; b.textContent = 'Soon';
	  b.onclick = () => { window.__soon = true; }; document.body.append(b); }, 500); true`)
	e.ok("electron_click", map[string]any{"selector": "#soon"})
	if e.eval("window.__soon") != true {
		t.Fatal("the soon button did not get the click")
	}
}
