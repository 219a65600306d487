package input

import (
	"context"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestPlayDragPointer: with no dragstart, the press, the nudge past the
// threshold and the path are mouse moves with the button held, each held
// (so the whole drag takes at least steps × interval + hold), released at
// the target; drag interception is on for the drag and off after it.
func TestPlayDragPointer(t *testing.T) {
	r := &recorder{}
	asked := 0
	t0 := time.Now()
	out, err := PlayDrag(context.Background(), r, DragPlan{From: Point{10, 10}, To: Point{10, 58}, Steps: 4, Interval: 10 * time.Millisecond, Hold: 40 * time.Millisecond,
		Started: func() (DragStart, error) { asked++; return NoDragStart, nil }})
	if err != nil || out.Mode != ModePointer || out.Refused || asked != 1 {
		t.Fatalf("outcome %+v, %v, asked %d", out, err, asked)
	}
	if d := time.Since(t0); d < 70*time.Millisecond {
		t.Fatalf("the drag took %v: the moves were not held", d)
	}
	checkSeq(t, r,
		"Input.setInterceptDrags",
		"mouseMoved 10,10 none b0 n0 m0",
		"mousePressed 10,10 left b1 n1 m0",
		"mouseMoved 10,13 left b1 n0 m0",
		"mouseMoved 10,16 left b1 n0 m0",
		"mouseMoved 10,26.5 left b1 n0 m0",
		"mouseMoved 10,37 left b1 n0 m0",
		"mouseMoved 10,47.5 left b1 n0 m0",
		"mouseMoved 10,58 left b1 n0 m0",
		"mouseReleased 10,58 left b0 n1 m0",
		"Input.setInterceptDrags",
	)
	if r.calls[0].params["enabled"] != true || r.calls[len(r.calls)-1].params["enabled"] != nil && r.calls[len(r.calls)-1].params["enabled"] != false {
		t.Fatalf("interception: on %v, off %v", r.calls[0].params, r.calls[len(r.calls)-1].params)
	}
}

// TestPlayDragRefused: a cancelled dragstart releases the button where it
// is and sends nothing more.
func TestPlayDragRefused(t *testing.T) {
	r := &recorder{}
	out, err := PlayDrag(context.Background(), r, DragPlan{From: Point{0, 0}, To: Point{0, 100}, Steps: 10,
		Started: func() (DragStart, error) { return DragStartCancelled, nil }})
	if err != nil || !out.Refused || out.Mode != ModeHTML5 {
		t.Fatalf("outcome %+v, %v", out, err)
	}
	checkSeq(t, r,
		"Input.setInterceptDrags",
		"mouseMoved 0,0 none b0 n0 m0",
		"mousePressed 0,0 left b1 n1 m0",
		"mouseMoved 0,3 left b1 n0 m0",
		"mouseMoved 0,6 left b1 n0 m0",
		"mouseReleased 0,6 left b0 n1 m0",
		"Input.setInterceptDrags",
	)
}

// TestPlayDragFailureReleases: a move that fails on the path releases the
// button at that point.
func TestPlayDragFailureReleases(t *testing.T) {
	r := &recorder{failAt: 7} // the second move of the path
	_, err := PlayDrag(context.Background(), r, DragPlan{From: Point{0, 0}, To: Point{0, 46}, Steps: 4, Interval: time.Millisecond, Hold: time.Millisecond})
	if errs.CodeOf(err) != errs.CDPDisconnected {
		t.Fatalf("err = %v", err)
	}
	got := summaries(r)
	if got[len(got)-2] != "mouseReleased 0,26 left b0 n1 m0" {
		t.Fatalf("events %v: want a release where the failed move was", got)
	}
}

func TestPlayDragArguments(t *testing.T) {
	for _, c := range []struct {
		plan  DragPlan
		field string
	}{
		{DragPlan{From: Point{0, 0}, To: Point{1, 1}, Steps: 0}, "steps"},
		{DragPlan{From: Point{0, 0}, To: Point{1, 1}, Steps: 1001}, "steps"},
	} {
		_, err := PlayDrag(context.Background(), &recorder{}, c.plan)
		if e := errs.As(err); e == nil || e.Details["field"] != c.field {
			t.Errorf("%+v: %v, want BAD_ARGUMENT naming %s", c.plan, err, c.field)
		}
	}
}

func TestDragSteps(t *testing.T) {
	for _, c := range []struct {
		from, to Point
		span     float64
		want     int
	}{
		{Point{0, 0}, Point{0, 84}, 40, 10},    // 84 px, quarter 10 px: 9 moves, at least 10
		{Point{0, 0}, Point{0, 400}, 40, 40},   // one move per 10 px
		{Point{0, 0}, Point{0, 5000}, 20, 100}, // at most 100
		{Point{0, 0}, Point{0, 400}, 0, 10},    // no span known
	} {
		if got := DragSteps(c.from, c.to, c.span); got != c.want {
			t.Errorf("DragSteps(%v, %v, %v) = %d, want %d", c.from, c.to, c.span, got, c.want)
		}
	}
}
