package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/dialogs"
	"github.com/understudy-dev/understudy/internal/session"
)

// A JavaScript dialog (alert, confirm, prompt, beforeunload) stops its page
// until it is answered. Each session keeps a log of the dialogs its windows
// opened and an optional policy that answers them as they open; the
// electron_dialog_handler tool reads the log, answers what is open and arms
// the policy.

func registerDialogs(s *Server) {
	defineOpt(s, Def{
		Name: "electron_dialog_handler", Title: "Answer JavaScript dialogs", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kSet, Page: pageFree},
		Short:   "Answer alert, confirm and prompt dialogs (open and later ones) or read them; an open one blocks its page.",
		Desc:    "Answer JavaScript dialogs (alert, confirm, prompt, beforeunload) and read the ones the app opened. A dialog stops its page until it is answered. action accept or dismiss answers every dialog open now (of type, when given) and arms the same answer for the dialogs that open later (oneShot: only the next one); promptText is what a prompt is accepted with; action off disarms; without action the call only reads. Returns the armed policy, what this call answered (answered_now), the dialogs seen (events, each with seq, type, message, window_id, open, and how it was answered), next_since for the next read, and open (dialogs still waiting). since, limit (default 50, max 200) and type filter the events; clear forgets those read. While a dialog is open, every tool that needs that window's page answers DIALOG_OPEN at once (naming the dialog); dialogs are not answered unless you answer them or arm a policy.",
	}, dialogHandler)
}

func dialogHandler(ctx context.Context, c *Call, a *dialogs.Request) (*dialogs.Handled, error) {
	return assemble.Dialogs(c.Session).Handle(ctx, *a)
}

// An open dialog stops its page: every CDP call that needs the page's
// script (evaluate, Page.enable, Page.getFrameTree, a screenshot) waits
// until the dialog is answered. So a renderer tool that targets a window
// with an open dialog fails at once with DIALOG_OPEN instead of hanging to
// the backstop, and a call during which a dialog opens (a script's timer,
// an eval that calls alert) gives up shortly after.

// dialogGrace is how long a call during which a dialog opened may still
// finish by itself (a click that opened it reports dialog_opened) before it
// is answered with DIALOG_OPEN.
const dialogGrace = 1500 * time.Millisecond

// dialogTarget is the window a tool call acts on: the active window, or
// every window ("") for a call that acts in them all.
func dialogTarget(sess *session.Session, d Def) string {
	switch d.Effects.Page {
	case pageActive, pageUnsticks:
		return sess.Surfaces.ActiveWindow()
	}
	return "" // every window
}

// dialogBlocks returns DIALOG_OPEN when a dialog is open where the call
// acts, else nil.
func dialogBlocks(sess *session.Session, t Def) error {
	if t.Effects.Page == pageFree {
		return nil
	}
	d := assemble.OpenDialog(sess, dialogTarget(sess, t))
	if d == nil {
		return nil
	}
	return dialogOpenError(sess, t.Name, d)
}

// dialogOpenError is DIALOG_OPEN for a call of tool name: d is open
// where it acts.
func dialogOpenError(sess *session.Session, name string, d *dialogs.Event) error {
	sid, _ := sess.Surfaces.SurfaceOf(d.WindowID)
	return d.Blocking(name, assemble.WindowOf(sess)(d.WindowID), sid)
}

// dialogDuring watches a running call (dialogs.Log.During): when a
// dialog opens where it acts, the returned channel yields DIALOG_OPEN
// after dialogGrace (the call may still end by itself first). stop ends
// the watch.
func dialogDuring(ctx context.Context, sess *session.Session, t Def) (<-chan error, func()) {
	if t.Effects.Page == pageFree {
		return make(chan error, 1), func() {}
	}
	return assemble.Dialogs(sess).During(ctx, func() string { return dialogTarget(sess, t) }, assemble.WindowOf(sess), dialogGrace,
		func(d *dialogs.Event) error { return dialogOpenError(sess, t.Name, d) })
}
