package tool

import (
	"strings"
	"testing"
)

func TestObserveTools(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/large.html")

	full := e.ok("electron_snapshot", map[string]any{"format": "text"})
	text := full["snapshot_text"].(string)
	if n := len([]rune(text)); n > 23000 || n < 5000 {
		t.Fatalf("text snapshot of large.html is %d characters", n)
	}
	for _, want := range []string{`"Select Item 250"`, `"Save profile"`, `"Full name"`, "disabled"} {
		if !strings.Contains(text, want) {
			t.Errorf("text snapshot lacks %s", want)
		}
	}
	js := e.ok("electron_snapshot", map[string]any{"format": "json", "interactiveOnly": true, "maxEntries": 50})
	if js["truncated"] != true {
		t.Errorf("maxEntries 50 did not truncate: %v", js["truncated"])
	}

	f := e.ok("electron_find", map[string]any{"role": "checkbox", "name_exact": "Select Item 7"})
	if num(f["count"]) != 1 {
		t.Fatalf("find: %v", f)
	}
	ref := num(f["matches"].([]any)[0].(map[string]any)["ref"])
	e.ok("electron_click", map[string]any{"ref": ref})
	st := e.ok("electron_get_state", map[string]any{"ref": ref})
	if st["state"].(map[string]any)["checked"] != true {
		t.Fatalf("state after click: %v", st)
	}
	diff := e.ok("electron_snapshot", map[string]any{"format": "text", "since": "last"})
	dt, _ := diff["snapshot_text"].(string)
	if len(dt) == 0 || len(dt)*50 > len(text) {
		t.Fatalf("since:last after one click is %d characters (full %d): %q", len(dt), len(text), dt)
	}

	if r := e.ok("electron_get_text", map[string]any{"selector": "#row-17 td:nth-child(2)"}); !strings.Contains(r["text"].(string), "Grace") {
		t.Errorf("get_text: %v", r)
	}
	if r := e.ok("electron_get_value", map[string]any{"selector": "#f-account"}); r["value"] != "ACC-0042" {
		t.Errorf("get_value: %v", r)
	}
	if r := e.ok("electron_get_attribute", map[string]any{"selector": "#sel-3", "name": "aria-label"}); r["value"] != "Select Item 3" {
		t.Errorf("get_attribute: %v", r)
	}
	if r := e.ok("electron_get_attribute", map[string]any{"selector": "#sel-3", "name": "data-nope"}); r["value"] != nil {
		t.Errorf("absent attribute: %v", r)
	}
	if r := e.ok("electron_exists", map[string]any{"selector": "#nope"}); r["exists"] != false {
		t.Errorf("exists: %v", r)
	}
	if r := e.ok("electron_get_bbox", map[string]any{"selector": "#save"}); r["bbox"] == nil {
		t.Errorf("bbox: %v", r)
	}
	if r := e.ok("electron_get_computed_style", map[string]any{"selector": "#save", "properties": []string{"display"}}); r["style"].(map[string]any)["display"] == "" {
		t.Errorf("style: %v", r)
	}
	if r := e.ok("electron_elements_list", map[string]any{"selector": "button", "limit": 5}); len(r["items"].([]any)) != 5 {
		t.Errorf("elements_list: %v", r)
	}
	e.eval("document.querySelector('#f-email').focus(); true")
	if r := e.ok("electron_focused_element", nil); !strings.Contains(toJSON(r["element"]), "Email") {
		t.Errorf("focused element: %v", r)
	}

	// A removed element's ref: REF_NOT_FOUND with similar refs.
	edit := num(e.ok("electron_find", map[string]any{"role": "button", "name_exact": "Edit", "limit": 1})["matches"].([]any)[0].(map[string]any)["ref"])
	e.eval("document.querySelector('#edit-1').remove(); true")
	m := e.fails("electron_get_text", map[string]any{"ref": edit}, "REF_NOT_FOUND")
	if sr, _ := m["similar_refs"].([]any); len(sr) == 0 || len(sr) > 5 {
		t.Errorf("similar_refs: %v", m["similar_refs"])
	}
	e.fails("electron_get_text", map[string]any{"selector": "#nope"}, "SELECTOR_NO_MATCH")
	e.fails("electron_get_text", map[string]any{}, "BAD_ARGUMENT")
	e.fails("electron_get_text", map[string]any{"ref": 1, "selector": "a"}, "BAD_ARGUMENT")
	e.fails("electron_find", map[string]any{}, "BAD_ARGUMENT")
	e.fails("electron_snapshot", map[string]any{"format": "xml"}, "BAD_ARGUMENT")
}
