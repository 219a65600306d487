package act

import (
	"context"
	"math"
	"strconv"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
)

// ValueResult is what setting a control's value did.
type ValueResult struct {
	page.OnSurface
	Kind    string `json:"kind" jsonschema:"the input's type (range, number, date, time, datetime-local, month, week, color) or aria (an ARIA slider, spinbutton or scrollbar)"`
	Value   string `json:"value" jsonschema:"the value the control holds now, read back (aria-valuenow for an ARIA control)"`
	Was     string `json:"was" jsonschema:"the value before"`
	Altered bool   `json:"altered,omitempty" jsonschema:"the control holds another value than the one given (an input snapped it to its step, min or max)"`
	Keys    int    `json:"keys,omitempty" jsonschema:"ARIA control: the arrow keys pressed to move it"`
	Note    string `json:"note,omitempty"`
	page.RefNotes
}

// maxValueKeys bounds the arrow keys that move an ARIA control.
const maxValueKeys = 400

// SetValue sets the value of a control that holds one of its own (range,
// number, date, time, color inputs; ARIA sliders, spinbuttons and
// scrollbars, moved by their arrow keys) and reads it back: a value the
// control snapped is altered, one it reset is TYPE_NO_EFFECT. The control
// gets the default actionability timeout.
func (t Target) SetValue(ctx context.Context, loc page.Locator, v page.ValueText) (*ValueResult, error) {
	res, f := t.Res, t.Frame
	acted, st, err := t.Pages.SetValue(ctx, f, loc, *v.Value, page.DefaultActionTimeout)
	if err != nil {
		return nil, err
	}
	out := &ValueResult{OnSurface: res.On(), Kind: st.Kind}
	out.Add(acted.Changed)
	if st.Kind != "aria" {
		out.Value, out.Was = st.Value, st.Before
		if page.SameValue(st.Kind, st.Value, *v.Value) {
			return out, nil
		}
		if st.Value == st.Before {
			e := errs.New(errs.TypeNoEffect, "the %s input still holds %s, not %s: the page reset it", st.Kind, strconv.Quote(st.Value), strconv.Quote(*v.Value))
			return nil, e.With("value", st.Value).With("surface_id", res.SurfaceID)
		}
		out.Altered = true
		out.Note = "the input made it " + strconv.Quote(st.Value) + " (its min " + strconv.Quote(st.Min) + ", max " + strconv.Quote(st.Max) + ", step " + strconv.Quote(st.Step) + ")"
		return out, nil
	}
	return t.moveByKeys(ctx, loc, v, st, out)
}

// moveByKeys moves an ARIA value control to the value with its own keys
// (Home, End, arrows), as a keyboard user does, reading aria-valuenow
// after each key.
func (t Target) moveByKeys(ctx context.Context, loc page.Locator, v page.ValueText, st *page.ValueState, out *ValueResult) (*ValueResult, error) {
	res, f := t.Res, t.Frame
	want, err := v.Number(st.Role)
	if err != nil {
		return nil, err
	}
	if st.Now == nil {
		return nil, errs.New(errs.TypeNoEffect, "the %s has no aria-valuenow, so its value cannot be read or verified", st.Role).With("surface_id", res.SurfaceID)
	}
	if err := st.CheckWithin(want); err != nil {
		return nil, err
	}
	out.Was = page.NumStr(*st.Now)
	if _, err := t.Pages.Focus(ctx, f, loc, page.DefaultActionTimeout); err != nil {
		return nil, err
	}
	if err := t.front(ctx); err != nil {
		return nil, err
	}
	now := *st.Now
	up, down := "ArrowRight", "ArrowLeft"
	if st.Vertical {
		up, down = "ArrowUp", "ArrowDown"
	}
	press := func(key string) (float64, error) {
		out.Keys++
		if err := input.PressChord(ctx, res.InputRoot, input.Chord{Key: key}); err != nil {
			return 0, err
		}
		now, err := t.Pages.Value(ctx, f, loc)
		if err != nil {
			return 0, err
		}
		if now == nil || now.Now == nil {
			return 0, errs.New(errs.TypeNoEffect, "the control lost its aria-valuenow after %s", key).With("surface_id", res.SurfaceID)
		}
		return *now.Now, nil
	}
	// The ends are one key away.
	switch {
	case st.VMin != nil && want == *st.VMin && now != want:
		if now, err = press("Home"); err != nil {
			return nil, err
		}
	case st.VMax != nil && want == *st.VMax && now != want:
		if now, err = press("End"); err != nil {
			return nil, err
		}
	}
	for now != want {
		if out.Keys >= maxValueKeys {
			e := errs.New(errs.TypeMismatch, "the %s is at %s after %d keys, not at %s", st.Role, page.NumStr(now), out.Keys, page.NumStr(want))
			return nil, e.With("value", now).With("surface_id", res.SurfaceID)
		}
		key := up
		if want < now {
			key = down
		}
		next, err := press(key)
		if err != nil {
			return nil, err
		}
		switch {
		case next == now:
			e := errs.New(errs.TypeNoEffect, "the %s stays at %s when %s is pressed: it does not move by keys (or is read-only)", st.Role, page.NumStr(now), key)
			e.Hint = "The control ignored its arrow keys. Drag its thumb instead (electron_drag), or check that it is enabled (electron_get_state)."
			return nil, e.With("value", now).With("surface_id", res.SurfaceID)
		case (next > want) != (now > want) && next != want:
			// A step passed over the value: it is not one the control takes.
			e := errs.New(errs.TypeMismatch, "the %s moves in steps of %s and cannot hold %s; it is at %s now (the nearest values are %s and %s)", st.Role, page.NumStr(math.Abs(next-now)), page.NumStr(want), page.NumStr(next), page.NumStr(min(now, next)), page.NumStr(max(now, next)))
			e.Hint = "Ask for one of the values the control takes (its steps), e.g. the nearest one named in the message."
			return nil, e.With("value", next).With("surface_id", res.SurfaceID)
		}
		now = next
	}
	out.Value = page.NumStr(now)
	return out, nil
}
