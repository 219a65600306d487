package tool

import (
	"context"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
)

// electron_scroll and electron_scroll_into_view.

type scrollArgs struct {
	optElementArgs
	Dx float64 `json:"dx,omitempty" jsonschema:"wheel delta to the right in CSS pixels (negative: left)"`
	Dy float64 `json:"dy,omitempty" jsonschema:"wheel delta down in CSS pixels (negative: up)"`
}

func (a *scrollArgs) validate() error {
	if !a.has() && a.Dx == 0 && a.Dy == 0 {
		return errs.BadArg("dy", "pass dx/dy to turn the wheel, or ref/selector to scroll an element into view")
	}
	const limit = 1e6
	if a.Dx > limit || a.Dx < -limit || a.Dy > limit || a.Dy < -limit {
		return errs.BadArg("dy", "wheel deltas must be within ±%g", limit)
	}
	return a.optElementArgs.validate()
}

// scrollResult is electron_scroll's result: the wheel's, or without
// dx/dy electron_scroll_into_view's.
type scrollResult struct {
	onSurface
	// The wheel.
	X        *float64          `json:"x,omitempty" jsonschema:"where the wheel turned, CSS pixels of the window's viewport"`
	Y        *float64          `json:"y,omitempty"`
	Before   *page.ScrollState `json:"before,omitempty"`
	After    *page.ScrollState `json:"after,omitempty"`
	Scrolled *bool             `json:"scrolled,omitempty" jsonschema:"a scroll position changed"`
	WindowID string            `json:"window_id,omitempty"`
	// An element scrolled into view (no dx/dy).
	InView        bool       `json:"in_view,omitempty"`
	BBox          *page.Rect `json:"bbox,omitempty" jsonschema:"the element's box in the surface's viewport"`
	WaitedMS      *int64     `json:"waited_ms,omitempty"`
	Ref           int        `json:"ref,omitempty"`
	Role          string     `json:"role,omitempty"`
	Name          string     `json:"name,omitempty"`
	ScrolledPages *int       `json:"scrolled_pages,omitempty"`
	page.RefNotes
}

func scroll(ctx context.Context, c *Call, a *scrollArgs) (*scrollResult, error) {
	if a.Dx == 0 && a.Dy == 0 {
		r, err := scrollIntoView(ctx, c, &scrollIntoViewArgs{Common: a.Common, Ref: a.Ref, Selector: a.Selector, TimeoutMs: a.TimeoutMs, AllowChanged: a.AllowChanged})
		if err != nil {
			return nil, err
		}
		v := r.inViewResult
		return &scrollResult{onSurface: r.onSurface, InView: v.InView, BBox: v.BBox, WaitedMS: &v.WaitedMS, Ref: v.Ref, Role: v.Role, Name: v.Name,
			ScrolledPages: v.ScrolledPages, RefNotes: r.RefNotes}, nil
	}
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	var x, y float64
	var before *page.ScrollState
	var changed []page.RefChange
	if a.has() {
		checks := page.PointerChecks()
		checks.Enabled, checks.Stable = false, false
		p, err := targetOf(c, res, f).At(ctx, a.locator(), page.ScrollStateAction(checks), a.timeout())
		if err != nil {
			return nil, err
		}
		if before, err = p.Acted.ScrollState(); err != nil {
			return nil, err
		}
		x, y, changed = p.X, p.Y, p.Acted.Changed
	} else {
		cx, cy, sc, err := c.Session.Pages.ViewportCenter(ctx, f)
		if err != nil {
			return nil, err
		}
		ox, oy, err := res.Offset(ctx)
		if err != nil {
			return nil, err
		}
		x, y, before = cx+ox, cy+oy, sc
	}
	if err := input.Wheel(ctx, res.InputRoot, x, y, a.Dx, a.Dy); err != nil {
		return nil, err
	}
	after, err := c.Session.Pages.ScrollSettled(ctx, f, time.Second)
	if err != nil {
		return nil, err
	}
	scrolled := !before.Equal(after)
	out := &scrollResult{onSurface: surfaceOf(res), X: &x, Y: &y, Before: before, After: after, Scrolled: &scrolled, WindowID: res.InputRootID}
	out.Add(changed)
	return out, nil
}

// scrollIntoViewArgs name an element that may not be rendered yet.
type scrollIntoViewArgs struct {
	Common
	Ref          int    `json:"ref,omitempty" jsonschema:"a ref from electron_snapshot or electron_find of the active surface"`
	Selector     string `json:"selector,omitempty" jsonschema:"a CSS selector in the active surface's document"`
	Role         string `json:"role,omitempty" jsonschema:"ARIA role of the element to bring into view (with or without a name)"`
	Name         string `json:"name,omitempty" jsonschema:"its exact accessible name"`
	NameContains string `json:"name_contains,omitempty" jsonschema:"a case-insensitive part of its accessible name"`
	ListRef      int    `json:"listRef,omitempty" jsonschema:"the virtualized list to scroll (a ref); default: every virtualized list of the surface"`
	ListSelector string `json:"listSelector,omitempty" jsonschema:"the virtualized list to scroll (a CSS selector)"`
	TimeoutMs    int    `json:"timeoutMs,omitempty" jsonschema:"default 5000 (15000 when a list must be scrolled), max 30000"`
	AllowChanged bool   `json:"allowChanged,omitempty" jsonschema:"use the ref's element even when it now shows another role or name than you last saw (else REF_STALE); the result's ref_changed reports the change"`
}

// seekDefault is how long a list is scrolled when timeoutMs is not given.
const seekDefault = 15 * time.Second

func (a *scrollIntoViewArgs) query() bool {
	return a.Role != "" || a.Name != "" || a.NameContains != ""
}

func (a *scrollIntoViewArgs) validate() error {
	if _, err := page.CheckTimeout("timeoutMs", a.TimeoutMs); err != nil {
		return err
	}
	if a.Ref < 0 || a.ListRef < 0 {
		return errs.BadArg("ref", "refs are positive integers")
	}
	if a.Ref > 0 && (a.Selector != "" || a.query()) {
		return errs.BadArg("ref", "pass ref, selector, or role/name: one of them")
	}
	if a.Selector != "" && a.query() {
		return errs.BadArg("selector", "pass selector or role/name, not both")
	}
	if a.Ref == 0 && strings.TrimSpace(a.Selector) == "" && !a.query() {
		return errs.BadArg("selector", "pass a ref, a selector, or a role and/or name")
	}
	if a.ListRef > 0 && a.ListSelector != "" {
		return errs.BadArg("listRef", "pass listRef or listSelector, not both")
	}
	return nil
}

// inViewResult is what an element scrolled into view reports.
type inViewResult struct {
	InView   bool       `json:"in_view"`
	BBox     *page.Rect `json:"bbox" jsonschema:"the element's box in the surface's viewport"`
	WaitedMS int64      `json:"waited_ms"`
	// A found element (not named by ref).
	Ref           int    `json:"ref,omitempty"`
	Role          string `json:"role,omitempty"`
	Name          string `json:"name,omitempty"`
	ScrolledPages *int   `json:"scrolled_pages,omitempty" jsonschema:"how many pages the virtualized lists were scrolled to render it"`
}

// scrollIntoViewResult is electron_scroll_into_view's result.
type scrollIntoViewResult struct {
	onSurface
	inViewResult
	page.RefNotes
}

func scrollIntoView(ctx context.Context, c *Call, a *scrollIntoViewArgs) (*scrollIntoViewResult, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	timeout, _ := page.CheckTimeout("timeoutMs", a.TimeoutMs)
	loc := page.Locator{Ref: a.Ref, Selector: a.Selector, AllowChanged: a.AllowChanged}
	limit := timeout
	if a.TimeoutMs == 0 {
		limit = seekDefault
	}
	q := page.SeekQuery{Selector: a.Selector, Role: a.Role, Name: a.Name, NameContains: a.NameContains,
		List: page.Locator{Ref: a.ListRef, Selector: a.ListSelector}}
	acted, found, err := c.Session.Pages.Reveal(ctx, f, loc, q, a.query(), limit, timeout)
	if err != nil {
		return nil, err
	}
	out := &scrollIntoViewResult{onSurface: surfaceOf(res), inViewResult: inViewResult{InView: true, BBox: acted.Box, WaitedMS: waitedMS(acted)}}
	if found != nil {
		out.Ref, out.Role, out.Name, out.ScrolledPages = found.Ref, found.Role, found.Name, &found.Steps
	}
	out.Add(acted.Changed)
	return out, nil
}
