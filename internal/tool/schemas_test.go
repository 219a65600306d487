package tool

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/mcpwire"
)

// TestToolsDocSchemas: the embedded schema of every tool (eval tools
// included) is byte for byte what jsonschema.For infers from its arguments
// type, and no file is left for a tool that no longer exists. With
// -update-docs it rewrites internal/tool/schemas/.
func TestToolsDocSchemas(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	t.Cleanup(s.Close)
	want := map[string][]byte{}
	for _, name := range s.tools().order {
		b, err := json.Marshal(s.tools().defs[name].schema())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want[name+".json"] = b
		if r := s.tools().defs[name].result; r != nil {
			if b, err = json.Marshal(mcpwire.EnvelopeSchema(r())); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want["out/"+name+".json"] = b
		}
	}
	if *updateDocs {
		for _, dir := range []string{"", "out/"} {
			ents, _ := os.ReadDir(filepath.Join("schemas", dir))
			for _, e := range ents {
				if _, ok := want[dir+e.Name()]; !ok && !e.IsDir() {
					if err := os.Remove(filepath.Join("schemas", dir, e.Name())); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if err := os.MkdirAll(filepath.Join("schemas", "out"), 0o755); err != nil {
			t.Fatal(err)
		}
		for f, b := range want {
			if err := os.WriteFile(filepath.Join("schemas", f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !*updateDocs {
		for _, dir := range []string{"", "out/"} {
			ents, _ := schemaFiles.ReadDir("schemas/" + strings.TrimSuffix(dir, "/"))
			for _, e := range ents {
				if _, ok := want[dir+e.Name()]; !ok && !e.IsDir() {
					t.Errorf("schemas/%s%s: no such tool or no typed result; run go test ./internal/tool -run TestToolsDoc -update-docs", dir, e.Name())
				}
			}
		}
	}
	for f, b := range want {
		got, err := os.ReadFile(filepath.Join("schemas", f))
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("schemas/%s differs from the inferred schema; run go test ./internal/tool -run TestToolsDoc -update-docs", f)
		}
		// What the server publishes is what was inferred.
		if name, ok := strings.CutPrefix(f, "out/"); ok {
			if pub := s.tools().defs[strings.TrimSuffix(name, ".json")].outputSchema(); !*updateDocs && !bytes.Equal(pub, b) {
				t.Errorf("%s: published output schema differs from the inferred one", f)
			}
		} else if pub := s.tools().defs[strings.TrimSuffix(f, ".json")].inputSchema(); !*updateDocs && !bytes.Equal(pub, b) {
			t.Errorf("%s: published schema differs from the inferred one", f)
		}
	}
}
