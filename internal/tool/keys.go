package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
)

// electron_key and electron_press_sequence.

type keyArgs struct {
	optElementArgs
	Key string `json:"key" jsonschema:"a key or chord: Enter, a, Control+Shift+P, Meta+K, Shift+Tab"`
}

func (a *keyArgs) validate() error {
	if _, err := input.ParseChord(a.Key); err != nil {
		return err
	}
	return a.optElementArgs.validate()
}

// keyResult is electron_key's result.
type keyResult struct {
	onSurface
	Pressed      string        `json:"pressed" jsonschema:"the chord as pressed, e.g. Control+Shift+P"`
	WindowID     string        `json:"window_id"`
	DialogOpened *dialogOpened `json:"dialog_opened,omitempty" jsonschema:"the key opened a JavaScript dialog: the page waits for its answer"`
	page.RefNotes
}

func key(ctx context.Context, c *Call, a *keyArgs) (*keyResult, error) {
	chord, err := input.ParseChord(a.Key)
	if err != nil {
		return nil, err
	}
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	focused, err := focusFor(ctx, c, res, f, &a.optElementArgs)
	if err != nil {
		return nil, err
	}
	out := &keyResult{onSurface: surfaceOf(res), Pressed: chord.String(), WindowID: res.InputRootID}
	if focused != nil {
		out.Add(focused.Changed)
	}
	dialog, err := watchDialogs(ctx, c, res, func() error { return input.PressChord(ctx, res.InputRoot, chord) })
	if err != nil {
		return nil, err
	}
	out.DialogOpened = dialog
	return out, nil
}

type sequenceArgs struct {
	optElementArgs
	Keys    []string `json:"keys" jsonschema:"keys or chords pressed in order, e.g. [\"Control+A\", \"Backspace\", \"Enter\"]"`
	DelayMs int      `json:"delayMs,omitempty" jsonschema:"pause between keys in ms; default 0, max 1000"`
}

func (a *sequenceArgs) validate() error {
	if len(a.Keys) == 0 || len(a.Keys) > maxSequence {
		return errs.BadArg("keys", "pass 1 to %d keys", maxSequence)
	}
	for i, k := range a.Keys {
		if _, err := input.ParseChord(k); err != nil {
			if e := errs.As(err); e != nil {
				e.Details["field"] = "keys[" + itoa(i) + "]"
				e.Message = "keys[" + itoa(i) + "]: " + e.Message
			}
			return err
		}
	}
	if a.DelayMs < 0 || a.DelayMs > 1000 {
		return errs.BadArg("delayMs", "must be between 0 and 1000")
	}
	return a.optElementArgs.validate()
}

// sequenceResult is electron_press_sequence's result.
type sequenceResult struct {
	onSurface
	Pressed      []string      `json:"pressed" jsonschema:"the chords pressed, in order"`
	WindowID     string        `json:"window_id"`
	DialogOpened *dialogOpened `json:"dialog_opened,omitempty" jsonschema:"the last key pressed opened a JavaScript dialog: the page waits for its answer"`
	NotPressed   []string      `json:"not_pressed,omitempty" jsonschema:"the keys left out because a dialog stopped the page"`
}

func pressSequence(ctx context.Context, c *Call, a *sequenceArgs) (*sequenceResult, error) {
	chords := make([]input.Chord, len(a.Keys))
	for i, k := range a.Keys {
		ch, err := input.ParseChord(k)
		if err != nil {
			return nil, err
		}
		chords[i] = ch
	}
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	if _, err := focusFor(ctx, c, res, f, &a.optElementArgs); err != nil {
		return nil, err
	}
	pressed := make([]string, 0, len(chords))
	for i, ch := range chords {
		if i > 0 && a.DelayMs > 0 && !page.Pause(ctx, time.Duration(a.DelayMs)*time.Millisecond) {
			return nil, errs.FromContext(ctx, errs.OperationTimeout, "pausing between key presses")
		}
		dialog, err := watchDialogs(ctx, c, res, func() error { return input.PressChord(ctx, res.InputRoot, ch) })
		if err != nil {
			return nil, err
		}
		pressed = append(pressed, ch.String())
		if dialog != nil {
			// The page is stopped: the keys after this one would wait.
			return &sequenceResult{onSurface: surfaceOf(res), Pressed: pressed, WindowID: res.InputRootID,
				DialogOpened: dialog, NotPressed: a.Keys[i+1:]}, nil
		}
	}
	return &sequenceResult{onSurface: surfaceOf(res), Pressed: pressed, WindowID: res.InputRootID}, nil
}
