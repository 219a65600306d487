package hang

import (
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/session"
)

// Targets are the renderers a call probes: the window it acts in (the
// active window, or the window of surface when one is named) and, for a
// call that acts in the surface itself (inSurface; not one over every
// window, such as a listing, which goes on without a target that does not
// answer), the out-of-process frame that renders the surface. window is
// "" (and targets empty) when there is no window.
func Targets(sess *session.Session, surface string, inSurface bool) (window string, targets []string) {
	window = sess.Surfaces.ActiveWindow()
	if surface != "" {
		if w, ok := sess.Surfaces.WindowOf(sess.Surfaces.HostOf(surface)); ok {
			window = w
		}
	}
	if window == "" {
		return "", nil
	}
	targets = []string{window}
	if host := sess.Surfaces.HostOf(surface); inSurface && host != "" && host != window {
		targets = append(targets, host)
	}
	return window, targets
}

// Unresponsive is PAGE_UNRESPONSIVE for a call of tool name in window:
// stuck is the target that did not answer in waited (the window, or an
// out-of-process frame in it), surface the surface the call named ("" the
// active one). Its next actions name the ways out; the caller keeps those
// its client is offered.
func Unresponsive(sess *session.Session, name, window, stuck, surface string, waited time.Duration) error {
	if stuck != window {
		e := errs.New(errs.PageUnresponsive, "%s: the out-of-process frame (target %s) in window %s runs a script that does not return: it answered no trivial evaluation within %d ms; the window's own document answers", name, stuck, window, waited.Milliseconds())
		e.With("window_id", window).With("frame_target_id", stuck)
		if sid, ok := sess.Surfaces.SurfaceOf(stuck); ok {
			e.With("surface_id", sid)
		} else if surface != "" {
			e.With("surface_id", surface)
		}
		e.With("waited_ms", waited.Milliseconds())
		e.With("tried", []string{
			"Runtime.evaluate of 0 on the window's socket: answered",
			"Runtime.evaluate of 0 on the frame's own socket, sent before the call's own commands: no answer",
		})
		e.NextActions = []string{
			"electron_reload stops the frame's running script (Runtime.terminateExecution on the frame's own target) and reloads the window",
			`electron_navigate {"url": ...} stops it and opens another page in the window`,
			"electron_switch_surface to act in the window's top document (or another surface) meanwhile",
		}
		return e
	}
	e := errs.New(errs.PageUnresponsive, "%s: the page in window %s runs a script that does not return: it answered no trivial evaluation within %d ms", name, window, waited.Milliseconds())
	e.With("window_id", window)
	if sid, ok := sess.Surfaces.SurfaceOf(window); ok {
		e.With("surface_id", sid)
	}
	e.With("waited_ms", waited.Milliseconds())
	e.With("tried", []string{
		"Runtime.evaluate of 0 on the window's socket, sent before the call's own commands: no answer",
	})
	e.NextActions = []string{
		"electron_reload stops the running script (Runtime.terminateExecution) and reloads the window",
		`electron_navigate {"url": ...} stops it and opens another page (when the page spins again as it loads)`,
		"electron_go_back stops it and returns to the previous page",
		"electron_switch_window to act in another window meanwhile",
	}
	return e
}
