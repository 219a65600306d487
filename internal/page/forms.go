package page

import (
	"context"
	"encoding/json"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/secret"
)

// The typed form of the renderer actions the text, form and scroll tools
// run through [Store.Act]: their names and answers stay in this package.

// Filled is what a fill did: the text before and after, or the editor the
// element belongs to (nothing was done then: an editor takes text its own
// way).
type Filled struct {
	// Before and After are secrets when the field is a password field.
	Before secret.String `json:"before"`
	After  secret.String `json:"after"`
	Editor string        `json:"editor"`
}

// UnmarshalJSON reads the page's answer: a password field's text is a
// secret from here on.
func (o *Filled) UnmarshalJSON(b []byte) error {
	var a struct {
		Before string `json:"before"`
		After  string `json:"after"`
		Editor string `json:"editor"`
		Secret bool   `json:"secret"`
	}
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	*o = Filled{Before: secret.Maybe(a.Before, a.Secret), After: secret.Maybe(a.After, a.Secret), Editor: a.Editor}
	return nil
}

// Fill waits (up to timeout) until the element is visible, enabled and
// editable, then sets its text as a paste would: the value is replaced and
// input and change fire.
func (s *Store) Fill(ctx context.Context, f Frame, l Locator, text string, timeout time.Duration) (*Acted, *Filled, error) {
	return actAs[Filled](ctx, s, f, l, Action{
		Checks: Checks{Visible: true, Enabled: true, Editable: true}, Name: "fill", Args: map[string]any{"text": text},
	}, timeout, "a fill")
}

// Checked waits (up to timeout) for the element and reads whether it is
// checked (a checkbox, radio or switch, or a label's control).
func (s *Store) Checked(ctx context.Context, f Frame, l Locator, timeout time.Duration) (*Acted, *CheckState, error) {
	return actAs[CheckState](ctx, s, f, l, Action{Name: "checked"}, timeout, "a checked state")
}

// Selection is what choosing options of a <select> did: the values chosen
// before and after, the labels of those after, and the values asked for
// (matched by value, then by label).
type Selection struct {
	Before []string `json:"before"`
	Values []string `json:"values"`
	Labels []string `json:"labels"`
	Wanted []string `json:"wanted"`
}

// Select waits (up to timeout) until the <select> is visible and enabled
// and chooses the options values name; input and change fire.
func (s *Store) Select(ctx context.Context, f Frame, l Locator, values []string, timeout time.Duration) (*Acted, *Selection, error) {
	return actAs[Selection](ctx, s, f, l, Action{
		Checks: Checks{Visible: true, Enabled: true}, Name: "select", Args: map[string]any{"values": values},
	}, timeout, "a selection")
}

// Focus waits (up to timeout) until the element is visible and enabled and
// focuses it.
func (s *Store) Focus(ctx context.Context, f Frame, l Locator, timeout time.Duration) (*Acted, error) {
	return s.Act(ctx, f, l, Action{Checks: Checks{Visible: true, Enabled: true}, Name: "focus"}, timeout)
}

// FocusText is Focus for typing: the caret goes to the end of the
// element's text, and the text it holds comes back.
func (s *Store) FocusText(ctx context.Context, f Frame, l Locator, timeout time.Duration) (*Acted, *TextState, error) {
	return actAs[TextState](ctx, s, f, l, Action{Checks: Checks{Visible: true, Enabled: true}, Name: "focusText"}, timeout, "a text target")
}

// ScrollState is where the window and an element's scroll container are
// scrolled.
type ScrollState struct {
	Window    ScrollPoint      `json:"window"`
	Container *ScrollContainer `json:"container,omitempty" jsonschema:"the element's nearest scrollable ancestor, if any"`
}

// ScrollPoint is a scroll position in CSS pixels.
type ScrollPoint struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// ScrollContainer is a scrollable element's position and range.
type ScrollContainer struct {
	Selector string  `json:"selector"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
	MaxX     float64 `json:"max_x"`
	MaxY     float64 `json:"max_y"`
}

// Equal says whether two scroll states are the same.
func (a *ScrollState) Equal(b *ScrollState) bool {
	switch {
	case a == nil || b == nil:
		return a == b
	case a.Window != b.Window:
		return false
	case a.Container == nil || b.Container == nil:
		return a.Container == b.Container
	}
	return *a.Container == *b.Container
}

// ScrollStateAction is the action that reads the element's [ScrollState]
// (Acted.ScrollState) and makes its container the target of
// [Store.ScrollSettled].
func ScrollStateAction(checks Checks) Action { return Action{Checks: checks, Name: "scrollState"} }

// ScrollState decodes what [ScrollStateAction] read.
func (a *Acted) ScrollState() (*ScrollState, error) {
	var st ScrollState
	if err := decode(a.Out, &st); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a scroll state")
	}
	return &st, nil
}

// DragWatchAction is the action that arms the watch of a drag from the
// element onto to: expect is auto, reorder or drop (see [Store.DragReport]).
func DragWatchAction(checks Checks, to *Locator, expect string) Action {
	return Action{Checks: checks, Name: "dragWatch", To: to, Args: map[string]any{"expect": expect}}
}

// actAs runs an action and decodes its answer as T.
func actAs[T any](ctx context.Context, s *Store, f Frame, l Locator, a Action, timeout time.Duration, what string) (*Acted, *T, error) {
	acted, err := s.Act(ctx, f, l, a, timeout)
	if err != nil {
		return nil, nil, err
	}
	var out T
	if err := decode(acted.Out, &out); err != nil {
		return nil, nil, errs.Wrap(errs.Internal, err, "decoding "+what)
	}
	return acted, &out, nil
}

// ValueState is what a control that holds a value of its own holds: an
// input whose value is set whole (Kind is its type: range, number, date,
// time, datetime-local, month, week, color) with its bounds, or an ARIA
// value control (Kind "aria": slider, spinbutton, scrollbar…) with
// aria-valuenow, -valuemin, -valuemax and -valuetext.
type ValueState struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
	// Before is the input's value before SetValue set it.
	Before string `json:"before"`
	Min    string `json:"min"`
	Max    string `json:"max"`
	Step   string `json:"step"`
	// The ARIA control's.
	Role     string   `json:"role"`
	Now      *float64 `json:"now"`
	VMin     *float64 `json:"vmin"`
	VMax     *float64 `json:"vmax"`
	Text     string   `json:"text"`
	Vertical bool     `json:"vertical"`
}

// SetValue waits (up to timeout) until the element is visible and enabled
// and, for an input whose value is set whole (range, date, time, color…),
// sets it as a user's choice does (input and change fire; a value the
// input does not take is BAD_ARGUMENT naming value). An ARIA value control
// is only read: it moves by keys. Anything else is BAD_ARGUMENT.
func (s *Store) SetValue(ctx context.Context, f Frame, l Locator, value string, timeout time.Duration) (*Acted, *ValueState, error) {
	return actAs[ValueState](ctx, s, f, l, Action{
		Checks: Checks{Visible: true, Enabled: true}, Name: "setValue", Args: map[string]any{"value": value},
	}, timeout, "a value")
}

// Value reads a value control's state (nil when the element is not one).
func (s *Store) Value(ctx context.Context, f Frame, l Locator) (*ValueState, error) {
	var v *ValueState
	if err := s.read(ctx, f, l, "actValue", nil, &v); err != nil {
		return nil, err
	}
	return v, nil
}
