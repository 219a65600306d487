package tool

import (
	"context"
	"strconv"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/secret"
	"github.com/understudy-dev/understudy/internal/surface"
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

// focusFor focuses the element named by a (waiting until it is visible and
// enabled), or gives the surface's frame the focus when none is named (nil
// result then).
func focusFor(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, a *optElementArgs) (*page.Acted, error) {
	if !a.has() {
		return nil, res.FocusFrame(ctx)
	}
	return c.Session.Pages.Focus(ctx, f, a.locator(), a.timeout())
}

// keyboardTypeResult is electron_keyboard_type's result.
type keyboardTypeResult struct {
	onSurface
	Typed        int            `json:"typed" jsonschema:"characters typed"`
	WindowID     string         `json:"window_id"`
	Value        *secret.String `json:"value,omitempty" jsonschema:"the target's text after typing, when it takes text ([redacted] in a password field)"`
	Effect       string         `json:"effect,omitempty" jsonschema:"when the field ends as it was (a combobox that clears its input as Enter chooses): what the page shows now that it did not before"`
	DialogOpened *dialogOpened  `json:"dialog_opened,omitempty" jsonschema:"a key opened a JavaScript dialog: the page waits for its answer and the keys after it wait too"`
	page.RefNotes
}

func keyboardType(ctx context.Context, c *Call, a *keyboardTypeArgs) (*keyboardTypeResult, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	out := &keyboardTypeResult{onSurface: surfaceOf(res), Typed: len([]rune(*a.Text)), WindowID: res.InputRootID}
	before := &page.TextState{}
	if a.has() {
		focused, st, err := c.Session.Pages.FocusText(ctx, f, a.locator(), a.timeout())
		if err != nil {
			return nil, err
		}
		before = st
		out.Add(focused.Changed)
		if err := c.Session.Pages.MarkView(ctx, f); err != nil {
			return nil, err
		}
	} else if err := res.FocusFrame(ctx); err != nil {
		return nil, err
	}
	dialog, err := watchDialogs(ctx, c, res, func() error { return input.TypeText(ctx, res.InputRoot, *a.Text) })
	if err != nil {
		return nil, err
	}
	if dialog != nil {
		out.DialogOpened = dialog
		return out, nil
	}
	if a.has() {
		after, err := c.Session.Pages.ActText(ctx, f, a.locator())
		if err != nil {
			return nil, err
		}
		if after.Editable {
			out.Value = &after.Text
			if after.Text.IsSecret() {
				c.secretArg("text")
			}
			if *a.Text != "" && after.Text.Reveal() == before.Text.Reveal() {
				// The field ends as it was; the keys may still have acted (a
				// combobox clears its input when Enter chooses an option):
				// what the page shows says.
				view, err := c.Session.Pages.ViewChange(ctx, f)
				if err != nil {
					return nil, err
				}
				if view.Changed <= 0 {
					e := errs.New(errs.TypeNoEffect, "the element still holds %s after typing and nothing the page shows changed: the page rejected or reset the keys", errs.Quote(after.Text.String()))
					e.Hint = "The keys had no visible effect. Check that the element takes typing (electron_get_state: enabled, readonly) and has the focus; electron_type sets a field's text without key events."
					return nil, e.With("after", after.Text).With("surface_id", res.SurfaceID)
				}
				out.Effect = "the field holds " + errs.Quote(after.Text.String()) + " again, and the page " + view.First + " (" + strconv.Itoa(view.Changed) + " texts or values in view changed)"
			}
		}
	}
	return out, nil
}
