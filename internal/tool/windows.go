package tool

import (
	"context"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/nav"
)

func registerWindows(s *Server) {
	define(s, Def{
		Name: "electron_windows_list", Title: "List windows", Profiles: "ETD", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Page: pageFree},
		Short:   "List windows and <webview> guests with ids, focus and visibility. Frames: electron_surfaces_list.",
		Desc:    "List the app's window roots: pages and <webview> guests, with visibility, focus and the surface id of each. Window ids are the raw target ids.",
	}, windowsList)
	define(s, Def{
		Name: "electron_switch_window", Title: "Select a window", Profiles: "ETD", Class: classLifecycle, Session: true,
		Effects: Effects{Does: kSelect, Page: pageFree},
		Short:   "Select a window and its top surface. Frames: electron_switch_surface.",
		Desc:    "Select a window root by targetId, else windowTitle (substring), else index. Selects that window's top surface too.",
	}, switchWindow)
	define(s, Def{
		Name: "electron_navigate", Title: "Navigate a window", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kOpen, Reads: []string{"url"}, Page: pageUnsticks},
		Short:   "Load url in the active window and wait. New window: electron_window_open.",
		Desc:    "Navigate the active window to a URL and wait (waitUntil: load, domcontentloaded or none). A file: URL must name a path under the allowed roots (PATH_NOT_ALLOWED).",
	}, navigate)
}

// windowsResult is electron_windows_list's result.
type windowsResult struct {
	Windows        []windowEntry `json:"windows"`
	ActiveWindowID string        `json:"active_window_id"`
	Count          int           `json:"count"`
}

func windowsList(ctx context.Context, c *Call, _ *noArgs) (*windowsResult, error) {
	wins, active, err := listWindows(ctx, c.Session, true)
	if err != nil {
		return nil, err
	}
	return &windowsResult{Windows: wins, ActiveWindowID: active, Count: len(wins)}, nil
}

type switchWindowArgs struct {
	Common
	TargetID    string `json:"targetId,omitempty" jsonschema:"a window id from electron_windows_list"`
	WindowTitle string `json:"windowTitle,omitempty" jsonschema:"a substring of the window title (case-insensitive)"`
	Index       *int   `json:"index,omitempty" jsonschema:"the window's index in electron_windows_list"`
}

func (a *switchWindowArgs) validate() error {
	if a.TargetID == "" && a.WindowTitle == "" && a.Index == nil {
		return errs.BadArg("targetId", "pass targetId, windowTitle or index")
	}
	if a.Index != nil && *a.Index < 0 {
		return errs.BadArg("index", "must be 0 or more")
	}
	return nil
}

// switchWindowResult is electron_switch_window's result.
type switchWindowResult struct {
	Window          *windowEntry `json:"window"`
	ActiveWindowID  string       `json:"active_window_id"`
	ActiveSurfaceID string       `json:"active_surface_id"`
}

func switchWindow(ctx context.Context, c *Call, a *switchWindowArgs) (*switchWindowResult, error) {
	wins, _, err := listWindows(ctx, c.Session, false)
	if err != nil {
		return nil, err
	}
	pick, err := pickWindow(wins, a.TargetID, a.WindowTitle, a.Index, [3]string{"targetId", "windowTitle", "index"})
	if err != nil {
		return nil, err
	}
	if _, err := c.Session.Surfaces.SelectWindow(pick.ID); err != nil {
		return nil, err
	}
	pick.Active = true
	return &switchWindowResult{Window: pick, ActiveWindowID: pick.ID, ActiveSurfaceID: c.Session.Surfaces.Active()}, nil
}

// pickWindow chooses a window by id, else by a title substring
// (case-insensitive), else by index; fields name the three arguments for
// errors.
func pickWindow(wins []windowEntry, id, title string, index *int, fields [3]string) (*windowEntry, error) {
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

type navigateArgs struct {
	Common
	thenArg
	URL       string `json:"url" jsonschema:"the URL to open in the active window"`
	WaitUntil string `json:"waitUntil,omitempty" jsonschema:"load (default), domcontentloaded or none"`
	TimeoutMs int    `json:"timeoutMs,omitempty" jsonschema:"default 30000"`
}

func (a *navigateArgs) validate() error {
	if strings.TrimSpace(a.URL) == "" {
		return errs.BadArg("url", "is required")
	}
	if err := checkNavigateURL(a.URL); err != nil {
		return err
	}
	switch a.WaitUntil {
	case "", "load", "domcontentloaded", "none":
	default:
		return errs.BadArg("waitUntil", "must be load, domcontentloaded or none")
	}
	if a.TimeoutMs < 0 || a.TimeoutMs > 120000 {
		return errs.BadArg("timeoutMs", "must be between 0 and 120000")
	}
	return nil
}

// navigateResult is electron_navigate's result.
type navigateResult struct {
	WindowID     string `json:"window_id"`
	WaitedFor    string `json:"waited_for" jsonschema:"load, domcontentloaded or none"`
	SameDocument bool   `json:"same_document" jsonschema:"the URL changed within the document (a fragment or history change)"`
	URL          string `json:"url,omitempty"`
	Title        string `json:"title,omitempty"`
	// StoppedScript: see navigationResult.
	StoppedScript bool `json:"stopped_script,omitempty" jsonschema:"the page was stuck in a script (PAGE_UNRESPONSIVE); it was ended (Runtime.terminateExecution) before the navigation"`
}

func navigate(ctx context.Context, c *Call, a *navigateArgs) (*navigateResult, error) {
	if err := c.Server.checkOrigin(a.URL); err != nil {
		return nil, err
	}
	winID := c.Session.Surfaces.ActiveWindow()
	if winID == "" {
		return nil, errs.New(errs.SurfaceClosed, "no live window is selected")
	}
	if err := c.Server.files.CheckURL(ctx, "url", a.URL); err != nil {
		return nil, err // a file: URL outside the allowed roots
	}
	conn, err := c.Session.Pool.Conn(ctx, winID)
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
	stopped := unstick(ctx, c, winID, win) // a page stuck in a script: end it first
	went, err := win.Navigate(ctx, a.URL, until, ms(a.TimeoutMs, 30*time.Second))
	if err != nil {
		return nil, nav.URLArgError(a.URL, err)
	}
	loc, locErr := win.Location(ctx)
	out := &navigateResult{WindowID: winID, WaitedFor: a.WaitUntil, SameDocument: went.SameDocument, StoppedScript: stopped}
	if locErr == nil {
		out.URL, out.Title = loc.URL, loc.Title
	}
	if out.WaitedFor == "" {
		out.WaitedFor = "load"
	}
	return out, nil
}
