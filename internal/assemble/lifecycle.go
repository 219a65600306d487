package assemble

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/grid"
	"github.com/understudy-dev/understudy/internal/session"
)

// LaunchArgs are the arguments of a launch (electron_launch's, less the
// session id): the app or browser to start and how. Their json and
// jsonschema tags are the tool's input schema; a launched session keeps
// them as JSON for a relaunch (Keep, RelaunchArgs).
type LaunchArgs struct {
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

// Check validates the arguments of a local launch or a relaunch; a grid
// launch (Grid or Capabilities set) has checks of its own, which the caller
// runs instead.
func (a *LaunchArgs) Check() error {
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

// CheckGrid validates the arguments of a launch on a Selenium Grid 4
// (Grid or Capabilities set; ADR-027).
func (a *LaunchArgs) CheckGrid() error {
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
	return grid.CheckTarget(a.Grid, a.Capabilities)
}

// ReadyTimeout is how long to wait for a ready renderer (default 15 s).
func (a *LaunchArgs) ReadyTimeout() time.Duration {
	return session.Millis(a.ReadyTimeoutMs, 15*time.Second)
}

// LaunchConfig is what the operator set for every launch.
type LaunchConfig struct {
	// BrowserPath is the browser to run when a call names no app; empty:
	// the one browser.FindChromium finds.
	BrowserPath string
	// AppRoot (--app-root) and AllowEnv (--allow-env) bound what a launch
	// may run and set (browser.LaunchOptions checks them).
	AppRoot  string
	AllowEnv []string
	// Launchable, when set, holds the launch until it is closed.
	Launchable <-chan struct{}
}

// Spec builds the LaunchSpec of a local launch. When the call named
// neither executablePath nor main, it runs the operator's browser (else
// the Chromium browser.FindChromium finds), sets ExecutablePath to it (so
// a relaunch runs it again) and returns it as found.
func (a *LaunchArgs) Spec(cfg LaunchConfig, steps func(n int)) (sp LaunchSpec, found string, err error) {
	if a.ExecutablePath == "" && a.Main == "" {
		if found = cfg.BrowserPath; found == "" {
			found = browser.FindChromium()
		}
		if found == "" {
			return LaunchSpec{}, "", errs.BadArg("executablePath", "no Chromium found on this machine (understudy doctor says where it looked): pass executablePath (an app or browser binary) or main (a dev launch's main script), or set $UNDERSTUDY_CHROMIUM")
		}
		a.ExecutablePath = found
	}
	return LaunchSpec{
		Options: browser.LaunchOptions{
			ExecutablePath: a.ExecutablePath, Args: a.Args, Env: a.Env, Cwd: a.Cwd,
			AppRoot: cfg.AppRoot, AllowEnv: cfg.AllowEnv, Headless: a.Headless, Timeout: session.Millis(a.TimeoutMs, 30*time.Second),
		},
		Main: a.Main, ElectronPath: a.ElectronPath, InstrumentNative: a.InstrumentNative,
		Launchable: cfg.Launchable, Steps: steps,
	}, found, nil
}

// Keep stores the arguments in the session for a later relaunch, as JSON
// with Relaunch cleared.
func (a LaunchArgs) Keep(sess *session.Session) {
	a.Relaunch = false
	sess.Relaunch, _ = json.Marshal(&a)
}

// RelaunchArgs finds the launch arguments of the ended session a relaunch
// means among the sessions the caller sees: the one named by id, or the
// only ended session this server launched. It returns them with that
// session's id.
func RelaunchArgs(visible []*session.Session, id string) (*LaunchArgs, string, error) {
	var found []*session.Session
	for _, x := range visible {
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
		var prev LaunchArgs
		if err := json.Unmarshal(found[0].Relaunch, &prev); err != nil {
			return nil, "", errs.Wrap(errs.Internal, err, "reading the ended session's launch arguments")
		}
		return &prev, found[0].ID, nil
	}
	return nil, "", errs.BadArg("sessionId", "%d ended sessions could be relaunched; pass sessionId to say which", len(found))
}

// ReplaceDead makes room for a new session. When the caller sees open
// sessions (visible) and every one of them has ended (its browser exited
// or the DevTools connection was lost), it cleans up their leftovers (our
// sockets; for a launched app what remains of its process group), has drop
// forget each, and returns their ids. A live session is ALREADY_RUNNING
// unless allowMultiple.
func ReplaceDead(visible []*session.Session, allowMultiple bool, drop func(id string)) (string, error) {
	if allowMultiple || len(visible) == 0 {
		return "", nil
	}
	for _, x := range visible {
		if alive, _ := x.Alive(); alive {
			return "", errs.New(errs.AlreadyRunning, "a session is already open (%s)", session.IDs(visible))
		}
	}
	ids := make([]string, 0, len(visible))
	for _, x := range visible {
		_ = x.CleanUp() // the app is gone already: nothing is sent to it
		drop(x.ID)
		ids = append(ids, x.ID)
	}
	return strings.Join(ids, ", "), nil
}
