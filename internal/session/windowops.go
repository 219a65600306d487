package session

import (
	"context"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/urlpolicy"
)

// The arguments, checks and results of the window tools: listing and
// selecting a window, opening and closing one, navigating it and moving
// in its history. Their json and jsonschema tags are the tools' input and
// output schemas.

// WindowList is the session's window roots (electron_windows_list's
// result).
type WindowList struct {
	Windows        []WindowEntry `json:"windows"`
	ActiveWindowID string        `json:"active_window_id"`
	Count          int           `json:"count"`
}

// SwitchWindowArgs name a window to select: by id, else by a title
// substring, else by index.
type SwitchWindowArgs struct {
	TargetID    string `json:"targetId,omitempty" jsonschema:"a window id from electron_windows_list"`
	WindowTitle string `json:"windowTitle,omitempty" jsonschema:"a substring of the window title (case-insensitive)"`
	Index       *int   `json:"index,omitempty" jsonschema:"the window's index in electron_windows_list"`
}

// Check refuses arguments that name no window.
func (a *SwitchWindowArgs) Check() error {
	if a.TargetID == "" && a.WindowTitle == "" && a.Index == nil {
		return errs.BadArg("targetId", "pass targetId, windowTitle or index")
	}
	if a.Index != nil && *a.Index < 0 {
		return errs.BadArg("index", "must be 0 or more")
	}
	return nil
}

// SwitchedWindow is the window selected (electron_switch_window's result).
type SwitchedWindow struct {
	Window          *WindowEntry `json:"window"`
	ActiveWindowID  string       `json:"active_window_id"`
	ActiveSurfaceID string       `json:"active_surface_id"`
}

// SwitchWindow selects the window the arguments name and its top surface.
func (s *Session) SwitchWindow(ctx context.Context, a *SwitchWindowArgs) (*SwitchedWindow, error) {
	wins, _, err := s.ListWindows(ctx, false, nil)
	if err != nil {
		return nil, err
	}
	pick, err := PickWindow(wins, a.TargetID, a.WindowTitle, a.Index, [3]string{"targetId", "windowTitle", "index"})
	if err != nil {
		return nil, err
	}
	if _, err := s.Surfaces.SelectWindow(pick.ID); err != nil {
		return nil, err
	}
	pick.Active = true
	return &SwitchedWindow{Window: pick, ActiveWindowID: pick.ID, ActiveSurfaceID: s.Surfaces.Active()}, nil
}

// PickWindow chooses a window by id, else by a title substring
// (case-insensitive), else by index; fields name the three arguments for
// errors.
func PickWindow(wins []WindowEntry, id, title string, index *int, fields [3]string) (*WindowEntry, error) {
	switch {
	case id != "":
		for i := range wins {
			if wins[i].ID == id {
				return &wins[i], nil
			}
		}
		return nil, errs.BadArg(fields[0], "no window %q; call electron_windows_list for the ids", id)
	case title != "":
		want := strings.ToLower(title)
		for i := range wins {
			if strings.Contains(strings.ToLower(wins[i].Title), want) {
				return &wins[i], nil
			}
		}
		return nil, errs.BadArg(fields[1], "no window title contains %q; call electron_windows_list", title)
	case index != nil:
		if *index >= len(wins) {
			return nil, errs.BadArg(fields[2], "index %d is out of range: %d windows", *index, len(wins))
		}
		return &wins[*index], nil
	}
	return nil, errs.BadArg(fields[0], "pass %s, %s or %s", fields[0], fields[1], fields[2])
}

// checkNavigable refuses, before anything is sent, a URL a window must
// not open: not an absolute URL ("example.com": BAD_ARGUMENT with the
// https:// guess as hint), javascript: (code runs only through the eval
// tools), and pages that act on the browser (chrome://quit, about:crash,
// ...; the rule the relay applies too).
func checkNavigable(raw string) error {
	if why, hint := urlpolicy.Navigable(raw); why != "" {
		e := errs.BadArg("url", "%s", why)
		e.Hint = hint
		return e
	}
	return nil
}

// Millis is ms milliseconds, or def when ms is 0 or less: a caller's
// timeoutMs with its default.
func Millis(ms int, def time.Duration) time.Duration {
	if ms <= 0 {
		return def
	}
	return time.Duration(ms) * time.Millisecond
}

// NavigateArgs are a navigation of the active window: the URL and what to
// wait for.
type NavigateArgs struct {
	URL       string `json:"url" jsonschema:"the URL to open in the active window"`
	WaitUntil string `json:"waitUntil,omitempty" jsonschema:"load (default), domcontentloaded or none"`
	TimeoutMs int    `json:"timeoutMs,omitempty" jsonschema:"default 30000"`
}

// Check refuses a missing or unnavigable URL, an unknown waitUntil and a
// timeout out of range.
func (a *NavigateArgs) Check() error {
	if err := checkURL(a.URL); err != nil {
		return err
	}
	switch a.WaitUntil {
	case "", "load", "domcontentloaded", "none":
	default:
		return errs.BadArg("waitUntil", "must be load, domcontentloaded or none")
	}
	return checkLoadTimeout(a.TimeoutMs)
}

// checkURL refuses a missing or unnavigable url.
func checkURL(url string) error {
	if strings.TrimSpace(url) == "" {
		return errs.BadArg("url", "is required")
	}
	return checkNavigable(url)
}

// checkLoadTimeout refuses a load timeout out of range.
func checkLoadTimeout(ms int) error {
	if ms < 0 || ms > 120000 {
		return errs.BadArg("timeoutMs", "must be between 0 and 120000")
	}
	return nil
}

// Navigated is where a navigation went (electron_navigate's result).
type Navigated struct {
	WindowID     string `json:"window_id"`
	WaitedFor    string `json:"waited_for" jsonschema:"load, domcontentloaded or none"`
	SameDocument bool   `json:"same_document" jsonschema:"the URL changed within the document (a fragment or history change)"`
	URL          string `json:"url,omitempty"`
	Title        string `json:"title,omitempty"`
	// StoppedScript: see Traversed.
	StoppedScript bool `json:"stopped_script,omitempty" jsonschema:"the page was stuck in a script (PAGE_UNRESPONSIVE); it was ended (Runtime.terminateExecution) before the navigation"`
}

// Unstick ends the script a window's renderer is stuck in, if it is, and
// reports whether it ended one (the tool layer's, which knows the dialogs
// and the hang watch).
type Unstick func(window string, w nav.Window) bool

// Navigate loads a.URL in the window winID (the active one, which the
// caller checked, with the URL's origin and file root) and waits as
// a.WaitUntil says; a page stuck in a script is ended first (unstick).
func (s *Session) Navigate(ctx context.Context, winID string, a *NavigateArgs, unstick Unstick) (*Navigated, error) {
	conn, err := s.Pool.Conn(ctx, winID)
	if err != nil {
		return nil, err
	}
	until := nav.Load
	switch a.WaitUntil {
	case "domcontentloaded":
		until = nav.DOMContentLoaded
	case "none":
		until = nav.NoWait
	}
	win := nav.On(conn)
	stopped := unstick(winID, win) // a page stuck in a script: end it first
	went, err := win.Navigate(ctx, a.URL, until, Millis(a.TimeoutMs, 30*time.Second))
	if err != nil {
		return nil, nav.URLArgError(a.URL, err)
	}
	loc, locErr := win.Location(ctx)
	out := &Navigated{WindowID: winID, WaitedFor: a.WaitUntil, SameDocument: went.SameDocument, StoppedScript: stopped}
	if locErr == nil {
		out.URL, out.Title = loc.URL, loc.Title
	}
	if out.WaitedFor == "" {
		out.WaitedFor = "load"
	}
	return out, nil
}

// IsElectron says whether the session's app is Electron (its user agent
// names it), where windows are the app's to make.
func (s *Session) IsElectron() bool {
	return strings.Contains(s.Version.UserAgent, "Electron/") || strings.Contains(s.Version.Browser, "Electron")
}

// WindowOpenArgs are a window to open.
type WindowOpenArgs struct {
	URL       string `json:"url" jsonschema:"the URL the new window shows"`
	Select    bool   `json:"select,omitempty" jsonschema:"make the new window the active one"`
	TimeoutMs int    `json:"timeoutMs,omitempty" jsonschema:"how long to wait for the window's load; default 30000"`
}

// Check refuses a missing or unnavigable URL and a timeout out of range.
func (a *WindowOpenArgs) Check() error {
	if err := checkURL(a.URL); err != nil {
		return err
	}
	return checkLoadTimeout(a.TimeoutMs)
}

// WindowOpened is the window opened (electron_window_open's result).
type WindowOpened struct {
	WindowID  string `json:"window_id"`
	SurfaceID string `json:"surface_id,omitempty"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Loaded    bool   `json:"loaded" jsonschema:"document.readyState reached complete"`
	Active    bool   `json:"active" jsonschema:"the new window is the active window"`
	Windows   int    `json:"window_count" jsonschema:"how many windows the app has now"`
}

// OpenWindowFor opens the window the arguments ask for (OpenWindow) and
// selects it when asked. An Electron app opens its own windows:
// WINDOW_OPEN_REFUSED. The caller has checked the URL's origin and file
// root.
func (s *Session) OpenWindowFor(ctx context.Context, a *WindowOpenArgs) (*WindowOpened, error) {
	if s.IsElectron() {
		return nil, errs.New(errs.WindowOpenRefused, "an Electron app opens its own windows (BrowserWindow in its main process)")
	}
	w, err := s.OpenWindow(ctx, a.URL, Millis(a.TimeoutMs, 30*time.Second))
	if err != nil {
		return nil, err
	}
	out := &WindowOpened{WindowID: w.ID, URL: w.URL, Title: w.Title, Loaded: true, Windows: w.Windows}
	id := w.ID
	if a.Select {
		if _, err := s.Surfaces.SelectWindow(id); err != nil {
			return nil, err
		}
		out.Active = true
	}
	out.SurfaceID, _ = s.Surfaces.SurfaceOf(id)
	return out, nil
}

// WindowCloseArgs are a window to close.
type WindowCloseArgs struct {
	WindowID string `json:"windowId" jsonschema:"the window to close (an id from electron_windows_list)"`
	Force    bool   `json:"force,omitempty" jsonschema:"close even the last window of an attached app"`
}

// Check refuses a missing window id.
func (a *WindowCloseArgs) Check() error {
	if a.WindowID == "" {
		return errs.BadArg("windowId", "is required")
	}
	return nil
}

// WindowClosed is what closing a window left (electron_window_close's
// result).
type WindowClosed struct {
	Closed         bool   `json:"closed"`
	WindowID       string `json:"window_id"`
	WindowsLeft    int    `json:"windows_left"`
	ActiveWindowID string `json:"active_window_id,omitempty"`
}

// CloseWindowFor closes the window the arguments name (CloseWindow). The
// last window of an app we did not launch is LAST_WINDOW unless Force.
func (s *Session) CloseWindowFor(ctx context.Context, a *WindowCloseArgs) (*WindowClosed, error) {
	wins, _, err := s.ListWindows(ctx, false, nil)
	if err != nil {
		return nil, err
	}
	if _, err := PickWindow(wins, a.WindowID, "", nil, [3]string{"windowId", "windowId", "windowId"}); err != nil {
		return nil, err
	}
	if !s.Owned() && len(wins) == 1 && !a.Force {
		return nil, errs.New(errs.LastWindow, "%s is the last window of the app you attached to", a.WindowID).With("window_id", a.WindowID)
	}
	left, err := s.CloseWindow(ctx, a.WindowID)
	if err != nil {
		return nil, err
	}
	return &WindowClosed{Closed: true, WindowID: a.WindowID, WindowsLeft: left, ActiveWindowID: s.Surfaces.ActiveWindow()}, nil
}

// HistoryArgs bound a move in the active window's history.
type HistoryArgs struct {
	TimeoutMs int `json:"timeoutMs,omitempty" jsonschema:"how long to wait for the load; default 30000"`
}

// Check refuses a timeout out of range.
func (a *HistoryArgs) Check() error {
	if a.TimeoutMs < 0 || a.TimeoutMs > 120000 {
		return errs.BadArg("timeoutMs", "must be between 0 and 120000")
	}
	return nil
}

// ReloadArgs are a reload of the active window.
type ReloadArgs struct {
	HistoryArgs
	IgnoreCache bool `json:"ignoreCache,omitempty" jsonschema:"bypass the cache"`
}

// Traversed is where a move in the history (back, forward, reload) left
// the active window.
type Traversed struct {
	WindowID     string `json:"window_id"`
	URL          string `json:"url"`
	Title        string `json:"title"`
	SameDocument bool   `json:"same_document" jsonschema:"the move stayed in the document (fragment or pushState entry)"`
	Index        int    `json:"index" jsonschema:"the current history entry now (0-based)"`
	Entries      int    `json:"history_entries" jsonschema:"how many history entries the window has"`
	// StoppedScript: the window's renderer was stuck in a script, which
	// was ended first (PAGE_UNRESPONSIVE's way out).
	StoppedScript bool `json:"stopped_script,omitempty" jsonschema:"the page was stuck in a script (PAGE_UNRESPONSIVE); it was ended (Runtime.terminateExecution) before the move"`
}

// GoBack goes one entry back in the active window's history and waits for
// the load; a page stuck in a script is ended first (unstick).
func (s *Session) GoBack(ctx context.Context, a *HistoryArgs, unstick Unstick) (*Traversed, error) {
	return s.traverse(ctx, a.TimeoutMs, unstick, func(w nav.Window, d time.Duration) (*nav.Traversal, error) { return w.Go(ctx, -1, d) })
}

// GoForward goes one entry forward, as GoBack goes back.
func (s *Session) GoForward(ctx context.Context, a *HistoryArgs, unstick Unstick) (*Traversed, error) {
	return s.traverse(ctx, a.TimeoutMs, unstick, func(w nav.Window, d time.Duration) (*nav.Traversal, error) { return w.Go(ctx, 1, d) })
}

// Reload reloads the active window and waits for its load; a page stuck
// in a script is ended first (unstick).
func (s *Session) Reload(ctx context.Context, a *ReloadArgs, unstick Unstick) (*Traversed, error) {
	return s.traverse(ctx, a.TimeoutMs, unstick, func(w nav.Window, d time.Duration) (*nav.Traversal, error) {
		return w.Reload(ctx, a.IgnoreCache, d)
	})
}

func (s *Session) traverse(ctx context.Context, timeoutMs int, unstick Unstick, move func(nav.Window, time.Duration) (*nav.Traversal, error)) (*Traversed, error) {
	id, conn, err := s.activeWindowConn(ctx)
	if err != nil {
		return nil, err
	}
	win := nav.On(conn)
	stopped := unstick(id, win)
	tr, err := move(win, Millis(timeoutMs, 30*time.Second))
	if err != nil {
		return nil, err
	}
	out := &Traversed{WindowID: id, SameDocument: tr.SameDocument, Index: tr.Index, Entries: tr.Entries, StoppedScript: stopped}
	if loc, err := win.Location(ctx); err == nil {
		out.URL, out.Title = loc.URL, loc.Title
	}
	return out, nil
}

// activeWindowConn is the selected window's id and socket; SURFACE_CLOSED
// when no live window is selected.
func (s *Session) activeWindowConn(ctx context.Context) (string, *cdp.Conn, error) {
	id := s.Surfaces.ActiveWindow()
	if id == "" {
		return "", nil, errs.New(errs.SurfaceClosed, "no live window is selected")
	}
	conn, err := s.Pool.Conn(ctx, id)
	return id, conn, err
}
