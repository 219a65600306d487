package tool

import (
	"strings"
	"testing"
)

// matchesOf is an electron_find answer's matches.
func matchesOf(t *testing.T, r map[string]any) []map[string]any {
	t.Helper()
	ms, _ := r["matches"].([]any)
	out := make([]map[string]any, len(ms))
	for i, m := range ms {
		out[i] = m.(map[string]any)
	}
	return out
}

// TestFindMailRowByTextAndWithin (issue 30 point 5): on the mail page's
// 120-row inbox, one find by the row's words answers the row and its
// controls' refs; the Archive ref it gives archives row 57 (the page's
// own click record), and a find within the row's ref finds exactly that
// row's button.
func TestFindMailRowByTextAndWithin(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/mail.html")
	if !e.waitTrue("document.readyState === 'complete' && !!document.getElementById('msg-120')") {
		t.Fatal("the mail page did not finish loading")
	}

	e.fails("electron_find", map[string]any{}, "BAD_ARGUMENT")
	e.fails("electron_find", map[string]any{"text": "   "}, "BAD_ARGUMENT")
	e.fails("electron_find", map[string]any{"within": 3, "surfaces": "all", "role": "button"}, "BAD_ARGUMENT")

	r := e.ok("electron_find", map[string]any{"text": "message SUBJECT number 57"})
	ms := matchesOf(t, r)
	if num(r["count"]) != 1 || len(ms) != 1 {
		t.Fatalf("find by text: want one match, got %v", r)
	}
	row := ms[0]
	if row["role"] != "row" || !strings.Contains(row["name"].(string), "Message subject number 57") {
		t.Fatalf("find by text: want row 57, got %v", row)
	}
	cs, _ := row["controls"].([]any)
	refs := map[string]int{}
	for _, c := range cs {
		c := c.(map[string]any)
		if c["role"] != "button" {
			t.Errorf("control %v is not a button", c)
		}
		refs[c["name"].(string)] = num(c["ref"])
	}
	if len(cs) != 2 || refs["Archive"] == 0 || refs["Star"] == 0 {
		t.Fatalf("row 57's controls: want its Archive and Star buttons, got %v", cs)
	}

	// Within the row: exactly its Archive button, the same ref.
	rowRef := num(row["ref"])
	w := e.ok("electron_find", map[string]any{"within": rowRef, "role": "button", "name_exact": "Archive"})
	if num(w["count"]) != 1 || firstRef(t, w) != refs["Archive"] {
		t.Fatalf("find within row 57: want its Archive button (ref %d), got %v", refs["Archive"], w)
	}
	// Within alone lists what the row holds; the row itself is not inside it.
	w = e.ok("electron_find", map[string]any{"within": rowRef})
	if num(w["count"]) != 2 {
		t.Fatalf("find within row 57 alone: want its two buttons, got %v", w)
	}
	// Text and within together; text that is nowhere.
	w = e.ok("electron_find", map[string]any{"within": num(e.ok("electron_find", map[string]any{"role": "table", "name_exact": "Inbox"})["matches"].([]any)[0].(map[string]any)["ref"]), "text": "number 11"})
	if num(w["count"]) != 11 { // 11 and 110…119
		t.Fatalf("text within the inbox: want 11 rows, got %d: %v", num(w["count"]), w)
	}
	if w = e.ok("electron_find", map[string]any{"text": "no such words anywhere"}); num(w["count"]) != 0 {
		t.Fatalf("text that is nowhere: %v", w)
	}
	e.fails("electron_find", map[string]any{"within": 999999, "role": "button"}, "REF_NOT_FOUND")
	// A ref of a cross-site ad frame routes the find to that frame (the top
	// page would not know the ref): nothing lies inside a button, but the
	// answer is the frame's.
	buy := matchesOf(t, e.ok("electron_find", map[string]any{"surfaces": "all", "role": "button", "name_exact": "Buy now"}))
	if len(buy) == 0 {
		t.Fatal("no Buy now button in the ad frames")
	}
	w = e.ok("electron_find", map[string]any{"within": num(buy[0]["ref"])})
	if w["surface_id"] != buy[0]["surface_id"] || num(w["count"]) != 0 {
		t.Fatalf("find within a frame's ref: %v, want an answer of surface %v", w, buy[0]["surface_id"])
	}

	c := e.ok("electron_click", map[string]any{"ref": refs["Archive"]})
	if c["verified"] != true {
		t.Fatalf("click on row 57's Archive by the ref find gave: %v", c)
	}
	if got := e.evalString("JSON.stringify(window.__events.filter(x => x.type === 'click').map(x => x.target))"); got != `["archive-57"]` {
		t.Fatalf("the page recorded clicks %s, want only archive-57", got)
	}
}

// TestFindTabCloseControls (issue 30 point 5): a close control inside a
// role="tab" (whose children ARIA makes presentational) is listed under
// its tab with a ref of its own, in the text and JSON snapshots, and find
// reaches it; clicking the ref closes the tab by the page's own handler.
func TestFindTabCloseControls(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/tabs.html")

	snap := e.ok("electron_snapshot", nil)
	text, _ := snap["snapshot_text"].(string)
	lines := strings.Split(text, "\n")
	at := -1
	for i, l := range lines {
		if strings.Contains(l, `tab "utils.ts Close utils.ts"`) {
			at = i
		}
	}
	if at < 0 || at+1 >= len(lines) || !strings.Contains(lines[at+1], `button "Close utils.ts"`) {
		t.Fatalf("the text snapshot does not list utils.ts's close button under its tab:\n%s", text)
	}
	if !strings.Contains(text, `button "Close README.md"`) {
		t.Fatalf("the text snapshot does not list the span close control:\n%s", text)
	}

	js := e.ok("electron_snapshot", map[string]any{"format": "json"})
	byName := map[string]map[string]any{}
	for _, x := range js["entries"].([]any) {
		x := x.(map[string]any)
		if n, ok := x["name"].(string); ok {
			byName[x["role"].(string)+" "+n] = x
		}
	}
	tab, btn := byName["tab utils.ts Close utils.ts"], byName["button Close utils.ts"]
	if tab == nil || btn == nil || num(btn["parent"]) != num(tab["ref"]) || btn["interactive"] != true {
		t.Fatalf("JSON snapshot: want the close button under its tab, got tab %v, button %v", tab, btn)
	}

	r := e.ok("electron_find", map[string]any{"role": "button", "name_exact": "Close utils.ts"})
	if num(r["count"]) != 1 {
		t.Fatalf("find the close button: %v", r)
	}
	ref := firstRef(t, r)
	if ref != num(btn["ref"]) {
		t.Fatalf("find gave ref %d, the snapshot %v", ref, btn["ref"])
	}
	if c := e.ok("electron_click", map[string]any{"ref": ref}); c["verified"] != true {
		t.Fatalf("click on the close button: %v", c)
	}
	if !e.waitTrue("!document.getElementById('tab-utils') && !window.__tabs.includes('utils.ts')") {
		t.Fatalf("the utils.ts tab is still open: %v", e.eval("window.__tabs"))
	}
	if got := e.recorded("x.type === 'close'"); len(got) != 1 || got[0]["target"] != "utils.ts" {
		t.Fatalf("close records: %v", got)
	}

	// The focusable <span role="button"> closes README.md, found within
	// the tab strip.
	strip := firstRef(t, e.ok("electron_find", map[string]any{"role": "tablist"}))
	r = e.ok("electron_find", map[string]any{"within": strip, "role": "button", "name_contains": "readme"})
	if num(r["count"]) != 1 {
		t.Fatalf("find the span close control within the strip: %v", r)
	}
	if c := e.ok("electron_click", map[string]any{"ref": firstRef(t, r)}); c["verified"] != true {
		t.Fatalf("click on the span close control: %v", c)
	}
	if !e.waitTrue("!document.getElementById('tab-readme') && JSON.stringify(window.__tabs) === '[\"index.ts\"]'") {
		t.Fatalf("README.md is still open: %v", e.eval("window.__tabs"))
	}
	r = e.ok("electron_find", map[string]any{"within": strip, "role": "tab"})
	if num(r["count"]) != 1 {
		t.Fatalf("tabs left: %v", r)
	}
}
