package mainproc

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/agentjs"
	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// The fixed main-process functions below run through the inspector with
// require('electron'); the agent supplies data (a channel, arguments, a
// path), never code.

// invokeJS calls a channel's ipcMain.handle handler as a renderer's
// ipcRenderer.invoke would: Electron stores a wrapper in _invokeHandlers
// that answers through event._reply / event._throw; a plain handler's
// return value is taken too. The sender is the webContents of the DevTools
// target a.target when given (webContents.fromDevToolsTargetId), else the
// focused window's.
const invokeJS = `async (a) => {
  const { ipcMain, BrowserWindow, webContents } = require('electron');
  const map = ipcMain && ipcMain._invokeHandlers;
  if (!map || typeof map.get !== 'function') return { found: false, unsupported: true, channels: [] };
  const h = map.get(a.channel);
  if (!h) return { found: false, channels: Array.from(map.keys()).map(String).slice(0, 100) };
  let sender = null;
  if (a.target) {
    sender = (webContents && webContents.fromDevToolsTargetId && webContents.fromDevToolsTargetId(a.target)) || null;
    if (!sender) return { found: true, noSender: true };
  } else {
    const w = (BrowserWindow.getFocusedWindow && BrowserWindow.getFocusedWindow()) || BrowserWindow.getAllWindows()[0] || null;
    sender = w ? w.webContents : null;
  }
  const t0 = Date.now();
  try {
    const result = await new Promise((resolve, reject) => {
      const event = { sender, senderFrame: null, frameId: 0, processId: 0, ports: [], _reply: resolve, _throw: reject };
      Promise.resolve(h(event, ...(a.args || []))).then(resolve, reject);
    });
    let json;
    try { json = JSON.stringify(result === undefined ? null : result); } catch (e) { json = JSON.stringify(String(result)); }
    return { found: true, ok: true, result: json, ms: Date.now() - t0, sender: sender ? sender.id : null };
  } catch (e) {
    return { found: true, ok: false, error: String((e && e.message) || e), ms: Date.now() - t0 };
  }
}`

// InvokeResult is a handler's answer.
type InvokeResult struct {
	Channel string `json:"channel"`
	Result  any    `json:"result" jsonschema:"the handler's answer (JSON)"`
	MS      int64  `json:"handler_ms"`
	// SenderID is the webContents id the call came from (the given
	// surface's window, or the focused window's), when there is one.
	SenderID *int `json:"sender_webcontents_id,omitempty"`
}

// Invoke calls the main-process handler of channel with args, as the
// renderer of the DevTools target sender would (the focused window's when
// sender is empty). A channel without a handler is IPC_NO_HANDLER (naming
// the channels that have one); a sender the main process cannot tie to a
// webContents is SURFACE_NOT_FOUND; a handler that throws is
// IPC_INVOKE_FAILED.
func Invoke(ctx context.Context, c *cdp.Conn, channel string, args []json.RawMessage, sender string, timeout time.Duration) (*InvokeResult, error) {
	if args == nil {
		args = []json.RawMessage{}
	}
	arg, err := json.Marshal(map[string]any{"channel": channel, "args": args, "target": sender})
	if err != nil {
		return nil, errs.BadArg("args", "%v", err)
	}
	raw, err := agentjs.Run(ctx, agentjs.Target{Session: c, CommandLineAPI: true}, invokeJS, arg, timeout)
	if err != nil {
		return nil, err
	}
	var out struct {
		Found       bool     `json:"found"`
		Unsupported bool     `json:"unsupported"`
		Channels    []string `json:"channels"`
		OK          bool     `json:"ok"`
		Result      string   `json:"result"`
		Error       string   `json:"error"`
		MS          int64    `json:"ms"`
		Sender      *int     `json:"sender"`
		NoSender    bool     `json:"noSender"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "reading the invoke result")
	}
	switch {
	case out.Unsupported:
		return nil, errs.New(errs.TransportUnsupported, "the main process's electron module has no ipcMain handler map")
	case out.NoSender:
		return nil, errs.New(errs.SurfaceNotFound, "the main process has no webContents for that surface's window (webContents.fromDevToolsTargetId)").With("field", "surfaceId")
	case !out.Found:
		return nil, errs.New(errs.IPCNoHandler, "no ipcMain.handle handler for channel %q", channel).With("channel", channel).With("channels", out.Channels)
	case !out.OK:
		return nil, errs.New(errs.IPCInvokeFailed, "the handler of %q threw: %s", channel, out.Error).With("channel", channel).With("exception", out.Error)
	}
	var result any
	if err := json.Unmarshal([]byte(out.Result), &result); err != nil {
		result = out.Result
	}
	return &InvokeResult{Channel: channel, Result: result, MS: out.MS, SenderID: out.Sender}, nil
}

// MenuItem is one item of a native menu. Children holds the submenu for
// Go callers; Submenu is the same items for JSON (typed any: the result
// schema of a tool cannot describe a recursive type).
type MenuItem struct {
	Label       string     `json:"label"`
	Type        string     `json:"type"`
	Role        string     `json:"role,omitempty"`
	Accelerator string     `json:"accelerator,omitempty"`
	ID          string     `json:"id,omitempty"`
	Enabled     bool       `json:"enabled"`
	Visible     bool       `json:"visible"`
	Checked     bool       `json:"checked"`
	Submenu     any        `json:"submenu,omitempty" jsonschema:"the submenu: a JSON array of items shaped like this item"`
	Children    []MenuItem `json:"-"`
}

// menuNode is MenuItem as the main process sends it.
type menuNode struct {
	Label       string     `json:"label"`
	Type        string     `json:"type"`
	Role        string     `json:"role"`
	Accelerator string     `json:"accelerator"`
	ID          string     `json:"id"`
	Enabled     bool       `json:"enabled"`
	Visible     bool       `json:"visible"`
	Checked     bool       `json:"checked"`
	Submenu     []menuNode `json:"submenu"`
}

func toItems(nodes []menuNode) []MenuItem {
	if nodes == nil {
		return nil
	}
	out := make([]MenuItem, len(nodes))
	for i, n := range nodes {
		out[i] = MenuItem{Label: n.Label, Type: n.Type, Role: n.Role, Accelerator: n.Accelerator, ID: n.ID,
			Enabled: n.Enabled, Visible: n.Visible, Checked: n.Checked, Children: toItems(n.Submenu)}
		if out[i].Children != nil {
			out[i].Submenu = out[i].Children
		}
	}
	return out
}

// menuJS serialises the application menu's data fields (never handlers).
const menuJS = `() => {
  const { Menu } = require('electron');
  const m = Menu.getApplicationMenu();
  if (!m) return null;
  const ser = (menu, depth) => (menu.items || []).map((it) => {
    const o = { label: String(it.label || ''), type: String(it.type || 'normal'), enabled: it.enabled !== false, visible: it.visible !== false, checked: !!it.checked };
    if (it.role) o.role = String(it.role);
    if (it.accelerator) o.accelerator = String(it.accelerator);
    if (it.id) o.id = String(it.id);
    if (it.submenu && depth < 16) o.submenu = ser(it.submenu, depth + 1);
    return o;
  });
  return ser(m, 0);
}`

// ApplicationMenu returns the application menu as a tree; nil when the
// app set none.
func ApplicationMenu(ctx context.Context, c *cdp.Conn, timeout time.Duration) ([]MenuItem, error) {
	raw, err := agentjs.Run(ctx, agentjs.Target{Session: c, CommandLineAPI: true}, menuJS, nil, timeout)
	if err != nil {
		return nil, err
	}
	var nodes []menuNode
	if err := json.Unmarshal(raw, &nodes); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "reading the menu")
	}
	return toItems(nodes), nil
}

// menuInvokeJS finds an item by a path of labels or roles, or by id, and
// clicks it as a user would (Electron's MenuItem.click(event,
// focusedWindow, focusedWebContents)).
const menuInvokeJS = `(a) => {
  const { Menu, BrowserWindow } = require('electron');
  const m = Menu.getApplicationMenu();
  if (!m) return { invoked: false, reason: 'no_menu' };
  let item = null;
  if (a.id) {
    const walk = (menu) => { for (const it of menu.items || []) { if (it.id === a.id) return it; if (it.submenu) { const f = walk(it.submenu); if (f) return f; } } return null; };
    item = walk(m);
  } else {
    let menu = m;
    for (let i = 0; i < a.path.length; i++) {
      const seg = a.path[i];
      item = (menu && menu.items || []).find((it) => it.label === seg || (it.role && String(it.role).toLowerCase() === seg.toLowerCase())) || null;
      if (!item) break;
      if (i < a.path.length - 1) menu = item.submenu;
    }
  }
  if (!item) return { invoked: false, reason: 'not_found' };
  const who = { label: String(item.label || ''), role: item.role ? String(item.role) : undefined };
  if (item.type === 'separator') return Object.assign(who, { invoked: false, reason: 'separator' });
  if (item.submenu) return Object.assign(who, { invoked: false, reason: 'submenu' });
  if (item.enabled === false) return Object.assign(who, { invoked: false, reason: 'disabled' });
  if (typeof item.click !== 'function') return Object.assign(who, { invoked: false, reason: 'no_handler' });
  const w = (BrowserWindow.getFocusedWindow && BrowserWindow.getFocusedWindow()) || null;
  item.click({ triggeredByAccelerator: false }, w, w ? w.webContents : undefined);
  return Object.assign(who, { invoked: true, checked: !!item.checked });
}`

// MenuInvokeResult says whether the item's click ran, or why not
// (not_found, no_menu, separator, submenu, disabled, no_handler).
type MenuInvokeResult struct {
	Invoked bool   `json:"invoked"`
	Label   string `json:"label,omitempty"`
	Role    string `json:"role,omitempty"`
	Checked bool   `json:"checked"`
	Reason  string `json:"reason,omitempty"`
}

// InvokeMenuItem clicks the application-menu item at path (labels or
// roles) or with id.
func InvokeMenuItem(ctx context.Context, c *cdp.Conn, path []string, id string, timeout time.Duration) (*MenuInvokeResult, error) {
	arg, err := json.Marshal(map[string]any{"path": path, "id": id})
	if err != nil {
		return nil, errs.BadArg("path", "%v", err)
	}
	raw, err := agentjs.Run(ctx, agentjs.Target{Session: c, CommandLineAPI: true}, menuInvokeJS, arg, timeout)
	if err != nil {
		return nil, err
	}
	var out MenuInvokeResult
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, errs.Wrap(errs.Internal, err, fmt.Sprintf("reading the menu invoke result %s", raw))
	}
	return &out, nil
}

// FindMenuItem finds an item of a menu: it follows path (a label or a role, case-insensitive for
// roles, per segment) or finds id.
func FindMenuItem(items []MenuItem, path []string, id string) *MenuItem {
	if id != "" {
		for i := range items {
			if items[i].ID == id {
				return &items[i]
			}
			if f := FindMenuItem(items[i].Children, nil, id); f != nil {
				return f
			}
		}
		return nil
	}
	level := items
	var cur *MenuItem
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
