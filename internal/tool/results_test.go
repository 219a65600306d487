package tool

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/understudy-dev/understudy/internal/mcpwire"
)

// TestEveryToolHasAResultType: every tool publishes an outputSchema derived
// from its result type (a handler returning an interface publishes none).
func TestEveryToolHasAResultType(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	t.Cleanup(s.Close)
	for _, name := range s.tools().order {
		d := s.tools().defs[name]
		switch {
		case d.result == nil:
			t.Errorf("%s returns an untyped result: give its handler a result type", name)
		case d.outputSchema() == nil:
			t.Errorf("%s publishes no outputSchema", name)
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
	r, err := mcpwire.EnvelopeSchema(sch).Resolve(nil)
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

// TestResultSchemasMatchTheirJSON: a result with every field set (every
// pointer, slice and map filled, recursively) encodes to JSON that its
// tool's outputSchema accepts. It catches what the browser tests may not
// reach: a field the schema leaves out (an embedded struct hiding a field
// of the same name), a JSON type the schema misstates, a field name two
// embedded structs both claim.
func TestResultSchemasMatchTheirJSON(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	t.Cleanup(s.Close)
	for _, name := range s.tools().order {
		d := s.tools().defs[name]
		if d.result == nil {
			continue
		}
		r, err := mcpwire.EnvelopeSchema(d.result()).Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		v := reflect.New(d.out).Elem()
		fillValue(v, 0)
		b, err := json.Marshal(v.Interface())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m["ok"], m["_meta"] = true, map[string]any{"estimated_tokens": 1, "elapsed_ms": 1}
		if err := r.Validate(m); err != nil {
			t.Errorf("%s: a full result does not match its outputSchema: %v\n%s", name, err, b)
		}
		for _, f := range []string{"ok", "_meta"} {
			if _, clash := r.Schema().Properties[f]; clash && d.result().Properties[f] != nil {
				t.Errorf("%s: the result type has a field %s, which the envelope owns", name, f)
			}
		}
	}
}

// TestResultSchemasAreTyped: every field of every result has a JSON type,
// except values the page or the app chose (json.RawMessage, "any JSON
// value"): no result carries an untyped Go value.
func TestResultSchemasAreTyped(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	t.Cleanup(s.Close)
	var walk func(name, path string, sch *jsonschema.Schema)
	walk = func(name, path string, sch *jsonschema.Schema) {
		if sch.Type == "" && len(sch.Types) == 0 && sch.Ref == "" && sch.Description != "any JSON value" && !strings.Contains(sch.Description, "JSON") {
			t.Errorf("%s: %s has no type (an untyped Go value in the result type?)", name, path)
		}
		for p, ps := range sch.Properties {
			walk(name, path+"."+p, ps)
		}
		if sch.Items != nil {
			walk(name, path+"[]", sch.Items)
		}
		if sch.AdditionalProperties != nil && sch.AdditionalProperties.Not == nil {
			walk(name, path+"{}", sch.AdditionalProperties)
		}
	}
	for _, name := range s.tools().order {
		if d := s.tools().defs[name]; d.result != nil {
			walk(name, "result", d.result())
		}
	}
}

// fillValue sets every field of v: strings "x", numbers 1, booleans true,
// one element in every slice and map, every pointer allocated.
func fillValue(v reflect.Value, depth int) {
	if depth > 8 {
		return
	}
	if v.Type() == reflect.TypeFor[json.RawMessage]() {
		v.SetBytes([]byte(`{"any":1}`))
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillValue(v.Elem(), depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			if !f.CanSet() {
				if !v.Type().Field(i).Anonymous {
					continue // an unexported field encodes to nothing
				}
				// An embedded unexported struct's fields are encoded.
				f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
			}
			fillValue(f, depth+1)
		}
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fillValue(v.Index(0), depth+1)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		e := reflect.New(v.Type().Elem()).Elem()
		fillValue(e, depth+1)
		m.SetMapIndex(reflect.ValueOf("k").Convert(v.Type().Key()), e)
		v.Set(m)
	}
}

// typeExceptions are the result fields that have more than one JSON type
// across tools, and why (docs/tools.md, "Parameter and field meanings").
// The list may only shrink (it grew once, by keys, for stagewright's
// storage_idb_keys result in issue 29).
var typeExceptions = map[string]string{
	"actual":    "the value an expectation checked: its type is the checked value's",
	"cleared":   "stagewright's names: storage_clear_cookies counts the cookies, storage_*_clear says the scope was cleared",
	"keys":      "stagewright's names: storage_local_keys/storage_session_keys list Web Storage key names (strings), storage_idb_keys IndexedDB primary keys (numbers, strings, dates, arrays)",
	"items":     "stagewright's names: storage_*_get {keys} returns the values by key; electron_elements_list the elements",
	"dropped":   "electron_drag/electron_drop_file: the drop happened; electron_console_logs: entries let go (documented in its description)",
	"events":    "stagewright's names: network_captured returns the events, network_capture_stop how many it dropped",
	"endpoints": "electron_discover_running: the endpoints found; electron_info: the session's endpoint URLs",
	"pressed":   "electron_key: the chord; electron_press_sequence: the chords in order",
	"verified":  "pointer actions: the event reached the element; text tools: how the text was verified (as match)",
}

// TestResultFieldsHaveOneType: a result field name has one JSON type in
// every tool that returns it, except typeExceptions.
func TestResultFieldsHaveOneType(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	t.Cleanup(s.Close)
	seen := map[string]map[string][]string{} // field → type → tools
	for _, name := range s.tools().order {
		d := s.tools().defs[name]
		if d.result == nil {
			continue
		}
		for f, p := range d.result().Properties {
			typ := schemaType(p)
			if seen[f] == nil {
				seen[f] = map[string][]string{}
			}
			seen[f][typ] = append(seen[f][typ], name)
		}
	}
	for f, types := range seen {
		switch _, ok := typeExceptions[f]; {
		case len(types) > 1 && !ok:
			t.Errorf("result field %s has %d types across tools: %v; give it one type (or one name per meaning)", f, len(types), types)
		case len(types) == 1 && ok:
			t.Errorf("result field %s has one type now: remove it from typeExceptions", f)
		}
	}
}
