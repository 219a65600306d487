package tool

import (
	"context"
	"strings"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

// electron_click and electron_hover.

type clickArgs struct {
	actArgs
	act.PointArgs
	Button     string   `json:"button,omitempty" jsonschema:"left (default), right or middle"`
	ClickCount int      `json:"clickCount,omitempty" jsonschema:"1 (default) to 3; 2 is a double click"`
	Modifiers  []string `json:"modifiers,omitempty" jsonschema:"held during the click: Alt, Control, Meta, Shift"`
	Force      bool     `json:"force,omitempty" jsonschema:"skip the actionability checks (the browser still decides what the click hits)"`
}

func (a *clickArgs) validate() error {
	if a.ClickCount < 0 || a.ClickCount > 3 {
		return errs.BadArg("clickCount", "must be 1, 2 or 3")
	}
	switch strings.ToLower(a.Button) {
	case "", "left", "right", "middle":
	default:
		return errs.BadArg("button", "must be left, right or middle")
	}
	if _, err := modifierMask(a.Modifiers); err != nil {
		return err
	}
	return validatePointed(&a.actArgs, &a.PointArgs)
}

// pointerResult is what a pointer action (click, hover) reports.
type pointerResult struct {
	onSurface
	X        float64 `json:"x" jsonschema:"where the pointer went, CSS pixels of the window's viewport"`
	Y        float64 `json:"y"`
	WindowID string  `json:"window_id"`
	WaitedMS int64   `json:"waited_ms" jsonschema:"how long the actionability checks took"`
	Verified bool    `json:"verified" jsonschema:"the event reached the element (false: the document was replaced, nothing was left to ask)"`
	// Position is the point within the element, as given.
	Position *act.XY `json:"position,omitempty" jsonschema:"the point within the element, as given"`
	// At, Target and Over describe an action at a point of the viewport.
	At     *act.XY            `json:"at,omitempty" jsonschema:"the point x/y as given, in the surface's viewport"`
	Target *page.PointElement `json:"target,omitempty" jsonschema:"the element at the point, which got the event"`
	Over   *page.PointElement `json:"over,omitempty" jsonschema:"the element under target at the point: target is an overlay over it"`
	page.RefNotes
}

// clickResult is electron_click's result.
type clickResult struct {
	Clicked bool `json:"clicked"`
	pointerResult
	Note         string        `json:"note,omitempty"`
	DialogOpened *dialogOpened `json:"dialog_opened,omitempty" jsonschema:"the click opened a JavaScript dialog: the page waits for its answer"`
}

// hoverResult is electron_hover's result.
type hoverResult struct {
	Hovered bool `json:"hovered"`
	pointerResult
}

func click(ctx context.Context, c *Call, a *clickArgs) (*clickResult, error) {
	mods, err := modifierMask(a.Modifiers)
	if err != nil {
		return nil, err
	}
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	opts := input.ClickOptions{Button: a.Button, ClickCount: a.ClickCount, Modifiers: mods}
	if a.AtPoint() {
		return clickAtXY(ctx, c, res, f, a, opts)
	}
	// The receipt is the pointerdown: a page that cancels it (canvas
	// apps, sortable lists) suppresses mousedown, yet the click goes on.
	p, err := targetOf(c, res, f).At(ctx, a.locator(), page.Action{Checks: page.PointerChecks(), Force: a.Force, Arm: "pointerdown", Pos: a.Pos()}, a.timeout())
	if err != nil {
		return nil, err
	}
	out := &clickResult{Clicked: true, pointerResult: pointerResult{onSurface: surfaceOf(res), X: p.X, Y: p.Y, WindowID: res.InputRootID,
		WaitedMS: waitedMS(p.Acted), Position: a.Position}}
	dialog, err := watchDialogs(ctx, c, res, func() error { return targetOf(c, res, f).Click(ctx, p, opts) })
	if err != nil {
		return nil, err
	}
	if dialog != nil {
		// The page stopped in a handler of this click: it got it.
		out.Verified, out.DialogOpened = true, dialog
		out.Add(p.Acted.Changed)
		return out, nil
	}
	r, err := targetOf(c, res, f).Receipt(ctx, p.X, p.Y, "click")
	if err != nil {
		return nil, err
	}
	out.Verified = r.Got
	out.Add(p.Acted.Changed, receiptChange(r))
	return out, nil
}

// clickAtXY clicks at a point of the surface's viewport and reports the
// element that received the click.
func clickAtXY(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, a *clickArgs, opts input.ClickOptions) (*clickResult, error) {
	sp, err := targetOf(c, res, f).Spot(ctx, *a.X, *a.Y, "pointerdown", a.Force, a.timeout())
	if err != nil {
		return nil, err
	}
	out := &clickResult{Clicked: true, pointerResult: spotResult(res, sp, *a.X, *a.Y)}
	if sp.At.Over != nil {
		out.Note = "the element that received the click lies over " + sp.At.Over.Tag + " " + sp.At.Over.Selector + " at this point (an overlay)"
	}
	dialog, err := watchDialogs(ctx, c, res, func() error { return input.Click(ctx, res.InputRoot, sp.X, sp.Y, opts) })
	if err != nil {
		return nil, err
	}
	if dialog != nil {
		out.Verified, out.DialogOpened = true, dialog
		return out, nil
	}
	if out.Verified, err = targetOf(c, res, f).SpotReceived(ctx, sp, "click"); err != nil {
		return nil, err
	}
	return out, nil
}

// spotResult is the pointerResult of an action at the point (x, y) of the
// surface's viewport, which sp made ready.
func spotResult(res *surface.Resolution, sp *act.Spot, x, y float64) pointerResult {
	target := sp.At.Target
	return pointerResult{onSurface: surfaceOf(res), At: &act.XY{X: x, Y: y}, X: sp.X, Y: sp.Y, Target: &target, Over: sp.At.Over,
		WindowID: res.InputRootID, WaitedMS: sp.Waited.Milliseconds()}
}

type hoverArgs struct {
	actArgs
	act.PointArgs
	Force bool `json:"force,omitempty" jsonschema:"skip the actionability checks"`
}

func (a *hoverArgs) validate() error { return validatePointed(&a.actArgs, &a.PointArgs) }

func hover(ctx context.Context, c *Call, a *hoverArgs) (*hoverResult, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	if a.AtPoint() {
		sp, err := targetOf(c, res, f).Spot(ctx, *a.X, *a.Y, "mousemove", a.Force, a.timeout())
		if err != nil {
			return nil, err
		}
		// There: the document saw the mouse arrive on the element at
		// this point and not leave; a move to where it is sends nothing.
		verified := true
		if sp.At.There {
			if _, err := c.Session.Pages.ActReceived(ctx, f); err != nil { // disarm
				return nil, err
			}
		} else {
			if err := input.Move(ctx, res.InputRoot, sp.X, sp.Y, 0); err != nil {
				return nil, err
			}
			if verified, err = targetOf(c, res, f).SpotReceived(ctx, sp, "mouse move"); err != nil {
				return nil, err
			}
		}
		out := &hoverResult{Hovered: true, pointerResult: spotResult(res, sp, *a.X, *a.Y)}
		out.Verified = verified
		return out, nil
	}
	checks := page.PointerChecks()
	checks.Enabled = false // a disabled control still shows its tooltip
	p, err := targetOf(c, res, f).At(ctx, a.locator(), page.Action{Checks: checks, Force: a.Force, Arm: "mousemove", Early: true, Pos: a.Pos()}, a.timeout())
	if err != nil {
		return nil, err
	}
	// There: the element's document saw the mouse arrive on it (and not
	// leave), which is what a hover is.
	verified := true
	if p.Acted.There {
		if _, err := c.Session.Pages.ActReceived(ctx, f); err != nil { // disarm
			return nil, err
		}
	} else {
		if err := input.Move(ctx, res.InputRoot, p.X, p.Y, 0); err != nil {
			return nil, err
		}
		if verified, err = targetOf(c, res, f).Received(ctx, p.X, p.Y, "mouse move"); err != nil {
			return nil, err
		}
	}
	out := &hoverResult{Hovered: true, pointerResult: pointerResult{onSurface: surfaceOf(res), Verified: verified, X: p.X, Y: p.Y,
		WindowID: res.InputRootID, WaitedMS: waitedMS(p.Acted), Position: a.Position}}
	out.Add(p.Acted.Changed)
	return out, nil
}
