package assemble

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/target"
)

// OnLoopback reports whether a cdpUrl names this machine (or does not
// parse: browser.Resolve then names the problem).
func OnLoopback(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return true
	}
	return browser.IsLoopbackHost(u.Hostname())
}

// Remote attaches to a DevTools endpoint off loopback that the operator
// allowed (allow, ADR-027): a ws:// or wss:// browser socket as it is, or
// an http(s):// endpoint whose /json/version names one. The pool runs on
// that socket alone (flat, ADR-025), with the operator's headers; TLS is
// verified. field names raw in errors.
func Remote(ctx context.Context, env Env, field, raw string, allow browser.RemoteAllow, headers http.Header) (*session.Session, browser.Endpoint, browser.Version, error) {
	u, err := allow.CheckURL(field, raw)
	if err != nil {
		return nil, browser.Endpoint{}, browser.Version{}, err
	}
	var v browser.Version
	ws := raw
	switch u.Scheme {
	case "ws", "wss":
		if !strings.HasPrefix(u.Path, "/devtools/browser/") && !strings.Contains(u.Path, "/se/cdp") {
			return nil, browser.Endpoint{}, browser.Version{}, errs.BadArg(field, "a ws:// or wss:// %s off loopback must be the browser socket (…/devtools/browser/ID)", field)
		}
	default:
		v, err = browser.RemoteVersion(ctx, u.Scheme+"://"+u.Host, headers)
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
	sess, err := Open(ctx, env, Spec{Mode: session.Attached, Endpoint: ep, Version: &v,
		Pool: target.Options{BrowserWSURL: ws, Flat: true, Header: headers.Clone()}})
	if err != nil {
		return nil, browser.Endpoint{}, browser.Version{}, err
	}
	return sess, ep, v, nil
}

// AutoConnect finds the user's own running Chrome by the DevToolsActivePort
// in userDataDir (first) and this OS's default user-data directories, and
// attaches over the browser socket it names (flat, ADR-025); it returns the
// directory whose file named it. Nothing matching is AUTO_CONNECT_FAILED
// with what was looked at and why each did not match. The caller has
// checked the operator's consent.
func AutoConnect(ctx context.Context, env Env, userDataDir string) (*session.Session, browser.Endpoint, browser.Version, string, error) {
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
		sess, err := Open(ctx, env, Spec{Mode: session.Attached, Endpoint: ep, Pool: target.Options{BrowserWSURL: ap.WSURL, Flat: true}})
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
