package visual

import (
	"bytes"
	"image"
	"math"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Expectation is a baseline a capture is compared with, and how.
type Expectation struct {
	Name         string
	MaxDiffRatio float64 // the share of differing pixels allowed

	base image.Image
	meta Meta
	png  []byte
	o    Options
}

// Expect reads baseline name from dir (VISUAL_BASELINE_NOT_FOUND when there
// is none), to be compared within t. t.Threshold (nil: the default) is the
// colour distance under which pixels are equal; t.CountAA counts
// anti-aliased pixels as differences.
func Expect(dir, name string, t Tolerance) (*Expectation, error) {
	base, meta, basePNG, err := ReadBaselinePNG(dir, name)
	if err != nil {
		return nil, err
	}
	e := &Expectation{Name: name, MaxDiffRatio: t.MaxDiffRatio, base: base, meta: meta, png: basePNG, o: Options{CountAA: t.CountAA}}
	if t.Threshold != nil {
		e.o.Threshold = math.Max(*t.Threshold, 1e-9)
	}
	return e, nil
}

// Matches says whether a shot passes: Shot.Settle's accept.
func (e *Expectation) Matches(data []byte, masks []Rect) bool {
	if bytes.Equal(data, e.png) {
		return true // the same encoded pixels
	}
	img, err := Decode(data)
	if err != nil || img.Bounds().Dx() != e.meta.Width || img.Bounds().Dy() != e.meta.Height {
		return false
	}
	o := e.o
	o.Masks = masks
	r := Compare(e.base, img, o)
	return r.Diff == 0 || r.Ratio <= e.MaxDiffRatio
}

// Judge compares a settled shot with the baseline: another environment is
// VISUAL_ENV_MISMATCH, another size VISUAL_SIZE_MISMATCH; otherwise the
// comparison (its Image set only when it differs) and whether it passed.
func (e *Expectation) Judge(s *Shot) (Result, bool, error) {
	if d := EnvDiff(e.meta.Env, s.Env); len(d) > 0 {
		return Result{}, false, errs.New(errs.VisualEnvMismatch, "baseline %q was taken in another environment (%v differ)", e.Name, d).
			With("baseline", e.meta.Env).With("current", s.Env)
	}
	if e.meta.Width != s.Width || e.meta.Height != s.Height {
		return Result{}, false, errs.New(errs.VisualSizeMismatch, "the capture is %dx%d, baseline %q is %dx%d", s.Width, s.Height, e.Name, e.meta.Width, e.meta.Height).
			With("baseline", map[string]int{"width": e.meta.Width, "height": e.meta.Height}).With("current", map[string]int{"width": s.Width, "height": s.Height})
	}
	if len(s.Masks) == 0 && bytes.Equal(s.PNG, e.png) {
		return Result{Width: s.Width, Height: s.Height}, true, nil
	}
	img, err := Decode(s.PNG)
	if err != nil {
		return Result{}, false, err
	}
	o := e.o
	o.Masks = s.Masks
	r := Compare(e.base, img, o)
	return r, r.Diff == 0 || r.Ratio <= e.MaxDiffRatio, nil
}

// Mismatch is VISUAL_MISMATCH for a comparison that did not pass, naming
// the actual and diff PNGs written for it.
func (e *Expectation) Mismatch(r Result, actualPath, diffPath string) error {
	return errs.New(errs.VisualMismatch, "%d pixels (%.4f%%) differ from baseline %q, more than maxDiffRatio %.4f%% allows", r.Diff, 100*r.Ratio, e.Name, 100*e.MaxDiffRatio).
		With("actual_path", actualPath).With("diff_path", diffPath).With("mismatch_ratio", r.Ratio).With("diff_pixels", r.Diff).With("antialiased_pixels", r.AA)
}
