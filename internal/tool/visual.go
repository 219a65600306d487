package tool

import (
	"context"
	"math"
	"path/filepath"
	"time"

	capt "github.com/understudy-dev/understudy/internal/capture"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/visual"
)

func registerVisual(s *Server) {
	define(s, Def{
		Name: "visual_capture", Title: "Capture an image for review", Class: classAction, Session: true,
		Effects: Effects{Does: kAdd, Artifacts: true},
		Desc:    "Capture a PNG for visual review, without touching any baseline: the window of the active surface, one element (ref or selector, in any surface) or a clip {x, y, width, height} of the viewport, with masks (selectors or rects) painted out. Returns its path (in the artifacts folder) and the environment it was taken in (browser, device scale, viewport).",
	}, visualCapture)
	define(s, Def{
		Name: "visual_expect", Title: "Compare with a visual baseline", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Reads: []string{"baselineDir"}, Artifacts: true},
		Desc:    "Compare a capture (window, element or clip, as visual_capture) with the baseline name: a perceptual pixel diff with an anti-aliasing allowance; threshold (0-1, default 0.1) is the colour distance under which pixels count as equal, maxDiffRatio (default 0) the share of differing pixels allowed; masks (selectors or rects) are ignored. Passes with the counts; otherwise VISUAL_MISMATCH with the actual and diff PNGs' paths and the mismatch ratio. A baseline from another environment (browser, device scale, viewport) is VISUAL_ENV_MISMATCH, another size VISUAL_SIZE_MISMATCH; none is VISUAL_BASELINE_NOT_FOUND (never created here).",
	}, visualExpect)
	define(s, Def{
		Name: "visual_update_baseline", Title: "Update a visual baseline", Class: classAction, Session: true,
		Effects: Effects{Does: kSet, Writes: []string{"baselineDir"}, Irreversible: true},
		Desc:    "Take a capture (window, element or clip, with masks) and make it the baseline name, with the environment it was taken in. Changes the expected state, so it needs confirm:true.",
	}, visualUpdate)
}

// captureArgs say what to capture: visual_capture's arguments.
type captureArgs struct {
	Common
	Name     string        `json:"name,omitempty" jsonschema:"the baseline's name (letters, digits, . _ -)"`
	Ref      int           `json:"ref,omitempty" jsonschema:"capture this element (a ref)"`
	Selector string        `json:"selector,omitempty" jsonschema:"capture this element (a CSS selector in the active surface)"`
	Clip     *capt.Clip    `json:"clip,omitempty" jsonschema:"capture this rectangle of the viewport (CSS pixels)"`
	Masks    []visual.Mask `json:"masks,omitempty" jsonschema:"regions to ignore: {selector} or {x, y, width, height} in CSS pixels of the capture"`
}

// visualArgs are a capture compared with, or kept as, a baseline.
type visualArgs struct {
	captureArgs
	BaselineDir string `json:"baselineDir,omitempty" jsonschema:"the baselines folder (under an allowed root); default <artifacts>/baselines"`
}

func (a *captureArgs) check(needName bool) error {
	if needName || a.Name != "" {
		if err := visual.CheckName(a.Name); err != nil {
			return err
		}
	}
	if a.Ref != 0 || a.Selector != "" {
		if err := (page.Locator{Ref: a.Ref, Selector: a.Selector}).Check(); err != nil {
			return err
		}
		if a.Clip != nil {
			return errs.BadArg("clip", "capture an element or a clip, not both")
		}
	}
	if a.Clip != nil {
		if err := a.Clip.Check(); err != nil {
			return err
		}
	}
	return visual.CheckMasks(a.Masks)
}

func (a *captureArgs) validate() error { return a.check(false) }

type visualExpectArgs struct {
	visualArgs
	Threshold    *float64 `json:"threshold,omitempty" jsonschema:"colour distance (0-1) under which pixels are equal; default 0.1"`
	MaxDiffRatio float64  `json:"maxDiffRatio,omitempty" jsonschema:"share of differing pixels allowed (0-1); default 0"`
	CountAA      bool     `json:"countAntialiasing,omitempty" jsonschema:"count anti-aliased edge pixels as differences"`
}

func (a *visualExpectArgs) validate() error {
	if err := a.check(true); err != nil {
		return err
	}
	return visual.CheckTolerance(a.Threshold, a.MaxDiffRatio)
}

type visualUpdateArgs struct {
	visualArgs
	Confirm bool `json:"confirm,omitempty" jsonschema:"must be true: this replaces the expected image"`
}

func (a *visualUpdateArgs) validate() error { return a.check(true) }

// takeCapture shoots the window, element or clip and works out the
// environment and the masks in image pixels; the shot is settled
// (visual.Shot.Settle) with accept.
func takeCapture(ctx context.Context, c *Call, a *captureArgs, accept func(data []byte, masks []visual.Rect) bool) (*visual.Shot, error) {
	sa := &screenshotArgs{Ref: a.Ref, Selector: a.Selector}
	t, err := shotWindow(ctx, c, sa)
	if err != nil {
		return nil, err
	}
	if sa.element() {
		// Measure again: the first measure can precede the scroll that
		// brought the element into view settling (seen in a nested OOPIF:
		// a clip of white where the element was about to be).
		if t, err = shotWindow(ctx, c, sa); err != nil {
			return nil, err
		}
	}
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	cx, cy, _, err := c.Session.Pages.ViewportCenter(ctx, f)
	if err != nil {
		return nil, err
	}
	clip := t.clip
	if a.Clip != nil {
		clip = a.Clip
	}
	opts := capt.ShotOptions{Format: "png"}
	var css *visual.CSSRect
	if clip != nil {
		opts.Clip = clip.Rect()
		opts.BeyondViewport = sa.element() && t.beyond
		css = &visual.CSSRect{X: clip.X, Y: clip.Y, Width: clip.Width, Height: clip.Height}
	}
	bv, err := c.Session.BrowserVersion(ctx)
	if err != nil {
		return nil, err
	}
	data, err := t.shooter.Shot(ctx, opts)
	if err != nil {
		return nil, err
	}
	shot, err := visual.NewShot(data, visual.BrowserOf(bv.Product, bv.UserAgent), math.Round(2*cx), math.Round(2*cy), css)
	if err != nil {
		return nil, err
	}
	for _, m := range a.Masks {
		if m.Selector == "" {
			shot.MaskInCapture(*m.X, *m.Y, m.Width, m.Height)
			continue
		}
		box, err := c.Session.Pages.GetBBox(ctx, f, page.Locator{Selector: m.Selector})
		if err != nil {
			return nil, err
		}
		fx, fy, err := res.Offset(ctx)
		if err != nil {
			return nil, err
		}
		shot.Mask(box.Viewport.X+fx, box.Viewport.Y+fy, box.Viewport.Width, box.Viewport.Height)
	}
	if err := shot.Settle(ctx, func() ([]byte, error) { return t.shooter.Shot(ctx, opts) }, accept); err != nil {
		return nil, err
	}
	return shot, nil
}

// baselineDir is the baselines folder, checked against the roots; the
// default one is created.
func baselineDir(ctx context.Context, c *Call, dir string) (string, error) {
	if dir == "" {
		art, err := c.Server.files.SubDir("baselines")
		if err != nil {
			return "", err
		}
		dir = art
	}
	return c.Server.files.CheckDir(ctx, "baselineDir", dir)
}

// artifactPath is a new file in the artifacts folder.
func artifactPath(ctx context.Context, c *Call, stem string) (string, error) {
	dir, err := c.Server.files.CheckDir(ctx, "path", "")
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, stem+"-"+time.Now().UTC().Format("20060102-150405.000000")+".png"), nil
}

// VisualCaptureResult is visual_capture's answer.
type VisualCaptureResult struct {
	Path   string     `json:"path"`
	Width  int        `json:"width"`
	Height int        `json:"height"`
	Env    visual.Env `json:"env"`
	Masks  int        `json:"masks"`
}

func visualCapture(ctx context.Context, c *Call, a *captureArgs) (*VisualCaptureResult, error) {
	cp, err := takeCapture(ctx, c, a, nil)
	if err != nil {
		return nil, err
	}
	out := cp.PNG
	if len(cp.Masks) > 0 {
		img, _ := visual.Decode(cp.PNG)
		if out, err = visual.Encode(visual.Paint(img, cp.Masks)); err != nil {
			return nil, err
		}
	}
	stem := "visual"
	if a.Name != "" {
		stem += "-" + a.Name
	}
	p, err := artifactPath(ctx, c, stem)
	if err != nil {
		return nil, err
	}
	if p, err = c.Server.files.Write(ctx, files.Out{Field: "name", Path: p, Unique: true}, out); err != nil {
		return nil, err
	}
	return &VisualCaptureResult{Path: p, Width: cp.Width, Height: cp.Height, Env: cp.Env, Masks: len(cp.Masks)}, nil
}

// VisualExpectResult is visual_expect's answer when it passes.
type VisualExpectResult struct {
	Name          string  `json:"name"`
	Passed        bool    `json:"passed"`
	DiffPixels    int     `json:"diff_pixels"`
	AAPixels      int     `json:"antialiased_pixels"`
	MaskedPixels  int     `json:"masked_pixels"`
	MismatchRatio float64 `json:"mismatch_ratio"`
	Width         int     `json:"width"`
	Height        int     `json:"height"`
}

func visualExpect(ctx context.Context, c *Call, a *visualExpectArgs) (*VisualExpectResult, error) {
	dir, err := baselineDir(ctx, c, a.BaselineDir)
	if err != nil {
		return nil, err
	}
	exp, err := visual.Expect(dir, a.Name, a.Threshold, a.CountAA, a.MaxDiffRatio)
	if err != nil {
		return nil, err
	}
	shot, err := takeCapture(ctx, c, &a.captureArgs, exp.Matches)
	if err != nil {
		return nil, err
	}
	r, passed, err := exp.Judge(shot)
	if err != nil {
		return nil, err
	}
	if passed {
		return &VisualExpectResult{Name: a.Name, Passed: true, DiffPixels: r.Diff, AAPixels: r.AA, MaskedPixels: r.Masked,
			MismatchRatio: r.Ratio, Width: r.Width, Height: r.Height}, nil
	}
	actual, err := artifactPath(ctx, c, "visual-"+a.Name+"-actual")
	if err != nil {
		return nil, err
	}
	diffPNG, err := visual.Encode(r.Image)
	if err != nil {
		return nil, err
	}
	diff := actual[:len(actual)-len(".png")] + "-diff.png"
	if actual, err = c.Server.files.Write(ctx, files.Out{Field: "name", Path: actual, Unique: true}, shot.PNG); err != nil {
		return nil, err
	}
	if diff, err = c.Server.files.Write(ctx, files.Out{Field: "name", Path: diff, Unique: true}, diffPNG); err != nil {
		return nil, err
	}
	return nil, exp.Mismatch(r, actual, diff)
}

// VisualUpdateResult is visual_update_baseline's answer.
type VisualUpdateResult struct {
	Name     string     `json:"name"`
	Path     string     `json:"path"`
	Width    int        `json:"width"`
	Height   int        `json:"height"`
	Env      visual.Env `json:"env"`
	Replaced bool       `json:"replaced"`
}

func visualUpdate(ctx context.Context, c *Call, a *visualUpdateArgs) (*VisualUpdateResult, error) {
	if !a.Confirm {
		return nil, errs.New(errs.ConfirmRequired, "visual_update_baseline replaces the expected image of %q; pass confirm:true after reviewing it", a.Name).With("field", "confirm")
	}
	dir, err := baselineDir(ctx, c, a.BaselineDir)
	if err != nil {
		return nil, err
	}
	cp, err := takeCapture(ctx, c, &a.captureArgs, nil)
	if err != nil {
		return nil, err
	}
	p := filepath.Join(dir, a.Name+".png")
	replaced, err := visual.WriteBaseline(ctx, c.Server.files, dir, a.Name, cp.PNG, visual.Meta{Width: cp.Width, Height: cp.Height, Env: cp.Env, CreatedAt: time.Now().UTC()})
	if err != nil {
		return nil, err
	}
	return &VisualUpdateResult{Name: a.Name, Path: p, Width: cp.Width, Height: cp.Height, Env: cp.Env, Replaced: replaced}, nil
}
