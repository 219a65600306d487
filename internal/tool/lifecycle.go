package tool

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/session"
)

func registerLifecycle(s *Server) {
	define(s, Def{
		Name: "electron_launch", Title: "Launch an app", Profiles: "ETD", Class: classLifecycle,
		Effects: Effects{Does: kReach, OpensSession: true},
		Short:   "Start an app or browser and wait for a renderer. A running app: electron_attach.",
		Desc:    "Start an app and wait until a renderer is ready. Pass executablePath (a packaged Electron app or any Chromium-based browser; Chromium runs headless with a fresh profile; omitted: the browser understudy doctor finds, named in executable_path), or main (+ electronPath) for a dev launch that also opens the main-process inspector. Progress notifications follow the start. A session whose app has ended (status alive:false) does not block a launch: its leftovers are cleaned up and replaced_dead_session names it.",
	}, launch)
	define(s, Def{
		Name: "electron_attach", Title: "Attach to a running app", Profiles: "ETD", Class: classLifecycle,
		Effects: Effects{Does: kReach, OpensSession: true},
		Short:   "Attach to a running app's DevTools port on loopback; the app stays the user's. To start one: electron_launch.",
		Desc:    "Attach to a running app's DevTools endpoint on loopback: port (+host) or cdpUrl. Give pid to allow kill escalation. The app stays the user's: server exit only closes our sockets.",
	}, attach)
	define(s, Def{
		Name: "electron_detach", Title: "Detach, leave the app running", Profiles: "TD", Class: classLifecycle, Session: true,
		Effects: Effects{Does: kSelect, Page: pageFree, EndsSession: true},
		Short:   "Disconnect and leave the app running. To end it: electron_stop.",
		Desc:    "Disconnect from the app and leave it running. An app understudy launched still ends when the server exits (ends_with_server:true): what we launch we end; use electron_stop to end it now. On a session whose app had already ended it answers was_dead:true with ended_why instead of app_left_running.",
	}, detach)
	define(s, Def{
		Name: "electron_stop", Title: "Stop the app", Profiles: "ETD", Class: classLifecycle, Session: true,
		Effects: Effects{Does: kAct, Page: pageFree, EndsSession: true},
		Short:   "End the session: a launched app closes with all its processes; an attached one only with closeApp.",
		Desc:    "End the session. A launched app is stopped gracefully (Browser.close), escalating to SIGTERM and SIGKILL of its process group (escalated says so); no process of it remains. An attached or injected app is the user's: stop only disconnects and leaves it running, unless closeApp:true (then Browser.close, and signals to the pid given on attach if it lingers). action says which happened: closed or detached. On a session whose app had already ended (browser exited, connection lost) nothing is sent to the app: action is cleaned_up with was_dead:true and ended_why.",
	}, stop)
	define(s, Def{
		Name: "electron_force_kill", Title: "Kill the app's processes", Profiles: "TD", Class: classLifecycle, Session: true,
		Effects: Effects{Does: kAct, Page: pageFree, EndsSession: true},
		Short:   "Kill the app's processes now, when electron_stop cannot.",
		Desc:    "Kill the app's process group now (a launched app, or the pid given on attach).",
	}, forceKill)
	define(s, Def{
		Name: "electron_discover_running", Title: "Find DevTools endpoints on loopback", Profiles: "D", Class: classLifecycle,
		Effects: Effects{Does: kRead},
		Short:   "List the DevTools endpoints answering on loopback, for electron_attach.",
		Desc:    "Probe loopback ports for DevTools endpoints (default 9222–9229) and list what answers; attach to one with electron_attach.",
	}, discover)
	define(s, Def{
		Name: "electron_status", Title: "Server and session status", Profiles: "ETD", Class: classLifecycle,
		Effects: Effects{Does: kRead, Page: pageFree},
		Short:   "Server uptime, open sessions, last error, whether the app is alive.",
		Desc:    "Server version and uptime, the open sessions with their selected window and surface, and the last error. A session whose app ended (the launched browser exited, or the DevTools connection was lost) says alive:false with ended_why; electron_launch replaces it, electron_stop cleans it up.",
	}, status)
	define(s, Def{
		Name: "electron_info", Title: "App versions and capabilities", Profiles: "D", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Page: pageFree},
		Short:   "The app's runtime versions, endpoints and capabilities.",
		Desc:    "The app's runtime versions, transport, endpoints and the capability matrix (what this server can really do on it now).",
	}, info)
	define(s, Def{
		Name: "electron_doctor", Title: "Preflight check", Profiles: "D", Class: classLifecycle,
		Effects: Effects{Does: kRead},
		Short:   "Preflight checks to run when a launch fails.",
		Desc:    "A non-mutating preflight: browser binary, display, eval policy, app root, temp space. Run it when a launch fails.",
	}, doctorTool)
}

func launch(ctx context.Context, c *Call, a *launchArgs) (*launchResult, error) {
	s := c.Server
	relaunchedFrom := ""
	if a.Relaunch {
		prev, from, err := relaunchArgs(ctx, s, a.SessionID)
		if err != nil {
			return nil, err
		}
		a, relaunchedFrom = prev, from
	}
	replaced, err := replaceDead(ctx, s, a.AllowMultiple)
	if err != nil {
		return nil, err
	}
	if a.Grid != "" {
		return launchGrid(ctx, c, a, replaced, relaunchedFrom)
	}
	found := ""
	if a.ExecutablePath == "" && a.Main == "" {
		if found = s.cfg.BrowserPath; found == "" {
			found = FindChromium()
		}
		if found == "" {
			return nil, errs.BadArg("executablePath", "no Chromium found on this machine (understudy doctor says where it looked): pass executablePath (an app or browser binary) or main (a dev launch's main script), or set $UNDERSTUDY_CHROMIUM")
		}
		a.ExecutablePath = found
	}
	sess, err := assemble.Launch(ctx, assemblyEnv(c), assemble.LaunchSpec{
		Options: browser.LaunchOptions{
			ExecutablePath: a.ExecutablePath, Args: a.Args, Env: a.Env, Cwd: a.Cwd,
			AppRoot: s.cfg.AppRoot, AllowEnv: s.cfg.AllowEnv, Headless: a.Headless, Timeout: ms(a.TimeoutMs, 30*time.Second),
		},
		Main: a.Main, ElectronPath: a.ElectronPath, InstrumentNative: a.InstrumentNative,
		Launchable: s.cfg.Launchable, Steps: c.Steps,
	})
	if err != nil {
		return nil, err
	}
	s.owners.Set(sess.ID, ownerOf(ctx))
	kept := *a
	kept.Relaunch, kept.SessionID = false, ""
	sess.Relaunch, _ = json.Marshal(&kept)
	res, err := readyResult(ctx, c, sess, ms(a.ReadyTimeoutMs, 15*time.Second))
	if err == nil {
		err = publish(c, sess, !a.AllowMultiple)
	}
	if err != nil {
		_ = sess.ForceKill() // what we launched for a call that failed goes
		return nil, err
	}
	res.ReplacedDeadSession = replaced
	res.ExecutablePath = found
	res.RelaunchedFrom = relaunchedFrom
	return res, nil
}

// relaunchArgs finds the launch arguments of the ended session a relaunch
// means: the one named, or the only ended session this server launched.
func relaunchArgs(ctx context.Context, s *Server, id string) (*launchArgs, string, error) {
	var found []*session.Session
	for _, x := range s.visible(ctx) {
		if id != "" && x.ID != id {
			continue
		}
		if alive, _ := x.Alive(); alive {
			if id != "" {
				return nil, "", errs.BadArg("relaunch", "session %s is still running; relaunch starts an app that crashed or ended (electron_stop it first to restart it)", id)
			}
			continue
		}
		if len(x.Relaunch) > 0 {
			found = append(found, x)
		}
	}
	switch len(found) {
	case 0:
		if id != "" {
			return nil, "", errs.BadArg("sessionId", "no ended session %q launched by this server to relaunch (an attached app is started by its user)", id)
		}
		return nil, "", errs.BadArg("relaunch", "no session launched by this server has crashed or ended; call electron_launch with executablePath or main")
	case 1:
		var prev launchArgs
		if err := json.Unmarshal(found[0].Relaunch, &prev); err != nil {
			return nil, "", errs.Wrap(errs.Internal, err, "reading the ended session's launch arguments")
		}
		return &prev, found[0].ID, nil
	}
	return nil, "", errs.BadArg("sessionId", "%d ended sessions could be relaunched; pass sessionId to say which", len(found))
}

// replaceDead makes room for a new session. When the caller sees open
// sessions and every one of them has ended (its browser exited or the
// DevTools connection was lost), it cleans up their leftovers (our sockets;
// for a launched app what remains of its process group), forgets them, and
// returns their ids. A live session is ALREADY_RUNNING unless allowMultiple.
func replaceDead(ctx context.Context, s *Server, allowMultiple bool) (string, error) {
	vis := s.visible(ctx)
	if allowMultiple || len(vis) == 0 {
		return "", nil
	}
	for _, x := range vis {
		if alive, _ := x.Alive(); alive {
			return "", errs.New(errs.AlreadyRunning, "a session is already open (%s)", session.IDs(vis))
		}
	}
	ids := make([]string, 0, len(vis))
	for _, x := range vis {
		_ = x.CleanUp() // the app is gone already: nothing is sent to it
		s.dropSession(x.ID)
		ids = append(ids, x.ID)
	}
	return strings.Join(ids, ", "), nil
}

type attachArgs struct {
	Common
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

func (a *attachArgs) validate() error {
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

func attach(ctx context.Context, c *Call, a *attachArgs) (*launchResult, error) {
	s := c.Server
	replaced, err := replaceDead(ctx, s, a.AllowMultiple)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, ms(a.TimeoutMs, 10*time.Second))
	defer cancel()
	host := a.Host
	if host == "" && a.Port != 0 {
		host = "127.0.0.1"
	}
	// Another client's app's main-process inspector does not exist here
	// either (foreignApps).
	if foreign, _ := s.foreignApps(ctx); a.InspectorPort != 0 && foreign[a.InspectorPort] {
		return nil, errs.New(errs.NotRunning, "no inspector at 127.0.0.1:%d", a.InspectorPort).With("field", "inspectorPort")
	} else if a.InspectorURL != "" && foreign[session.PortOfURL(a.InspectorURL)] {
		return nil, errs.New(errs.NotRunning, "no inspector at %s", a.InspectorURL).With("field", "inspectorUrl")
	}
	c.Steps(2) // connected, windows listed
	var sess *session.Session
	var ep browser.Endpoint
	var v browser.Version
	found := ""
	switch {
	case a.AutoConnect:
		if !s.cfg.AllowAutoConnect {
			return nil, errs.BadArg("autoConnect",
				"connecting to the user's own browser needs the operator's consent: start the server with --allow-auto-connect (or UNDERSTUDY_ALLOW_AUTO_CONNECT=true)")
		}
		if sess, ep, v, found, err = assemble.AutoConnect(ctx, assemblyEnv(c), a.UserDataDir); err == nil {
			s.owners.Set(sess.ID, ownerOf(ctx))
		}
	case a.CdpURL != "" && !assemble.OnLoopback(a.CdpURL):
		if sess, ep, v, err = assemble.Remote(ctx, assemblyEnv(c), "cdpUrl", a.CdpURL, s.cfg.AllowRemote, s.cfg.RemoteHeaders); err == nil {
			s.owners.Set(sess.ID, ownerOf(ctx))
		}
	default:
		ep, v, err = browser.Resolve(ctx, host, a.Port, a.CdpURL)
		if err == nil {
			err = s.notForeign(ctx, ep) // another client's app does not exist here
		}
		if err == nil {
			sess, err = openSession(ctx, c, session.Attached, nil, ep, &v)
		}
	}
	if err != nil {
		return nil, err
	}
	// Complete before publishing: no other call sees these fields change.
	sess.PID = a.PID
	switch {
	case a.InspectorURL != "":
		sess.InspectorURL = a.InspectorURL // checked in validate
	case a.InspectorPort != 0:
		sess.InspectorURL = "http://127.0.0.1:" + itoa(a.InspectorPort)
	}
	wins, err := func() ([]windowEntry, error) {
		if err := assemble.SelectFirstWindow(ctx, sess); err != nil {
			return nil, err
		}
		wins, _, err := listWindows(ctx, sess, false)
		if err != nil {
			return nil, err
		}
		c.Step("attached: " + itoa(len(wins)) + " windows")
		return wins, publish(c, sess, !a.AllowMultiple)
	}()
	if err != nil {
		sess.Detach() // the app is the user's: only our sockets go
		return nil, err
	}
	return &launchResult{
		SessionID: sess.ID, Transport: "cdp", LaunchMode: string(session.Attached), PID: sess.PID,
		Endpoint: cmp.Or(ep.HTTPURL, browser.RedactURL(ep.BrowserWSURL)), InspectorURL: sess.InspectorURL, Browser: v.Browser, Windows: wins,
		RendererReady: len(wins) > 0, Capabilities: s.capabilities(), ReplacedDeadSession: replaced,
		AutoConnected: found,
	}, nil
}

// endedApp says that a session's app had ended before the call.
type endedApp struct {
	WasDead  bool   `json:"was_dead,omitempty" jsonschema:"the app had already ended"`
	EndedWhy string `json:"ended_why,omitempty"`
}

// detachResult is electron_detach's result.
type detachResult struct {
	Detached       bool `json:"detached"`
	AppLeftRunning bool `json:"app_left_running,omitempty"`
	EndsWithServer bool `json:"ends_with_server,omitempty" jsonschema:"the app was launched by this server, which ends it when it exits"`
	endedApp
}

func detach(ctx context.Context, c *Call, _ *noArgs) (*detachResult, error) {
	alive, why := c.Session.Alive()
	c.Session.Detach()
	c.Server.dropSession(c.Session.ID)
	if !alive {
		// Nothing is known to be left running: say what ended it instead.
		return &detachResult{Detached: true, endedApp: endedApp{WasDead: true, EndedWhy: why}}, nil
	}
	out := &detachResult{Detached: true, AppLeftRunning: true}
	if c.Session.Proc != nil {
		// What we launched we end: it runs on until the server exits.
		c.Server.sessions.KeepUntilClose(c.Session.Proc)
		out.EndsWithServer = true
	} else if end := c.Session.RemoteEnder(); end != nil {
		// A grid session we created: deleted when the server exits.
		c.Server.sessions.KeepRemoteUntilClose(end)
		out.EndsWithServer = true
	}
	return out, nil
}

type stopArgs struct {
	Common
	TimeoutMs int  `json:"timeoutMs,omitempty" jsonschema:"grace before each escalation step; default 10000"`
	CloseApp  bool `json:"closeApp,omitempty" jsonschema:"attached or injected app: close it (Browser.close) instead of only disconnecting; a launched app is always closed"`
}

func (a *stopArgs) validate() error {
	if a.TimeoutMs < 0 || a.TimeoutMs > 120000 {
		return errs.BadArg("timeoutMs", "must be between 0 and 120000")
	}
	return nil
}

// stopResult is electron_stop's result.
type stopResult struct {
	Stopped        bool   `json:"stopped"`
	Action         string `json:"action" jsonschema:"closed, detached (an attached app left running) or cleaned_up (the app had ended)"`
	AppLeftRunning bool   `json:"app_left_running"`
	Owned          bool   `json:"owned" jsonschema:"the app was launched by this server"`
	Escalated      *bool  `json:"escalated,omitempty" jsonschema:"closed: Browser.close was not enough, a signal ended it"`
	Method         string `json:"method,omitempty" jsonschema:"what ended the app"`
	Note           string `json:"note,omitempty"`
	endedApp
}

func stop(ctx context.Context, c *Call, a *stopArgs) (*stopResult, error) {
	if alive, why := c.Session.Alive(); !alive {
		// The app ended before this call: nothing is sent to it, only
		// what is left of the session goes.
		err := c.Session.CleanUp()
		c.Server.dropSession(c.Session.ID)
		if err != nil {
			return nil, err
		}
		return &stopResult{Stopped: true, Action: "cleaned_up", endedApp: endedApp{WasDead: true, EndedWhy: why}, Owned: c.Session.Owned(),
			Note: "the app had already ended (" + why + "), so no Browser.close was sent; the session's leftovers were cleaned up"}, nil
	}
	if !c.Session.Owned() && !a.CloseApp {
		// The user's app: closing it would lose their work.
		c.Session.Detach()
		c.Server.dropSession(c.Session.ID)
		return &stopResult{Stopped: true, Action: "detached", AppLeftRunning: true, Owned: false,
			Note: "the app was attached, not launched, so it was left running; electron_stop {closeApp:true} closes it"}, nil
	}
	res, err := c.Session.Stop(ctx, ms(a.TimeoutMs, 10*time.Second))
	c.Server.dropSession(c.Session.ID)
	if err != nil {
		return nil, err
	}
	return &stopResult{Stopped: true, Action: "closed", AppLeftRunning: false, Escalated: &res.Escalated, Method: res.Method, Owned: c.Session.Owned()}, nil
}

// killResult is electron_force_kill's result.
type killResult struct {
	Killed bool `json:"killed"`
}

func forceKill(ctx context.Context, c *Call, _ *noArgs) (*killResult, error) {
	if err := c.Session.ForceKill(); err != nil {
		return nil, err
	}
	c.Server.dropSession(c.Session.ID)
	return &killResult{Killed: true}, nil
}

type discoverArgs struct {
	Ports     []int  `json:"ports,omitempty" jsonschema:"ports to probe; default 9222–9229"`
	Host      string `json:"host,omitempty" jsonschema:"loopback host; default 127.0.0.1"`
	TimeoutMs int    `json:"timeoutMs,omitempty" jsonschema:"per-port budget; default 750"`
}

func (a *discoverArgs) validate() error {
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

// discovered is one DevTools endpoint electron_discover_running found.
type discovered struct {
	Port     int    `json:"port"`
	CdpURL   string `json:"cdpUrl"`
	Browser  string `json:"browser"`
	Electron bool   `json:"electron"`
	Targets  int    `json:"targets"`
}

// discoverResult is electron_discover_running's result.
type discoverResult struct {
	Endpoints []discovered `json:"endpoints"`
	Probed    int          `json:"probed" jsonschema:"how many ports were probed"`
}

func discover(ctx context.Context, c *Call, a *discoverArgs) (*discoverResult, error) {
	host := a.Host
	if host == "" {
		host = "127.0.0.1"
	}
	ports := a.Ports
	if len(ports) == 0 {
		ports = browser.DefaultDiscoverPorts()
	}
	found, err := browser.Discover(ctx, host, ports, ms(a.TimeoutMs, 750*time.Millisecond))
	if err != nil {
		return nil, err
	}
	out := []discovered{}
	foreign, sockets := c.Server.foreignApps(ctx)
	for _, f := range found {
		if foreign[f.Endpoint.Port] || sockets[f.Endpoint.BrowserWSURL] {
			continue // an app another client's session owns
		}
		out = append(out, discovered{Port: f.Endpoint.Port, CdpURL: f.Endpoint.HTTPURL, Browser: f.Version.Browser,
			Electron: strings.Contains(f.Version.UserAgent, "Electron/"), Targets: f.Targets})
	}
	return &discoverResult{Endpoints: out, Probed: len(ports)}, nil
}

// sessionStatus is one session in electron_status.
type sessionStatus struct {
	SessionID       string `json:"session_id"`
	Mode            string `json:"mode"`
	PID             int    `json:"pid,omitempty"`
	Endpoint        string `json:"endpoint"`
	Alive           bool   `json:"alive"`
	EndedWhy        string `json:"ended_why,omitempty"`
	ActiveWindowID  string `json:"active_window_id,omitempty"`
	ActiveSurfaceID string `json:"active_surface_id,omitempty"`
	LastError       string `json:"last_error,omitempty"`
	UptimeMS        int64  `json:"uptime_ms"`
	Note            string `json:"note,omitempty"`
	// State is running, ended, or crashed (the main process ended on its
	// own: Crash says how).
	State string         `json:"state"`
	Crash *session.Crash `json:"crash,omitempty"`
}

// serverStatus describes the server in electron_status.
type serverStatus struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	UptimeMS int64  `json:"uptime_ms"`
	PID      int    `json:"pid"`
}

// statusResult is electron_status's result.
type statusResult struct {
	Server    serverStatus    `json:"server"`
	Sessions  []sessionStatus `json:"sessions"`
	Eval      evalPolicy      `json:"eval" jsonschema:"the eval tools the operator allows"`
	Tools     int             `json:"tools" jsonschema:"how many tools this server offers (tools/list: its --tool-profile, --with groups and --allow-eval)"`
	Transport string          `json:"transport"`
}

func status(ctx context.Context, c *Call, _ *noArgs) (*statusResult, error) {
	s := c.Server
	list := []sessionStatus{}
	for _, x := range s.visible(ctx) {
		alive, why := x.Alive()
		note, state := "", "running"
		if !alive {
			note, state = "the app has ended; electron_launch replaces this session, electron_stop cleans it up", "ended"
		}
		crash := x.Crashed()
		if crash != nil {
			note, state = "the app crashed ("+crash.Describe()+"); electron_launch {relaunch:true} starts it again with the same arguments, electron_stop cleans it up", "crashed"
		}
		list = append(list, sessionStatus{Note: note, State: state, Crash: crash,
			SessionID: x.ID, Mode: string(x.Mode), PID: x.PID, Endpoint: cmp.Or(x.Endpoint.HTTPURL, browser.RedactURL(x.Endpoint.BrowserWSURL)), Alive: alive, EndedWhy: why,
			ActiveWindowID: x.Surfaces.ActiveWindow(), ActiveSurfaceID: x.Surfaces.Active(),
			LastError: x.LastError(), UptimeMS: time.Since(x.Created).Milliseconds(),
		})
	}
	return &statusResult{
		Server:    serverStatus{Name: "understudy", Version: s.cfg.Version, UptimeMS: time.Since(s.started).Milliseconds(), PID: os.Getpid()},
		Sessions:  list,
		Eval:      evalPolicy{Main: s.cfg.AllowEvalMain, Renderer: s.cfg.AllowEvalRenderer},
		Tools:     len(s.enabledNames()),
		Transport: "cdp",
	}, nil
}

// versions are the app's versions in electron_info.
type versions struct {
	Product   string `json:"product"`
	Protocol  string `json:"protocol"`
	V8        string `json:"v8"`
	Chrome    string `json:"chrome"`
	Electron  string `json:"electron"`
	UserAgent string `json:"user_agent"`
	Revision  string `json:"revision"`
}

// endpoints are a session's endpoints in electron_info.
type endpoints struct {
	CdpHTTP      string `json:"cdp_http"`
	CdpBrowserWS string `json:"cdp_browser_ws"`
	Inspector    string `json:"inspector" jsonschema:"the main process's inspector; empty when none is known"`
}

// infoResult is electron_info's result.
type infoResult struct {
	Transport    string       `json:"transport"`
	Runtime      string       `json:"runtime" jsonschema:"electron or chromium"`
	Versions     versions     `json:"versions"`
	Endpoints    endpoints    `json:"endpoints"`
	LaunchMode   string       `json:"launch_mode"`
	Owned        bool         `json:"owned" jsonschema:"the app was launched by this server"`
	Capabilities capabilities `json:"capabilities"`
	VerifiedOn   []string     `json:"verified_on"`
	// ElectronVerifiedOn says what proves each Electron-specific
	// capability; every one is "stand-in, unverified on real Electron"
	// (docs/electron.md).
	ElectronVerifiedOn map[string]string `json:"electron_verified_on"`
}

func info(ctx context.Context, c *Call, _ *noArgs) (*infoResult, error) {
	sess := c.Session
	v, err := sess.BrowserVersion(ctx)
	if err != nil {
		return nil, err
	}
	electron := uaVersion(v.UserAgent, "Electron/")
	chrome := uaVersion(v.UserAgent, "Chrome/")
	runtime := "chromium"
	if electron != "" {
		runtime = "electron"
	}
	return &infoResult{
		Transport: "cdp",
		Runtime:   runtime,
		Versions: versions{Product: v.Product, Protocol: v.Protocol, V8: v.V8, Chrome: chrome,
			Electron: electron, UserAgent: v.UserAgent, Revision: v.Revision},
		Endpoints:    endpoints{CdpHTTP: sess.Endpoint.HTTPURL, CdpBrowserWS: sess.Endpoint.BrowserWSURL, Inspector: sess.InspectorURL},
		LaunchMode:   string(sess.Mode),
		Owned:        sess.Owned(),
		Capabilities: c.Server.capabilities(),
		VerifiedOn:   verifiedOnList(),
		// What each Electron-specific capability was proven on.
		ElectronVerifiedOn: c.Server.electronVerifiedOn(),
	}, nil
}

// electronVerifiedOn says, per Electron-specific capability, what proves
// it. Real Electron cannot be installed where understudy is built.
func (s *Server) electronVerifiedOn() map[string]string {
	const unverified = standInUnverified // shorter in the table below
	m := map[string]string{
		"fuses_block_launch":     "the same stand-in binaries (the fuse meanings are Electron's documentation)" + unverified,
		"main_process_crash":     "Chromium launches and the Node Electron stand-in (dev launch: its main process exits, understudy's inspector lets go)" + unverified,
		"renderer_crash":         "Chromium (Page.crash, Target.targetCrashed)",
		"relaunch":               "Chromium launches and the Node Electron stand-in" + unverified,
		"main_process_inspect":   "the Node Electron stand-in (node --inspect)" + unverified,
		"ipc_capture":            "the Node stand-in's electron module (handlers wrapped in ipcMain._invokeHandlers, ipcMain.emit for send, WebContents.prototype.send) with renderer traffic sent by Chromium pages through the stand-in's ipcRenderer over a CDP binding" + unverified,
		"launch_instrumentation": "the Node stand-in's launcher running understudy's shim main (node, CommonJS and ESM import)" + unverified,
		"surface_kinds":          "the Node stand-in's BrowserWindow / BaseWindow / WebContentsView and webContents.fromDevToolsTargetId, tied to Chromium targets by the stand-in" + unverified,
	}
	// The tools whose Def says what proves them.
	for _, d := range s.tools().defs {
		if d.VerifiedOn != "" {
			m[d.Name] = d.VerifiedOn
		}
	}
	return m
}

// standInUnverified ends the proof of a capability shown only on
// understudy's Electron stand-ins.
const standInUnverified = "; stand-in, unverified on real Electron"

// verifiedOn is what the capability claims rest on: real Electron is not
// available where this is built and tested (see docs/surfaces.md).
func verifiedOnList() []string {
	return []string{"chromium", "electron-shaped-proxy", "node-electron-stand-in"}
}

func uaVersion(ua, marker string) string {
	i := strings.Index(ua, marker)
	if i < 0 {
		return ""
	}
	rest := ua[i+len(marker):]
	if j := strings.IndexAny(rest, " )"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

func (a *launchArgs) validate() error {
	if a.Grid != "" || a.Capabilities != nil {
		return a.validateGrid()
	}
	if a.Relaunch {
		if a.ExecutablePath != "" || a.Main != "" || a.ElectronPath != "" || len(a.Args) > 0 || len(a.Env) > 0 || a.Cwd != "" {
			return errs.BadArg("relaunch", "relaunch reuses the ended session's arguments: pass no executablePath, main, electronPath, args, env or cwd with it")
		}
		return nil
	}
	switch {
	case a.ExecutablePath != "" && a.Main != "":
		return errs.BadArg("main", "pass executablePath or main, not both")
	case a.InstrumentNative && a.Main == "":
		return errs.BadArg("instrumentNative", "needs main: only a dev launch's main script can be wrapped (a packaged app's entry cannot)")
	case a.TimeoutMs < 0 || a.TimeoutMs > 300000:
		return errs.BadArg("timeoutMs", "must be between 0 and 300000")
	case a.ReadyTimeoutMs < 0 || a.ReadyTimeoutMs > 300000:
		return errs.BadArg("readyTimeoutMs", "must be between 0 and 300000")
	}
	return nil
}
