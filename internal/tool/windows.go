package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/session"
)

func registerWindows(s *Server) {
	define(s, Def{
		Name: "electron_windows_list", Title: "List windows", Profiles: "ETD", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Page: pageFree},
		Short:   "List windows and <webview> guests with ids, focus and visibility. Frames: electron_surfaces_list.",
		Desc:    "List the app's window roots: pages and <webview> guests, with visibility, focus and the surface id of each. Window ids are the raw target ids.",
	}, windowsList)
	defineOpt(s, Def{
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

func windowsList(ctx context.Context, c *Call, _ *noArgs) (*session.WindowList, error) {
	return assemble.WindowList(ctx, c.Session)
}

func switchWindow(ctx context.Context, c *Call, a *session.SwitchWindowArgs) (*session.SwitchedWindow, error) {
	return c.Session.SwitchWindow(ctx, a)
}

type navigateArgs struct {
	Common
	thenArg
	session.NavigateArgs
}

func navigate(ctx context.Context, c *Call, a *navigateArgs) (*session.Navigated, error) {
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
	return c.Session.Navigate(ctx, winID, &a.NavigateArgs, func(window string, w nav.Window) bool { return unstick(ctx, c, window, w) })
}
