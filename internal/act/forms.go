package act

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
)

// CheckResult is what checking or unchecking a checkbox, radio or switch
// did.
type CheckResult struct {
	page.OnSurface
	Checked  *bool    `json:"checked,omitempty" jsonschema:"the state now (absent when a dialog stopped the page)"`
	Changed  *bool    `json:"changed,omitempty"`
	X        *float64 `json:"x,omitempty" jsonschema:"where the click went, CSS pixels of the window's viewport"`
	Y        *float64 `json:"y,omitempty"`
	WindowID string   `json:"window_id,omitempty"`
	page.RefNotes
}

// SetChecked leaves a checkbox, radio or switch checked (want) or not,
// clicking it like a user when it is not yet, and reads the state back: a
// click the page undid or ignored is TYPE_NO_EFFECT. A click that opened a
// JavaScript dialog answers at once, without a state.
func (t Target) SetChecked(ctx context.Context, loc page.Locator, want, force bool, timeout time.Duration) (*CheckResult, error) {
	res, f := t.Res, t.Frame
	start := time.Now()
	acted, st, err := t.Pages.Checked(ctx, f, loc, timeout)
	if err != nil {
		return nil, err
	}
	if st.Checked == want && !st.Mixed {
		changed := false
		out := &CheckResult{OnSurface: res.On(), Checked: &want, Changed: &changed}
		out.Add(acted.Changed)
		return out, nil
	}
	if !want && st.Radio {
		return nil, errs.BadArg("selector", "a radio button cannot be unchecked by clicking it; check another radio of its group")
	}
	if err := t.front(ctx); err != nil {
		return nil, err
	}
	p, err := t.At(ctx, loc, page.Action{Checks: page.PointerChecks(), Force: force, Arm: "mousedown"}, max(0, timeout-time.Since(start)))
	if err != nil {
		return nil, err
	}
	dialog, err := t.guarded(func() error { return t.Press(ctx, p, input.ClickOptions{}) })
	if err != nil {
		return nil, err
	}
	if dialog {
		return &CheckResult{OnSurface: res.On()}, nil
	}
	rc, err := t.Receipt(ctx, p.X, p.Y, "click")
	if err != nil {
		return nil, err
	}
	after, err := t.Pages.ActChecked(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	if after.Checked != want {
		e := errs.New(errs.TypeNoEffect, "the click did not leave the element %s: the page undid or ignored it", map[bool]string{true: "checked", false: "unchecked"}[want])
		e.Hint = "The element's checked state did not change as asked. Check electron_get_state, whether a label or another control drives it, or whether the page resets it."
		return nil, e.With("checked", after.Checked).With("surface_id", res.SurfaceID)
	}
	changed := true
	out := &CheckResult{OnSurface: res.On(), Checked: &want, Changed: &changed, X: &p.X, Y: &p.Y, WindowID: res.InputRootID}
	out.Add(acted.Changed, p.Acted.Changed, rc.Changes())
	return out, nil
}

// SelectResult is what choosing a select's options did.
type SelectResult struct {
	page.OnSurface
	Values   []string `json:"values" jsonschema:"the values chosen now"`
	Labels   []string `json:"labels" jsonschema:"their visible labels"`
	Changed  bool     `json:"changed"`
	WaitedMS int64    `json:"waited_ms"`
	page.RefNotes
}

// Select chooses a select's options (values or labels) and reads the
// choice back: a page that reset it is TYPE_NO_EFFECT.
func (t Target) Select(ctx context.Context, loc page.Locator, values []string, timeout time.Duration) (*SelectResult, error) {
	acted, out, err := t.Pages.Select(ctx, t.Frame, loc, values, timeout)
	if err != nil {
		return nil, err
	}
	if !page.SameSet(out.Values, out.Wanted) {
		e := errs.New(errs.TypeNoEffect, "the select holds %v, not %v: the page reset the choice", out.Values, out.Wanted)
		return nil, e.With("values", out.Values).With("wanted", out.Wanted).With("surface_id", t.Res.SurfaceID)
	}
	r := &SelectResult{OnSurface: t.Res.On(), Values: out.Values, Labels: out.Labels,
		Changed: !page.SameSet(out.Before, out.Values), WaitedMS: acted.Waited.Milliseconds()}
	r.Add(acted.Changed)
	return r, nil
}
