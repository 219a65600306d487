package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/grid"
	"github.com/understudy-dev/understudy/internal/session"
)

// launchGrid creates a session on a Selenium Grid 4 and drives it over its
// se:cdp endpoint with the pool in flat mode (ADR-025): the grid proxies
// one browser WebSocket. electron_stop, electron_force_kill and the
// server's exit delete the grid session.
func launchGrid(ctx context.Context, c *Call, a *launchArgs, replaced, relaunchedFrom string) (*assemble.Launched, error) {
	s := c.Server
	gs, err := assemble.Grid(ctx, assemblyEnv(c), assemble.GridSpec{URL: a.Grid, Allow: s.cfg.AllowRemote, Header: s.cfg.RemoteHeaders,
		Capabilities: grid.AlwaysMatch(a.Capabilities, a.ExecutablePath, a.Args), Timeout: session.Millis(a.TimeoutMs, 5*time.Minute), Steps: c.Steps})
	if err != nil {
		return nil, err
	}
	sess := gs.Session
	s.owners.Set(sess.ID, ownerOf(ctx))
	res, err := assemble.ReadyResult(ctx, assemblyEnv(c), sess, session.Millis(a.ReadyTimeoutMs, 15*time.Second), s.capabilities())
	if err == nil {
		err = publish(c, sess, !a.AllowMultiple)
	}
	if err != nil {
		_ = sess.ForceKill() // closes our sockets and deletes the grid session
		return nil, err
	}
	res.ReplacedDeadSession = replaced
	res.RelaunchedFrom = relaunchedFrom
	res.GridSessionID = gs.ID
	res.GridSessionMs = gs.Created.Milliseconds()
	return res, nil
}
