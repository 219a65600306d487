package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/consolelog"
	"github.com/understudy-dev/understudy/internal/network"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/trace"
)

// maxTraceConsole bounds the console lines kept with one step.
const maxTraceConsole = 50

// traceFor is the recording the caller may see and add to: the server's,
// when the caller started it or sessions are shared; else nil.
func (s *Server) traceFor(ctx context.Context) *trace.Recorder {
	return s.tracing.For(ownerOf(ctx), s.cfg.ShareSessions)
}

// The tools a vetoed call names (their Defs are in trace.go).
const (
	traceBudgetTool = "trace_budget"
	traceStopTool   = "trace_stop"
)

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
	if e := rec.Veto(name, traceBudgetTool, traceStopTool); e != nil {
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
	st.Finish(start, res.IsError, string(res.Code), res.Tokens, res.SessionID, res.JSON)
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
		lines = append(lines, r.Line())
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
