package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/understudy-dev/understudy/internal/production/oracle"
)

// TestProductionValidateCLI: exit 0 for a sound app, 1 for verified
// failures, 2 for bad input; --json writes one report (or one error
// object) on stdout.
func TestProductionValidateCLI(t *testing.T) {
	app, _ := oracle.Build(t, oracle.Spec{
		Files: map[string]any{"package.json": `{"name":"c","main":"m.js"}`, "m.js": "x"},
		Fuses: map[string]bool{"RunAsNode": false, "EnableNodeOptionsEnvironmentVariable": false, "EnableNodeCliInspectArguments": false},
	})
	var out, errb bytes.Buffer
	if code := run([]string{"production", "validate", "--json", "--checks", "fuses,asar,asar-integrity", app}, nil, &out, &errb); code != 0 {
		t.Fatalf("sound app: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	var r struct {
		Schema string `json:"schema"`
		Passed bool   `json:"passed"`
		Checks []any  `json:"checks"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.Schema != "understudy-production-validation" || !r.Passed || len(r.Checks) != 3 {
		t.Fatalf("report %v: %s", err, out.String())
	}

	// A file changed after packing: exit 1.
	archive := filepath.Join(app, "resources", "app.asar")
	b, _ := os.ReadFile(archive)
	b[len(b)-1] ^= 1
	os.WriteFile(archive, b, 0o644)
	out.Reset()
	if code := run([]string{"production", "validate", "--app", app}, nil, &out, &errb); code != 1 {
		t.Fatalf("tampered: exit %d\n%s", code, out.String())
	}

	for _, args := range [][]string{
		{"production", "validate", "--json", filepath.Join(t.TempDir(), "missing")},
		{"production", "validate", "--json", "--checks", "nope", app},
		{"production", "validate"},
		{"production", "frobnicate"},
	} {
		out.Reset()
		if code := run(args, nil, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d", args, code)
		}
		if args[len(args)-1] != "validate" && args[1] == "validate" {
			var e struct {
				OK   *bool  `json:"ok"`
				Code string `json:"code"`
			}
			if json.Unmarshal(out.Bytes(), &e) != nil || e.OK == nil || *e.OK || e.Code == "" {
				t.Errorf("%v: stdout %q", args, out.String())
			}
		}
	}
}
