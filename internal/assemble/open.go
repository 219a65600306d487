package assemble

import (
	"cmp"
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/target"
)

// Env is what the server lends to the assembly of every session.
type Env struct {
	// NextID is the id of the next session (the manager's).
	NextID func() string
	// DownloadsDir is the folder a session's downloads land in; an error
	// refuses them.
	DownloadsDir func() (string, error)
	// Progress reports a stage of the work to the caller; nil: nobody
	// listens.
	Progress func(stage string)
}

func (e Env) step(stage string) {
	if e.Progress != nil {
		e.Progress(stage)
	}
}

// Spec is the browser a session is opened on.
type Spec struct {
	Mode     session.Mode
	Proc     *browser.Process // what we launched; nil for an attached app
	Endpoint browser.Endpoint
	Version  *browser.Version // nil: not known yet
	// Pool is the pool's options: the endpoint's URLs, or flat mode for
	// endpoints that offer one browser socket (ADR-025), headers.
	Pool target.Options
}

// Open connects the pool and surface registry for a new session and builds
// it, with its dialog and console logs, its capture and its downloads. It
// does not publish it: the caller completes it, then publishes it, and
// closes it on any error before that. On failure nothing is left open.
func Open(ctx context.Context, env Env, sp Spec) (*session.Session, error) {
	var ver browser.Version
	if sp.Version != nil {
		ver = *sp.Version
	}
	pool, err := target.Open(ctx, sp.Pool)
	if err != nil {
		return nil, err
	}
	id := env.NextID()
	reg, err := surface.New(surface.Options{SessionID: id, Pool: pool})
	if err != nil {
		_ = pool.Close()
		return nil, err
	}
	sess := session.New(id, sp.Mode, sp.Proc, sp.Endpoint, ver, pool, reg)
	// Dialogs and console messages are logged from the start.
	Dialogs(sess)
	Console(sess)
	StartCapture(sess)
	StartDownloads(ctx, sess, env.DownloadsDir)
	env.step("connected to " + cmp.Or(sp.Endpoint.HTTPURL, browser.RedactURL(sp.Endpoint.BrowserWSURL)))
	return sess, nil
}

// Ready waits up to d for a ready renderer (a page target whose main frame
// has a default context and whose document is not loading) and makes the
// first window the active one when nothing is selected yet. note says why
// no renderer was ready; err is the selection's failure.
func Ready(ctx context.Context, env Env, sess *session.Session, d time.Duration) (ready bool, note string, err error) {
	env.step("waiting for a renderer")
	ready, note = waitRendererReady(ctx, sess, d)
	if ready {
		env.step("renderer ready")
	} else {
		env.step("no renderer ready: " + note)
	}
	return ready, note, SelectFirstWindow(ctx, sess)
}

func waitRendererReady(ctx context.Context, sess *session.Session, d time.Duration) (bool, string) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	last := "no page target yet"
	for {
		if ok, why := rendererReady(ctx, sess); ok {
			return true, ""
		} else if why != "" {
			last = why
		}
		select {
		case <-ctx.Done():
			return false, "not ready after " + d.String() + ": " + last
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func rendererReady(ctx context.Context, sess *session.Session) (bool, string) {
	wins, err := sess.Pool.Windows(ctx)
	if err != nil {
		return false, err.Error()
	}
	for _, w := range wins {
		if w.Type != "page" {
			continue
		}
		conn, err := sess.Pool.Conn(ctx, w.ID)
		if err != nil {
			return false, err.Error()
		}
		// It runs in the main frame's default context, so an answer proves
		// one exists. The document must be the one the target reports (not
		// the initial about:blank a window starts with) and past loading.
		state, err := nav.On(conn).MainDocument(ctx, w.URL)
		if err != nil {
			return false, err.Error()
		}
		if state == "ready" {
			return true, ""
		}
		return false, "the main document is " + state
	}
	return false, "no page target yet"
}

// SelectFirstWindow makes the first window root the active one when
// nothing is selected yet.
func SelectFirstWindow(ctx context.Context, sess *session.Session) error {
	if sess.Surfaces.ActiveWindow() != "" {
		return nil
	}
	wins, err := sess.Pool.Windows(ctx)
	if err != nil {
		return err
	}
	var last error
	for _, w := range wins {
		if _, last = sess.Surfaces.SelectWindow(w.ID); last == nil {
			return nil
		}
	}
	// The registry may not know the windows yet: a listing registers them.
	if _, err := sess.Surfaces.List(ctx); err != nil {
		return err
	}
	for _, w := range wins {
		if _, last = sess.Surfaces.SelectWindow(w.ID); last == nil {
			return nil
		}
	}
	return last
}
