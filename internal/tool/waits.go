package tool

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

// maxSleep caps electron_wait.
const maxSleep = 60 * time.Second

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

// waitTimeoutArg is the timeout of a wait or an expectation.
type waitTimeoutArg struct {
	TimeoutMs *int `json:"timeoutMs,omitempty" jsonschema:"how long to keep checking, in ms: default 5000, max 60000; 0 checks once"`
}

func (t waitTimeoutArg) checkTimeout() error {
	if t.TimeoutMs != nil && (*t.TimeoutMs < 0 || *t.TimeoutMs > int(page.MaxWaitTimeout/time.Millisecond)) {
		return errs.BadArg("timeoutMs", "must be between 0 (check once) and %d", page.MaxWaitTimeout.Milliseconds())
	}
	return nil
}

func (t waitTimeoutArg) timeout() time.Duration {
	if t.TimeoutMs == nil {
		return page.DefaultWaitTimeout
	}
	return time.Duration(*t.TimeoutMs) * time.Millisecond
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
	Ms *int `json:"ms" jsonschema:"milliseconds to sleep, at most 60000"`
}

func (a *waitMsArgs) validate() error {
	switch {
	case a.Ms == nil:
		return errs.BadArg("ms", "is required (milliseconds, at most 60000)")
	case *a.Ms < 0:
		return errs.BadArg("ms", "must not be negative")
	}
	return nil
}

// sleepResult is electron_wait's result.
type sleepResult struct {
	WaitedMS    int64 `json:"waited_ms"`
	Capped      bool  `json:"capped,omitempty" jsonschema:"ms was more than 60000: slept 60000"`
	Clamped     bool  `json:"clamped,omitempty" jsonschema:"the same as capped (stagewright's name)"`
	RequestedMS *int  `json:"requested_ms,omitempty"`
}

func waitSleep(ctx context.Context, _ *Call, a *waitMsArgs) (*sleepResult, error) {
	waited, capped, err := page.Sleep(ctx, *a.Ms, maxSleep)
	if err != nil {
		return nil, err
	}
	out := &sleepResult{WaitedMS: waited.Milliseconds()}
	if capped {
		out.Capped, out.Clamped = true, true // clamped: stagewright's name
		out.RequestedMS = a.Ms
	}
	return out, nil
}

// ---- waits ----

type waitSelectorArgs struct {
	elementArgs
	waitTimeoutArg
	State string `json:"state,omitempty" jsonschema:"attached, visible (default), hidden (or absent) or detached"`
}

func (a *waitSelectorArgs) validate() error {
	switch a.State {
	case "", page.StateAttached, page.StateVisible, page.StateHidden, page.StateDetached:
	default:
		return errs.BadArg("state", "must be attached, visible, hidden or detached, not %q", a.State)
	}
	if err := a.checkTimeout(); err != nil {
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
	waitDone
}

func waitForSelector(ctx context.Context, c *Call, a *waitSelectorArgs) (*selectorWaitResult, error) {
	state := a.State
	if state == "" {
		state = page.StateVisible
	}
	w, res, err := waitFor(ctx, c, page.Condition{Kind: page.CondSelector, Locator: a.locator(), State: state}, a.timeout())
	if err != nil {
		return nil, err
	}
	if !w.Met {
		return nil, page.WaitTimeout(w, a.timeout(), "%s did not become %s", waitSubject(&a.elementArgs), state).
			With("state", state).With("last_state", w.Actual)
	}
	actual, err := page.ActualAs[*page.Presence](w)
	if err != nil {
		return nil, err
	}
	return &selectorWaitResult{onSurface: waitSurface(res, w), WaitedFor: state, Actual: actual, Element: w.Element, waitDone: waitDoneOf(w)}, nil
}

type waitStateArgs struct {
	elementArgs
	waitTimeoutArg
	State map[string]any `json:"state" jsonschema:"the flags that must all hold, e.g. {\"visible\":true,\"enabled\":true,\"focused\":false}"`
}

func (a *waitStateArgs) validate() error {
	if err := a.checkTimeout(); err != nil {
		return err
	}
	if err := a.elementArgs.validate(); err != nil {
		return err
	}
	return a.condition().Check()
}

func (a *waitStateArgs) condition() page.Condition {
	return page.Condition{Kind: page.CondState, Locator: a.locator(), Want: a.State}
}

// stateWaitResult is electron_wait_for_state's result.
type stateWaitResult struct {
	onSurface
	State   *page.ElementState `json:"state" jsonschema:"every state flag of the element as last read"`
	Element *page.ElementRef   `json:"element,omitempty"`
	waitDone
}

func waitForState(ctx context.Context, c *Call, a *waitStateArgs) (*stateWaitResult, error) {
	w, res, err := waitFor(ctx, c, a.condition(), a.timeout())
	if err != nil {
		return nil, err
	}
	if !w.Met {
		e := page.WaitTimeout(w, a.timeout(), "the state of %s did not match %s", waitSubject(&a.elementArgs), page.ShortJSON(a.State)).
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
	return &stateWaitResult{onSurface: waitSurface(res, w), State: st, Element: w.Element, waitDone: waitDoneOf(w)}, nil
}

type waitEventArgs struct {
	elementArgs
	waitTimeoutArg
	EventName string `json:"eventName" jsonschema:"the event type: click, input, change, keydown, submit, focus, a custom event name…"`
}

func (a *waitEventArgs) validate() error {
	if strings.TrimSpace(a.EventName) == "" {
		return errs.BadArg("eventName", "is required, e.g. click or input")
	}
	if err := a.checkTimeout(); err != nil {
		return err
	}
	return optionalLocator(&a.elementArgs)
}

// eventWaitResult is electron_wait_for_event's result.
type eventWaitResult struct {
	onSurface
	Event *page.Event `json:"event"`
	waitDone
}

func waitForEvent(ctx context.Context, c *Call, a *waitEventArgs) (*eventWaitResult, error) {
	w, res, err := waitFor(ctx, c, page.Condition{Kind: page.CondEvent, Locator: a.locator(), Event: a.EventName}, a.timeout())
	if err != nil {
		return nil, err
	}
	if !w.Met {
		return nil, page.WaitTimeout(w, a.timeout(), "no %s event reached %s", a.EventName, waitSubject(&a.elementArgs)).
			With("event_name", a.EventName).With("last_state", nil)
	}
	ev, err := w.EventSeen()
	if err != nil {
		return nil, err
	}
	return &eventWaitResult{onSurface: waitSurface(res, w), Event: ev, waitDone: waitDoneOf(w)}, nil
}

// ---- expectations ----

// textMatchArgs are the operators of a text expectation: exactly one is set.
type textMatchArgs struct {
	Equals      *string `json:"equals,omitempty" jsonschema:"the whole text, exactly"`
	Contains    *string `json:"contains,omitempty" jsonschema:"a part of the text (case-sensitive)"`
	Regex       *string `json:"regex,omitempty" jsonschema:"a JavaScript regular expression source without slashes, e.g. ^Saved \\d+ items?$ (at most 1000 characters)"`
	Flags       string  `json:"flags,omitempty" jsonschema:"regex flags, any of i m s u"`
	NotEquals   *string `json:"not_equals,omitempty" jsonschema:"anything but this text"`
	NotContains *string `json:"not_contains,omitempty" jsonschema:"the text must not contain this"`
}

// match returns the one operator given (regexField names the regex
// argument in errors).
func (m *textMatchArgs) match(regexField string, regex *string) (*page.TextMatch, error) {
	var out *page.TextMatch
	for _, o := range []struct {
		op, field string
		v         *string
	}{
		{page.MatchEquals, "equals", m.Equals},
		{page.MatchContains, "contains", m.Contains},
		{page.MatchRegex, regexField, regex},
		{page.MatchNotEquals, "not_equals", m.NotEquals},
		{page.MatchNotContains, "not_contains", m.NotContains},
	} {
		if o.v == nil {
			continue
		}
		if out != nil {
			return nil, errs.BadArg(o.field, "pass exactly one of equals, contains, %s, not_equals, not_contains (%s is already given)", regexField, out.Field)
		}
		out = &page.TextMatch{Op: o.op, Value: *o.v, Field: o.field}
	}
	if out == nil {
		return nil, errs.BadArg("equals", "pass one of equals, contains, %s, not_equals, not_contains", regexField)
	}
	if m.Flags != "" && out.Op != page.MatchRegex {
		return nil, errs.BadArg("flags", "only apply to %s", regexField)
	}
	out.Flags = m.Flags
	return out, out.Check()
}

type expectTextArgs struct {
	elementArgs
	waitTimeoutArg
	textMatchArgs
}

func (a *expectTextArgs) validate() error {
	if err := a.checkTimeout(); err != nil {
		return err
	}
	if err := a.elementArgs.validate(); err != nil {
		return err
	}
	_, err := a.match("regex", a.Regex)
	return err
}

func expectText(ctx context.Context, c *Call, a *expectTextArgs) (*expectResult[string], error) {
	m, _ := a.match("regex", a.Regex)
	return runExpectation[string](ctx, c, page.Condition{Kind: page.CondText, Locator: a.locator(), Match: m}, a.timeout(), m.Expected(), "the text of "+waitSubject(&a.elementArgs))
}

// expectValueArgs are electron_expect_value's arguments: expectTextArgs, a
// type of their own so that a trace exports the call as toHaveValue.
type expectValueArgs struct{ expectTextArgs }

func expectValue(ctx context.Context, c *Call, a *expectValueArgs) (*expectResult[string], error) {
	m, _ := a.match("regex", a.Regex)
	return runExpectation[string](ctx, c, page.Condition{Kind: page.CondValue, Locator: a.locator(), Match: m}, a.timeout(), m.Expected(), "the value of "+waitSubject(&a.elementArgs))
}

type expectVisibleArgs struct {
	elementArgs
	waitTimeoutArg
	Visible *bool `json:"visible,omitempty" jsonschema:"true (default): the element is visible; false: hidden or absent"`
}

func (a *expectVisibleArgs) validate() error {
	if err := a.checkTimeout(); err != nil {
		return err
	}
	return a.elementArgs.validate()
}

func expectVisible(ctx context.Context, c *Call, a *expectVisibleArgs) (*expectResult[bool], error) {
	want := a.Visible == nil || *a.Visible
	return runExpectation[bool](ctx, c, page.Condition{Kind: page.CondVisible, Locator: a.locator(), Visible: want}, a.timeout(), map[string]any{"visible": want}, "the visibility of "+waitSubject(&a.elementArgs))
}

func expectState(ctx context.Context, c *Call, a *waitStateArgs) (*expectResult[*page.ElementState], error) {
	return runExpectation[*page.ElementState](ctx, c, a.condition(), a.timeout(), a.State, "the state of "+waitSubject(&a.elementArgs))
}

type expectCountArgs struct {
	Common
	waitTimeoutArg
	Selector     string `json:"selector,omitempty" jsonschema:"count the elements matching this CSS selector (open shadow roots included)"`
	Role         string `json:"role,omitempty" jsonschema:"or count the snapshot entries (not hidden) with this ARIA role"`
	Name         string `json:"name,omitempty" jsonschema:"with role: the exact accessible name"`
	NameContains string `json:"name_contains,omitempty" jsonschema:"with role: a case-insensitive part of the accessible name"`
	Equals       *int   `json:"equals,omitempty" jsonschema:"the count, exactly"`
	Min          *int   `json:"min,omitempty" jsonschema:"at least this many"`
	Max          *int   `json:"max,omitempty" jsonschema:"at most this many"`
}

func (a *expectCountArgs) condition() page.Condition {
	return page.Condition{Kind: page.CondCount, Selector: a.Selector, Role: a.Role, Name: a.Name, NameContains: a.NameContains,
		Equals: a.Equals, Min: a.Min, Max: a.Max}
}

func (a *expectCountArgs) validate() error {
	if err := a.checkTimeout(); err != nil {
		return err
	}
	return a.condition().Check()
}

func expectCount(ctx context.Context, c *Call, a *expectCountArgs) (*expectResult[int], error) {
	exp := map[string]any{}
	for k, v := range map[string]*int{"equals": a.Equals, "min": a.Min, "max": a.Max} {
		if v != nil {
			exp[k] = *v
		}
	}
	subject := fmt.Sprintf("the count of %q", a.Selector)
	if a.Selector == "" {
		subject = "the count of role " + a.Role
		switch {
		case a.Name != "":
			subject += fmt.Sprintf(" named %q", a.Name)
		case a.NameContains != "":
			subject += fmt.Sprintf(" with a name containing %q", a.NameContains)
		}
	}
	return runExpectation[int](ctx, c, a.condition(), a.timeout(), exp, subject)
}

type expectURLArgs struct {
	Common
	waitTimeoutArg
	Contains *string `json:"contains,omitempty" jsonschema:"a part of the URL"`
	Matches  *string `json:"matches,omitempty" jsonschema:"a JavaScript regular expression the URL matches, without slashes (at most 1000 characters)"`
	Flags    string  `json:"flags,omitempty" jsonschema:"regex flags for matches, any of i m s u"`
}

func (a *expectURLArgs) match() (*page.TextMatch, error) {
	switch {
	case a.Contains != nil && a.Matches != nil:
		return nil, errs.BadArg("matches", "pass contains or matches, not both")
	case a.Contains != nil:
		if a.Flags != "" {
			return nil, errs.BadArg("flags", "only apply to matches")
		}
		return &page.TextMatch{Op: page.MatchContains, Value: *a.Contains, Field: "contains"}, nil
	case a.Matches != nil:
		m := &page.TextMatch{Op: page.MatchRegex, Value: *a.Matches, Flags: a.Flags, Field: "matches"}
		return m, m.Check()
	}
	return nil, errs.BadArg("contains", "pass contains or matches")
}

func (a *expectURLArgs) validate() error {
	if err := a.checkTimeout(); err != nil {
		return err
	}
	_, err := a.match()
	return err
}

func expectURL(ctx context.Context, c *Call, a *expectURLArgs) (*expectResult[string], error) {
	m, _ := a.match()
	exp := map[string]any{}
	if a.Contains != nil {
		exp["contains"] = *a.Contains
	} else {
		exp["matches"] = *a.Matches
		if a.Flags != "" {
			exp["flags"] = a.Flags
		}
	}
	return runExpectation[string](ctx, c, page.Condition{Kind: page.CondURL, Match: m}, a.timeout(), exp, "the URL")
}

type assertPatternArgs struct {
	elementArgs
	textMatchArgs
	Pattern *string `json:"pattern,omitempty" jsonschema:"the same as regex"`
}

func (a *assertPatternArgs) regex() (string, *string) {
	if a.Pattern != nil {
		if a.Regex != nil {
			return "pattern", nil
		}
		return "pattern", a.Pattern
	}
	return "regex", a.Regex
}

func (a *assertPatternArgs) validate() error {
	if a.Pattern != nil && a.Regex != nil {
		return errs.BadArg("pattern", "pass pattern or regex, not both")
	}
	if err := optionalLocator(&a.elementArgs); err != nil {
		return err
	}
	_, err := a.match(a.regex())
	return err
}

func assertPattern(ctx context.Context, c *Call, a *assertPatternArgs) (*expectResult[string], error) {
	m, _ := a.match(a.regex())
	return runExpectation[string](ctx, c, page.Condition{Kind: page.CondText, Locator: a.locator(), Match: m}, 0, m.Expected(), "the text of "+waitSubject(&a.elementArgs))
}

// expectResult is an expectation's result; T is the type of what it
// checks.
type expectResult[T any] struct {
	onSurface
	Passed bool `json:"passed"`
	Actual T    `json:"actual"`
	waitDone
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
	return &expectResult[T]{onSurface: waitSurface(res, w), Passed: true, Actual: actual, waitDone: waitDoneOf(w)}, nil
}

// waitDone is what every wait's success carries after its own fields.
type waitDone struct {
	ElapsedMS   int64 `json:"elapsed_ms"`
	Navigations int   `json:"navigations,omitempty" jsonschema:"documents replaced meanwhile"`
}

func waitDoneOf(w *page.WaitResult) waitDone {
	return waitDone{ElapsedMS: w.Elapsed.Milliseconds(), Navigations: w.Navigations}
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
