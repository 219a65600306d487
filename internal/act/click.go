package act

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
)

// PointerResult is what a pointer action (click, hover) reports.
type PointerResult struct {
	page.OnSurface
	X        float64 `json:"x" jsonschema:"where the pointer went, CSS pixels of the window's viewport"`
	Y        float64 `json:"y"`
	WindowID string  `json:"window_id"`
	WaitedMS int64   `json:"waited_ms" jsonschema:"how long the actionability checks took"`
	Verified bool    `json:"verified" jsonschema:"the event reached the element (false: the document was replaced, nothing was left to ask)"`
	// Position is the point within the element, as given.
	Position *XY `json:"position,omitempty" jsonschema:"the point within the element, as given"`
	// At, Target and Over describe an action at a point of the viewport.
	At     *XY                `json:"at,omitempty" jsonschema:"the point x/y as given, in the surface's viewport"`
	Target *page.PointElement `json:"target,omitempty" jsonschema:"the element at the point, which got the event"`
	Over   *page.PointElement `json:"over,omitempty" jsonschema:"the element under target at the point: target is an overlay over it"`
	page.RefNotes
}

// ClickResult is what a click did. A click whose handler opened a JavaScript
// dialog is Verified: the page stopped in a handler of this click.
type ClickResult struct {
	Clicked bool `json:"clicked"`
	PointerResult
	Note string `json:"note,omitempty"`
}

// HoverResult is what a hover did.
type HoverResult struct {
	Hovered bool `json:"hovered"`
	PointerResult
}

// Pointing is a pointer action's element or point, and its checks.
type Pointing struct {
	PointArgs
	Locator page.Locator // the element, unless PointArgs gives a point
	Force   bool
	Timeout time.Duration
}

// elementResult is the PointerResult of an action on an element at p.
func (t Target) elementResult(p *Pointed, pos *XY) PointerResult {
	return PointerResult{OnSurface: t.Res.On(), X: p.X, Y: p.Y, WindowID: t.Res.InputRootID, WaitedMS: p.Acted.Waited.Milliseconds(), Position: pos}
}

// spotResult is the PointerResult of an action at the point (x, y) of the
// surface's viewport, which sp made ready.
func (t Target) spotResult(sp *Spot, x, y float64) PointerResult {
	target := sp.At.Target
	return PointerResult{OnSurface: t.Res.On(), At: &XY{x, y}, X: sp.X, Y: sp.Y, Target: &target, Over: sp.At.Over,
		WindowID: t.Res.InputRootID, WaitedMS: sp.Waited.Milliseconds()}
}

// Click clicks an element, or a point of the surface's viewport, with real
// mouse events and proves that the press reached it.
func (t Target) Click(ctx context.Context, at Pointing, opts input.ClickOptions) (*ClickResult, error) {
	if at.AtPoint() {
		return t.clickAtXY(ctx, *at.X, *at.Y, at, opts)
	}
	// The receipt is the pointerdown: a page that cancels it (canvas
	// apps, sortable lists) suppresses mousedown, yet the click goes on.
	p, err := t.At(ctx, at.Locator, page.Action{Checks: page.PointerChecks(), Force: at.Force, Arm: "pointerdown", Pos: at.Pos()}, at.Timeout)
	if err != nil {
		return nil, err
	}
	out := &ClickResult{Clicked: true, PointerResult: t.elementResult(p, at.Position)}
	dialog, err := t.guarded(func() error { return t.Press(ctx, p, opts) })
	if err != nil {
		return nil, err
	}
	if dialog {
		// The page stopped in a handler of this click: it got it.
		out.Verified = true
		out.Add(p.Acted.Changed)
		return out, nil
	}
	r, err := t.Receipt(ctx, p.X, p.Y, "click")
	if err != nil {
		return nil, err
	}
	out.Verified = r.Got
	out.Add(p.Acted.Changed, r.Changes())
	return out, nil
}

// clickAtXY clicks at a point of the surface's viewport and reports the
// element that received the click.
func (t Target) clickAtXY(ctx context.Context, x, y float64, at Pointing, opts input.ClickOptions) (*ClickResult, error) {
	sp, err := t.Spot(ctx, x, y, "pointerdown", at.Force, at.Timeout)
	if err != nil {
		return nil, err
	}
	out := &ClickResult{Clicked: true, PointerResult: t.spotResult(sp, x, y)}
	if sp.At.Over != nil {
		out.Note = "the element that received the click lies over " + sp.At.Over.Tag + " " + sp.At.Over.Selector + " at this point (an overlay)"
	}
	dialog, err := t.guarded(func() error { return input.Click(ctx, t.Res.InputRoot, sp.X, sp.Y, opts) })
	if err != nil {
		return nil, err
	}
	if dialog {
		out.Verified = true
		return out, nil
	}
	if out.Verified, err = t.SpotReceived(ctx, sp, "click"); err != nil {
		return nil, err
	}
	return out, nil
}

// Hover moves the mouse onto an element, or a point of the surface's
// viewport, and proves that the element's document saw it arrive.
func (t Target) Hover(ctx context.Context, at Pointing) (*HoverResult, error) {
	if at.AtPoint() {
		x, y := *at.X, *at.Y
		sp, err := t.Spot(ctx, x, y, "mousemove", at.Force, at.Timeout)
		if err != nil {
			return nil, err
		}
		verified, err := t.arrive(ctx, sp.At.There, sp.X, sp.Y, func() (bool, error) { return t.SpotReceived(ctx, sp, "mouse move") })
		if err != nil {
			return nil, err
		}
		out := &HoverResult{Hovered: true, PointerResult: t.spotResult(sp, x, y)}
		out.Verified = verified
		return out, nil
	}
	checks := page.PointerChecks()
	checks.Enabled = false // a disabled control still shows its tooltip
	p, err := t.At(ctx, at.Locator, page.Action{Checks: checks, Force: at.Force, Arm: "mousemove", Early: true, Pos: at.Pos()}, at.Timeout)
	if err != nil {
		return nil, err
	}
	verified, err := t.arrive(ctx, p.Acted.There, p.X, p.Y, func() (bool, error) { return t.Received(ctx, p.X, p.Y, "mouse move") })
	if err != nil {
		return nil, err
	}
	out := &HoverResult{Hovered: true, PointerResult: t.elementResult(p, at.Position)}
	out.Verified = verified
	out.Add(p.Acted.Changed)
	return out, nil
}

// arrive makes the mouse arrive on the element at (x, y) and says whether
// it did (received). There: its document saw the mouse arrive on it and
// not leave, which is what a hover is, so nothing is sent and the receipt
// armed is only taken back.
func (t Target) arrive(ctx context.Context, there bool, x, y float64, received func() (bool, error)) (bool, error) {
	if there {
		_, err := t.Pages.ActReceived(ctx, t.Frame) // disarm
		return err == nil, err
	}
	if err := input.Move(ctx, t.Res.InputRoot, x, y, 0); err != nil {
		return false, err
	}
	return received()
}
