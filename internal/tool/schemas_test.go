package tool

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestToolsDocSchemas: the embedded schema of every tool (eval tools
// included) is byte for byte what jsonschema.For infers from its arguments
// type, and no file is left for a tool that no longer exists. With
// -update-docs it rewrites internal/tool/schemas/.
func TestToolsDocSchemas(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	t.Cleanup(s.Close)
	want := map[string][]byte{}
	for _, name := range s.order {
		b, err := json.Marshal(s.defs[name].schema())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want[name+".json"] = b
	}
	if *updateDocs {
		ents, _ := os.ReadDir("schemas")
		for _, e := range ents {
			if _, ok := want[e.Name()]; !ok {
				if err := os.Remove(filepath.Join("schemas", e.Name())); err != nil {
					t.Fatal(err)
				}
			}
		}
		for f, b := range want {
			if err := os.WriteFile(filepath.Join("schemas", f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	ents, err := schemaFiles.ReadDir("schemas")
	if err != nil {
		t.Fatal(err)
	}
	if !*updateDocs {
		for _, e := range ents {
			if _, ok := want[e.Name()]; !ok {
				t.Errorf("schemas/%s: no such tool; run go test ./internal/tool -run TestToolsDoc -update-docs", e.Name())
			}
		}
	}
	for f, b := range want {
		got, err := os.ReadFile(filepath.Join("schemas", f))
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("schemas/%s differs from the inferred schema; run go test ./internal/tool -run TestToolsDoc -update-docs", f)
		}
		// What the server publishes is what was inferred.
		if pub := s.defs[f[:len(f)-len(".json")]].inputSchema(); !*updateDocs && !bytes.Equal(pub, b) {
			t.Errorf("%s: published schema differs from the inferred one", f)
		}
	}
}
