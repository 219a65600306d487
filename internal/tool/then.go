package tool

import (
	"context"
	"strings"

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
// details.result, so that the agent does not repeat it (page.RunThen).

// thenOf is the plan of a call's "then", nil when it has none.
func thenOf(args any) (*page.ThenPlan, error) {
	t, ok := args.(thener)
	if !ok || strings.TrimSpace(t.thenSpec()) == "" {
		return nil, nil
	}
	return page.ParseThen(t.thenSpec())
}

// runThen waits for the plan's condition and reads the diff, after the
// action answered v.
func runThen(ctx context.Context, c *Call, name string, p *page.ThenPlan, v any) (*thenResult, error) {
	return c.Session.Pages.RunThen(ctx, waitFrame(c), name, p, v)
}
