package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
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
	act.KeyResult
	DialogOpened *dialogOpened `json:"dialog_opened,omitempty" jsonschema:"the key opened a JavaScript dialog: the page waits for its answer"`
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
	var out keyResult
	t := targetOf(c, res, f)
	t.Guard = guardDialogs(ctx, c, res, &out.DialogOpened)
	r, err := t.Key(ctx, a.keys(), chord)
	if err != nil {
		return nil, err
	}
	out.KeyResult = *r
	return &out, nil
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
	act.SequenceResult
	DialogOpened *dialogOpened `json:"dialog_opened,omitempty" jsonschema:"the last key pressed opened a JavaScript dialog: the page waits for its answer"`
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
	var out sequenceResult
	t := targetOf(c, res, f)
	t.Guard = guardDialogs(ctx, c, res, &out.DialogOpened)
	r, err := t.Sequence(ctx, a.keys(), a.Keys, chords, time.Duration(a.DelayMs)*time.Millisecond)
	if err != nil {
		return nil, err
	}
	out.SequenceResult = *r
	return &out, nil
}
