package assemble

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/grid"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/target"
)

// GridSpec is a session to create on a Selenium Grid 4.
type GridSpec struct {
	URL          string              // the grid (http://HOST:4444); field "grid" in errors
	Allow        browser.RemoteAllow // the operator's hosts off loopback (--allow-remote)
	Header       http.Header         // the operator's headers (--remote-header)
	Capabilities map[string]any      // W3C alwaysMatch
	Timeout      time.Duration       // for the grid to create the session
	// Steps says how many progress stages follow, once the URL is allowed.
	Steps func(n int)
}

// GridSession is what Grid made: the session, the grid's session id and
// how long the grid took to create it.
type GridSession struct {
	*session.Session
	ID      string
	Created time.Duration
}

// Grid creates a WebDriver session on a Selenium Grid 4 and opens a
// session on its se:cdp endpoint with the pool in flat mode (ADR-025): the
// grid proxies one browser WebSocket. The session deletes the grid session
// when it ends (EndRemote); a failure after the grid made one deletes it.
func Grid(ctx context.Context, env Env, sp GridSpec) (*GridSession, error) {
	gu, err := sp.Allow.CheckURL("grid", sp.URL)
	if err != nil {
		return nil, err
	}
	gu.RawQuery, gu.Fragment = "", ""
	gc := &grid.Client{URL: gu.String(), Header: sp.Header.Clone()}
	if sp.Steps != nil {
		sp.Steps(5) // session requested, session created, connected, waiting, ready
	}
	env.step("grid: requesting a session")
	cctx, cancel := context.WithTimeout(ctx, sp.Timeout)
	start := time.Now()
	gs, err := gc.NewSession(cctx, sp.Capabilities)
	cancel()
	if err != nil {
		return nil, err
	}
	created := time.Since(start)
	env.step("grid: session " + gs.ID + " created in " + strconv.FormatInt(created.Milliseconds(), 10) + " ms")
	end := func(ctx context.Context) error { return gc.DeleteSession(ctx, gs.ID) }
	fail := func(err error) (*GridSession, error) {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		_ = end(dctx)
		return nil, err
	}
	if _, err := sp.Allow.CheckURL("se:cdp", gs.CDPURL); err != nil {
		// The grid advertises its own address (not loopback even on this
		// machine): the allowlist must cover it.
		return fail(err)
	}
	ep := browser.Endpoint{BrowserWSURL: gs.CDPURL}
	if u, err := url.Parse(gs.CDPURL); err == nil {
		ep.Host = u.Hostname()
		ep.Port, _ = strconv.Atoi(u.Port())
	}
	ver := browser.Version{Browser: gs.BrowserName + "/" + gs.BrowserVersion}
	sess, err := Open(ctx, env, Spec{Mode: session.Grid, Endpoint: ep, Version: &ver,
		Pool: target.Options{BrowserWSURL: gs.CDPURL, Flat: true, Header: sp.Header.Clone()}})
	if err != nil {
		return fail(err)
	}
	sess.EndRemote = end
	return &GridSession{Session: sess, ID: gs.ID, Created: created}, nil
}
