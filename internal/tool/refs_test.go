package tool

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture/components"
)

// refIn returns the ref of the line `[N] role "name"` of a text snapshot.
func refIn(t *testing.T, text, role, name string) int {
	t.Helper()
	re := regexp.MustCompile(`\[(\d+)\] ` + regexp.QuoteMeta(role) + ` ` + regexp.QuoteMeta(strconv.Quote(name)))
	m := re.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %s %q in the snapshot:\n%s", role, name, text)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestRecycledRowRefIsStale: a list that recycles its rows (as VS Code's
// list widget does) makes a ref's element show another item after a
// scroll. Clicking the ref must not click that other item silently: it is
// REF_STALE naming what the agent saw and what the element shows now, the
// page records no click; with allowChanged the click goes through and the
// answer reports the change, which counts as seen from then on.
func TestRecycledRowRefIsStale(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/recycle.html")

	snap := e.ok("electron_snapshot", map[string]any{"format": "text"})
	ref := refIn(t, snap["snapshot_text"].(string), "option", "Item 3")
	if got := e.evalString("window.rowText(3)"); got != "Item 3" {
		t.Fatalf("#row-3 shows %q before the scroll", got)
	}

	// Scroll the list by ten rows with the wheel, as a user would.
	e.ok("electron_scroll", map[string]any{"selector": "#viewport", "dy": 300})
	if !e.waitTrue("document.getElementById('viewport').scrollTop === 300") {
		t.Fatalf("the list did not scroll by 300 px: scrollTop %v", e.eval("document.getElementById('viewport').scrollTop"))
	}
	now := e.evalString("window.rowText(3)")
	if now != "Item 13" {
		t.Fatalf("#row-3 shows %q after the scroll, want Item 13 (the fixture's recycling)", now)
	}

	start := time.Now()
	m := e.fails("electron_click", map[string]any{"ref": ref}, "REF_STALE")
	if d := time.Since(start); d > time.Second {
		t.Errorf("REF_STALE took %v: a stale ref cannot become fresh by waiting", d)
	}
	t.Logf("REF_STALE after %v", time.Since(start).Round(time.Millisecond))
	d := details(m)
	was, _ := d["was"].(map[string]any)
	nowD, _ := d["now"].(map[string]any)
	if was["name"] != "Item 3" || was["role"] != "option" || nowD["name"] != "Item 13" || nowD["role"] != "option" || num(d["ref"]) != ref {
		t.Fatalf("REF_STALE details: %v", d)
	}
	if !strings.Contains(m["error"].(string), `"Item 13"`) || !strings.Contains(m["hint"].(string), "allowChanged") {
		t.Fatalf("REF_STALE message/hint: %v", m)
	}
	if n := num(e.eval("window.__clicked.length")); n != 0 {
		t.Fatalf("the page recorded %d clicks after REF_STALE: %v", n, e.eval("window.__clicked"))
	}
	// Every ref-taking action refuses it, not just the click.
	e.fails("electron_hover", map[string]any{"ref": ref}, "REF_STALE")
	e.fails("electron_scroll_into_view", map[string]any{"ref": ref}, "REF_STALE")
	e.fails("electron_key", map[string]any{"ref": ref, "key": "Enter"}, "REF_STALE")

	// allowChanged: the click goes to the element as it is now, and says so.
	r := e.ok("electron_click", map[string]any{"ref": ref, "allowChanged": true})
	if r["verified"] != true {
		t.Fatalf("click with allowChanged: %v", r)
	}
	chs, _ := r["ref_changed"].([]any)
	if len(chs) != 1 {
		t.Fatalf("ref_changed: %v", r)
	}
	ch := chs[0].(map[string]any)
	if num(ch["ref"]) != ref || ch["was"].(map[string]any)["name"] != "Item 3" || ch["now"].(map[string]any)["name"] != "Item 13" {
		t.Fatalf("ref_changed: %v", ch)
	}
	if got := toJSON(e.eval("window.__clicked")); got != "[13]" {
		t.Fatalf("the page recorded clicks on items %s, want [13]", got)
	}
	// Reported is seen: the same ref clicks again without allowChanged.
	r = e.ok("electron_click", map[string]any{"ref": ref})
	if r["ref_changed"] != nil {
		t.Fatalf("a second click reports a change again: %v", r)
	}
	if got := toJSON(e.eval("window.__clicked")); got != "[13,13]" {
		t.Fatalf("clicks %s, want [13,13]", got)
	}

	// A snapshot shows the agent the new name: after another scroll,
	// snapshot since:'last' reports the change and the ref is fresh.
	e.ok("electron_scroll", map[string]any{"selector": "#viewport", "dy": 300})
	if !e.waitTrue("window.rowText(3) === 'Item 23'") {
		t.Fatalf("#row-3 shows %q after the second scroll", e.evalString("window.rowText(3)"))
	}
	since := e.ok("electron_snapshot", map[string]any{"format": "text", "since": "last"})
	if !strings.Contains(since["snapshot_text"].(string), `option "Item 23"`) {
		t.Fatalf("since:'last' does not show the recycled row:\n%s", since["snapshot_text"])
	}
	r = e.ok("electron_click", map[string]any{"ref": ref})
	if r["ref_changed"] != nil || toJSON(e.eval("window.__clicked")) != "[13,13,23]" {
		t.Fatalf("click after since:'last': %v, clicks %v", r, e.eval("window.__clicked"))
	}

	// A click that renames what it clicked reports it, and the new name is
	// what the agent has seen: the next click needs no allowChanged.
	snap = e.ok("electron_snapshot", map[string]any{"format": "text"})
	toggle := refIn(t, snap["snapshot_text"].(string), "button", "Play")
	for i, want := range [][2]string{{"Play", "Pause"}, {"Pause", "Play"}} {
		r = e.ok("electron_click", map[string]any{"ref": toggle})
		chs, _ := r["ref_changed"].([]any)
		if len(chs) != 1 {
			t.Fatalf("click %d on the toggle: ref_changed %v", i+1, r)
		}
		ch := chs[0].(map[string]any)
		if ch["was"].(map[string]any)["name"] != want[0] || ch["now"].(map[string]any)["name"] != want[1] {
			t.Fatalf("click %d on the toggle: ref_changed %v, want %s → %s", i+1, ch, want[0], want[1])
		}
		if got := e.evalString("document.getElementById('toggle').textContent"); got != want[1] {
			t.Fatalf("the toggle reads %q after click %d", got, i+1)
		}
	}

	// A ref whose element is gone fails at once, not after the timeout.
	snap = e.ok("electron_snapshot", map[string]any{"format": "text"})
	gone := refIn(t, snap["snapshot_text"].(string), "option", "Item 25")
	e.eval("document.getElementById('row-5').remove(), true")
	start = time.Now()
	e.fails("electron_click", map[string]any{"ref": gone}, "REF_NOT_FOUND")
	if d := time.Since(start); d > time.Second {
		t.Errorf("REF_NOT_FOUND for a removed element took %v", d)
	}
	t.Logf("REF_NOT_FOUND for a removed element after %v", time.Since(start).Round(time.Millisecond))
}

// TestShoelaceThroughMCP drives real Shoelace 2.20.1 web components: a
// button whose label is slotted from outside, a checkbox, a switch and an
// input, whose controls live in open shadow roots. Effects are checked
// through the components' own properties and the page's handlers.
func TestShoelaceThroughMCP(t *testing.T) {
	dir := components.Require(t)
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.app.Mount(components.Prefix, components.Handler(dir))
	e.launch(components.Prefix + "pages/shoelace.html")
	if !e.waitTrue("window.__ready === true") {
		t.Fatal("the Shoelace page did not get ready")
	}

	t.Run("click the slotted-label button by ref and by selector", func(t *testing.T) {
		e := e.on(t)
		snap := e.ok("electron_snapshot", map[string]any{"format": "text"})
		ref := refIn(t, snap["snapshot_text"].(string), "button", "Save draft")
		start := time.Now()
		r := e.ok("electron_click", map[string]any{"ref": ref})
		if d := time.Since(start); d > 2*time.Second || r["verified"] != true {
			t.Fatalf("click by ref: %v after %v", r, d)
		}
		t.Logf("click by ref on the slotted-label button: %v ms in the server, %v round trip", r["_meta"].(map[string]any)["elapsed_ms"], time.Since(start).Round(time.Millisecond))
		if n := num(e.eval("window.__saved")); n != 1 {
			t.Fatalf("window.__saved = %d after the click by ref", n)
		}
		e.ok("electron_click", map[string]any{"selector": "sl-button#save"})
		e.ok("electron_click", map[string]any{"selector": "sl-button#save button"})
		e.ok("electron_click", map[string]any{"selector": "#save >>> button"})
		if n := num(e.eval("window.__saved")); n != 4 {
			t.Fatalf("window.__saved = %d after three clicks by selector", n)
		}
		h := e.ok("electron_hover", map[string]any{"ref": ref})
		if h["verified"] != true {
			t.Fatalf("hover: %v", h)
		}
		if e.eval("document.querySelector('#save').matches(':hover')") != true {
			t.Fatal("sl-button#save is not hovered")
		}
	})

	t.Run("check the checkbox and the switch hosts", func(t *testing.T) {
		e := e.on(t)
		for _, id := range []string{"agree", "dark"} {
			sel := "#" + id
			st := e.ok("electron_get_state", map[string]any{"selector": sel})
			if s := st["state"].(map[string]any); s["checked"] != false {
				t.Fatalf("%s before: %v", id, s)
			}
			r := e.ok("electron_check", map[string]any{"selector": sel})
			if r["changed"] != true {
				t.Fatalf("check %s: %v", id, r)
			}
			if e.eval("document.querySelector('"+sel+"').checked") != true {
				t.Fatalf("%s.checked is not true after electron_check", id)
			}
			st = e.ok("electron_get_state", map[string]any{"selector": sel})
			if s := st["state"].(map[string]any); s["checked"] != true {
				t.Fatalf("get_state %s after check: %v", id, s)
			}
			e.ok("electron_expect_state", map[string]any{"selector": sel, "state": map[string]any{"checked": true}, "timeoutMs": 1000})
			// The page sets it back; the state follows the host's property.
			e.eval("document.querySelector('" + sel + "').checked = false, true")
			e.ok("electron_expect_state", map[string]any{"selector": sel, "state": map[string]any{"checked": false}, "timeoutMs": 1000})
			r = e.ok("electron_check", map[string]any{"selector": sel})
			if e.eval("document.querySelector('"+sel+"').checked") != true {
				t.Fatalf("%s.checked is not true after the second check: %v", id, r)
			}
			e.ok("electron_uncheck", map[string]any{"selector": sel})
			if e.eval("document.querySelector('"+sel+"').checked") != false {
				t.Fatalf("%s.checked is not false after electron_uncheck", id)
			}
		}
	})

	t.Run("type into the input host", func(t *testing.T) {
		e := e.on(t)
		r := e.ok("electron_type", map[string]any{"selector": "sl-input#name", "text": "Ada Lovelace"})
		if r["value"] != "Ada Lovelace" {
			t.Fatalf("type: %v", r)
		}
		if got := e.evalString("document.querySelector('#name').value"); got != "Ada Lovelace" {
			t.Fatalf("sl-input#name.value = %q", got)
		}
		// A host that takes no text names its inner control.
		m := e.fails("electron_type", map[string]any{"selector": "sl-button#save", "text": "x"}, "BAD_ARGUMENT")
		if !strings.Contains(m["error"].(string), ">>>") || !strings.Contains(m["error"].(string), "button") {
			t.Fatalf("refusal does not name the inner control: %v", m)
		}
	})

	t.Run("selectors pierce shadow roots in every tool", func(t *testing.T) {
		e := e.on(t)
		for _, sel := range []string{"sl-button#save button", "#save >>> button", "sl-input#name input", "sl-checkbox >>> input[type=checkbox]"} {
			r := e.ok("electron_exists", map[string]any{"selector": sel})
			if r["exists"] != true {
				t.Fatalf("exists %q: %v", sel, r)
			}
			e.ok("electron_wait_for_selector", map[string]any{"selector": sel, "state": "visible", "timeoutMs": 1000})
		}
		r := e.ok("electron_elements_list", map[string]any{"selector": "sl-button#save button"})
		if num(r["count"]) != 1 {
			t.Fatalf("elements_list: %v", r)
		}
		// A light-DOM-only selector still means what it always meant.
		r = e.ok("electron_exists", map[string]any{"selector": "body > sl-button#save"})
		if r["exists"] != true {
			t.Fatalf("exists body > sl-button: %v", r)
		}
		r = e.ok("electron_exists", map[string]any{"selector": "sl-checkbox#agree button"})
		if r["exists"] != false {
			t.Fatalf("exists sl-checkbox#agree button (there is none): %v", r)
		}
		e.fails("electron_exists", map[string]any{"selector": "#save >>>"}, "BAD_ARGUMENT")
		e.fails("electron_exists", map[string]any{"selector": "#save >>> [x="}, "BAD_ARGUMENT")
	})
}

// TestStaleRefOffersWhereItsItemWent (issue 30, point 6): a list that
// reuses its elements by position (an item inserted on top shifts every
// label down one element) makes a ref's element show the previous item.
// REF_STALE's similar_refs offer the element that shows the item the
// agent saw (same role and name) and nothing of another role or name;
// clicking the offered ref clicks the item the agent meant.
func TestStaleRefOffersWhereItsItemWent(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/second.html")
	e.eval(`(() => { const ul = document.createElement('ul'); window.__picked = [];
	  for (const name of ['Alpha', 'Beta', 'Gamma']) { const li = document.createElement('li'); const b = document.createElement('button');
	    b.textContent = name; b.onclick = () => window.__picked.push(b.textContent); li.append(b); ul.append(li); }
	  document.body.append(ul); window.__shift = () => { const bs = [...ul.querySelectorAll('button')];
	    for (let i = bs.length - 1; i > 0; i--) bs[i].textContent = bs[i - 1].textContent; bs[0].textContent = 'New'; }; return true; })()`)
	snap := e.ok("electron_snapshot", map[string]any{"format": "text"})
	ref := refIn(t, snap["snapshot_text"].(string), "button", "Beta")
	e.eval("window.__shift(); true") // the buttons read New, Alpha, Beta
	m := e.fails("electron_click", map[string]any{"ref": ref}, "REF_STALE")
	srs, _ := m["similar_refs"].([]any)
	if len(srs) != 1 {
		t.Fatalf("similar_refs: want the one button that shows Beta now: %v", m)
	}
	sr := srs[0].(map[string]any)
	if sr["role"] != "button" || sr["name"] != "Beta" || num(sr["ref"]) == ref {
		t.Fatalf("similar ref %v is not the other element showing button \"Beta\"", sr)
	}
	e.ok("electron_click", map[string]any{"ref": num(sr["ref"])})
	if got := toJSON(e.eval("window.__picked")); got != `["Beta"]` {
		t.Fatalf("the page recorded %s, want [\"Beta\"]", got)
	}
}
