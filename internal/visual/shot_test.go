package visual

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"testing"
)

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestShotScaleAndMasks(t *testing.T) {
	s, err := NewShot(pngOf(t, 200, 100), BrowserOf("Chrome/120", "Mozilla Electron/30.0.1 Chrome"), 800, 600, &CSSRect{X: 10, Y: 20, Width: 100, Height: 50})
	if err != nil {
		t.Fatal(err)
	}
	if s.Env.DeviceScale != 2 || s.Env.Browser != "Electron/30.0.1 Chrome/120" || s.Env.ViewportW != 800 {
		t.Fatalf("env %+v", s.Env)
	}
	s.Mask(15, 25, 10, 10)        // viewport CSS pixels
	s.MaskInCapture(5, 5, 10, 10) // the same place, in the capture's
	if s.Masks[0] != (Rect{X: 10, Y: 10, W: 21, H: 21}) || s.Masks[1] != s.Masks[0] {
		t.Fatalf("masks %+v", s.Masks)
	}
	if _, err := NewShot([]byte("not a png"), "x", 1, 1, nil); err == nil {
		t.Fatal("a non-PNG was taken")
	}
}

func TestShotSettlesOnTwoIdenticalShots(t *testing.T) {
	s, err := NewShot(pngOf(t, 4, 4), "b", 4, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	shots := 0
	err = s.Settle(context.Background(), func() ([]byte, error) { shots++; return pngOf(t, 4, 4), nil }, nil)
	if err != nil || shots != 2 {
		t.Fatalf("settled after %d more shots: %v", shots, err)
	}
	shots = 0
	_ = s.Settle(context.Background(), func() ([]byte, error) { shots++; return nil, nil }, func([]byte, []Rect) bool { return true })
	if shots != 0 {
		t.Fatal("an accepted shot was taken again")
	}
}

func TestTakeMasksSelectorsAndRects(t *testing.T) {
	ten := 5.0
	src := Source{
		Shoot:     func(context.Context) ([]byte, error) { return pngOf(t, 200, 100), nil },
		Browser:   "b",
		ViewportW: 800, ViewportH: 600,
		Clip: &CSSRect{X: 10, Y: 20, Width: 100, Height: 50},
		Locate: func(_ context.Context, sel string) (CSSRect, error) {
			if sel != "#clock" {
				t.Fatalf("located %q", sel)
			}
			return CSSRect{X: 15, Y: 25, Width: 10, Height: 10}, nil
		},
	}
	s, err := Take(context.Background(), src, []Mask{{Selector: "#clock"}, {X: &ten, Y: &ten, Width: 10, Height: 10}}, func([]byte, []Rect) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Masks) != 2 || s.Masks[0] != (Rect{X: 10, Y: 10, W: 21, H: 21}) || s.Masks[1] != s.Masks[0] || s.Env.DeviceScale != 2 {
		t.Fatalf("shot %+v %+v", s.Env, s.Masks)
	}
}
