package act

import (
	"math"
	"strconv"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
)

// XY is a point in CSS pixels.
type XY struct {
	X float64 `json:"x" jsonschema:"CSS pixels from the left edge"`
	Y float64 `json:"y" jsonschema:"CSS pixels from the top edge"`
}

// PointArgs put a pointer action at a point: of the active surface's
// viewport (x, y, without an element), or of the element (position).
type PointArgs struct {
	X        *float64 `json:"x,omitempty" jsonschema:"instead of an element: a point of the active surface's viewport, CSS pixels from its left edge (with y); for a frame surface, of that frame's own viewport"`
	Y        *float64 `json:"y,omitempty" jsonschema:"instead of an element: CSS pixels from the top edge of the active surface's viewport (with x)"`
	Position *XY      `json:"position,omitempty" jsonschema:"with ref or selector: the point to use, in CSS pixels from the top-left corner of the element's border box (default: the centre of its first box)"`
}

// checkCoord checks one coordinate of a point.
func checkCoord(field string, v float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return errs.BadArg(field, "must be a finite number, not %v", v)
	case v < 0:
		return errs.BadArg(field, "must be 0 or more (CSS pixels from the top-left corner), not %v", v)
	}
	return nil
}

// Check validates the point against whether an element is named.
func (p *PointArgs) Check(element bool) error {
	switch {
	case p.X != nil || p.Y != nil:
		switch {
		case element:
			return errs.BadArg("x", "x/y are a point of the viewport: pass them without ref or selector (position places the action within an element)")
		case p.X == nil:
			return errs.BadArg("x", "pass x with y")
		case p.Y == nil:
			return errs.BadArg("y", "pass y with x")
		case p.Position != nil:
			return errs.BadArg("position", "position counts from an element's corner: pass it with ref or selector, not with x/y")
		}
		if err := checkCoord("x", *p.X); err != nil {
			return err
		}
		return checkCoord("y", *p.Y)
	case p.Position != nil:
		if !element {
			return errs.BadArg("position", "position counts from an element's corner: pass ref or selector with it (x/y name a point of the viewport)")
		}
		if err := checkCoord("position", p.Position.X); err != nil {
			return err
		}
		return checkCoord("position", p.Position.Y)
	}
	return nil
}

// AtPoint says whether the action goes to a point of the viewport.
func (p *PointArgs) AtPoint() bool { return p.X != nil && p.Y != nil }

// Pos is the point of an action within an element, if one is given.
func (p *PointArgs) Pos() *page.Offset {
	if p.Position == nil {
		return nil
	}
	return &page.Offset{X: p.Position.X, Y: p.Position.Y}
}

// point formats a point of a viewport for a message.
func point(x, y float64) string { return "(" + ftoa(x) + ", " + ftoa(y) + ")" }

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }
