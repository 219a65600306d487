package tool

import (
	"context"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/nav"
)

func registerWindowOps(s *Server) {
	define(s, Def{
		Name: "electron_window_open", Title: "Open a window", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kReach, Reads: []string{"url"}, Page: pageUnsticks},
		Short:   "Open a new window at url and wait for its load.",
		Desc:    "Open a new window showing url and wait for its load (Chromium: a new page target). On Electron the app decides which windows exist: WINDOW_OPEN_REFUSED. The new window is listed by electron_windows_list at once; select it with electron_switch_window (or select:true).",
	}, windowOpen)
	define(s, Def{
		Name: "electron_window_close", Title: "Close a window", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kAct, Page: pageUnsticks},
		Short:   "Close a window; the last one of an attached app needs force.",
		Desc:    "Close a window by windowId (an id from electron_windows_list). The last window of an app you attached to is refused (LAST_WINDOW) unless force:true.",
	}, windowClose)
	define(s, Def{
		Name: "electron_go_back", Title: "Go back", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kOpen, Page: pageUnsticks},
		Short:   "Go back in the active window's history; waits for the load.",
		Desc:    "Go one entry back in the active window's history and wait for the load (or the same-document navigation). HISTORY_EMPTY when there is none.",
	}, goBack)
	define(s, Def{
		Name: "electron_go_forward", Title: "Go forward", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kOpen, Page: pageUnsticks},
		Short:   "Go forward in the active window's history; waits for the load.",
		Desc:    "Go one entry forward in the active window's history and wait for the load (or the same-document navigation). HISTORY_EMPTY when there is none.",
	}, goForward)
	define(s, Def{
		Name: "electron_reload", Title: "Reload the window", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kOpen, Page: pageUnsticks},
		Short:   "Reload the active window; waits for the load.",
		Desc:    "Reload the active window (ignoreCache to bypass the cache) and wait for its load event.",
	}, reload)
}

// isElectron says whether the session's app is Electron (its user agent
// names it), where windows are the app's to make.
func isElectron(c *Call) bool {
	return strings.Contains(c.Session.Version.UserAgent, "Electron/") || strings.Contains(c.Session.Version.Browser, "Electron")
}

type windowOpenArgs struct {
	Common
	URL       string `json:"url" jsonschema:"the URL the new window shows"`
	Select    bool   `json:"select,omitempty" jsonschema:"make the new window the active one"`
	TimeoutMs int    `json:"timeoutMs,omitempty" jsonschema:"how long to wait for the window's load; default 30000"`
}

func (a *windowOpenArgs) validate() error {
	if strings.TrimSpace(a.URL) == "" {
		return errs.BadArg("url", "is required")
	}
	if err := checkNavigateURL(a.URL); err != nil {
		return err
	}
	if a.TimeoutMs < 0 || a.TimeoutMs > 120000 {
		return errs.BadArg("timeoutMs", "must be between 0 and 120000")
	}
	return nil
}

type windowOpenResult struct {
	WindowID  string `json:"window_id"`
	SurfaceID string `json:"surface_id,omitempty"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Loaded    bool   `json:"loaded" jsonschema:"document.readyState reached complete"`
	Active    bool   `json:"active" jsonschema:"the new window is the active window"`
	Windows   int    `json:"window_count" jsonschema:"how many windows the app has now"`
}

func windowOpen(ctx context.Context, c *Call, a *windowOpenArgs) (*windowOpenResult, error) {
	if err := c.Server.checkOrigin(a.URL); err != nil {
		return nil, err
	}
	if err := c.Server.files.CheckURL(ctx, "url", a.URL); err != nil {
		return nil, err
	}
	if isElectron(c) {
		return nil, errs.New(errs.WindowOpenRefused, "an Electron app opens its own windows (BrowserWindow in its main process)")
	}
	w, err := c.Session.OpenWindow(ctx, a.URL, ms(a.TimeoutMs, 30*time.Second))
	if err != nil {
		return nil, err
	}
	out := &windowOpenResult{WindowID: w.ID, URL: w.URL, Title: w.Title, Loaded: true, Windows: w.Windows}
	id := w.ID
	if a.Select {
		if _, err := c.Session.Surfaces.SelectWindow(id); err != nil {
			return nil, err
		}
		out.Active = true
	}
	out.SurfaceID, _ = c.Session.Surfaces.SurfaceOf(id)
	return out, nil
}

type windowCloseArgs struct {
	Common
	WindowID string `json:"windowId" jsonschema:"the window to close (an id from electron_windows_list)"`
	Force    bool   `json:"force,omitempty" jsonschema:"close even the last window of an attached app"`
}

func (a *windowCloseArgs) validate() error {
	if a.WindowID == "" {
		return errs.BadArg("windowId", "is required")
	}
	return nil
}

type windowCloseResult struct {
	Closed         bool   `json:"closed"`
	WindowID       string `json:"window_id"`
	WindowsLeft    int    `json:"windows_left"`
	ActiveWindowID string `json:"active_window_id,omitempty"`
}

func windowClose(ctx context.Context, c *Call, a *windowCloseArgs) (*windowCloseResult, error) {
	wins, _, err := listWindows(ctx, c.Session, false)
	if err != nil {
		return nil, err
	}
	if _, err := pickWindow(wins, a.WindowID, "", nil, [3]string{"windowId", "windowId", "windowId"}); err != nil {
		return nil, err
	}
	if !c.Session.Owned() && len(wins) == 1 && !a.Force {
		return nil, errs.New(errs.LastWindow, "%s is the last window of the app you attached to", a.WindowID).With("window_id", a.WindowID)
	}
	left, err := c.Session.CloseWindow(ctx, a.WindowID)
	if err != nil {
		return nil, err
	}
	return &windowCloseResult{Closed: true, WindowID: a.WindowID, WindowsLeft: left, ActiveWindowID: c.Session.Surfaces.ActiveWindow()}, nil
}

type historyArgs struct {
	Common
	TimeoutMs int `json:"timeoutMs,omitempty" jsonschema:"how long to wait for the load; default 30000"`
}

func (a *historyArgs) validate() error {
	if a.TimeoutMs < 0 || a.TimeoutMs > 120000 {
		return errs.BadArg("timeoutMs", "must be between 0 and 120000")
	}
	return nil
}

type reloadArgs struct {
	historyArgs
	IgnoreCache bool `json:"ignoreCache,omitempty" jsonschema:"bypass the cache"`
}

type navigationResult struct {
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

func activeWindow(ctx context.Context, c *Call) (string, nav.Window, error) {
	id := c.Session.Surfaces.ActiveWindow()
	if id == "" {
		return "", nav.Window{}, errs.New(errs.SurfaceClosed, "no live window is selected")
	}
	conn, err := c.Session.Pool.Conn(ctx, id)
	if err != nil {
		return "", nav.Window{}, err
	}
	return id, nav.On(conn), nil
}

func traverse(ctx context.Context, c *Call, timeoutMs int, move func(nav.Window, time.Duration) (*nav.Traversal, error)) (*navigationResult, error) {
	id, win, err := activeWindow(ctx, c)
	if err != nil {
		return nil, err
	}
	stopped := unstick(ctx, c, id, win)
	tr, err := move(win, ms(timeoutMs, 30*time.Second))
	if err != nil {
		return nil, err
	}
	out := &navigationResult{WindowID: id, SameDocument: tr.SameDocument, Index: tr.Index, Entries: tr.Entries, StoppedScript: stopped}
	if loc, err := win.Location(ctx); err == nil {
		out.URL, out.Title = loc.URL, loc.Title
	}
	return out, nil
}

func goBack(ctx context.Context, c *Call, a *historyArgs) (*navigationResult, error) {
	return traverse(ctx, c, a.TimeoutMs, func(w nav.Window, d time.Duration) (*nav.Traversal, error) { return w.Go(ctx, -1, d) })
}

func goForward(ctx context.Context, c *Call, a *historyArgs) (*navigationResult, error) {
	return traverse(ctx, c, a.TimeoutMs, func(w nav.Window, d time.Duration) (*nav.Traversal, error) { return w.Go(ctx, 1, d) })
}

func reload(ctx context.Context, c *Call, a *reloadArgs) (*navigationResult, error) {
	return traverse(ctx, c, a.TimeoutMs, func(w nav.Window, d time.Duration) (*nav.Traversal, error) {
		return w.Reload(ctx, a.IgnoreCache, d)
	})
}
