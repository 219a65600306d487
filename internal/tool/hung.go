package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/hang"
	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/session"
)

// navsOf is the session's watch of window navigations, listening to every
// socket of its pool from the first page call on.
func navsOf(sess *session.Session) *hang.Navigations {
	return assemble.Listener(sess, hang.NavigationsKey, hang.NewNavigations)
}

// A renderer stuck in a script (while(true){}) answers nothing: without a
// check every page tool waits for the backstop, and a retry waits again.
// Before a page tool's handler runs, the dispatcher writes a probe (a
// trivial Runtime.evaluate) on the active window's socket, ahead of the
// handler's own commands. The renderer runs commands in order on its main
// thread, so a probe with no answer within hang.After means the page was
// busy before the call did anything: the call answers PAGE_UNRESPONSIVE
// then, and the handler's context ends. A call whose own work takes long
// is not mistaken for a hang: the probe went first and was answered.

// hangDuring writes the probe on the socket of the window the call acts
// in and, for a call that acts in the surface (surface; "" the active
// one) when another target renders it (an out-of-process frame), on that
// target's socket too, and watches them: when one is not answered in time (and no
// dialog explains the silence), the returned channel yields
// PAGE_UNRESPONSIVE. stop ends the watch.
func hangDuring(ctx context.Context, sess *session.Session, d Def, surface string) (<-chan error, func()) {
	out := make(chan error, 1)
	// Not probed: a call that does not act in the page, and a navigation,
	// which stops the running script (a way out of a hung page).
	if d.Effects.Page == pageFree || d.Effects.Page == pageUnsticks {
		return out, func() {}
	}
	// A call that acts in the surface probes an out-of-process frame's
	// own renderer too.
	window, targets := hang.Targets(sess, surface, d.Effects.Page == pageActive)
	if window == "" {
		return out, func() {}
	}
	var probes []hang.Probe
	for _, id := range targets {
		conn, err := sess.Pool.Conn(ctx, id)
		if err != nil {
			continue
		}
		if p, err := nav.On(conn).StartProbe(ctx); err == nil {
			probes = append(probes, hang.Probe{Target: id, Probe: p})
		}
	}
	dialogOpen := func(window string) bool { return assemble.OpenDialog(sess, window) != nil }
	return hang.Watch(ctx, sess, navsOf(sess), window, probes, dialogOpen, func(stuck string, waited time.Duration) error {
		return hang.Unresponsive(sess, d.Name, window, stuck, surface, waited)
	})
}

// unstick makes way for a reload, history move or navigation in a window
// whose renderer is stuck in a script (hang.Unstick); a window a dialog
// holds is left to the navigation, which answers it.
func unstick(ctx context.Context, c *Call, window string, w nav.Window) bool {
	return hang.Unstick(ctx, c.Session, window, w, func(window string) bool { return assemble.OpenDialog(c.Session, window) != nil })
}
