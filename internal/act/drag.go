package act

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
)

// maxDragSteps bounds the moves of a pointer drag.
const maxDragSteps = 100

// DragArgs are a drag's target and how it goes, as electron_drag takes
// them beside its source.
type DragArgs struct {
	TargetRef      int    `json:"targetRef,omitempty" jsonschema:"the element to drop onto: a ref"`
	TargetSelector string `json:"targetSelector,omitempty" jsonschema:"the element to drop onto: a CSS selector"`
	Steps          int    `json:"steps,omitempty" jsonschema:"moves from source to target; default: enough that no move skips more than a quarter of the smaller element (at least 10), max 100"`
	Expect         string `json:"expect,omitempty" jsonschema:"auto (default), reorder or drop: reorder checks that the source ends where the target item was; drop never checks an order; auto checks it for two children of one list (or when the page moved the parent's children)"`
}

// Check validates the drag's own arguments.
func (a *DragArgs) Check() error {
	switch {
	case a.TargetRef < 0:
		return errs.BadArg("targetRef", "must be a positive integer, not %d", a.TargetRef)
	case a.TargetRef > 0 && a.TargetSelector != "":
		return errs.BadArg("targetRef", "pass targetRef or targetSelector, not both")
	case a.TargetRef == 0 && strings.TrimSpace(a.TargetSelector) == "":
		return errs.BadArg("targetSelector", "name the element to drop onto: pass targetRef or targetSelector")
	case a.Steps < 0 || a.Steps > maxDragSteps:
		return errs.BadArg("steps", "must be between 1 and %d", maxDragSteps)
	}
	switch a.Expect {
	case "", "auto", "reorder", "drop":
	default:
		return errs.BadArg("expect", "must be auto, reorder or drop, not %q", a.Expect)
	}
	return nil
}

// Drag is a drag to play: DragArgs, its source, and how long the source
// may take to become actionable.
type Drag struct {
	DragArgs
	Source       page.Locator
	AllowChanged bool
	Timeout      time.Duration
}

// Target is the element to drop onto.
func (d Drag) Target() page.Locator {
	return page.Locator{Ref: d.TargetRef, Selector: d.TargetSelector, AllowChanged: d.AllowChanged}
}

// dragSettle bounds the wait, after the drop, for the page to settle: the
// order (or the source's place) holding still for three frames with no
// drop animation running on the list (a library animates the drop, then
// re-renders the list).
const dragSettle = 3 * time.Second

// Dragged is what a drag did, as the page showed it.
type Dragged struct {
	Mode     string `json:"mode" jsonschema:"html5 (the browser's drag and drop) or pointer (mouse events)"`
	From     XY     `json:"from" jsonschema:"where the drag started, CSS pixels of the window's viewport"`
	To       XY     `json:"to" jsonschema:"where it ended"`
	Steps    int    `json:"steps"`
	WindowID string `json:"window_id"`
	Trusted  *bool  `json:"trusted,omitempty" jsonschema:"html5: the page saw a trusted dragstart"`
	Note     string `json:"note,omitempty"`
	// A drag within a list.
	Reordered *bool    `json:"reordered,omitempty" jsonschema:"the list's order changed so the item is where the target was"`
	Index     *int     `json:"index,omitempty" jsonschema:"the dragged item's index now"`
	Order     []string `json:"order,omitempty" jsonschema:"the list's items as the page shows them now"`
	// A drag that moved the source elsewhere.
	SourceMoved bool            `json:"source_moved,omitempty"`
	Source      *page.DragPlace `json:"source,omitempty"`
	// An HTML drag that dropped.
	Dropped       bool  `json:"dropped,omitempty"`
	DropPrevented *bool `json:"drop_prevented,omitempty" jsonschema:"the page's drop handler handled the drop itself"`
	// Verified says the effect was observed: the list's order, the source's
	// new place, or the page's handling of an HTML drop. false: the page
	// changed (changed says how much) but nothing tells whether it is what
	// the drag meant.
	Verified bool `json:"verified" jsonschema:"the drag's effect was observed (order, the source's place, or an HTML drop the page handled); false: the page changed but nothing tells where the item went"`
	Changed  int  `json:"changed_count,omitempty" jsonschema:"with verified:false, how many texts or values in view moved or changed"`
}

// Drag plays a drag with real input (input.PlayDrag: the page's own
// dragstart decides between an HTML drag and a pointer drag) while the page
// watches it, then checks the effect: for a drag within a list, the source
// must end where the target item was. It answers the refs whose element
// changed on the way too.
func (t Target) Drag(ctx context.Context, d Drag) (*Dragged, []page.RefChange, error) {
	res, f := t.Res, t.Frame
	src, dst := d.Source, d.Target()
	expect := d.Expect
	if expect == "" {
		expect = "auto"
	}
	watch := page.DragWatchAction(page.PointerChecks(), &dst, expect)
	watch.Arm, watch.Early = "pointerdown", true
	p, err := t.At(ctx, src, watch, d.Timeout)
	if err != nil {
		return nil, nil, err
	}
	from := input.Point{X: p.X, Y: p.Y}
	to := input.Point{X: p.Acted.ToX + (p.X - p.Acted.X), Y: p.Acted.ToY + (p.Y - p.Acted.Y)}
	steps := d.Steps
	if steps == 0 {
		steps = input.DragSteps(from, to, p.Acted.DragSpan(to.X-from.X, to.Y-from.Y))
	}
	out, err := input.PlayDrag(ctx, res.InputRoot, input.DragPlan{From: from, To: to, Steps: steps, Started: func() (input.DragStart, error) {
		r, err := t.Pages.DragReport(ctx, f, true)
		switch {
		case err != nil:
			return input.NoDragStart, err
		case r.StartSeen && !r.Started:
			return input.DragStartCancelled, nil
		case r.Started:
			return input.DragStarted, nil
		}
		return input.NoDragStart, nil
	}})
	if err != nil {
		return nil, nil, err
	}
	if _, err := t.Received(ctx, p.X, p.Y, "press that starts the drag"); err != nil {
		return nil, nil, err
	}
	r, err := t.Pages.DragSettled(ctx, f, dragSettle)
	if err != nil {
		return nil, nil, err
	}
	ok := &Dragged{Mode: out.Mode, From: XY{X: from.X, Y: from.Y}, To: XY{X: to.X, Y: to.Y}, Steps: steps, WindowID: res.InputRootID}
	changed := p.Acted.Changed
	if out.Mode == input.ModeHTML5 {
		ok.Trusted = &r.Trusted
	}
	if !r.Watching {
		// The drag navigated the document: nothing is left to ask.
		if out.Mode == input.ModePointer || out.Handed {
			ok.Note = "the document was replaced during the drag"
			return ok, changed, nil
		}
		e := errs.New(errs.TypeNoEffect, "the HTML drag did not drop: the document was replaced before the drag started")
		return nil, nil, e.With("surface_id", res.SurfaceID)
	}
	if o := r.Order; o != nil {
		ok.Index, ok.Order = &o.Index, o.Order
		if o.Reorder {
			ok.Verified = true
			if e := o.Failed(out.Mode, out.Refused); e != nil {
				return nil, nil, e.With("surface_id", res.SurfaceID)
			}
			reordered := true
			ok.Reordered = &reordered
			return ok, changed, nil
		}
		ok.Reordered = &o.Moved
	}
	if r.SourceMoved && r.Source != nil {
		// The page moved the source (into another list, say): the drag did
		// something, whatever its drop events said. It must have gone
		// beside the target (into its parent) or into it.
		if !r.Source.BesideTarget && !r.Source.InsideTarget {
			e := errs.New(errs.DragMisplaced, "the %s drag moved the item to %s (index %d), neither beside the target (in its parent) nor into it", out.Mode, r.Source.Parent, r.Source.Index)
			return nil, nil, e.With("source", r.Source).With("mode", out.Mode).With("surface_id", res.SurfaceID)
		}
		ok.SourceMoved, ok.Source, ok.Verified = true, r.Source, true
		return ok, changed, nil
	}
	if out.Mode == input.ModeHTML5 {
		if why := r.HTML5Refusal(out.Refused, out.Handed); why != "" {
			e := errs.New(errs.TypeNoEffect, "the HTML drag did not drop: %s", why)
			e.Hint = "The page refused this drag. Check the source and the target (the target's dragover handler must call preventDefault), or try another target."
			return nil, nil, e.With("surface_id", res.SurfaceID)
		}
		ok.Dropped, ok.DropPrevented, ok.Verified = true, &r.DropPrevented, true
		return ok, changed, nil
	}
	// A pointer drag that is no reorder and left the source where it was:
	// only the page's net change can tell.
	if n := r.Net; n != nil && n.Changed == 0 {
		e := errs.New(errs.DragNoEffect, "the %s drag ended and the page shows nothing new: every text and form value in view is where it was before the drag", out.Mode)
		e.Hint = "The page did not react to this drag. Check that the source can be dragged (a handle, a mode the app must enable) and that the target takes drops; electron_snapshot shows what is there."
		return nil, nil, e.With("mode", out.Mode).With("surface_id", res.SurfaceID)
	} else if n != nil {
		ok.Changed = n.Changed
		ok.Note = "the page changed (" + strconv.Itoa(n.Changed) + " texts or values moved or changed; it " + n.First + "), but no list order or new place of the source tells whether the item went to the target; check the page"
	}
	return ok, changed, nil
}
