package page

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/chromedp/cdproto/runtime"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/secret"
)

// Limits of element reads.
const (
	DefaultListLimit = 50
	MaxListLimit     = 200
	// MaxTextChars bounds GetText.
	MaxTextChars = 20000
)

// Locator names one element of a surface: a Ref from a snapshot, find or
// list of that surface, or a CSS Selector evaluated in the surface's
// document. Selectors pierce open shadow roots: descendant and child
// combinators step from a shadow tree to its host, and ">>>" is an
// explicit descendant combinator across shadow roots; document matches
// come first, then those in shadow roots. Exactly one of Ref and Selector
// is set.
type Locator struct {
	Ref      int
	Selector string
	// AllowChanged lets an action ([Store.Act]) use a ref whose element
	// now shows another role or name than the agent last saw (otherwise
	// REF_STALE); the action's answer reports the change (Acted.Changed).
	AllowChanged bool
	// QuietMiss, when set, ends an action's wait for a selector that
	// matches nothing once the page has been quiet that long (no DOM
	// mutation, its document loaded): a selector that cannot match fails
	// then, not at the timeout. Actions set it when the caller gave no
	// timeout of its own (issue 30).
	QuietMiss time.Duration
}

// Check validates the locator: exactly one of Ref and Selector.
func (l Locator) Check() error {
	switch {
	case l.Ref < 0:
		return errs.BadArg("ref", "must be a positive integer, not %d", l.Ref)
	case l.Ref > 0 && l.Selector != "":
		return errs.BadArg("ref", "pass ref or selector, not both")
	case l.Ref == 0 && strings.TrimSpace(l.Selector) == "":
		return errs.BadArg("selector", "pass a ref or a selector")
	}
	return nil
}

// lockLocated locks the frame's state and checks a locator's ref there. It
// returns the state, locked (the caller unlocks it), and the locator's
// renderer arguments.
func (s *Store) lockLocated(f Frame, l Locator) (*surface, map[string]any, error) {
	sf, err := s.lock(f)
	if err != nil {
		return nil, nil, err
	}
	if l.Ref > 0 {
		if err := sf.checkRef(f, l.Ref); err != nil {
			sf.mu.Unlock()
			return nil, nil, err
		}
	}
	return sf, sf.locArgs(l), nil
}

// args are the walker arguments that name the element; for a ref they also
// say what it was, so a dead ref can be answered with similar refs.
func (sf *surface) locArgs(l Locator) map[string]any {
	a := map[string]any{}
	if l.AllowChanged {
		a["allow"] = true
	}
	if l.Ref > 0 {
		a["ref"] = l.Ref
		if k, ok := sf.known[l.Ref]; ok {
			a["want"] = map[string]string{"role": k.role, "name": k.name}
		}
	} else {
		a["sel"] = l.Selector
		if l.QuietMiss > 0 {
			a["quiet"] = l.QuietMiss.Milliseconds()
		}
	}
	return a
}

// read runs one element operation and decodes its result into out.
func (s *Store) read(ctx context.Context, f Frame, l Locator, op string, extra map[string]any, out any) error {
	if err := l.Check(); err != nil {
		return err
	}
	sf, args, err := s.lockLocated(f, l)
	if err != nil {
		return err
	}
	defer sf.mu.Unlock()
	for k, v := range extra {
		args[k] = v
	}
	r, err := s.call(ctx, f, sf, op, args)
	if err != nil {
		return err
	}
	if r.E != nil {
		return sf.toError(f, r.E)
	}
	if err := decode(r.R, out); err != nil {
		return errs.Wrap(errs.Internal, err, "decoding "+op)
	}
	return nil
}

// Element is a resolved element: a remote object in the frame's context,
// in object group [ObjectGroup].
type Element struct {
	ObjectID runtime.RemoteObjectID
	// Ref is the locator's ref (0 for a selector).
	Ref int
	// Description is the browser's short description (tag#id.class).
	Description string
}

// Resolve returns the element a locator names: REF_NOT_FOUND (with similar
// refs) for a ref that is not live in this surface, SELECTOR_NO_MATCH for
// a selector that matches nothing.
func (s *Store) Resolve(ctx context.Context, f Frame, l Locator) (*Element, error) {
	if err := l.Check(); err != nil {
		return nil, err
	}
	sf, args, err := s.lockLocated(f, l)
	if err != nil {
		return nil, err
	}
	defer sf.mu.Unlock()
	args["ns"] = s.token + "/" + f.SurfaceID
	args["next"] = sf.next
	b, err := json.Marshal(args)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "encoding a locator")
	}
	ro, err := evaluate(ctx, f, s.opExpr("resolve", b), false, ObjectGroup)
	if err != nil {
		return nil, err
	}
	if isZero(ro) {
		sf.injections++
		if ro, err = evaluate(ctx, f, s.installExpr("resolve", b), false, ObjectGroup); err != nil {
			return nil, err
		}
	}
	if ro.Type == runtime.RemoteObjectTypeString {
		var text string
		var r reply
		if err := json.Unmarshal(ro.Value, &text); err != nil || json.Unmarshal([]byte(text), &r) != nil {
			return nil, errs.New(errs.Internal, "resolve: unexpected answer %s", ro.Value)
		}
		sf.absorb(&r)
		if r.E != nil {
			return nil, sf.toError(f, r.E)
		}
		return nil, errs.New(errs.Internal, "resolve: no element and no error")
	}
	if ro.ObjectID == "" || ro.Subtype != runtime.RemoteObjectSubtypeNode {
		return nil, errs.New(errs.Internal, "resolve: expected an element, got %s %s", ro.Type, ro.Subtype)
	}
	return &Element{ObjectID: ro.ObjectID, Ref: l.Ref, Description: ro.Description}, nil
}

// Exists reports whether the locator names a live element. A dead or
// foreign ref is false, not an error; a bad selector is BAD_ARGUMENT.
func (s *Store) Exists(ctx context.Context, f Frame, l Locator) (bool, error) {
	if err := l.Check(); err != nil {
		return false, err
	}
	sf, err := s.lock(f)
	if err != nil {
		return false, err
	}
	defer sf.mu.Unlock()
	if l.Ref > 0 && l.Ref >= sf.next {
		return false, nil
	}
	args := sf.locArgs(l)
	args["kind"] = "exists"
	r, err := s.call(ctx, f, sf, "read", args)
	if err != nil {
		return false, err
	}
	if r.E != nil {
		return false, sf.toError(f, r.E)
	}
	var ok bool
	if err := decode(r.R, &ok); err != nil {
		return false, errs.Wrap(errs.Internal, err, "decoding exists")
	}
	return ok, nil
}

// TextRead is an element's text.
type TextRead struct {
	// Text is a secret when the element is a password field.
	Text      secret.String `json:"text"`
	Truncated bool          `json:"truncated,omitempty"`
	// Length is the length of the whole text, in UTF-16 code units.
	Length int `json:"length"`
}

// UnmarshalJSON reads the page's answer: a password field's text is a
// secret from here on.
func (t *TextRead) UnmarshalJSON(b []byte) error {
	var a struct {
		Text      string `json:"text"`
		Truncated bool   `json:"truncated"`
		Length    int    `json:"length"`
		Secret    bool   `json:"secret"`
	}
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	*t = TextRead{Text: secret.Maybe(a.Text, a.Secret), Truncated: a.Truncated, Length: a.Length}
	return nil
}

// GetText returns the element's rendered text (innerText; the value of a
// text field; the chosen labels of a select), at most MaxTextChars.
func (s *Store) GetText(ctx context.Context, f Frame, l Locator) (*TextRead, error) {
	var t TextRead
	if err := s.read(ctx, f, l, "read", map[string]any{"kind": "text", "max": MaxTextChars}, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// Value is a form value.
type Value struct {
	// Value is a secret when the element is a password field.
	Value secret.String `json:"value"`
	// Label is the visible text of the chosen option(s) of a select.
	Label string `json:"label,omitempty"`
	// Values are the chosen values of a multiple select.
	Values []string `json:"values,omitempty"`
	// Checked is set for checkboxes and radios.
	Checked *bool `json:"checked,omitempty"`
}

// UnmarshalJSON reads the page's answer: a password field's value is a
// secret from here on.
func (v *Value) UnmarshalJSON(b []byte) error {
	var a struct {
		Value   string   `json:"value"`
		Label   string   `json:"label"`
		Values  []string `json:"values"`
		Checked *bool    `json:"checked"`
		Secret  bool     `json:"secret"`
	}
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	*v = Value{Value: secret.Maybe(a.Value, a.Secret), Label: a.Label, Values: a.Values, Checked: a.Checked}
	return nil
}

// GetValue returns the element's value: a field's value, a select's
// value(s), a checkbox's value and checked state, an editing host's text,
// an ARIA range's aria-valuetext or aria-valuenow.
func (s *Store) GetValue(ctx context.Context, f Frame, l Locator) (*Value, error) {
	return readAs[Value](ctx, s, f, l, "read", map[string]any{"kind": "value"})
}

// GetAttribute returns the attribute's value, or nil when the element does
// not have it. The value attribute of a password field is a secret.
func (s *Store) GetAttribute(ctx context.Context, f Frame, l Locator, name string) (*secret.String, error) {
	if strings.TrimSpace(name) == "" {
		return nil, errs.BadArg("name", "name the attribute")
	}
	var a struct {
		Present bool   `json:"present"`
		Value   string `json:"value"`
		Secret  bool   `json:"secret"`
	}
	if err := s.read(ctx, f, l, "read", map[string]any{"kind": "attr", "name": name}, &a); err != nil {
		return nil, err
	}
	if !a.Present {
		return nil, nil
	}
	v := secret.Maybe(a.Value, a.Secret)
	return &v, nil
}

// ElementState is the full state of an element. Expanded is nil when the
// element does not expand, Pressed when it is not a toggle button.
type ElementState struct {
	Visible  bool  `json:"visible"`
	Enabled  bool  `json:"enabled"`
	Disabled bool  `json:"disabled"`
	Checked  Tri   `json:"checked"`
	Selected bool  `json:"selected"`
	Expanded *bool `json:"expanded"`
	Pressed  *Tri  `json:"pressed"`
	Focused  bool  `json:"focused"`
	Readonly bool  `json:"readonly"`
	Required bool  `json:"required"`
	Invalid  bool  `json:"invalid"`
	Busy     bool  `json:"busy"`
}

// Control is the action a form control takes, judged in the page as the
// actions judge it: "select", "file", "value" (what SetValue sets),
// "checkbox" (what Checked takes) or "text".
type Control struct {
	Kind string `json:"kind"`
}

// GetControl says what kind of control the element is.
func (s *Store) GetControl(ctx context.Context, f Frame, l Locator) (*Control, error) {
	return readAs[Control](ctx, s, f, l, "control", nil)
}

// ControlWithin is GetControl of an element that may not be there yet:
// it resolves the frame afresh and asks again every 100 ms while nothing
// matches loc, for at most timeout.
func (s *Store) ControlWithin(ctx context.Context, frame FrameFunc, l Locator, timeout time.Duration) (*Control, error) {
	deadline := time.Now().Add(timeout)
	for {
		f, err := frame(ctx)
		if err != nil {
			return nil, err
		}
		ctl, err := s.GetControl(ctx, f, l)
		if err == nil || errs.CodeOf(err) != errs.SelectorNoMatch || time.Now().After(deadline) {
			return ctl, err
		}
		select {
		case <-ctx.Done():
			return nil, errs.FromContext(ctx, errs.OperationTimeout, "waiting for the field")
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// GetState returns the element's state.
func (s *Store) GetState(ctx context.Context, f Frame, l Locator) (*ElementState, error) {
	return readAs[ElementState](ctx, s, f, l, "read", map[string]any{"kind": "state"})
}

// BBoxes are an element's border box in the frame's viewport and in its
// document (viewport + scroll).
type BBoxes struct {
	Viewport Rect `json:"viewport"`
	Document Rect `json:"document"`
}

// GetBBox returns the element's box.
func (s *Store) GetBBox(ctx context.Context, f Frame, l Locator) (*BBoxes, error) {
	return readAs[BBoxes](ctx, s, f, l, "read", map[string]any{"kind": "bbox"})
}

// GetComputedStyle returns the computed values of properties (CSS names,
// such as "background-color"); with none, a small default set.
func (s *Store) GetComputedStyle(ctx context.Context, f Frame, l Locator, properties []string) (map[string]string, error) {
	if len(properties) > 100 {
		return nil, errs.BadArg("properties", "at most 100, not %d", len(properties))
	}
	out := map[string]string{}
	if err := s.read(ctx, f, l, "read", map[string]any{"kind": "style", "props": properties}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// ListItem is one element of ElementsList or FocusedElement.
type ListItem struct {
	Ref     int    `json:"ref"`
	Tag     string `json:"tag"`
	Role    string `json:"role"`
	Name    string `json:"name,omitempty"`
	Text    string `json:"text,omitempty"`
	ID      string `json:"id,omitempty"`
	Value   string `json:"value,omitempty"`
	Visible bool   `json:"visible"`
	BBox    *Rect  `json:"bbox,omitempty"` // document coordinates
}

// ElementsListResult lists the elements a selector matches.
type ElementsListResult struct {
	SurfaceID string     `json:"surface_id"`
	Items     []ListItem `json:"items"`
	Count     int        `json:"count"` // all matches
	Truncated bool       `json:"truncated"`
}

// ElementsList returns up to limit (default 50, at most 200) elements that
// match selector, each with a ref of this surface.
func (s *Store) ElementsList(ctx context.Context, f Frame, selector string, limit int) (*ElementsListResult, error) {
	if strings.TrimSpace(selector) == "" {
		return nil, errs.BadArg("selector", "pass a CSS selector")
	}
	if limit < 0 || limit > MaxListLimit {
		return nil, errs.BadArg("limit", "must be between 1 and %d, not %d", MaxListLimit, limit)
	}
	if limit == 0 {
		limit = DefaultListLimit
	}
	raw, err := s.exec(ctx, f, "list", map[string]any{"sel": selector, "limit": limit})
	if err != nil {
		return nil, err
	}
	res := &ElementsListResult{SurfaceID: f.SurfaceID}
	if err := decode(raw, res); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a list")
	}
	if res.Items == nil {
		res.Items = []ListItem{}
	}
	return res, nil
}

// FocusedElement returns the focused element of the surface's document
// (looking into open shadow roots), or nil when only the body has focus.
func (s *Store) FocusedElement(ctx context.Context, f Frame) (*ListItem, error) {
	raw, err := s.exec(ctx, f, "focused", nil)
	if err != nil {
		return nil, err
	}
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var it ListItem
	if err := decode(raw, &it); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding the focused element")
	}
	it.Visible = true
	return &it, nil
}

// Covering describes the element that receives a point meant for another.
// It is the one shape of the "covering" detail of ELEMENT_NOT_VISIBLE,
// whether the cover is in the element's own document or in a document that
// encloses the element's frame (docs/tools.md, "Parameter and field
// meanings").
type Covering struct {
	// Ref is the cover's ref in the active surface; 0 for a cover in an
	// enclosing document (refs never cross surfaces).
	Ref int `json:"ref"`
	// Role is the cover's ARIA role; "" when not known (enclosing
	// documents).
	Role string `json:"role"`
	// Name is its accessible name (in an enclosing document, its
	// aria-label or title).
	Name string `json:"name,omitempty"`
	// Tag is its lower-case tag name; "" when nothing is at the point.
	Tag string `json:"tag"`
	// Selector is a CSS selector for it (tag#id.class).
	Selector string `json:"selector"`
	// Enclosing is true when the cover lies in a document that holds the
	// surface's frame, not in the surface itself.
	Enclosing bool `json:"enclosing,omitempty"`
}

// readAs runs one read operation on an element and decodes its answer.
func readAs[T any](ctx context.Context, s *Store, f Frame, l Locator, op string, extra map[string]any) (*T, error) {
	var v T
	if err := s.read(ctx, f, l, op, extra, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// probe is what the walker computes for one element (tests compare it with
// Chromium's accessibility tree).
type probe struct {
	Role        string  `json:"role"`
	Name        string  `json:"name"`
	From        string  `json:"from"`
	Description string  `json:"description"`
	Value       *string `json:"value"`
	Flags       string  `json:"flags"`
	Interactive bool    `json:"interactive"`
	Excluded    bool    `json:"excluded"`
}

func (s *Store) probe(ctx context.Context, f Frame, l Locator) (*probe, error) {
	return readAs[probe](ctx, s, f, l, "probe", nil)
}

// Described is what [Store.RefsOf] says of one element.
type Described struct {
	Ref  int    `json:"ref"`
	Role string `json:"role"`
	Name string `json:"name,omitempty"`
	Tag  string `json:"tag"`
}

// maxRefPaths bounds one RefsOf call.
const maxRefPaths = 2000

// RefsOf issues refs of this surface for the elements named by paths (a
// CSS selector in the document, then one in each open shadow root on the
// way, as axe-core names nodes). A path that names no element is nil.
func (s *Store) RefsOf(ctx context.Context, f Frame, paths [][]string) ([]*Described, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	if len(paths) > maxRefPaths {
		return nil, errs.BadArg("paths", "at most %d", maxRefPaths)
	}
	raw, err := s.exec(ctx, f, "refsOf", map[string]any{"paths": paths})
	if err != nil {
		return nil, err
	}
	var out []*Described
	if err := decode(raw, &out); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding refs")
	}
	return out, nil
}
