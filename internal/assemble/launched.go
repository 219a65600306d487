package assemble

import (
	"cmp"
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/dialogs"
	"github.com/understudy-dev/understudy/internal/session"
)

// Launched is what a launch or an attach answers (electron_launch's and
// electron_attach's result).
type Launched struct {
	SessionID     string                `json:"session_id"`
	Transport     string                `json:"transport"`
	LaunchMode    string                `json:"launch_mode"`
	PID           int                   `json:"pid,omitempty"`
	Endpoint      string                `json:"endpoint"`
	InspectorURL  string                `json:"inspector_url,omitempty"`
	Browser       string                `json:"browser,omitempty"`
	Windows       []session.WindowEntry `json:"windows"`
	RendererReady bool                  `json:"renderer_ready"`
	ReadyNote     string                `json:"ready_note,omitempty"`
	Capabilities  session.Capabilities  `json:"capabilities"`
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

// ReadyResult waits up to d for renderer_ready (Ready: a page target whose
// main frame has a default context and whose document is not loading) and
// answers the launched session with its windows and caps.
func ReadyResult(ctx context.Context, env Env, sess *session.Session, d time.Duration, caps session.Capabilities) (*Launched, error) {
	ready, note, err := Ready(ctx, env, sess, d)
	if err != nil {
		return nil, err
	}
	wins, _, err := Windows(ctx, sess, false)
	if err != nil {
		return nil, err
	}
	return &Launched{
		SessionID: sess.ID, Transport: "cdp", LaunchMode: string(sess.Mode), PID: sess.PID,
		Endpoint: cmp.Or(sess.Endpoint.HTTPURL, browser.RedactURL(sess.Endpoint.BrowserWSURL)), InspectorURL: sess.InspectorURL, Browser: sess.Version.Browser,
		Windows: wins, RendererReady: ready, ReadyNote: note, Capabilities: caps,
	}, nil
}

// Result answers the attached session with its windows wins and caps.
func (at *Attached) Result(wins []session.WindowEntry, caps session.Capabilities) *Launched {
	sess := at.Session
	return &Launched{
		SessionID: sess.ID, Transport: "cdp", LaunchMode: string(session.Attached), PID: sess.PID,
		Endpoint: cmp.Or(at.Endpoint.HTTPURL, browser.RedactURL(at.Endpoint.BrowserWSURL)), InspectorURL: sess.InspectorURL, Browser: at.Version.Browser, Windows: wins,
		RendererReady: len(wins) > 0, Capabilities: caps, AutoConnected: at.AutoConnected,
	}
}

// Windows reads the window roots (Session.ListWindows); with probe it also
// asks each window for its visibility and focus, except a window a dialog
// blocks, which names the dialog instead.
func Windows(ctx context.Context, sess *session.Session, probe bool) ([]session.WindowEntry, string, error) {
	return sess.ListWindows(ctx, probe, func(window string) *session.DialogBrief {
		if d := OpenDialog(sess, window); d != nil {
			return &session.DialogBrief{Type: d.Type, Message: d.Message}
		}
		return nil
	})
}

// WindowList lists the window roots with their visibility and focus
// (Windows with probe) and the active window.
func WindowList(ctx context.Context, sess *session.Session) (*session.WindowList, error) {
	wins, active, err := Windows(ctx, sess, true)
	if err != nil {
		return nil, err
	}
	return &session.WindowList{Windows: wins, ActiveWindowID: active, Count: len(wins)}, nil
}

// WindowOf maps a target a dialog opened on to its window root.
func WindowOf(sess *session.Session) func(string) string {
	return func(id string) string {
		if w, ok := sess.Surfaces.WindowOf(id); ok {
			return w
		}
		return id
	}
}

// OpenDialog is the oldest dialog waiting for an answer in window (any
// window when ""), or nil.
func OpenDialog(sess *session.Session, window string) *dialogs.Event {
	return Dialogs(sess).Open(window, WindowOf(sess))
}
