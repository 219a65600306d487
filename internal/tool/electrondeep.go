package tool

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/mainproc"
	"github.com/understudy-dev/understudy/internal/session"
)

// Main-process tools of issue 17 (stand-in, unverified on real Electron;
// docs/electron.md).
func registerElectronDeep(s *Server) {
	add(s, "ipc_invoke", "Call the app's main-process ipcMain.handle handler of channel with args, as the focused window's renderer would with ipcRenderer.invoke, and return its answer (result, handler_ms). Needs the server started with --allow-eval=main (EVAL_REQUIRED otherwise) and the main-process inspector (a dev launch with main, electron_attach with inspectorPort, or electron_inject). IPC_NO_HANDLER names the channels that have a handler; IPC_INVOKE_FAILED carries what the handler threw. Proven on understudy's Node stand-in only, unverified on real Electron.", true, gateNone, ipcInvoke)
	add(s, "native_menu", "Read the application menu (Menu.getApplicationMenu) as a tree: each item's label, type, role, accelerator, id, enabled, visible, checked and submenu; menu is null when the app set none. Runs fixed code in the main process (no --allow-eval needed) and needs the main-process inspector. Proven on understudy's Node stand-in only, unverified on real Electron.", true, gateNone, nativeMenu)
	add(s, "native_menu_item", "Find one application-menu item by path (labels or roles from the top, e.g. [\"View\",\"Dark Mode\"]) or id: found, and the item as native_menu shows it. Needs the main-process inspector. Stand-in, unverified on real Electron.", true, gateNone, nativeMenuItem)
	add(s, "native_menu_invoke", "Click an application-menu item by path (labels or roles) or id, as a user click would: its click handler runs with the focused window, a checkbox toggles. invoked:false with reason not_found, no_menu, disabled, submenu, separator or no_handler when it did not run. Needs the main-process inspector. Stand-in, unverified on real Electron.", true, gateNone, nativeMenuInvoke)
}

// inspectorOf is the session's main-process inspector URL, or
// TRANSPORT_UNSUPPORTED saying how to get one.
func inspectorOf(c *Call) (string, error) {
	if url := c.Session.InspectorURL; url != "" {
		return url, nil
	}
	return "", errs.New(errs.TransportUnsupported, "session %s has no main-process inspector (launch with main, attach with inspectorPort, or electron_inject)", c.Session.ID)
}

type ipcInvokeArgs struct {
	Common
	Channel   string            `json:"channel" jsonschema:"the ipcMain.handle channel"`
	Args      []json.RawMessage `json:"args,omitempty" jsonschema:"the arguments the renderer would pass (JSON values)"`
	TimeoutMs int               `json:"timeoutMs,omitempty" jsonschema:"how long the handler may take; default 10000"`
}

func (a *ipcInvokeArgs) validate() error {
	switch {
	case strings.TrimSpace(a.Channel) == "":
		return errs.BadArg("channel", "is required: the ipcMain.handle channel")
	case len(a.Channel) > 512:
		return errs.BadArg("channel", "is longer than 512 characters")
	case a.TimeoutMs < 0 || a.TimeoutMs > 120000:
		return errs.BadArg("timeoutMs", "must be between 0 and 120000")
	}
	return nil
}

func ipcInvoke(ctx context.Context, c *Call, a *ipcInvokeArgs) (*mainproc.InvokeResult, error) {
	if !c.Server.cfg.AllowEvalMain {
		return nil, errs.New(errs.EvalRequired, "ipc_invoke runs code in the app's main process: the server was not started with --allow-eval=main")
	}
	url, err := inspectorOf(c)
	if err != nil {
		return nil, err
	}
	conn, err := session.Attach(c.Session, mainproc.Opener(ctx, url))
	if err != nil {
		return nil, err
	}
	return mainproc.Invoke(ctx, conn, a.Channel, a.Args, ms(a.TimeoutMs, 10*time.Second))
}

type menuResult struct {
	Menu []mainproc.MenuItem `json:"menu"`
}

func nativeMenu(ctx context.Context, c *Call, _ *noArgs) (*menuResult, error) {
	url, err := inspectorOf(c)
	if err != nil {
		return nil, err
	}
	conn, err := session.Attach(c.Session, mainproc.Opener(ctx, url))
	if err != nil {
		return nil, err
	}
	items, err := mainproc.ApplicationMenu(ctx, conn, 10*time.Second)
	if err != nil {
		return nil, err
	}
	return &menuResult{Menu: items}, nil
}

type menuItemArgs struct {
	Common
	Path []string `json:"path,omitempty" jsonschema:"labels or roles from the top of the menu, e.g. [\"File\",\"Save\"]"`
	ID   string   `json:"id,omitempty" jsonschema:"the item's id, instead of path"`
}

func (a *menuItemArgs) validate() error {
	switch {
	case len(a.Path) == 0 && a.ID == "":
		return errs.BadArg("path", "pass path (labels or roles from the top) or id")
	case len(a.Path) > 0 && a.ID != "":
		return errs.BadArg("id", "pass path or id, not both")
	case len(a.Path) > 16:
		return errs.BadArg("path", "has more than 16 segments")
	}
	for i, p := range a.Path {
		if p == "" {
			return errs.BadArg("path["+itoa(i)+"]", "is empty")
		}
	}
	return nil
}

type menuItemResult struct {
	Found bool               `json:"found"`
	Item  *mainproc.MenuItem `json:"item,omitempty"`
}

func nativeMenuItem(ctx context.Context, c *Call, a *menuItemArgs) (*menuItemResult, error) {
	url, err := inspectorOf(c)
	if err != nil {
		return nil, err
	}
	conn, err := session.Attach(c.Session, mainproc.Opener(ctx, url))
	if err != nil {
		return nil, err
	}
	items, err := mainproc.ApplicationMenu(ctx, conn, 10*time.Second)
	if err != nil {
		return nil, err
	}
	if it := findMenuItem(items, a.Path, a.ID); it != nil {
		return &menuItemResult{Found: true, Item: it}, nil
	}
	return &menuItemResult{Found: false}, nil
}

// findMenuItem follows path (a label or a role, case-insensitive for
// roles, per segment) or finds id.
func findMenuItem(items []mainproc.MenuItem, path []string, id string) *mainproc.MenuItem {
	if id != "" {
		for i := range items {
			if items[i].ID == id {
				return &items[i]
			}
			if f := findMenuItem(items[i].Children, nil, id); f != nil {
				return f
			}
		}
		return nil
	}
	level := items
	var cur *mainproc.MenuItem
	for _, seg := range path {
		cur = nil
		for i := range level {
			if level[i].Label == seg || (level[i].Role != "" && strings.EqualFold(level[i].Role, seg)) {
				cur = &level[i]
				break
			}
		}
		if cur == nil {
			return nil
		}
		level = cur.Children
	}
	return cur
}

func nativeMenuInvoke(ctx context.Context, c *Call, a *menuItemArgs) (*mainproc.MenuInvokeResult, error) {
	url, err := inspectorOf(c)
	if err != nil {
		return nil, err
	}
	conn, err := session.Attach(c.Session, mainproc.Opener(ctx, url))
	if err != nil {
		return nil, err
	}
	return mainproc.InvokeMenuItem(ctx, conn, a.Path, a.ID, 10*time.Second)
}
