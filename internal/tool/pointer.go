package tool

import (
	"context"
	"strings"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

// Where a pointer action goes and whether it got there is internal/act's;
// the handlers build its Target here.

// targetOf is where an action of the call goes: the surface res resolved, in
// its frame f, with the call's hooks to bring the window to the front and
// to mark a secret parameter.
func targetOf(c *Call, res *surface.Resolution, f page.Frame) act.Target {
	return act.Target{Pages: c.Session.Pages, Res: res, Frame: f, Secret: c.secretArg,
		Front: func(ctx context.Context) error { return bringToFront(ctx, c, res) }}
}

// validatePointed validates an element action that may go to a point
// instead.
func validatePointed(a *actArgs, p *act.PointArgs) error {
	if err := p.Check(a.Ref != 0 || strings.TrimSpace(a.Selector) != ""); err != nil {
		return err
	}
	if p.AtPoint() {
		_, err := page.CheckTimeout("timeoutMs", a.TimeoutMs)
		return err
	}
	return a.validate()
}

// guardDialogs is an act.Target's Guard: it runs input under watchDialogs
// and puts the dialog that opened, if one did, in *opened.
func guardDialogs(ctx context.Context, c *Call, res *surface.Resolution, opened **dialogOpened) func(func() error) (bool, error) {
	return func(run func() error) (bool, error) {
		d, err := watchDialogs(ctx, c, res, run)
		if d != nil {
			*opened = d
		}
		return d != nil, err
	}
}
