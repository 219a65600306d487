package input

import (
	"context"
	"encoding/json"
	"math"
	"time"

	cdproto "github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	cdpinput "github.com/chromedp/cdproto/input"

	"github.com/understudy-dev/understudy/internal/errs"
)

// DragStart is what the page did with the first moves of a drag (the
// press and a move past the drag threshold), as [DragPlan.Started] reports it.
type DragStart int

const (
	// NoDragStart: no dragstart fired. Nothing under the press is
	// draggable: the page follows the pointer (mousemove/pointermove).
	NoDragStart DragStart = iota
	// DragStartCancelled: dragstart fired and the page cancelled it.
	DragStartCancelled
	// DragStarted: an HTML drag started (the source, or an ancestor, is
	// draggable, maybe only since the press: SortableJS sets draggable in
	// its pointerdown handler).
	DragStarted
)

// Pacing of a played drag. Libraries that sort lists decide the drop slot
// from where the pointer has been, not from where it is released:
// SortableJS's fallback mode samples the pointer every 50 ms and ignores
// dragover for 30 ms after each swap, and others throttle moves to
// animation frames. So every move is held for DragInterval, and the last
// position for DragHold (three of those samples) before the release or the
// drop.
const (
	DragInterval = 25 * time.Millisecond
	DragHold     = 150 * time.Millisecond
)

// DragPlan is a drag that [PlayDrag] plays.
type DragPlan struct {
	From, To Point
	// Steps is the number of moves from the first nudge to To (at least
	// 1, at most 1000).
	Steps int
	// Interval is how long each move is held; Hold how long the last one
	// is held before the release or the drop. Zero means DragInterval and
	// DragHold.
	Interval, Hold time.Duration
	// Started is asked after the press and the first moves, unless
	// Chromium handed a drag over already. Without it, the hand-over is
	// waited for up to handOverWait, and a drag without one is a pointer
	// drag.
	Started func() (DragStart, error)
}

// Drag modes, as [DragOutcome.Mode] names them.
const (
	ModePointer = "pointer"
	ModeHTML5   = "html5"
)

// DragOutcome says how a drag was played.
type DragOutcome struct {
	// Mode is ModePointer (mouse events all the way, released at To) or
	// ModeHTML5 (the browser's drag and drop: dragenter and dragover along
	// the path, drop at To).
	Mode string
	// Refused: the page cancelled dragstart; the button was released where
	// it was and nothing more was sent.
	Refused bool
	// Handed: in an HTML drag, Chromium handed the drag over and it was
	// dropped at To. False when dragstart fired but no drag came.
	Handed bool
}

// PlayDrag drags with the left button from From to To and lets the page
// decide what kind of drag it is, as a user's drag does: with
// Input.setInterceptDrags on, it moves to From, presses, and moves past
// Blink's drag threshold toward To. When the page started an HTML drag
// there (Chromium hands it over: Input.dragIntercepted; or Started says
// dragstart fired), the rest is played with Input.dispatchDragEvent:
// dragenter, then a dragover at every step of the path, held Interval each,
// and the drop at To after Hold, all through the browser's hit-testing.
// Otherwise it is a pointer drag: mouse moves with the button held along
// the path, each held Interval, the last held Hold, and the release at To.
// A drag the page refused (dragstart cancelled) is released at once.
func PlayDrag(ctx context.Context, s cdproto.Session, plan DragPlan) (DragOutcome, error) {
	from, to := plan.From, plan.To
	if err := checkPoint("from", from.X, from.Y); err != nil {
		return DragOutcome{}, err
	}
	if err := checkPoint("to", to.X, to.Y); err != nil {
		return DragOutcome{}, err
	}
	if plan.Steps < 1 || plan.Steps > maxDragSteps {
		return DragOutcome{}, errs.BadArg("steps", "%d is out of range; use 1 to %d", plan.Steps, maxDragSteps)
	}
	interval, hold := plan.Interval, plan.Hold
	if interval <= 0 {
		interval = DragInterval
	}
	if hold <= 0 {
		hold = DragHold
	}
	events, stop := s.Subscribe(cdpinput.DragIntercepted.Method)
	defer stop()
	if err := s.Call(ctx, cdpinput.CommandSetInterceptDrags, cdpinput.SetInterceptDragsParams{Enabled: true}, nil); err != nil {
		return DragOutcome{}, err
	}
	defer func() {
		rctx, cancel := releaseCtx(ctx)
		defer cancel()
		_ = s.Call(rctx, cdpinput.CommandSetInterceptDrags, cdpinput.SetInterceptDragsParams{Enabled: false}, nil)
	}()

	b, _ := ClickOptions{}.validate()
	nudge := nudgeToward(from, to)
	start := Point{from.X + nudge.X, from.Y + nudge.Y}
	press := []cdpinput.DispatchMouseEventParams{moveParams(from.X, from.Y, 0, nil), pressParams(from.X, from.Y, b, 1),
		moveParams(from.X+nudge.X/2, from.Y+nudge.Y/2, 0, &b), moveParams(start.X, start.Y, 0, &b)}
	if at, err := dispatchInOrder(ctx, s, press...); err != nil {
		if at >= 1 {
			releaseAfterFailure(ctx, s, releaseParams(start.X, start.Y, b, 1))
		}
		return DragOutcome{}, err
	}

	// What did the page make of it? Chromium's hand-over is the proof of
	// an HTML drag; the page's own dragstart says so sooner when the
	// hand-over is still on its way, and says a pointer drag when none
	// fired.
	var data json.RawMessage
	select {
	case raw := <-events:
		d, err := dragData(raw)
		if err != nil {
			releaseAfterFailure(ctx, s, releaseParams(start.X, start.Y, b, 1))
			return DragOutcome{}, err
		}
		data = d
	default:
	}
	if data == nil {
		kind := NoDragStart
		if plan.Started == nil {
			d, err := awaitHandOver(ctx, events, handOverWait)
			if err != nil {
				releaseAfterFailure(ctx, s, releaseParams(start.X, start.Y, b, 1))
				return DragOutcome{}, err
			}
			data = d
		} else {
			k, err := plan.Started()
			if err != nil {
				releaseAfterFailure(ctx, s, releaseParams(start.X, start.Y, b, 1))
				return DragOutcome{}, err
			}
			kind = k
		}
		switch kind {
		case DragStartCancelled:
			releaseAfterFailure(ctx, s, releaseParams(start.X, start.Y, b, 1))
			return DragOutcome{Mode: ModeHTML5, Refused: true}, nil
		case DragStarted:
			d, err := awaitDrag(ctx, events, nil)
			if err != nil || d == nil {
				releaseAfterFailure(ctx, s, releaseParams(start.X, start.Y, b, 1))
				return DragOutcome{Mode: ModeHTML5}, err
			}
			data = d
		}
	}
	path := dragPath(start, to, plan.Steps)
	if data != nil {
		return DragOutcome{Mode: ModeHTML5, Handed: true}, playHTML5(ctx, s, path, data, interval, hold)
	}
	return DragOutcome{Mode: ModePointer}, playPointer(ctx, s, path, b, interval, hold)
}

// handOverWait bounds the wait for Chromium's hand-over of an HTML drag
// when no DragPlan.Started can say sooner whether one started.
const handOverWait = 300 * time.Millisecond

// awaitHandOver waits up to d for Input.dragIntercepted and returns the
// drag's data, or nil.
func awaitHandOver(ctx context.Context, events <-chan jsonv2.Value, d time.Duration) (json.RawMessage, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case raw := <-events:
		return dragData(raw)
	case <-t.C:
		return nil, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// dragPath is steps points from start (exclusive) to to (inclusive) on the
// line between them.
func dragPath(start, to Point, steps int) []Point {
	out := make([]Point, steps)
	for i := 1; i <= steps; i++ {
		f := float64(i) / float64(steps)
		out[i-1] = Point{start.X + (to.X-start.X)*f, start.Y + (to.Y-start.Y)*f}
	}
	return out
}

// pause waits d, or until ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// playPointer moves along path with the button held, each move held
// interval (the last hold), and releases at the path's end. A failure
// after the press releases the button (best effort).
func playPointer(ctx context.Context, s cdproto.Session, path []Point, b button, interval, hold time.Duration) error {
	last := path[len(path)-1]
	if err := walkPath(ctx, path, interval, hold, func(p Point) error {
		return dispatchMouse(ctx, s, moveParams(p.X, p.Y, 0, &b))
	}, func(p Point) {
		releaseAfterFailure(ctx, s, releaseParams(p.X, p.Y, b, 1))
	}); err != nil {
		return err
	}
	if err := dispatchMouse(ctx, s, releaseParams(last.X, last.Y, b, 1)); err != nil {
		releaseAfterFailure(ctx, s, releaseParams(last.X, last.Y, b, 1))
		return err
	}
	return nil
}

// playHTML5 plays the rest of a handed-over HTML drag: dragenter at the
// first point, dragover at every point (each held interval, the last
// hold), and the drop at the last. A failure cancels the drag (best
// effort).
func playHTML5(ctx context.Context, s cdproto.Session, path []Point, data json.RawMessage, interval, hold time.Duration) error {
	send := func(typ cdpinput.DispatchDragEventType, p Point) error {
		return s.Call(ctx, cdpinput.CommandDispatchDragEvent, dragEvent{typ, p.X, p.Y, data}, nil)
	}
	cancel := func(p Point) {
		rctx, done := releaseCtx(ctx)
		defer done()
		_ = s.Call(rctx, cdpinput.CommandDispatchDragEvent, dragEvent{cdpinput.DispatchDragEventTypeDragCancel, p.X, p.Y, data}, nil)
	}
	if err := send(cdpinput.DispatchDragEventTypeDragEnter, path[0]); err != nil {
		cancel(path[0])
		return err
	}
	if err := walkPath(ctx, path, interval, hold, func(p Point) error {
		return send(cdpinput.DispatchDragEventTypeDragOver, p)
	}, cancel); err != nil {
		return err
	}
	last := path[len(path)-1]
	if err := send(cdpinput.DispatchDragEventTypeDrop, last); err != nil {
		cancel(last)
		return err
	}
	return nil
}

// DragSteps is how many moves a drag from from to to needs so that no move
// skips more than a quarter of span (the smaller extent, along the drag, of
// the dragged element and of its target): a library that swaps items as
// the pointer crosses them sees the pointer on every item it passes. At
// least DefaultDragSteps, at most 100.
func DragSteps(from, to Point, span float64) int {
	d := math.Hypot(to.X-from.X, to.Y-from.Y)
	n := DefaultDragSteps
	if span > 0 && finite(span) && finite(d) {
		n = max(n, int(math.Ceil(d/(span/4))))
	}
	return min(n, 100)
}

// walkPath does step at every point of path, holding each for interval
// (the last for hold); on a failure it calls undo at that point and
// returns the error.
func walkPath(ctx context.Context, path []Point, interval, hold time.Duration, step func(Point) error, undo func(Point)) error {
	for i, p := range path {
		err := step(p)
		if err == nil {
			d := interval
			if i == len(path)-1 {
				d = hold
			}
			err = pause(ctx, d)
		}
		if err != nil {
			undo(p)
			return err
		}
	}
	return nil
}
