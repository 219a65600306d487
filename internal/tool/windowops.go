package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/session"
)

func registerWindowOps(s *Server) {
	defineOpt(s, Def{
		Name: "electron_window_open", Title: "Open a window", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kReach, Reads: []string{"url"}, Page: pageUnsticks},
		Short:   "Open a new window at url and wait for its load.",
		Desc:    "Open a new window showing url and wait for its load (Chromium: a new page target). On Electron the app decides which windows exist: WINDOW_OPEN_REFUSED. The new window is listed by electron_windows_list at once; select it with electron_switch_window (or select:true).",
	}, windowOpen)
	defineOpt(s, Def{
		Name: "electron_window_close", Title: "Close a window", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kAct, Page: pageUnsticks},
		Short:   "Close a window; the last one of an attached app needs force.",
		Desc:    "Close a window by windowId (an id from electron_windows_list). The last window of an app you attached to is refused (LAST_WINDOW) unless force:true.",
	}, windowClose)
	defineOpt(s, Def{
		Name: "electron_go_back", Title: "Go back", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kOpen, Page: pageUnsticks},
		Short:   "Go back in the active window's history; waits for the load.",
		Desc:    "Go one entry back in the active window's history and wait for the load (or the same-document navigation). HISTORY_EMPTY when there is none.",
	}, goBack)
	defineOpt(s, Def{
		Name: "electron_go_forward", Title: "Go forward", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kOpen, Page: pageUnsticks},
		Short:   "Go forward in the active window's history; waits for the load.",
		Desc:    "Go one entry forward in the active window's history and wait for the load (or the same-document navigation). HISTORY_EMPTY when there is none.",
	}, goForward)
	defineOpt(s, Def{
		Name: "electron_reload", Title: "Reload the window", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kOpen, Page: pageUnsticks},
		Short:   "Reload the active window; waits for the load.",
		Desc:    "Reload the active window (ignoreCache to bypass the cache) and wait for its load event.",
	}, reload)
}

func windowOpen(ctx context.Context, c *Call, a *session.WindowOpenArgs) (*session.WindowOpened, error) {
	if err := c.Server.checkOrigin(a.URL); err != nil {
		return nil, err
	}
	if err := c.Server.files.CheckURL(ctx, "url", a.URL); err != nil {
		return nil, err
	}
	return c.Session.OpenWindowFor(ctx, a)
}

func windowClose(ctx context.Context, c *Call, a *session.WindowCloseArgs) (*session.WindowClosed, error) {
	return c.Session.CloseWindowFor(ctx, a)
}

// unsticker is unstick for the call's session (session.Unstick).
func unsticker(ctx context.Context, c *Call) session.Unstick {
	return func(window string, w nav.Window) bool { return unstick(ctx, c, window, w) }
}

func goBack(ctx context.Context, c *Call, a *session.HistoryArgs) (*session.Traversed, error) {
	return c.Session.GoBack(ctx, a, unsticker(ctx, c))
}

func goForward(ctx context.Context, c *Call, a *session.HistoryArgs) (*session.Traversed, error) {
	return c.Session.GoForward(ctx, a, unsticker(ctx, c))
}

func reload(ctx context.Context, c *Call, a *session.ReloadArgs) (*session.Traversed, error) {
	return c.Session.Reload(ctx, a, unsticker(ctx, c))
}
