package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/consolelog"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/network"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/trace"
)

// maxTraceConsole bounds the console lines kept with one step.
const maxTraceConsole = 50

// traceFor is the recording the caller may see and add to: the server's,
// when the caller started it or sessions are shared; else nil.
func (s *Server) traceFor(ctx context.Context) *trace.Recorder {
	rec := s.tracing.Recorder()
	if rec == nil || s.cfg.ShareSessions {
		return rec
	}
	if o, ok := s.tracing.Owner(); !ok || o != ownerOf(ctx) {
		return nil
	}
	return rec
}

// tracedCall is what the dispatch observer does around one call: veto it
// (an enforced budget is spent) or record it when it is done.
type tracedCall struct {
	veto *Result
	done func(Result)
}

// traceCall is the dispatch observer hook (called first in Dispatch): nil
// when no trace is recording. trace_* calls are never recorded or vetoed.
func (s *Server) traceCall(ctx context.Context, name string, raw json.RawMessage, start time.Time) *tracedCall {
	rec := s.traceFor(ctx)
	if rec == nil || s.groupOf(name) == "trace" {
		return nil
	}
	seq := rec.Next()
	st := trace.Step{Seq: seq, Tool: name, StartedAt: start.UTC()}
	var args map[string]any
	_ = json.Unmarshal(raw, &args)
	if b := rec.Budget(); b != nil && b.Enforce && b.OverBudget {
		e := errs.New(errs.TraceBudgetExceeded, "the trace's token budget is spent (%d of %d estimated tokens); %s was not run", b.Spent, b.BudgetTokens, name).
			With("budget", b)
		e.NextActions = []string{"trace_budget", "trace_stop"}
		r := s.failureEnvelope(e, start, "")
		st.Args = trace.Redact(raw)
		s.finishStep(rec, &st, nil, r, start)
		return &tracedCall{veto: &r}
	}
	sid, _ := args["sessionId"].(string)
	sess, _ := s.resolveSession(ctx, sid)
	var also []string
	if sess != nil {
		pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		also = s.tracing.Describe(pctx, sess.Surfaces, func(ref int) (trace.Named, bool) {
			kr, ok := sess.Pages.Known(ref)
			return trace.Named{Role: kr.Role, Name: kr.Name, SurfaceID: kr.SurfaceID}, ok
		}, args, &st)
		cancel()
	}
	st.Args = trace.Redact(raw, also...)
	return &tracedCall{done: func(res Result) {
		if len(res.SecretArgs) > 0 {
			st.Args = trace.Redact(st.Args, res.SecretArgs...)
		}
		s.finishStep(rec, &st, sess, res, start)
	}}
}

// finishStep completes a step from the call's envelope and writes it.
func (s *Server) finishStep(rec *trace.Recorder, st *trace.Step, sess *session.Session, res Result, start time.Time) {
	st.ElapsedMS = time.Since(start).Milliseconds()
	st.OK, st.Code, st.Tokens, st.SessionID = !res.IsError, string(res.Code), res.Tokens, res.SessionID
	if res.IsError {
		var env struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal(res.JSON, &env)
		st.Error = env.Error
	}
	st.Result = res.JSON // redacted by the recorder's writer, off the call path
	var shot []byte
	if sess == nil && st.SessionID != "" {
		sess, _ = s.sessions.Resolve(st.SessionID)
	}
	if sess != nil {
		st.Console = s.traceConsole(sess)
		st.Network = s.traceNetwork(sess)
		if rec.Screenshots() && st.OK && !s.readOnlyTool(st.Tool) {
			shot = sess.ActiveWindowPNG()
		}
	}
	rec.Add(*st, shot) // a write failure is kept and reported by trace_stop
}

// traceNetwork returns the requests the session's network capture
// recorded since the previous step (none when capture is off).
func (s *Server) traceNetwork(sess *session.Session) []string {
	n, ok := session.Extra(sess, networkKey)
	if !ok || !n.Capturing() {
		return nil
	}
	last := s.tracing.Cursor(trace.Network, sess.ID)
	p := n.Read(network.ReadOptions{Since: last})
	var lines []string
	for _, r := range p.Records {
		status := strconv.Itoa(r.Status)
		switch {
		case r.Failure != "":
			status = "failed: " + r.Failure
		case r.Status == 0:
			status = "-"
		}
		line := r.Method + " " + status + " " + r.URL
		if r.ResourceType != "" {
			line += " (" + r.ResourceType
			if r.DurationMs != nil {
				line += fmt.Sprintf(", %.0f ms", *r.DurationMs)
			}
			line += ")"
		}
		if r.Stubbed != "" {
			line += " stubbed by " + r.Stubbed
		}
		if r.SurfaceID != "" {
			line += " [" + r.SurfaceID + "]"
		}
		lines = append(lines, line)
	}
	if p.NextSince > last {
		s.tracing.Advance(trace.Network, sess.ID, p.NextSince)
	}
	return trace.Clip(lines, maxTraceConsole, "requests")
}

// traceConsole returns the console lines the session logged since the
// previous step.
func (s *Server) traceConsole(sess *session.Session) []string {
	p := assemble.Console(sess).Read(consolelog.Query{Since: s.tracing.Cursor(trace.Console, sess.ID)})
	var lines []string
	for _, e := range p.Entries {
		lines = append(lines, fmt.Sprintf("[%s] %s (%s)", e.Type, e.Text, e.SurfaceID))
	}
	s.tracing.Advance(trace.Console, sess.ID, p.NextSince)
	return trace.Clip(lines, maxTraceConsole, "lines")
}

// readOnlyTool says whether a tool only reads (no screenshot after it),
// from its declared effects.
func (s *Server) readOnlyTool(name string) bool {
	d, ok := s.tools().defs[name]
	return ok && d.Effects.Does == kRead
}

func registerTrace(s *Server) {
	define(s, Def{
		Name: "trace_start", Title: "Start recording a trace", Class: classLifecycle,
		Effects: Effects{Does: kAdd, Writes: []string{"path"}},
		Desc:    "Start recording every tool call of this server into a trace folder: arguments (secrets redacted), the result envelope, elapsed ms, estimated tokens, the active surface, what each ref named (role and name, for replay and export), console lines between calls, and with screenshots:true a PNG after each action. path: the folder to create (its parent must exist; relative: in the artifacts folder; default artifacts/trace-<time>). budgetTokens sets a token budget (trace_budget reports it); enforce:true refuses calls past it (TRACE_BUDGET_EXCEEDED; trace_* calls always run). Each step is written as it happens, so a trace of a killed server still opens.",
	}, traceStart)
	define(s, Def{
		Name: "trace_stop", Title: "Stop the trace", Class: classLifecycle,
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
		Name: "trace_budget", Title: "Trace token budget", Class: classLifecycle,
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

type traceStartArgs struct {
	Path          string   `json:"path,omitempty" jsonschema:"the trace folder to create; its parent must exist under an allowed root; relative: in the artifacts folder"`
	BudgetTokens  int      `json:"budgetTokens,omitempty" jsonschema:"an estimated-token budget for the recording"`
	Enforce       bool     `json:"enforce,omitempty" jsonschema:"refuse calls once the budget is spent (trace_* calls still run)"`
	WarnThreshold *float64 `json:"warnThreshold,omitempty" jsonschema:"fraction of the budget at which near_budget turns true; default 0.8"`
	Screenshots   bool     `json:"screenshots,omitempty" jsonschema:"take a PNG of the active window after each successful action"`
	MaxSteps      int      `json:"maxSteps,omitempty" jsonschema:"steps written at most (later ones are only counted); default 10000"`
}

func (a *traceStartArgs) validate() error {
	switch {
	case a.BudgetTokens < 0:
		return errs.BadArg("budgetTokens", "must be 0 or more")
	case a.Enforce && a.BudgetTokens == 0:
		return errs.BadArg("enforce", "needs budgetTokens")
	case a.WarnThreshold != nil && (*a.WarnThreshold <= 0 || *a.WarnThreshold > 1 || math.IsNaN(*a.WarnThreshold)):
		return errs.BadArg("warnThreshold", "must be above 0 and at most 1")
	case a.MaxSteps < 0 || a.MaxSteps > 100000:
		return errs.BadArg("maxSteps", "must be between 1 and 100000")
	case strings.ContainsRune(a.Path, 0):
		return errs.BadArg("path", "contains a NUL byte")
	}
	return nil
}

// TraceState is a recording's state.
type TraceState struct {
	Recording bool                `json:"recording"`
	Path      string              `json:"path,omitempty"`
	Steps     int                 `json:"step_count"`
	Dropped   int                 `json:"dropped,omitempty"`
	Spent     int                 `json:"spent_tokens"`
	Budget    *trace.BudgetStatus `json:"budget,omitempty"`
}

func stateOf(recording bool, st trace.Status) *TraceState {
	return &TraceState{Recording: recording, Path: st.Path, Steps: st.Steps, Dropped: st.Dropped, Spent: st.Spent, Budget: st.Budget}
}

func traceStart(ctx context.Context, c *Call, a *traceStartArgs) (*TraceState, error) {
	s := c.Server
	if err := s.traceBusy(ctx); err != nil {
		return nil, err
	}
	parent, base := "", "trace-"+time.Now().UTC().Format("20060102-150405.000")
	if a.Path != "" {
		clean := filepath.Clean(a.Path)
		parent, base = filepath.Dir(clean), filepath.Base(clean)
		if base == "." || base == ".." || base == string(filepath.Separator) {
			return nil, errs.BadArg("path", "name a new folder for the trace")
		}
		if !filepath.IsAbs(clean) && parent == "." {
			parent = ""
		}
	}
	dir, err := s.files.CheckDir(ctx, "path", parent)
	if err != nil {
		return nil, err
	}
	o := trace.Options{ServerVersion: s.cfg.Version, Screenshots: a.Screenshots, MaxSteps: a.MaxSteps}
	if a.BudgetTokens > 0 {
		w := 0.8
		if a.WarnThreshold != nil {
			w = *a.WarnThreshold
		}
		o.Budget = &trace.Budget{Tokens: a.BudgetTokens, Enforce: a.Enforce, WarnThreshold: w}
	}
	rec, busy, err := s.tracing.Start(ownerOf(ctx), func() (*trace.Recorder, error) {
		out, err := s.files.MakeDir(ctx, "path", filepath.Join(dir, base), errs.TraceWriteFailed)
		if err != nil {
			return nil, err
		}
		return trace.Start(out, o)
	}, func() map[string]int64 {
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
	return stateOf(true, rec.Status()), nil
}

// traceBusy is TRACE_ALREADY_RECORDING when a recording runs: with its
// path for the client that started it, without for another client (one
// recording per server; its folder is not theirs to know).
func (s *Server) traceBusy(ctx context.Context) error {
	rec := s.tracing.Recorder()
	switch {
	case rec == nil:
		return nil
	case s.traceFor(ctx) == nil:
		return errs.New(errs.TraceAlreadyRecording, "another MCP client of this server is recording a trace (one recording per server); try again when it stops")
	}
	return errs.New(errs.TraceAlreadyRecording, "a trace is recording to %s", rec.Dir()).With("path", rec.Dir())
}

type traceNoArgs struct{}

func traceStop(ctx context.Context, c *Call, _ *traceNoArgs) (*TraceState, error) {
	s := c.Server
	if s.traceFor(ctx) == nil {
		return nil, errs.New(errs.TraceNotRecording, "no trace is recording")
	}
	rec := s.tracing.Take()
	if rec == nil {
		return nil, errs.New(errs.TraceNotRecording, "no trace is recording")
	}
	st, err := rec.Stop()
	if err != nil {
		return nil, err
	}
	return stateOf(false, st), nil
}

func traceStatus(ctx context.Context, c *Call, _ *traceNoArgs) (*TraceState, error) {
	rec := c.Server.traceFor(ctx)
	if rec == nil {
		return &TraceState{}, nil
	}
	return stateOf(true, rec.Status()), nil
}

// TraceBudgetResult is trace_budget's answer.
type TraceBudgetResult struct {
	Recording bool                `json:"recording"`
	Path      string              `json:"path,omitempty"`
	Budget    *trace.BudgetStatus `json:"budget,omitempty"`
}

func traceBudget(ctx context.Context, c *Call, _ *traceNoArgs) (*TraceBudgetResult, error) {
	rec := c.Server.traceFor(ctx)
	if rec == nil {
		return &TraceBudgetResult{}, nil
	}
	return &TraceBudgetResult{Recording: true, Path: rec.Dir(), Budget: rec.Budget()}, nil
}

type tracePathArgs struct {
	Path string `json:"path,omitempty" jsonschema:"a trace folder (or its trace.json); relative: in the artifacts folder"`
}

// TraceTokensResult is trace_tokens' answer.
type TraceTokensResult struct {
	trace.Tokens
	Path     string              `json:"path"`
	Live     bool                `json:"live"`
	Complete bool                `json:"complete"`
	Budget   *trace.BudgetStatus `json:"budget,omitempty"`
}

func traceTokens(ctx context.Context, c *Call, a *tracePathArgs) (*TraceTokensResult, error) {
	if a.Path == "" {
		rec := c.Server.traceFor(ctx)
		if rec == nil {
			return nil, errs.New(errs.TraceNotRecording, "no trace is recording; pass path to read a written trace")
		}
		return &TraceTokensResult{Tokens: rec.TokenReport(), Path: rec.Dir(), Live: true, Budget: rec.Budget()}, nil
	}
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	return &TraceTokensResult{Tokens: t.TokenReport(), Path: t.Dir, Complete: t.Complete, Budget: t.BudgetStatus()}, nil
}

// loadTrace reads a trace folder under the allowed roots (trace.Find).
func loadTrace(ctx context.Context, c *Call, field, p string) (*trace.Trace, error) {
	return trace.Find(ctx, c.Server.files, c.Server.tracing.Recorder(), field, p)
}
