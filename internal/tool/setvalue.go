package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/page"
)

// electron_set_value: the value of a control that holds one of its own
// (range, number, date, time, color inputs; ARIA sliders and spinbuttons).

// setValueArgs names the element by ref or selector only: the wait is
// the default actionability timeout, and a ref whose element changed is
// REF_STALE (a value control is set, not explored).
type setValueArgs struct {
	elementArgs
	page.ValueText
}

func (a *setValueArgs) validate() error {
	if err := a.ValueText.Check(); err != nil {
		return err
	}
	return a.elementArgs.validate()
}

func setValue(ctx context.Context, c *Call, a *setValueArgs) (*act.ValueResult, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	return targetOf(c, res, f).SetValue(ctx, a.locator(), a.ValueText)
}
