package trace

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/understudy-dev/understudy/internal/errs"
)

// ReplayOutcome is a step's outcome.
type ReplayOutcome struct {
	OK    bool   `json:"ok"`
	Code  string `json:"code,omitempty"`
	Error string `json:"error,omitempty"`
}

// ReplayStep is one replayed step.
type ReplayStep struct {
	Seq      int            `json:"seq"`
	Tool     string         `json:"tool"`
	Recorded ReplayOutcome  `json:"recorded"`
	Replayed *ReplayOutcome `json:"replayed,omitempty"`
	Matched  bool           `json:"matched"`
	// Resolved says how refs were found again ("ref 12 → 31 (button \"Order\")").
	Resolved []string `json:"resolved,omitempty"`
	Why      string   `json:"why,omitempty"`
	// FailedCheck is the spec's first result check the result did not pass.
	FailedCheck *CheckFailure `json:"failed_check,omitempty"`
}

// ReplayResult is a replay's answer.
type ReplayResult struct {
	Path            string       `json:"path"`
	Replayed        int          `json:"replayed"`
	Matched         int          `json:"matched"`
	Diverged        int          `json:"diverged"`
	Passed          bool         `json:"passed"`
	FirstDifference *ReplayStep  `json:"first_difference,omitempty"`
	Steps           []ReplayStep `json:"step_list"`
	SessionID       string       `json:"session_id,omitempty"`
}

// Player runs a replay's steps: the server that dispatches tool calls.
type Player interface {
	// Dispatch runs one tool call and returns its result envelope.
	Dispatch(ctx context.Context, tool string, args json.RawMessage) json.RawMessage
	// Reresolve rewrites a step's refs and surface ids for the app as it
	// is now (adding to rs.Resolved how each was found again) and returns
	// why it could not.
	Reresolve(ctx context.Context, st Step, args map[string]any, rs *ReplayStep) string
	// OpensSession says the tool opens a session; NeedsSession that it
	// acts in one.
	OpensSession(tool string) bool
	NeedsSession(tool string) bool
}

// ReplayOptions say where and how far a replay goes.
type ReplayOptions struct {
	SessionID        string // replay on this session (default: the recorded launch's new one, else the one open)
	ContinueOnChange bool   // go on after the first differing step
}

// Replay dispatches steps of t again on p, maps the recorded session ids
// to the replayed ones, finds refs again, applies the spec's result checks
// and compares each outcome (ok and code) with the recorded one. It stops
// at the first difference unless o.ContinueOnChange.
func Replay(ctx context.Context, t *Trace, steps []Step, p Player, o ReplayOptions) (*ReplayResult, error) {
	r := &ReplayResult{Path: t.Dir, Steps: []ReplayStep{}}
	sessions := map[string]string{} // recorded session id → replayed
	current := o.SessionID
	for _, st := range steps {
		if ctx.Err() != nil {
			return nil, errs.FromContext(ctx, errs.OperationTimeout, "replaying the trace")
		}
		rs := ReplayStep{Seq: st.Seq, Tool: st.Tool, Recorded: ReplayOutcome{OK: st.OK, Code: st.Code}}
		var args map[string]any
		_ = json.Unmarshal(st.Args, &args)
		if args == nil {
			args = map[string]any{}
		}
		if sid, ok := args["sessionId"].(string); ok {
			if to, ok := sessions[sid]; ok {
				args["sessionId"] = to
			} else if current != "" {
				args["sessionId"] = current
			}
		} else if current != "" && !p.OpensSession(st.Tool) && p.NeedsSession(st.Tool) {
			args["sessionId"] = current
		}
		why := p.Reresolve(ctx, st, args, &rs)
		if why == "" && hasRedacted(args) {
			why = "an argument was redacted when recorded; the replay cannot know its value"
		}
		var out ReplayOutcome
		if why != "" {
			rs.Why = why
			out = ReplayOutcome{OK: false, Code: "NOT_REPLAYED", Error: why}
		} else {
			raw, _ := json.Marshal(args)
			res := p.Dispatch(ctx, st.Tool, raw)
			var env struct {
				OK    bool   `json:"ok"`
				Code  string `json:"code"`
				Error string `json:"error"`
				Meta  struct {
					SessionID string `json:"session_id"`
				} `json:"_meta"`
			}
			_ = json.Unmarshal(res, &env)
			out = ReplayOutcome{OK: env.OK, Code: env.Code, Error: env.Error}
			if out.OK == st.OK && out.Code == st.Code {
				if f := Apply(st.Checks, t.Normalize, res); f != nil {
					rs.FailedCheck = f
					rs.Why = "result check " + strconv.Itoa(f.Check) + " (" + f.Kind + ") failed at " + f.Path + ": " + f.Why + "; expected " + f.Expected + ", got " + f.Actual
				}
			}
			if env.Meta.SessionID != "" {
				if st.SessionID != "" {
					sessions[st.SessionID] = env.Meta.SessionID
				}
				if p.OpensSession(st.Tool) || current == "" {
					current = env.Meta.SessionID
				}
			}
		}
		rs.Replayed = &out
		rs.Matched = out.OK == st.OK && out.Code == st.Code && rs.FailedCheck == nil
		r.Replayed++
		if rs.Matched {
			r.Matched++
		} else {
			r.Diverged++
			if r.FirstDifference == nil {
				d := rs
				r.FirstDifference = &d
			}
		}
		r.Steps = append(r.Steps, rs)
		if !rs.Matched && !o.ContinueOnChange {
			break
		}
	}
	r.Passed = r.Diverged == 0
	r.SessionID = current
	return r, nil
}

func hasRedacted(args map[string]any) bool {
	for _, v := range args {
		if v == Redacted {
			return true
		}
	}
	return false
}
