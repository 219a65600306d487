package page

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	cdpproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// Limits of waits and expectations.
const (
	// DefaultWaitTimeout is a wait's budget when the caller names none.
	DefaultWaitTimeout = 5 * time.Second
	// MaxWaitTimeout is the longest wait.
	MaxWaitTimeout = 60 * time.Second
	// MaxRegexSource bounds the source of a regular expression.
	MaxRegexSource = 1000
	// MaxMatchValue bounds the other match values.
	MaxMatchValue = 20000
	// waitSlice is the longest one renderer call of a wait runs: below
	// the connection's 30 s call timeout. A longer wait is a few calls.
	waitSlice = 20 * time.Second
	// waitGrace (plus a tenth of the budget, at most maxGrace) is how
	// much longer than its budget a call may take before the Go side
	// stops waiting for it and checks once more instead: the renderer's
	// own deadline is a timer, and a window behind another runs its
	// timers about once a second, so the Go side keeps the time.
	waitGrace = 150 * time.Millisecond
	maxGrace  = time.Second
	// checkLimit bounds a check-once call.
	checkLimit = 5 * time.Second
	// maxLossesOnce is how many lost contexts a check-once survives.
	maxLossesOnce = 3
)

// CondKind names what a wait waits for.
type CondKind string

// The kinds of conditions.
const (
	// CondSelector: the element is attached, visible, hidden or detached
	// (Condition.State).
	CondSelector CondKind = "selector"
	// CondState: the element's state flags (those of GetState) match
	// Condition.Want, all at once.
	CondState CondKind = "state"
	// CondVisible: the element's visibility is Condition.Visible; an
	// element that is absent is not visible.
	CondVisible CondKind = "visible"
	// CondText: the element's text (GetText, whitespace collapsed), or
	// the document's when no element is named, matches Condition.Match.
	CondText CondKind = "text"
	// CondValue: the form value of the element (GetValue) matches.
	CondValue CondKind = "value"
	// CondCount: how many elements match a selector, or how many entries
	// of the snapshot have a role (and name), is within the bounds.
	CondCount CondKind = "count"
	// CondURL: the surface document's URL matches.
	CondURL CondKind = "url"
	// CondEvent: an event of the name reaches the element (or the
	// window): it fires after the wait starts.
	CondEvent CondKind = "event"
)

// The operators of a TextMatch.
const (
	MatchEquals      = "equals"
	MatchContains    = "contains"
	MatchRegex       = "regex"
	MatchNotEquals   = "not_equals"
	MatchNotContains = "not_contains"
)

// Selector states of CondSelector.
const (
	StateAttached = "attached"
	StateVisible  = "visible"
	StateHidden   = "hidden"
	StateDetached = "detached"
)

// TextMatch is a test of a string: equals, contains, regex, not_equals or
// not_contains Value. Flags are the regular expression's (i, m, s, u).
// Field names the argument the value came from, for errors.
type TextMatch struct {
	Op    string `json:"op"`
	Value string `json:"v"`
	Flags string `json:"flags,omitempty"`
	Field string `json:"field,omitempty"`
}

// Check validates the match. A regular expression's syntax is the
// renderer's to judge (it is a JavaScript one): an invalid one fails the
// wait with BAD_ARGUMENT naming Field.
func (m TextMatch) Check() error {
	field := m.Field
	if field == "" {
		field = m.Op
	}
	switch m.Op {
	case MatchEquals, MatchContains, MatchNotEquals, MatchNotContains:
		if m.Flags != "" {
			return errs.BadArg("flags", "only apply to a regular expression")
		}
		if len(m.Value) > MaxMatchValue {
			return errs.BadArg(field, "is %d bytes; the limit is %d", len(m.Value), MaxMatchValue)
		}
	case MatchRegex:
		if n := len([]rune(m.Value)); n > MaxRegexSource {
			return errs.BadArg(field, "the regular expression is %d characters long; the limit is %d", n, MaxRegexSource)
		}
		return CheckRegexFlags(m.Flags)
	default:
		return errs.BadArg("match", "unknown operator %q (use equals, contains, regex, not_equals or not_contains)", m.Op)
	}
	return nil
}

// CheckRegexFlags accepts any of i, m, s and u, each at most once.
func CheckRegexFlags(flags string) error {
	seen := map[rune]bool{}
	for _, r := range flags {
		if !strings.ContainsRune("imsu", r) {
			return errs.BadArg("flags", "flag %q is not allowed; use any of i, m, s, u", r)
		}
		if seen[r] {
			return errs.BadArg("flags", "flag %q is repeated", r)
		}
		seen[r] = true
	}
	return nil
}

// Expected describes the match for an agent ({"equals": "ready"}).
func (m TextMatch) Expected() map[string]any {
	out := map[string]any{m.Op: m.Value}
	if m.Flags != "" {
		out["flags"] = m.Flags
	}
	return out
}

// stateFlags are the flags a state condition may name (those of GetState).
var stateFlags = map[string]bool{
	"visible": true, "enabled": true, "disabled": true, "checked": true, "selected": true, "expanded": true,
	"pressed": true, "focused": true, "readonly": true, "required": true, "invalid": true, "busy": true,
}

// StateFlags lists the flags a state condition may name.
func StateFlags() []string {
	return []string{"visible", "enabled", "disabled", "checked", "selected", "expanded", "pressed", "focused",
		"readonly", "required", "invalid", "busy"}
}

var eventName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_:.\-]{0,63}$`) }) // compiled on first use, not at start

// Condition is what a wait polls for. Locator names the element of the
// element conditions; it is the zero value for a document's text, a
// count, the URL and a window event.
type Condition struct {
	Kind    CondKind
	Locator Locator
	// State is CondSelector's state (default visible).
	State string
	// Want are CondState's flags: booleans, or "mixed" for checked and
	// pressed, or nil for expanded and pressed (not a toggle).
	Want map[string]any
	// Visible is CondVisible's wanted visibility.
	Visible bool
	// Match is the test of CondText, CondValue and CondURL.
	Match *TextMatch
	// Selector, or Role with Name (exact) or NameContains, is what
	// CondCount counts; Equals, Min and Max bound the count.
	Selector     string
	Role         string
	Name         string
	NameContains string
	Equals       *int
	Min          *int
	Max          *int
	// Event is CondEvent's event name (click, input, my-event…).
	Event string
}

// Check validates the condition; failures are BAD_ARGUMENT naming the
// tool argument.
func (c Condition) Check() error {
	needsElement := func() error {
		if c.Locator == (Locator{}) {
			return errs.BadArg("selector", "pass a ref or a selector")
		}
		return c.Locator.Check()
	}
	optionalElement := func() error {
		if c.Locator == (Locator{}) {
			return nil
		}
		return c.Locator.Check()
	}
	needsMatch := func() error {
		if c.Match == nil {
			return errs.BadArg("equals", "pass one of equals, contains, regex, not_equals or not_contains")
		}
		return c.Match.Check()
	}
	switch c.Kind {
	case CondSelector:
		switch c.State {
		case "", StateAttached, StateVisible, StateHidden, StateDetached:
		default:
			return errs.BadArg("state", "must be attached, visible, hidden or detached, not %q", c.State)
		}
		return needsElement()
	case CondState:
		if err := checkStateFlags(c.Want); err != nil {
			return err
		}
		return needsElement()
	case CondVisible:
		return needsElement()
	case CondText:
		if err := optionalElement(); err != nil {
			return err
		}
		return needsMatch()
	case CondValue:
		if err := needsElement(); err != nil {
			return err
		}
		return needsMatch()
	case CondURL:
		if c.Match == nil {
			return errs.BadArg("contains", "pass contains or matches")
		}
		if c.Match.Op != MatchContains && c.Match.Op != MatchRegex {
			return errs.BadArg("contains", "a URL expectation takes contains or matches")
		}
		return c.Match.Check()
	case CondCount:
		return c.checkCount()
	case CondEvent:
		if !eventName().MatchString(c.Event) {
			return errs.BadArg("eventName", "must be an event name such as click, input, keydown or my-event (letters, digits, _ : . -; at most 64)")
		}
		return optionalElement()
	}
	return errs.BadArg("condition", "unknown kind %q", c.Kind)
}

// checkStateFlags refuses a state condition's flags that name nothing, an
// unknown flag or a value the flag cannot take.
func checkStateFlags(want map[string]any) error {
	if len(want) == 0 {
		return errs.BadArg("state", "name at least one flag, for example {\"visible\": true, \"enabled\": true}")
	}
	for k, v := range want {
		if !stateFlags[k] {
			return errs.BadArg("state."+k, "is not a state flag; use %s", strings.Join(StateFlags(), ", "))
		}
		switch v := v.(type) {
		case bool:
		case string:
			if v != "mixed" || (k != "checked" && k != "pressed") {
				return errs.BadArg("state."+k, "must be true or false (\"mixed\" only for checked and pressed)")
			}
		case nil:
			if k != "expanded" && k != "pressed" {
				return errs.BadArg("state."+k, "must be true or false (null only for expanded and pressed: not a toggle)")
			}
		default:
			return errs.BadArg("state."+k, "must be true or false")
		}
	}
	return nil
}

func (c Condition) checkCount() error {
	sel, role := strings.TrimSpace(c.Selector) != "", strings.TrimSpace(c.Role) != ""
	switch {
	case sel && role:
		return errs.BadArg("selector", "pass selector, or role (with name), not both")
	case !sel && !role:
		return errs.BadArg("selector", "pass a selector, or a role (with name)")
	case sel && (c.Name != "" || c.NameContains != ""):
		return errs.BadArg("name", "goes with role, not with selector")
	case c.Name != "" && c.NameContains != "":
		return errs.BadArg("name", "pass name or name_contains, not both")
	}
	for _, b := range []struct {
		field string
		v     *int
	}{{"equals", c.Equals}, {"min", c.Min}, {"max", c.Max}} {
		if b.v != nil && *b.v < 0 {
			return errs.BadArg(b.field, "must not be negative")
		}
	}
	switch {
	case c.Equals == nil && c.Min == nil && c.Max == nil:
		return errs.BadArg("equals", "pass equals, or min and/or max")
	case c.Equals != nil && (c.Min != nil || c.Max != nil):
		return errs.BadArg("equals", "pass equals, or min and/or max, not both")
	case c.Min != nil && c.Max != nil && *c.Min > *c.Max:
		return errs.BadArg("min", "is above max")
	}
	return nil
}

// wire is the condition as wait.js takes it.
func (c *Condition) wire(sf *surface) map[string]any {
	w := map[string]any{"k": string(c.Kind)}
	if c.Locator != (Locator{}) && c.Kind != CondCount {
		for k, v := range sf.locArgs(c.Locator) {
			w[k] = v
		}
	}
	switch c.Kind {
	case CondSelector:
		st := c.State
		if st == "" {
			st = StateVisible
		}
		w["state"] = st
	case CondState:
		w["flags"] = c.Want
	case CondVisible:
		w["vis"] = c.Visible
	case CondText, CondValue, CondURL:
		w["m"] = c.Match
	case CondCount:
		if c.Selector != "" {
			w["sel"] = c.Selector
		} else {
			w["role"], w["name"], w["nameContains"] = c.Role, c.Name, c.NameContains
		}
		w["eq"], w["min"], w["max"] = c.Equals, c.Min, c.Max
	case CondEvent:
		w["name"] = c.Event
	}
	return w
}

// FrameFunc resolves the surface a wait acts on. A wait calls it again
// after the surface's document was replaced (a navigation), so it must
// resolve afresh each time.
type FrameFunc func(ctx context.Context) (Frame, error)

// ElementRef names the element a wait found.
type ElementRef struct {
	Ref  int    `json:"ref"`
	Role string `json:"role"`
	Name string `json:"name,omitempty"`
	Tag  string `json:"tag"`
}

// WaitResult is how a wait ended.
type WaitResult struct {
	SurfaceID string
	// Fallback is the automatic reselection of the last frame the wait
	// resolved (Frame.Fallback).
	Fallback *Fallback
	// Met says whether the condition held before the time was up.
	Met bool
	// Actual is the last value seen: {attached, visible} for a selector,
	// the state flags, a text, a value, a count, a URL, a visibility; JSON
	// null when the element was never found (or never checked).
	Actual json.RawMessage
	// Found says whether the element existed at the last check.
	Found bool
	// Length is the whole length of a text Actual (which is clipped at
	// 2000 characters).
	Length int
	// Element is the element of a met selector or state condition, with
	// a ref of this surface.
	Element *ElementRef
	// Event summarises the event of a met CondEvent.
	Event json.RawMessage
	// Elapsed is the wait's duration.
	Elapsed time.Duration
	// Navigations counts the documents that were replaced during the
	// wait (it carried on in the new one).
	Navigations int
}

// Presence is the last value of a selector wait: whether the element was
// attached and visible.
type Presence struct {
	Attached bool `json:"attached"`
	Visible  bool `json:"visible"`
}

// Event summarises the event a CondEvent wait saw.
type Event struct {
	Type      string       `json:"type"`
	IsTrusted bool         `json:"is_trusted"`
	TimeStamp float64      `json:"time_stamp" jsonschema:"ms since the document started"`
	Target    *EventTarget `json:"target,omitempty"`
	Key       *string      `json:"key,omitempty"`
	Code      *string      `json:"code,omitempty"`
	Button    *int         `json:"button,omitempty"`
	ClientX   *float64     `json:"client_x,omitempty"`
	ClientY   *float64     `json:"client_y,omitempty"`
	Data      *string      `json:"data,omitempty"`
	Value     *string      `json:"value,omitempty" jsonschema:"the field's value after an input or change event (a password masked)"`
	// Detail is a CustomEvent's detail as JSON text, or a UI event's
	// number (a click count).
	Detail json.RawMessage `json:"detail,omitempty" jsonschema:"a custom event's detail as JSON text, or a number"`
}

// EventTarget is the element (or #document, #window) an event went to.
type EventTarget struct {
	Ref      int    `json:"ref,omitempty"`
	Role     string `json:"role,omitempty"`
	Name     string `json:"name,omitempty"`
	Tag      string `json:"tag"`
	Selector string `json:"selector,omitempty"`
}

// EventSeen decodes the event a met CondEvent wait saw; nil when none.
func (w *WaitResult) EventSeen() (*Event, error) {
	if len(w.Event) == 0 || string(w.Event) == "null" {
		return nil, nil
	}
	var e Event
	if err := json.Unmarshal(w.Event, &e); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a wait's event")
	}
	return &e, nil
}

// ActualAs decodes the last value a wait saw as T (Presence for a
// selector, ElementState for a state, string for a text, value or URL,
// bool for a visibility, int for a count).
func ActualAs[T any](w *WaitResult) (T, error) {
	var v T
	if len(w.Actual) == 0 {
		return v, nil
	}
	if err := json.Unmarshal(w.Actual, &v); err != nil {
		return v, errs.Wrap(errs.Internal, err, "decoding a wait's value")
	}
	return v, nil
}

// wireWait is wait.js's answer.
type wireWait struct {
	Met     bool            `json:"met"`
	Actual  json.RawMessage `json:"actual"`
	Found   bool            `json:"found"`
	Length  int             `json:"length"`
	Element *ElementRef     `json:"element"`
	Event   json.RawMessage `json:"event"`
}

// Wait polls the condition inside the renderer until it holds or timeout
// passes (0: check once). One renderer call covers up to 20 s: it polls on
// DOM mutations, focus and input events and a timer, and settles as soon
// as the condition holds. When the surface's document is replaced during
// the wait, Wait resolves the frame again and carries on in the new
// document within the time left. A condition that does not hold is not an
// error: see WaitResult.Met. Errors are BAD_ARGUMENT (an invalid selector
// or regular expression), REF_NOT_FOUND (a ref that is not live, when the
// condition needs its element), SELECTOR_NO_MATCH (an event's element),
// CDP_TIMEOUT (the renderer never answered: busy, or paused in a debugger)
// and the frame's own failures. The Go side keeps the time: a call that
// outlives its budget (a window behind another runs its timers about once
// a second) is given up for one more check, so a wait ends close to its
// timeout and still reports the last value.
func (s *Store) Wait(ctx context.Context, frame FrameFunc, c Condition, timeout time.Duration) (*WaitResult, error) {
	return s.wait(ctx, frame, c, timeout, waitSlice)
}

func (s *Store) wait(ctx context.Context, frame FrameFunc, c Condition, timeout, slice time.Duration) (*WaitResult, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	if timeout < 0 || timeout > MaxWaitTimeout {
		return nil, errs.BadArg("timeoutMs", "must be between 0 and %d", MaxWaitTimeout.Milliseconds())
	}
	start := time.Now()
	deadline := start.Add(timeout)
	id := waitID()
	out := &WaitResult{Actual: json.RawMessage("null")}
	losses, seen := 0, false
	for {
		f, err := frame(ctx)
		if err != nil {
			return nil, err
		}
		out.SurfaceID, out.Fallback = f.SurfaceID, f.Fallback
		left := max(0, time.Until(deadline))
		budget := min(left, slice)
		last := budget == left
		w, err := s.waitOnce(ctx, f, &c, id, budget, last, callLimit(budget))
		if err == nil && w == nil && budget > 0 {
			// The renderer did not settle in time (its timers may be
			// throttled): look once more, now.
			w, err = s.waitOnce(ctx, f, &c, id, 0, last, checkLimit)
		}
		if err != nil {
			if ctx.Err() != nil || !recoverable(err) {
				return nil, err
			}
			// The document went away under the wait (a navigation, a
			// reload, a frame that moved process): resolve again and
			// carry on in the new one while there is time. A check-once
			// gets a few tries.
			losses++
			out.Navigations++
			if !time.Now().Before(deadline) && losses > maxLossesOnce {
				break
			}
			if !Pause(ctx, 25*time.Millisecond) {
				return nil, errs.FromContext(ctx, errs.OperationTimeout, "waiting after the document went away")
			}
			continue
		}
		if w == nil && !seen && last {
			return nil, errs.New(errs.CDPTimeout, "surface %s did not answer the wait in time; the page may be busy or paused in a debugger", f.SurfaceID)
		}
		if w != nil {
			seen = true
			out.Met, out.Found, out.Length, out.Element, out.Event = w.Met, w.Found, w.Length, w.Element, w.Event
			if len(w.Actual) > 0 {
				out.Actual = w.Actual
			}
		}
		if out.Met || last {
			break
		}
	}
	out.Elapsed = time.Since(start)
	return out, nil
}

// callLimit is how long the Go side waits for a call with this budget.
func callLimit(budget time.Duration) time.Duration {
	if budget <= 0 {
		return checkLimit
	}
	return budget + min(waitGrace+budget/10, maxGrace)
}

// waitOnce runs one renderer call of a wait with the given budget. A call
// that outlives limit is a miss with nothing new seen (nil, nil).
func (s *Store) waitOnce(ctx context.Context, f Frame, c *Condition, id string, budget time.Duration, last bool, limit time.Duration) (*wireWait, error) {
	sf, err := s.lock(f)
	if err != nil {
		return nil, err
	}
	locked := true
	defer func() {
		if locked {
			sf.mu.Unlock()
		}
	}()
	if c.Locator.Ref > 0 && c.Kind != CondCount {
		if err := sf.checkRef(f, c.Locator.Ref); err != nil {
			return nil, err
		}
	}
	// The renderer watches without the store held (reads and other
	// surfaces' operations go on meanwhile), so the one ref its answer may
	// issue (the element found, an event's target) is a number kept for
	// this call alone: every operation that starts meanwhile numbers
	// after it (ADR-001, docs/adr/018).
	s.mu.Lock()
	rsv := max(sf.next, s.next)
	s.next = rsv + 1
	s.mu.Unlock()
	args := map[string]any{"c": c.wire(sf), "t": budget.Milliseconds(), "id": id, "last": last, "rsv": rsv}
	b, err := s.opArgs(f, sf, "wait", args)
	if err != nil {
		return nil, err
	}
	sf.mu.Unlock()
	locked = false
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	ro, installed, err := evalInstalling(func(install bool) (*runtime.RemoteObject, error) {
		return evaluateAwait(cctx, f, s.awaitExpr(b, install), "the wait")
	})
	sf.mu.Lock()
	locked = true
	if installed {
		sf.injections++
	}
	var r *reply
	if err == nil {
		r, err = s.take(sf, "wait", ro)
		// The number kept for this call belongs to this surface whether
		// or not the answer used it.
		s.mu.Lock()
		s.noteIssued(sf.id, rsv, rsv+1)
		s.mu.Unlock()
	}
	if err != nil {
		if ctx.Err() == nil && cctx.Err() != nil {
			return nil, nil // the renderer did not settle in time: nothing new seen
		}
		return nil, err
	}
	if r.E != nil {
		return nil, sf.toError(f, r.E)
	}
	var w wireWait
	if err := decode(r.R, &w); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a wait")
	}
	return &w, nil
}

// awaitExpr runs the wait operation and evaluates to the promise of its
// answer (or to the answer, when it failed at once; or to 0 when the
// walker is not installed and install is false). Refs remembered before
// the promise settles are carried into its answer.
func (s *Store) awaitExpr(args []byte, install bool) string {
	key := `window[Symbol.for(` + strconv.Quote(s.b.key) + `)]`
	run := `var o=U.op(` + string(args) + `);` +
		`return o&&o.r&&typeof o.r.then==='function'?o.r.then(function(v){if(o.m)v.m=v.m?o.m+'\u001e'+v.m:o.m;return v}):o`
	if !install {
		return `(function(){var U=` + key + `;if(!U)return 0;` + run + `})()`
	}
	return s.b.script + ";\n(function(){var U=" + key + ";" + run + "})()"
}

// evaluateAwait evaluates expr in the frame's context and awaits the
// promise it returns; the result comes by value.
func evaluateAwait(ctx context.Context, f Frame, expr, what string) (*runtime.RemoteObject, error) {
	yes := true
	p := runtime.EvaluateParams{
		Expression:    expr,
		ContextID:     f.ContextID,
		ReturnByValue: &yes,
		AwaitPromise:  &yes,
		Silent:        &yes,
	}
	res, err := cdpproto.Call(ctx, f.Session, runtime.Evaluate, p)
	if err != nil {
		return nil, errs.OrInternal(ctx, err, "Runtime.evaluate in surface "+f.SurfaceID)
	}
	if res.ExceptionDetails != nil {
		text := exceptionText(res.ExceptionDetails)
		if errors.Is(cdp.KindOf(text), cdp.ErrContextLost) {
			e := errs.New(errs.Internal, "%s in surface %s lost its document: %s", what, f.SurfaceID, text)
			e.Err = cdp.ErrContextLost
			return nil, e
		}
		return nil, errs.New(errs.Internal, "%s threw in surface %s: %s", what, f.SurfaceID, text)
	}
	if res.Result == nil {
		return nil, errs.New(errs.Internal, "Runtime.evaluate in surface %s returned no result", f.SurfaceID)
	}
	return res.Result, nil
}

// recoverable reports whether a failed wait call may go on after
// resolving the frame again: its context was lost, or its socket closed
// (an OOPIF that moved process; resolving again says whether the surface
// lives on).
func recoverable(err error) bool {
	if errs.CodeOf(err) == errs.CDPDisconnected {
		return true
	}
	return errors.Is(err, cdp.ErrContextLost)
}

// Pause sleeps for d unless ctx ends first; it reports whether it slept
// the whole time.
func Pause(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func waitID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
