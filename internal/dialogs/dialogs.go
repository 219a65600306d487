package dialogs

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/capture"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/target"
)

// MaxEvents bounds a log (the oldest go first).
const MaxEvents = 500

// Event is one dialog as the log keeps it.
type Event struct {
	Seq           int64  `json:"seq"`
	Type          string `json:"type"`
	Message       string `json:"message"`
	URL           string `json:"url,omitempty"`
	DefaultPrompt string `json:"default_prompt,omitempty"`
	WindowID      string `json:"window_id"`
	OpenedAt      string `json:"opened_at"`
	Open          bool   `json:"open"`
	// Answer is how it was answered: "accepted" or "dismissed" (by a call
	// or the armed policy, see By), or "closed" when something else
	// closed it (the page went away, another client answered).
	Answer string `json:"answer,omitempty"`
	// By is "policy" or "call" for answers understudy gave.
	By        string `json:"by,omitempty"`
	UserInput string `json:"user_input,omitempty"`

	sock *target.Socket // the socket it opened on, to answer there
}

// Policy is the armed answer.
type Policy struct {
	Action     string `json:"action"`
	PromptText string `json:"prompt_text,omitempty"`
	OneShot    bool   `json:"one_shot"`
	Type       string `json:"type,omitempty"`
}

func (p *Policy) matches(typ string) bool { return p != nil && (p.Type == "" || p.Type == typ) }

// Log is a session's dialogs and policy. It is safe for concurrent use:
// the pool's socket readers record, tool calls read and answer.
type Log struct {
	// spawn runs an answer in the session's group, on the session's
	// lifetime context: closing the session ends and joins it.
	spawn func(func(ctx context.Context)) bool

	mu     sync.Mutex
	seq    int64
	events []*Event
	policy *Policy
	// opened is closed (and forgotten) when a dialog opens; see Openings.
	opened chan struct{}
}

// New returns an empty log whose policy answers run through spawn (the
// session's Go: false when the session is closing).
func New(spawn func(func(ctx context.Context)) bool) *Log { return &Log{spawn: spawn} }

// OnEvent runs on a socket's reader goroutine: it records and, when the
// policy says so, answers in a goroutine of the session's group (a reader
// must not wait for a call on its socket).
func (l *Log) OnEvent(s *target.Socket, ev target.Event) {
	if ev.SessionID != "" {
		return
	}
	de, ok := capture.DecodeDialog(ev)
	switch {
	case !ok:
	case de.Opened != nil:
		l.opening(s, de.Opened)
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

// opening records a dialog that opened on s and answers it when the
// policy says so.
func (l *Log) opening(s *target.Socket, p *capture.Dialog) {
	l.mu.Lock()
	l.seq++
	e := &Event{Seq: l.seq, Type: p.Type, Message: p.Message, URL: p.URL, DefaultPrompt: p.DefaultPrompt,
		WindowID: s.TargetID(), OpenedAt: time.Now().UTC().Format(time.RFC3339Nano), Open: true, sock: s}
	l.events = append(l.events, e)
	if l.opened != nil {
		close(l.opened)
		l.opened = nil
	}
	if len(l.events) > MaxEvents {
		l.events = slices.Delete(l.events, 0, len(l.events)-MaxEvents)
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
}

func answerOf(action string) string {
	if action == "accept" {
		return "accepted"
	}
	return "dismissed"
}

func answer(ctx context.Context, s *target.Socket, accept bool, promptText string) error {
	return capture.HandleDialog(ctx, s.Conn(), accept, promptText)
}

// Find returns a copy of the newest event with this type and message, or
// nil.
func (l *Log) Find(typ, message string) *Event {
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

// Request is what a call asks of the log: answer the open dialogs (of
// Type) and arm that answer (Action accept or dismiss; OneShot: for one
// dialog only), disarm (off), or only read ("") the events after Since,
// at most Limit (default 50), forgetting those read with Clear. Its JSON
// names and descriptions are electron_dialog_handler's parameters.
type Request struct {
	Action     string `json:"action,omitempty" jsonschema:"accept or dismiss: answer the dialogs open now and arm that answer for later ones; off: disarm; omit to only read"`
	PromptText string `json:"promptText,omitempty" jsonschema:"what a prompt() is accepted with"`
	OneShot    bool   `json:"oneShot,omitempty" jsonschema:"the answer applies to one dialog (one open now, else the next), then disarms"`
	Type       string `json:"type,omitempty" jsonschema:"only dialogs of this type: alert, confirm, prompt or beforeunload"`
	Since      int64  `json:"since,omitempty" jsonschema:"only events whose seq is greater (next_since of an earlier call)"`
	Limit      int    `json:"limit,omitempty" jsonschema:"events to return, the newest; default 50, max 200"`
	Clear      bool   `json:"clear,omitempty" jsonschema:"forget the events returned"`
}

// Check refuses a request the log cannot answer, naming the field.
func (r *Request) Check() error {
	switch r.Action {
	case "", "accept", "dismiss", "off":
	default:
		return errs.BadArg("action", "%s is not an action; use accept, dismiss or off (or omit it to read)", errs.Quote(r.Action))
	}
	switch r.Type {
	case "", "alert", "confirm", "prompt", "beforeunload":
	default:
		return errs.BadArg("type", "%s is not a dialog type; use alert, confirm, prompt or beforeunload", errs.Quote(r.Type))
	}
	switch {
	case r.Since < 0:
		return errs.BadArg("since", "must be 0 or a seq from an earlier answer")
	case r.Limit < 0 || r.Limit > 200:
		return errs.BadArg("limit", "must be between 1 and 200 (default 50)")
	case r.PromptText != "" && r.Action != "accept":
		return errs.BadArg("promptText", "a prompt text goes with action accept")
	case r.OneShot && (r.Action == "" || r.Action == "off"):
		return errs.BadArg("oneShot", "oneShot goes with action accept or dismiss")
	}
	return nil
}

// Handled is what Handle did and read (electron_dialog_handler's result).
type Handled struct {
	Policy      *Policy `json:"policy" jsonschema:"the answer armed for later dialogs; null when none"`
	AnsweredNow []Event `json:"answered_now" jsonschema:"the open dialogs this call answered"`
	Events      []Event `json:"events"`
	NextSince   int64   `json:"next_since" jsonschema:"pass as since to get only newer events"`
	Open        int     `json:"open" jsonschema:"dialogs still waiting for an answer"`
}

// Handle answers, arms and reads as r asks.
func (l *Log) Handle(ctx context.Context, r Request) (*Handled, error) {
	answered := []Event{}
	if r.Action == "accept" || r.Action == "dismiss" {
		l.mu.Lock()
		var open []*Event
		for _, e := range l.events {
			if e.Open && e.Answer == "" && (r.Type == "" || e.Type == r.Type) {
				open = append(open, e)
			}
		}
		if r.OneShot && len(open) > 1 {
			open = open[len(open)-1:]
		}
		l.mu.Unlock()
		for _, e := range open {
			if err := answer(ctx, e.sock, r.Action == "accept", r.PromptText); err != nil {
				// Closed meanwhile (the page went away): nothing to answer.
				if !errors.Is(err, capture.ErrDialogGone) {
					return nil, err
				}
				continue
			}
			l.mu.Lock()
			e.Answer, e.By = answerOf(r.Action), "call"
			answered = append(answered, *e)
			l.mu.Unlock()
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case r.Action == "off":
		l.policy = nil
	case (r.Action == "accept" || r.Action == "dismiss") && !(r.OneShot && len(answered) > 0):
		l.policy = &Policy{Action: r.Action, PromptText: r.PromptText, OneShot: r.OneShot, Type: r.Type}
	}
	limit := r.Limit
	if limit == 0 {
		limit = 50
	}
	var picked []*Event
	open := 0
	for _, e := range l.events {
		if e.Open && e.Answer == "" {
			open++
		}
		if e.Seq > r.Since && (r.Type == "" || e.Type == r.Type) {
			picked = append(picked, e)
		}
	}
	if len(picked) > limit {
		picked = picked[len(picked)-limit:]
	}
	events := make([]Event, len(picked))
	next := r.Since
	for i, e := range picked {
		events[i] = *e
		next = max(next, e.Seq)
	}
	if r.Clear && len(picked) > 0 {
		l.events = slices.DeleteFunc(l.events, func(e *Event) bool { return slices.Contains(picked, e) && !e.Open })
	}
	var policy *Policy
	if l.policy != nil {
		p := *l.policy
		policy = &p
	}
	return &Handled{Policy: policy, AnsweredNow: answered, Events: events, NextSince: next, Open: open}, nil
}

// Open returns a copy of the oldest dialog still waiting for an answer in
// window (any window when window is ""), or nil; windowOf maps the target
// a dialog opened on to its window root. A dialog whose socket has closed
// since (the window went away) no longer counts.
func (l *Log) Open(window string, windowOf func(targetID string) string) *Event {
	l.mu.Lock()
	var open []*Event
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
		if window == "" || windowOf(e.WindowID) == window {
			l.mu.Lock()
			c := *e
			l.mu.Unlock()
			return &c
		}
	}
	return nil
}

// Openings returns a channel that is closed when the next dialog opens.
func (l *Log) Openings() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.opened == nil {
		l.opened = make(chan struct{})
	}
	return l.opened
}

// Blocking is DIALOG_OPEN for a call of tool that acts where e is open:
// window is e's window root and surfaceID its surface ("" when none is
// known). Its next actions name the ways on.
func (e *Event) Blocking(tool, window, surfaceID string) error {
	err := errs.New(errs.DialogOpen, "%s: a %s dialog is open in window %s (%s) and its page runs nothing until it is answered", tool, e.Type, window, errs.Quote(e.Message))
	err.With("dialog", map[string]any{"type": e.Type, "message": e.Message, "url": e.URL, "seq": e.Seq, "default_prompt": e.DefaultPrompt})
	err.With("window_id", window)
	if surfaceID != "" {
		err.With("surface_id", surfaceID)
	}
	err.NextActions = []string{
		`electron_dialog_handler {"action":"accept"} or {"action":"dismiss"} answers it (and arms that answer for later dialogs; add "oneShot":true for this one only)`,
		"electron_switch_window to act in another window meanwhile",
	}
	return err
}

// During watches a running call that acts in window() (re-read at each
// opening; "" every window; windowOf as for [Log.Open]): when a dialog is
// open there, the returned channel yields blocking(dialog) after grace
// (the call may still end by itself first). stop ends the watch and waits
// for it.
func (l *Log) During(ctx context.Context, window func() string, windowOf func(targetID string) string, grace time.Duration, blocking func(*Event) error) (<-chan error, func()) {
	out := make(chan error, 1)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			wake := l.Openings()
			if d := l.Open(window(), windowOf); d != nil {
				t := time.NewTimer(grace)
				select {
				case <-t.C:
					out <- blocking(d)
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

// Opened is a JavaScript dialog (alert, confirm, prompt, beforeunload)
// that input opened, as the action that opened it answers: the page waits
// for an answer, and Note says what to do (or that the armed policy
// answered it).
type Opened struct {
	Type          string `json:"type"`
	Message       string `json:"message"`
	URL           string `json:"url,omitempty"`
	DefaultPrompt string `json:"default_prompt,omitempty"`
	Note          string `json:"note"`
}
