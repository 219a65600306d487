package tool

import (
	"context"
	"fmt"
	"time"

	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

// registerWaits registers the wait and expectation tools.
func registerWaits(s *Server) {
	define(s, Def{
		Name: "electron_wait", Title: "Sleep", Profiles: "TD", Class: classWait,
		Effects: Effects{Does: kRead},
		Short:   "Sleep. Prefer a wait_for or expect tool.",
		Desc:    "Sleep for ms milliseconds (capped at 60000). Prefer a condition: electron_wait_for_selector, electron_wait_for_state or an electron_expect_* tool returns as soon as the page is ready instead of guessing a delay.",
	}, waitSleep)
	define(s, Def{
		Name: "electron_wait_for_selector", Title: "Wait for an element", Profiles: "ETD", Class: classWait, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Wait until an element is attached, visible, hidden or detached; returns a ref.",
		Desc:    "Wait until an element (selector or ref) of the active surface is attached, visible (default), hidden or detached. The page is watched from inside the renderer (DOM mutations, a timer), so this returns as soon as the state holds, with a ref to act on next; it survives a navigation of the surface. timeoutMs default 5000, max 60000, 0 checks once. On timeout: WAIT_TIMEOUT with last_state {attached, visible}.",
	}, waitForSelector)
	define(s, Def{
		Name: "electron_wait_for_state", Title: "Wait for an element's state", Profiles: "T", Class: classWait, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Wait until an element's state flags all hold.",
		Desc:    "Wait until an element's state matches every flag of state at the same moment, e.g. {\"visible\":true,\"enabled\":true,\"focused\":false}. Flags are those of electron_get_state: visible, enabled, disabled, checked (true/false/\"mixed\"), selected, expanded, pressed, focused, readonly, required, invalid, busy. Waits for the element to appear too. On timeout: WAIT_TIMEOUT with the last state seen in details.last_state.",
	}, waitForState)
	define(s, Def{
		Name: "electron_wait_for_event", Title: "Wait for a DOM event", Profiles: "T", Class: classWait, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Wait for a DOM event fired after the call starts.",
		Desc:    "Wait for a DOM event (eventName: click, input, change, keydown, submit, a custom event…) that fires after this call starts, on an element (ref or selector; events on its descendants count) or anywhere in the document (no element). Returns the event's type, target (with a ref), and key, button, value or detail when it has them. Arm it before the action that fires the event only if that action runs on its own (a timer, the app); otherwise act first and use electron_wait_for_selector or an expectation.",
	}, waitForEvent)
	define(s, Def{
		Name: "electron_expect_text", Title: "Expect text", Profiles: "ETD", Class: classWait, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Assert an element's text, retried. Once: electron_assert_pattern.",
		Desc:    "Assert the text of an element (ref or selector; innerText with whitespace collapsed, or a field's value) with exactly one of equals, contains, regex (+ flags from imsu), not_equals, not_contains. Retries inside the renderer until it holds or timeoutMs passes (default 5000, max 60000, 0 checks once). Passes with {passed:true, actual}; fails with EXPECTATION_FAILED whose details carry expected and actual (the last text seen).",
	}, expectText)
	define(s, Def{
		Name: "electron_expect_value", Title: "Expect a form value", Profiles: "T", Class: classWait, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Assert a form control's value (not its label), retried.",
		Desc:    "Assert the form value of an input, textarea, select (its value, not its label), or contenteditable with exactly one of equals, contains, regex (+ flags), not_equals, not_contains. Retries until timeoutMs (default 5000; 0 checks once). EXPECTATION_FAILED carries expected and actual.",
	}, expectValue)
	define(s, Def{
		Name: "electron_expect_visible", Title: "Expect visibility", Profiles: "ETD", Class: classWait, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Assert an element is visible, or hidden or absent, retried.",
		Desc:    "Assert that an element is visible (visible:true, the default) or not (visible:false; an element that does not exist counts as not visible). Retries until timeoutMs (default 5000; 0 checks once). EXPECTATION_FAILED carries expected and actual.",
	}, expectVisible)
	define(s, Def{
		Name: "electron_expect_state", Title: "Expect element states", Profiles: "T", Class: classWait, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Assert an element's state flags all hold, retried.",
		Desc:    "Assert an element's state flags all at once, e.g. state {\"checked\":true,\"enabled\":true}; flags as in electron_get_state. Retries until timeoutMs (default 5000; 0 checks once). EXPECTATION_FAILED carries expected and actual (the whole last state).",
	}, expectState)
	define(s, Def{
		Name: "electron_expect_count", Title: "Expect a count of elements", Profiles: "T", Class: classWait, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Assert how many elements match a selector or role, retried.",
		Desc:    "Assert how many elements match a CSS selector, or how many snapshot entries have a role (with name exact or name_contains): equals, or min and/or max. Retries until timeoutMs (default 5000; 0 checks once). EXPECTATION_FAILED carries expected and actual (the last count).",
	}, expectCount)
	define(s, Def{
		Name: "electron_expect_url", Title: "Expect the URL", Profiles: "T", Class: classWait, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Assert the active surface's URL, retried across navigations.",
		Desc:    "Assert the URL of the active surface's document (a frame's own URL when a frame surface is active): contains a string, or matches a regex (+ flags). Retries until timeoutMs (default 5000; 0 checks once), across navigations. EXPECTATION_FAILED carries expected and actual.",
	}, expectURL)
	define(s, Def{
		Name: "electron_assert_pattern", Title: "Check text or value once", Profiles: "T", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Check an element's (or the document's) text once, without retrying. Retried: electron_expect_text.",
		Desc:    "Check once, now, without waiting: the text of an element (ref or selector) or, with neither, the whole document's visible text, against exactly one of regex (or pattern; + flags), equals, contains, not_equals, not_contains. Use electron_expect_text to wait for text to change. EXPECTATION_FAILED carries expected and actual.",
	}, assertPattern)
}

// optionalLocator validates a ref or selector that may be absent.
func optionalLocator(a *elementArgs) error {
	if a.Ref == 0 && a.Selector == "" {
		return nil
	}
	return a.locator().Check()
}

// waitSubject names the element of a or, with none, the document.
func waitSubject(a *elementArgs) string {
	switch {
	case a.Ref > 0:
		return fmt.Sprintf("ref %d", a.Ref)
	case a.Selector != "":
		return fmt.Sprintf("%q", a.Selector)
	}
	return "the document"
}

// waitFor runs a condition on the active surface, resolving it again after
// a navigation.
func waitFor(ctx context.Context, c *Call, cond page.Condition, timeout time.Duration) (*page.WaitResult, *surface.Resolution, error) {
	var res *surface.Resolution
	frame := func(ctx context.Context) (page.Frame, error) {
		r, f, err := frameOf(ctx, c)
		if err == nil {
			res = r
		}
		return f, err
	}
	w, err := c.Session.Pages.Wait(ctx, frame, cond, timeout)
	return w, res, err
}

// ---- electron_wait ----

type waitMsArgs struct {
	Common
	page.SleepArgs
}

func (a *waitMsArgs) validate() error { return a.SleepArgs.Check() }

func waitSleep(ctx context.Context, _ *Call, a *waitMsArgs) (*page.SleepResult, error) {
	return a.Run(ctx)
}

// ---- waits ----

type waitSelectorArgs struct {
	elementArgs
	page.WaitBudget
	page.PresenceWant
}

func (a *waitSelectorArgs) validate() error {
	if err := a.PresenceWant.Check(); err != nil {
		return err
	}
	if err := a.CheckTimeout(); err != nil {
		return err
	}
	return a.elementArgs.validate()
}

// selectorWaitResult is electron_wait_for_selector's result.
type selectorWaitResult struct {
	onSurface
	WaitedFor string           `json:"waited_for" jsonschema:"the state waited for: attached, visible, hidden or detached"`
	Actual    *page.Presence   `json:"actual"`
	Element   *page.ElementRef `json:"element,omitempty" jsonschema:"the element, with a ref of the surface (absent for hidden or detached)"`
	page.WaitDone
}

func waitForSelector(ctx context.Context, c *Call, a *waitSelectorArgs) (*selectorWaitResult, error) {
	state := a.Want()
	w, res, err := waitFor(ctx, c, page.Condition{Kind: page.CondSelector, Locator: a.locator(), State: state}, a.Timeout())
	if err != nil {
		return nil, err
	}
	if !w.Met {
		return nil, page.WaitTimeout(w, a.Timeout(), "%s did not become %s", waitSubject(&a.elementArgs), state).
			With("state", state).With("last_state", w.Actual)
	}
	actual, err := page.ActualAs[*page.Presence](w)
	if err != nil {
		return nil, err
	}
	return &selectorWaitResult{onSurface: waitSurface(res, w), WaitedFor: state, Actual: actual, Element: w.Element, WaitDone: w.Done()}, nil
}

type waitStateArgs struct {
	elementArgs
	page.WaitBudget
	page.StateWant
}

func (a *waitStateArgs) validate() error {
	if err := a.CheckTimeout(); err != nil {
		return err
	}
	if err := a.elementArgs.validate(); err != nil {
		return err
	}
	return a.condition().Check()
}

func (a *waitStateArgs) condition() page.Condition { return a.Condition(a.locator()) }

// stateWaitResult is electron_wait_for_state's result.
type stateWaitResult struct {
	onSurface
	State   *page.ElementState `json:"state" jsonschema:"every state flag of the element as last read"`
	Element *page.ElementRef   `json:"element,omitempty"`
	page.WaitDone
}

func waitForState(ctx context.Context, c *Call, a *waitStateArgs) (*stateWaitResult, error) {
	w, res, err := waitFor(ctx, c, a.condition(), a.Timeout())
	if err != nil {
		return nil, err
	}
	if !w.Met {
		e := page.WaitTimeout(w, a.Timeout(), "the state of %s did not match %s", waitSubject(&a.elementArgs), page.ShortJSON(a.State)).
			With("expected", a.State).With("last_state", w.Actual)
		if !w.Found {
			e.Message += " (no element matched)"
		}
		return nil, e
	}
	st, err := page.ActualAs[*page.ElementState](w)
	if err != nil {
		return nil, err
	}
	return &stateWaitResult{onSurface: waitSurface(res, w), State: st, Element: w.Element, WaitDone: w.Done()}, nil
}

type waitEventArgs struct {
	elementArgs
	page.WaitBudget
	page.EventWant
}

func (a *waitEventArgs) validate() error {
	if err := a.EventWant.Check(); err != nil {
		return err
	}
	if err := a.CheckTimeout(); err != nil {
		return err
	}
	return optionalLocator(&a.elementArgs)
}

// eventWaitResult is electron_wait_for_event's result.
type eventWaitResult struct {
	onSurface
	Event *page.Event `json:"event"`
	page.WaitDone
}

func waitForEvent(ctx context.Context, c *Call, a *waitEventArgs) (*eventWaitResult, error) {
	w, res, err := waitFor(ctx, c, page.Condition{Kind: page.CondEvent, Locator: a.locator(), Event: a.EventName}, a.Timeout())
	if err != nil {
		return nil, err
	}
	if !w.Met {
		return nil, page.WaitTimeout(w, a.Timeout(), "no %s event reached %s", a.EventName, waitSubject(&a.elementArgs)).
			With("event_name", a.EventName).With("last_state", nil)
	}
	ev, err := w.EventSeen()
	if err != nil {
		return nil, err
	}
	return &eventWaitResult{onSurface: waitSurface(res, w), Event: ev, WaitDone: w.Done()}, nil
}

// ---- expectations ----

type expectTextArgs struct {
	elementArgs
	page.WaitBudget
	page.TextOperators
}

func (a *expectTextArgs) validate() error {
	if err := a.CheckTimeout(); err != nil {
		return err
	}
	if err := a.elementArgs.validate(); err != nil {
		return err
	}
	_, err := a.Match("regex", a.Regex)
	return err
}

func expectText(ctx context.Context, c *Call, a *expectTextArgs) (*expectResult[string], error) {
	m, _ := a.Match("regex", a.Regex)
	return runExpectation[string](ctx, c, page.Condition{Kind: page.CondText, Locator: a.locator(), Match: m}, a.Timeout(), m.Expected(), "the text of "+waitSubject(&a.elementArgs))
}

// expectValueArgs are electron_expect_value's arguments: expectTextArgs, a
// type of their own so that a trace exports the call as toHaveValue.
type expectValueArgs struct{ expectTextArgs }

func expectValue(ctx context.Context, c *Call, a *expectValueArgs) (*expectResult[string], error) {
	m, _ := a.Match("regex", a.Regex)
	return runExpectation[string](ctx, c, page.Condition{Kind: page.CondValue, Locator: a.locator(), Match: m}, a.Timeout(), m.Expected(), "the value of "+waitSubject(&a.elementArgs))
}

type expectVisibleArgs struct {
	elementArgs
	page.WaitBudget
	page.VisibleWant
}

func (a *expectVisibleArgs) validate() error {
	if err := a.CheckTimeout(); err != nil {
		return err
	}
	return a.elementArgs.validate()
}

func expectVisible(ctx context.Context, c *Call, a *expectVisibleArgs) (*expectResult[bool], error) {
	want := a.Want()
	return runExpectation[bool](ctx, c, page.Condition{Kind: page.CondVisible, Locator: a.locator(), Visible: want}, a.Timeout(), map[string]any{"visible": want}, "the visibility of "+waitSubject(&a.elementArgs))
}

func expectState(ctx context.Context, c *Call, a *waitStateArgs) (*expectResult[*page.ElementState], error) {
	return runExpectation[*page.ElementState](ctx, c, a.condition(), a.Timeout(), a.State, "the state of "+waitSubject(&a.elementArgs))
}

type expectCountArgs struct {
	Common
	page.WaitBudget
	page.CountQuery
}

func (a *expectCountArgs) validate() error {
	if err := a.CheckTimeout(); err != nil {
		return err
	}
	return a.Condition().Check()
}

func expectCount(ctx context.Context, c *Call, a *expectCountArgs) (*expectResult[int], error) {
	return runExpectation[int](ctx, c, a.Condition(), a.Timeout(), a.Expected(), a.Subject())
}

type expectURLArgs struct {
	Common
	page.WaitBudget
	page.URLQuery
}

func (a *expectURLArgs) validate() error {
	if err := a.CheckTimeout(); err != nil {
		return err
	}
	_, err := a.Match()
	return err
}

func expectURL(ctx context.Context, c *Call, a *expectURLArgs) (*expectResult[string], error) {
	m, _ := a.Match()
	return runExpectation[string](ctx, c, page.Condition{Kind: page.CondURL, Match: m}, a.Timeout(), a.Expected(), "the URL")
}

type assertPatternArgs struct {
	elementArgs
	page.PatternQuery
}

func (a *assertPatternArgs) validate() error {
	if err := a.CheckPattern(); err != nil {
		return err
	}
	if err := optionalLocator(&a.elementArgs); err != nil {
		return err
	}
	return a.PatternQuery.Check()
}

func assertPattern(ctx context.Context, c *Call, a *assertPatternArgs) (*expectResult[string], error) {
	m, _ := a.PatternMatch()
	return runExpectation[string](ctx, c, page.Condition{Kind: page.CondText, Locator: a.locator(), Match: m}, 0, m.Expected(), "the text of "+waitSubject(&a.elementArgs))
}

// expectResult is an expectation's result; T is the type of what it
// checks.
type expectResult[T any] struct {
	onSurface
	Passed bool `json:"passed"`
	Actual T    `json:"actual"`
	page.WaitDone
}

// runExpectation runs an expectation: {surface_id, passed:true, actual,
// elapsed_ms}, or EXPECTATION_FAILED with expected and actual.
func runExpectation[T any](ctx context.Context, c *Call, cond page.Condition, timeout time.Duration, expected any, subject string) (*expectResult[T], error) {
	w, res, err := waitFor(ctx, c, cond, timeout)
	if err != nil {
		return nil, err
	}
	if !w.Met {
		return nil, page.ExpectationFailed(w, cond, timeout, expected, subject)
	}
	actual, err := page.ActualAs[T](w)
	if err != nil {
		return nil, err
	}
	return &expectResult[T]{onSurface: waitSurface(res, w), Passed: true, Actual: actual, WaitDone: w.Done()}, nil
}

// waitSurface is the surface a wait ended on, with the fallback the last
// resolution made.
func waitSurface(res *surface.Resolution, w *page.WaitResult) onSurface {
	out := onSurface{SurfaceID: w.SurfaceID}
	if res != nil {
		out.Fallback = res.Fallback
	}
	return out
}
