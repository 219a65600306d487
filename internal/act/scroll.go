package act

import (
	"context"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
)

// ScrollResult is what turning the wheel did or, without a wheel delta,
// what bringing an element into view did.
type ScrollResult struct {
	page.OnSurface
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

// Wheel turns the mouse wheel by (dx, dy) at k's element (waiting until it
// is visible and uncovered) or at the centre of the surface's viewport,
// and reports the scroll positions before and after.
func (t Target) Wheel(ctx context.Context, k Keys, dx, dy float64) (*ScrollResult, error) {
	res, f := t.Res, t.Frame
	var x, y float64
	var before *page.ScrollState
	var changed []page.RefChange
	if k.Element != nil {
		checks := page.PointerChecks()
		checks.Enabled, checks.Stable = false, false
		p, err := t.At(ctx, *k.Element, page.ScrollStateAction(checks), k.Timeout)
		if err != nil {
			return nil, err
		}
		if before, err = p.Acted.ScrollState(); err != nil {
			return nil, err
		}
		x, y, changed = p.X, p.Y, p.Acted.Changed
	} else {
		cx, cy, sc, err := t.Pages.ViewportCenter(ctx, f)
		if err != nil {
			return nil, err
		}
		ox, oy, err := res.Offset(ctx)
		if err != nil {
			return nil, err
		}
		x, y, before = cx+ox, cy+oy, sc
	}
	if err := input.Wheel(ctx, res.InputRoot, x, y, dx, dy); err != nil {
		return nil, err
	}
	after, err := t.Pages.ScrollSettled(ctx, f, time.Second)
	if err != nil {
		return nil, err
	}
	scrolled := !before.Equal(after)
	out := &ScrollResult{OnSurface: res.On(), X: &x, Y: &y, Before: before, After: after, Scrolled: &scrolled, WindowID: res.InputRootID}
	out.Add(changed)
	return out, nil
}

// RevealArgs name an element that may not be rendered yet, and the
// virtualized list to scroll until it is.
type RevealArgs struct {
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

func (a *RevealArgs) query() bool {
	return a.Role != "" || a.Name != "" || a.NameContains != ""
}

// Check validates the element and list named and the timeout.
func (a *RevealArgs) Check() error {
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

// Revealed is what an element scrolled into view reports.
type Revealed struct {
	InView   bool       `json:"in_view"`
	BBox     *page.Rect `json:"bbox" jsonschema:"the element's box in the surface's viewport"`
	WaitedMS int64      `json:"waited_ms"`
	// A found element (not named by ref).
	Ref           int    `json:"ref,omitempty"`
	Role          string `json:"role,omitempty"`
	Name          string `json:"name,omitempty"`
	ScrolledPages *int   `json:"scrolled_pages,omitempty" jsonschema:"how many pages the virtualized lists were scrolled to render it"`
}

// RevealResult is what bringing an element into view did.
type RevealResult struct {
	page.OnSurface
	Revealed
	page.RefNotes
}

// Reveal scrolls the element into view, paging virtualized lists until
// it renders when it is named by role or name (or not rendered yet).
func (t Target) Reveal(ctx context.Context, a RevealArgs) (*RevealResult, error) {
	res, f := t.Res, t.Frame
	timeout, _ := page.CheckTimeout("timeoutMs", a.TimeoutMs)
	loc := page.Locator{Ref: a.Ref, Selector: a.Selector, AllowChanged: a.AllowChanged}
	limit := timeout
	if a.TimeoutMs == 0 {
		limit = page.SeekDefault
	}
	q := page.SeekQuery{Selector: a.Selector, Role: a.Role, Name: a.Name, NameContains: a.NameContains,
		List: page.Locator{Ref: a.ListRef, Selector: a.ListSelector}}
	acted, found, err := t.Pages.Reveal(ctx, f, loc, q, a.query(), limit, timeout)
	if err != nil {
		return nil, err
	}
	out := &RevealResult{OnSurface: res.On(), Revealed: Revealed{InView: true, BBox: acted.Box, WaitedMS: acted.Waited.Milliseconds()}}
	if found != nil {
		out.Ref, out.Role, out.Name, out.ScrolledPages = found.Ref, found.Role, found.Name, &found.Steps
	}
	out.Add(acted.Changed)
	return out, nil
}
