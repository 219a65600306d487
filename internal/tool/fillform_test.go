package tool

import "testing"

// TestFillForm (issue 30, point 4): one call fills a text field (by ref),
// an email field, a textarea, a number, a date, a range, a select (by its
// label), a radio and a checkbox, each as its single tool would; the page's
// own state says so. A field that cannot be filled stops the call with its
// own code, naming it, and says what the fields before it hold.
func TestFillForm(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/large.html")
	name := firstRef(t, e.ok("electron_find", map[string]any{"role": "textbox", "name_exact": "Full name"}))
	r := e.ok("electron_fill_form", map[string]any{"fields": []map[string]any{
		{"ref": name, "value": "Ada Lovelace"},
		{"selector": "#f-email", "value": "ada@example.org"},
		{"selector": "#f-bio", "value": "First\nprogrammer"},
		{"selector": "#f-age", "value": 36},
		{"selector": "#f-birthday", "value": "1815-12-10"},
		{"selector": "#f-volume", "value": "7"},
		{"selector": "#f-country", "value": "Japan"},
		{"selector": "#plan-pro", "value": true},
		{"selector": "#f-subscribe", "value": "on"},
	}})
	filled, _ := r["filled"].([]any)
	if len(filled) != 9 {
		t.Fatalf("filled: %v", r)
	}
	kinds := ""
	for _, f := range filled {
		kinds += f.(map[string]any)["kind"].(string) + " "
	}
	if kinds != "text text text value value value select checkbox checkbox " {
		t.Errorf("kinds: %q", kinds)
	}
	got := e.evalString(`JSON.stringify({name: document.querySelector('#f-name').value, email: document.querySelector('#f-email').value,
	  bio: document.querySelector('#f-bio').value, age: document.querySelector('#f-age').value, birthday: document.querySelector('#f-birthday').value,
	  volume: document.querySelector('#f-volume').value, country: document.querySelector('#f-country').value,
	  plan: document.querySelector('input[name=plan]:checked').value, subscribe: document.querySelector('#f-subscribe').checked})`)
	want := `{"name":"Ada Lovelace","email":"ada@example.org","bio":"First\nprogrammer","age":"36","birthday":"1815-12-10","volume":"7","country":"jp","plan":"pro","subscribe":true}`
	if got != want {
		t.Errorf("the page holds\n%s\nwant\n%s", got, want)
	}

	// The second field cannot be found: its own code, naming it, with the
	// first field done.
	f := e.fails("electron_fill_form", map[string]any{"timeoutMs": 300, "fields": []map[string]any{
		{"selector": "#f-phone", "value": "+44 1"},
		{"selector": "#no-such-field", "value": "x"},
	}}, "SELECTOR_NO_MATCH")
	det, _ := f["details"].(map[string]any)
	if det["field"] != "fields[1]" {
		t.Errorf("failure names %v, want fields[1]: %v", det["field"], f)
	}
	if done, _ := det["filled"].([]any); len(done) != 1 {
		t.Errorf("details.filled: %v", det["filled"])
	}
	if v := e.evalString(`document.querySelector('#f-phone').value`); v != "+44 1" {
		t.Errorf("phone: %q", v)
	}
	// A value of the wrong kind for the control is BAD_ARGUMENT naming it.
	f = e.fails("electron_fill_form", map[string]any{"fields": []map[string]any{{"selector": "#f-subscribe", "value": "maybe"}}}, "BAD_ARGUMENT")
	if det, _ := f["details"].(map[string]any); det["field"] != "fields[0]" {
		t.Errorf("bad value: %v", f)
	}
	// A disabled field fails as electron_type fails on it.
	f = e.fails("electron_fill_form", map[string]any{"timeoutMs": 300, "fields": []map[string]any{{"selector": "#f-account", "value": "x"}}}, "ELEMENT_DISABLED")
	if det, _ := f["details"].(map[string]any); det["field"] != "fields[0]" {
		t.Errorf("disabled field: %v", f)
	}
}

// TestFillFormOnALibrary: one call sets rc-slider's ARIA slider (by keys,
// as electron_set_value moves it) and native range, date, color and text
// inputs; the app's own value (window.volume) and the native inputs' input
// events say what each holds.
func TestFillFormOnALibrary(t *testing.T) {
	e := componentsEnv(t, "slider.html")
	handle := "#volume [role=slider]"
	r := e.ok("electron_fill_form", map[string]any{"fields": []map[string]any{
		{"selector": handle, "value": 45},
		{"selector": "#level", "value": "73"},
		{"selector": "#day", "value": "2026-12-07"},
		{"selector": "#tint", "value": "#336699"},
		{"selector": "#name", "value": "Grace"},
	}})
	kinds := ""
	for _, f := range r["filled"].([]any) {
		kinds += f.(map[string]any)["kind"].(string) + " "
	}
	if kinds != "value value value value text " {
		t.Errorf("kinds %q: %v", kinds, r)
	}
	if v := num(e.eval("window.volume()")); v != 45 {
		t.Errorf("rc-slider's own value is %d, want 45", v)
	}
	if got := e.evalString(`JSON.stringify([__seen['level:input'], __seen['day:input'], __seen['tint:input'], document.querySelector('#name').value])`); got != `["73","2026-12-07","#336699","Grace"]` {
		t.Errorf("the page saw %s", got)
	}
}
