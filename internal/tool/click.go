package tool

import (
	"context"
	"strings"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
)

// electron_click and electron_hover.

type clickArgs struct {
	actArgs
	act.PointArgs
	Button     string   `json:"button,omitempty" jsonschema:"left (default), right or middle"`
	ClickCount int      `json:"clickCount,omitempty" jsonschema:"1 (default) to 3; 2 is a double click"`
	Modifiers  []string `json:"modifiers,omitempty" jsonschema:"held during the click: Alt, Control, Meta, Shift"`
	Force      bool     `json:"force,omitempty" jsonschema:"skip the actionability checks (the browser still decides what the click hits)"`
}

func (a *clickArgs) validate() error {
	if a.ClickCount < 0 || a.ClickCount > 3 {
		return errs.BadArg("clickCount", "must be 1, 2 or 3")
	}
	switch strings.ToLower(a.Button) {
	case "", "left", "right", "middle":
	default:
		return errs.BadArg("button", "must be left, right or middle")
	}
	if _, err := modifierMask(a.Modifiers); err != nil {
		return err
	}
	return validatePointed(&a.actArgs, &a.PointArgs)
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
	mods, err := modifierMask(a.Modifiers)
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
	clicked, err := t.Click(ctx, a.pointing(), input.ClickOptions{Button: a.Button, ClickCount: a.ClickCount, Modifiers: mods})
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
