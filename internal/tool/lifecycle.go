package tool

import (
	"context"

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
	defineOpt(s, Def{
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
	defineOpt(s, Def{
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

func launch(ctx context.Context, c *Call, a *launchArgs) (*assemble.Launched, error) {
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
	res, err := assemble.ReadyResult(ctx, assemblyEnv(c), sess, a.ReadyTimeout(), s.capabilities())
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

func attach(ctx context.Context, c *Call, a *assemble.AttachArgs) (*assemble.Launched, error) {
	s := c.Server
	replaced, err := assemble.ReplaceDead(s.visible(ctx), a.AllowMultiple, s.dropSession)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, a.Timeout())
	defer cancel()
	at, err := assemble.Attach(ctx, assemblyEnv(c), a, assemble.AttachConfig{
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
	wins, err := func() ([]session.WindowEntry, error) {
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
	res := at.Result(wins, s.capabilities())
	res.ReplacedDeadSession = replaced
	return res, nil
}

func detach(ctx context.Context, c *Call, _ *noArgs) (*session.Detached, error) {
	return c.Server.sessions.Leave(c.Session, func() { c.Server.dropSession(c.Session.ID) }), nil
}

func stop(ctx context.Context, c *Call, a *session.StopArgs) (*session.Stopped, error) {
	return c.Session.End(ctx, a, func() { c.Server.dropSession(c.Session.ID) })
}

func forceKill(ctx context.Context, c *Call, _ *noArgs) (*session.Killed, error) {
	return c.Session.Kill(func() { c.Server.dropSession(c.Session.ID) })
}

func discover(ctx context.Context, c *Call, a *assemble.DiscoverArgs) (*assemble.DiscoverResult, error) {
	return assemble.Discover(ctx, a, func() (map[int]bool, map[string]bool) { return c.Server.foreignApps(ctx) })
}

func status(ctx context.Context, c *Call, _ *noArgs) (*session.StatusReport, error) {
	s := c.Server
	eval := evalPolicy{Main: s.cfg.AllowEvalMain, Renderer: s.cfg.AllowEvalRenderer}
	return session.Report(s.cfg.Version, s.started, s.visible(ctx), eval, len(s.enabledNames())), nil
}

func info(ctx context.Context, c *Call, _ *noArgs) (*session.Info, error) {
	return c.Session.Info(ctx, c.Server.capabilities(), c.Server.toolProofs())
}

// toolProofs says, per tool whose Def says so, what proves it
// (electron_info's electron_verified_on, beside session.ElectronProofs).
func (s *Server) toolProofs() map[string]string {
	m := map[string]string{}
	for _, d := range s.tools().defs {
		if d.VerifiedOn != "" {
			m[d.Name] = d.VerifiedOn
		}
	}
	return m
}

// standInUnverified ends the proof of a capability shown only on
// understudy's Electron stand-ins.
const standInUnverified = session.StandInUnverified
