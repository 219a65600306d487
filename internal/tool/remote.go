package tool

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/target"
)

// cdpURLOnLoopback reports whether a cdpUrl names this machine (or does
// not parse: Resolve then names the problem).
func cdpURLOnLoopback(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return true
	}
	return browser.IsLoopbackHost(u.Hostname())
}

// attachRemote attaches to a DevTools endpoint off loopback that the
// operator allowed (--allow-remote, ADR-027): a ws:// or wss:// browser
// socket as it is, or an http(s):// endpoint whose /json/version names
// one. The pool runs on that socket alone (flat, ADR-025), with the
// operator's headers; TLS is verified.
func attachRemote(ctx context.Context, c *Call, raw string) (*session.Session, browser.Endpoint, browser.Version, error) {
	s := c.Server
	u, err := s.cfg.AllowRemote.CheckURL("cdpUrl", raw)
	if err != nil {
		return nil, browser.Endpoint{}, browser.Version{}, err
	}
	var v browser.Version
	ws := raw
	switch u.Scheme {
	case "ws", "wss":
		if !strings.HasPrefix(u.Path, "/devtools/browser/") && !strings.Contains(u.Path, "/se/cdp") {
			return nil, browser.Endpoint{}, browser.Version{}, errs.BadArg("cdpUrl", "a ws:// or wss:// cdpUrl off loopback must be the browser socket (…/devtools/browser/ID)")
		}
	default:
		v, err = browser.RemoteVersion(ctx, u.Scheme+"://"+u.Host, s.cfg.RemoteHeaders)
		if err != nil {
			return nil, browser.Endpoint{}, browser.Version{}, err
		}
		wu, err := url.Parse(v.WebSocketDebuggerURL)
		if err != nil {
			return nil, browser.Endpoint{}, browser.Version{}, errs.New(errs.NotRunning, "the endpoint's /json/version names no usable browser socket")
		}
		// The endpoint names its own idea of its address (often 127.0.0.1
		// behind a proxy): reach the socket where we reached the endpoint.
		wu.Host = u.Host
		wu.Scheme = map[string]string{"http": "ws", "https": "wss"}[u.Scheme]
		ws = wu.String()
	}
	ep := browser.Endpoint{BrowserWSURL: ws, Host: u.Hostname()}
	ep.Port, _ = strconv.Atoi(u.Port())
	sess, err := openSessionOn(ctx, c, session.Attached, nil, ep, &v,
		target.Options{BrowserWSURL: ws, Flat: true, Header: s.cfg.RemoteHeaders.Clone()})
	if err != nil {
		return nil, browser.Endpoint{}, browser.Version{}, err
	}
	return sess, ep, v, nil
}

// autoConnect finds the user's own running Chrome by the DevToolsActivePort
// in userDataDir (first) and this OS's default user-data directories, and
// attaches over the browser socket it names (flat, ADR-025). Only with the
// operator's --allow-auto-connect. Nothing matching is AUTO_CONNECT_FAILED
// with what was looked at and why each did not match.
func autoConnect(ctx context.Context, c *Call, userDataDir string) (*session.Session, browser.Endpoint, browser.Version, string, error) {
	s := c.Server
	if !s.cfg.AllowAutoConnect {
		return nil, browser.Endpoint{}, browser.Version{}, "", errs.BadArg("autoConnect",
			"connecting to the user's own browser needs the operator's consent: start the server with --allow-auto-connect (or UNDERSTUDY_ALLOW_AUTO_CONNECT=true)")
	}
	dirs := browser.DefaultUserDataDirs()
	if userDataDir != "" {
		dirs = append([]string{userDataDir}, dirs...)
	}
	looked := browser.ReadActivePorts(dirs)
	var tried []string
	for i, ap := range looked {
		if ap.Why != "" {
			continue
		}
		if !browser.Listening(ctx, ap.Port) {
			looked[i].Why = "DevToolsActivePort names port " + strconv.Itoa(ap.Port) + ", where nothing listens (a browser that exited left it)"
			continue
		}
		// No HTTPURL: Chrome's auto-connect offers the browser socket only.
		ep := browser.Endpoint{Host: "127.0.0.1", Port: ap.Port, BrowserWSURL: ap.WSURL}
		sess, err := openSessionOn(ctx, c, session.Attached, nil, ep, nil, target.Options{BrowserWSURL: ap.WSURL, Flat: true})
		if err != nil {
			looked[i].Why = "connecting failed (the browser may be waiting for you to allow the connection): " + err.Error()
			tried = append(tried, ap.Dir)
			continue
		}
		bv, err := sess.BrowserVersion(ctx)
		if err == nil {
			sess.Version = browser.Version{Browser: bv.Product, ProtocolVersion: bv.Protocol, UserAgent: bv.UserAgent, V8Version: bv.V8}
		}
		return sess, ep, sess.Version, ap.Dir, nil
	}
	return nil, browser.Endpoint{}, browser.Version{}, "", errs.New(errs.AutoConnectFailed,
		"no running Chrome/Chromium with remote debugging found in %d user-data directories%s", len(looked), triedNote(tried)).With("looked", looked)
}

func triedNote(tried []string) string {
	if len(tried) == 0 {
		return ""
	}
	return " (found but could not connect: " + strings.Join(tried, ", ") + ")"
}
