package tool

import (
	"cmp"
	"context"
	"os"
	"time"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/browser"
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
		prev, from, err := assemble.RelaunchArgs(s.visible(ctx), a.SessionID)
		if err != nil {
			return nil, err
		}
		a, relaunchedFrom = &launchArgs{LaunchArgs: *prev}, from
	}
	replaced, err := assemble.ReplaceDead(s.visible(ctx), a.AllowMultiple, s.dropSession)
	if err != nil {
		return nil, err
	}
	if a.Grid != "" {
		return launchGrid(ctx, c, a, replaced, relaunchedFrom)
	}
	spec, found, err := a.Spec(assemble.LaunchConfig{BrowserPath: s.cfg.BrowserPath, AppRoot: s.cfg.AppRoot, AllowEnv: s.cfg.AllowEnv,
		Launchable: s.cfg.Launchable}, c.Steps)
	if err != nil {
		return nil, err
	}
	sess, err := assemble.Launch(ctx, assemblyEnv(c), spec)
	if err != nil {
		return nil, err
	}
	s.owners.Set(sess.ID, ownerOf(ctx))
	a.Keep(sess)
	res, err := readyResult(ctx, c, sess, a.ReadyTimeout())
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

func (a *launchArgs) validate() error {
	if a.Grid != "" || a.Capabilities != nil {
		return a.CheckGrid()
	}
	return a.LaunchArgs.Check()
}

type attachArgs struct {
	Common
	assemble.AttachArgs
}

func (a *attachArgs) validate() error { return a.AttachArgs.Check() }

func attach(ctx context.Context, c *Call, a *attachArgs) (*launchResult, error) {
	s := c.Server
	replaced, err := assemble.ReplaceDead(s.visible(ctx), a.AllowMultiple, s.dropSession)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, a.Timeout())
	defer cancel()
	at, err := assemble.Attach(ctx, assemblyEnv(c), &a.AttachArgs, assemble.AttachConfig{
		AllowAutoConnect: s.cfg.AllowAutoConnect, AllowRemote: s.cfg.AllowRemote, RemoteHeaders: s.cfg.RemoteHeaders,
		Foreign:    func() (map[int]bool, map[string]bool) { return s.foreignApps(ctx) },
		NotForeign: func(ep browser.Endpoint) error { return s.notForeign(ctx, ep) },
		Steps:      c.Steps,
	})
	if err != nil {
		return nil, err
	}
	sess := at.Session
	s.owners.Set(sess.ID, ownerOf(ctx))
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
		Endpoint: cmp.Or(at.Endpoint.HTTPURL, browser.RedactURL(at.Endpoint.BrowserWSURL)), InspectorURL: sess.InspectorURL, Browser: at.Version.Browser, Windows: wins,
		RendererReady: len(wins) > 0, Capabilities: s.capabilities(), ReplacedDeadSession: replaced,
		AutoConnected: at.AutoConnected,
	}, nil
}

func detach(ctx context.Context, c *Call, _ *noArgs) (*session.Detached, error) {
	return c.Server.sessions.Leave(c.Session, func() { c.Server.dropSession(c.Session.ID) }), nil
}

type stopArgs struct {
	Common
	session.StopArgs
}

func (a *stopArgs) validate() error { return a.StopArgs.Check() }

func stop(ctx context.Context, c *Call, a *stopArgs) (*session.Stopped, error) {
	return c.Session.End(ctx, &a.StopArgs, func() { c.Server.dropSession(c.Session.ID) })
}

func forceKill(ctx context.Context, c *Call, _ *noArgs) (*session.Killed, error) {
	if err := c.Session.ForceKill(); err != nil {
		return nil, err
	}
	c.Server.dropSession(c.Session.ID)
	return &session.Killed{Killed: true}, nil
}

type discoverArgs struct {
	assemble.DiscoverArgs
}

func (a *discoverArgs) validate() error { return a.DiscoverArgs.Check() }

func discover(ctx context.Context, c *Call, a *discoverArgs) (*assemble.DiscoverResult, error) {
	return assemble.Discover(ctx, &a.DiscoverArgs, func() (map[int]bool, map[string]bool) { return c.Server.foreignApps(ctx) })
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
	Server    serverStatus     `json:"server"`
	Sessions  []session.Status `json:"sessions"`
	Eval      evalPolicy       `json:"eval" jsonschema:"the eval tools the operator allows"`
	Tools     int              `json:"tools" jsonschema:"how many tools this server offers (tools/list: its --tool-profile, --with groups and --allow-eval)"`
	Transport string           `json:"transport"`
}

func status(ctx context.Context, c *Call, _ *noArgs) (*statusResult, error) {
	s := c.Server
	list := []session.Status{}
	for _, x := range s.visible(ctx) {
		list = append(list, x.Status())
	}
	return &statusResult{
		Server:    serverStatus{Name: "understudy", Version: s.cfg.Version, UptimeMS: time.Since(s.started).Milliseconds(), PID: os.Getpid()},
		Sessions:  list,
		Eval:      evalPolicy{Main: s.cfg.AllowEvalMain, Renderer: s.cfg.AllowEvalRenderer},
		Tools:     len(s.enabledNames()),
		Transport: "cdp",
	}, nil
}

// infoResult is electron_info's result.
type infoResult struct {
	Transport    string            `json:"transport"`
	Runtime      string            `json:"runtime" jsonschema:"electron or chromium"`
	Versions     session.Versions  `json:"versions"`
	Endpoints    session.Endpoints `json:"endpoints"`
	LaunchMode   string            `json:"launch_mode"`
	Owned        bool              `json:"owned" jsonschema:"the app was launched by this server"`
	Capabilities capabilities      `json:"capabilities"`
	VerifiedOn   []string          `json:"verified_on"`
	// ElectronVerifiedOn says what proves each Electron-specific
	// capability; every one is "stand-in, unverified on real Electron"
	// (docs/electron.md).
	ElectronVerifiedOn map[string]string `json:"electron_verified_on"`
}

func info(ctx context.Context, c *Call, _ *noArgs) (*infoResult, error) {
	sess := c.Session
	rt, err := sess.Runtime(ctx)
	if err != nil {
		return nil, err
	}
	return &infoResult{
		Transport:    "cdp",
		Runtime:      rt.Name,
		Versions:     rt.Versions,
		Endpoints:    rt.Endpoints,
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
