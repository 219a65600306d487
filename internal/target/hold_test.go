package target_test

import (
	"context"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/target"
	"github.com/understudy-dev/understudy/internal/target/targettest"
)

// TestHoldOOPIFsOnTheParentSocket: while a hold is registered, every
// renderer target's own socket auto-attaches to its OOPIFs (ADR-033): an
// OOPIF that was there is let go at once, a new one runs the hold function
// and is then resumed and let go on its parent's socket (Settle waits for
// that), and its own socket auto-attaches to its OOPIFs in turn.
// The last remove switches every one of them off.
func TestHoldOOPIFsOnTheParentSocket(t *testing.T) {
	fb := targettest.New(t)
	fb.SetTargets(p1)
	p := open(t, fb, nil)
	ctx := t.Context()
	if _, err := p.List(ctx); err != nil {
		t.Fatal(err)
	}
	got := make(chan target.Info, 4)
	release := make(chan struct{})
	remove, err := p.Hold(ctx, func(_ context.Context, t target.Info) {
		got <- t
		<-release
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, st := fb.Calls("P1", "Target.setAutoAttach"), p.Stats(); n != 1 || st.ChildAttach != 1 || st.Holds != 1 {
		t.Fatalf("after Hold: P1 setAutoAttach %d, stats %+v", n, st)
	}

	fb.Emit(ctx, "P1", "Target.attachedToTarget", map[string]any{"sessionId": "S0", "targetInfo": targettest.TargetInfo(i1), "waitingForDebugger": false})
	waitFor(t, "the OOPIF that was there let go", func() bool { return fb.Calls("P1", "Target.detachFromTarget") == 1 })

	i2 := targettest.Target{ID: "I2", Type: "iframe", URL: "http://c.test/y", ParentID: "P1"}
	fb.SetTargets(i2, p1)
	fb.Emit(ctx, "P1", "Target.attachedToTarget", map[string]any{"sessionId": "S1", "targetInfo": targettest.TargetInfo(i2), "waitingForDebugger": true})
	select {
	case h := <-got:
		if h.ID != "I2" || h.Type != target.TypeIframe || h.ParentID != "P1" {
			t.Fatalf("held %+v", h)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the new OOPIF was not held")
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := p.Settle(short, "I2"); err == nil || p.Stats().Held != 1 {
		t.Fatalf("Settle returned %v while the hold function runs (stats %+v)", err, p.Stats())
	}
	close(release)
	if err := p.Settle(ctx, "I2"); err != nil {
		t.Fatal(err)
	}
	if err := p.Settle(ctx, "P1"); err != nil { // never held
		t.Fatal(err)
	}
	waitFor(t, "the new OOPIF resumed and let go", func() bool {
		return fb.Calls("P1", "Runtime.runIfWaitingForDebugger") == 1 && fb.Calls("P1", "Target.detachFromTarget") == 2
	})
	waitFor(t, "the new OOPIF's socket auto-attaching", func() bool { return fb.Calls("I2", "Target.setAutoAttach") == 1 })
	if len(got) != 0 {
		t.Fatalf("held again: %+v", <-got)
	}

	remove()
	if a, b, st := fb.Calls("P1", "Target.setAutoAttach"), fb.Calls("I2", "Target.setAutoAttach"), p.Stats(); a != 2 || b != 2 || st.ChildAttach != 0 || st.Holds != 0 {
		t.Fatalf("after remove: setAutoAttach P1 %d, I2 %d, stats %+v", a, b, st)
	}
	waitFor(t, "no target held", func() bool { return p.Stats().Held == 0 })
}
