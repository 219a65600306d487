package tool

import (
	"context"
	"strconv"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

func registerInteract(s *Server) {
	add(s, "electron_click", "Click an element of the active surface (ref or selector) with a real mouse event on its window, so the browser's own hit-testing decides what receives it: an overlay covering the element gets the click and the error names it.", true, gateNone, click)
	add(s, "electron_key", "Press a key or chord (Enter, Control+Shift+P, Meta+K, ArrowDown…) in the active surface; with ref or selector the element is focused first.", true, gateNone, key)
}

type clickArgs struct {
	elementArgs
	Button     string   `json:"button,omitempty" jsonschema:"left (default), right or middle"`
	ClickCount int      `json:"clickCount,omitempty" jsonschema:"1 (default) to 3"`
	Modifiers  []string `json:"modifiers,omitempty" jsonschema:"held during the click: Alt, Control, Meta, Shift"`
}

func (a *clickArgs) validate() error {
	if a.ClickCount < 0 || a.ClickCount > 3 {
		return errs.BadArg("clickCount", "must be 1, 2 or 3")
	}
	switch strings.ToLower(a.Button) {
	case "", "left", "right", "middle":
	default:
		return errs.BadArg("button", "must be left, right or middle")
	}
	return a.elementArgs.validate()
}

// bringToFront makes the surface's window the front one before pointer
// input: headless Chromium renders only the front window, and a click
// into an OOPIF of a window behind it would miss.
func bringToFront(ctx context.Context, c *Call, res *surface.Resolution) error {
	if c.Session.Front(res.InputRootID) {
		return nil
	}
	if err := res.InputRoot.Call(ctx, "Page.bringToFront", nil, nil); err != nil {
		return err
	}
	// Two animation frames: the window has painted once it is in front.
	return res.InputRoot.Call(ctx, "Runtime.evaluate", map[string]any{
		"expression":   "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))",
		"awaitPromise": true,
	}, nil)
}

func click(ctx context.Context, c *Call, a *clickArgs) (any, error) {
	mods, err := modifierMask(a.Modifiers)
	if err != nil {
		return nil, err
	}
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	if res.InputRoot == nil {
		return nil, errs.New(errs.SurfaceUnsupported, "surface %s has no window root to take input", res.SurfaceID)
	}
	if err := bringToFront(ctx, c, res); err != nil {
		return nil, err
	}
	loc := a.locator()
	fx, fy, err := c.Session.Pages.Point(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	// The point must reach the element inside its own frame; what the
	// window's hit-testing does across frames is the browser's, and the
	// click below goes through it.
	hit, err := c.Session.Pages.HitTestArm(ctx, f, loc, fx, fy)
	if err != nil {
		return nil, err
	}
	ox, oy, err := res.Offset(ctx)
	if err != nil {
		return nil, err
	}
	x, y := fx+ox, fy+oy
	if !hit.OK {
		e := errs.New(errs.ElementNotVisible, "the element does not receive the pointer at its center: %s", describeCover(hit))
		e.Details = map[string]any{"covering": hit.Covering, "reason": hit.Reason}
		return nil, e
	}
	if err := input.Click(ctx, res.InputRoot, x, y, input.ClickOptions{Button: a.Button, ClickCount: a.ClickCount, Modifiers: mods}); err != nil {
		return nil, err
	}
	// Never claim a click the element did not get: the window's own
	// hit-testing may have given it to something over the frame.
	got, err := c.Session.Pages.Received(ctx, f)
	if err != nil {
		return nil, err
	}
	if !got {
		e := errs.New(errs.ElementNotVisible, "the click at (%.0f, %.0f) did not reach the element: something in an enclosing frame covers it (%s)", x, y, c.coverAt(ctx, res, x, y))
		e.Details = map[string]any{"x": x, "y": y, "surface_id": res.SurfaceID}
		return nil, e
	}
	return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "clicked": true, "x": x, "y": y, "window_id": res.InputRootID}), nil
}

func describeCover(h *page.Hit) string {
	if h.Covering == nil {
		if h.Reason != "" {
			return h.Reason
		}
		return "nothing is there"
	}
	cv := h.Covering
	s := "covered by " + cv.Role
	if cv.Name != "" {
		s += " " + jsString(cv.Name)
	}
	if cv.Selector != "" {
		s += " (" + cv.Selector + ")"
	}
	return s
}

type keyArgs struct {
	Common
	Key      string `json:"key" jsonschema:"a key or chord: Enter, a, Control+Shift+P, Meta+K, Shift+Tab"`
	Ref      int    `json:"ref,omitempty" jsonschema:"focus this element first"`
	Selector string `json:"selector,omitempty" jsonschema:"focus this element first"`
}

func (a *keyArgs) validate() error {
	if _, err := input.ParseChord(a.Key); err != nil {
		return err
	}
	if a.Ref != 0 || a.Selector != "" {
		return page.Locator{Ref: a.Ref, Selector: a.Selector}.Check()
	}
	return nil
}

func key(ctx context.Context, c *Call, a *keyArgs) (any, error) {
	chord, err := input.ParseChord(a.Key)
	if err != nil {
		return nil, err
	}
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	if res.InputRoot == nil {
		return nil, errs.New(errs.SurfaceUnsupported, "surface %s has no window root to take input", res.SurfaceID)
	}
	if err := bringToFront(ctx, c, res); err != nil {
		return nil, err
	}
	if a.Ref != 0 || a.Selector != "" {
		if err := c.Session.Pages.Focus(ctx, f, page.Locator{Ref: a.Ref, Selector: a.Selector}); err != nil {
			return nil, err
		}
	} else if err := res.FocusFrame(ctx); err != nil {
		return nil, err
	}
	if err := input.PressChord(ctx, res.InputRoot, chord); err != nil {
		return nil, err
	}
	return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "pressed": chord.String()}), nil
}

// coverAt describes what the window's top document has at a point.
func (c *Call) coverAt(ctx context.Context, res *surface.Resolution, x, y float64) string {
	var out struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	expr := "(() => { const e = document.elementFromPoint(" + ftoa(x) + ", " + ftoa(y) + "); if (!e) return 'nothing'; " +
		"const n = e.getAttribute('aria-label') || (e.innerText || '').trim().slice(0, 40); " +
		"return e.localName + (e.id ? '#' + e.id : '') + (n ? ' \"' + n + '\"' : ''); })()"
	if err := res.InputRoot.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &out); err != nil {
		return "unknown"
	}
	return "at the window's top level: " + out.Result.Value
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }
