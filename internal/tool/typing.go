package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/secret"
)

// electron_type, electron_clear_input and electron_keyboard_type.

type typeArgs struct {
	actArgs
	Text *string `json:"text" jsonschema:"the text the field will hold (replaces what it holds)"`
}

func (a *typeArgs) validate() error {
	if err := checkText("text", a.Text); err != nil {
		return err
	}
	return a.actArgs.validate()
}

func fill(ctx context.Context, c *Call, a *actArgs, text string) (*inputResult, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	acted, out, err := c.Session.Pages.Fill(ctx, f, a.locator(), text, a.timeout())
	if err != nil {
		return nil, err
	}
	if out.Editor != "" {
		// A code editor, rich-text editor or terminal: its text goes in
		// as a paste, verified as electron_type_into_editor verifies it.
		if res.InputRoot == nil {
			return nil, errs.New(errs.SurfaceUnsupported, "surface %s has no window root to take input", res.SurfaceID)
		}
		if err := bringToFront(ctx, c, res); err != nil {
			return nil, err
		}
		kind := out.Editor
		if kind == page.EditorEditable {
			kind = "" // an editing host that refused a scripted edit: typed as a user types
		}
		r, err := insertIntoEditor(ctx, c, res, f, a.locator(), kind, text, out.Editor != page.EditorXterm, max(0, a.timeout()-waitedDur(acted)))
		if err != nil {
			return nil, err
		}
		if r.Verified == "exact" || r.Verified == "partial" {
			changed := true
			r.Changed = &changed
			if r.Text != nil {
				v := secret.Plain(*r.Text)
				r.Value = &v
			}
		}
		return r, nil
	}
	// A password field's text is a secret.String: every message and
	// result below shows it as [redacted], and the trace redacts the
	// text argument (Call.secretArg).
	if out.After.IsSecret() {
		c.secretArg("text")
	}
	exact := page.SameText(out.After.Reveal(), text)
	if !exact && out.After.Reveal() == out.Before.Reveal() {
		e := errs.New(errs.TypeNoEffect, "the field still holds %s, not the text set: the page rejected or reset the value", errs.Quote(out.After.String()))
		return nil, e.With("before", out.Before).With("after", out.After).With("surface_id", res.SurfaceID)
	}
	changed, waited := out.Before.Reveal() != out.After.Reveal(), waitedMS(acted)
	r := &inputResult{onSurface: surfaceOf(res), Value: &out.After, Changed: &changed, WaitedMS: &waited}
	r.Add(acted.Changed)
	if !exact {
		// It changed, but not into the text: a mask, a maxlength, a
		// sanitiser. Say so rather than claim the text.
		r.Altered = true
		r.Note = "the page changed the text as it was set; value is what the field holds"
	}
	return r, nil
}

func typeText(ctx context.Context, c *Call, a *typeArgs) (*inputResult, error) {
	return fill(ctx, c, &a.actArgs, *a.Text)
}

// clearArgs are electron_clear_input's arguments: actArgs, a type of their
// own so that a trace exports the call as a fill with "".
type clearArgs struct{ actArgs }

func clearInput(ctx context.Context, c *Call, a *clearArgs) (*inputResult, error) {
	return fill(ctx, c, &a.actArgs, "")
}

type keyboardTypeArgs struct {
	optElementArgs
	Text *string `json:"text" jsonschema:"the text to type; \\n presses Enter, \\t Tab"`
}

func (a *keyboardTypeArgs) validate() error {
	if err := checkText("text", a.Text); err != nil {
		return err
	}
	return a.optElementArgs.validate()
}

// keyboardTypeResult is electron_keyboard_type's result.
type keyboardTypeResult struct {
	act.TypedResult
	DialogOpened *dialogOpened `json:"dialog_opened,omitempty" jsonschema:"a key opened a JavaScript dialog: the page waits for its answer and the keys after it wait too"`
}

func keyboardType(ctx context.Context, c *Call, a *keyboardTypeArgs) (*keyboardTypeResult, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	var out keyboardTypeResult
	t := targetOf(c, res, f)
	t.Guard = guardDialogs(ctx, c, res, &out.DialogOpened)
	r, err := t.Type(ctx, a.keys(), *a.Text)
	if r != nil && r.Value != nil && r.Value.IsSecret() {
		c.secretArg("text")
	}
	if err != nil {
		return nil, err
	}
	out.TypedResult = *r
	return &out, nil
}
