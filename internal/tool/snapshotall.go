package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
)

// snapshotAll is electron_snapshot {surfaces:"all"}: the text snapshot of
// the active surface's window root with every descendant surface (frames,
// nested OOPIFs, webview guests) inlined under the line of the iframe or
// webview that hosts it, indented and headed by its surface id, kind and
// URL. Refs are unique in the session and route themselves (routeRef), so
// an agent acts in a frame without switching. since:'last' is each
// surface's own baseline; budgetTokens bounds the whole answer.
func snapshotAll(ctx context.Context, c *Call, a *snapshotArgs) (*page.SnapshotResult, error) {
	if a.Surfaces != "all" {
		return nil, errs.BadArg("surfaces", "'all' is the one value (omit it for the active surface)")
	}
	if a.Format != "" && a.Format != "text" {
		return nil, errs.BadArg("format", "surfaces:'all' answers in the text form; omit format or pass 'text'")
	}
	return c.Session.Surfaces.SnapshotWindow(ctx, c.Session.Pages, page.SnapshotOptions{Since: a.Since, InteractiveOnly: a.InteractiveOnly,
		MaxEntries: a.MaxEntries, BudgetTokens: a.BudgetTokens})
}

// findAll is electron_find {surfaces:"all"}: the query in every surface of
// the active window, parent before children; each match says its
// surface_id and its ref acts there (routeRef). A surface that cannot be
// read is skipped (its id is in skipped_surfaces).
func findAll(ctx context.Context, c *Call, a *findArgs) (*page.Found, error) {
	if a.Surfaces != "all" {
		return nil, errs.BadArg("surfaces", "'all' is the one value (omit it for the active surface)")
	}
	if a.Scroll {
		return nil, errs.BadArg("scroll", "scrolling lists is for one surface; drop surfaces or scroll")
	}
	limit := a.Limit
	if limit == 0 {
		limit = 50
	}
	r, skipped, err := c.Session.Surfaces.FindInWindow(ctx, c.Session.Pages, a.FindQuery, limit) // within is refused with surfaces
	if err != nil {
		return nil, err
	}
	return &page.Found{FindResult: r, Skipped: skipped}, nil
}
