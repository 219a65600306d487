package tool

import (
	"context"
	"encoding/json"

	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/trace"
)

type traceReplayArgs struct{ trace.ReplayArgs }

func (a *traceReplayArgs) validate() error { return a.ReplayArgs.Check() }

func traceReplay(ctx context.Context, c *Call, a *traceReplayArgs) (*trace.ReplayResult, error) {
	s := c.Server
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	// Steps that end the app, run code, hand files to the page or replace
	// a baseline need confirm:true (Effects).
	steps, err := a.Steps(t, func(tool string) bool { return s.groupOf(tool) == "trace" }, func(tool string) (bool, bool) {
		d, ok := s.tools().defs[tool]
		return ok, ok && d.needsConfirm()
	})
	if err != nil {
		return nil, err
	}
	return trace.Replay(ctx, t, steps, replayer{s}, a.Options())
}

// replayer is the server as trace.Replay's player and trace.Reresolve's
// finder.
type replayer struct{ s *Server }

func (p replayer) Dispatch(ctx context.Context, tool string, args json.RawMessage) json.RawMessage {
	return p.s.Dispatch(ctx, tool, args, nil).JSON
}

func (p replayer) Reresolve(ctx context.Context, st trace.Step, args map[string]any, rs *trace.ReplayStep) string {
	return trace.Reresolve(ctx, st, args, rs, p)
}

func (p replayer) OpensSession(tool string) bool { return p.s.opensSession(tool) }

func (p replayer) NeedsSession(tool string) bool {
	d := p.s.tools().defs[tool]
	return d != nil && d.Session
}

func (p replayer) Surface(ctx context.Context, sid string, place *trace.Place) (string, string) {
	return p.s.findSurface(ctx, sid, place)
}

func (p replayer) RefIn(ctx context.Context, sid string, t trace.Target) (int, string, string) {
	return p.s.findRefIn(ctx, sid, t)
}

// Ref finds role named name in the active surface as electron_find does.
func (p replayer) Ref(ctx context.Context, sid, role, name string) int {
	q := map[string]any{"role": role, "limit": 2}
	if name != "" {
		q["name_exact"] = name
	}
	if sid != "" {
		q["sessionId"] = sid
	}
	raw, _ := json.Marshal(q)
	res := p.s.Dispatch(ctx, findTool, raw, nil)
	var found struct {
		OK      bool `json:"ok"`
		Matches []struct {
			Ref int `json:"ref"`
		} `json:"matches"`
	}
	_ = json.Unmarshal(res.JSON, &found)
	if !found.OK || len(found.Matches) == 0 {
		return 0
	}
	return found.Matches[0].Ref
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
