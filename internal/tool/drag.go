package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/page"
)

// electron_drag.

type dragArgs struct {
	actArgs
	act.DragArgs
}

func (a *dragArgs) validate() error {
	if err := a.DragArgs.Check(); err != nil {
		return err
	}
	return a.actArgs.validate()
}

// dragResult is electron_drag's result.
type dragResult struct {
	onSurface
	act.Dragged
	page.RefNotes
}

func drag(ctx context.Context, c *Call, a *dragArgs) (*dragResult, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	d, changed, err := targetOf(c, res, f).Drag(ctx, act.Drag{DragArgs: a.DragArgs, Source: a.locator(), AllowChanged: a.AllowChanged, Timeout: a.timeout()})
	if err != nil {
		return nil, err
	}
	out := &dragResult{onSurface: surfaceOf(res), Dragged: *d}
	out.Add(changed)
	return out, nil
}
