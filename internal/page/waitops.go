package page

import (
	"context"
	"fmt"
	"time"
)

// The waits and expectations as whole operations (docs/adr/045): each
// takes the element's Locator (the zero Locator for the document) and its
// option type, waits in the surface frame resolves (again after every
// navigation), and answers its result type or the WAIT_TIMEOUT /
// EXPECTATION_FAILED that says what was last seen.

// Subject names the element l or, with none, the document, as a wait's
// failure names it.
func Subject(l Locator) string {
	switch {
	case l.Ref > 0:
		return fmt.Sprintf("ref %d", l.Ref)
	case l.Selector != "":
		return fmt.Sprintf("%q", l.Selector)
	}
	return "the document"
}

// CheckOptional checks l when it names an element; the zero Locator (the
// document) passes.
func (l Locator) CheckOptional() error {
	if l.Ref == 0 && l.Selector == "" {
		return nil
	}
	return l.Check()
}

// On is the OnSurface of the answer of a wait that ended with w: the
// surface it ended on, with the fallback of its last resolution.
func (w *WaitResult) On() OnSurface { return OnSurface{SurfaceID: w.SurfaceID, Fallback: w.Fallback} }

// SelectorWait is how long to wait for an element, and for which state.
type SelectorWait struct {
	WaitBudget
	PresenceWant
}

// Check refuses an unknown state, then a timeout out of range.
func (a *SelectorWait) Check() error {
	if err := a.PresenceWant.Check(); err != nil {
		return err
	}
	return a.CheckTimeout()
}

// SelectorWaited is the answer of a selector wait.
type SelectorWaited struct {
	OnSurface
	WaitedFor string      `json:"waited_for" jsonschema:"the state waited for: attached, visible, hidden or detached"`
	Actual    *Presence   `json:"actual"`
	Element   *ElementRef `json:"element,omitempty" jsonschema:"the element, with a ref of the surface (absent for hidden or detached)"`
	WaitDone
}

// WaitSelector waits until the element l reaches a's state.
func (s *Store) WaitSelector(ctx context.Context, frame FrameFunc, l Locator, a *SelectorWait) (*SelectorWaited, error) {
	state := a.Want()
	w, err := s.Wait(ctx, frame, Condition{Kind: CondSelector, Locator: l, State: state}, a.Timeout())
	if err != nil {
		return nil, err
	}
	if !w.Met {
		return nil, WaitTimeout(w, a.Timeout(), "%s did not become %s", Subject(l), state).
			With("state", state).With("last_state", w.Actual)
	}
	actual, err := ActualAs[*Presence](w)
	if err != nil {
		return nil, err
	}
	return &SelectorWaited{OnSurface: w.On(), WaitedFor: state, Actual: actual, Element: w.Element, WaitDone: w.Done()}, nil
}

// StateWait is how long to wait for an element's state flags, and which.
type StateWait struct {
	WaitBudget
	StateWant
}

// Check refuses a timeout out of range, then flags that name nothing, an
// unknown flag or a value the flag cannot take.
func (a *StateWait) Check() error {
	if err := a.CheckTimeout(); err != nil {
		return err
	}
	return checkStateFlags(a.State)
}

// StateWaited is the answer of a state wait.
type StateWaited struct {
	OnSurface
	State   *ElementState `json:"state" jsonschema:"every state flag of the element as last read"`
	Element *ElementRef   `json:"element,omitempty"`
	WaitDone
}

// WaitState waits until every flag of a holds on the element l.
func (s *Store) WaitState(ctx context.Context, frame FrameFunc, l Locator, a *StateWait) (*StateWaited, error) {
	w, err := s.Wait(ctx, frame, a.Condition(l), a.Timeout())
	if err != nil {
		return nil, err
	}
	if !w.Met {
		e := WaitTimeout(w, a.Timeout(), "the state of %s did not match %s", Subject(l), ShortJSON(a.State)).
			With("expected", a.State).With("last_state", w.Actual)
		if !w.Found {
			e.Message += " (no element matched)"
		}
		return nil, e
	}
	st, err := ActualAs[*ElementState](w)
	if err != nil {
		return nil, err
	}
	return &StateWaited{OnSurface: w.On(), State: st, Element: w.Element, WaitDone: w.Done()}, nil
}

// EventWait is how long to wait for a DOM event, and which.
type EventWait struct {
	WaitBudget
	EventWant
}

// Check refuses an empty event name, then a timeout out of range.
func (a *EventWait) Check() error {
	if err := a.EventWant.Check(); err != nil {
		return err
	}
	return a.CheckTimeout()
}

// EventWaited is the answer of an event wait.
type EventWaited struct {
	OnSurface
	Event *Event `json:"event"`
	WaitDone
}

// WaitEvent waits for a's event on the element l (or anywhere in the
// document with the zero Locator), fired after the call starts.
func (s *Store) WaitEvent(ctx context.Context, frame FrameFunc, l Locator, a *EventWait) (*EventWaited, error) {
	w, err := s.Wait(ctx, frame, Condition{Kind: CondEvent, Locator: l, Event: a.EventName}, a.Timeout())
	if err != nil {
		return nil, err
	}
	if !w.Met {
		return nil, WaitTimeout(w, a.Timeout(), "no %s event reached %s", a.EventName, Subject(l)).
			With("event_name", a.EventName).With("last_state", nil)
	}
	ev, err := w.EventSeen()
	if err != nil {
		return nil, err
	}
	return &EventWaited{OnSurface: w.On(), Event: ev, WaitDone: w.Done()}, nil
}

// Expected is an expectation's answer; T is the type of what it checks.
type Expected[T any] struct {
	OnSurface
	Passed bool `json:"passed"`
	Actual T    `json:"actual"`
	WaitDone
}

// Expect runs an expectation: its answer {surface_id, passed:true, actual,
// elapsed_ms}, or EXPECTATION_FAILED with expected and actual; subject
// names what was checked.
func Expect[T any](ctx context.Context, s *Store, frame FrameFunc, cond Condition, timeout time.Duration, expected any, subject string) (*Expected[T], error) {
	w, err := s.Wait(ctx, frame, cond, timeout)
	if err != nil {
		return nil, err
	}
	if !w.Met {
		return nil, ExpectationFailed(w, cond, timeout, expected, subject)
	}
	actual, err := ActualAs[T](w)
	if err != nil {
		return nil, err
	}
	return &Expected[T]{OnSurface: w.On(), Passed: true, Actual: actual, WaitDone: w.Done()}, nil
}

// TextExpectation is how long to keep checking a text, and against what.
type TextExpectation struct {
	WaitBudget
	TextOperators
}

// Check refuses a timeout out of range, then anything but exactly one
// operator (checked).
func (a *TextExpectation) Check() error {
	if err := a.CheckTimeout(); err != nil {
		return err
	}
	_, err := a.Match("regex", a.Regex)
	return err
}

// ExpectText expects the text of the element l (the document's with the
// zero Locator) to match a.
func (s *Store) ExpectText(ctx context.Context, frame FrameFunc, l Locator, a *TextExpectation) (*Expected[string], error) {
	m, _ := a.Match("regex", a.Regex)
	return Expect[string](ctx, s, frame, Condition{Kind: CondText, Locator: l, Match: m}, a.Timeout(), m.Expected(), "the text of "+Subject(l))
}

// ExpectValue expects the form value of the element l to match a.
func (s *Store) ExpectValue(ctx context.Context, frame FrameFunc, l Locator, a *TextExpectation) (*Expected[string], error) {
	m, _ := a.Match("regex", a.Regex)
	return Expect[string](ctx, s, frame, Condition{Kind: CondValue, Locator: l, Match: m}, a.Timeout(), m.Expected(), "the value of "+Subject(l))
}

// VisibleExpectation is how long to keep checking a visibility, and which.
type VisibleExpectation struct {
	WaitBudget
	VisibleWant
}

// Check refuses a timeout out of range.
func (a *VisibleExpectation) Check() error { return a.CheckTimeout() }

// ExpectVisible expects the element l to be visible, or not, as a says.
func (s *Store) ExpectVisible(ctx context.Context, frame FrameFunc, l Locator, a *VisibleExpectation) (*Expected[bool], error) {
	want := a.Want()
	return Expect[bool](ctx, s, frame, Condition{Kind: CondVisible, Locator: l, Visible: want}, a.Timeout(), map[string]any{"visible": want}, "the visibility of "+Subject(l))
}

// ExpectState expects every flag of a to hold on the element l.
func (s *Store) ExpectState(ctx context.Context, frame FrameFunc, l Locator, a *StateWait) (*Expected[*ElementState], error) {
	return Expect[*ElementState](ctx, s, frame, a.Condition(l), a.Timeout(), a.State, "the state of "+Subject(l))
}

// CountExpectation is how long to keep counting, and what within which
// bounds.
type CountExpectation struct {
	WaitBudget
	CountQuery
}

// Check refuses a timeout out of range, then the query (the count's
// condition).
func (a *CountExpectation) Check() error {
	if err := a.CheckTimeout(); err != nil {
		return err
	}
	return a.Condition().Check()
}

// ExpectCount expects the count of a's query within its bounds.
func (s *Store) ExpectCount(ctx context.Context, frame FrameFunc, a *CountExpectation) (*Expected[int], error) {
	return Expect[int](ctx, s, frame, a.Condition(), a.Timeout(), a.Expected(), a.Subject())
}

// URLExpectation is how long to keep checking the document's URL, and
// against what.
type URLExpectation struct {
	WaitBudget
	URLQuery
}

// Check refuses a timeout out of range, then the query.
func (a *URLExpectation) Check() error {
	if err := a.CheckTimeout(); err != nil {
		return err
	}
	_, err := a.Match()
	return err
}

// ExpectURL expects the URL of the surface's document to match a, across
// navigations.
func (s *Store) ExpectURL(ctx context.Context, frame FrameFunc, a *URLExpectation) (*Expected[string], error) {
	m, _ := a.Match()
	return Expect[string](ctx, s, frame, Condition{Kind: CondURL, Match: m}, a.Timeout(), a.Expected(), "the URL")
}

// AssertPattern checks the text of the element l (the document's with the
// zero Locator) against q once, now.
func (s *Store) AssertPattern(ctx context.Context, frame FrameFunc, l Locator, q *PatternQuery) (*Expected[string], error) {
	m, _ := q.PatternMatch()
	return Expect[string](ctx, s, frame, Condition{Kind: CondText, Locator: l, Match: m}, 0, m.Expected(), "the text of "+Subject(l))
}
