package a11y

import (
	"context"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
)

// Audited is one surface an audit ran in (or could not).
type Audited struct {
	SurfaceID  string `json:"surface_id"`
	Kind       string `json:"kind"`
	URL        string `json:"url"`
	Violations int    `json:"violations"`
	Injected   bool   `json:"engine_injected"`
	AxeMS      int64  `json:"axe_ms"`
	Code       string `json:"code,omitempty"` // why it was not audited
}

// EngineInfo names the engine that audited.
type EngineInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Report is a11y_audit's result: one surface's audit, or the window's
// surfaces merged (Combined), with the surfaces audited.
type Report struct {
	SurfaceID  string     `json:"surface_id"`
	Violations []Finding  `json:"violations"`
	Incomplete []Finding  `json:"incomplete"`
	Summary    Counts     `json:"summary"`
	Truncated  bool       `json:"truncated"`
	Audited    []Audited  `json:"audited"`
	Engine     EngineInfo `json:"engine"`
}

// Surface is a surface of the active window's tree: its kind and URL.
type Surface struct {
	Kind, URL string
}

// Surfaces is what Run needs of a session's surfaces (internal/tool adapts
// its surface registry).
type Surfaces interface {
	// Frame resolves a surface by id, the active one when id is "": the
	// page's main world in its document, and its frame id.
	Frame(ctx context.Context, id string) (page.Frame, string, error)
	// Kind is a surface's kind, "" when it is not known.
	Kind(id string) string
	// WindowTree is the active window's surfaces: the root, every surface
	// by id, and each surface's children in order.
	WindowTree(ctx context.Context) (root string, byID map[string]Surface, children map[string][]string, err error)
}

// Run audits as r asks: the active surface, the surface r.SurfaceID, or
// with surfaces:'all' the active window's root and every surface under it,
// depth first, merged. A surface under the root that cannot be audited is
// listed with its code and skipped, unless the failure is the input's
// (the same in every surface) or the call's.
func (e *Engine) Run(ctx context.Context, s Surfaces, refs Referrer, r *Request) (*Report, error) {
	o := r.Options()
	out := &Report{Violations: []Finding{}, Incomplete: []Finding{}, Engine: EngineInfo{Name: "axe-core", Version: e.Version}}
	one := func(id string) (*Result, error) {
		f, frameID, err := s.Frame(ctx, id)
		if err != nil {
			return nil, err
		}
		return e.Audit(ctx, f, frameID, refs, o)
	}
	if r.Surfaces == "" {
		res, err := one(r.SurfaceID)
		if err != nil {
			return nil, err
		}
		out.SurfaceID, out.Violations, out.Incomplete, out.Summary, out.Truncated = res.SurfaceID, res.Violations, res.Incomplete, res.Counts, res.Truncated
		out.Audited = []Audited{{SurfaceID: res.SurfaceID, Kind: s.Kind(res.SurfaceID), URL: res.URL, Violations: res.Counts.Violations, Injected: res.Injected, AxeMS: res.AxeMS}}
		return out, nil
	}
	root, byID, children, err := s.WindowTree(ctx)
	if err != nil {
		return nil, err
	}
	out.SurfaceID = root
	all := NewCombined(o)
	var walk func(id string) error
	walk = func(id string) error {
		d := byID[id]
		res, err := one(id)
		if err != nil {
			code := errs.CodeOf(err)
			// Bad input is the same in every surface: the call fails.
			if id == root || code == errs.A11yUnknownRule || code == errs.BadArgument || code == errs.A11yEngineMissing || ctx.Err() != nil {
				return err
			}
			out.Audited = append(out.Audited, Audited{SurfaceID: id, Kind: d.Kind, URL: d.URL, Code: string(code)})
		} else {
			out.Audited = append(out.Audited, Audited{SurfaceID: id, Kind: d.Kind, URL: res.URL, Violations: res.Counts.Violations, Injected: res.Injected, AxeMS: res.AxeMS})
			all.Add(res)
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
