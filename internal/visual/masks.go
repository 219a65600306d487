package visual

import (
	"math"

	"github.com/understudy-dev/understudy/internal/errs"
)

// MaxMasks bounds the masks of one capture.
const MaxMasks = 50

// Mask is a region a capture ignores, as a caller gives it: the boxes of
// the elements a CSS selector matches, or a rect in CSS pixels of the
// capture.
type Mask struct {
	Selector string   `json:"selector,omitempty" jsonschema:"paint out the element(s)' box: a CSS selector in the active surface"`
	X        *float64 `json:"x,omitempty" jsonschema:"or a rect: CSS pixels from the capture's left"`
	Y        *float64 `json:"y,omitempty" jsonschema:"CSS pixels from the capture's top"`
	Width    float64  `json:"width,omitempty" jsonschema:"the rect's width in CSS pixels"`
	Height   float64  `json:"height,omitempty" jsonschema:"the rect's height in CSS pixels"`
}

// CheckMasks refuses more than MaxMasks masks and a mask that is neither
// a selector nor a whole rect, or both, naming the field "masks".
func CheckMasks(masks []Mask) error {
	if len(masks) > MaxMasks {
		return errs.BadArg("masks", "at most %d masks", MaxMasks)
	}
	for _, m := range masks {
		rect := m.X != nil || m.Y != nil || m.Width != 0 || m.Height != 0
		switch {
		case m.Selector != "" && rect:
			return errs.BadArg("masks", "a mask is a selector or a rect, not both")
		case m.Selector == "" && !rect:
			return errs.BadArg("masks", "a mask needs a selector or {x, y, width, height}")
		case rect && (m.X == nil || m.Y == nil || m.Width <= 0 || m.Height <= 0):
			return errs.BadArg("masks", "a rect mask needs x, y and a positive width and height")
		}
	}
	return nil
}

// Tolerance is how far a capture may differ from its baseline and still
// pass, as a caller gives it.
type Tolerance struct {
	Threshold    *float64 `json:"threshold,omitempty" jsonschema:"colour distance (0-1) under which pixels are equal; default 0.1"`
	MaxDiffRatio float64  `json:"maxDiffRatio,omitempty" jsonschema:"share of differing pixels allowed (0-1); default 0"`
	CountAA      bool     `json:"countAntialiasing,omitempty" jsonschema:"count anti-aliased edge pixels as differences"`
}

// Check is CheckTolerance of t.
func (t Tolerance) Check() error { return CheckTolerance(t.Threshold, t.MaxDiffRatio) }

// CheckTolerance refuses a comparison's threshold or maxDiffRatio outside
// 0-1 (threshold may be absent: the default).
func CheckTolerance(threshold *float64, maxDiffRatio float64) error {
	if threshold != nil && (*threshold < 0 || *threshold > 1 || math.IsNaN(*threshold)) {
		return errs.BadArg("threshold", "must be between 0 and 1")
	}
	if maxDiffRatio < 0 || maxDiffRatio > 1 || math.IsNaN(maxDiffRatio) {
		return errs.BadArg("maxDiffRatio", "must be between 0 and 1")
	}
	return nil
}
