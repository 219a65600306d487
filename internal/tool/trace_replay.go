package tool

import (
	"context"
	"encoding/json"

	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/trace"
)

func traceReplay(ctx context.Context, c *Call, a *trace.ReplayArgs) (*trace.ReplayResult, error) {
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
// run that is where the target's surface was (trace.FindRef), and returns
// its new ref and that surface's id. The find issues the ref through the
// page store like electron_find, under a shared hold of the session.
func (s *Server) findRefIn(ctx context.Context, sid string, t trace.Target) (int, string, string) {
	sess, release, why := s.holdForReplay(ctx, sid, "a ref", "ref "+itoa(t.Ref))
	if why != "" {
		return 0, "", why
	}
	defer release()
	return trace.FindRef(ctx, sess.Surfaces, t, func(ctx context.Context, res *surface.Resolution, role, name string) (int, error) {
		r, err := sess.Pages.Find(ctx, frameAt(res), page.FindQuery{Role: role, NameExact: name, Limit: 2})
		if err != nil || len(r.Matches) == 0 {
			return 0, err
		}
		return r.Matches[0].Ref, nil
	})
}

// findSurface finds the live surface that is where place was (see
// trace.MatchSurface).
func (s *Server) findSurface(ctx context.Context, sid string, place *trace.Place) (string, string) {
	sess, release, why := s.holdForReplay(ctx, sid, "a surface", "the surface of "+place.URL)
	if why != "" {
		return "", why
	}
	defer release()
	return trace.MatchSurface(ctx, sess.Surfaces, place)
}

// holdForReplay holds session sid (shared) while a replay finds what
// (kind: "a ref", "a surface") in it; else why not.
func (s *Server) holdForReplay(ctx context.Context, sid, kind, what string) (*session.Session, func(), string) {
	sess, err := s.resolveSession(ctx, sid)
	if err != nil {
		return nil, nil, "no session to find " + what + " in: " + err.Error()
	}
	hold, err := sess.Acquire(ctx, "trace_replay: finding "+kind, session.Shared)
	if err != nil {
		return nil, nil, "finding " + what + ": " + err.Error()
	}
	return sess, hold.Release, ""
}
