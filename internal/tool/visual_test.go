package tool

import (
	"encoding/json"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/understudy-dev/understudy/internal/visual"
)

func TestVisualBaselines(t *testing.T) {
	if testing.Short() {
		t.Skip("drives Chromium; skipped under -short")
	}
	cfg := Config{}
	dir := t.TempDir()
	if d := os.Getenv("VISUAL_DEBUG_DIR"); d != "" {
		dir, cfg.ArtifactsDir = d, d
	}
	e := newEnv(t, cfg)
	e.launch("/index.html")
	e.fails("visual_expect", map[string]any{"name": "order", "selector": "#btn", "baselineDir": dir}, "VISUAL_BASELINE_NOT_FOUND")
	e.fails("visual_expect", map[string]any{"name": "../x"}, "BAD_ARGUMENT")
	e.fails("visual_expect", map[string]any{"name": "x", "baselineDir": "/etc"}, "PATH_NOT_ALLOWED")
	e.fails("visual_update_baseline", map[string]any{"name": "order", "selector": "#btn", "baselineDir": dir}, "CONFIRM_REQUIRED")
	if _, err := os.Stat(filepath.Join(dir, "order.png")); !os.IsNotExist(err) {
		t.Fatal("a baseline was written without confirm")
	}

	// An element of the top page. (Element captures inside the nested
	// OOPIF sometimes clip white: see docs/evidence.md, known limits.)
	up := e.ok("visual_update_baseline", map[string]any{"name": "order", "selector": "#btn", "baselineDir": dir, "confirm": true})
	env := up["env"].(map[string]any)
	if num(up["width"]) < 20 || env["browser"] == "" || num(env["viewport_width"]) < 200 || env["device_scale"].(float64) != 1 {
		t.Fatalf("update: %v", up)
	}
	pass := e.ok("visual_expect", map[string]any{"name": "order", "selector": "#btn", "baselineDir": dir})
	if pass["passed"] != true || num(pass["diff_pixels"]) != 0 {
		t.Fatalf("expect on the same page: %v", pass)
	}
	e.ok("visual_update_baseline", map[string]any{"name": "win0", "baselineDir": dir, "confirm": true})
	// The page changes: a mismatch with actual and diff images.
	e.ok("electron_type", map[string]any{"selector": "#inp", "text": "77"})
	e.ok("electron_click", map[string]any{"selector": "h1"}) // blur: a blinking caret is not hidden yet
	m := e.fails("visual_expect", map[string]any{"name": "win0", "baselineDir": dir}, "VISUAL_MISMATCH")
	d := m["details"].(map[string]any)
	if d["mismatch_ratio"].(float64) <= 0 || num(d["diff_pixels"]) < 10 {
		t.Fatalf("mismatch: %v", m)
	}
	diffPNG, err := os.ReadFile(d["diff_path"].(string))
	if err != nil {
		t.Fatal(err)
	}
	img, err := visual.Decode(diffPNG)
	if err != nil {
		t.Fatal(err)
	}
	red := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.NRGBAModel.Convert(img.At(x, y)) == (color.NRGBA{255, 0, 0, 255}) {
				red++
			}
		}
	}
	if red != num(d["diff_pixels"]) {
		t.Fatalf("the diff image marks %d pixels, the answer says %d", red, num(d["diff_pixels"]))
	}
	if _, err := os.Stat(d["actual_path"].(string)); err != nil {
		t.Fatal(err)
	}
	// Masked: the selector masks take the field and the log out of the
	// count; a rect over the whole window leaves nothing to differ.
	mm := e.call("visual_expect", map[string]any{"name": "win0", "baselineDir": dir, "masks": []any{map[string]any{"selector": "#inp"}, map[string]any{"selector": "#log"}}})
	if mm["ok"] == false {
		if md := mm["details"].(map[string]any); num(md["diff_pixels"]) >= num(d["diff_pixels"]) {
			t.Fatalf("the masks did not reduce the difference: %v vs %v", md, d)
		}
	}
	masked := e.ok("visual_expect", map[string]any{"name": "win0", "baselineDir": dir, "masks": []any{map[string]any{"x": 0, "y": 0, "width": 1280, "height": 900}}})
	if masked["passed"] != true || num(masked["masked_pixels"]) == 0 {
		t.Fatalf("masked: %v", masked)
	}
	// Accept the change, and it passes.
	e.ok("visual_update_baseline", map[string]any{"name": "win0", "baselineDir": dir, "confirm": true})
	e.ok("visual_expect", map[string]any{"name": "win0", "baselineDir": dir})

	// The window, a clip of another size, another environment, a corrupt PNG.
	e.ok("visual_update_baseline", map[string]any{"name": "window", "confirm": true, "baselineDir": dir, "masks": []any{map[string]any{"selector": "#cross1"}}})
	e.ok("visual_expect", map[string]any{"name": "window", "baselineDir": dir, "masks": []any{map[string]any{"selector": "#cross1"}}})
	e.fails("visual_expect", map[string]any{"name": "window", "baselineDir": dir, "clip": map[string]any{"x": 0, "y": 0, "width": 100, "height": 50}}, "VISUAL_SIZE_MISMATCH")
	metaPath := filepath.Join(dir, "window.json")
	var meta map[string]any
	raw, _ := os.ReadFile(metaPath)
	_ = json.Unmarshal(raw, &meta)
	meta["env"].(map[string]any)["device_scale"] = 2
	raw, _ = json.Marshal(meta)
	if err := os.WriteFile(metaPath, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	e.fails("visual_expect", map[string]any{"name": "window", "baselineDir": dir}, "VISUAL_ENV_MISMATCH")
	if err := os.WriteFile(filepath.Join(dir, "order.png"), []byte("not a png"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.fails("visual_expect", map[string]any{"name": "order", "selector": "#btn", "baselineDir": dir}, "IMAGE_INVALID")
	cap := e.ok("visual_capture", map[string]any{"name": "review", "clip": map[string]any{"x": 0, "y": 0, "width": 200, "height": 100}})
	if num(cap["width"]) != 200 || num(cap["height"]) != 100 {
		t.Fatalf("capture: %v", cap)
	}
}
