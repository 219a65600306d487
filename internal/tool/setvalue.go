package tool

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

// electron_set_value: the value of a control that holds one of its own
// (range, number, date, time, color inputs; ARIA sliders and spinbuttons).

// setValueArgs names the element by ref or selector only: the wait is
// the default actionability timeout, and a ref whose element changed is
// REF_STALE (a value control is set, not explored).
type setValueArgs struct {
	elementArgs
	page.ValueText
}

func (a *setValueArgs) validate() error {
	if err := a.ValueText.Check(); err != nil {
		return err
	}
	return a.elementArgs.validate()
}

func (a *setValueArgs) timeout() time.Duration { return page.DefaultActionTimeout }

// setValueResult is electron_set_value's result.
type setValueResult struct {
	onSurface
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

func setValue(ctx context.Context, c *Call, a *setValueArgs) (*setValueResult, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	loc := a.locator()
	acted, st, err := c.Session.Pages.SetValue(ctx, f, loc, *a.Value, a.timeout())
	if err != nil {
		return nil, err
	}
	out := &setValueResult{onSurface: surfaceOf(res), Kind: st.Kind}
	out.Add(acted.Changed)
	if st.Kind != "aria" {
		out.Value, out.Was = st.Value, st.Before
		if page.SameValue(st.Kind, st.Value, *a.Value) {
			return out, nil
		}
		if st.Value == st.Before {
			e := errs.New(errs.TypeNoEffect, "the %s input still holds %s, not %s: the page reset it", st.Kind, strconv.Quote(st.Value), strconv.Quote(*a.Value))
			return nil, e.With("value", st.Value).With("surface_id", res.SurfaceID)
		}
		out.Altered = true
		out.Note = "the input made it " + strconv.Quote(st.Value) + " (its min " + strconv.Quote(st.Min) + ", max " + strconv.Quote(st.Max) + ", step " + strconv.Quote(st.Step) + ")"
		return out, nil
	}
	return moveByKeys(ctx, c, a, res, f, st, out)
}

// moveByKeys moves an ARIA value control to the value with its own keys
// (Home, End, arrows), as a keyboard user does, reading aria-valuenow
// after each key.
func moveByKeys(ctx context.Context, c *Call, a *setValueArgs, res *surface.Resolution, f page.Frame, st *page.ValueState, out *setValueResult) (*setValueResult, error) {
	want, err := a.Number(st.Role)
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
	if _, err := c.Session.Pages.Focus(ctx, f, a.locator(), a.timeout()); err != nil {
		return nil, err
	}
	if res.InputRoot == nil {
		return nil, errs.New(errs.SurfaceUnsupported, "surface %s has no window root to take input", res.SurfaceID)
	}
	if err := bringToFront(ctx, c, res); err != nil {
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
		v, err := c.Session.Pages.Value(ctx, f, a.locator())
		if err != nil {
			return 0, err
		}
		if v == nil || v.Now == nil {
			return 0, errs.New(errs.TypeNoEffect, "the control lost its aria-valuenow after %s", key).With("surface_id", res.SurfaceID)
		}
		return *v.Now, nil
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
