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

// dragStartWait bounds the wait for Chromium to hand over a drag the page
// started (Input.dragIntercepted) once the mouse has moved with the button
// held. The hand-over normally comes with the move that started it.
const dragStartWait = 2 * time.Second

// dragThreshold is how far (CSS pixels) the mouse moves with the button
// held before the drag is expected to start: past Blink's threshold of
// 4 pixels.
const dragThreshold = 6

// HTML5Drag plays an HTML drag and drop with trusted events: with
// Input.setInterceptDrags on, it moves to from, presses the left button and
// moves a few pixels toward to, so that Blink starts the drag (dragstart
// and drag fire on the source, isTrusted); Chromium then hands the drag's
// data over (Input.dragIntercepted) instead of starting the system's drag
// loop, and Input.dispatchDragEvent plays dragEnter, dragOver and drop at to
// through the browser's own hit-testing (dragenter, dragover, drop or
// dragleave, and dragend on the source).
//
// started reports whether Chromium handed a drag over. When it did not
// within dragStartWait (the page cancelled dragstart, or nothing draggable is
// under from), the button is released and started is false with no error;
// startedYet, when not nil, is asked after the moves whether the page saw a
// dragstart at all, so a refused drag is known without waiting.
func HTML5Drag(ctx context.Context, s cdproto.Session, from, to Point, startedYet func() (bool, error)) (started bool, err error) {
	if err := checkPoint("from", from.X, from.Y); err != nil {
		return false, err
	}
	if err := checkPoint("to", to.X, to.Y); err != nil {
		return false, err
	}
	events, stop := s.Subscribe(cdpinput.DragIntercepted.Method)
	defer stop()
	if err := s.Call(ctx, cdpinput.CommandSetInterceptDrags, cdpinput.SetInterceptDragsParams{Enabled: true}, nil); err != nil {
		return false, err
	}
	defer func() {
		rctx, cancel := releaseCtx(ctx)
		defer cancel()
		_ = s.Call(rctx, cdpinput.CommandSetInterceptDrags, cdpinput.SetInterceptDragsParams{Enabled: false}, nil)
	}()

	b, _ := ClickOptions{}.validate()
	nudge := nudgeToward(from, to)
	press := []cdpinput.DispatchMouseEventParams{moveParams(from.X, from.Y, 0, nil), pressParams(from.X, from.Y, b, 1)}
	for i := 1; i <= 2; i++ {
		x, y := from.X+nudge.X*float64(i)/2, from.Y+nudge.Y*float64(i)/2
		press = append(press, moveParams(x, y, 0, &b))
	}
	release := releaseParams(from.X+nudge.X, from.Y+nudge.Y, b, 1)
	if at, err := dispatchInOrder(ctx, s, press...); err != nil {
		if at >= 1 {
			releaseAfterFailure(ctx, s, release)
		}
		return false, err
	}

	data, err := awaitDrag(ctx, events, startedYet)
	if err != nil || data == nil {
		releaseAfterFailure(ctx, s, release)
		return false, err
	}
	for _, typ := range []cdpinput.DispatchDragEventType{cdpinput.DispatchDragEventTypeDragEnter, cdpinput.DispatchDragEventTypeDragOver, cdpinput.DispatchDragEventTypeDrop} {
		if err := s.Call(ctx, cdpinput.CommandDispatchDragEvent, dragEvent{typ, to.X, to.Y, data}, nil); err != nil {
			rctx, cancel := releaseCtx(ctx)
			_ = s.Call(rctx, cdpinput.CommandDispatchDragEvent, dragEvent{cdpinput.DispatchDragEventTypeDragCancel, to.X, to.Y, data}, nil)
			cancel()
			return true, err
		}
	}
	return true, nil
}

// dragEvent is Input.dispatchDragEvent's params with the drag's data as
// Chromium handed it over, passed back unchanged.
type dragEvent struct {
	Type cdpinput.DispatchDragEventType `json:"type"`
	X    float64                        `json:"x"`
	Y    float64                        `json:"y"`
	Data json.RawMessage                `json:"data"`
}

// nudgeToward is a move of dragThreshold pixels from from toward to
// (straight down when they are the same point).
func nudgeToward(from, to Point) Point {
	dx, dy := to.X-from.X, to.Y-from.Y
	d := math.Hypot(dx, dy)
	if d < 1 {
		return Point{0, dragThreshold}
	}
	return Point{dx / d * dragThreshold, dy / d * dragThreshold}
}

// awaitDrag waits for Chromium to hand over the drag and returns the
// drag's data, or nil when the page did not start one.
func awaitDrag(ctx context.Context, events <-chan jsonv2.Value, startedYet func() (bool, error)) (json.RawMessage, error) {
	decode := dragData
	select {
	case raw := <-events:
		return decode(raw)
	default:
	}
	if startedYet != nil {
		ok, err := startedYet()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, nil
		}
	}
	timer := time.NewTimer(dragStartWait)
	defer timer.Stop()
	select {
	case raw := <-events:
		return decode(raw)
	case <-timer.C:
		return nil, nil
	case <-ctx.Done():
		return nil, errs.FromContext(ctx, errs.OperationTimeout, "waiting for the drag to start")
	}
}

// dragData is the drag's data of an Input.dragIntercepted event.
func dragData(raw jsonv2.Value) (json.RawMessage, error) {
	var ev struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal([]byte(raw), &ev); err != nil || len(ev.Data) == 0 {
		return nil, errs.New(errs.Internal, "Input.dragIntercepted without data: %s", clip(string(raw)))
	}
	return ev.Data, nil
}
