package tool

import (
	"strings"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

// Where a pointer action goes and whether it got there is internal/act's;
// the handlers build its Pointer here.

// pointerOf is the call's pointer action on the surface res resolved, in
// its frame f.
func pointerOf(c *Call, res *surface.Resolution, f page.Frame) act.Pointer {
	return act.Pointer{Pages: c.Session.Pages, Res: res, Frame: f}
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
