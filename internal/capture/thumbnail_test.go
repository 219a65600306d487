package capture

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestThumb: a large image is scaled to the budget keeping its aspect and
// its colours (a half-red, half-blue image stays so); a small one is
// returned as it is; garbage is an error.
func TestThumb(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 2000, 1000))
	for y := range 1000 {
		for x := range 2000 {
			c := color.RGBA{255, 0, 0, 255}
			if x >= 1000 {
				c = color.RGBA{0, 0, 255, 255}
			}
			src.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, src); err != nil {
		t.Fatal(err)
	}
	th, err := Thumb(buf.Bytes(), 500)
	if err != nil {
		t.Fatal(err)
	}
	if !th.Scaled || th.Width != 500 || th.Height != 250 || th.MIMEType != "image/png" {
		t.Fatalf("thumb %dx%d scaled=%v %s", th.Width, th.Height, th.Scaled, th.MIMEType)
	}
	img, err := png.Decode(bytes.NewReader(th.Data))
	if err != nil {
		t.Fatal(err)
	}
	if r, _, b, _ := img.At(10, 10).RGBA(); r>>8 != 255 || b != 0 {
		t.Errorf("left is not red: %v", img.At(10, 10))
	}
	if r, _, b, _ := img.At(490, 200).RGBA(); r != 0 || b>>8 != 255 {
		t.Errorf("right is not blue: %v", img.At(490, 200))
	}
	same, err := Thumb(buf.Bytes(), 4000)
	if err != nil || same.Scaled || !bytes.Equal(same.Data, buf.Bytes()) {
		t.Fatalf("a small enough image changed: %v", err)
	}
	if _, err := Thumb([]byte("not an image"), 100); err == nil {
		t.Fatal("garbage decoded")
	}
}

// TestThumbFile reads the file back and scales it; a missing file or one
// that is not an image is an error.
func TestThumbFile(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 40, 20))); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p, bad := filepath.Join(dir, "a.png"), filepath.Join(dir, "b.png")
	if err := errors.Join(os.WriteFile(p, buf.Bytes(), 0o600), os.WriteFile(bad, []byte("no"), 0o600)); err != nil {
		t.Fatal(err)
	}
	if th, err := ThumbFile(p, 10); err != nil || th.Width != 10 || th.Height != 5 {
		t.Fatalf("thumb %+v %v", th, err)
	}
	for _, f := range []string{filepath.Join(dir, "none.png"), bad} {
		if _, err := ThumbFile(f, 10); err == nil {
			t.Errorf("%s: no error", f)
		}
	}
}
