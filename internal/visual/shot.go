package visual

import (
	"bytes"
	"context"
	"image/png"
	"math"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// CSSRect is a rectangle in CSS pixels of the viewport.
type CSSRect struct{ X, Y, Width, Height float64 }

// Shot is one capture for review or comparison: the PNG, its size in
// image pixels, the environment it was taken in and the masks in image
// pixels.
type Shot struct {
	PNG    []byte
	Width  int
	Height int
	Env    Env
	Masks  []Rect

	ox, oy, scale float64 // the capture's origin in the viewport, image pixels per CSS pixel
}

// BrowserOf names the browser of an environment: the product, after
// Electron's version when the user agent has one.
func BrowserOf(product, userAgent string) string {
	if i := strings.Index(userAgent, "Electron/"); i >= 0 {
		return strings.Fields(userAgent[i:])[0] + " " + product
	}
	return product
}

// NewShot reads the first shot of a capture of clip (nil: the whole
// viewport of viewportW × viewportH CSS pixels) and works out the device
// scale from it.
func NewShot(data []byte, browser string, viewportW, viewportH float64, clip *CSSRect) (*Shot, error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, errs.New(errs.ImageInvalid, "the screenshot is not a PNG: %v", err)
	}
	s := &Shot{PNG: data, Width: cfg.Width, Height: cfg.Height, scale: 1}
	cssW := viewportW
	if clip != nil {
		cssW = clip.Width
		s.ox, s.oy = clip.X, clip.Y
	}
	if cssW > 0 {
		s.scale = math.Round(100*float64(s.Width)/cssW) / 100
	}
	s.Env = Env{Browser: browser, DeviceScale: s.scale, ViewportW: int(viewportW), ViewportH: int(viewportH)}
	return s, nil
}

// Mask paints out a rectangle given in CSS pixels of the viewport, one
// pixel wider and taller than its rounding so no edge shows.
func (s *Shot) Mask(x, y, w, h float64) {
	s.Masks = append(s.Masks, Rect{X: int(math.Floor((x - s.ox) * s.scale)), Y: int(math.Floor((y - s.oy) * s.scale)),
		W: int(math.Ceil(w*s.scale)) + 1, H: int(math.Ceil(h*s.scale)) + 1})
}

// MaskInCapture is Mask for a rectangle in CSS pixels of the capture.
func (s *Shot) MaskInCapture(x, y, w, h float64) { s.Mask(x+s.ox, y+s.oy, w, h) }

// MaxShots bounds the shots of one stable capture.
const MaxShots = 6

// Settle repeats the shot until accept takes one (visual_expect: it
// matches the baseline) or two in a row are identical, at most MaxShots: a
// renderer can show a frame that is not painted yet (an out-of-process
// frame just scrolled into view).
func (s *Shot) Settle(ctx context.Context, shoot func() ([]byte, error), accept func(data []byte, masks []Rect) bool) error {
	for i := 1; i < MaxShots; i++ {
		if accept != nil && accept(s.PNG, s.Masks) {
			return nil
		}
		t := time.NewTimer(150 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return errs.FromContext(ctx, errs.OperationTimeout, "taking a stable capture")
		case <-t.C:
		}
		next, err := shoot()
		if err != nil {
			return err
		}
		// Two identical shots in a row end it, but not the first two: a
		// frame just brought to front can show the same unpainted image
		// twice.
		same := bytes.Equal(next, s.PNG) && i >= 2
		s.PNG = next
		if nc, err := png.DecodeConfig(bytes.NewReader(next)); err != nil || same || nc.Width != s.Width || nc.Height != s.Height {
			return nil
		}
	}
	return nil
}
