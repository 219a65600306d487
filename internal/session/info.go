package session

import (
	"context"
	"maps"
	"os"
	"time"
)

// Capabilities is the matrix electron_launch, electron_attach and
// electron_info report. internal/tool's capabilities.go sets each flag: a
// flag is true only when a test in this repository proves it against a
// real browser, and the test is named beside it there.
type Capabilities struct {
	Transport                string     `json:"transport"`
	Launch                   bool       `json:"launch"`
	DevLaunch                bool       `json:"devLaunch"`
	Attach                   bool       `json:"attach"`
	Windows                  bool       `json:"windows"`
	Navigate                 bool       `json:"navigate"`
	SupportsSurfaceTargeting bool       `json:"supportsSurfaceTargeting"`
	Snapshot                 bool       `json:"snapshot"`
	Find                     bool       `json:"find"`
	ElementReads             bool       `json:"elementReads"`
	Click                    bool       `json:"click"`
	Keys                     bool       `json:"keys"`
	Interaction              bool       `json:"interaction"`
	ClickAtPoint             bool       `json:"clickAtPoint"`
	DragReorder              bool       `json:"dragReorder"`
	Waits                    bool       `json:"waits"`
	Expectations             bool       `json:"expectations"`
	Inject                   bool       `json:"inject"`
	RendererEval             bool       `json:"rendererEval"`
	MainEval                 bool       `json:"mainEval"`
	Screenshots              bool       `json:"screenshots"`
	Console                  bool       `json:"console"`
	Dialogs                  bool       `json:"dialogs"`
	Network                  bool       `json:"network"`
	Relay                    bool       `json:"relay"`
	EvalAllowed              EvalPolicy `json:"evalAllowed"`
}

// EvalPolicy says which eval tools the operator allows.
type EvalPolicy struct {
	Main     bool `json:"main"`
	Renderer bool `json:"renderer"`
}

// ServerStatus describes the server in electron_status.
type ServerStatus struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	UptimeMS int64  `json:"uptime_ms"`
	PID      int    `json:"pid"`
}

// StatusReport is electron_status's result: the server and the sessions
// its caller sees.
type StatusReport struct {
	Server    ServerStatus `json:"server"`
	Sessions  []Status     `json:"sessions"`
	Eval      EvalPolicy   `json:"eval" jsonschema:"the eval tools the operator allows"`
	Tools     int          `json:"tools" jsonschema:"how many tools this server offers (tools/list: its --tool-profile, --with groups and --allow-eval)"`
	Transport string       `json:"transport"`
}

// Report is the status of a server of version, started at started, that
// offers tools tools with eval allowed, and of the sessions its caller
// sees.
func Report(version string, started time.Time, sessions []*Session, eval EvalPolicy, tools int) *StatusReport {
	list := []Status{}
	for _, x := range sessions {
		list = append(list, x.Status())
	}
	return &StatusReport{
		Server:    ServerStatus{Name: "understudy", Version: version, UptimeMS: time.Since(started).Milliseconds(), PID: os.Getpid()},
		Sessions:  list,
		Eval:      eval,
		Tools:     tools,
		Transport: "cdp",
	}
}

// Info is electron_info's result.
type Info struct {
	Transport    string       `json:"transport"`
	Runtime      string       `json:"runtime" jsonschema:"electron or chromium"`
	Versions     Versions     `json:"versions"`
	Endpoints    Endpoints    `json:"endpoints"`
	LaunchMode   string       `json:"launch_mode"`
	Owned        bool         `json:"owned" jsonschema:"the app was launched by this server"`
	Capabilities Capabilities `json:"capabilities"`
	VerifiedOn   []string     `json:"verified_on"`
	// ElectronVerifiedOn says what proves each Electron-specific
	// capability; every one is "stand-in, unverified on real Electron"
	// (docs/electron.md).
	ElectronVerifiedOn map[string]string `json:"electron_verified_on"`
}

// Info is what runs behind the session (Runtime), how it was opened, caps,
// and what proves each Electron-specific capability: ElectronProofs and,
// per tool that says so, proofs.
func (s *Session) Info(ctx context.Context, caps Capabilities, proofs map[string]string) (*Info, error) {
	rt, err := s.Runtime(ctx)
	if err != nil {
		return nil, err
	}
	verified := ElectronProofs()
	maps.Copy(verified, proofs)
	return &Info{
		Transport:          "cdp",
		Runtime:            rt.Name,
		Versions:           rt.Versions,
		Endpoints:          rt.Endpoints,
		LaunchMode:         string(s.Mode),
		Owned:              s.Owned(),
		Capabilities:       caps,
		VerifiedOn:         VerifiedOn(),
		ElectronVerifiedOn: verified,
	}, nil
}

// StandInUnverified ends the proof of a capability shown only on
// understudy's Electron stand-ins.
const StandInUnverified = "; stand-in, unverified on real Electron"

// ElectronProofs says, per Electron-specific capability of the app, what
// proves it. Real Electron cannot be installed where understudy is built.
func ElectronProofs() map[string]string {
	const unverified = StandInUnverified // shorter in the table below
	return map[string]string{
		"fuses_block_launch":     "the same stand-in binaries (the fuse meanings are Electron's documentation)" + unverified,
		"main_process_crash":     "Chromium launches and the Node Electron stand-in (dev launch: its main process exits, understudy's inspector lets go)" + unverified,
		"renderer_crash":         "Chromium (Page.crash, Target.targetCrashed)",
		"relaunch":               "Chromium launches and the Node Electron stand-in" + unverified,
		"main_process_inspect":   "the Node Electron stand-in (node --inspect)" + unverified,
		"ipc_capture":            "the Node stand-in's electron module (handlers wrapped in ipcMain._invokeHandlers, ipcMain.emit for send, WebContents.prototype.send) with renderer traffic sent by Chromium pages through the stand-in's ipcRenderer over a CDP binding" + unverified,
		"launch_instrumentation": "the Node stand-in's launcher running understudy's shim main (node, CommonJS and ESM import)" + unverified,
		"surface_kinds":          "the Node stand-in's BrowserWindow / BaseWindow / WebContentsView and webContents.fromDevToolsTargetId, tied to Chromium targets by the stand-in" + unverified,
	}
}

// VerifiedOn is what the capability claims rest on: real Electron is not
// available where this is built and tested (see docs/surfaces.md).
func VerifiedOn() []string {
	return []string{"chromium", "electron-shaped-proxy", "node-electron-stand-in"}
}
