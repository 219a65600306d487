package tool

import (
	"context"
	"math"

	capt "github.com/understudy-dev/understudy/internal/capture"
	"github.com/understudy-dev/understudy/internal/errs"
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
	visual.Tolerance
}

func (a *visualExpectArgs) validate() error {
	if err := a.check(true); err != nil {
		return err
	}
	return a.Tolerance.Check()
}

type visualUpdateArgs struct {
	visualArgs
	Confirm bool `json:"confirm,omitempty" jsonschema:"must be true: this replaces the expected image"`
}

func (a *visualUpdateArgs) validate() error { return a.check(true) }

// takeCapture shoots the window, element or clip and settles the shot
// (visual.Take) with accept.
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
	src := visual.Source{ViewportW: math.Round(2 * cx), ViewportH: math.Round(2 * cy)}
	if clip != nil {
		opts.Clip = clip.Rect()
		opts.BeyondViewport = sa.element() && t.beyond
		src.Clip = &visual.CSSRect{X: clip.X, Y: clip.Y, Width: clip.Width, Height: clip.Height}
	}
	bv, err := c.Session.BrowserVersion(ctx)
	if err != nil {
		return nil, err
	}
	src.Browser = visual.BrowserOf(bv.Product, bv.UserAgent)
	src.Shoot = func(ctx context.Context) ([]byte, error) { return t.shooter.Shot(ctx, opts) }
	src.Locate = func(ctx context.Context, selector string) (visual.CSSRect, error) {
		box, err := c.Session.Pages.GetBBox(ctx, f, page.Locator{Selector: selector})
		if err != nil {
			return visual.CSSRect{}, err
		}
		fx, fy, err := res.Offset(ctx)
		if err != nil {
			return visual.CSSRect{}, err
		}
		return visual.CSSRect{X: box.Viewport.X + fx, Y: box.Viewport.Y + fy, Width: box.Viewport.Width, Height: box.Viewport.Height}, nil
	}
	return visual.Take(ctx, src, a.Masks, accept)
}

func visualCapture(ctx context.Context, c *Call, a *captureArgs) (*visual.CaptureResult, error) {
	shot, err := takeCapture(ctx, c, a, nil)
	if err != nil {
		return nil, err
	}
	return visual.Keep(ctx, c.Server.files, a.Name, shot)
}

func visualExpect(ctx context.Context, c *Call, a *visualExpectArgs) (*visual.ExpectResult, error) {
	dir, err := visual.BaselineDir(ctx, c.Server.files, a.BaselineDir)
	if err != nil {
		return nil, err
	}
	exp, err := visual.Expect(dir, a.Name, a.Tolerance)
	if err != nil {
		return nil, err
	}
	shot, err := takeCapture(ctx, c, &a.captureArgs, exp.Matches)
	if err != nil {
		return nil, err
	}
	return exp.Verdict(ctx, c.Server.files, shot)
}

func visualUpdate(ctx context.Context, c *Call, a *visualUpdateArgs) (*visual.UpdateResult, error) {
	if !a.Confirm {
		return nil, errs.New(errs.ConfirmRequired, "visual_update_baseline replaces the expected image of %q; pass confirm:true after reviewing it", a.Name).With("field", "confirm")
	}
	dir, err := visual.BaselineDir(ctx, c.Server.files, a.BaselineDir)
	if err != nil {
		return nil, err
	}
	shot, err := takeCapture(ctx, c, &a.captureArgs, nil)
	if err != nil {
		return nil, err
	}
	return visual.Update(ctx, c.Server.files, dir, a.Name, shot)
}
