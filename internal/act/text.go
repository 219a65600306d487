package act

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/secret"
)

// TextResult is what setting a field's or an editor's text did: a field's
// value read back, or what the editor or terminal took (Inserted).
type TextResult struct {
	page.OnSurface
	Value    *secret.String `json:"value,omitempty" jsonschema:"what the field or editor holds now ([redacted] in a password field)"`
	Changed  *bool          `json:"changed,omitempty"`
	Altered  bool           `json:"altered,omitempty" jsonschema:"the page changed the text as it was set (a mask, a maxlength)"`
	WaitedMS *int64         `json:"waited_ms,omitempty"`
	Inserted
	page.RefNotes
}

// Text puts text into an editor or terminal (intoEditor) and answers as
// the text tools do; a terminal's text changed when its screen did.
func (t Target) Text(ctx context.Context, loc page.Locator, kind, text string, replace bool, timeout time.Duration) (*TextResult, error) {
	in, err := t.intoEditor(ctx, loc, kind, text, replace, timeout)
	if err != nil {
		return nil, err
	}
	out := &TextResult{OnSurface: t.Res.On(), Inserted: *in}
	if in.Editor == page.EditorXterm {
		out.Changed = in.Echoed
	}
	return out, nil
}

// Fill sets the text of a text field, textarea or contenteditable as a
// paste would and reads it back: altered when the page changed it as it
// was set, TYPE_NO_EFFECT when it holds what it held. A code or rich-text
// editor, a terminal, or an editing host that does not take a scripted
// edit gets the text as intoEditor puts it, replacing everything.
func (t Target) Fill(ctx context.Context, loc page.Locator, text string, timeout time.Duration) (*TextResult, error) {
	res, f := t.Res, t.Frame
	acted, out, err := t.Pages.Fill(ctx, f, loc, text, timeout)
	if err != nil {
		return nil, err
	}
	if out.Editor != "" {
		// A code editor, rich-text editor or terminal: its text goes in
		// as a paste, verified as electron_type_into_editor verifies it.
		if err := t.front(ctx); err != nil {
			return nil, err
		}
		kind := out.Editor
		if kind == page.EditorEditable {
			kind = "" // an editing host that refused a scripted edit: typed as a user types
		}
		r, err := t.Text(ctx, loc, kind, text, out.Editor != page.EditorXterm, max(0, timeout-acted.Waited))
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
		t.secret("text")
	}
	exact := page.SameText(out.After.Reveal(), text)
	if !exact && out.After.Reveal() == out.Before.Reveal() {
		e := errs.New(errs.TypeNoEffect, "the field still holds %s, not the text set: the page rejected or reset the value", errs.Quote(out.After.String()))
		return nil, e.With("before", out.Before).With("after", out.After).With("surface_id", res.SurfaceID)
	}
	changed, waited := out.Before.Reveal() != out.After.Reveal(), acted.Waited.Milliseconds()
	r := &TextResult{OnSurface: res.On(), Value: &out.After, Changed: &changed, WaitedMS: &waited}
	r.Add(acted.Changed)
	if !exact {
		// It changed, but not into the text: a mask, a maxlength, a
		// sanitiser. Say so rather than claim the text.
		r.Altered = true
		r.Note = "the page changed the text as it was set; value is what the field holds"
	}
	return r, nil
}

// Editor puts text into the code or rich-text editor or terminal loc
// names, found by its DOM (Text).
func (t Target) Editor(ctx context.Context, loc page.Locator, text string, replace bool, timeout time.Duration) (*TextResult, error) {
	start := time.Now()
	kind, _, err := t.Pages.EditorKind(ctx, t.Frame, loc, timeout)
	if err != nil {
		return nil, err
	}
	return t.Text(ctx, loc, kind, text, replace, max(0, timeout-time.Since(start)))
}
