package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

// actArgs name one element and how long to wait for it.
type actArgs struct {
	elementArgs
	thenArg
	TimeoutMs    int  `json:"timeoutMs,omitempty" jsonschema:"how long to wait until the element is actionable; default 5000, max 30000"`
	AllowChanged bool `json:"allowChanged,omitempty" jsonschema:"act on the ref's element even when it now shows another role or name than you last saw (else REF_STALE); the result's ref_changed reports the change"`
}

func (a *actArgs) locator() page.Locator {
	l := a.elementArgs.locator()
	l.AllowChanged = a.AllowChanged
	if a.TimeoutMs == 0 {
		// The default wait: a selector that cannot match fails once the
		// page is quiet (issue 30); a timeout the caller gave is waited.
		l.QuietMiss = quietMiss
	}
	return l
}

// quietMiss is how long a page must be quiet before an action's default
// wait gives up on a selector that matches nothing.
const quietMiss = time.Second

func (a *actArgs) validate() error {
	if _, err := page.CheckTimeout("timeoutMs", a.TimeoutMs); err != nil {
		return err
	}
	return a.elementArgs.validate()
}

func (a *actArgs) timeout() time.Duration {
	d, _ := page.CheckTimeout("timeoutMs", a.TimeoutMs)
	return d
}

// optElementArgs may name an element.
type optElementArgs struct {
	Common
	thenArg
	Ref          int    `json:"ref,omitempty" jsonschema:"the element (a ref from electron_snapshot or electron_find): keys go to it, focused first; a wheel turns at it, or without dx/dy it is scrolled into view"`
	Selector     string `json:"selector,omitempty" jsonschema:"the element (a CSS selector): keys go to it, focused first; a wheel turns at it, or without dx/dy it is scrolled into view"`
	TimeoutMs    int    `json:"timeoutMs,omitempty" jsonschema:"how long to wait for the element; default 5000, max 30000"`
	AllowChanged bool   `json:"allowChanged,omitempty" jsonschema:"use the ref's element even when it now shows another role or name than you last saw (else REF_STALE); the result's ref_changed reports the change"`
}

func (a *optElementArgs) has() bool { return a.Ref != 0 || a.Selector != "" }

func (a *optElementArgs) locator() page.Locator {
	return page.Locator{Ref: a.Ref, Selector: a.Selector, AllowChanged: a.AllowChanged}
}

// keys is where the call's key events go (act.Keys).
func (a *optElementArgs) keys() act.Keys {
	k := act.Keys{Timeout: a.timeout()}
	if a.has() {
		loc := a.locator()
		k.Element = &loc
	}
	return k
}

func (a *optElementArgs) validate() error {
	if _, err := page.CheckTimeout("timeoutMs", a.TimeoutMs); err != nil {
		return err
	}
	if a.has() {
		return a.locator().Check()
	}
	return nil
}

func (a *optElementArgs) timeout() time.Duration {
	d, _ := page.CheckTimeout("timeoutMs", a.TimeoutMs)
	return d
}

// inputFrame resolves the active surface for real input: it must have a
// window root, and that window is brought to the front.
func inputFrame(ctx context.Context, c *Call) (*surface.Resolution, page.Frame, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, f, err
	}
	if err := res.TakesInput(); err != nil {
		return nil, f, err
	}
	if err := bringToFront(ctx, c, res); err != nil {
		return nil, f, err
	}
	return res, f, nil
}

// bringToFront makes the surface's window the front one before pointer
// input: headless Chromium renders only the front window, and a click
// into an OOPIF of a window behind it would miss.
func bringToFront(ctx context.Context, c *Call, res *surface.Resolution) error {
	return toFront(ctx, c, nav.On(res.InputRoot), res.InputRootID)
}

// toFront makes a window the front one, unless it is already.
func toFront(ctx context.Context, c *Call, win nav.Window, windowID string) error {
	if c.Session.IsFront(windowID) {
		return nil
	}
	if err := win.BringToFront(ctx); err != nil {
		return err
	}
	c.Session.SetFront(windowID) // only now: a failure above is retried next time
	return nil
}
