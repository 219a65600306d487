package assemble

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/target"
)

// AttachArgs are the arguments of an attach (electron_attach's, less the
// session id): where the running app's DevTools endpoint is, or
// autoConnect to find the user's own browser. Their json and jsonschema
// tags are the tool's input schema.
type AttachArgs struct {
	Port          int    `json:"port,omitempty" jsonschema:"the app's --remote-debugging-port"`
	Host          string `json:"host,omitempty" jsonschema:"loopback host; default 127.0.0.1"`
	CdpURL        string `json:"cdpUrl,omitempty" jsonschema:"http://127.0.0.1:PORT or ws://127.0.0.1:PORT/devtools/browser/ID"`
	InspectorURL  string `json:"inspectorUrl,omitempty" jsonschema:"the main process's Node inspector ws URL, if open"`
	InspectorPort int    `json:"inspectorPort,omitempty" jsonschema:"the main process's Node inspector port, if open"`
	PID           int    `json:"pid,omitempty" jsonschema:"the app's pid; enables electron_stop escalation and electron_force_kill"`
	TimeoutMs     int    `json:"timeoutMs,omitempty" jsonschema:"default 10000"`
	AllowMultiple bool   `json:"allowMultiple,omitempty" jsonschema:"open another session while one is open"`
	AutoConnect   bool   `json:"autoConnect,omitempty" jsonschema:"connect to the user's own running Chrome/Chromium that has remote debugging on, found by its DevToolsActivePort (needs the server's --allow-auto-connect)"`
	UserDataDir   string `json:"userDataDir,omitempty" jsonschema:"with autoConnect: also look in this user-data directory (absolute), first"`
}

// Check validates the arguments before anything is reached: one way to
// the endpoint, ports in range, a loopback host and inspector URL.
func (a *AttachArgs) Check() error {
	if a.AutoConnect || a.UserDataDir != "" {
		switch {
		case !a.AutoConnect:
			return errs.BadArg("userDataDir", "userDataDir goes with autoConnect:true")
		case a.Port != 0 || a.CdpURL != "" || a.Host != "":
			return errs.BadArg("autoConnect", "autoConnect finds the endpoint itself: pass no port, host or cdpUrl")
		case a.UserDataDir != "" && !filepath.IsAbs(a.UserDataDir):
			return errs.BadArg("userDataDir", "must be an absolute path")
		case a.TimeoutMs < 0 || a.TimeoutMs > 300000:
			return errs.BadArg("timeoutMs", "must be between 0 and 300000")
		}
		return nil
	}
	switch {
	case a.Port == 0 && a.CdpURL == "":
		return errs.BadArg("port", "pass port (+host) or cdpUrl")
	case a.Port != 0 && a.CdpURL != "":
		return errs.BadArg("cdpUrl", "pass port or cdpUrl, not both")
	case a.Port < 0 || a.Port > 65535:
		return errs.BadArg("port", "must be 1–65535")
	case a.InspectorPort < 0 || a.InspectorPort > 65535:
		return errs.BadArg("inspectorPort", "must be 1–65535")
	case a.PID < 0:
		return errs.BadArg("pid", "must be positive")
	}
	if a.InspectorURL != "" {
		if err := checkLoopbackURL("inspectorUrl", a.InspectorURL); err != nil {
			return err
		}
	}
	if a.Host != "" {
		if err := browser.CheckLoopback(a.Host); err != nil {
			return err
		}
	}
	return nil
}

// checkLoopbackURL refuses a URL whose host is not loopback.
func checkLoopbackURL(field, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return errs.BadArg(field, "not a URL: %q", raw)
	}
	if err := browser.CheckLoopback(u.Hostname()); err != nil {
		return errs.BadArg(field, "host %q is not loopback; only 127.0.0.1, ::1 and localhost are allowed", u.Hostname())
	}
	return nil
}

// Timeout bounds the whole attach, publishing included (default 10 s).
func (a *AttachArgs) Timeout() time.Duration { return session.Millis(a.TimeoutMs, 10*time.Second) }

// AttachConfig is what the operator allows an attach and what the caller
// lends it.
type AttachConfig struct {
	// AllowAutoConnect (--allow-auto-connect) is the operator's consent
	// to connect to the user's own browser.
	AllowAutoConnect bool
	// AllowRemote and RemoteHeaders: the hosts off loopback a cdpUrl may
	// name, and the headers sent there (Remote).
	AllowRemote   browser.RemoteAllow
	RemoteHeaders http.Header
	// Foreign gives the loopback ports and browser sockets of the apps
	// other clients' sessions own, which do not exist for this caller;
	// NotForeign refuses an endpoint behind one of them as a closed port
	// is refused.
	Foreign    func() (ports map[int]bool, sockets map[string]bool)
	NotForeign func(browser.Endpoint) error
	// Steps says how many progress stages follow.
	Steps func(n int)
}

// Attached is a session Attach opened, not yet published, with the
// endpoint and version it reached.
type Attached struct {
	Session  *session.Session
	Endpoint browser.Endpoint
	Version  browser.Version
	// AutoConnected is the user-data directory whose DevToolsActivePort
	// named the browser (autoConnect).
	AutoConnected string
}

// Attach connects to the running app the arguments name: the user's own
// browser (autoConnect, with the operator's consent), an endpoint off
// loopback (Remote), or one on loopback; the app is the user's
// (session.Attached). The session carries the pid and the main process's
// inspector given. It is not published: the caller completes it,
// publishes it, and detaches it on any error before that.
func Attach(ctx context.Context, env Env, a *AttachArgs, cfg AttachConfig) (*Attached, error) {
	host := a.Host
	if host == "" && a.Port != 0 {
		host = "127.0.0.1"
	}
	// Another client's app's main-process inspector does not exist here
	// either (Foreign).
	if foreign, _ := cfg.Foreign(); a.InspectorPort != 0 && foreign[a.InspectorPort] {
		return nil, errs.New(errs.NotRunning, "no inspector at 127.0.0.1:%d", a.InspectorPort).With("field", "inspectorPort")
	} else if a.InspectorURL != "" && foreign[session.PortOfURL(a.InspectorURL)] {
		return nil, errs.New(errs.NotRunning, "no inspector at %s", a.InspectorURL).With("field", "inspectorUrl")
	}
	cfg.Steps(2) // connected, windows listed
	var out Attached
	var err error
	switch {
	case a.AutoConnect:
		if !cfg.AllowAutoConnect {
			return nil, errs.BadArg("autoConnect",
				"connecting to the user's own browser needs the operator's consent: start the server with --allow-auto-connect (or UNDERSTUDY_ALLOW_AUTO_CONNECT=true)")
		}
		out.Session, out.Endpoint, out.Version, out.AutoConnected, err = AutoConnect(ctx, env, a.UserDataDir)
	case a.CdpURL != "" && !OnLoopback(a.CdpURL):
		out.Session, out.Endpoint, out.Version, err = Remote(ctx, env, "cdpUrl", a.CdpURL, cfg.AllowRemote, cfg.RemoteHeaders)
	default:
		out.Endpoint, out.Version, err = browser.Resolve(ctx, host, a.Port, a.CdpURL)
		if err == nil {
			err = cfg.NotForeign(out.Endpoint) // another client's app does not exist here
		}
		if err == nil {
			ep := out.Endpoint
			out.Session, err = Open(ctx, env, Spec{Mode: session.Attached, Endpoint: ep, Version: &out.Version,
				Pool: target.Options{HTTPURL: ep.HTTPURL, BrowserWSURL: ep.BrowserWSURL}})
		}
	}
	if err != nil {
		return nil, err
	}
	// Complete before publishing: no other call sees these fields change.
	sess := out.Session
	sess.PID = a.PID
	switch {
	case a.InspectorURL != "":
		sess.InspectorURL = a.InspectorURL // checked in Check
	case a.InspectorPort != 0:
		sess.InspectorURL = "http://127.0.0.1:" + strconv.Itoa(a.InspectorPort)
	}
	return &out, nil
}

// DiscoverArgs are the arguments of a probe for DevTools endpoints on
// loopback (electron_discover_running's).
type DiscoverArgs struct {
	Ports     []int  `json:"ports,omitempty" jsonschema:"ports to probe; default 9222–9229"`
	Host      string `json:"host,omitempty" jsonschema:"loopback host; default 127.0.0.1"`
	TimeoutMs int    `json:"timeoutMs,omitempty" jsonschema:"per-port budget; default 750"`
}

// Check validates the ports, the loopback host and the budget.
func (a *DiscoverArgs) Check() error {
	if len(a.Ports) > 1024 {
		return errs.BadArg("ports", "at most 1024 ports")
	}
	for _, p := range a.Ports {
		if p <= 0 || p > 65535 {
			return errs.BadArg("ports", "port %d is not 1–65535", p)
		}
	}
	if a.Host != "" {
		return browser.CheckLoopback(a.Host)
	}
	if a.TimeoutMs < 0 || a.TimeoutMs > 10000 {
		return errs.BadArg("timeoutMs", "must be between 0 and 10000")
	}
	return nil
}

// Discovered is one DevTools endpoint a probe found.
type Discovered struct {
	Port     int    `json:"port"`
	CdpURL   string `json:"cdpUrl"`
	Browser  string `json:"browser"`
	Electron bool   `json:"electron"`
	Targets  int    `json:"targets"`
}

// DiscoverResult is what a probe found (electron_discover_running's
// result).
type DiscoverResult struct {
	Endpoints []Discovered `json:"endpoints"`
	Probed    int          `json:"probed" jsonschema:"how many ports were probed"`
}

// Discover probes the ports (default browser.DefaultDiscoverPorts) on the
// loopback host (default 127.0.0.1) and lists the DevTools endpoints that
// answer, less those of the apps foreign gives (other clients' sessions).
func Discover(ctx context.Context, a *DiscoverArgs, foreign func() (ports map[int]bool, sockets map[string]bool)) (*DiscoverResult, error) {
	host := a.Host
	if host == "" {
		host = "127.0.0.1"
	}
	ports := a.Ports
	if len(ports) == 0 {
		ports = browser.DefaultDiscoverPorts()
	}
	found, err := browser.Discover(ctx, host, ports, session.Millis(a.TimeoutMs, 750*time.Millisecond))
	if err != nil {
		return nil, err
	}
	out := []Discovered{}
	foreignPorts, sockets := foreign()
	for _, f := range found {
		if foreignPorts[f.Endpoint.Port] || sockets[f.Endpoint.BrowserWSURL] {
			continue // an app another client's session owns
		}
		out = append(out, Discovered{Port: f.Endpoint.Port, CdpURL: f.Endpoint.HTTPURL, Browser: f.Version.Browser,
			Electron: strings.Contains(f.Version.UserAgent, "Electron/"), Targets: f.Targets})
	}
	return &DiscoverResult{Endpoints: out, Probed: len(ports)}, nil
}
