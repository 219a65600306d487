package tool

import (
	"cmp"
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/session"
)

// launchArgs are electron_launch's arguments (assemble.LaunchArgs).
type launchArgs struct {
	Common
	assemble.LaunchArgs
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
