package capture

import (
	"math"

	"github.com/understudy-dev/understudy/internal/errs"
)

// MaxClipSide bounds a clip's width and height (CSS pixels), and the part
// of a full page one screenshot captures.
const MaxClipSide = 16384

// Clip is a rectangle of a window's viewport in CSS pixels as a caller
// gives it: a screenshot's or a visual capture's clip, and the part of the
// window a screenshot reports it captured.
type Clip struct {
	X      float64 `json:"x" jsonschema:"left, CSS pixels from the viewport's left"`
	Y      float64 `json:"y" jsonschema:"top, CSS pixels from the viewport's top"`
	Width  float64 `json:"width" jsonschema:"width in CSS pixels"`
	Height float64 `json:"height" jsonschema:"height in CSS pixels"`
}

// Check refuses a clip that is not finite, empty, or wider or taller than
// MaxClipSide, naming the field "clip".
func (c *Clip) Check() error {
	for _, v := range []float64{c.X, c.Y, c.Width, c.Height} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errs.BadArg("clip", "coordinates must be finite numbers")
		}
	}
	if c.Width <= 0 || c.Height <= 0 || c.Width > MaxClipSide || c.Height > MaxClipSide {
		return errs.BadArg("clip", "width and height must be above 0 and at most %d", MaxClipSide)
	}
	return nil
}

// Rect is the clip as a screenshot's rectangle.
func (c *Clip) Rect() *Rect { return &Rect{X: c.X, Y: c.Y, Width: c.Width, Height: c.Height} }
