package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/consolelog"
	"github.com/understudy-dev/understudy/internal/trace"
)

func registerTrace(s *Server) {
	define(s, Def{
		Name: "trace_start", Title: "Start recording a trace", Class: classLifecycle,
		Effects: Effects{Does: kAdd, Writes: []string{"path"}},
		Desc:    "Start recording every tool call of this server into a trace folder: arguments (secrets redacted), the result envelope, elapsed ms, estimated tokens, the active surface, what each ref named (role and name, for replay and export), console lines between calls, and with screenshots:true a PNG after each action. path: the folder to create (its parent must exist; relative: in the artifacts folder; default artifacts/trace-<time>). budgetTokens sets a token budget (trace_budget reports it); enforce:true refuses calls past it (TRACE_BUDGET_EXCEEDED; trace_* calls always run). Each step is written as it happens, so a trace of a killed server still opens.",
	}, traceStart)
	define(s, Def{
		Name: traceStopTool, Title: "Stop the trace", Class: classLifecycle,
		Effects: Effects{Does: kAdd, Artifacts: true},
		Desc:    "Stop recording and close the trace: returns its folder, the steps written, the estimated tokens spent and the budget.",
	}, traceStop)
	define(s, Def{
		Name: "trace_status", Title: "Trace status", Class: classLifecycle,
		Effects: Effects{Does: kRead},
		Desc:    "Whether a trace is recording, where, and how many steps and tokens so far.",
	}, traceStatus)
	define(s, Def{
		Name: "trace_tokens", Title: "Token usage of a trace", Class: classLifecycle,
		Effects: Effects{Does: kRead, Reads: []string{"path"}},
		Desc:    "Where the estimated tokens went: total, per tool (calls, tokens, largest) and the largest responses. path: a written trace; none: the live recording.",
	}, traceTokens)
	define(s, Def{
		Name: traceBudgetTool, Title: "Trace token budget", Class: classLifecycle,
		Effects: Effects{Does: kRead},
		Desc:    "A cheap poll of the live recording's token budget: {budget_tokens, spent, remaining, over_budget, near_budget}.",
	}, traceBudget)
	define(s, Def{
		Name: "trace_view", Title: "View a trace and write its HTML report", Class: classLifecycle,
		Effects: Effects{Does: kSelect, Reads: []string{"path"}, Writes: []string{"out"}},
		Desc:    "Summarise a trace (path: its folder): steps with tool, outcome, code, elapsed ms, tokens and surface; failures; whether it was stopped or where a killed recording ended. html:true also writes a self-contained HTML report (steps with screenshots, console lines between steps, a timeline, failures highlighted; opens from disk with no server) to out (default <trace>/report.html).",
	}, traceView)
	define(s, Def{
		Name: "trace_export_playwright", Title: "Export a trace as a Playwright test", Class: classLifecycle,
		Effects: Effects{Does: kSelect, Reads: []string{"path"}, Writes: []string{"out"}},
		Desc:    "Write a runnable Playwright Test file (TypeScript) from a trace: it connects to the app through an understudy relay (env UNDERSTUDY_RELAY, default relayUrl) and does what the agent's successful steps did. Refs become getByRole/getByText locators from the role and name they had, frames become frameLocator chains, typed text fill, keys press, checks check/uncheck, options selectOption, and expectations web-first assertions (toHaveText, toHaveValue, toBeVisible, toBeChecked...). Steps with no equivalent are listed in skipped and commented in the file.",
	}, traceExport)
	define(s, Def{
		Name: "trace_promote", Title: "Promote a trace to a replay spec", Class: classLifecycle,
		Effects: Effects{Does: kSelect, Reads: []string{"path"}, Writes: []string{"out"}},
		Desc:    "Turn a trace (path: its folder) into a reviewable replay spec (JSON, format understudy-replay v1) to commit as a regression: each kept call's arguments (secrets redacted, plus the redactions named), its checkpoint {ok, code}, and what its refs named (role and name); session ids become placeholders ($session1); no result payloads. include/exclude filter by tool name (a trailing * matches a prefix); a kept call whose session an excluded launch or attach opened keeps that step. trace_replay {path: the spec} runs it. Reviewers add result checks in expect.result (exact, subset, regex, ignore). Default out: <trace>/replay.json.",
	}, tracePromote)
	define(s, Def{
		Name: "trace_replay", Title: "Replay a trace against the app", Class: classLifecycle,
		Effects: Effects{Does: kOpen, Reads: []string{"path"}},
		Desc:    "Replay a trace against the app now: each step is dispatched again (with no more power than this server has: eval steps need today's --allow-eval; a trace with destructive steps — stop, kill, eval, files — needs confirm:true), refs are found again by the role and name they had in their surface, surfaces by URL, and the outcome (ok and error code; a spec's result checks) is compared with the recorded one. Returns the steps replayed and the first step whose outcome differs.",
	}, traceReplay)
}

func traceStart(ctx context.Context, c *Call, a *trace.StartArgs) (*trace.State, error) {
	s := c.Server
	if err := s.traceBusy(ctx); err != nil {
		return nil, err
	}
	open, err := a.Opener(ctx, s.files, time.Now(), s.cfg.Version)
	if err != nil {
		return nil, err
	}
	rec, busy, err := s.tracing.Start(ownerOf(ctx), open, func() map[string]int64 {
		// Console lines from before the trace are not part of it.
		from := map[string]int64{}
		for _, sess := range s.sessions.List() {
			if p := assemble.Console(sess).Read(consolelog.Query{Limit: 1}); p.NextSince > 0 {
				from[sess.ID] = p.NextSince
			}
		}
		return from
	})
	if busy {
		return nil, s.traceBusy(ctx)
	}
	if err != nil {
		return nil, err
	}
	return trace.StateOf(true, rec.Status()), nil
}

// traceBusy is TRACE_ALREADY_RECORDING when a recording runs (trace.Busy).
func (s *Server) traceBusy(ctx context.Context) error {
	return trace.Busy(s.tracing.Recorder(), s.traceFor(ctx) != nil)
}

type traceNoArgs struct{}

func traceStop(ctx context.Context, c *Call, _ *traceNoArgs) (*trace.State, error) {
	if c.Server.traceFor(ctx) == nil {
		return nil, trace.NotRecording()
	}
	return c.Server.tracing.Stop()
}

func traceStatus(ctx context.Context, c *Call, _ *traceNoArgs) (*trace.State, error) {
	return trace.StatusOf(c.Server.traceFor(ctx)), nil
}

func traceBudget(ctx context.Context, c *Call, _ *traceNoArgs) (*trace.BudgetResult, error) {
	return trace.BudgetOf(c.Server.traceFor(ctx)), nil
}

func traceTokens(ctx context.Context, c *Call, a *trace.PathArgs) (*trace.TokensResult, error) {
	if a.Path == "" {
		return trace.LiveTokens(c.Server.traceFor(ctx))
	}
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	return t.TokensResult(), nil
}
