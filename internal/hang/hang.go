package hang

import (
	"context"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/svc"
	"github.com/understudy-dev/understudy/internal/target"
)

// After is how long a probe may go unanswered before the window counts as
// unresponsive; Again is the shorter wait once the window was found so,
// until a probe is answered again.
const (
	After = 3 * time.Second
	Again = 1 * time.Second
)

// hungKey names the session's hung windows.
var hungKey = svc.New[*Hung]("hung windows")

// Hung remembers the renderer of each session last found unresponsive
// (one per session: no map to prune): the window, and the target that did
// not answer, which is the window itself or an out-of-process frame in it
// (docs/adr/041).
type Hung struct {
	mu     sync.Mutex
	window string
	target string
}

// Of returns sess's hung windows, creating them on first use (a fresh,
// unattached value on a session that is closing).
func Of(sess *session.Session) *Hung {
	v, err := session.Attach(sess, hungKey, func(context.Context) (*Hung, func() error, error) {
		return &Hung{}, nil, nil
	})
	if err != nil {
		return &Hung{}
	}
	return v
}

// Is reports whether target was the one found unresponsive.
func (h *Hung) Is(target string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return target != "" && h.target == target
}

// FrameIn returns the out-of-process frame of window found unresponsive,
// "" when none (or when the window itself was).
func (h *Hung) FrameIn(window string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.window != window || h.target == window {
		return ""
	}
	return h.target
}

// Set notes target (window, or a frame in it) as unresponsive.
func (h *Hung) Set(window, target string) {
	h.mu.Lock()
	h.window, h.target = window, target
	h.mu.Unlock()
}

// Clear forgets target (a window, or a frame in one) once it answers.
func (h *Hung) Clear(target string) {
	h.mu.Lock()
	if target != "" && h.target == target {
		h.window, h.target = "", ""
	}
	h.mu.Unlock()
}

// Probe is a probe written on the socket of one renderer (Target) that
// a call acts in.
type Probe struct {
	Target string
	Probe  *nav.Probe
}

// Watch watches the probes the caller wrote (the window the call acts in
// first, then an out-of-process frame that renders its surface; a probe
// is written by the caller, which talks to the renderer, not here): when
// one is not answered in time and no dialog explains the silence
// (dialogOpen(window)) or a navigation of the window or the target under
// way in navs, it notes the target in [Hung] and the returned
// channel yields what hung(target, waited) returns. stop ends the watch
// and waits for it; nothing is watched when there is no probe.
func Watch(ctx context.Context, sess *session.Session, navs *Navigations, window string, probes []Probe, dialogOpen func(window string) bool, hung func(target string, waited time.Duration) error) (<-chan error, func()) {
	out := make(chan error, 1)
	if len(probes) == 0 {
		return out, func() {}
	}
	h := Of(sess)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		start := time.Now()
		for i, pr := range probes {
			wait := After
			if h.Is(pr.Target) {
				wait = Again
			}
			// The probes went out together: each waits what is left.
			answered := pr.Probe.Answered(ctx, max(wait-time.Since(start), 0)+10*time.Millisecond)
			// Chromium holds a target's commands while a cross-process
			// navigation of it is under way (until it commits): that
			// silence is a slow page, not a stuck one. Wait on, and judge
			// the renderer once the navigation is over.
			for !answered && ctx.Err() == nil && (navs.Navigating(window) || navs.Navigating(pr.Target)) {
				answered = pr.Probe.Answered(ctx, Again)
				if !answered && !navs.Navigating(window) && !navs.Navigating(pr.Target) {
					answered = pr.Probe.Answered(ctx, Again)
				}
			}
			if answered {
				h.Clear(pr.Target)
				continue
			}
			for _, rest := range probes[i:] {
				rest.Probe.Drop()
			}
			if ctx.Err() != nil || dialogOpen(window) {
				return // the call ended, or a dialog holds the page: DIALOG_OPEN says so
			}
			h.Set(window, pr.Target)
			out <- hung(pr.Target, time.Since(start))
			return
		}
	}()
	return out, func() { cancel(); <-done }
}

// Navigations notes, per window, when its last main-frame navigation
// started and when it committed or stopped, from the Page events of the
// window's socket (the browser sends them while it holds the target's
// commands). Rule (docs/adr/008): an entry whose last event is older than
// navForget is dropped at the next event, so the map holds only windows
// that navigated lately.
type Navigations struct {
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

// NewNavigations returns a watch that has seen no event.
func NewNavigations() *Navigations { return &Navigations{win: map[string]*navState{}} }

// OnEvent notes the main-frame navigations of a window's socket.
func (n *Navigations) OnEvent(s *target.Socket, ev target.Event) {
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

// Navigating reports whether a main-frame navigation of window started
// (lately) and has not committed or stopped since.
func (n *Navigations) Navigating(window string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	st := n.win[window]
	return st != nil && st.started.After(st.ended) && time.Since(st.started) < navForget
}
