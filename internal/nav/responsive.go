package nav

import (
	"context"
	"encoding/json"
	"time"

	"github.com/understudy-dev/understudy/internal/cdp"
)

// Probe is a liveness check of a window's renderer: a trivial
// Runtime.evaluate written on the window's socket ahead of a call's own
// commands. The renderer runs commands in order on its main thread, so a
// probe that gets no answer means the main thread was busy before the
// call's commands reached it: a script of the page's that does not
// return (while(true){}), or a very long task.
type Probe struct{ p *cdp.Pending }

// ProbeExpression is what a probe evaluates (tests tell probes apart by it).
const ProbeExpression = "0 // understudy: liveness probe"

// StartProbe writes the probe and returns without waiting.
func (w Window) StartProbe(ctx context.Context) (*Probe, error) {
	p, err := w.conn.Start(ctx, "Runtime.evaluate", map[string]any{"expression": ProbeExpression, "returnByValue": true, "silent": true})
	if err != nil {
		return nil, err
	}
	return &Probe{p}, nil
}

// Answered waits up to within for the probe's reply and reports whether
// one came (an error reply, a closed socket or the end of ctx count as
// answered: they are not a busy main thread).
func (p *Probe) Answered(ctx context.Context, within time.Duration) bool {
	wctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	err := p.p.Wait(wctx, nil)
	return err == nil || ctx.Err() != nil || wctx.Err() == nil
}

// Drop forgets a probe nobody waits for.
func (p *Probe) Drop() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = p.p.Wait(ctx, nil) // a done context: returns at once and forgets it
}

// Responsive reports whether the window's renderer answers a trivial
// evaluation within d.
func (w Window) Responsive(ctx context.Context, d time.Duration) bool {
	p, err := w.StartProbe(ctx)
	if err != nil {
		return true // not a busy renderer; the caller's own call will say what is wrong
	}
	return p.Answered(ctx, d)
}

// Interrupt ends the script the window's renderer is running
// (Runtime.terminateExecution). Chromium takes this command off the
// renderer's main thread, so it reaches a page stuck in a loop; the page's
// document and state stay, and its timers and handlers run again later.
func (w Window) Interrupt(ctx context.Context) error {
	return w.conn.Call(ctx, "Runtime.terminateExecution", nil, nil)
}

// MainNavigation reads an event of a window's own socket (not of a child
// session) as a step of its main frame's navigation: started (the browser
// began one: Page.frameStartedNavigating, Page.frameRequestedNavigation)
// or ended (it committed, stopped loading or loaded). ok is false for any
// other event. Chromium holds a window's commands while a cross-process
// navigation of it is under way, so a silent renderer then is not a
// stuck one.
func MainNavigation(windowID string, ev cdp.Event) (started, ok bool) {
	var p struct {
		FrameID string `json:"frameId"`
		Frame   struct {
			ParentID string `json:"parentId"`
		} `json:"frame"`
	}
	switch ev.Method {
	case "Page.frameStartedNavigating", "Page.frameRequestedNavigation", "Page.frameStoppedLoading":
		if json.Unmarshal(ev.Params, &p) != nil || p.FrameID != windowID {
			return false, false
		}
		return ev.Method != "Page.frameStoppedLoading", true
	case "Page.frameNavigated":
		if json.Unmarshal(ev.Params, &p) != nil || p.Frame.ParentID != "" {
			return false, false
		}
		return false, true
	case "Page.loadEventFired":
		return false, true
	}
	return false, false
}
