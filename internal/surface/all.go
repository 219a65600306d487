package surface

import (
	"context"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
)

// A snapshot or a find of the active window's every surface, as a caller
// asks for it with surfaces:'all' (docs/adr/045).

// checkAll refuses a surfaces value other than 'all'.
func checkAll(surfaces string) error {
	if surfaces != "all" {
		return errs.BadArg("surfaces", "'all' is the one value (omit it for the active surface)")
	}
	return nil
}

// SnapshotAll is the snapshot q with surfaces:'all': the text snapshot of
// the active surface's window root with every descendant surface (frames,
// nested OOPIFs, webview guests) inlined under the line of the iframe or
// webview that hosts it, indented and headed by its surface id, kind and
// URL (SnapshotWindow). Refs are unique in the session and route
// themselves, so an agent acts in a frame without switching. since:'last'
// is each surface's own baseline; budgetTokens bounds the whole answer.
func (r *Registry) SnapshotAll(ctx context.Context, pages *page.Store, surfaces string, q *page.SnapshotQuery) (*page.SnapshotResult, error) {
	if err := checkAll(surfaces); err != nil {
		return nil, err
	}
	if q.Format != "" && q.Format != "text" {
		return nil, errs.BadArg("format", "surfaces:'all' answers in the text form; omit format or pass 'text'")
	}
	return r.SnapshotWindow(ctx, pages, page.SnapshotOptions{Since: q.Since, InteractiveOnly: q.InteractiveOnly,
		MaxEntries: q.MaxEntries, BudgetTokens: q.BudgetTokens})
}

// FindAll is the find q with surfaces:'all': the query in every surface of
// the active window, parent before children (FindInWindow); each match says
// its surface_id and its ref acts there. A surface that cannot be read is
// skipped (its id is in skipped_surfaces). Scrolling lists is refused:
// it is for one surface.
func (r *Registry) FindAll(ctx context.Context, pages *page.Store, surfaces string, q page.FindQuery, sc *page.FindScroll) (*page.Found, error) {
	if err := checkAll(surfaces); err != nil {
		return nil, err
	}
	if sc.Scroll {
		return nil, errs.BadArg("scroll", "scrolling lists is for one surface; drop surfaces or scroll")
	}
	limit := q.Limit
	if limit == 0 {
		limit = 50
	}
	found, skipped, err := r.FindInWindow(ctx, pages, q, limit)
	if err != nil {
		return nil, err
	}
	return &page.Found{FindResult: found, Skipped: skipped}, nil
}
