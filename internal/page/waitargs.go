package page

import (
	"context"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// The option types of the waits, as callers give them (docs/adr/045):
// each checks itself, naming the field.

// MaxSleep caps a Sleep.
const MaxSleep = 60 * time.Second

// SleepArgs is how long to sleep.
type SleepArgs struct {
	Ms *int `json:"ms" jsonschema:"milliseconds to sleep, at most 60000"`
}

// Check refuses a missing or negative ms.
func (a *SleepArgs) Check() error {
	switch {
	case a.Ms == nil:
		return errs.BadArg("ms", "is required (milliseconds, at most 60000)")
	case *a.Ms < 0:
		return errs.BadArg("ms", "must not be negative")
	}
	return nil
}

// SleepResult is what a sleep took.
type SleepResult struct {
	WaitedMS    int64 `json:"waited_ms"`
	Capped      bool  `json:"capped,omitempty" jsonschema:"ms was more than 60000: slept 60000"`
	Clamped     bool  `json:"clamped,omitempty" jsonschema:"the same as capped (stagewright's name)"`
	RequestedMS *int  `json:"requested_ms,omitempty"`
}

// Run sleeps a's ms, at most MaxSleep, or until ctx ends.
func (a *SleepArgs) Run(ctx context.Context) (*SleepResult, error) {
	waited, capped, err := Sleep(ctx, *a.Ms, MaxSleep)
	if err != nil {
		return nil, err
	}
	out := &SleepResult{WaitedMS: waited.Milliseconds()}
	if capped {
		out.Capped, out.Clamped = true, true // clamped: stagewright's name
		out.RequestedMS = a.Ms
	}
	return out, nil
}

// PresenceWant is the state a selector wait waits for.
type PresenceWant struct {
	State string `json:"state,omitempty" jsonschema:"attached, visible (default), hidden (or absent) or detached"`
}

// Check refuses a state that is none of the four.
func (a *PresenceWant) Check() error {
	switch a.State {
	case "", StateAttached, StateVisible, StateHidden, StateDetached:
		return nil
	}
	return errs.BadArg("state", "must be attached, visible, hidden or detached, not %q", a.State)
}

// Want is the state waited for: StateVisible when none was given.
func (a *PresenceWant) Want() string {
	if a.State == "" {
		return StateVisible
	}
	return a.State
}

// StateWant is the element state flags that must all hold.
type StateWant struct {
	State map[string]any `json:"state" jsonschema:"the flags that must all hold, e.g. {\"visible\":true,\"enabled\":true,\"focused\":false}"`
}

// Condition is the wait condition of the flags on the element loc.
func (a *StateWant) Condition(loc Locator) Condition {
	return Condition{Kind: CondState, Locator: loc, Want: a.State}
}

// EventWant is the DOM event a wait waits for.
type EventWant struct {
	EventName string `json:"eventName" jsonschema:"the event type: click, input, change, keydown, submit, focus, a custom event name…"`
}

// Check refuses an empty event name.
func (a *EventWant) Check() error {
	if strings.TrimSpace(a.EventName) == "" {
		return errs.BadArg("eventName", "is required, e.g. click or input")
	}
	return nil
}

// VisibleWant is whether an element must be visible or not.
type VisibleWant struct {
	Visible *bool `json:"visible,omitempty" jsonschema:"true (default): the element is visible; false: hidden or absent"`
}

// Want is the visibility expected: true when none was given.
func (a *VisibleWant) Want() bool { return a.Visible == nil || *a.Visible }

// PatternQuery is a one-time text check: the text operators, the regular
// expression also spelled pattern.
type PatternQuery struct {
	TextOperators
	Pattern *string `json:"pattern,omitempty" jsonschema:"the same as regex"`
}

// regex is the regular expression's field and value.
func (q *PatternQuery) regex() (string, *string) {
	if q.Pattern != nil {
		if q.Regex != nil {
			return "pattern", nil
		}
		return "pattern", q.Pattern
	}
	return "regex", q.Regex
}

// CheckPattern refuses pattern given with regex.
func (q *PatternQuery) CheckPattern() error {
	if q.Pattern != nil && q.Regex != nil {
		return errs.BadArg("pattern", "pass pattern or regex, not both")
	}
	return nil
}

// Check refuses pattern with regex, then checks the operators.
func (q *PatternQuery) Check() error {
	if err := q.CheckPattern(); err != nil {
		return err
	}
	_, err := q.PatternMatch()
	return err
}

// PatternMatch is the one operator given, checked.
func (q *PatternQuery) PatternMatch() (*TextMatch, error) {
	return q.Match(q.regex())
}

// WaitDone is what every wait's success carries after its own fields.
type WaitDone struct {
	ElapsedMS   int64 `json:"elapsed_ms"`
	Navigations int   `json:"navigations,omitempty" jsonschema:"documents replaced meanwhile"`
}

// Done is the WaitDone of a wait that ended with w.
func (w *WaitResult) Done() WaitDone {
	return WaitDone{ElapsedMS: w.Elapsed.Milliseconds(), Navigations: w.Navigations}
}
