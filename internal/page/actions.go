package page

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	cdpproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/secret"
)

// Timeouts of actions.
const (
	// DefaultActionTimeout is how long an action waits for its element to
	// become actionable when the caller does not say.
	DefaultActionTimeout = 5 * time.Second
	// MaxActionTimeout bounds an action's wait.
	MaxActionTimeout = 30 * time.Second

	// actSlice is the longest one renderer call of an action's wait runs;
	// actMargin is how much longer than its budget the call may take
	// before the Go side gives up on it.
	actSlice  = 10 * time.Second
	actMargin = 3 * time.Second
)

// Checks name the actionability checks an action needs. Each is checked
// in the element's own document, in one renderer call per look.
type Checks struct {
	// Visible: a non-empty box, and neither display:none (up the tree)
	// nor visibility:hidden.
	Visible bool `json:"visible,omitempty"`
	// Enabled: not disabled natively, by a disabled <fieldset> or
	// control around it, nor by aria-disabled on it or an ancestor.
	Enabled bool `json:"enabled,omitempty"`
	// Editable: takes text (a text field, textarea or editing host) and is
	// not read-only. An element that takes no text is BAD_ARGUMENT.
	Editable bool `json:"editable,omitempty"`
	// Scroll: scrolled into view (every scroll container and enclosing
	// frame) before it is measured.
	Scroll bool `json:"scroll,omitempty"`
	// Stable: the same box in two consecutive animation frames.
	Stable bool `json:"stable,omitempty"`
	// Point: the centre of its first box, clipped to the viewport, is
	// inside the viewport.
	Point bool `json:"point,omitempty"`
	// Hit: that point reaches the element (or a descendant, or its label)
	// in its document; otherwise the answer names what covers it.
	Hit bool `json:"hit,omitempty"`
}

// PointerChecks are the checks of a pointer action: all of them but
// Editable.
func PointerChecks() Checks {
	return Checks{Visible: true, Enabled: true, Scroll: true, Stable: true, Point: true, Hit: true}
}

// Offset is a point within an element, in CSS pixels from its border
// box's top-left corner.
type Offset struct{ X, Y float64 }

// Action is one interaction on an element: the checks it needs, what to
// arm, and the renderer action to run once they pass (in the same call).
type Action struct {
	Checks Checks
	// Force skips the checks (the element must still exist); a point is
	// still computed when Checks.Point asks for it, and pointer input
	// still goes through the browser's own hit-testing.
	Force bool
	// Arm, when set ("mousedown", "pointerdown", "mousemove"), arms a one-shot listener
	// for that event once the checks pass: [Store.ActReceived] then says
	// whether the next such event reached the element.
	Arm string
	// Name is the renderer action (see actions.js ACTIONS) and Args its
	// arguments.
	Name string
	Args map[string]any
	// Pos, when set, is the point of a pointer action within the element
	// (CSS pixels from its border box's top-left corner) instead of the
	// centre of its first box.
	Pos *Offset
	// To is a second element (a drag's target): it must exist and be
	// visible, and its centre comes back in Acted.ToX/ToY.
	To *Locator
	// Early asks for the point as soon as every check but stability
	// passes on the first look, without waiting for a frame (Acted.Early):
	// the caller moves the mouse there, which takes a frame, and calls
	// Act again, whose first look then completes the stability check.
	Early bool
	// Mixed says the window holds frames of other processes: after a
	// scroll the checks then also wait until the new layout has been
	// presented, which is when the browser's input routing follows it
	// (a document with frames of other origins waits anyway).
	Mixed bool
}

// Acted is what [Store.Act] found and did.
type Acted struct {
	// X, Y is the point (Checks.Point), in the frame's viewport.
	X, Y float64
	// There says the mouse already rests at that point, on the element
	// (the document saw it move there and not leave): a click can skip
	// the move.
	There bool
	// Scrolled says the element's document scrolled during the checks or
	// shortly before them (a scroll event in the last second). Chromium
	// routes pointer input between renderers by hit-test data that lags a
	// scroll until a frame is presented, so a pointer action then makes
	// sure the pointer reached the element before it presses.
	Scrolled bool
	// Foreign says the element's document holds frames of other origins,
	// which Chromium may render in other processes (set with Scrolled).
	Foreign bool
	// Box is the element's first box in the frame's viewport (Checks.Point
	// or Checks.Stable).
	Box *Rect
	// ToX, ToY is the centre of Action.To, ToBox its first box.
	ToX, ToY float64
	ToBox    *Rect
	// Out is the renderer action's result.
	Out json.RawMessage
	// Waited is how long the checks took to pass.
	Waited time.Duration
	// Early: the answer to Action.Early. Only X, Y and There are set;
	// nothing ran and nothing was armed.
	Early bool
	// Changed lists the refs (the element's, Action.To's) whose element
	// showed another role or name than the agent last saw, which the
	// locator allowed (Locator.AllowChanged).
	Changed []RefChange
}

// wireAct is the renderer's answer to act.
type wireAct struct {
	OK      bool   `json:"ok"`
	Why     string `json:"why"`
	Message string `json:"message"`
	// Quiet is how long the page had been quiet when a selector that
	// matches nothing ended the wait early (Locator.QuietMiss).
	Quiet    int64           `json:"quiet,omitempty"`
	Covering *Covering       `json:"covering"`
	X        float64         `json:"x"`
	Y        float64         `json:"y"`
	There    bool            `json:"there"`
	Scrolled bool            `json:"scrolled"`
	Foreign  bool            `json:"foreign"`
	Box      *Rect           `json:"box"`
	ToX      float64         `json:"toX"`
	ToY      float64         `json:"toY"`
	ToBox    *Rect           `json:"toBox"`
	Out      json.RawMessage `json:"out"`
	Changed  []RefChange     `json:"changed"`
}

// CheckTimeout validates an action's timeout: 0 means the default.
func CheckTimeout(field string, ms int) (time.Duration, error) {
	switch {
	case ms < 0 || time.Duration(ms)*time.Millisecond > MaxActionTimeout:
		return 0, errs.BadArg(field, "must be between 0 and %d (0: the default %d)", MaxActionTimeout.Milliseconds(), DefaultActionTimeout.Milliseconds())
	case ms == 0:
		return DefaultActionTimeout, nil
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// Act waits until the element passes the action's checks, then runs the
// action, in the renderer. The renderer looks again at every animation
// frame (one call covers up to 10 s), so a late element, one that is still
// animating, or one under a toast is waited for without round trips.
// After timeout the last failure is the error: SELECTOR_NO_MATCH (nothing
// matches), ELEMENT_NOT_VISIBLE (hidden, outside the viewport, moving, or
// covered — the error names what covers it), ELEMENT_DISABLED (disabled or
// read-only). A ref that is not live is REF_NOT_FOUND at once, one whose
// element shows another role or name than the agent last saw REF_STALE at
// once (unless Locator.AllowChanged; Acted.Changed then reports it);
// errors of the action itself (BAD_ARGUMENT, ELEMENT_DISABLED,
// TYPE_NO_EFFECT) too. Everything the page may still change (missing,
// hidden, zero size, moving, disabled, covered) is waited for: see
// "When an action fails at once" in docs/tools.md.
func (s *Store) Act(ctx context.Context, f Frame, l Locator, a Action, timeout time.Duration) (*Acted, error) {
	if err := l.Check(); err != nil {
		return nil, err
	}
	if a.To != nil {
		if err := a.To.Check(); err != nil {
			return nil, err
		}
	}
	if timeout < 0 || timeout > MaxActionTimeout {
		return nil, errs.BadArg("timeoutMs", "must be between 0 and %d", MaxActionTimeout.Milliseconds())
	}
	start := time.Now()
	deadline := start.Add(timeout)
	losses := 0
	for {
		budget := min(max(0, time.Until(deadline)), actSlice)
		w, err := s.actOnce(ctx, f, l, &a, budget)
		if err != nil {
			// A document replaced under a target's root frame: look
			// again in the new one (an in-process frame's context id is
			// the caller's to resolve again).
			if ctx.Err() == nil && f.ContextID == 0 && errors.Is(err, cdp.ErrContextLost) && losses < 3 && time.Now().Before(deadline) {
				losses++
				if !Pause(ctx, 25*time.Millisecond) {
					return nil, err
				}
				continue
			}
			return nil, err
		}
		if w != nil && w.Why == "early" {
			return &Acted{X: w.X, Y: w.Y, There: w.There, Scrolled: w.Scrolled, Early: true}, nil
		}
		if w != nil && w.OK {
			return &Acted{X: w.X, Y: w.Y, There: w.There, Scrolled: w.Scrolled, Foreign: w.Foreign, Box: w.Box, ToX: w.ToX, ToY: w.ToY, ToBox: w.ToBox, Out: w.Out, Changed: w.Changed, Waited: time.Since(start)}, nil
		}
		if !time.Now().Before(deadline) || w != nil && w.Quiet > 0 {
			return nil, missError(w, time.Since(start))
		}
	}
}

// missError turns the last failed look into the action's error.
func missError(w *wireAct, waited time.Duration) error {
	if w == nil {
		return errs.New(errs.ElementNotVisible, "the element did not become actionable within %s (the renderer did not answer in time)", roundMS(waited))
	}
	after := ""
	if waited >= 50*time.Millisecond {
		after = " (waited " + roundMS(waited) + ")"
	}
	var e *errs.Error
	switch w.Why {
	case "missing":
		e = errs.New(errs.SelectorNoMatch, "%s%s", w.Message, after)
		if w.Quiet > 0 {
			e = errs.New(errs.SelectorNoMatch, "%s%s: the page had been quiet for %d ms (no DOM change, loaded), so it was not waited for to the timeout; pass timeoutMs to wait for a selector the page will render later", w.Message, after, w.Quiet)
			e.With("quiet_ms", w.Quiet)
		}
	case "disabled", "readonly":
		e = errs.New(errs.ElementDisabled, "%s%s", w.Message, after)
	case "covered":
		msg := w.Message
		if w.Covering != nil {
			msg += ": covered by " + w.Covering.String()
		}
		e = errs.New(errs.ElementNotVisible, "%s%s", msg, after)
		e.Hint = "Something covers the element (named in the message and details.covering): close or wait for it (a dialog, toast or banner), or act on it first. force:true clicks anyway, and the cover then gets the click."
		if w.Covering != nil {
			e.With("covering", w.Covering)
			if strings.Contains(w.Covering.Tag, "-") {
				e.Hint = "A web component (<" + w.Covering.Tag + ">) covers the element. If that component is what you mean, act on it (selector " +
					strconv.Quote(w.Covering.Selector) + ", or ref " + strconv.Itoa(w.Covering.Ref) + "); selectors reach into its shadow root (host >>> inner). Otherwise close or wait for it."
			}
		}
	default:
		e = errs.New(errs.ElementNotVisible, "%s%s", w.Message, after)
	}
	return e.With("reason", w.Why)
}

func roundMS(d time.Duration) string { return d.Round(time.Millisecond).String() }

// String describes the covering element for a message: role, name and
// selector.
func (c *Covering) String() string {
	if c.Tag == "" && c.Selector == "" && c.Role == "" {
		return "nothing (the point is outside the enclosing document)"
	}
	s := c.Role
	if s == "" {
		s = c.Tag
	}
	if c.Name != "" {
		s += " " + strconv.Quote(c.Name)
	}
	if c.Selector != "" {
		s += " (" + c.Selector + ")"
	}
	return s
}

// actOnce runs one renderer call of Act with the given budget. A call that
// outlives its budget by actMargin is a failed look with nothing seen
// (nil).
func (s *Store) actOnce(ctx context.Context, f Frame, l Locator, a *Action, budget time.Duration) (*wireAct, error) {
	sf, args, err := s.lockLocated(f, l)
	if err != nil {
		return nil, err
	}
	defer sf.mu.Unlock()
	for k, v := range a.Args {
		args[k] = v
	}
	args["checks"] = a.Checks
	if a.Pos != nil {
		args["pos"] = map[string]float64{"x": a.Pos.X, "y": a.Pos.Y}
	}
	if a.Force {
		args["force"] = true
	}
	if a.Arm != "" {
		args["arm"] = a.Arm
	}
	if a.Name != "" {
		args["action"] = a.Name
	}
	if a.Early {
		args["early"] = true
	}
	if a.Mixed {
		args["mixed"] = true
	}
	if a.To != nil {
		if a.To.Ref > 0 {
			if err := sf.checkRef(f, a.To.Ref); err != nil {
				return nil, err
			}
		}
		args["to"] = sf.locArgs(*a.To)
	}
	args["budget"] = budget.Milliseconds()
	cctx, cancel := context.WithTimeout(ctx, budget+actMargin)
	defer cancel()
	r, err := s.callAwait(cctx, f, sf, "act", args)
	if err != nil {
		if ctx.Err() == nil && cctx.Err() != nil {
			return nil, nil
		}
		return nil, err
	}
	if r.E != nil {
		return nil, actError(sf, f, r.E)
	}
	var w wireAct
	if err := decode(r.R, &w); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding the answer to an action")
	}
	return &w, nil
}

// actError maps a renderer failure of an action to a coded error.
func actError(sf *surface, f Frame, we *wireError) error {
	switch errs.Code(we.Code) {
	case errs.ElementDisabled, errs.TypeNoEffect:
		return errs.New(errs.Code(we.Code), "%s", we.Message)
	}
	return sf.toError(f, we)
}

// callAwait runs one walker operation that may answer with a promise (the
// actions' waits), awaiting it: one round trip when the walker is
// installed, two when it must be installed first. sf must be locked.
func (s *Store) callAwait(ctx context.Context, f Frame, sf *surface, op string, args map[string]any) (*reply, error) {
	b, err := s.opArgs(f, sf, op, args)
	if err != nil {
		return nil, err
	}
	return s.exchange(sf, op, func(install bool) (*runtime.RemoteObject, error) {
		return evaluateAwait(ctx, f, s.actExpr(b, install), "an action")
	})
}

// actExpr runs an operation and, when its result is a promise (of
// {r}|{e} with the refs issued meanwhile, see later() in actions.js),
// evaluates to the promise of the whole answer; to 0 when the walker is
// not installed and install is false.
func (s *Store) actExpr(args []byte, install bool) string {
	run := `(function(U){if(!U)return 0;var o=U.op(` + string(args) + `);var p=o.r;` +
		`if(!p||typeof p.then!=='function')return o;` +
		`return p.then(function(x){if(x.e){o.e=x.e;delete o.r}else o.r=x.r;` +
		`if(x.n>o.n)o.n=x.n;if(x.m)o.m=o.m?o.m+'\u001e'+x.m:x.m;return o})` +
		`})(window[Symbol.for(` + strconv.Quote(s.b.key) + `)])`
	if install {
		return s.b.script + ";\n" + run
	}
	return run
}

// Receipt says whether the event armed by an action reached its element.
type Receipt struct {
	// Armed is false when nothing was armed (no action ran since).
	Armed bool `json:"armed"`
	// Got: the event reached the element.
	Got bool `json:"got"`
	// Seen: the element's document saw the event at all. Not seen means
	// something outside the document (over its frame) took it.
	Seen bool `json:"seen"`
	// What took it instead, when it was in the element's document.
	What *Covering `json:"what"`
	// Changed: a press renamed the element it reached (a toggle), against
	// what the agent last saw of its ref; the agent has seen it now.
	Changed *RefChange `json:"changed"`
}

// PointElement is an element at a point, as a pointer action there reports
// it.
type PointElement struct {
	Ref      int    `json:"ref"`
	Role     string `json:"role"`
	Name     string `json:"name,omitempty"`
	Tag      string `json:"tag"`
	ID       string `json:"id,omitempty"`
	Selector string `json:"selector"`
}

// AtPoint is what a frame's document has at a point of its viewport.
type AtPoint struct {
	// Target is the element at the point (in open shadow roots too).
	Target PointElement `json:"target"`
	// Over is the first element under Target at the point that is not
	// its ancestor: Target is an overlay over it. Nil when none is.
	Over *PointElement `json:"over,omitempty"`
	// There: the mouse already rests at the point, on Target.
	There    bool `json:"there"`
	Viewport struct {
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"viewport"`
}

// ActAt looks at the point (x, y) of the frame's viewport for a pointer
// action there and, with arm ("pointerdown", "mousemove"), arms the
// receipt of the next such event against the element found
// ([Store.ActReceived]). A point outside the viewport is BAD_ARGUMENT
// naming x or y.
func (s *Store) ActAt(ctx context.Context, f Frame, x, y float64, arm string) (*AtPoint, error) {
	args := map[string]any{"x": x, "y": y}
	if arm != "" {
		args["arm"] = arm
	}
	return execAs[AtPoint](ctx, s, f, "actPoint", args, "the element at a point")
}

// MarkView remembers what the document shows now (every rendered text and
// form value in view, with its box), for [Store.ViewChange].
func (s *Store) MarkView(ctx context.Context, f Frame) error {
	_, err := s.exec(ctx, f, "viewMark", nil)
	return err
}

// ViewChange compares what the document shows now with the last
// [Store.MarkView] (Changed -1 when there was none, e.g. the document was
// replaced since).
func (s *Store) ViewChange(ctx context.Context, f Frame) (*NetChange, error) {
	return execAs[NetChange](ctx, s, f, "viewChange", nil, "a change of the view")
}

// ActReceived reads and disarms the receipt armed by the last [Store.Act]
// with Action.Arm.
func (s *Store) ActReceived(ctx context.Context, f Frame) (*Receipt, error) {
	return execAs[Receipt](ctx, s, f, "actReceived", nil, "a receipt")
}

// execAs runs a document-wide operation (no locator) and decodes its
// answer; what names it for an error.
func execAs[T any](ctx context.Context, s *Store, f Frame, op string, args map[string]any, what string) (*T, error) {
	raw, err := s.exec(ctx, f, op, args)
	if err != nil {
		return nil, err
	}
	var out T
	if err := decode(raw, &out); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding "+what)
	}
	return &out, nil
}

// DragReport is what an HTML drag watched with the dragWatch action did,
// as the page saw it.
type DragReport struct {
	// Watching: a drag was being watched in the document (false when the
	// document was replaced meanwhile).
	Watching bool `json:"watching"`
	// Started: dragstart fired on the source and the page let it start.
	Started bool `json:"started"`
	// StartSeen: dragstart fired (maybe cancelled).
	StartSeen bool `json:"start_seen"`
	// Trusted: the dragstart came from the browser (isTrusted).
	Trusted bool `json:"trusted"`
	// Accepted: the target's last dragover was cancelled, so it takes the
	// drop.
	Accepted bool `json:"accepted"`
	Dropped  bool `json:"dropped"`
	// DropPrevented: the page handled the drop itself.
	DropPrevented bool `json:"drop_prevented"`
	Ended         bool `json:"ended"`
	// Order is the list order the drag left, for a drag between two
	// children of one parent (nil otherwise, or with expect "drop").
	Order *DragOrder `json:"order,omitempty"`
	// SourceMoved: the source is in another parent or at another index
	// than before the drag; Source says where.
	SourceMoved bool       `json:"source_moved"`
	Source      *DragPlace `json:"source,omitempty"`
	// Net is the document's net change during the drag (a settled report
	// only; nil when it could not be watched).
	Net *NetChange `json:"net,omitempty"`
	// Animating: the settle wait ended while a drop animation still ran.
	Animating bool `json:"animating,omitempty"`
}

// NetChange is how what the document shows differs from before a drag:
// the rendered elements in the viewport with text of their own or a form
// value, each as its text and box, compared as multisets. A ghost drawn
// and removed, styling set and cleared, hover effects and attributes the
// page rewrites without changing what it draws do not count.
type NetChange struct {
	Changed int    `json:"changed"`
	First   string `json:"first,omitempty"`
}

// DragPlace is where a dragged element is: its parent (a selector), its
// index among the parent's rendered element children, and whether that is
// beside the target (in the target's parent) or inside the target.
type DragPlace struct {
	Parent       string `json:"parent"`
	Index        int    `json:"index"`
	BesideTarget bool   `json:"beside_target"`
	InsideTarget bool   `json:"inside_target"`
}

// DragOrder is the order of the parent's rendered element children after
// a drag of one of them onto another (indices count only children with a
// box).
type DragOrder struct {
	// Reorder: the drag is a reorder (the caller said so, the parent is a
	// list, the two are items of one kind, or the page changed the
	// parent's children during the drag).
	Reorder bool `json:"reorder"`
	// From and Target are the source's and the target's indices before
	// the drag; Index is the source's now (-1 when it left the parent).
	From   int `json:"from"`
	Target int `json:"target"`
	Index  int `json:"index"`
	// Replaced: the page replaced the source element; Index is that of
	// the one item with its label.
	Replaced bool `json:"replaced"`
	// AtTarget labels the item now at the target's old index; Item the
	// source.
	AtTarget string `json:"at_target"`
	Item     string `json:"item"`
	// Moved: the order changed; InPlace: the source is at Target.
	Moved   bool `json:"moved"`
	Mutated bool `json:"mutated"`
	InPlace bool `json:"in_place"`
	// Order and Before label the items now and before (at most 50).
	Order  []string `json:"order"`
	Before []string `json:"before"`
}

// DragReport reads the watched drag; with peek it keeps watching.
func (s *Store) DragReport(ctx context.Context, f Frame, peek bool) (*DragReport, error) {
	return execAs[DragReport](ctx, s, f, "dragReport", map[string]any{"peek": peek}, "a drag report")
}

// DragSettled reads the watched drag and stops watching; for a drag within
// a list it first waits (up to budget) until the source is in the
// target's slot or the order holds still for three frames.
func (s *Store) DragSettled(ctx context.Context, f Frame, budget time.Duration) (*DragReport, error) {
	raw, err := s.settled(ctx, f, "dragReport", budget)
	if err != nil {
		return nil, err
	}
	var out DragReport
	if err := decode(raw, &out); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a drag report")
	}
	return &out, nil
}

// TextState is what a text target holds.
type TextState struct {
	// Text is a secret when the target is a password field.
	Text secret.String `json:"text"`
	// Editable: the element takes text (a field or an editing host).
	Editable bool `json:"editable"`
	Focused  bool `json:"focused"`
	// FocusKind is what the document's focused element (wherever it is)
	// takes text as: "value" (an input or a text area, such as a code
	// editor's hidden input area), "editable" (an editing host), or "".
	FocusKind string `json:"focus_kind"`
}

// UnmarshalJSON reads the page's answer: a password field's text is a
// secret from here on.
func (t *TextState) UnmarshalJSON(b []byte) error {
	var a struct {
		Text      string `json:"text"`
		Editable  bool   `json:"editable"`
		Focused   bool   `json:"focused"`
		FocusKind string `json:"focus_kind"`
		Secret    bool   `json:"secret"`
	}
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	*t = TextState{Text: secret.Maybe(a.Text, a.Secret), Editable: a.Editable, Focused: a.Focused, FocusKind: a.FocusKind}
	return nil
}

// ActText reads a text target: a field's value or an editing host's text
// (non-breaking spaces as spaces), and whether it has the focus.
func (s *Store) ActText(ctx context.Context, f Frame, l Locator) (*TextState, error) {
	return readAs[TextState](ctx, s, f, l, "actText", nil)
}

// CheckState is the checked state of a checkbox, radio or switch.
type CheckState struct {
	Checked bool `json:"checked"`
	Mixed   bool `json:"mixed"`
	Radio   bool `json:"radio"`
}

// ActChecked reads whether a checkbox, radio, switch (or the control of a
// label) is checked; another element is BAD_ARGUMENT.
func (s *Store) ActChecked(ctx context.Context, f Frame, l Locator) (*CheckState, error) {
	return readAs[CheckState](ctx, s, f, l, "actChecked", nil)
}

// ViewportCenter returns the centre of the frame's viewport and its scroll
// state, and makes the window the scroll target of [Store.ScrollSettled].
func (s *Store) ViewportCenter(ctx context.Context, f Frame) (x, y float64, scroll *ScrollState, err error) {
	raw, err := s.exec(ctx, f, "actViewport", nil)
	if err != nil {
		return 0, 0, nil, err
	}
	var v struct {
		X, Y   float64
		Scroll *ScrollState
	}
	if err := decode(raw, &v); err != nil {
		return 0, 0, nil, errs.Wrap(errs.Internal, err, "decoding the viewport")
	}
	return v.X, v.Y, v.Scroll, nil
}

// ScrollSettled waits (up to budget) until the scroll positions of the
// window and of the last scroll action's container hold still, and
// returns them.
func (s *Store) ScrollSettled(ctx context.Context, f Frame, budget time.Duration) (*ScrollState, error) {
	raw, err := s.settled(ctx, f, "actScrollSettled", budget)
	if err != nil {
		return nil, err
	}
	var st ScrollState
	if err := decode(raw, &st); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a scroll state")
	}
	return &st, nil
}

// settled runs an operation that waits in the renderer (up to budget) for
// the page to hold still, and returns its raw answer.
func (s *Store) settled(ctx context.Context, f Frame, op string, budget time.Duration) (json.RawMessage, error) {
	sf, err := s.lock(f)
	if err != nil {
		return nil, err
	}
	defer sf.mu.Unlock()
	cctx, cancel := context.WithTimeout(ctx, budget+actMargin)
	defer cancel()
	r, err := s.callAwait(cctx, f, sf, op, map[string]any{"budget": budget.Milliseconds()})
	if err != nil {
		return nil, err
	}
	if r.E != nil {
		return nil, sf.toError(f, r.E)
	}
	return r.R, nil
}

// FileInfo is a file an input holds.
type FileInfo struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	Type string `json:"type"`
}

// SetFiles puts files (absolute paths the browser can read) into an
// <input type=file> with DOM.setFileInputFiles, which fires input and
// change as a real choice does, and returns what the input holds then. The
// input may be hidden (file inputs often are); it must exist (waited for
// up to timeout), be enabled, and take multiple files when given several.
func (s *Store) SetFiles(ctx context.Context, f Frame, l Locator, paths []string, timeout time.Duration) ([]FileInfo, error) {
	if _, err := s.Act(ctx, f, l, Action{Name: "fileInput", Args: map[string]any{"count": len(paths)}}, timeout); err != nil {
		return nil, err
	}
	el, err := s.Resolve(ctx, f, l)
	if err != nil {
		return nil, err
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_, _ = cdpproto.Call(rctx, f.Session, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: el.ObjectID})
	}()
	if paths == nil {
		paths = []string{}
	}
	if _, err := cdpproto.Call(ctx, f.Session, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: paths, ObjectID: el.ObjectID}); err != nil {
		return nil, errs.OrInternal(ctx, err, "DOM.setFileInputFiles in surface "+f.SurfaceID)
	}
	var files []FileInfo
	if err := s.read(ctx, f, l, "actFiles", nil, &files); err != nil {
		return nil, err
	}
	if files == nil {
		files = []FileInfo{}
	}
	return files, nil
}

// DropFile is a file dropped by [Store.DropFiles]: its name, MIME type and
// bytes.
type DropFile struct {
	Name     string
	Type     string
	Data     []byte
	Modified time.Time
}

// Drop is what a synthetic drop did.
type Drop struct {
	// Accepted: the page cancelled dragover (it takes drops there).
	Accepted bool `json:"accepted"`
	// Dropped: drop was dispatched (only after an accepted dragover).
	Dropped bool `json:"dropped"`
	// DefaultPrevented: the page's drop handler called preventDefault
	// (it handled the files itself).
	DefaultPrevented bool `json:"default_prevented"`
	Files            int  `json:"files"`
}

// DropFiles drops files onto the element with synthetic drag events
// (dragenter, dragover, then drop or dragleave) that carry one
// DataTransfer holding File objects built from the bytes. The element must
// be visible (it is scrolled into view); the events go to what is at its
// centre when that is inside it.
func (s *Store) DropFiles(ctx context.Context, f Frame, l Locator, files []DropFile, timeout time.Duration) (*Drop, error) {
	wire := make([]map[string]any, len(files))
	for i, fl := range files {
		m := map[string]any{"name": fl.Name, "type": fl.Type, "data": fl.Data}
		if !fl.Modified.IsZero() {
			m["modified"] = fl.Modified.UnixMilli()
		}
		wire[i] = m
	}
	a := Action{Checks: Checks{Visible: true, Scroll: true, Point: true}, Name: "dropFiles", Args: map[string]any{"files": wire}}
	acted, err := s.Act(ctx, f, l, a, timeout)
	if err != nil {
		return nil, err
	}
	var d Drop
	if err := decode(acted.Out, &d); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a drop")
	}
	return &d, nil
}
