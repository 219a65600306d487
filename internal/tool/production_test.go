package tool

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/understudy-dev/understudy/internal/production/oracle"
)

// TestProductionValidateTool: through MCP, an app built by @electron/asar
// and fused by @electron/fuses is reported with its fuses and debugging
// verdicts; a tampered archive fails; paths outside the file roots, bad
// checks and non-artifacts are coded errors.
func TestProductionValidateTool(t *testing.T) {
	app, _ := oracle.Build(t, oracle.Spec{
		Files: map[string]any{
			"package.json": `{"name":"t","version":"0.1.0","main":"main.js"}`,
			"main.js":      "new BrowserWindow({webPreferences:{contextIsolation:true}})",
		},
		Fuses: map[string]bool{"EnableNodeCliInspectArguments": false, "RunAsNode": false, "EnableNodeOptionsEnvironmentVariable": false},
	})
	root := filepath.Dir(app)
	e := newEnv(t, Config{FileRoots: []string{root}, ArtifactsDir: filepath.Join(t.TempDir(), "art")})
	r := e.ok("production_validate", map[string]any{"appPath": app})
	if r["passed"] != true || r["artifact_type"] != "linux-unpacked" {
		t.Fatalf("report: %s", toJSON(r))
	}
	dbg := r["debugging"].(map[string]any)
	if dbg["inspect"].(map[string]any)["status"] != "blocked" {
		t.Errorf("debugging: %s", toJSON(dbg))
	}
	fuses := r["fuses"].(map[string]any)["fuses"].([]any)
	if fuses[3].(map[string]any)["name"] != "EnableNodeCliInspectArguments" || fuses[3].(map[string]any)["state"] != "disabled" {
		t.Errorf("fuses: %s", toJSON(fuses))
	}

	// A dev launch with this binary is refused in advance.
	e.fails("electron_launch", map[string]any{"main": filepath.Join(root, "src", "main.js"), "electronPath": filepath.Join(app, "myapp")}, "FUSES_BLOCK_LAUNCH")

	// Tamper with main.js inside the archive: a verified failure.
	archive := filepath.Join(app, "resources", "app.asar")
	b, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-3] ^= 0xff
	if err := os.WriteFile(archive, b, 0o644); err != nil {
		t.Fatal(err)
	}
	r = e.ok("production_validate", map[string]any{"appPath": app, "checks": []string{"asar-integrity"}})
	if r["passed"] != false || len(r["checks"].([]any)) != 1 || r["checks"].([]any)[0].(map[string]any)["status"] != "fail" {
		t.Errorf("tampered: %s", toJSON(r))
	}

	e.fails("production_validate", map[string]any{"appPath": app, "checks": []string{"codesign"}}, "BAD_ARGUMENT")
	e.fails("production_validate", map[string]any{"appPath": "rel/app"}, "ABSOLUTE_PATH_REQUIRED")
	e.fails("production_validate", map[string]any{"appPath": t.TempDir()}, "PATH_NOT_ALLOWED")
	e.fails("production_validate", map[string]any{"appPath": filepath.Join(root, "src")}, "UNSUPPORTED_ARTIFACT")
	os.WriteFile(filepath.Join(root, "cut.asar"), b[:20], 0o644)
	e.fails("production_validate", map[string]any{"appPath": filepath.Join(root, "cut.asar")}, "ASAR_INVALID")
}
