package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/page"
)

// electron_check, electron_uncheck and electron_select_option.

type checkArgs struct {
	actArgs
	Force bool `json:"force,omitempty" jsonschema:"skip the actionability checks of the click"`
}

// checkResult is electron_check's and electron_uncheck's result.
type checkResult struct {
	act.CheckResult
	DialogOpened *dialogOpened `json:"dialog_opened,omitempty" jsonschema:"the click opened a JavaScript dialog: the page waits for its answer"`
}

func checkBox(ctx context.Context, c *Call, a *checkArgs) (*checkResult, error) {
	return setChecked(ctx, c, a, true)
}

// uncheckArgs are electron_uncheck's arguments: checkArgs, a type of
// their own so that a trace exports the call as an uncheck.
type uncheckArgs struct{ checkArgs }

func uncheckBox(ctx context.Context, c *Call, a *uncheckArgs) (*checkResult, error) {
	return setChecked(ctx, c, &a.checkArgs, false)
}

func setChecked(ctx context.Context, c *Call, a *checkArgs, want bool) (*checkResult, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	var out checkResult
	t := targetOf(c, res, f)
	t.Guard = guardDialogs(ctx, c, res, &out.DialogOpened)
	r, err := t.SetChecked(ctx, a.locator(), want, a.Force, a.timeout())
	if err != nil {
		return nil, err
	}
	out.CheckResult = *r
	return &out, nil
}

type selectArgs struct {
	actArgs
	page.SelectValues
}

func (a *selectArgs) validate() error {
	if err := a.SelectValues.Check(); err != nil {
		return err
	}
	return a.actArgs.validate()
}

func selectOption(ctx context.Context, c *Call, a *selectArgs) (*act.SelectResult, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	return targetOf(c, res, f).Select(ctx, a.locator(), a.Values, a.timeout())
}
