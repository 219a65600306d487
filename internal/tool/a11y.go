package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/a11y"
	"github.com/understudy-dev/understudy/internal/errs"
)

func registerA11y(s *Server) {
	define(s, Def{
		Name: "a11y_audit", Title: "Audit accessibility with axe-core", Class: classAction, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Audit accessibility with axe-core (the engine the operator gave with --axe-core) in the active surface, the surface surfaceId, or surfaces:'all' (the active window and every frame, nested OOPIF and webview in it). Filter by exact axe rules or by tags (wcag2a, wcag2aa, best-practice, ...), impactMin, include/exclude selectors. Returns bounded violations and incomplete checks with rule id, impact, WCAG tags, help URL and, per node, a ref and surface_id to act on, with the true counts. Automated checks are partial: zero violations is not conformance.",
	}, a11yAudit)
}

func (s *Server) axe() (*a11y.Engine, error) {
	s.axeEng.mu.Lock()
	defer s.axeEng.mu.Unlock()
	if s.axeEng.eng != nil {
		return s.axeEng.eng, nil
	}
	eng, err := a11y.Load(s.cfg.AxeCore)
	if err != nil {
		return nil, err
	}
	s.axeEng.eng = eng
	return eng, nil
}

type a11yArgs struct {
	Common
	SurfaceID            string    `json:"surfaceId,omitempty" jsonschema:"audit this surface (an id from electron_surfaces_list) instead of the active one"`
	Surfaces             string    `json:"surfaces,omitempty" jsonschema:"'all': the active window and every surface in it (frames, nested OOPIFs, webviews)"`
	Rules                a11yRules `json:"rules,omitempty" jsonschema:"axe rule ids to run only these, or axe's rule options {\"color-contrast\": {\"enabled\": false}}; unknown ids are A11Y_UNKNOWN_RULE"`
	Tags                 []string  `json:"tags,omitempty" jsonschema:"or run only rules with any of these tags: wcag2a, wcag2aa, wcag21aa, wcag22aa, best-practice, ..."`
	Include              []string  `json:"include,omitempty" jsonschema:"CSS selectors: audit only these elements and what is under them"`
	Scope                string    `json:"scope,omitempty" jsonschema:"one CSS selector to audit under (the same as include:[scope])"`
	Exclude              []string  `json:"exclude,omitempty" jsonschema:"CSS selectors to leave out"`
	ImpactMin            string    `json:"impactMin,omitempty" jsonschema:"report only findings of this impact or worse: minor, moderate, serious, critical"`
	MaxViolations        int       `json:"maxViolations,omitempty" jsonschema:"findings of each kind returned (default 30, max 200); counts are always complete"`
	MaxNodesPerViolation int       `json:"maxNodesPerViolation,omitempty" jsonschema:"nodes per finding returned (default 5, max 50)"`
	NoIncomplete         bool      `json:"noIncomplete,omitempty" jsonschema:"leave out incomplete checks (axe could not decide; review them by hand)"`
}

func (a *a11yArgs) options() a11y.Options {
	inc := a.Include
	if a.Scope != "" {
		inc = []string{a.Scope}
	}
	return a11y.Options{Rules: a.Rules.IDs, Overrides: a.Rules.Overrides, Tags: a.Tags, Include: inc, Exclude: a.Exclude, Impact: a.ImpactMin,
		MaxViolations: a.MaxViolations, MaxNodes: a.MaxNodesPerViolation, NoIncomplete: a.NoIncomplete}
}

func (a *a11yArgs) validate() error {
	if a.Rules.bad != "" {
		return errs.BadArg("rules", "%s", a.Rules.bad)
	}
	if a.Surfaces != "" && a.Surfaces != "all" {
		return errs.BadArg("surfaces", "'all' is the one value (omit it for the active surface)")
	}
	if a.Surfaces != "" && a.SurfaceID != "" {
		return errs.BadArg("surfaceId", "surfaceId and surfaces:'all' are alternatives")
	}
	if a.Scope != "" && len(a.Include) > 0 {
		return errs.BadArg("scope", "scope and include are alternatives")
	}
	o := a.options()
	return o.Check()
}

// a11yAudited is one surface an audit ran in (or could not).
type a11yAudited struct {
	SurfaceID  string `json:"surface_id"`
	Kind       string `json:"kind"`
	URL        string `json:"url"`
	Violations int    `json:"violations"`
	Injected   bool   `json:"engine_injected"`
	AxeMS      int64  `json:"axe_ms"`
	Code       string `json:"code,omitempty"` // why it was not audited
}

type a11yEngineInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type a11yResult struct {
	SurfaceID  string         `json:"surface_id"`
	Violations []a11y.Finding `json:"violations"`
	Incomplete []a11y.Finding `json:"incomplete"`
	Summary    a11y.Counts    `json:"summary"`
	Truncated  bool           `json:"truncated"`
	Audited    []a11yAudited  `json:"audited"`
	Engine     a11yEngineInfo `json:"engine"`
}

func a11yAudit(ctx context.Context, c *Call, a *a11yArgs) (*a11yResult, error) {
	eng, err := c.Server.axe()
	if err != nil {
		return nil, err
	}
	o := a.options()
	out := &a11yResult{Violations: []a11y.Finding{}, Incomplete: []a11y.Finding{}, Engine: a11yEngineInfo{Name: "axe-core", Version: eng.Version}}
	one := func(id string) (*a11y.Result, error) {
		res, err := c.Session.Surfaces.ResolveID(ctx, id)
		if err != nil {
			return nil, err
		}
		f := frameAt(res)
		return eng.Audit(ctx, f, res.FrameID, c.Session.Pages, o)
	}
	if a.Surfaces == "" {
		var r *a11y.Result
		if a.SurfaceID != "" {
			r, err = one(a.SurfaceID)
		} else {
			res, f, ferr := frameOf(ctx, c)
			if ferr != nil {
				return nil, ferr
			}
			r, err = eng.Audit(ctx, f, res.FrameID, c.Session.Pages, o)
		}
		if err != nil {
			return nil, err
		}
		kind := ""
		if d, ok := c.Session.Surfaces.Describe(r.SurfaceID); ok {
			kind = d.Kind
		}
		out.SurfaceID, out.Violations, out.Incomplete, out.Summary, out.Truncated = r.SurfaceID, r.Violations, r.Incomplete, r.Counts, r.Truncated
		out.Audited = []a11yAudited{{SurfaceID: r.SurfaceID, Kind: kind, URL: r.URL, Violations: r.Counts.Violations, Injected: r.Injected, AxeMS: r.AxeMS}}
		return out, nil
	}
	root, byID, children, err := c.Session.Surfaces.WindowTree(ctx)
	if err != nil {
		return nil, err
	}
	out.SurfaceID = root
	all := a11y.NewCombined(o)
	var walk func(id string) error
	walk = func(id string) error {
		d := byID[id]
		r, err := one(id)
		if err != nil {
			code := errs.CodeOf(err)
			// Bad input is the same in every surface: the call fails.
			if id == root || code == errs.A11yUnknownRule || code == errs.BadArgument || code == errs.A11yEngineMissing || ctx.Err() != nil {
				return err
			}
			out.Audited = append(out.Audited, a11yAudited{SurfaceID: id, Kind: d.Kind, URL: d.URL, Code: string(code)})
		} else {
			out.Audited = append(out.Audited, a11yAudited{SurfaceID: id, Kind: d.Kind, URL: r.URL, Violations: r.Counts.Violations, Injected: r.Injected, AxeMS: r.AxeMS})
			all.Add(r)
		}
		for _, ch := range children[id] {
			if err := walk(ch); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return nil, err
	}
	out.Violations, out.Incomplete, out.Summary, out.Truncated = all.Violations, all.Incomplete, all.Summary, all.Truncated
	return out, nil
}
