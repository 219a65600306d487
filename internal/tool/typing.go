package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/act"
)

// electron_type, electron_clear_input and electron_keyboard_type.

type typeArgs struct {
	actArgs
	act.FieldText
}

func (a *typeArgs) validate() error { return checked(a.FieldText.Check, a.actArgs.validate) }

// fill sets a field's or editor's text as electron_type does (act.Fill).
func fill(ctx context.Context, c *Call, a *actArgs, text string) (*act.TextResult, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	return targetOf(c, res, f).Fill(ctx, a.locator(), text, a.timeout())
}

func typeText(ctx context.Context, c *Call, a *typeArgs) (*act.TextResult, error) {
	return fill(ctx, c, &a.actArgs, *a.Text)
}

// clearArgs are electron_clear_input's arguments: actArgs, a type of their
// own so that a trace exports the call as a fill with "".
type clearArgs struct{ actArgs }

func clearInput(ctx context.Context, c *Call, a *clearArgs) (*act.TextResult, error) {
	return fill(ctx, c, &a.actArgs, "")
}

type keyboardTypeArgs struct {
	optElementArgs
	act.KeyText
}

func (a *keyboardTypeArgs) validate() error {
	return checked(a.KeyText.Check, a.optElementArgs.validate)
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
	if err != nil {
		return nil, err
	}
	out.TypedResult = *r
	return &out, nil
}
