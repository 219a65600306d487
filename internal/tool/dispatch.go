package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/mcpwire"
	"github.com/understudy-dev/understudy/internal/session"
)

// Dispatch runs one tool call and returns its envelope. It never panics and
// never returns a protocol error: every failure is an envelope with a code.
// Each call is logged at debug level (name, outcome, time; never its
// arguments or result), an internal failure at warn; while a trace records,
// the dispatch observer (trace.go) sees it too.
func (s *Server) Dispatch(ctx context.Context, name string, raw json.RawMessage, progress func(msg string, done, total float64)) (res Result) {
	start := time.Now()
	if tc := s.traceCall(ctx, name, raw, start); tc != nil {
		if tc.veto != nil {
			return *tc.veto
		}
		defer func() { tc.done(res) }()
	}
	res = s.dispatch(ctx, name, raw, progress)
	level := slog.LevelDebug
	if res.Code == errs.Internal {
		level = slog.LevelWarn
	}
	s.log.Log(ctx, level, "tool call", "tool", name, "ok", !res.IsError, "code", string(res.Code), "elapsed_ms", time.Since(start).Milliseconds())
	return res
}

func (s *Server) dispatch(ctx context.Context, name string, raw json.RawMessage, progress func(msg string, done, total float64)) Result {
	start := time.Now()
	d, ok := s.tools().defs[name]
	if !ok {
		return s.failureEnvelope(errs.BadArg("name", "no tool %q; known tools: %s", name, strings.Join(s.enabledNames(), ", ")), start, "")
	}
	if !s.sel.enabled(d.Def) {
		return s.failureEnvelope(s.sel.notEnabled(d.Def), start, "")
	}
	// The operator's gates go first: a call the flags refuse says so
	// before any argument is judged.
	if err := s.gateFlags(d.Def); err != nil {
		return s.failureEnvelope(err, start, "")
	}
	args, err := d.decode(raw)
	if err != nil {
		return s.failureEnvelope(err, start, "")
	}
	if err := s.gateArgs(d.Def, args); err != nil {
		return s.failureEnvelope(err, start, "")
	}
	// An action's "then" (then.go): checked now, run after the action
	// inside its admission.
	then, err := thenOf(args)
	if err != nil {
		return s.failureEnvelope(err, start, "")
	}
	c := &Call{Server: s, Reporter: mcpwire.NewReporter(progress)}
	// The backstop: the call's context ends after OperationTimeout, when
	// the client cancels, or when the server closes.
	ctx, cancel := context.WithTimeout(ctx, s.cfg.OperationTimeout)
	defer cancel()
	defer context.AfterFunc(s.life, cancel)()
	s.callsMu.RLock()
	if s.closed {
		s.callsMu.RUnlock()
		return s.failureEnvelope(errs.New(errs.NotRunning, "the server is shutting down"), start, "")
	}
	s.calls.Add(1)
	s.callsMu.RUnlock()
	started := false
	defer func() {
		if !started {
			s.calls.Done()
		}
	}()
	var hold *session.Hold // the call's admission to its session
	if d.Session {
		sid := ""
		if hs, ok := args.(hasSession); ok {
			sid = hs.sessionID()
		}
		sess, err := s.resolveSession(ctx, sid)
		if err != nil {
			return s.failureEnvelope(err, start, sid)
		}
		c.Session, c.sid = sess, sess.ID
		if err := crashBlocks(sess, d.Def); err != nil {
			return s.failureEnvelope(err, start, sess.ID)
		}
		if err := dialogBlocks(sess, d.Def); err != nil {
			return s.failureEnvelope(err, start, sess.ID)
		}
		// Reads and waits share the session, actions go one at a time in
		// order, lifecycle calls go alone (classes.go, docs/adr/018).
		h, err := sess.Acquire(ctx, name, d.Class.admission())
		if err != nil {
			return s.failureEnvelope(err, start, sess.ID)
		}
		hold = h
		// A JavaScript dialog stops its page: fail now, not at the backstop.
		if err := dialogBlocks(sess, d.Def); err != nil {
			hold.Release()
			return s.failureEnvelope(err, start, sess.ID)
		}
	}
	if c.Session != nil {
		if err := c.routeRef(args); err != nil {
			hold.Release()
			return s.failureEnvelope(err, start, c.sid)
		}
	}
	var dialogErr, hangErr <-chan error
	activeBefore := ""
	if c.Session != nil {
		activeBefore = c.Session.Surfaces.Active()
		if c.surface != "" {
			activeBefore = c.surface
		}
		var stopWatch, stopHang func()
		dialogErr, stopWatch = dialogDuring(ctx, c.Session, d.Def)
		defer stopWatch()
		// A renderer stuck in a script: PAGE_UNRESPONSIVE, not the
		// backstop (hung.go). The probe goes out before the handler's
		// commands.
		hangErr, stopHang = hangDuring(ctx, c.Session, d.Def, c.surface)
		defer stopHang()
	}
	type outcome struct {
		v    any
		then *thenResult
		err  error
	}
	ch := make(chan outcome, 1)
	// The handler runs in a goroutine of the server's (calls) on a context
	// that ends with the backstop's. It holds the session admission and
	// releases it when it returns, after it has cancelled and joined what it started
	// (Call.Go): when the backstop gives up on it, it still releases the
	// lock at its next blocking step, as every handler's work is bounded by
	// its context (docs/adr: ownership of goroutines and sessions).
	hctx, hcancel := context.WithCancel(ctx)
	started = true
	go func() {
		defer s.calls.Done()
		var o outcome
		func() {
			defer func() {
				if r := recover(); r != nil {
					s.cfg.Logger.Error("tool panicked", "tool", name, "panic", r, "stack", string(debug.Stack()))
					o = outcome{err: errs.New(errs.Internal, "%s failed unexpectedly: %v", name, r)}
				}
			}()
			o.v, o.err = d.run(hctx, c, args)
			if o.err == nil && then != nil {
				o.then, o.err = runThen(hctx, c, name, then, o.v)
			}
		}()
		hcancel()
		c.group.Wait()
		if hold != nil {
			hold.Release()
		}
		ch <- o
	}()
	var o outcome
	select {
	case o = <-ch:
	case err := <-dialogErr:
		// The handler's context ends now; it releases the lock when it
		// returns.
		hcancel()
		o.err = err
	case err := <-hangErr:
		hcancel()
		o.err = err
	case <-ctx.Done():
		// The caller gets the backstop's answer now; the handler sees its
		// context end and releases the lock when it returns.
		if hold != nil {
			hold.GaveUp()
		}
		o.err = errs.New(errs.OperationTimeout, "%s did not finish within %s", name, s.cfg.OperationTimeout)
		switch {
		case s.life.Err() != nil:
			o.err = errs.New(errs.OperationTimeout, "%s was cancelled: the server is shutting down", name)
		case ctx.Err() == context.Canceled:
			o.err = errs.New(errs.OperationTimeout, "%s was cancelled by the client", name)
		}
	}
	if o.err != nil {
		if c.Session != nil {
			o.err = c.Session.SurfaceGone(activeBefore, o.err)
			c.Session.SetLastError(fmt.Sprintf("%s: %v", name, o.err))
		}
		return c.secrets.mark(s.failureEnvelope(o.err, start, c.sid))
	}
	var also []envField
	if o.then != nil {
		also = append(also, envField{"then", o.then})
	}
	env, err := successEnvelope(o.v, start, c.sid, also...)
	if err != nil {
		return s.failureEnvelope(err, start, c.sid)
	}
	return c.secrets.mark(env)
}

// crashBlocks answers APP_CRASHED for every call on a session whose app's
// main process ended on its own, except the calls declared to run after a
// crash (they clean up or read what happened).
func crashBlocks(sess *session.Session, d Def) error {
	if d.Effects.AfterCrash || d.Effects.EndsSession {
		return nil
	}
	return sess.CrashedError()
}
