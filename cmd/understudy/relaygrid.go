package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/grid"
)

// relayGrid is the grid session `understudy relay --grid` created: the
// relay's upstream is its se:cdp endpoint, and end deletes it.
type relayGrid struct {
	client  *grid.Client
	session grid.Session
	header  http.Header
}

// gridSessionTimeout bounds the session request (the grid queues it until
// a slot frees or its own --session-request-timeout passes).
const gridSessionTimeout = 5 * time.Minute

// startRelayGrid checks the --grid flags, creates the session and checks
// its se:cdp against --allow-remote (ADR-027). On failure it has said why
// on stderr and returns nil with the exit code: 2 for bad input and for a
// grid that refuses the capabilities, 1 when the grid is unreachable or
// has no free slot. A session it created and cannot use is deleted.
func startRelayGrid(ctx context.Context, rawURL, capsFlag string, allowList listFlag, headerList headerFlag, stderr io.Writer) (*relayGrid, int) {
	bad := func(format string, args ...any) (*relayGrid, int) {
		fmt.Fprintf(stderr, "understudy relay: "+format+"\n", args...)
		return nil, 2
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return bad("--grid: %q is not a grid URL like http://HOST:4444", rawURL)
	}
	caps, err := parseCapabilities(capsFlag)
	if err != nil {
		return bad("--capabilities: %v", err)
	}
	allow, err := browser.ParseRemoteAllow(allowList)
	if err != nil {
		return bad("--allow-remote: %v", err)
	}
	header, err := parseRemoteHeaders(headerList)
	if err != nil {
		return bad("%v", err)
	}
	gu, err := allow.CheckURL("grid", rawURL)
	if err != nil {
		return nil, gridFail(stderr, err, "--grid")
	}
	gu.RawQuery, gu.Fragment = "", ""
	g := &relayGrid{client: &grid.Client{URL: strings.TrimSuffix(gu.String(), "/"), Header: header}, header: header}
	cctx, cancel := context.WithTimeout(ctx, gridSessionTimeout)
	g.session, err = g.client.NewSession(cctx, caps)
	cancel()
	if err != nil {
		return nil, gridFail(stderr, err, "--capabilities")
	}
	if _, err := allow.CheckURL("se:cdp", g.session.CDPURL); err != nil {
		// The grid advertises its own address (not loopback even on this
		// machine): the allowlist must cover it.
		g.end(stderr)
		return nil, gridFail(stderr, err, "--allow-remote")
	}
	return g, 0
}

// parseCapabilities reads --capabilities: JSON, or @FILE holding JSON; an
// object. Empty means {"browserName":"chrome"}; browserName defaults to
// chrome.
func parseCapabilities(v string) (map[string]any, error) {
	data := []byte(v)
	if name, ok := strings.CutPrefix(v, "@"); ok {
		var err error
		if data, err = os.ReadFile(name); err != nil {
			return nil, fmt.Errorf("reading %s: %v", name, err)
		}
	}
	caps := map[string]any{}
	if strings.TrimSpace(string(data)) != "" {
		if err := json.Unmarshal(data, &caps); err != nil {
			return nil, fmt.Errorf("not a JSON object of W3C capabilities: %v", err)
		}
		if caps == nil {
			return nil, fmt.Errorf("not a JSON object of W3C capabilities: null")
		}
	}
	if o, ok := caps["goog:chromeOptions"]; ok {
		if _, ok := o.(map[string]any); !ok {
			return nil, fmt.Errorf("goog:chromeOptions must be an object")
		}
	}
	if _, ok := caps["browserName"]; !ok {
		caps["browserName"] = "chrome"
	}
	return caps, nil
}

// gridFail says why the grid part failed, with the error's code and hint
// and the flag to look at. A refusal of what the operator passed (the
// capabilities, the allowlist) is bad input: exit 2; an unreachable grid
// or no free slot: exit 1.
func gridFail(stderr io.Writer, err error, flagName string) int {
	code := 1
	switch errs.CodeOf(err) {
	case errs.GridSessionFailed, errs.RemoteNotAllowed, errs.BadArgument:
		code = 2
	}
	msg := err.Error()
	if e := errs.As(err); e != nil {
		entry, _ := errs.Lookup(e.Code)
		msg = fmt.Sprintf("%s: %s\n  hint: %s", e.Code, e.Message, entry.Hint)
	}
	fmt.Fprintf(stderr, "understudy relay: %s: %s\n", flagName, msg)
	return code
}

// end deletes the grid session (the grid frees the slot); bounded, and
// done even when the relay's context has ended (a signal).
func (g *relayGrid) end(stderr io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := g.client.DeleteSession(ctx, g.session.ID); err != nil {
		fmt.Fprintf(stderr, "understudy relay: deleting grid session %s: %v\n", g.session.ID, err)
	}
}
