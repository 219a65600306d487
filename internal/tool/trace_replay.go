package tool

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/trace"
)

type traceReplayArgs struct {
	Path             string `json:"path" jsonschema:"the trace folder, or a spec file trace_promote wrote; relative: in the artifacts folder"`
	SessionID        string `json:"sessionId,omitempty" jsonschema:"replay on this session (default: the recorded launch starts a new one, else the one open session)"`
	Confirm          bool   `json:"confirm,omitempty" jsonschema:"required when the trace has destructive steps (stop, kill, eval, files)"`
	ContinueOnChange bool   `json:"continueOnDifference,omitempty" jsonschema:"go on after the first differing step (default: stop there)"`
	MaxSteps         int    `json:"maxSteps,omitempty" jsonschema:"replay at most this many steps"`
}

func (a *traceReplayArgs) validate() error {
	switch {
	case a.Path == "":
		return errs.BadArg("path", "is required: a trace folder")
	case a.MaxSteps < 0:
		return errs.BadArg("maxSteps", "must be 0 (all) or more")
	}
	return nil
}

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
	FailedCheck *trace.CheckFailure `json:"failed_check,omitempty"`
}

// TraceReplayResult is trace_replay's answer.
type TraceReplayResult struct {
	Path            string       `json:"path"`
	Replayed        int          `json:"replayed"`
	Matched         int          `json:"matched"`
	Diverged        int          `json:"diverged"`
	Passed          bool         `json:"passed"`
	FirstDifference *ReplayStep  `json:"first_difference,omitempty"`
	Steps           []ReplayStep `json:"step_list"`
	SessionID       string       `json:"session_id,omitempty"`
}

func traceReplay(ctx context.Context, c *Call, a *traceReplayArgs) (*TraceReplayResult, error) {
	s := c.Server
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	var steps []trace.Step
	var refused, destructive []string
	for _, st := range t.Steps {
		if s.groupOf(st.Tool) == "trace" {
			continue
		}
		d, ok := s.tools().defs[st.Tool]
		if !ok {
			refused = append(refused, "#"+itoa(st.Seq)+" "+st.Tool)
		}
		// Steps that end the app, run code, hand files to the page or
		// replace a baseline run only with confirm:true (Effects).
		if ok && d.needsConfirm() {
			destructive = append(destructive, "#"+itoa(st.Seq)+" "+st.Tool)
		}
		steps = append(steps, st)
		if a.MaxSteps > 0 && len(steps) == a.MaxSteps {
			break
		}
	}
	if len(refused) > 0 {
		return nil, errs.New(errs.ReplayNotAllowed, "the trace has steps this server cannot run now: %s (eval tools need --allow-eval)", strings.Join(refused, ", ")).With("steps", refused)
	}
	if len(destructive) > 0 && !a.Confirm {
		return nil, errs.New(errs.ConfirmRequired, "the trace has destructive steps: %s; pass confirm:true to replay them", strings.Join(destructive, ", ")).With("steps", destructive)
	}
	r := &TraceReplayResult{Path: t.Dir, Steps: []ReplayStep{}}
	sessions := map[string]string{} // recorded session id → replayed
	current := a.SessionID
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
		} else if current != "" && !s.opensSession(st.Tool) {
			if d := s.tools().defs[st.Tool]; d != nil && d.Session {
				args["sessionId"] = current
			}
		}
		why := s.reresolve(ctx, st, args, &rs)
		if why == "" && hasRedacted(args) {
			why = "an argument was redacted when recorded; the replay cannot know its value"
		}
		var out ReplayOutcome
		if why != "" {
			rs.Why = why
			out = ReplayOutcome{OK: false, Code: "NOT_REPLAYED", Error: why}
		} else {
			raw, _ := json.Marshal(args)
			res := s.Dispatch(ctx, st.Tool, raw, nil)
			var env struct {
				OK    bool   `json:"ok"`
				Code  string `json:"code"`
				Error string `json:"error"`
				Meta  struct {
					SessionID string `json:"session_id"`
				} `json:"_meta"`
			}
			_ = json.Unmarshal(res.JSON, &env)
			out = ReplayOutcome{OK: env.OK, Code: env.Code, Error: env.Error}
			if out.OK == st.OK && out.Code == st.Code {
				if f := trace.Apply(st.Checks, t.Normalize, res.JSON); f != nil {
					rs.FailedCheck = f
					rs.Why = "result check " + itoa(f.Check) + " (" + f.Kind + ") failed at " + f.Path + ": " + f.Why + "; expected " + f.Expected + ", got " + f.Actual
				}
			}
			if env.Meta.SessionID != "" {
				if st.SessionID != "" {
					sessions[st.SessionID] = env.Meta.SessionID
				}
				if s.opensSession(st.Tool) || current == "" {
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
		if !rs.Matched && !a.ContinueOnChange {
			break
		}
	}
	r.Passed = r.Diverged == 0
	r.SessionID = current
	return r, nil
}

func hasRedacted(args map[string]any) bool {
	for _, v := range args {
		if v == trace.Redacted {
			return true
		}
	}
	return false
}

// reresolve rewrites the step's refs and surface ids for the app as it is
// now: a ref is found again by the role and name it had, in the active
// surface or (a ref of another surface) in the surface of this run that is
// where its surface was; a surface id by its URL, kind and iframe chain.
// It returns why it could not.
func (s *Server) reresolve(ctx context.Context, st trace.Step, args map[string]any, rs *ReplayStep) string {
	sid, _ := args["sessionId"].(string)
	if t, ok := st.Targets["surfaceId"]; ok && t.Place != nil {
		id, why := s.findSurface(ctx, sid, t.Place)
		if why != "" {
			return why
		}
		args["surfaceId"] = id
	}
	for _, k := range []string{"ref", "targetRef"} {
		n, ok := args[k].(float64)
		if !ok || n == 0 {
			continue
		}
		t, ok := st.Targets[k]
		if !ok || (t.Role == "" && t.Name == "") {
			return "ref " + itoa(int(n)) + " was not known when recorded, so it cannot be found again"
		}
		// A ref of another surface than the active one (a ref from a find
		// or an audit of all surfaces, acted on where it points): look in
		// that surface.
		if t.Place != nil && st.Surface != nil && t.Place.SurfaceID != st.Surface.SurfaceID {
			ref, where, why := s.findRefIn(ctx, sid, t)
			if why != "" {
				return why
			}
			args[k] = ref
			rs.Resolved = append(rs.Resolved, k+" "+itoa(int(n))+" → "+itoa(ref)+" ("+t.Role+" \""+t.Name+"\" in "+where+")")
			continue
		}
		q := map[string]any{"role": t.Role, "limit": 2}
		if t.Name != "" {
			q["name_exact"] = t.Name
		}
		if sid != "" {
			q["sessionId"] = sid
		}
		raw, _ := json.Marshal(q)
		res := s.Dispatch(ctx, findTool, raw, nil)
		var found struct {
			OK      bool `json:"ok"`
			Matches []struct {
				Ref int `json:"ref"`
			} `json:"matches"`
		}
		_ = json.Unmarshal(res.JSON, &found)
		if !found.OK || len(found.Matches) == 0 || found.Matches[0].Ref == 0 {
			return "no element is " + t.Role + " \"" + t.Name + "\" now (ref " + itoa(int(n)) + " when recorded)"
		}
		args[k] = found.Matches[0].Ref
		rs.Resolved = append(rs.Resolved, k+" "+itoa(int(n))+" → "+itoa(found.Matches[0].Ref)+" ("+t.Role+" \""+t.Name+"\")")
	}
	return ""
}

// findRefIn finds what target named (role and name) in the surface of this
// run that is where the target's surface was, and returns its new ref and
// that surface's id. The find issues the ref through the page store like
// electron_find, under a shared hold of the session.
func (s *Server) findRefIn(ctx context.Context, sid string, t trace.Target) (int, string, string) {
	sess, err := s.resolveSession(ctx, sid)
	if err != nil {
		return 0, "", "no session to find ref " + itoa(t.Ref) + " in: " + err.Error()
	}
	hold, err := sess.Acquire(ctx, "trace_replay: finding a ref", session.Shared)
	if err != nil {
		return 0, "", "finding ref " + itoa(t.Ref) + ": " + err.Error()
	}
	defer hold.Release()
	id, why := trace.MatchSurface(ctx, sess.Surfaces, t.Place)
	if why != "" {
		return 0, "", why + " (ref " + itoa(t.Ref) + " was there)"
	}
	res, err := sess.Surfaces.ResolveID(ctx, id)
	if err != nil {
		return 0, "", "surface " + id + " (" + t.Place.URL + "): " + err.Error()
	}
	f := frameAt(res)
	r, err := sess.Pages.Find(ctx, f, page.FindQuery{Role: t.Role, NameExact: t.Name, Limit: 2})
	if err != nil {
		return 0, "", "finding " + t.Role + " \"" + t.Name + "\" in " + t.Place.URL + ": " + err.Error()
	}
	if len(r.Matches) == 0 || r.Matches[0].Ref == 0 {
		return 0, "", "no element is " + t.Role + " \"" + t.Name + "\" in " + t.Place.URL + " now (ref " + itoa(t.Ref) + " when recorded)"
	}
	return r.Matches[0].Ref, id, ""
}

// findSurface finds the live surface that is where place was (see
// trace.MatchSurface).
func (s *Server) findSurface(ctx context.Context, sid string, place *trace.Place) (string, string) {
	sess, err := s.resolveSession(ctx, sid)
	if err != nil {
		return "", "no session to find the surface of " + place.URL + " in: " + err.Error()
	}
	hold, err := sess.Acquire(ctx, "trace_replay: finding a surface", session.Shared)
	if err != nil {
		return "", "finding the surface of " + place.URL + ": " + err.Error()
	}
	defer hold.Release()
	return trace.MatchSurface(ctx, sess.Surfaces, place)
}
