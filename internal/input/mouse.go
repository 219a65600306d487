package input

import (
	"context"
	"math"
	"strings"

	cdproto "github.com/chromedp/cdproto/cdp"
	cdpinput "github.com/chromedp/cdproto/input"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// Point is a position in CSS pixels relative to the viewport of the target
// that receives the events (the input root).
type Point struct {
	X, Y float64
}

// ClickOptions say how to press a mouse button.
type ClickOptions struct {
	// Button is "left" (the default when empty), "right" or "middle".
	Button string
	// ClickCount is 1 (the default when 0) to 3: 2 is a double click.
	ClickCount int
	// Modifiers is a mask of ModAlt, ModCtrl, ModMeta and ModShift held
	// during the click.
	Modifiers int
}

// DefaultDragSteps is the number of moves Drag makes when steps is 0.
const DefaultDragSteps = 10

// maxDragSteps bounds the moves of one drag.
const maxDragSteps = 1000

// button is a validated ClickOptions.
type button struct {
	name  cdpinput.MouseButton
	mask  int64 // the buttons bit of the button
	count int
	mods  int64
}

func (o ClickOptions) validate() (button, error) {
	var b button
	switch strings.ToLower(o.Button) {
	case "", "left":
		b.name, b.mask = cdpinput.MouseButtonLeft, 1
	case "right":
		b.name, b.mask = cdpinput.MouseButtonRight, 2
	case "middle":
		b.name, b.mask = cdpinput.MouseButtonMiddle, 4
	default:
		return b, errs.BadArg("button", "%q is not a mouse button; use left, right or middle", clip(o.Button))
	}
	switch {
	case o.ClickCount == 0:
		b.count = 1
	case o.ClickCount >= 1 && o.ClickCount <= 3:
		b.count = o.ClickCount
	default:
		return b, errs.BadArg("clickCount", "%d is out of range; use 1 (click), 2 (double click) or 3", o.ClickCount)
	}
	if err := checkModifiers(o.Modifiers); err != nil {
		return b, err
	}
	b.mods = int64(o.Modifiers)
	return b, nil
}

func checkModifiers(m int) error {
	if m < 0 || m&^modAll != 0 {
		return errs.BadArg("modifiers", "%d is not a mask of Alt=1, Ctrl=2, Meta=4, Shift=8", m)
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func checkPoint(field string, x, y float64) error {
	if !finite(x) || !finite(y) {
		return errs.BadArg(field, "coordinates must be finite numbers, got (%v, %v)", x, y)
	}
	return nil
}

func dispatchMouse(ctx context.Context, s cdproto.Session, p cdpinput.DispatchMouseEventParams) error {
	_, err := cdproto.Call(ctx, s, cdpinput.DispatchMouseEvent, p)
	return err
}

// starter is a session that can write a call without waiting for its
// reply (internal/cdp's Conn and Session).
type starter interface {
	Start(ctx context.Context, method string, params any) (*cdp.Pending, error)
}

// command is one CDP command of a sequence.
type command struct {
	method string
	params any
}

// callInOrder sends commands one after another and waits for all of them.
// On a session that pipelines, every command is written before the first
// reply is awaited: Chromium applies the input events of one target in the
// order they come, so a sequence costs one round trip instead of one per
// event (and a press that follows a move makes the renderer handle the move
// at once instead of at its next animation frame). It returns the first
// error and the index of the command that failed (-1 when none did); on a
// pipelining session the commands after it have been sent already.
func callInOrder(ctx context.Context, s cdproto.Session, calls []command) (int, error) {
	st, ok := s.(starter)
	if !ok {
		for i, c := range calls {
			if err := s.Call(ctx, c.method, c.params, nil); err != nil {
				return i, err
			}
		}
		return -1, nil
	}
	sent := make([]*cdp.Pending, 0, len(calls))
	failed, first := -1, error(nil)
	for i, c := range calls {
		pc, err := st.Start(ctx, c.method, c.params)
		if err != nil {
			failed, first = i, err
			break
		}
		sent = append(sent, pc)
	}
	for i, pc := range sent {
		if err := pc.Wait(ctx, nil); err != nil && (first == nil || i < failed) {
			failed, first = i, err
		}
	}
	return failed, first
}

// dispatchInOrder is callInOrder for mouse events.
func dispatchInOrder(ctx context.Context, s cdproto.Session, ps ...cdpinput.DispatchMouseEventParams) (int, error) {
	calls := make([]command, len(ps))
	for i := range ps {
		calls[i] = command{cdpinput.CommandDispatchMouseEvent, &ps[i]}
	}
	return callInOrder(ctx, s, calls)
}

func moveParams(x, y float64, mods int64, held *button) cdpinput.DispatchMouseEventParams {
	p := cdpinput.DispatchMouseEventParams{
		Type:      cdpinput.DispatchMouseEventTypeMouseMoved,
		X:         x,
		Y:         y,
		Modifiers: mods,
		Button:    cdpinput.MouseButtonNone,
	}
	if held != nil {
		p.Button, p.Buttons = held.name, held.mask
	}
	return p
}

func pressParams(x, y float64, b button, count int) cdpinput.DispatchMouseEventParams {
	return cdpinput.DispatchMouseEventParams{
		Type:       cdpinput.DispatchMouseEventTypeMousePressed,
		X:          x,
		Y:          y,
		Modifiers:  b.mods,
		Button:     b.name,
		Buttons:    b.mask,
		ClickCount: int64(count),
	}
}

func releaseParams(x, y float64, b button, count int) cdpinput.DispatchMouseEventParams {
	return cdpinput.DispatchMouseEventParams{
		Type:       cdpinput.DispatchMouseEventTypeMouseReleased,
		X:          x,
		Y:          y,
		Modifiers:  b.mods,
		Button:     b.name,
		ClickCount: int64(count),
	}
}

// releaseAfterFailure lets go of a pressed button, best effort.
func releaseAfterFailure(ctx context.Context, s cdproto.Session, p cdpinput.DispatchMouseEventParams) {
	rctx, cancel := releaseCtx(ctx)
	defer cancel()
	_ = dispatchMouse(rctx, s, p)
}

// Click moves the mouse to (x, y), then presses and releases the button
// ClickCount times with clickCount 1..n, so a page sees click (and, for 2,
// dblclick) with the right detail. Errors: BAD_ARGUMENT naming "button",
// "clickCount", "modifiers" or "x".
func Click(ctx context.Context, s cdproto.Session, x, y float64, opts ClickOptions) error {
	return click(ctx, s, x, y, opts, true)
}

// ClickInPlace is Click without the move first, for a mouse that already
// rests at (x, y): a page sees only the presses and releases.
func ClickInPlace(ctx context.Context, s cdproto.Session, x, y float64, opts ClickOptions) error {
	return click(ctx, s, x, y, opts, false)
}

func click(ctx context.Context, s cdproto.Session, x, y float64, opts ClickOptions, move bool) error {
	b, err := opts.validate()
	if err != nil {
		return err
	}
	if err := checkPoint("x", x, y); err != nil {
		return err
	}
	var events []cdpinput.DispatchMouseEventParams
	if move {
		events = append(events, moveParams(x, y, b.mods, nil))
	}
	for n := 1; n <= b.count; n++ {
		events = append(events, pressParams(x, y, b, n), releaseParams(x, y, b, n))
	}
	if at, err := dispatchInOrder(ctx, s, events...); err != nil {
		if events[at].Type == cdpinput.DispatchMouseEventTypeMouseReleased {
			releaseAfterFailure(ctx, s, events[at])
		}
		return err
	}
	return nil
}

// Move moves the mouse to (x, y) with no button down, with modifiers held.
func Move(ctx context.Context, s cdproto.Session, x, y float64, modifiers int) error {
	if err := checkModifiers(modifiers); err != nil {
		return err
	}
	if err := checkPoint("x", x, y); err != nil {
		return err
	}
	return dispatchMouse(ctx, s, moveParams(x, y, int64(modifiers), nil))
}

// MouseDown presses a button at (x, y) without moving there first and
// without releasing it; opts.ClickCount is the clickCount of the press.
func MouseDown(ctx context.Context, s cdproto.Session, x, y float64, opts ClickOptions) error {
	b, err := opts.validate()
	if err != nil {
		return err
	}
	if err := checkPoint("x", x, y); err != nil {
		return err
	}
	return dispatchMouse(ctx, s, pressParams(x, y, b, b.count))
}

// MouseUp releases a button at (x, y); pass the options of the MouseDown.
func MouseUp(ctx context.Context, s cdproto.Session, x, y float64, opts ClickOptions) error {
	b, err := opts.validate()
	if err != nil {
		return err
	}
	if err := checkPoint("x", x, y); err != nil {
		return err
	}
	return dispatchMouse(ctx, s, releaseParams(x, y, b, b.count))
}

// wheelParams is Input.dispatchMouseEvent for mouseWheel. Chromium refuses
// a mouseWheel without deltaX and deltaY, and the generated params omit a
// zero delta, so both are always written here.
type wheelParams struct {
	Type   cdpinput.DispatchMouseEventType `json:"type"`
	X      float64                         `json:"x"`
	Y      float64                         `json:"y"`
	DeltaX float64                         `json:"deltaX"`
	DeltaY float64                         `json:"deltaY"`
}

// Wheel turns the mouse wheel at (x, y) by (dx, dy) CSS pixels; positive dy
// scrolls down, positive dx right. The scroll itself may finish after Wheel
// returns.
func Wheel(ctx context.Context, s cdproto.Session, x, y, dx, dy float64) error {
	if err := checkPoint("x", x, y); err != nil {
		return err
	}
	if !finite(dx) || !finite(dy) {
		return errs.BadArg("dx", "wheel deltas must be finite numbers, got (%v, %v)", dx, dy)
	}
	return s.Call(ctx, cdpinput.CommandDispatchMouseEvent, wheelParams{
		Type: cdpinput.DispatchMouseEventTypeMouseWheel, X: x, Y: y, DeltaX: dx, DeltaY: dy,
	}, nil)
}

// Drag drags with the left button from one point to another: a move to
// from, a press, steps moves along the line with the button held (0 means
// DefaultDragSteps; at most 1000), and a release at to. It drives pointer
// and mouse event handlers (mousedown/mousemove/mouseup, pointer events);
// HTML5 drag and drop (draggable=true with dragstart/drop) is HTML5Drag's.
// If a step fails after the press, the button is released (best effort).
func Drag(ctx context.Context, s cdproto.Session, from, to Point, steps int) error {
	if err := checkPoint("from", from.X, from.Y); err != nil {
		return err
	}
	if err := checkPoint("to", to.X, to.Y); err != nil {
		return err
	}
	switch {
	case steps == 0:
		steps = DefaultDragSteps
	case steps < 0 || steps > maxDragSteps:
		return errs.BadArg("steps", "%d is out of range; use 1 to %d (0 for %d)", steps, maxDragSteps, DefaultDragSteps)
	}
	b, _ := ClickOptions{}.validate()
	if err := dispatchMouse(ctx, s, moveParams(from.X, from.Y, 0, nil)); err != nil {
		return err
	}
	if err := dispatchMouse(ctx, s, pressParams(from.X, from.Y, b, 1)); err != nil {
		return err
	}
	last := from
	for i := 1; i <= steps; i++ {
		f := float64(i) / float64(steps)
		p := Point{X: from.X + (to.X-from.X)*f, Y: from.Y + (to.Y-from.Y)*f}
		if err := dispatchMouse(ctx, s, moveParams(p.X, p.Y, 0, &b)); err != nil {
			releaseAfterFailure(ctx, s, releaseParams(last.X, last.Y, b, 1))
			return err
		}
		last = p
	}
	if err := dispatchMouse(ctx, s, releaseParams(to.X, to.Y, b, 1)); err != nil {
		releaseAfterFailure(ctx, s, releaseParams(to.X, to.Y, b, 1))
		return err
	}
	return nil
}
