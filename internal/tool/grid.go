package tool

import (
	"context"
	"maps"
	"net/url"
	"slices"
	"time"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/errs"
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
	u, err := url.Parse(a.Grid)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errs.BadArg("grid", "%q is not a grid URL like http://HOST:4444", a.Grid)
	}
	if o, ok := a.Capabilities["goog:chromeOptions"]; ok {
		if _, ok := o.(map[string]any); !ok {
			return errs.BadArg("capabilities", "goog:chromeOptions must be an object")
		}
	}
	return nil
}

// gridCapabilities builds the session's alwaysMatch: the caller's
// capabilities, browserName chrome by default, with executablePath as
// goog:chromeOptions.binary and args appended to its args.
func gridCapabilities(a *launchArgs) map[string]any {
	caps := maps.Clone(a.Capabilities)
	if caps == nil {
		caps = map[string]any{}
	}
	if _, ok := caps["browserName"]; !ok {
		caps["browserName"] = "chrome"
	}
	opts := map[string]any{}
	if o, ok := caps["goog:chromeOptions"].(map[string]any); ok {
		opts = maps.Clone(o)
	}
	if a.ExecutablePath != "" {
		opts["binary"] = a.ExecutablePath
	}
	if len(a.Args) > 0 {
		var args []any
		if prev, ok := opts["args"].([]any); ok {
			args = slices.Clone(prev)
		}
		for _, x := range a.Args {
			args = append(args, x)
		}
		opts["args"] = args
	}
	if len(opts) > 0 {
		caps["goog:chromeOptions"] = opts
	}
	return caps
}

// launchGrid creates a session on a Selenium Grid 4 and drives it over its
// se:cdp endpoint with the pool in flat mode (ADR-025): the grid proxies
// one browser WebSocket. electron_stop, electron_force_kill and the
// server's exit delete the grid session.
func launchGrid(ctx context.Context, c *Call, a *launchArgs, replaced, relaunchedFrom string) (*launchResult, error) {
	s := c.Server
	gs, err := assemble.Grid(ctx, assemblyEnv(c), assemble.GridSpec{URL: a.Grid, Allow: s.cfg.AllowRemote, Header: s.cfg.RemoteHeaders,
		Capabilities: gridCapabilities(a), Timeout: ms(a.TimeoutMs, 5*time.Minute), Steps: c.Steps})
	if err != nil {
		return nil, err
	}
	sess := gs.Session
	s.owners.Set(sess.ID, ownerOf(ctx))
	res, err := readyResult(ctx, c, sess, ms(a.ReadyTimeoutMs, 15*time.Second))
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
