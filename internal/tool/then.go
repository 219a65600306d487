package tool

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
)

// Act and observe in one call (issue 30, point 3): an action's "then"
// says what to wait for once the action is done and verified (text on the
// page, an element shown or gone, the URL) and whether to answer with what
// changed on the surface (since:'last'). The dispatcher runs it for every
// tool whose input takes it (thenArg), inside the call's admission, so no
// other action of the session comes between; the answer carries
// then {met, waited_ms, diff}. When the wait is not met the action still
// happened: EXPECTATION_FAILED says so, with the action's answer in
// details.result, so that the agent does not repeat it.

// thenOf is the plan of a call's "then", nil when it has none.
func thenOf(args any) (*page.ThenPlan, error) {
	t, ok := args.(thener)
	if !ok || strings.TrimSpace(t.thenSpec()) == "" {
		return nil, nil
	}
	return page.ParseThen(t.thenSpec())
}

// runThen waits for the plan's condition and reads the diff, after the
// action answered v. A condition that does not hold fails with the
// action's answer in details.result.
func runThen(ctx context.Context, c *Call, name string, p *page.ThenPlan, v any) (*thenResult, error) {
	start := time.Now()
	out := &thenResult{Met: true}
	if p.Cond != nil {
		w, _, err := waitFor(ctx, c, *p.Cond, p.Timeout)
		if err != nil {
			return nil, actedThen(name, v, err)
		}
		if !w.Met {
			e := errs.New(errs.ExpectationFailed, "%s was done; then %s did not hold within %d ms (last seen: %s)", name, p.What, p.Timeout.Milliseconds(), page.Clip(string(w.Actual), 200))
			return nil, actedThen(name, v, e)
		}
	}
	out.WaitedMS = time.Since(start).Milliseconds()
	if p.Diff {
		_, f, err := frameOf(ctx, c)
		if err != nil {
			return nil, actedThen(name, v, err)
		}
		snap, err := c.Session.Pages.Snapshot(ctx, f, page.SnapshotOptions{Since: "last", Format: "text"})
		if err != nil {
			return nil, actedThen(name, v, err)
		}
		out.Diff = snap.Text
	}
	return out, nil
}

// actedThen is a failure of the "then" part: the action happened, its
// answer is in details.result and the agent is told not to repeat it.
func actedThen(name string, v any, err error) error {
	out := errs.CopyOf(err, "then")
	if b, jerr := json.Marshal(v); jerr == nil {
		out.Details["result"] = json.RawMessage(b)
	}
	out.Details["acted"] = true
	out.Hint = "The " + name + " itself was done and verified (details.result): do not repeat it. What it was to cause did not happen in time: look at the page (electron_snapshot) and decide."
	return out
}
