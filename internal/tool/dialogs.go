package tool

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	capt "github.com/understudy-dev/understudy/internal/capture" // "capture" is console.go's type
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/target"
)

// A JavaScript dialog (alert, confirm, prompt, beforeunload) stops its page
// until it is answered. Each session keeps a log of the dialogs its windows
// opened and an optional policy that answers them as they open; the
// electron_dialog_handler tool reads the log, answers what is open and arms
// the policy.

// maxDialogEvents bounds a session's dialog log (the oldest go first).
const maxDialogEvents = 500

func registerDialogs(s *Server) {
	define(s, Def{
		Name: "electron_dialog_handler", Title: "Answer JavaScript dialogs", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kSet, Page: pageFree},
		Short:   "Answer alert, confirm and prompt dialogs (open and later ones) or read them; an open one blocks its page.",
		Desc:    "Answer JavaScript dialogs (alert, confirm, prompt, beforeunload) and read the ones the app opened. A dialog stops its page until it is answered. action accept or dismiss answers every dialog open now (of type, when given) and arms the same answer for the dialogs that open later (oneShot: only the next one); promptText is what a prompt is accepted with; action off disarms; without action the call only reads. Returns the armed policy, what this call answered (answered_now), the dialogs seen (events, each with seq, type, message, window_id, open, and how it was answered), next_since for the next read, and open (dialogs still waiting). since, limit (default 50, max 200) and type filter the events; clear forgets those read. While a dialog is open, every tool that needs that window's page answers DIALOG_OPEN at once (naming the dialog); dialogs are not answered unless you answer them or arm a policy.",
	}, dialogHandler)
}

// dialogEvent is one dialog as the log keeps it.
type dialogEvent struct {
	Seq           int64  `json:"seq"`
	Type          string `json:"type"`
	Message       string `json:"message"`
	URL           string `json:"url,omitempty"`
	DefaultPrompt string `json:"default_prompt,omitempty"`
	WindowID      string `json:"window_id"`
	OpenedAt      string `json:"opened_at"`
	Open          bool   `json:"open"`
	// Answer is how it was answered: "accepted" or "dismissed" (by this
	// tool or the armed policy, see By), or "closed" when something else
	// closed it (the page went away, another client answered).
	Answer string `json:"answer,omitempty"`
	// By is "policy" or "call" for answers understudy gave.
	By        string `json:"by,omitempty"`
	UserInput string `json:"user_input,omitempty"`

	sock *target.Socket // the socket it opened on, to answer there
}

// dialogPolicy is the armed answer.
type dialogPolicy struct {
	Action     string `json:"action"`
	PromptText string `json:"prompt_text,omitempty"`
	OneShot    bool   `json:"one_shot"`
	Type       string `json:"type,omitempty"`
}

func (p *dialogPolicy) matches(typ string) bool { return p != nil && (p.Type == "" || p.Type == typ) }

// dialogLog is a session's dialogs and policy. It is safe for concurrent
// use: the pool's socket readers record, tool calls read and answer.
type dialogLog struct {
	// spawn runs an answer in the session's group (Session.Go), on the
	// session's lifetime context: closing the session ends and joins it.
	spawn func(func(ctx context.Context)) bool

	mu     sync.Mutex
	seq    int64
	events []*dialogEvent
	policy *dialogPolicy
	// opened is closed (and forgotten) when a dialog opens; see openings.
	opened chan struct{}
}

// dialogsOf returns the session's dialog log, installing it (a listener on
// every socket of the session's pool) on first use. openSession calls it,
// so dialogs are logged from the start.
func dialogsOf(sess *session.Session) *dialogLog {
	return listenerOf(sess, func() *dialogLog { return &dialogLog{spawn: sess.Go} })
}

// socketListener records events of the sockets of a session's pool.
type socketListener interface {
	onEvent(s *target.Socket, ev target.Event)
}

// listenerOf returns the session's T, creating it with create and making
// it listen to every socket of the session's pool (until the session
// closes) on first use. On a session that is closing it returns a fresh T
// that listens to nothing.
func listenerOf[T socketListener](sess *session.Session, create func() T) T {
	v, err := session.Attach(sess, func(context.Context) (T, func() error, error) {
		l := create()
		remove := sess.Pool.Listen(l.onEvent)
		return l, func() error { remove(); return nil }, nil
	})
	if err != nil {
		return create()
	}
	return v
}

// onEvent runs on a socket's reader goroutine: it records and, when the
// policy says so, answers in a goroutine of the session's group (a reader
// must not wait for a call on its socket).
func (l *dialogLog) onEvent(s *target.Socket, ev target.Event) {
	if ev.SessionID != "" {
		return
	}
	de, ok := capt.DecodeDialog(ev)
	switch {
	case !ok:
	case de.Opened != nil:
		p := de.Opened
		l.mu.Lock()
		l.seq++
		e := &dialogEvent{Seq: l.seq, Type: p.Type, Message: p.Message, URL: p.URL, DefaultPrompt: p.DefaultPrompt,
			WindowID: s.TargetID(), OpenedAt: time.Now().UTC().Format(time.RFC3339Nano), Open: true, sock: s}
		l.events = append(l.events, e)
		if l.opened != nil {
			close(l.opened)
			l.opened = nil
		}
		if len(l.events) > maxDialogEvents {
			l.events = slices.Delete(l.events, 0, len(l.events)-maxDialogEvents)
		}
		pol := l.policy
		if !pol.matches(p.Type) {
			l.mu.Unlock()
			return
		}
		if pol.OneShot {
			l.policy = nil
		}
		e.Answer, e.By = answerOf(pol.Action), "policy"
		l.mu.Unlock()
		unanswered := func() { // not answered after all: leave it to a call
			l.mu.Lock()
			if e.Open {
				e.Answer, e.By = "", ""
			}
			l.mu.Unlock()
		}
		if !l.spawn(func(life context.Context) {
			ctx, cancel := context.WithTimeout(life, 5*time.Second)
			defer cancel()
			if answer(ctx, e.sock, pol.Action == "accept", pol.PromptText) != nil {
				unanswered()
			}
		}) {
			unanswered() // the session is closing
		}
	case de.Closed != nil:
		p := de.Closed
		l.mu.Lock()
		defer l.mu.Unlock()
		for i := len(l.events) - 1; i >= 0; i-- {
			e := l.events[i]
			if e.Open && e.WindowID == s.TargetID() {
				e.Open = false
				if e.Answer == "" {
					e.Answer = "closed"
				}
				if p.Accepted && e.Type == "prompt" {
					e.UserInput = p.UserInput
				}
				return
			}
		}
	}
}

func answerOf(action string) string {
	if action == "accept" {
		return "accepted"
	}
	return "dismissed"
}

func answer(ctx context.Context, s *target.Socket, accept bool, promptText string) error {
	return capt.HandleDialog(ctx, s.Conn(), accept, promptText)
}

// find returns a copy of the newest event with this type and message, or
// nil.
func (l *dialogLog) find(typ, message string) *dialogEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := len(l.events) - 1; i >= 0; i-- {
		if e := l.events[i]; e.Type == typ && e.Message == message {
			c := *e
			return &c
		}
	}
	return nil
}

type dialogArgs struct {
	Common
	Action     string `json:"action,omitempty" jsonschema:"accept or dismiss: answer the dialogs open now and arm that answer for later ones; off: disarm; omit to only read"`
	PromptText string `json:"promptText,omitempty" jsonschema:"what a prompt() is accepted with"`
	OneShot    bool   `json:"oneShot,omitempty" jsonschema:"the answer applies to one dialog (one open now, else the next), then disarms"`
	Type       string `json:"type,omitempty" jsonschema:"only dialogs of this type: alert, confirm, prompt or beforeunload"`
	Since      int64  `json:"since,omitempty" jsonschema:"only events whose seq is greater (next_since of an earlier call)"`
	Limit      int    `json:"limit,omitempty" jsonschema:"events to return, the newest; default 50, max 200"`
	Clear      bool   `json:"clear,omitempty" jsonschema:"forget the events returned"`
}

func (a *dialogArgs) validate() error {
	switch a.Action {
	case "", "accept", "dismiss", "off":
	default:
		return errs.BadArg("action", "%s is not an action; use accept, dismiss or off (or omit it to read)", clipQuote(a.Action))
	}
	switch a.Type {
	case "", "alert", "confirm", "prompt", "beforeunload":
	default:
		return errs.BadArg("type", "%s is not a dialog type; use alert, confirm, prompt or beforeunload", clipQuote(a.Type))
	}
	switch {
	case a.Since < 0:
		return errs.BadArg("since", "must be 0 or a seq from an earlier answer")
	case a.Limit < 0 || a.Limit > 200:
		return errs.BadArg("limit", "must be between 1 and 200 (default 50)")
	case a.PromptText != "" && a.Action != "accept":
		return errs.BadArg("promptText", "a prompt text goes with action accept")
	case a.OneShot && (a.Action == "" || a.Action == "off"):
		return errs.BadArg("oneShot", "oneShot goes with action accept or dismiss")
	}
	return nil
}

// dialogResult is electron_dialog_handler's result.
type dialogResult struct {
	Policy      *dialogPolicy `json:"policy" jsonschema:"the answer armed for later dialogs; null when none"`
	AnsweredNow []dialogEvent `json:"answered_now" jsonschema:"the open dialogs this call answered"`
	Events      []dialogEvent `json:"events"`
	NextSince   int64         `json:"next_since" jsonschema:"pass as since to get only newer events"`
	Open        int           `json:"open" jsonschema:"dialogs still waiting for an answer"`
}

func dialogHandler(ctx context.Context, c *Call, a *dialogArgs) (*dialogResult, error) {
	l := dialogsOf(c.Session)
	answered := []dialogEvent{}
	if a.Action == "accept" || a.Action == "dismiss" {
		l.mu.Lock()
		var open []*dialogEvent
		for _, e := range l.events {
			if e.Open && e.Answer == "" && (a.Type == "" || e.Type == a.Type) {
				open = append(open, e)
			}
		}
		if a.OneShot && len(open) > 1 {
			open = open[len(open)-1:]
		}
		l.mu.Unlock()
		for _, e := range open {
			if err := answer(ctx, e.sock, a.Action == "accept", a.PromptText); err != nil {
				// Closed meanwhile (the page went away): nothing to answer.
				if !errors.Is(err, capt.ErrDialogGone) {
					return nil, err
				}
				continue
			}
			l.mu.Lock()
			e.Answer, e.By = answerOf(a.Action), "call"
			answered = append(answered, *e)
			l.mu.Unlock()
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case a.Action == "off":
		l.policy = nil
	case (a.Action == "accept" || a.Action == "dismiss") && !(a.OneShot && len(answered) > 0):
		l.policy = &dialogPolicy{Action: a.Action, PromptText: a.PromptText, OneShot: a.OneShot, Type: a.Type}
	}
	limit := a.Limit
	if limit == 0 {
		limit = 50
	}
	var picked []*dialogEvent
	open := 0
	for _, e := range l.events {
		if e.Open && e.Answer == "" {
			open++
		}
		if e.Seq > a.Since && (a.Type == "" || e.Type == a.Type) {
			picked = append(picked, e)
		}
	}
	if len(picked) > limit {
		picked = picked[len(picked)-limit:]
	}
	events := make([]dialogEvent, len(picked))
	next := a.Since
	for i, e := range picked {
		events[i] = *e
		next = max(next, e.Seq)
	}
	if a.Clear && len(picked) > 0 {
		l.events = slices.DeleteFunc(l.events, func(e *dialogEvent) bool { return slices.Contains(picked, e) && !e.Open })
	}
	var policy *dialogPolicy
	if l.policy != nil {
		p := *l.policy
		policy = &p
	}
	return &dialogResult{Policy: policy, AnsweredNow: answered, Events: events, NextSince: next, Open: open}, nil
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

// dialogWindow returns the window root a dialog event blocks.
func dialogWindow(sess *session.Session, e *dialogEvent) string {
	if w, ok := sess.Surfaces.WindowOf(e.WindowID); ok {
		return w
	}
	return e.WindowID
}

// openDialog returns a copy of the oldest dialog still waiting for an answer
// in window (any window when window is ""), or nil. A dialog whose socket
// has closed since (the window went away) no longer counts.
func (l *dialogLog) openDialog(sess *session.Session, window string) *dialogEvent {
	l.mu.Lock()
	var open []*dialogEvent
	for _, e := range l.events {
		if e.Open && e.Answer == "" {
			open = append(open, e)
		}
	}
	l.mu.Unlock()
	for _, e := range open {
		if conn := e.sock.Conn(); conn != nil {
			select {
			case <-conn.Done():
				l.mu.Lock()
				if e.Open && e.Answer == "" {
					e.Open, e.Answer = false, "closed"
				}
				l.mu.Unlock()
				continue
			default:
			}
		}
		if window == "" || dialogWindow(sess, e) == window {
			l.mu.Lock()
			c := *e
			l.mu.Unlock()
			return &c
		}
	}
	return nil
}

// openings returns a channel that is closed when the next dialog opens.
func (l *dialogLog) openings() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.opened == nil {
		l.opened = make(chan struct{})
	}
	return l.opened
}

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
	d := dialogsOf(sess).openDialog(sess, dialogTarget(sess, t))
	if d == nil {
		return nil
	}
	return dialogOpenError(sess, t.Name, d)
}

func dialogOpenError(sess *session.Session, name string, d *dialogEvent) error {
	win := dialogWindow(sess, d)
	e := errs.New(errs.DialogOpen, "%s: a %s dialog is open in window %s (%s) and its page runs nothing until it is answered", name, d.Type, win, clipQuote(d.Message))
	e.With("dialog", map[string]any{"type": d.Type, "message": d.Message, "url": d.URL, "seq": d.Seq, "default_prompt": d.DefaultPrompt})
	e.With("window_id", win)
	if sid, ok := sess.Surfaces.SurfaceOf(d.WindowID); ok {
		e.With("surface_id", sid)
	}
	e.NextActions = []string{
		`electron_dialog_handler {"action":"accept"} or {"action":"dismiss"} answers it (and arms that answer for later dialogs; add "oneShot":true for this one only)`,
		"electron_switch_window to act in another window meanwhile",
	}
	return e
}

// dialogDuring watches a running call: when a dialog opens where it acts,
// the returned channel yields DIALOG_OPEN after dialogGrace (the call may
// still end by itself first). stop ends the watch.
func dialogDuring(ctx context.Context, sess *session.Session, t Def) (<-chan error, func()) {
	out := make(chan error, 1)
	if t.Effects.Page == pageFree {
		return out, func() {}
	}
	l, name := dialogsOf(sess), t.Name
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			wake := l.openings()
			if d := l.openDialog(sess, dialogTarget(sess, t)); d != nil {
				t := time.NewTimer(dialogGrace)
				select {
				case <-t.C:
					out <- dialogOpenError(sess, name, d)
				case <-ctx.Done():
					t.Stop()
				}
				return
			}
			select {
			case <-wake:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, func() { cancel(); <-done }
}
