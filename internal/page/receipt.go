package page

import "github.com/understudy-dev/understudy/internal/errs"

// Missed is the ELEMENT_NOT_VISIBLE of an event (what: "click", "press
// that starts the drag", …) sent at the point at (as written in messages)
// that an armed element did not receive: what took it in the element's
// document, or, when the document did not see it, the renderer that did
// (inputRoot: the element's document is the window's own) as cover
// describes it at that point.
func (r *Receipt) Missed(what, at string, inputRoot bool, cover func() string) *errs.Error {
	var e *errs.Error
	if r.Seen && r.What != nil {
		e = errs.New(errs.ElementNotVisible, "the %s at %s went to %s instead of the element (it moved or something covered it at that moment)", what, at, r.What.String())
		e.With("covering", r.What)
	} else if inputRoot {
		e = errs.New(errs.ElementNotVisible, "the %s at %s did not reach the element's document: the browser gave it to another renderer at that point (a frame of another process or a window over the page; %s)", what, at, cover())
	} else {
		e = errs.New(errs.ElementNotVisible, "the %s at %s did not reach the element: something in an enclosing frame covers it (%s)", what, at, cover())
	}
	e.Hint = "The browser's hit-testing gave the event to another element. Close or wait for what covers the element (an overlay, dialog or banner), or act on that first."
	return e
}

// MissedPoint is the ELEMENT_NOT_VISIBLE of an event sent at a point
// (at) of surface that did not reach the element there when the point
// was checked (target: its tag and selector): what took it instead, or
// the cover over the frame as cover describes it. The caller adds its
// hint.
func (r *Receipt) MissedPoint(what, at, target, surface string, cover func() string) *errs.Error {
	if r.Seen && r.What != nil {
		e := errs.New(errs.ElementNotVisible, "the %s at %s went to %s, not to %s that was there when the point was checked (something moved or appeared there)", what, at, r.What.String(), target)
		return e.With("covering", r.What)
	}
	return errs.New(errs.ElementNotVisible, "the %s at %s did not reach surface %s: something in an enclosing frame covers it (%s)", what, at, surface, cover())
}

// Changes lists the ref change the receipt found, if any (nil-safe).
func (r *Receipt) Changes() []RefChange {
	if r == nil || r.Changed == nil {
		return nil
	}
	return []RefChange{*r.Changed}
}
