package tool

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// TestEveryToolHasAResultType: every tool publishes an outputSchema derived
// from its result type (a handler returning an interface publishes none).
func TestEveryToolHasAResultType(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	t.Cleanup(s.Close)
	for _, name := range s.order {
		d := s.defs[name]
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
