package nav

import (
	"context"
	"encoding/json"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// History is the window's session history as the browser keeps it.
type History struct {
	Index   int // the current entry
	Entries int
	ids     []int64
	urls    []string
}

// History reads the window's session history.
func (w Window) History(ctx context.Context) (*History, error) {
	var out struct {
		CurrentIndex int `json:"currentIndex"`
		Entries      []struct {
			ID  int64  `json:"id"`
			URL string `json:"url"`
		} `json:"entries"`
	}
	if err := w.conn.Call(ctx, "Page.getNavigationHistory", nil, &out); err != nil {
		return nil, err
	}
	h := &History{Index: out.CurrentIndex, Entries: len(out.Entries)}
	for _, e := range out.Entries {
		h.ids = append(h.ids, e.ID)
		h.urls = append(h.urls, e.URL)
	}
	return h, nil
}

// Traversal is the result of a move in history or a reload.
type Traversal struct {
	// SameDocument is true when the move stayed in the document (a
	// fragment or pushState entry): no load event comes then.
	SameDocument bool
	Index        int
	Entries      int
}

// Go moves delta entries through history (-1 back, +1 forward) and waits
// for the new document's load event (or the same-document navigation);
// HISTORY_EMPTY when there is no entry there.
func (w Window) Go(ctx context.Context, delta int, timeout time.Duration) (*Traversal, error) {
	h, err := w.History(ctx)
	if err != nil {
		return nil, err
	}
	to := h.Index + delta
	if to < 0 || to >= h.Entries {
		dir := "back"
		if delta > 0 {
			dir = "forward"
		}
		return nil, errs.New(errs.HistoryEmpty, "the window has no history entry %s (entry %d of %d)", dir, h.Index+1, h.Entries).
			With("index", h.Index).With("entries", h.Entries)
	}
	same, err := w.waitNavigation(ctx, timeout, func() error {
		return w.conn.Call(ctx, "Page.navigateToHistoryEntry", map[string]any{"entryId": h.ids[to]}, nil)
	})
	if err != nil {
		return nil, err
	}
	return &Traversal{SameDocument: same, Index: to, Entries: h.Entries}, nil
}

// Reload reloads the window (bypassing the cache when asked) and waits for
// the load event.
func (w Window) Reload(ctx context.Context, ignoreCache bool, timeout time.Duration) (*Traversal, error) {
	if _, err := w.waitNavigation(ctx, timeout, func() error {
		return w.conn.Call(ctx, "Page.reload", map[string]any{"ignoreCache": ignoreCache}, nil)
	}); err != nil {
		return nil, err
	}
	h, err := w.History(ctx)
	if err != nil {
		return nil, err
	}
	return &Traversal{Index: h.Index, Entries: h.Entries}, nil
}

// waitNavigation runs start and waits for the main frame's load event or
// a same-document navigation of the main frame (reported as true).
func (w Window) waitNavigation(ctx context.Context, timeout time.Duration, start func() error) (bool, error) {
	if err := w.conn.Call(ctx, "Page.enable", nil, nil); err != nil {
		return false, err
	}
	var tree struct {
		FrameTree struct {
			Frame struct {
				ID string `json:"id"`
			} `json:"frame"`
		} `json:"frameTree"`
	}
	if err := w.conn.Call(ctx, "Page.getFrameTree", nil, &tree); err != nil {
		return false, err
	}
	main := tree.FrameTree.Frame.ID
	loads, stopLoads := w.conn.Subscribe("Page.loadEventFired")
	defer stopLoads()
	within, stopWithin := w.conn.Subscribe("Page.navigatedWithinDocument")
	defer stopWithin()
	// A page restored from the back-forward cache fires no load event:
	// its frameNavigated says so (type BackForwardCacheRestore).
	navigated, stopNavigated := w.conn.Subscribe("Page.frameNavigated")
	defer stopNavigated()
	if err := start(); err != nil {
		return false, err
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case <-loads:
			return false, nil
		case v := <-within:
			var ev struct {
				FrameID string `json:"frameId"`
			}
			if json.Unmarshal(v, &ev) == nil && ev.FrameID == main {
				return true, nil
			}
		case v := <-navigated:
			var ev struct {
				Frame struct {
					ParentID string `json:"parentId"`
				} `json:"frame"`
				Type string `json:"type"`
			}
			if json.Unmarshal(v, &ev) == nil && ev.Frame.ParentID == "" && ev.Type == "BackForwardCacheRestore" {
				return false, nil
			}
		case <-t.C:
			return false, errs.New(errs.WaitTimeout, "the window did not finish loading within the timeout")
		case <-ctx.Done():
			return false, errs.FromContext(ctx, errs.OperationTimeout, "waiting for the navigation")
		}
	}
}

// ForgetOtherEntries drops every entry of the window's history but the
// current one (Page.resetNavigationHistory): a window opened blank and
// then sent to its first URL has a history as if it had opened there.
func (w Window) ForgetOtherEntries(ctx context.Context) error {
	return w.conn.Call(ctx, "Page.resetNavigationHistory", nil, nil)
}
