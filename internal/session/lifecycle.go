package session

import (
	"cmp"
	"context"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
)

// Ended says that a session's app had ended before the call that ended the
// session.
type Ended struct {
	WasDead  bool   `json:"was_dead,omitempty" jsonschema:"the app had already ended"`
	EndedWhy string `json:"ended_why,omitempty"`
}

// Detached is what detaching from a session left (electron_detach's
// result).
type Detached struct {
	Detached       bool `json:"detached"`
	AppLeftRunning bool `json:"app_left_running,omitempty"`
	EndsWithServer bool `json:"ends_with_server,omitempty" jsonschema:"the app was launched by this server, which ends it when it exits"`
	Ended
}

// Leave detaches from the session x and leaves its app running; drop
// removes the session from the server's books once our sockets are closed.
// An app the server launched (or a grid session it created) still ends
// when the manager closes: what we launch we end. On a session whose app
// had already ended it says what ended it instead.
func (m *Manager) Leave(x *Session, drop func()) *Detached {
	alive, why := x.Alive()
	x.Detach()
	drop()
	if !alive {
		// Nothing is known to be left running: say what ended it instead.
		return &Detached{Detached: true, Ended: Ended{WasDead: true, EndedWhy: why}}
	}
	out := &Detached{Detached: true, AppLeftRunning: true}
	if x.Proc != nil {
		// What we launched we end: it runs on until the server exits.
		m.KeepUntilClose(x.Proc)
		out.EndsWithServer = true
	} else if end := x.RemoteEnder(); end != nil {
		// A grid session we created: deleted when the server exits.
		m.KeepRemoteUntilClose(end)
		out.EndsWithServer = true
	}
	return out
}

// StopArgs are the arguments of a stop (electron_stop's, less the session
// id).
type StopArgs struct {
	TimeoutMs int  `json:"timeoutMs,omitempty" jsonschema:"grace before each escalation step; default 10000"`
	CloseApp  bool `json:"closeApp,omitempty" jsonschema:"attached or injected app: close it (Browser.close) instead of only disconnecting; a launched app is always closed"`
}

// Check validates the grace.
func (a *StopArgs) Check() error {
	if a.TimeoutMs < 0 || a.TimeoutMs > 120000 {
		return errs.BadArg("timeoutMs", "must be between 0 and 120000")
	}
	return nil
}

// Stopped is how a session ended (electron_stop's result).
type Stopped struct {
	Stopped        bool   `json:"stopped"`
	Action         string `json:"action" jsonschema:"closed, detached (an attached app left running) or cleaned_up (the app had ended)"`
	AppLeftRunning bool   `json:"app_left_running"`
	Owned          bool   `json:"owned" jsonschema:"the app was launched by this server"`
	Escalated      *bool  `json:"escalated,omitempty" jsonschema:"closed: Browser.close was not enough, a signal ended it"`
	Method         string `json:"method,omitempty" jsonschema:"what ended the app"`
	Note           string `json:"note,omitempty"`
	Ended
}

// End ends the session: an app that had ended already only loses what is
// left of the session (nothing is sent to it); an app we did not launch is
// left running unless CloseApp (closing the user's app loses their work);
// otherwise Stop closes it, escalating after each grace. drop removes the
// session from the server's books once that is done, whatever the outcome.
func (s *Session) End(ctx context.Context, a *StopArgs, drop func()) (*Stopped, error) {
	if alive, why := s.Alive(); !alive {
		// The app ended before this call: nothing is sent to it, only
		// what is left of the session goes.
		err := s.CleanUp()
		drop()
		if err != nil {
			return nil, err
		}
		return &Stopped{Stopped: true, Action: "cleaned_up", Ended: Ended{WasDead: true, EndedWhy: why}, Owned: s.Owned(),
			Note: "the app had already ended (" + why + "), so no Browser.close was sent; the session's leftovers were cleaned up"}, nil
	}
	if !s.Owned() && !a.CloseApp {
		// The user's app: closing it would lose their work.
		s.Detach()
		drop()
		return &Stopped{Stopped: true, Action: "detached", AppLeftRunning: true, Owned: false,
			Note: "the app was attached, not launched, so it was left running; electron_stop {closeApp:true} closes it"}, nil
	}
	res, err := s.Stop(ctx, Millis(a.TimeoutMs, 10*time.Second))
	drop()
	if err != nil {
		return nil, err
	}
	return &Stopped{Stopped: true, Action: "closed", AppLeftRunning: false, Escalated: &res.Escalated, Method: res.Method, Owned: s.Owned()}, nil
}

// Killed is electron_force_kill's result.
type Killed struct {
	Killed bool `json:"killed"`
}

// Kill kills the app's processes now (ForceKill) and drops the session
// with drop.
func (s *Session) Kill(drop func()) (*Killed, error) {
	if err := s.ForceKill(); err != nil {
		return nil, err
	}
	drop()
	return &Killed{Killed: true}, nil
}

// Status is one session as electron_status shows it.
type Status struct {
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
	State string `json:"state"`
	Crash *Crash `json:"crash,omitempty"`
}

// Status says how the session is: alive, ended or crashed (with a note on
// what to do then), its endpoint, selection, last error and age.
func (s *Session) Status() Status {
	alive, why := s.Alive()
	note, state := "", "running"
	if !alive {
		note, state = "the app has ended; electron_launch replaces this session, electron_stop cleans it up", "ended"
	}
	crash := s.Crashed()
	if crash != nil {
		note, state = "the app crashed ("+crash.Describe()+"); electron_launch {relaunch:true} starts it again with the same arguments, electron_stop cleans it up", "crashed"
	}
	return Status{Note: note, State: state, Crash: crash,
		SessionID: s.ID, Mode: string(s.Mode), PID: s.PID, Endpoint: cmp.Or(s.Endpoint.HTTPURL, browser.RedactURL(s.Endpoint.BrowserWSURL)), Alive: alive, EndedWhy: why,
		ActiveWindowID: s.Surfaces.ActiveWindow(), ActiveSurfaceID: s.Surfaces.Active(),
		LastError: s.LastError(), UptimeMS: time.Since(s.Created).Milliseconds(),
	}
}

// Versions are the app's versions as electron_info shows them.
type Versions struct {
	Product   string `json:"product"`
	Protocol  string `json:"protocol"`
	V8        string `json:"v8"`
	Chrome    string `json:"chrome"`
	Electron  string `json:"electron"`
	UserAgent string `json:"user_agent"`
	Revision  string `json:"revision"`
}

// Endpoints are a session's endpoints as electron_info shows them.
type Endpoints struct {
	CdpHTTP      string `json:"cdp_http"`
	CdpBrowserWS string `json:"cdp_browser_ws"`
	Inspector    string `json:"inspector" jsonschema:"the main process's inspector; empty when none is known"`
}

// Runtime is what runs behind a session: electron or chromium (by its
// user agent), its versions and the session's endpoints.
type Runtime struct {
	Name      string
	Versions  Versions
	Endpoints Endpoints
}

// Runtime asks the browser for its versions and tells Electron from
// Chromium by the user agent.
func (s *Session) Runtime(ctx context.Context) (*Runtime, error) {
	v, err := s.BrowserVersion(ctx)
	if err != nil {
		return nil, err
	}
	electron := uaVersion(v.UserAgent, "Electron/")
	chrome := uaVersion(v.UserAgent, "Chrome/")
	name := "chromium"
	if electron != "" {
		name = "electron"
	}
	return &Runtime{
		Name: name,
		Versions: Versions{Product: v.Product, Protocol: v.Protocol, V8: v.V8, Chrome: chrome,
			Electron: electron, UserAgent: v.UserAgent, Revision: v.Revision},
		Endpoints: Endpoints{CdpHTTP: s.Endpoint.HTTPURL, CdpBrowserWS: s.Endpoint.BrowserWSURL, Inspector: s.InspectorURL},
	}, nil
}

// uaVersion is the version after marker in a user agent ("" without it).
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
