package tool

import (
	"bytes"
	"context"
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/visual"
)

// TestVisualBaselineLeavesOtherFiles (issue #27 item 10):
// visual_update_baseline {name:"package"} in a folder holding package.json
// once replaced it with the baseline's sidecar. A file that is not a
// baseline is left byte for byte; a baseline pair written earlier (by
// another run) is replaced.
func TestVisualBaselineLeavesOtherFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("drives Chromium; skipped under -short")
	}
	e := newEnv(t, Config{})
	e.launch("/index.html")
	dir := t.TempDir()
	pkg := []byte("{\n  \"name\": \"app\"\n}\n")
	if err := os.WriteFile(filepath.Join(dir, "package.json"), pkg, 0o644); err != nil {
		t.Fatal(err)
	}
	e.fails("visual_update_baseline", map[string]any{"name": "package", "baselineDir": dir, "confirm": true}, "VISUAL_BASELINE_CONFLICT")
	if b, _ := os.ReadFile(filepath.Join(dir, "package.json")); !bytes.Equal(b, pkg) {
		t.Fatalf("package.json changed: %s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "package.png")); !os.IsNotExist(err) {
		t.Fatal("package.png was written beside a package.json that is not a sidecar")
	}
	// A pair another run wrote is a baseline: replaced, and said so.
	other := files.New(files.Config{Extra: []string{dir}})
	if _, err := visual.WriteBaseline(context.Background(), other, dir, "win", pngOf(t), visual.Meta{Width: 1, Height: 1, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	up := e.ok("visual_update_baseline", map[string]any{"name": "win", "baselineDir": dir, "confirm": true})
	if up["replaced"] != true {
		t.Fatalf("replacing a baseline: %v", up)
	}
	e.ok("visual_update_baseline", map[string]any{"name": "win", "baselineDir": dir, "confirm": true})
}

// pngOf is a 1x1 PNG.
func pngOf(t *testing.T) []byte {
	t.Helper()
	b, err := visual.Encode(image.NewRGBA(image.Rect(0, 0, 1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDownloadsLandInArtifacts (issue #27 item 10): a page's own download
// once landed in $HOME/Downloads. It lands in <artifacts>/downloads, named
// by its guid, and electron_downloads lists it.
func TestDownloadsLandInArtifacts(t *testing.T) {
	if testing.Short() {
		t.Skip("drives Chromium; skipped under -short")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	art := filepath.Join(t.TempDir(), "artifacts")
	e := newEnv(t, Config{ArtifactsDir: art})
	e.launch("/actions.html")
	empty := e.ok("electron_downloads", nil)
	if empty["handling"] != "artifacts" || empty["dir"] != filepath.Join(art, "downloads") || len(empty["downloads"].([]any)) != 0 {
		t.Fatalf("before: %v", empty)
	}
	e.ok("electron_click", map[string]any{"selector": "#download"})
	var dl map[string]any
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		list := e.ok("electron_downloads", nil)["downloads"].([]any)
		if len(list) == 1 && list[0].(map[string]any)["state"] == "completed" {
			dl = list[0].(map[string]any)
			break
		}
	}
	if dl == nil {
		t.Fatalf("no completed download: %v", e.ok("electron_downloads", nil))
	}
	if dl["suggested_filename"] != fixture.DownloadName || num(dl["received_bytes"]) != len(fixture.DownloadBody) ||
		dl["path"] != filepath.Join(art, "downloads", dl["guid"].(string)) {
		t.Fatalf("download: %v", dl)
	}
	if b, err := os.ReadFile(dl["path"].(string)); err != nil || string(b) != fixture.DownloadBody {
		t.Fatalf("the downloaded file: %q %v", b, err)
	}
	if ents, _ := os.ReadDir(filepath.Join(home, "Downloads")); len(ents) > 0 {
		t.Fatalf("$HOME/Downloads got %d files", len(ents))
	}
}
