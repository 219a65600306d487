package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/input"
)

// electron_key and electron_press_sequence.

type keyArgs struct {
	optElementArgs
	act.KeyArgs
}

func (a *keyArgs) validate() error { return checked(a.KeyArgs.Check, a.optElementArgs.validate) }

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
	act.SequenceArgs
}

func (a *sequenceArgs) validate() error {
	return checked(a.SequenceArgs.Check, a.optElementArgs.validate)
}

// sequenceResult is electron_press_sequence's result.
type sequenceResult struct {
	act.SequenceResult
	DialogOpened *dialogOpened `json:"dialog_opened,omitempty" jsonschema:"the last key pressed opened a JavaScript dialog: the page waits for its answer"`
}

func pressSequence(ctx context.Context, c *Call, a *sequenceArgs) (*sequenceResult, error) {
	chords, err := a.Chords()
	if err != nil {
		return nil, err
	}
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	var out sequenceResult
	t := targetOf(c, res, f)
	t.Guard = guardDialogs(ctx, c, res, &out.DialogOpened)
	r, err := t.Sequence(ctx, a.keys(), a.Keys, chords, a.Delay())
	if err != nil {
		return nil, err
	}
	out.SequenceResult = *r
	return &out, nil
}
