package tool

import (
	"github.com/understudy-dev/understudy/internal/errs"
)

// refBearer is the typed input of a tool that names an element by ref
// (its "ref" parameter): the dispatcher routes the call with it.
type refBearer interface{ refArg() int }

func (a *elementArgs) refArg() int        { return a.Ref }
func (a *optElementArgs) refArg() int     { return a.Ref }
func (a *screenshotArgs) refArg() int     { return a.Ref }
func (a *scrollIntoViewArgs) refArg() int { return a.Ref }
func (a *captureArgs) refArg() int        { return a.Ref }

// routeRef sends a call that names an element by ref to the surface that
// issued the ref, without changing the active surface (issue 15, ADR-001
// as amended): a ref from electron_snapshot {surfaces:"all"} or from a
// surface the agent switched away from acts where it points. A ref of a
// surface that has closed is SURFACE_CLOSED. A ref the session never
// issued is left to the handler (REF_NOT_FOUND, with similar refs).
func (c *Call) routeRef(args any) error {
	rb, ok := args.(refBearer)
	if !ok {
		return nil
	}
	ref := rb.refArg()
	if ref <= 0 {
		return nil
	}
	id, live, ok := c.Session.Pages.SurfaceOfRef(ref)
	if !ok {
		return nil
	}
	if !live {
		return errs.New(errs.SurfaceClosed, "ref %d belongs to surface %s, which has closed", ref, id).With("surfaceId", id).With("ref", ref)
	}
	if id != c.Session.Surfaces.Active() {
		c.surface = id
	}
	return nil
}
