package tool

import (
	"cmp"
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/target"
)

type launchArgs struct {
	Common
	ExecutablePath   string            `json:"executablePath,omitempty" jsonschema:"absolute path of a packaged Electron app or a Chromium-based browser"`
	Main             string            `json:"main,omitempty" jsonschema:"dev launch: the app's main script, run by electronPath"`
	ElectronPath     string            `json:"electronPath,omitempty" jsonschema:"the Electron binary for a dev launch; default $ELECTRON_PATH, else node_modules/.bin/electron under cwd"`
	Args             []string          `json:"args,omitempty" jsonschema:"extra command-line arguments (debugging switches are ours and refused)"`
	Env              map[string]string `json:"env,omitempty" jsonschema:"extra environment (NODE_OPTIONS, ELECTRON_RUN_AS_NODE, LD_*, DYLD_* are refused)"`
	Cwd              string            `json:"cwd,omitempty" jsonschema:"working directory (absolute)"`
	TimeoutMs        int               `json:"timeoutMs,omitempty" jsonschema:"how long to wait for the DevTools endpoint; default 30000"`
	ReadyTimeoutMs   int               `json:"readyTimeoutMs,omitempty" jsonschema:"how long to wait for a ready renderer; default 15000"`
	AllowMultiple    bool              `json:"allowMultiple,omitempty" jsonschema:"open another session while one is open"`
	Headless         *bool             `json:"headless,omitempty" jsonschema:"Chromium only: run headless (default true)"`
	InstrumentNative bool              `json:"instrumentNative,omitempty" jsonschema:"dev launch only: install understudy's fixed notification and tray hooks before the app's main runs (launch-time instrumentation), so native_notifications reach back to app start and native_trays know tooltips and menus set at startup; the app's process.argv[1] is then the shim's path"`
	Relaunch         bool              `json:"relaunch,omitempty" jsonschema:"start again, with the same arguments, the app of a session that crashed or ended (sessionId names it when several did); pass no other launch arguments"`
	Grid             string            `json:"grid,omitempty" jsonschema:"a Selenium Grid 4 URL (http://HOST:4444): create a WebDriver session there and drive it over its se:cdp endpoint; electron_stop deletes it (docs/scale-out.md)"`
	Capabilities     map[string]any    `json:"capabilities,omitempty" jsonschema:"with grid: W3C capabilities (alwaysMatch), e.g. {browserName: chrome, goog:chromeOptions: {binary, args}}; executablePath and args add to goog:chromeOptions"`
}

// launchResult is what launch and attach return.
type launchResult struct {
	SessionID     string        `json:"session_id"`
	Transport     string        `json:"transport"`
	LaunchMode    string        `json:"launch_mode"`
	PID           int           `json:"pid,omitempty"`
	Endpoint      string        `json:"endpoint"`
	InspectorURL  string        `json:"inspector_url,omitempty"`
	Browser       string        `json:"browser,omitempty"`
	Windows       []windowEntry `json:"windows"`
	RendererReady bool          `json:"renderer_ready"`
	ReadyNote     string        `json:"ready_note,omitempty"`
	Capabilities  capabilities  `json:"capabilities"`
	// ReplacedDeadSession names the session whose app had ended and which
	// this launch replaced (its leftovers were cleaned up first).
	ReplacedDeadSession string `json:"replaced_dead_session,omitempty"`
	// ExecutablePath is the binary launched when the call named none: the
	// browser understudy doctor finds.
	ExecutablePath string `json:"executable_path,omitempty" jsonschema:"set when no executablePath was given: the browser doctor found and launched"`
	// RelaunchedFrom names the ended session whose arguments a relaunch
	// reused.
	RelaunchedFrom string `json:"relaunched_from,omitempty"`
	// GridSessionID and GridSessionMs: a grid launch's WebDriver session
	// and how long the grid took to create it.
	GridSessionID string `json:"grid_session_id,omitempty" jsonschema:"grid launch: the WebDriver session id"`
	GridSessionMs int64  `json:"grid_session_ms,omitempty" jsonschema:"grid launch: how long the grid took to create the session"`
	// AutoConnected says which running browser autoConnect found.
	AutoConnected string `json:"auto_connected,omitempty" jsonschema:"attach autoConnect: the user-data directory whose DevToolsActivePort named the browser"`
}

// publish registers a complete session with the manager; exclusive refuses
// when another is open. Before it, no other call can see the session.
func publish(c *Call, sess *session.Session, exclusive bool) error {
	var counts func(*session.Session) bool
	if exclusive {
		// Only the caller's own sessions (all with --share-sessions).
		s := c.Server
		me := s.owners.Of(sess.ID) // set when the session was opened
		counts = func(x *session.Session) bool { return s.owners.Sees(me, x.ID) }
	}
	if err := c.Server.sessions.PublishAmong(sess, counts); err != nil {
		return err
	}
	c.SetSessionID(sess.ID)
	c.Server.log.Info("session opened", "session", sess.ID, "mode", string(sess.Mode), "pid", sess.PID)
	return nil
}

// assemblyEnv is what the server lends internal/assemble for a call's
// new session: its ids, its downloads folder and the call's progress.
func assemblyEnv(c *Call) assemble.Env {
	return assemble.Env{NextID: c.Server.sessions.NextID, Progress: c.Step,
		DownloadsDir: func() (string, error) { return c.Server.files.SubDir("downloads") }}
}

// openSession builds a new session on the endpoint's pool (assemble.Open)
// and records who opened it. It does not publish it: the caller completes
// it, then publishes it (publish), and closes it on any error before that.
func openSession(ctx context.Context, c *Call, mode session.Mode, proc *browser.Process, ep browser.Endpoint, v *browser.Version) (*session.Session, error) {
	return openSessionOn(ctx, c, mode, proc, ep, v, target.Options{HTTPURL: ep.HTTPURL, BrowserWSURL: ep.BrowserWSURL})
}

// openSessionOn is openSession with the pool's options given (flat mode
// for endpoints that offer one browser socket, ADR-025; headers).
func openSessionOn(ctx context.Context, c *Call, mode session.Mode, proc *browser.Process, ep browser.Endpoint, v *browser.Version, popts target.Options) (*session.Session, error) {
	sess, err := assemble.Open(ctx, assemblyEnv(c), assemble.Spec{Mode: mode, Proc: proc, Endpoint: ep, Version: v, Pool: popts})
	if err != nil {
		return nil, err
	}
	c.Server.owners.Set(sess.ID, ownerOf(ctx))
	return sess, nil
}

// readyResult waits for renderer_ready (a page target whose main frame has a
// default context and whose document is not loading) and builds the result.
func readyResult(ctx context.Context, c *Call, sess *session.Session, readyTimeout time.Duration) (*launchResult, error) {
	ready, note, err := assemble.Ready(ctx, assemblyEnv(c), sess, readyTimeout)
	if err != nil {
		return nil, err
	}
	wins, _, err := listWindows(ctx, sess, false)
	if err != nil {
		return nil, err
	}
	res := &launchResult{
		SessionID: sess.ID, Transport: "cdp", LaunchMode: string(sess.Mode), PID: sess.PID,
		Endpoint: cmp.Or(sess.Endpoint.HTTPURL, browser.RedactURL(sess.Endpoint.BrowserWSURL)), InspectorURL: sess.InspectorURL, Browser: sess.Version.Browser,
		Windows: wins, RendererReady: ready, ReadyNote: note, Capabilities: c.Server.capabilities(),
	}
	return res, nil
}

// windowEntry is one window root (session.WindowEntry).
type windowEntry = session.WindowEntry

// listWindows reads the window roots (Session.ListWindows); with probe it
// also asks each window for its visibility and focus, except a window a
// dialog blocks, which names the dialog instead.
func listWindows(ctx context.Context, sess *session.Session, probe bool) ([]windowEntry, string, error) {
	return sess.ListWindows(ctx, probe, func(window string) *session.DialogBrief {
		if d := openDialog(sess, window); d != nil {
			return &session.DialogBrief{Type: d.Type, Message: d.Message}
		}
		return nil
	})
}
