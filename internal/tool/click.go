package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/act"
)

// electron_click and electron_hover.

type clickArgs struct {
	actArgs
	act.PointArgs
	act.ClickArgs
}

func (a *clickArgs) validate() error {
	return checked(a.ClickArgs.Check, func() error { return validatePointed(&a.actArgs, &a.PointArgs) })
}

// clickResult is electron_click's result.
type clickResult struct {
	act.ClickResult
	DialogOpened *dialogOpened `json:"dialog_opened,omitempty" jsonschema:"the click opened a JavaScript dialog: the page waits for its answer"`
}

func (a *clickArgs) pointing() act.Pointing {
	return act.Pointing{PointArgs: a.PointArgs, Locator: a.locator(), Force: a.Force, Timeout: a.timeout()}
}

func click(ctx context.Context, c *Call, a *clickArgs) (*clickResult, error) {
	opts, err := a.Options()
	if err != nil {
		return nil, err
	}
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	var out clickResult
	t := targetOf(c, res, f)
	t.Guard = guardDialogs(ctx, c, res, &out.DialogOpened)
	clicked, err := t.Click(ctx, a.pointing(), opts)
	if err != nil {
		return nil, err
	}
	out.ClickResult = *clicked
	return &out, nil
}

type hoverArgs struct {
	actArgs
	act.PointArgs
	Force bool `json:"force,omitempty" jsonschema:"skip the actionability checks"`
}

func (a *hoverArgs) validate() error { return validatePointed(&a.actArgs, &a.PointArgs) }

func hover(ctx context.Context, c *Call, a *hoverArgs) (*act.HoverResult, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	return targetOf(c, res, f).Hover(ctx, act.Pointing{PointArgs: a.PointArgs, Locator: a.locator(), Force: a.Force, Timeout: a.timeout()})
}
