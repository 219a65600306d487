package act

import (
	"context"
	"strconv"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/secret"
)

// Keys are where key events go: the element (focused first, waiting
// until it is visible and enabled) or, without one, whatever has the
// focus in the surface's frame.
type Keys struct {
	Element *page.Locator // nil: the focused element
	Timeout time.Duration
}

// focus gives the focus to k's element, or to the surface's frame.
func (t Target) focus(ctx context.Context, k Keys) (*page.Acted, error) {
	if k.Element == nil {
		return nil, t.Res.FocusFrame(ctx)
	}
	return t.Pages.Focus(ctx, t.Frame, *k.Element, k.Timeout)
}

// KeyResult is what pressing a key or chord did.
type KeyResult struct {
	page.OnSurface
	Pressed  string `json:"pressed" jsonschema:"the chord as pressed, e.g. Control+Shift+P"`
	WindowID string `json:"window_id"`
	page.RefNotes
}

// Key presses a key or chord with real key events.
func (t Target) Key(ctx context.Context, k Keys, chord input.Chord) (*KeyResult, error) {
	focused, err := t.focus(ctx, k)
	if err != nil {
		return nil, err
	}
	out := &KeyResult{OnSurface: t.Res.On(), Pressed: chord.String(), WindowID: t.Res.InputRootID}
	if focused != nil {
		out.Add(focused.Changed)
	}
	if _, err := t.guarded(func() error { return input.PressChord(ctx, t.Res.InputRoot, chord) }); err != nil {
		return nil, err
	}
	return out, nil
}

// SequenceResult is what pressing keys in order did.
type SequenceResult struct {
	page.OnSurface
	Pressed    []string `json:"pressed" jsonschema:"the chords pressed, in order"`
	WindowID   string   `json:"window_id"`
	NotPressed []string `json:"not_pressed,omitempty" jsonschema:"the keys left out because a dialog stopped the page"`
}

// Sequence presses keys (as given, and parsed) one after another, delay
// apart; a key that opens a JavaScript dialog ends it, and the keys after
// it are NotPressed.
func (t Target) Sequence(ctx context.Context, k Keys, keys []string, chords []input.Chord, delay time.Duration) (*SequenceResult, error) {
	if _, err := t.focus(ctx, k); err != nil {
		return nil, err
	}
	out := &SequenceResult{OnSurface: t.Res.On(), Pressed: make([]string, 0, len(chords)), WindowID: t.Res.InputRootID}
	for i, ch := range chords {
		if i > 0 && delay > 0 && !page.Pause(ctx, delay) {
			return nil, errs.FromContext(ctx, errs.OperationTimeout, "pausing between key presses")
		}
		dialog, err := t.guarded(func() error { return input.PressChord(ctx, t.Res.InputRoot, ch) })
		if err != nil {
			return nil, err
		}
		out.Pressed = append(out.Pressed, ch.String())
		if dialog {
			out.NotPressed = keys[i+1:]
			return out, nil
		}
	}
	return out, nil
}

// TypedResult is what typing text with key events did.
type TypedResult struct {
	page.OnSurface
	Typed    int            `json:"typed" jsonschema:"characters typed"`
	WindowID string         `json:"window_id"`
	Value    *secret.String `json:"value,omitempty" jsonschema:"the target's text after typing, when it takes text ([redacted] in a password field)"`
	Effect   string         `json:"effect,omitempty" jsonschema:"when the field ends as it was (a combobox that clears its input as Enter chooses): what the page shows now that it did not before"`
	page.RefNotes
}

// Type types text with real key events into k's element (focused first,
// caret at the end) or the focused one. With an element that takes text,
// the text it holds after is read back: unchanged, and nothing else the
// page shows changed either, is TYPE_NO_EFFECT. Text typed into a
// password field is marked a secret of the call.
func (t Target) Type(ctx context.Context, k Keys, text string) (*TypedResult, error) {
	res, f := t.Res, t.Frame
	out := &TypedResult{OnSurface: res.On(), Typed: len([]rune(text)), WindowID: res.InputRootID}
	before := &page.TextState{}
	if k.Element != nil {
		focused, st, err := t.Pages.FocusText(ctx, f, *k.Element, k.Timeout)
		if err != nil {
			return nil, err
		}
		before = st
		out.Add(focused.Changed)
		if err := t.Pages.MarkView(ctx, f); err != nil {
			return nil, err
		}
	} else if err := res.FocusFrame(ctx); err != nil {
		return nil, err
	}
	dialog, err := t.guarded(func() error { return input.TypeText(ctx, res.InputRoot, text) })
	if err != nil {
		return nil, err
	}
	if dialog || k.Element == nil {
		return out, nil
	}
	after, err := t.Pages.ActText(ctx, f, *k.Element)
	if err != nil {
		return nil, err
	}
	if !after.Editable {
		return out, nil
	}
	out.Value = &after.Text
	if after.Text.IsSecret() {
		t.secret("text")
	}
	if text != "" && after.Text.Reveal() == before.Text.Reveal() {
		view, err := t.Pages.ViewChange(ctx, f)
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
	return out, nil
}
