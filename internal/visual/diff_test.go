package visual

import (
	"image"
	"image/color"
	"testing"
)

func canvas(w, h int, fill color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, fill)
		}
	}
	return img
}

func rect(img *image.NRGBA, r Rect, c color.NRGBA) {
	for y := r.Y; y < r.Y+r.H; y++ {
		for x := r.X; x < r.X+r.W; x++ {
			img.SetNRGBA(x, y, c)
		}
	}
}

var (
	white = color.NRGBA{255, 255, 255, 255}
	black = color.NRGBA{0, 0, 0, 255}
	red   = color.NRGBA{220, 30, 30, 255}
)

// edge draws a black block whose right edge is an anti-aliased column of
// grey g, as a renderer draws a shape at a fractional position.
func edge(g uint8) *image.NRGBA {
	img := canvas(40, 40, white)
	rect(img, Rect{10, 10, 10, 20}, black)
	rect(img, Rect{20, 10, 1, 20}, color.NRGBA{g, g, g, 255})
	return img
}

func TestCompareKnownPairs(t *testing.T) {
	for _, tc := range []struct {
		name     string
		a, b     *image.NRGBA
		o        Options
		diff, aa int
	}{
		{"identical", edge(128), edge(128), Options{}, 0, 0},
		{"a block changed colour", canvas(40, 40, white), func() *image.NRGBA { i := canvas(40, 40, white); rect(i, Rect{5, 5, 10, 10}, red); return i }(), Options{}, 100, 0},
		{"below the threshold", canvas(20, 20, color.NRGBA{250, 250, 250, 255}), canvas(20, 20, color.NRGBA{247, 247, 247, 255}), Options{}, 0, 0},
		{"the same, with threshold 0", canvas(20, 20, color.NRGBA{250, 250, 250, 255}), canvas(20, 20, color.NRGBA{247, 247, 247, 255}), Options{Threshold: 0.001}, 400, 0},
		{"an anti-aliased edge moved", edge(60), edge(200), Options{}, 0, 20},
		{"anti-aliasing counted", edge(60), edge(200), Options{CountAA: true}, 20, 0},
		{"a masked change", canvas(40, 40, white), func() *image.NRGBA { i := canvas(40, 40, white); rect(i, Rect{5, 5, 10, 10}, red); return i }(), Options{Masks: []Rect{{0, 0, 20, 20}}}, 0, 0},
		{"a transparent pixel is white", canvas(10, 10, color.NRGBA{0, 0, 0, 0}), canvas(10, 10, white), Options{}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Compare(tc.a, tc.b, tc.o)
			if r.Diff != tc.diff || r.AA != tc.aa {
				t.Fatalf("diff %d aa %d, want %d and %d", r.Diff, r.AA, tc.diff, tc.aa)
			}
			if tc.diff > 0 && r.Image.NRGBAAt(5, 5) != (color.NRGBA{255, 0, 0, 255}) && tc.name == "a block changed colour" {
				t.Fatal("the diff image does not mark the change red")
			}
		})
	}
}
