package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/a11y"
	"github.com/understudy-dev/understudy/internal/page"
)

func registerA11y(s *Server) {
	define(s, Def{
		Name: "a11y_audit", Title: "Audit accessibility with axe-core", Class: classAction, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Audit accessibility with axe-core (the engine the operator gave with --axe-core) in the active surface, the surface surfaceId, or surfaces:'all' (the active window and every frame, nested OOPIF and webview in it). Filter by exact axe rules or by tags (wcag2a, wcag2aa, best-practice, ...), impactMin, include/exclude selectors. Returns bounded violations and incomplete checks with rule id, impact, WCAG tags, help URL and, per node, a ref and surface_id to act on, with the true counts. Automated checks are partial: zero violations is not conformance.",
	}, a11yAudit)
}

func (s *Server) axe() (*a11y.Engine, error) { return s.axeEng.Get(s.cfg.AxeCore) }

// The arguments, their check, the result and the audit of several
// surfaces are internal/a11y's (request.go, run.go).
type a11yArgs struct {
	Common
	a11y.Request
}

func (a *a11yArgs) validate() error { return a.Request.Check() }

func a11yAudit(ctx context.Context, c *Call, a *a11yArgs) (*a11y.Report, error) {
	eng, err := c.Server.axe()
	if err != nil {
		return nil, err
	}
	return eng.Run(ctx, a11ySurfaces{c}, c.Session.Pages, &a.Request)
}

// a11ySurfaces is the session's surfaces as an audit needs them.
type a11ySurfaces struct{ c *Call }

func (s a11ySurfaces) Frame(ctx context.Context, id string) (page.Frame, string, error) {
	if id == "" {
		res, f, err := frameOf(ctx, s.c)
		if err != nil {
			return page.Frame{}, "", err
		}
		return f, res.FrameID, nil
	}
	res, err := s.c.Session.Surfaces.ResolveID(ctx, id)
	if err != nil {
		return page.Frame{}, "", err
	}
	return frameAt(res), res.FrameID, nil
}

func (s a11ySurfaces) Kind(id string) string {
	d, _ := s.c.Session.Surfaces.Describe(id)
	return d.Kind
}

func (s a11ySurfaces) WindowTree(ctx context.Context) (string, map[string]a11y.Surface, map[string][]string, error) {
	root, byID, children, err := s.c.Session.Surfaces.WindowTree(ctx)
	if err != nil {
		return "", nil, nil, err
	}
	m := make(map[string]a11y.Surface, len(byID))
	for id, d := range byID {
		m[id] = a11y.Surface{Kind: d.Kind, URL: d.URL}
	}
	return root, m, children, nil
}
