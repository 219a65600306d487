package act

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

// Target is where an action goes: a surface, resolved for this call, its
// frame, and the session's page store that runs the checks.
type Target struct {
	Pages *page.Store
	Res   *surface.Resolution
	Frame page.Frame
	// Guard runs input that may open a JavaScript dialog and says whether
	// one opened: the page then stops, and so does the input call, so
	// the action answers at once (the tool records the dialog). Nil runs
	// the input as it is.
	Guard func(run func() error) (opened bool, err error)
	// Front brings the surface's window to the front before input that
	// needs it only sometimes (a checkbox already in the state asked for
	// gets no click). Nil does nothing.
	Front func(context.Context) error
	// Secret marks a parameter of the call as holding a secret (the text
	// typed into a password field): the tool keeps it out of traces. Nil
	// does nothing.
	Secret func(param string)
}

// secret marks param as a secret of the call.
func (t Target) secret(param string) {
	if t.Secret != nil {
		t.Secret(param)
	}
}

// front brings the surface's window to the front for input.
func (t Target) front(ctx context.Context) error {
	if err := t.Res.TakesInput(); err != nil {
		return err
	}
	if t.Front == nil {
		return nil
	}
	return t.Front(ctx)
}

// guarded runs input under t's Guard.
func (t Target) guarded(run func() error) (bool, error) {
	if t.Guard == nil {
		return false, run()
	}
	return t.Guard(run)
}

// Pointed is an actionable element's point in the input root's viewport
// and what its checks found.
type Pointed struct {
	X, Y  float64
	Acted *page.Acted
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
func (t Target) At(ctx context.Context, loc page.Locator, act page.Action, timeout time.Duration) (*Pointed, error) {
	res := t.Res
	deadline := time.Now().Add(timeout)
	act.Mixed = res.Mixed()
	p, err := t.once(ctx, loc, act, deadline)
	if err != nil {
		return nil, err
	}
	steady := res.CrossesTargets() && res.SteadyOffset(p.X-p.Acted.X, p.Y-p.Acted.Y)
	if !needsAim(res, act, p, steady) {
		return p, nil
	}
	q, err := t.aim(ctx, loc, act, p, deadline)
	if err == nil && res.CrossesTargets() {
		res.SteadyOffset(q.X-q.Acted.X, q.Y-q.Acted.Y)
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
func needsAim(res *surface.Resolution, act page.Action, p *Pointed, steady bool) bool {
	return act.Arm != "" && !act.Force && !p.Acted.There && (act.Mixed || p.Acted.Foreign) &&
		(p.Acted.Scrolled || (res.CrossesTargets() && !steady))
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
func (t Target) aim(ctx context.Context, loc page.Locator, act page.Action, p *Pointed, deadline time.Time) (*Pointed, error) {
	act.Early = false
	for tries := 0; !p.Acted.There; tries++ {
		if tries == aimTries || !time.Now().Before(deadline) {
			_, _ = t.Pages.ActReceived(ctx, t.Frame) // disarm
			return nil, t.misrouted(ctx, p, tries)
		}
		if err := input.Move(ctx, t.Res.InputRoot, p.X, p.Y, 0); err != nil {
			return nil, err
		}
		q, err := t.once(ctx, loc, act, deadline)
		if err != nil {
			return nil, err
		}
		q.Acted.Waited += p.Acted.Waited
		q.Acted.Changed = append(p.Acted.Changed, q.Acted.Changed...)
		p = q
	}
	return p, nil
}

// misrouted is the error of a pointer that never reached the element
// although its document shows it at the point: the browser kept giving
// the pointer there to another renderer. Nothing was pressed.
func (t Target) misrouted(ctx context.Context, p *Pointed, tries int) error {
	res := t.Res
	e := errs.New(errs.ElementNotVisible, "nothing was pressed: the pointer went to %s %d times and never reached the element, although its document shows it there; the browser gives the pointer at that point to another renderer (a frame of another process or a window over the page; %s)", point(p.X, p.Y), tries, t.coverAt(ctx, p.X, p.Y))
	e.Hint = "Another frame or window receives the pointer where the element is. Take a screenshot (electron_screenshot) to see what lies there, close or wait for it, then act again."
	return e.With("x", p.X).With("y", p.Y).With("surface_id", res.SurfaceID)
}

// once is one look of At: the checks in the element's document
// and, in a frame, the covers in the enclosing ones.
func (t Target) once(ctx context.Context, loc page.Locator, act page.Action, deadline time.Time) (*Pointed, error) {
	res, f := t.Res, t.Frame
	timeout := max(0, time.Until(deadline))
	// In a frame, no move goes out before the enclosing documents are
	// hit-tested (below): a move there would hover a cover.
	act.Early = act.Early && act.Checks.Stable && !act.Force && res.IsInputRoot()
	acted, err := t.Pages.Act(ctx, f, loc, act, timeout)
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
		if acted, err = t.Pages.Act(ctx, f, loc, act, max(0, time.Until(deadline))); err != nil {
			return nil, err
		}
	}
	if res.IsInputRoot() || act.Force {
		ox, oy, err := res.Offset(ctx)
		if err != nil {
			return nil, err
		}
		return &Pointed{acted.X + ox, acted.Y + oy, acted}, nil
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
			return &Pointed{x, y, acted}, nil
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
		if acted, err = t.Pages.Act(ctx, f, loc, act, max(0, time.Until(deadline))); err != nil {
			return nil, err
		}
		acted.Changed = append(seen, acted.Changed...)
	}
}

// coverPoll is how often a frame covered in an enclosing document is
// looked at again.
const coverPoll = 50 * time.Millisecond

// coverAt describes what the window's top document has at a point.
func (t Target) coverAt(ctx context.Context, x, y float64) string {
	what, err := nav.On(t.Res.InputRoot).DescribeAt(ctx, x, y)
	if err != nil {
		return "unknown"
	}
	return "at the window's top level: " + what
}

// Received checks the receipt armed by At: the event must have
// reached the element. what names the action for the message.
func (t Target) Received(ctx context.Context, x, y float64, what string) (bool, error) {
	r, err := t.Receipt(ctx, x, y, what)
	if err != nil {
		return false, err
	}
	return r.Got, nil
}

// Receipt is Received returning the receipt (Got false when
// the document was replaced and nothing was left to ask).
func (t Target) Receipt(ctx context.Context, x, y float64, what string) (*page.Receipt, error) {
	res := t.Res
	r, err := t.Pages.ActReceived(ctx, t.Frame)
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
	e := r.Missed(what, point(x, y), res.IsInputRoot(), func() string { return t.coverAt(ctx, x, y) })
	return nil, e.With("x", x).With("y", y).With("surface_id", res.SurfaceID)
}

// Press clicks at the point: when the mouse already rests there on the
// element, the presses go without a move first.
func (t Target) Press(ctx context.Context, p *Pointed, opts input.ClickOptions) error {
	if p.Acted.There {
		return input.ClickInPlace(ctx, t.Res.InputRoot, p.X, p.Y, opts)
	}
	return input.Click(ctx, t.Res.InputRoot, p.X, p.Y, opts)
}

// Spot is a point of the surface's viewport made ready for a pointer
// action: the element there (armed), and the point in the input root's
// viewport.
type Spot struct {
	X, Y   float64 // in the input root's viewport
	At     *page.AtPoint
	Waited time.Duration
}

// Spot looks at the point (x, y) of the surface's viewport (arming arm
// against the element there) and turns it into the input root's viewport.
// In a frame, what covers the frame there in an enclosing document is
// waited for (up to timeout; force skips the wait and the browser gives
// the event to what is on top), as for an element's point, and is an
// ELEMENT_NOT_VISIBLE naming the cover if it stays.
func (t Target) Spot(ctx context.Context, x, y float64, arm string, force bool, timeout time.Duration) (*Spot, error) {
	res, f := t.Res, t.Frame
	start := time.Now()
	deadline := start.Add(timeout)
	for {
		at, err := t.Pages.ActAt(ctx, f, x, y, arm)
		if err != nil {
			return nil, err
		}
		if res.IsInputRoot() || force {
			ox, oy, err := res.Offset(ctx)
			if err != nil {
				return nil, err
			}
			return &Spot{x + ox, y + oy, at, time.Since(start)}, nil
		}
		wx, wy, cover, err := res.Reach(ctx, x, y)
		if err != nil {
			return nil, err
		}
		if cover == nil {
			return &Spot{wx, wy, at, time.Since(start)}, nil
		}
		if !time.Now().Before(deadline) {
			_, _ = t.Pages.ActReceived(ctx, f) // disarm
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

// SpotReceived checks the receipt armed by Spot: the event must have
// reached the element that was at the point. what names the action.
func (t Target) SpotReceived(ctx context.Context, sp *Spot, what string) (bool, error) {
	res := t.Res
	r, err := t.Pages.ActReceived(ctx, t.Frame)
	if err != nil {
		return false, err
	}
	if !r.Armed {
		return false, nil // the document was replaced: nothing is left to ask
	}
	if r.Got {
		return true, nil
	}
	el := sp.At.Target
	e := r.MissedPoint(what, point(sp.X, sp.Y), el.Tag+" "+el.Selector, res.SurfaceID, func() string { return t.coverAt(ctx, sp.X, sp.Y) })
	e.Hint = "The browser's hit-testing gave the event to another element. Look at the point again (electron_screenshot, electron_snapshot) and wait for what covers it to go, or act on that first."
	return false, e.With("x", sp.X).With("y", sp.Y).With("surface_id", res.SurfaceID)
}
