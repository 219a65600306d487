package tool

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// untypedResults lists the tools whose handlers still return an untyped
// result and so publish no outputSchema. It may only shrink: a tool added
// or converted returns a result type (see add), and
// TestEveryToolHasAResultType fails when a listed tool has one.
var untypedResults = map[string]bool{
	"electron_assert_pattern":     true,
	"electron_attach":             true,
	"electron_check":              true,
	"electron_clear_input":        true,
	"electron_click":              true,
	"electron_console_logs":       true,
	"electron_detach":             true,
	"electron_dialog_handler":     true,
	"electron_discover_running":   true,
	"electron_doctor":             true,
	"electron_drag":               true,
	"electron_drop_file":          true,
	"electron_elements_list":      true,
	"electron_eval_main":          true,
	"electron_eval_renderer":      true,
	"electron_exists":             true,
	"electron_expect_count":       true,
	"electron_expect_state":       true,
	"electron_expect_text":        true,
	"electron_expect_url":         true,
	"electron_expect_value":       true,
	"electron_expect_visible":     true,
	"electron_find":               true,
	"electron_focused_element":    true,
	"electron_force_kill":         true,
	"electron_get_attribute":      true,
	"electron_get_bbox":           true,
	"electron_get_computed_style": true,
	"electron_get_state":          true,
	"electron_get_value":          true,
	"electron_hover":              true,
	"electron_info":               true,
	"electron_inject":             true,
	"electron_key":                true,
	"electron_keyboard_type":      true,
	"electron_launch":             true,
	"electron_navigate":           true,
	"electron_press_sequence":     true,
	"electron_relay_endpoint":     true,
	"electron_screenshot":         true,
	"electron_scroll":             true,
	"electron_scroll_into_view":   true,
	"electron_select_option":      true,
	"electron_set_files":          true,
	"electron_snapshot":           true,
	"electron_status":             true,
	"electron_stop":               true,
	"electron_surfaces_list":      true,
	"electron_switch_surface":     true,
	"electron_switch_window":      true,
	"electron_type":               true,
	"electron_type_into_editor":   true,
	"electron_uncheck":            true,
	"electron_wait":               true,
	"electron_wait_for_event":     true,
	"electron_wait_for_selector":  true,
	"electron_wait_for_state":     true,
	"electron_windows_list":       true,
}

// TestEveryToolHasAResultType: every tool publishes an outputSchema derived
// from its result type, except the ones listed above.
func TestEveryToolHasAResultType(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	t.Cleanup(s.Close)
	for _, name := range s.order {
		d := s.defs[name]
		switch {
		case d.result == nil && !untypedResults[name]:
			t.Errorf("%s returns an untyped result: give its handler a result type", name)
		case d.result != nil && untypedResults[name]:
			t.Errorf("%s has a result type now: remove it from untypedResults", name)
		case d.result != nil && d.outputSchema() == nil:
			t.Errorf("%s publishes no outputSchema", name)
		}
	}
	for name := range untypedResults {
		if s.defs[name] == nil {
			t.Errorf("untypedResults names %s, which is not a tool", name)
		}
	}
}

// TestOutputSchemaRejectsWrongResults: the schema derived from a result
// type accepts its envelope and rejects a missing field, a field of
// another type and a field the type does not declare.
func TestOutputSchemaRejectsWrongResults(t *testing.T) {
	type result struct {
		SurfaceID string `json:"surface_id"`
		Count     int    `json:"count"`
		Note      string `json:"note,omitempty"`
	}
	sch, err := jsonschema.For[*result](nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := envelopeSchema(sch).Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	meta := `"_meta":{"estimated_tokens":3,"elapsed_ms":1}`
	for _, c := range []struct {
		doc  string
		good bool
	}{
		{`{"ok":true,"surface_id":"s1","count":2,` + meta + `}`, true},
		{`{"ok":true,"surface_id":"s1","count":2,"note":"n",` + meta + `}`, true},
		{`{"ok":true,"surface_id":"s1",` + meta + `}`, false},
		{`{"ok":true,"surface_id":"s1","count":"2",` + meta + `}`, false},
		{`{"ok":true,"surface_id":"s1","count":2,"extra":1,` + meta + `}`, false},
		{`{"ok":true,"surface_id":"s1","count":2}`, false},
	} {
		var m map[string]any
		if err := json.Unmarshal([]byte(c.doc), &m); err != nil {
			t.Fatal(err)
		}
		if err := r.Validate(m); (err == nil) != c.good {
			t.Errorf("%s: valid=%v, want %v (%v)", c.doc, err == nil, c.good, err)
		}
	}
}
