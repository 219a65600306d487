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

// TraceReplayResult is trace_replay's answer (trace.ReplayResult).
type TraceReplayResult = trace.ReplayResult

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
	return trace.Replay(ctx, t, steps, replayer{s}, trace.ReplayOptions{SessionID: a.SessionID, ContinueOnChange: a.ContinueOnChange})
}

// replayer is the server as trace.Replay's player.
type replayer struct{ s *Server }

func (p replayer) Dispatch(ctx context.Context, tool string, args json.RawMessage) json.RawMessage {
	return p.s.Dispatch(ctx, tool, args, nil).JSON
}

func (p replayer) Reresolve(ctx context.Context, st trace.Step, args map[string]any, rs *trace.ReplayStep) string {
	return p.s.reresolve(ctx, st, args, rs)
}

func (p replayer) OpensSession(tool string) bool { return p.s.opensSession(tool) }

func (p replayer) NeedsSession(tool string) bool {
	d := p.s.tools().defs[tool]
	return d != nil && d.Session
}

// reresolve rewrites the step's refs and surface ids for the app as it is
// now: a ref is found again by the role and name it had, in the active
// surface or (a ref of another surface) in the surface of this run that is
// where its surface was; a surface id by its URL, kind and iframe chain.
// It returns why it could not.
func (s *Server) reresolve(ctx context.Context, st trace.Step, args map[string]any, rs *trace.ReplayStep) string {
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
