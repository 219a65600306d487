package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestScreenshot captures the fixture through the Electron-shaped proxy:
// the active window, an element of the nested OOPIF, the full page, a clip,
// a JPEG and another window by title, and checks the files themselves.
func TestScreenshot(t *testing.T) {
	e, s := surfaceEnv(t)
	dir := t.TempDir()
	decodePNG := func(path string) (w, h int) {
		t.Helper()
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cfg, err := png.DecodeConfig(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return cfg.Width, cfg.Height
	}
	fnum := func(v any) float64 { f, _ := v.(float64); return f }
	e.use(s["top"])
	dpr := fnum(e.eval("devicePixelRatio"))
	vw, vh := fnum(e.eval("innerWidth")), fnum(e.eval("innerHeight"))

	path := filepath.Join(dir, "top.png")
	r := e.ok("electron_screenshot", map[string]any{"path": path})
	if w, h := decodePNG(path); r["path"] != path || float64(w) != vw*dpr || float64(h) != vh*dpr || fnum(r["width"]) != float64(w) || r["window_id"] == "" {
		t.Fatalf("viewport: %v, file %dx%d, viewport %vx%v at %v", r, w, h, vw, vh, dpr)
	}
	// The same path again replaces the file; nothing else is left behind.
	e.ok("electron_screenshot", map[string]any{"path": path})
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("files after replacing: %v", ents)
	}

	// An element of the nested OOPIF: the box where it shows in the window.
	e.use(s["cross2"])
	e.eval("const b = document.getElementById('btn'); b.style.background = 'rgb(0, 200, 0)'; b.style.border = '0'; b.style.color = 'rgb(0, 200, 0)'; true")
	box := e.ok("electron_get_bbox", map[string]any{"selector": "#btn"})["bbox"].(map[string]any)["viewport"].(map[string]any)
	r = e.ok("electron_screenshot", map[string]any{"selector": "#btn", "dir": dir})
	w, h := decodePNG(r["path"].(string))
	if math.Abs(float64(w)-fnum(box["width"])*dpr) > 1.5 || math.Abs(float64(h)-fnum(box["height"])*dpr) > 1.5 || r["surface_id"] != s["cross2"]["id"] {
		t.Fatalf("element: %v, file %dx%d, box %v", r, w, h, box)
	}
	// It is the element: the button's colour fills the picture.
	if f, err := os.Open(r["path"].(string)); err != nil {
		t.Fatal(err)
	} else {
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range [][2]int{{w / 2, h / 2}, {2, 2}, {w - 3, h - 3}} {
			r8, g8, b8, _ := img.At(p[0], p[1]).RGBA()
			if r8>>8 > 10 || g8>>8 < 190 || g8>>8 > 210 || b8>>8 > 10 {
				t.Fatalf("pixel %v of the element's picture is %d,%d,%d, not the button's green", p, r8>>8, g8>>8, b8>>8)
			}
		}
	}
	if !strings.HasPrefix(filepath.Base(r["path"].(string)), "screenshot-") {
		t.Fatalf("generated name %v", r["path"])
	}
	second := e.ok("electron_screenshot", map[string]any{"selector": "#btn", "dir": dir})
	if second["path"] == r["path"] {
		t.Fatalf("two screenshots into one folder share a name: %v", second["path"])
	}

	// The full page is taller than the viewport; a clip is the clip.
	e.use(s["top"])
	e.eval("document.body.style.minHeight = '3000px'; true")
	r = e.ok("electron_screenshot", map[string]any{"fullPage": true, "dir": dir})
	if _, h := decodePNG(r["path"].(string)); float64(h) < 3000*dpr {
		t.Fatalf("full page %v is %d pixels high", r, h)
	}
	r = e.ok("electron_screenshot", map[string]any{"clip": map[string]any{"x": 10, "y": 20, "width": 100, "height": 50}, "dir": dir})
	if w, h := decodePNG(r["path"].(string)); float64(w) != 100*dpr || float64(h) != 50*dpr {
		t.Fatalf("clip: %dx%d", w, h)
	}

	// JPEG.
	r = e.ok("electron_screenshot", map[string]any{"format": "jpeg", "quality": 40, "dir": dir})
	f, err := os.Open(r["path"].(string))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := jpeg.DecodeConfig(f)
	f.Close()
	if err != nil || !strings.HasSuffix(r["path"].(string), ".jpg") || float64(cfg.Width) != vw*dpr {
		t.Fatalf("jpeg: %v %+v %v", r, cfg, err)
	}

	// Another window by title.
	var secondID any
	for _, w := range e.ok("electron_windows_list", nil)["windows"].([]any) {
		if m := w.(map[string]any); m["surface_id"] == s["second"]["id"] {
			secondID = m["id"]
		}
	}
	r = e.ok("electron_screenshot", map[string]any{"windowTitle": "second", "dir": dir})
	if secondID == nil || r["window_id"] != secondID {
		t.Fatalf("window by title: %v, second is %v", r["window_id"], secondID)
	}

	for _, bad := range []struct {
		args  map[string]any
		code  string
		field string
	}{
		{map[string]any{"path": "/proc/self/mem"}, "BAD_ARGUMENT", "path"},
		{map[string]any{"path": dir}, "BAD_ARGUMENT", "path"},
		{map[string]any{"path": "a\x00b.png"}, "BAD_ARGUMENT", "path"},
		{map[string]any{"path": path, "dir": dir}, "BAD_ARGUMENT", "path"},
		{map[string]any{"dir": filepath.Join(dir, "missing")}, "FILE_NOT_FOUND", "dir"},
		{map[string]any{"quality": 50}, "BAD_ARGUMENT", "quality"},
		{map[string]any{"format": "gif"}, "BAD_ARGUMENT", "format"},
		{map[string]any{"selector": "#btn", "fullPage": true}, "BAD_ARGUMENT", "fullPage"},
		{map[string]any{"clip": map[string]any{"x": 0, "y": 0, "width": 0, "height": 10}}, "BAD_ARGUMENT", "clip"},
		{map[string]any{"windowTitle": "no such window"}, "BAD_ARGUMENT", "windowTitle"},
	} {
		if d := details(e.fails("electron_screenshot", bad.args, bad.code)); d["field"] != bad.field {
			t.Fatalf("%v: %v", bad.args, d)
		}
	}
}

// TestScreenshotInline: the answer carries the picture as MCP image
// content scaled to inlineMaxSide (the file keeps every pixel), the same
// picture as the file; inlineMaxSide 0 sends the file only; a budget out of
// range is BAD_ARGUMENT naming it.
func TestScreenshotInline(t *testing.T) {
	e, s := surfaceEnv(t)
	e.use(s["top"])
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	shot := func(args map[string]any) (*mcp.CallToolResult, map[string]any) {
		t.Helper()
		res, err := e.client.CallTool(ctx, &mcp.CallToolParams{Name: "electron_screenshot", Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("screenshot %v: %v %v", args, err, res)
		}
		var m map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &m)
		return res, m
	}
	res, m := shot(map[string]any{"path": filepath.Join(dir, "a.png"), "inlineMaxSide": 200})
	if len(res.Content) != 2 {
		t.Fatalf("want text and image, got %d blocks", len(res.Content))
	}
	img, ok := res.Content[1].(*mcp.ImageContent)
	if !ok || img.MIMEType != "image/png" {
		t.Fatalf("second block: %#v", res.Content[1])
	}
	small, err := png.Decode(bytes.NewReader(img.Data))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(m["path"].(string))
	if err != nil {
		t.Fatal(err)
	}
	full, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	sb, fb := small.Bounds(), full.Bounds()
	if max(sb.Dx(), sb.Dy()) != 200 || fb.Dx() <= 200 || math.Abs(float64(sb.Dx())/float64(sb.Dy())-float64(fb.Dx())/float64(fb.Dy())) > 0.05 {
		t.Fatalf("inline %v, file %v", sb, fb)
	}
	// The same picture: the colour at the middle agrees.
	fr, fg, fbl, _ := full.At(fb.Dx()/2, fb.Dy()/2).RGBA()
	sr, sg, sbl, _ := small.At(sb.Dx()/2, sb.Dy()/2).RGBA()
	if d := math.Abs(float64(fr)-float64(sr)) + math.Abs(float64(fg)-float64(sg)) + math.Abs(float64(fbl)-float64(sbl)); d > 3*0x3000 {
		t.Errorf("inline and file differ at the centre: %v vs %v", full.At(fb.Dx()/2, fb.Dy()/2), small.At(sb.Dx()/2, sb.Dy()/2))
	}
	if res, _ := shot(map[string]any{"path": filepath.Join(dir, "b.png"), "inlineMaxSide": 0}); len(res.Content) != 1 {
		t.Fatalf("inlineMaxSide 0 sent %d blocks", len(res.Content))
	}
	if f := e.fails("electron_screenshot", map[string]any{"inlineMaxSide": -1}, "BAD_ARGUMENT"); !strings.Contains(toJSON(f), "inlineMaxSide") {
		t.Fatalf("bad budget: %v", f)
	}
}

// TestOOPIFElementCapturesAreNotWhite: an element inside the nested
// cross-site iframe that fits the viewport is captured from the screen
// (no capture beyond the viewport, which resizes the view and could catch
// the iframe before it drew: a white image). Five captures in a row each
// show the button's pixels.
func TestOOPIFElementCapturesAreNotWhite(t *testing.T) {
	e := newEnv(t, Config{})
	e.launch("/index.html")
	s := e.surfacesNamed(map[string]string{"index.html": "top", "cross1.html": "cross1", "cross2.html": "cross2"})
	e.use(s["cross2"])
	dir := t.TempDir()
	for i := range 5 {
		p := filepath.Join(dir, fmt.Sprintf("btn%d.png", i))
		e.ok("electron_screenshot", map[string]any{"selector": "#btn", "path": p})
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		b, dark := img.Bounds(), 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if r, g, bl, _ := img.At(x, y).RGBA(); r < 0xc000 || g < 0xc000 || bl < 0xc000 {
					dark++
				}
			}
		}
		if dark == 0 {
			t.Fatalf("capture %d of the nested OOPIF's button is blank (%v)", i, b)
		}
	}
}
