package hang

import (
	"context"

	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/svc"
)

// NavigationsKey names the session's watch of window navigations.
var NavigationsKey = svc.New[*Navigations]("navigation watch")

// Unstick makes way for a reload, history move or navigation in a window
// whose renderer is stuck in a script: an out-of-process frame of the
// window found unresponsive has its script ended on its own target, and
// when the window was found unresponsive, or answers no probe within
// Again, its script is ended (Runtime.terminateExecution) so the document
// can be replaced, unless dialogOpen says a dialog, not a script, holds
// the window (the navigation answers it). It reports whether it ended one.
func Unstick(ctx context.Context, sess *session.Session, window string, w nav.Window, dialogOpen func(window string) bool) bool {
	hung := Of(sess)
	stopped := false
	if frame := hung.FrameIn(window); frame != "" {
		// A frame's renderer is its own process: the window's
		// terminateExecution does not reach it.
		if conn, err := sess.Pool.Conn(ctx, frame); err == nil && nav.On(conn).Interrupt(ctx) == nil {
			stopped = true
		}
		hung.Clear(frame)
	}
	if !hung.Is(window) && w.Responsive(ctx, Again) {
		return stopped
	}
	if dialogOpen(window) {
		return stopped
	}
	if err := w.Interrupt(ctx); err != nil {
		return stopped
	}
	hung.Clear(window)
	return true
}
