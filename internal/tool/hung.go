package tool

import (
	"context"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/svc"
	"github.com/understudy-dev/understudy/internal/target"
)

// navWatchKey names the session's watch of window navigations.
var navWatchKey = svc.New[*navWatch]("navigation watch")

// hungKey names the session's hung windows.
var hungKey = svc.New[*hungWindows]("hung windows")

// A renderer stuck in a script (while(true){}) answers nothing: without a
// check every page tool waits for the backstop, and a retry waits again.
// Before a page tool's handler runs, the dispatcher writes a probe (a
// trivial Runtime.evaluate) on the active window's socket, ahead of the
// handler's own commands. The renderer runs commands in order on its main
// thread, so a probe with no answer within hangAfter means the page was
// busy before the call did anything: the call answers PAGE_UNRESPONSIVE
// then, and the handler's context ends. A call whose own work takes long
// is not mistaken for a hang: the probe went first and was answered.

// hangAfter is how long a probe may go unanswered before the window counts
// as unresponsive; hangAgain is the shorter wait once the window was found
// so, until a probe is answered again.
const (
	hangAfter = 3 * time.Second
	hangAgain = 1 * time.Second
)

// hungWindows remembers the renderer of each session last found
// unresponsive (one per session: no map to prune): the window, and the
// target that did not answer, which is the window itself or an
// out-of-process frame in it (docs/adr/041).
type hungWindows struct {
	mu     sync.Mutex
	window string
	target string
}

func hungOf(sess *session.Session) *hungWindows {
	v, err := session.Attach(sess, hungKey, func(context.Context) (*hungWindows, func() error, error) {
		return &hungWindows{}, nil, nil
	})
	if err != nil {
		return &hungWindows{}
	}
	return v
}

// is reports whether target was the one found unresponsive.
func (h *hungWindows) is(target string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return target != "" && h.target == target
}

// frameIn returns the out-of-process frame of window found unresponsive,
// "" when none (or when the window itself was).
func (h *hungWindows) frameIn(window string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.window != window || h.target == window {
		return ""
	}
	return h.target
}

func (h *hungWindows) set(window, target string) {
	h.mu.Lock()
	h.window, h.target = window, target
	h.mu.Unlock()
}

// clear forgets target (a window, or a frame in one) once it answers.
func (h *hungWindows) clear(target string) {
	h.mu.Lock()
	if target != "" && h.target == target {
		h.window, h.target = "", ""
	}
	h.mu.Unlock()
}

// probed is one renderer a probe went to.
type probed struct {
	target string
	probe  *nav.Probe
}

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
	window := sess.Surfaces.ActiveWindow()
	if surface != "" {
		if w, ok := sess.Surfaces.WindowOf(sess.Surfaces.HostOf(surface)); ok {
			window = w
		}
	}
	if window == "" {
		return out, func() {}
	}
	targets := []string{window}
	// A call that acts in the surface (not one over every window, such as
	// a listing, which goes on without a target that does not answer)
	// probes an out-of-process frame's own renderer too.
	if host := sess.Surfaces.HostOf(surface); d.Effects.Page == pageActive && host != "" && host != window {
		targets = append(targets, host)
	}
	var probes []probed
	for _, id := range targets {
		conn, err := sess.Pool.Conn(ctx, id)
		if err != nil {
			continue
		}
		if p, err := nav.On(conn).StartProbe(ctx); err == nil {
			probes = append(probes, probed{id, p})
		}
	}
	if len(probes) == 0 {
		return out, func() {}
	}
	navsOf(sess) // listening from the session's first page call on
	hung := hungOf(sess)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		start := time.Now()
		for i, pr := range probes {
			wait := hangAfter
			if hung.is(pr.target) {
				wait = hangAgain
			}
			// The probes went out together: each waits what is left.
			answered := pr.probe.Answered(ctx, max(wait-time.Since(start), 0)+10*time.Millisecond)
			// Chromium holds a target's commands while a cross-process
			// navigation of it is under way (until it commits): that
			// silence is a slow page, not a stuck one. Wait on, and judge
			// the renderer once the navigation is over.
			for !answered && ctx.Err() == nil && (navsOf(sess).navigating(window) || navsOf(sess).navigating(pr.target)) {
				answered = pr.probe.Answered(ctx, hangAgain)
				if !answered && !navsOf(sess).navigating(window) && !navsOf(sess).navigating(pr.target) {
					answered = pr.probe.Answered(ctx, hangAgain)
				}
			}
			if answered {
				hung.clear(pr.target)
				continue
			}
			for _, rest := range probes[i:] {
				rest.probe.Drop()
			}
			if ctx.Err() != nil || openDialog(sess, window) != nil {
				return // the call ended, or a dialog holds the page: DIALOG_OPEN says so
			}
			hung.set(window, pr.target)
			out <- unresponsiveError(sess, d.Name, window, pr.target, surface, time.Since(start))
			return
		}
	}()
	return out, func() { cancel(); <-done }
}

// unresponsiveError names the ways out in next_actions; the failure
// envelope keeps only those the operator's profile offers (electron_reload
// is not in essential). stuck is the target that did not answer: the
// window, or an out-of-process frame in it.
func unresponsiveError(sess *session.Session, name, window, stuck, surface string, waited time.Duration) error {
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

// unstick makes way for a reload, history move or navigation in a window
// whose renderer is stuck in a script: an out-of-process frame of the
// window found unresponsive has its script ended on its own target, and
// when the window was found unresponsive, or answers no probe within a
// second, its script is ended (Runtime.terminateExecution) so the
// document can be replaced. It reports whether it ended one.
func unstick(ctx context.Context, c *Call, window string, w nav.Window) bool {
	hung := hungOf(c.Session)
	stopped := false
	if frame := hung.frameIn(window); frame != "" {
		// A frame's renderer is its own process: the window's
		// terminateExecution does not reach it.
		if conn, err := c.Session.Pool.Conn(ctx, frame); err == nil && nav.On(conn).Interrupt(ctx) == nil {
			stopped = true
		}
		hung.clear(frame)
	}
	if !hung.is(window) && w.Responsive(ctx, hangAgain) {
		return stopped
	}
	if openDialog(c.Session, window) != nil {
		return stopped // a dialog, not a script: the navigation answers it
	}
	if err := w.Interrupt(ctx); err != nil {
		return stopped
	}
	hung.clear(window)
	return true
}

// navWatch notes, per window, when its last main-frame navigation started
// and when it committed or stopped, from the Page events of the window's
// socket (the browser sends them while it holds the target's commands).
// Rule (docs/adr/008): an entry whose last event is older than navForget
// is dropped at the next event, so the map holds only windows that
// navigated lately.
type navWatch struct {
	mu  sync.Mutex
	win map[string]*navState
}

type navState struct {
	started, ended, last time.Time
}

// navForget bounds how long a navigation counts as under way without an
// end event (a navigation Chromium dropped sends none), and how long an
// entry is kept.
const navForget = 30 * time.Second

func navsOf(sess *session.Session) *navWatch {
	return listenerOf(sess, navWatchKey, func() *navWatch { return &navWatch{win: map[string]*navState{}} })
}

func (n *navWatch) OnEvent(s *target.Socket, ev target.Event) {
	if ev.SessionID != "" {
		return
	}
	id := s.TargetID()
	start, ok := nav.MainNavigation(id, ev)
	if !ok {
		return
	}
	now := time.Now()
	n.mu.Lock()
	defer n.mu.Unlock()
	for w, st := range n.win {
		if now.Sub(st.last) > navForget {
			delete(n.win, w)
		}
	}
	st := n.win[id]
	if st == nil {
		st = &navState{}
		n.win[id] = st
	}
	st.last = now
	if start {
		st.started = now
	} else {
		st.ended = now
	}
}

// navigating reports whether a main-frame navigation of window started
// (lately) and has not committed or stopped since.
func (n *navWatch) navigating(window string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	st := n.win[window]
	return st != nil && st.started.After(st.ended) && time.Since(st.started) < navForget
}
