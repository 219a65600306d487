package tool

import (
	"context"
	"math"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

// Pointer geometry: where an element or a point of a surface lies in its
// window's viewport, waiting for what covers it, and whether the event
// reached it.

// pointed is an actionable element's point in the input root's viewport.
type pointed struct {
	x, y  float64
	acted *page.Acted
}

// pointAt waits until the element passes the action's checks in its own
// document and returns its point in the input root's viewport. With
// act.Early (for actions whose first event is a lone move, which waits for
// a frame: hover, drag; in a window root's own document only), when the element is not stable yet only because
// it was looked at once, the mouse moves to it while a frame passes and the
// second look completes the check, so the action pays one frame, not one
// for stability and one for the move. Clicks do not need it: their move is
// pipelined with the press (input.Click) and costs no frame. In a frame,
// covers in the enclosing documents are waited for first (ADR-003). In a
// window with out-of-process frames, after a scroll (or for a frame that
// moved) the point is proven by a move before it is returned (needsAim,
// aim; ADR-036), and the press then goes in place.
func pointAt(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, loc page.Locator, act page.Action, timeout time.Duration) (*pointed, error) {
	deadline := time.Now().Add(timeout)
	act.Mixed = res.Mixed()
	p, err := pointOnce(ctx, c, res, f, loc, act, deadline)
	if err != nil {
		return nil, err
	}
	steady := res.CrossesTargets() && res.SteadyOffset(p.x-p.acted.X, p.y-p.acted.Y)
	if !needsAim(res, act, p, steady) {
		return p, nil
	}
	q, err := aim(ctx, c, res, f, loc, act, p, deadline)
	if err == nil && res.CrossesTargets() {
		res.SteadyOffset(q.x-q.acted.X, q.y-q.acted.Y)
	}
	return q, err
}

// needsAim says whether the browser's routing of pointer input to the
// point must be proven before a press: Chromium's browser process picks the
// renderer for an event by its compositor's hit-test data, which lags a
// scroll until a frame with the new layout is presented (the element's own
// document knows at once, so neither the checks nor the receipt after the
// press can tell in time). That matters only in a window with
// out-of-process frames (one renderer hit-tests its own frames itself):
// after a scroll of the element's document or of a scroller that holds it,
// and for an element in another target than its window whose offset in the
// window is not the one its previous pointer action saw (steady): its
// enclosing documents may have scrolled in other processes without its
// knowing.
func needsAim(res *surface.Resolution, act page.Action, p *pointed, steady bool) bool {
	return act.Arm != "" && !act.Force && !p.acted.There && (act.Mixed || p.acted.Foreign) &&
		(p.acted.Scrolled || (res.CrossesTargets() && !steady))
}

// aimTries bounds the moves aim sends: each one waits for a frame of the
// renderer that got it, and the routing follows within a frame or two.
const aimTries = 8

// aim moves the pointer to the element and looks again until the
// element's document saw the pointer arrive on it (Acted.There): only then
// does the press go, so no press lands in a frame that was at the point
// before a scroll. A move that went elsewhere pressed nothing; the element
// is looked at again (it may have moved) and the move repeated, within the
// call's time.
func aim(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, loc page.Locator, act page.Action, p *pointed, deadline time.Time) (*pointed, error) {
	act.Early = false
	for tries := 0; !p.acted.There; tries++ {
		if tries == aimTries || !time.Now().Before(deadline) {
			_, _ = c.Session.Pages.ActReceived(ctx, f) // disarm
			return nil, c.misrouted(ctx, res, p, tries)
		}
		if err := input.Move(ctx, res.InputRoot, p.x, p.y, 0); err != nil {
			return nil, err
		}
		q, err := pointOnce(ctx, c, res, f, loc, act, deadline)
		if err != nil {
			return nil, err
		}
		q.acted.Waited += p.acted.Waited
		q.acted.Changed = append(p.acted.Changed, q.acted.Changed...)
		p = q
	}
	return p, nil
}

// misrouted is the error of a pointer that never reached the element
// although its document shows it at the point: the browser kept giving
// the pointer there to another renderer. Nothing was pressed.
func (c *Call) misrouted(ctx context.Context, res *surface.Resolution, p *pointed, tries int) error {
	e := errs.New(errs.ElementNotVisible, "nothing was pressed: the pointer went to %s %d times and never reached the element, although its document shows it there; the browser gives the pointer at that point to another renderer (a frame of another process or a window over the page; %s)", point(p.x, p.y), tries, c.coverAt(ctx, res, p.x, p.y))
	e.Hint = "Another frame or window receives the pointer where the element is. Take a screenshot (electron_screenshot) to see what lies there, close or wait for it, then act again."
	return e.With("x", p.x).With("y", p.y).With("surface_id", res.SurfaceID)
}

// pointOnce is one look of pointAt: the checks in the element's document
// and, in a frame, the covers in the enclosing ones.
func pointOnce(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, loc page.Locator, act page.Action, deadline time.Time) (*pointed, error) {
	timeout := max(0, time.Until(deadline))
	// In a frame, no move goes out before the enclosing documents are
	// hit-tested (below): a move there would hover a cover.
	act.Early = act.Early && act.Checks.Stable && !act.Force && res.IsInputRoot()
	acted, err := c.Session.Pages.Act(ctx, f, loc, act, timeout)
	if err != nil {
		return nil, err
	}
	if acted.Early {
		if !acted.There {
			ox, oy, err := res.Offset(ctx)
			if err != nil {
				return nil, err
			}
			if err := input.Move(ctx, res.InputRoot, acted.X+ox, acted.Y+oy, 0); err != nil {
				return nil, err
			}
		}
		act.Early = false
		if acted, err = c.Session.Pages.Act(ctx, f, loc, act, max(0, time.Until(deadline))); err != nil {
			return nil, err
		}
	}
	if res.IsInputRoot() || act.Force {
		ox, oy, err := res.Offset(ctx)
		if err != nil {
			return nil, err
		}
		return &pointed{acted.X + ox, acted.Y + oy, acted}, nil
	}
	// In a frame, what covers the frame in an enclosing document is waited
	// for too, before any event is sent: a click there would land on it.
	act.Early = false
	var covered time.Time // when a cover was first seen
	for {
		x, y, cover, err := res.Reach(ctx, acted.X, acted.Y)
		if err != nil {
			return nil, err
		}
		if cover == nil {
			if !covered.IsZero() {
				acted.Waited += time.Since(covered)
			}
			return &pointed{x, y, acted}, nil
		}
		if covered.IsZero() {
			covered = time.Now()
		}
		if !time.Now().Before(deadline) {
			e := errs.New(errs.ElementNotVisible, "the element does not receive the pointer: %s covers its frame at %s in an enclosing document (waited %s)", cover.String(), point(x, y), timeout.Round(time.Millisecond))
			e.Hint = "Something in a page that holds this frame (an overlay, dialog or banner) lies over it. Close it or wait for it to go, or act on it first; force:true clicks anyway and the browser gives the click to what is on top."
			return nil, e.With("covering", cover).With("x", x).With("y", y).With("surface_id", res.SurfaceID)
		}
		select {
		case <-ctx.Done():
			return nil, errs.FromContext(ctx, errs.OperationTimeout, "waiting for the cover over the frame to go")
		case <-time.After(min(coverPoll, time.Until(deadline))):
		}
		seen := acted.Changed // reported once, by the call that found it
		if acted, err = c.Session.Pages.Act(ctx, f, loc, act, max(0, time.Until(deadline))); err != nil {
			return nil, err
		}
		acted.Changed = append(seen, acted.Changed...)
	}
}

// coverPoll is how often a frame covered in an enclosing document is
// looked at again.
const coverPoll = 50 * time.Millisecond

// coverAt describes what the window's top document has at a point.
func (c *Call) coverAt(ctx context.Context, res *surface.Resolution, x, y float64) string {
	what, err := nav.On(res.InputRoot).DescribeAt(ctx, x, y)
	if err != nil {
		return "unknown"
	}
	return "at the window's top level: " + what
}

// verifyReceived checks the receipt armed by pointAt: the event must have
// reached the element. what names the action for the message.
func verifyReceived(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, x, y float64, what string) (bool, error) {
	r, err := verifyReceipt(ctx, c, res, f, x, y, what)
	if err != nil {
		return false, err
	}
	return r.Got, nil
}

// verifyReceipt is verifyReceived returning the receipt (Got false when
// the document was replaced and nothing was left to ask).
func verifyReceipt(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, x, y float64, what string) (*page.Receipt, error) {
	r, err := c.Session.Pages.ActReceived(ctx, f)
	if err != nil {
		return nil, err
	}
	if !r.Armed {
		// The document was replaced (the press navigated): nothing is
		// left to ask.
		return r, nil
	}
	if r.Got {
		return r, nil
	}
	e := r.Missed(what, point(x, y), res.IsInputRoot(), func() string { return c.coverAt(ctx, res, x, y) })
	return nil, e.With("x", x).With("y", y).With("surface_id", res.SurfaceID)
}

// xy is a point in CSS pixels.
type xy struct {
	X float64 `json:"x" jsonschema:"CSS pixels from the left edge"`
	Y float64 `json:"y" jsonschema:"CSS pixels from the top edge"`
}

// pointArgs put a pointer action at a point: of the active surface's
// viewport (x, y, without an element), or of the element (position).
type pointArgs struct {
	X        *float64 `json:"x,omitempty" jsonschema:"instead of an element: a point of the active surface's viewport, CSS pixels from its left edge (with y); for a frame surface, of that frame's own viewport"`
	Y        *float64 `json:"y,omitempty" jsonschema:"instead of an element: CSS pixels from the top edge of the active surface's viewport (with x)"`
	Position *xy      `json:"position,omitempty" jsonschema:"with ref or selector: the point to use, in CSS pixels from the top-left corner of the element's border box (default: the centre of its first box)"`
}

// checkCoord checks one coordinate of a point.
func checkCoord(field string, v float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return errs.BadArg(field, "must be a finite number, not %v", v)
	case v < 0:
		return errs.BadArg(field, "must be 0 or more (CSS pixels from the top-left corner), not %v", v)
	}
	return nil
}

// check validates the point against whether an element is named.
func (p *pointArgs) check(element bool) error {
	switch {
	case p.X != nil || p.Y != nil:
		switch {
		case element:
			return errs.BadArg("x", "x/y are a point of the viewport: pass them without ref or selector (position places the action within an element)")
		case p.X == nil:
			return errs.BadArg("x", "pass x with y")
		case p.Y == nil:
			return errs.BadArg("y", "pass y with x")
		case p.Position != nil:
			return errs.BadArg("position", "position counts from an element's corner: pass it with ref or selector, not with x/y")
		}
		if err := checkCoord("x", *p.X); err != nil {
			return err
		}
		return checkCoord("y", *p.Y)
	case p.Position != nil:
		if !element {
			return errs.BadArg("position", "position counts from an element's corner: pass ref or selector with it (x/y name a point of the viewport)")
		}
		if err := checkCoord("position", p.Position.X); err != nil {
			return err
		}
		return checkCoord("position", p.Position.Y)
	}
	return nil
}

// atPoint says whether the action goes to a point of the viewport.
func (p *pointArgs) atPoint() bool { return p.X != nil && p.Y != nil }

// pos is the point of an action within an element, if one is given.
func (p *pointArgs) pos() *page.Offset {
	if p.Position == nil {
		return nil
	}
	return &page.Offset{X: p.Position.X, Y: p.Position.Y}
}

// validatePointed validates an element action that may go to a point
// instead.
func validatePointed(a *actArgs, p *pointArgs) error {
	if err := p.check(a.Ref != 0 || strings.TrimSpace(a.Selector) != ""); err != nil {
		return err
	}
	if p.atPoint() {
		_, err := page.CheckTimeout("timeoutMs", a.TimeoutMs)
		return err
	}
	return a.validate()
}

// clickAt clicks at the point: when the mouse already rests there on the
// element, the presses go without a move first.
func clickAt(ctx context.Context, res *surface.Resolution, p *pointed, opts input.ClickOptions) error {
	if p.acted.There {
		return input.ClickInPlace(ctx, res.InputRoot, p.x, p.y, opts)
	}
	return input.Click(ctx, res.InputRoot, p.x, p.y, opts)
}

// spot is a point of the surface's viewport made ready for a pointer
// action: the element there (armed), and the point in the input root's
// viewport.
type spot struct {
	x, y   float64 // in the input root's viewport
	at     *page.AtPoint
	waited time.Duration
}

// spotAt looks at the point (x, y) of the surface's viewport (arming arm
// against the element there) and turns it into the input root's viewport.
// In a frame, what covers the frame there in an enclosing document is
// waited for (up to timeout; force skips the wait and the browser gives
// the event to what is on top), as for an element's point, and is an
// ELEMENT_NOT_VISIBLE naming the cover if it stays.
func spotAt(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, x, y float64, arm string, force bool, timeout time.Duration) (*spot, error) {
	start := time.Now()
	deadline := start.Add(timeout)
	for {
		at, err := c.Session.Pages.ActAt(ctx, f, x, y, arm)
		if err != nil {
			return nil, err
		}
		if res.IsInputRoot() || force {
			ox, oy, err := res.Offset(ctx)
			if err != nil {
				return nil, err
			}
			return &spot{x + ox, y + oy, at, time.Since(start)}, nil
		}
		wx, wy, cover, err := res.Reach(ctx, x, y)
		if err != nil {
			return nil, err
		}
		if cover == nil {
			return &spot{wx, wy, at, time.Since(start)}, nil
		}
		if !time.Now().Before(deadline) {
			_, _ = c.Session.Pages.ActReceived(ctx, f) // disarm
			e := errs.New(errs.ElementNotVisible, "the point (%s, %s) of surface %s does not receive the pointer: %s covers its frame there in an enclosing document (waited %s)", ftoa(x), ftoa(y), res.SurfaceID, cover.String(), timeout.Round(time.Millisecond))
			e.Hint = "Something in a page that holds this frame (an overlay, dialog or banner) lies over the point. Close it or wait for it to go, or act on it first; force:true sends the event anyway and the browser gives it to what is on top."
			return nil, e.With("covering", cover).With("x", wx).With("y", wy).With("surface_id", res.SurfaceID)
		}
		select {
		case <-ctx.Done():
			return nil, errs.FromContext(ctx, errs.OperationTimeout, "waiting for the cover over the frame to go")
		case <-time.After(min(coverPoll, time.Until(deadline))):
		}
	}
}

// verifySpot checks the receipt armed by spotAt: the event must have
// reached the element that was at the point. what names the action.
func verifySpot(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, sp *spot, what string) (bool, error) {
	r, err := c.Session.Pages.ActReceived(ctx, f)
	if err != nil {
		return false, err
	}
	if !r.Armed {
		return false, nil // the document was replaced: nothing is left to ask
	}
	if r.Got {
		return true, nil
	}
	t := sp.at.Target
	e := r.MissedPoint(what, point(sp.x, sp.y), t.Tag+" "+t.Selector, res.SurfaceID, func() string { return c.coverAt(ctx, res, sp.x, sp.y) })
	e.Hint = "The browser's hit-testing gave the event to another element. Look at the point again (electron_screenshot, electron_snapshot) and wait for what covers it to go, or act on that first."
	return false, e.With("x", sp.x).With("y", sp.y).With("surface_id", res.SurfaceID)
}
