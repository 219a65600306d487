package page

import (
	"strconv"

	"github.com/understudy-dev/understudy/internal/errs"
)

// DragSpan is the smaller extent of the source and the target along a
// drag's main axis (dx, dy from the press to the drop); 0 when a box is
// unknown.
func (a *Acted) DragSpan(dx, dy float64) float64 {
	if a.Box == nil || a.ToBox == nil {
		return 0
	}
	if dx*dx > dy*dy {
		return min(a.Box.Width, a.ToBox.Width)
	}
	return min(a.Box.Height, a.ToBox.Height)
}

// HTML5Refusal says why an HTML drag that is not a reorder did not drop,
// or "" when it did: refused (the page cancelled dragstart) and handed
// (the browser handed the drag over and dropped it) are what the input
// side saw.
func (r *DragReport) HTML5Refusal(refused, handed bool) string {
	switch {
	case refused:
		return "the page cancelled dragstart on the source"
	case !handed:
		return "no drag started from the source (dragstart did not fire)"
	case !r.Accepted:
		return "the target did not accept the drop (its dragover was not cancelled)"
	case !r.Dropped:
		return "the browser did not drop on the target"
	}
	return ""
}

// Failed is the failure of a drag within a list that did not leave the
// source where the target item was (nil when it did, InPlace): the order
// did not change (DRAG_NO_EFFECT; TYPE_NO_EFFECT when the page cancelled
// dragstart, refused) or the item went elsewhere (DRAG_MISPLACED), with
// the order. mode is the kind of drag played.
func (o *DragOrder) Failed(mode string, refused bool) *errs.Error {
	if o.InPlace {
		return nil
	}
	var e *errs.Error
	switch {
	case !o.Moved && refused:
		e = errs.New(errs.TypeNoEffect, "the HTML drag did not drop: the page cancelled dragstart on the source; the list kept its order")
		e.Hint = "The page refused to drag this item (its dragstart handler cancelled it). Check whether it can be dragged (a handle, a disabled item)."
	case !o.Moved:
		e = errs.New(errs.DragNoEffect, "the %s drag ended but the list kept its order: %s is still at index %d, not at %d (where %s was)", mode, strconv.Quote(o.Item), o.Index, o.Target, strconv.Quote(o.AtTarget))
	case o.Index < 0:
		e = errs.New(errs.DragMisplaced, "the %s drag reordered the list but %s left it (or cannot be told apart from another item)", mode, strconv.Quote(o.Item))
	default:
		e = errs.New(errs.DragMisplaced, "the %s drag moved %s to index %d, not to %d where the target was (%s is there now)", mode, strconv.Quote(o.Item), o.Index, o.Target, strconv.Quote(o.AtTarget))
	}
	return e.With("order", o.Order).With("before", o.Before).With("index", o.Index).With("target_index", o.Target).
		With("from_index", o.From).With("mode", mode)
}
