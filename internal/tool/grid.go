package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/grid"
	"github.com/understudy-dev/understudy/internal/session"
)

// validateGrid checks electron_launch {grid, capabilities} (ADR-027).
func (a *launchArgs) validateGrid() error {
	switch {
	case a.Grid == "":
		return errs.BadArg("capabilities", "capabilities go with grid (a Selenium Grid URL)")
	case a.Relaunch:
		return errs.BadArg("relaunch", "relaunch starts a local app; for a grid, call electron_launch {grid, capabilities} again")
	case a.Main != "" || a.ElectronPath != "":
		return errs.BadArg("main", "a dev launch (main, electronPath) runs here, not on a grid; pass the app as capabilities goog:chromeOptions.binary")
	case len(a.Env) > 0 || a.Cwd != "":
		return errs.BadArg("env", "env and cwd are the grid node's; set them where the node runs")
	case a.TimeoutMs < 0 || a.TimeoutMs > 600000:
		return errs.BadArg("timeoutMs", "must be between 0 and 600000")
	case a.ReadyTimeoutMs < 0 || a.ReadyTimeoutMs > 300000:
		return errs.BadArg("readyTimeoutMs", "must be between 0 and 300000")
	}
	return grid.CheckTarget(a.Grid, a.Capabilities)
}

// launchGrid creates a session on a Selenium Grid 4 and drives it over its
// se:cdp endpoint with the pool in flat mode (ADR-025): the grid proxies
// one browser WebSocket. electron_stop, electron_force_kill and the
// server's exit delete the grid session.
func launchGrid(ctx context.Context, c *Call, a *launchArgs, replaced, relaunchedFrom string) (*launchResult, error) {
	s := c.Server
	gs, err := assemble.Grid(ctx, assemblyEnv(c), assemble.GridSpec{URL: a.Grid, Allow: s.cfg.AllowRemote, Header: s.cfg.RemoteHeaders,
		Capabilities: grid.AlwaysMatch(a.Capabilities, a.ExecutablePath, a.Args), Timeout: session.Millis(a.TimeoutMs, 5*time.Minute), Steps: c.Steps})
	if err != nil {
		return nil, err
	}
	sess := gs.Session
	s.owners.Set(sess.ID, ownerOf(ctx))
	res, err := readyResult(ctx, c, sess, session.Millis(a.ReadyTimeoutMs, 15*time.Second))
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
