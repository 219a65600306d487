package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
)

// electron_check, electron_uncheck and electron_select_option.

type checkArgs struct {
	actArgs
	Force bool `json:"force,omitempty" jsonschema:"skip the actionability checks of the click"`
}

// checkResult is electron_check's and electron_uncheck's result.
type checkResult struct {
	onSurface
	Checked      *bool         `json:"checked,omitempty" jsonschema:"the state now (absent when a dialog stopped the page)"`
	Changed      *bool         `json:"changed,omitempty"`
	X            *float64      `json:"x,omitempty" jsonschema:"where the click went, CSS pixels of the window's viewport"`
	Y            *float64      `json:"y,omitempty"`
	WindowID     string        `json:"window_id,omitempty"`
	DialogOpened *dialogOpened `json:"dialog_opened,omitempty" jsonschema:"the click opened a JavaScript dialog: the page waits for its answer"`
	page.RefNotes
}

func checkBox(ctx context.Context, c *Call, a *checkArgs) (*checkResult, error) {
	return setChecked(ctx, c, a, true)
}

// uncheckArgs are electron_uncheck's arguments: checkArgs, a type of
// their own so that a trace exports the call as an uncheck.
type uncheckArgs struct{ checkArgs }

func uncheckBox(ctx context.Context, c *Call, a *uncheckArgs) (*checkResult, error) {
	return setChecked(ctx, c, &a.checkArgs, false)
}

func setChecked(ctx context.Context, c *Call, a *checkArgs, want bool) (*checkResult, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	loc := a.locator()
	start := time.Now()
	acted, st, err := c.Session.Pages.Checked(ctx, f, loc, a.timeout())
	if err != nil {
		return nil, err
	}
	if st.Checked == want && !st.Mixed {
		changed := false
		out := &checkResult{onSurface: surfaceOf(res), Checked: &want, Changed: &changed}
		out.Add(acted.Changed)
		return out, nil
	}
	if !want && st.Radio {
		return nil, errs.BadArg("selector", "a radio button cannot be unchecked by clicking it; check another radio of its group")
	}
	if res.InputRoot == nil {
		return nil, errs.New(errs.SurfaceUnsupported, "surface %s has no window root to take input", res.SurfaceID)
	}
	if err := bringToFront(ctx, c, res); err != nil {
		return nil, err
	}
	p, err := targetOf(c, res, f).At(ctx, loc, page.Action{Checks: page.PointerChecks(), Force: a.Force, Arm: "mousedown"}, max(0, a.timeout()-time.Since(start)))
	if err != nil {
		return nil, err
	}
	dialog, err := watchDialogs(ctx, c, res, func() error { return targetOf(c, res, f).Click(ctx, p, input.ClickOptions{}) })
	if err != nil {
		return nil, err
	}
	if dialog != nil {
		return &checkResult{onSurface: surfaceOf(res), DialogOpened: dialog}, nil
	}
	rc, err := targetOf(c, res, f).Receipt(ctx, p.X, p.Y, "click")
	if err != nil {
		return nil, err
	}
	after, err := c.Session.Pages.ActChecked(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	if after.Checked != want {
		e := errs.New(errs.TypeNoEffect, "the click did not leave the element %s: the page undid or ignored it", map[bool]string{true: "checked", false: "unchecked"}[want])
		e.Hint = "The element's checked state did not change as asked. Check electron_get_state, whether a label or another control drives it, or whether the page resets it."
		return nil, e.With("checked", after.Checked).With("surface_id", res.SurfaceID)
	}
	changed := true
	out := &checkResult{onSurface: surfaceOf(res), Checked: &want, Changed: &changed, X: &p.X, Y: &p.Y, WindowID: res.InputRootID}
	out.Add(acted.Changed, p.Acted.Changed, receiptChange(rc))
	return out, nil
}

type selectArgs struct {
	actArgs
	page.SelectValues
}

func (a *selectArgs) validate() error {
	if err := a.SelectValues.Check(); err != nil {
		return err
	}
	return a.actArgs.validate()
}

// selectResult is electron_select_option's result.
type selectResult struct {
	onSurface
	Values   []string `json:"values" jsonschema:"the values chosen now"`
	Labels   []string `json:"labels" jsonschema:"their visible labels"`
	Changed  bool     `json:"changed"`
	WaitedMS int64    `json:"waited_ms"`
	page.RefNotes
}

func selectOption(ctx context.Context, c *Call, a *selectArgs) (*selectResult, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	acted, out, err := c.Session.Pages.Select(ctx, f, a.locator(), a.Values, a.timeout())
	if err != nil {
		return nil, err
	}
	if !page.SameSet(out.Values, out.Wanted) {
		e := errs.New(errs.TypeNoEffect, "the select holds %v, not %v: the page reset the choice", out.Values, out.Wanted)
		return nil, e.With("values", out.Values).With("wanted", out.Wanted).With("surface_id", res.SurfaceID)
	}
	r := &selectResult{onSurface: surfaceOf(res), Values: out.Values, Labels: out.Labels,
		Changed: !page.SameSet(out.Before, out.Values), WaitedMS: waitedMS(acted)}
	r.Add(acted.Changed)
	return r, nil
}
