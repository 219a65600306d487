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

// hungKey names the session"s hung windows.
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

// hungWindows remembers the window of each session last found
// unresponsive (one per session: no map to prune).
type hungWindows struct {
	mu     sync.Mutex
	window string
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

func (h *hungWindows) is(window string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.window == window
}

func (h *hungWindows) set(window string) {
	h.mu.Lock()
	h.window = window
	h.mu.Unlock()
}

func (h *hungWindows) clear(window string) {
	h.mu.Lock()
	if h.window == window {
		h.window = ""
	}
	h.mu.Unlock()
}

// hangDuring writes the probe on the active window's socket and watches
// it: when it is not answered in time (and no dialog explains the
// silence), the returned channel yields PAGE_UNRESPONSIVE. stop ends the
// watch.
func hangDuring(ctx context.Context, sess *session.Session, d Def) (<-chan error, func()) {
	out := make(chan error, 1)
	// Not probed: a call that does not act in the page, and a navigation,
	// which stops the running script (a way out of a hung page).
	if d.Effects.Page == pageFree || d.Effects.Page == pageUnsticks {
		return out, func() {}
	}
	window := sess.Surfaces.ActiveWindow()
	if window == "" {
		return out, func() {}
	}
	conn, err := sess.Pool.Conn(ctx, window)
	if err != nil {
		return out, func() {}
	}
	probe, err := nav.On(conn).StartProbe(ctx)
	if err != nil {
		return out, func() {}
	}
	navsOf(sess) // listening from the session's first page call on
	hung := hungOf(sess)
	wait := hangAfter
	if hung.is(window) {
		wait = hangAgain
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		start := time.Now()
		answered := probe.Answered(ctx, wait)
		// Chromium holds a target's commands while a cross-process
		// navigation of its window is under way (until it commits): that
		// silence is a slow page, not a stuck one. Wait on, and judge the
		// renderer once the navigation is over.
		for !answered && ctx.Err() == nil && navsOf(sess).navigating(window) {
			answered = probe.Answered(ctx, hangAgain)
			if !answered && !navsOf(sess).navigating(window) {
				answered = probe.Answered(ctx, hangAgain)
			}
		}
		if answered {
			hung.clear(window)
			return
		}
		probe.Drop()
		if ctx.Err() != nil || openDialog(sess, window) != nil {
			return // the call ended, or a dialog holds the page: DIALOG_OPEN says so
		}
		hung.set(window)
		out <- unresponsiveError(sess, d.Name, window, time.Since(start))
	}()
	return out, func() { cancel(); <-done }
}

// unresponsiveError names the ways out in next_actions; the failure
// envelope keeps only those the operator's profile offers (electron_reload
// is not in essential).
func unresponsiveError(sess *session.Session, name, window string, waited time.Duration) error {
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
// whose renderer is stuck in a script: when the window was found
// unresponsive, or answers no probe within a second, its script is ended
// (Runtime.terminateExecution) so the document can be replaced. It
// reports whether it ended one.
func unstick(ctx context.Context, c *Call, window string, w nav.Window) bool {
	hung := hungOf(c.Session)
	if !hung.is(window) && w.Responsive(ctx, hangAgain) {
		return false
	}
	if openDialog(c.Session, window) != nil {
		return false // a dialog, not a script: the navigation answers it
	}
	if err := w.Interrupt(ctx); err != nil {
		return false
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
