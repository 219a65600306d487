package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/page"
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

// ---- electron_wait ----

type waitMsArgs struct {
	Common
	page.SleepArgs
}

func waitSleep(ctx context.Context, _ *Call, a *waitMsArgs) (*page.SleepResult, error) {
	return a.Run(ctx)
}

// ---- waits ----

type waitSelectorArgs struct {
	elementArgs
	page.SelectorWait
}

func (a *waitSelectorArgs) validate() error {
	return checked(a.SelectorWait.Check, a.elementArgs.validate)
}

func waitForSelector(ctx context.Context, c *Call, a *waitSelectorArgs) (*page.SelectorWaited, error) {
	return c.Session.Pages.WaitSelector(ctx, waitFrame(c), a.locator(), &a.SelectorWait)
}

type waitStateArgs struct {
	elementArgs
	page.StateWait
}

// validate checks the timeout before the element, as it always did.
func (a *waitStateArgs) validate() error {
	return checked(a.CheckTimeout, a.elementArgs.validate, a.StateWait.Check)
}

func waitForState(ctx context.Context, c *Call, a *waitStateArgs) (*page.StateWaited, error) {
	return c.Session.Pages.WaitState(ctx, waitFrame(c), a.locator(), &a.StateWait)
}

type waitEventArgs struct {
	elementArgs
	page.EventWait
}

func (a *waitEventArgs) validate() error {
	return checked(a.EventWait.Check, a.locator().CheckOptional)
}

func waitForEvent(ctx context.Context, c *Call, a *waitEventArgs) (*page.EventWaited, error) {
	return c.Session.Pages.WaitEvent(ctx, waitFrame(c), a.locator(), &a.EventWait)
}

// ---- expectations ----

type expectTextArgs struct {
	elementArgs
	page.TextExpectation
}

// validate checks the timeout before the element, as it always did.
func (a *expectTextArgs) validate() error {
	return checked(a.CheckTimeout, a.elementArgs.validate, a.TextExpectation.Check)
}

func expectText(ctx context.Context, c *Call, a *expectTextArgs) (*page.Expected[string], error) {
	return c.Session.Pages.ExpectText(ctx, waitFrame(c), a.locator(), &a.TextExpectation)
}

// expectValueArgs are electron_expect_value's arguments: expectTextArgs, a
// type of their own so that a trace exports the call as toHaveValue.
type expectValueArgs struct{ expectTextArgs }

func expectValue(ctx context.Context, c *Call, a *expectValueArgs) (*page.Expected[string], error) {
	return c.Session.Pages.ExpectValue(ctx, waitFrame(c), a.locator(), &a.TextExpectation)
}

type expectVisibleArgs struct {
	elementArgs
	page.VisibleExpectation
}

func (a *expectVisibleArgs) validate() error {
	return checked(a.VisibleExpectation.Check, a.elementArgs.validate)
}

func expectVisible(ctx context.Context, c *Call, a *expectVisibleArgs) (*page.Expected[bool], error) {
	return c.Session.Pages.ExpectVisible(ctx, waitFrame(c), a.locator(), &a.VisibleExpectation)
}

func expectState(ctx context.Context, c *Call, a *waitStateArgs) (*page.Expected[*page.ElementState], error) {
	return c.Session.Pages.ExpectState(ctx, waitFrame(c), a.locator(), &a.StateWait)
}

type expectCountArgs struct {
	Common
	page.CountExpectation
}

func expectCount(ctx context.Context, c *Call, a *expectCountArgs) (*page.Expected[int], error) {
	return c.Session.Pages.ExpectCount(ctx, waitFrame(c), &a.CountExpectation)
}

type expectURLArgs struct {
	Common
	page.URLExpectation
}

func expectURL(ctx context.Context, c *Call, a *expectURLArgs) (*page.Expected[string], error) {
	return c.Session.Pages.ExpectURL(ctx, waitFrame(c), &a.URLExpectation)
}

type assertPatternArgs struct {
	elementArgs
	page.PatternQuery
}

func (a *assertPatternArgs) validate() error {
	return checked(a.CheckPattern, a.locator().CheckOptional, a.PatternQuery.Check)
}

func assertPattern(ctx context.Context, c *Call, a *assertPatternArgs) (*page.Expected[string], error) {
	return c.Session.Pages.AssertPattern(ctx, waitFrame(c), a.locator(), &a.PatternQuery)
}
