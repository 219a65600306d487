package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/mainproc"
)

// Main-process tools of issue 17 (stand-in, unverified on real Electron;
// docs/electron.md).
func registerElectronDeep(s *Server) {
	defineOpt(s, Def{
		Name: "ipc_invoke", Title: "Invoke a main-process IPC handler", Class: classAction, Session: true,
		Effects:    Effects{Does: kOpen, Eval: gateMainCode},
		Desc:       "Call the app's main-process ipcMain.handle handler of channel with args, as the focused window's renderer would with ipcRenderer.invoke, and return its answer (result, handler_ms). Needs the server started with --allow-eval=main (EVAL_REQUIRED otherwise) and the main-process inspector (a dev launch with main, electron_attach with inspectorPort, or electron_inject). IPC_NO_HANDLER names the channels that have a handler; IPC_INVOKE_FAILED carries what the handler threw. Proven on understudy's Node stand-in only, unverified on real Electron.",
		VerifiedOn: "the Node stand-in's electron module (ipcMain._invokeHandlers as Electron's source keeps it)" + standInUnverified,
	}, ipcInvoke)
	define(s, Def{
		Name: "native_menu", Title: "Read the application menu", Class: classRead, Session: true,
		Effects:    Effects{Does: kRead},
		Desc:       "Read the application menu (Menu.getApplicationMenu) as a tree: each item's label, type, role, accelerator, id, enabled, visible, checked and submenu; menu is null when the app set none. Runs fixed code in the main process (no --allow-eval needed) and needs the main-process inspector. Proven on understudy's Node stand-in only, unverified on real Electron.",
		VerifiedOn: "the Node stand-in's electron module (Menu / MenuItem after Electron's documentation)" + standInUnverified,
	}, nativeMenu)
	defineOpt(s, Def{
		Name: "native_menu_item", Title: "Find an application-menu item", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Find one application-menu item by path (labels or roles from the top, e.g. [\"View\",\"Dark Mode\"]) or id: found, and the item as native_menu shows it. Needs the main-process inspector. Stand-in, unverified on real Electron.",
	}, nativeMenuItem)
	defineOpt(s, Def{
		Name: "native_menu_invoke", Title: "Click an application-menu item", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Click an application-menu item by path (labels or roles) or id, as a user click would: its click handler runs with the focused window, a checkbox toggles. invoked:false with reason not_found, no_menu, disabled, submenu, separator or no_handler when it did not run. Needs the main-process inspector. Stand-in, unverified on real Electron.",
	}, nativeMenuInvoke)
}

func ipcInvoke(ctx context.Context, c *Call, a *mainproc.InvokeArgs) (*mainproc.InvokeResult, error) {
	conn, err := c.Session.MainConn(ctx)
	if err != nil {
		return nil, err
	}
	return a.Invoke(ctx, conn, c.Session.Surfaces)
}

func nativeMenu(ctx context.Context, c *Call, _ *noArgs) (*mainproc.MenuResult, error) {
	conn, err := c.Session.MainConn(ctx)
	if err != nil {
		return nil, err
	}
	return mainproc.Menu(ctx, conn)
}

func nativeMenuItem(ctx context.Context, c *Call, a *mainproc.MenuItemArgs) (*mainproc.MenuItemResult, error) {
	conn, err := c.Session.MainConn(ctx)
	if err != nil {
		return nil, err
	}
	return a.Find(ctx, conn)
}

func nativeMenuInvoke(ctx context.Context, c *Call, a *mainproc.MenuItemArgs) (*mainproc.MenuInvokeResult, error) {
	conn, err := c.Session.MainConn(ctx)
	if err != nil {
		return nil, err
	}
	return a.Click(ctx, conn)
}

// registerElectronInstrument adds the instrumentation tools of issue 17:
// IPC capture and stubs (--allow-eval=main), notifications and trays (no
// --allow-eval: fixed code, data only). Stand-in, unverified on real
// Electron (docs/electron.md).
func registerElectronInstrument(s *Server) {
	const standIn = " Proven on understudy's Node stand-in only (stand-in, unverified on real Electron)."
	defineOpt(s, Def{
		Name: "ipc_capture_start", Title: "Start recording IPC channels", Class: classAction, Session: true,
		Effects: Effects{Does: kAct, Eval: gateMainCode},
		Desc:    "Start recording the IPC of the channels listed (an explicit allowlist): ipcRenderer.invoke calls of their ipcMain.handle handlers (args, answer or exception, handler ms, the sender's webContents and surface), with captureSend the ipcRenderer.send messages (ipcMain.on), with captureSendToRenderer webContents.send pushes. Argument keys in redact (plus password, token, secret, authorization, cookie, apiKey, …) become [redacted]; payloads over maxArgBytes are cut; the buffer keeps maxEvents and counts what it dropped. The app's handlers and methods are restored by ipc_capture_stop, when the session ends, and by the app itself within 5 s if this server dies. Needs --allow-eval=main (EVAL_REQUIRED otherwise) and the main-process inspector." + standIn,
	}, onInstrument((*mainproc.Instrument).StartIPC))
	defineOpt(s, Def{
		Name: "ipc_captured", Title: "Read recorded IPC", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Eval: gateMainCode},
		Desc:    "The IPC recorded by the running capture, oldest first (optionally one channel, or after the seq since): channel, type, direction, args, answer, ok, exception, ms, ts, webcontents_id, surface_id, stubbed; dropped counts what a full buffer refused. IPC_NOT_CAPTURING without a capture." + standIn,
	}, ipcCaptured)
	define(s, Def{
		Name: "ipc_capture_stop", Title: "Stop recording IPC and restore handlers", Class: classAction, Session: true,
		Effects: Effects{Does: kAct, Eval: gateMainCode},
		Desc:    "Stop the IPC capture: every wrapped handler, ipcMain.emit and WebContents.send are restored exactly and every stub goes; returns what was recorded." + standIn,
	}, ipcCaptureStop)
	defineOpt(s, Def{
		Name: "ipc_stub", Title: "Stub an IPC channel's answer", Class: classAction, Session: true,
		Effects:    Effects{Does: kAct, Eval: gateMainCode},
		Desc:       "Make a captured channel's ipcMain.handle handler answer response (JSON) or reject with error, after delayMs, for the next times calls (0: until removed), instead of running the app's handler; remove:true takes the stub away (the app's handler answers again). The channel must be in the running capture (IPC_CHANNEL_NOT_CAPTURED) and have a handler (IPC_NO_HANDLER). Stubs end with the capture, the session, or this server." + standIn,
		VerifiedOn: "the Node stand-in's electron module, answering a Chromium page's ipcRenderer.invoke; the restore after a server kill (lease) is proven on an attached stand-in app" + standInUnverified,
	}, onInstrument((*mainproc.Instrument).StubIPC))
	defineOpt(s, Def{
		Name: "native_notifications_start", Title: "Capture notifications", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Desc:    "Arm capture of the notifications the app shows (Notification.prototype.show, a fixed hook; no --allow-eval), optionally only titles containing titleContains. On an app launched with electron_launch {main, instrumentNative:true} the capture reaches back to app start (from_launch, before_arm on each earlier one). Needs the main-process inspector." + standIn,
	}, onInstrument((*mainproc.Instrument).StartNotifications))
	define(s, Def{
		Name: "native_notifications", Title: "Read captured notifications", Class: classRead, Session: true,
		Effects:    Effects{Does: kRead},
		Desc:       "The notifications shown since capture was armed (and from app start with instrumentNative), oldest first: title, body, subtitle, silent, urgency, at, before_arm. NATIVE_NOT_CAPTURING before native_notifications_start." + standIn,
		VerifiedOn: "the Node stand-in's Notification (Notification.prototype.show, after Electron's documentation)" + standInUnverified,
	}, notificationsRead)
	define(s, Def{
		Name: "native_notifications_stop", Title: "Stop capturing notifications", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Desc:    "Disarm notification capture (Notification.prototype.show restored) and return what was captured." + standIn,
	}, notificationsStop)
	define(s, Def{
		Name: "native_trays", Title: "Read the system trays", Class: classAction, Session: true,
		Effects:    Effects{Does: kRead},
		Desc:       "The app's system-tray icons (found on the main process's heap: Electron keeps no tray registry): id, tooltip, title, has_image, context menu, the events the app listens to. Electron has no getters for a tooltip or a context menu: they are known when set after understudy's hook, so launch with instrumentNative to have them from app start (recorded:true). Needs the main-process inspector." + standIn,
		VerifiedOn: "the Node stand-in's Tray (setter hooks, Runtime.queryObjects on Tray.prototype, after Electron's documentation)" + standInUnverified,
	}, nativeTrays)
	defineOpt(s, Def{
		Name: "native_tray_invoke", Title: "Fire a tray event", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Fire event (click, right-click, double-click, middle-click, mouse-up, mouse-down, mouse-enter, mouse-leave, mouse-move, balloon-click) on the tray with id, running the app's tray.on handler with the (event, bounds, position) a real click carries; emitted:false with reason not_found, no_listener or handler_threw when it did not run; tray is read back after the handler (null when it destroyed the tray). right-click does not open the context menu by itself." + standIn,
	}, onInstrument((*mainproc.Instrument).FireTray))
}

func ipcCaptured(ctx context.Context, c *Call, a *mainproc.IPCCapturedArgs) (*mainproc.IPCCapturedResult, error) {
	in, err := c.Session.Instrument(ctx)
	if err != nil {
		return nil, err
	}
	return in.ReadIPC(ctx, a, c.Session.Surfaces)
}

func ipcCaptureStop(ctx context.Context, c *Call, _ *noArgs) (*mainproc.IPCCapturedResult, error) {
	in, err := c.Session.Instrument(ctx)
	if err != nil {
		return nil, err
	}
	return in.StopIPC(ctx, c.Session.Surfaces)
}

func notificationsRead(ctx context.Context, c *Call, _ *noArgs) (*mainproc.NotificationsResult, error) {
	return notifications(ctx, c, false)
}

func notificationsStop(ctx context.Context, c *Call, _ *noArgs) (*mainproc.NotificationsResult, error) {
	return notifications(ctx, c, true)
}

func notifications(ctx context.Context, c *Call, stop bool) (*mainproc.NotificationsResult, error) {
	in, err := c.Session.Instrument(ctx)
	if err != nil {
		return nil, err
	}
	return in.ReadNotifications(ctx, stop)
}

func nativeTrays(ctx context.Context, c *Call, _ *noArgs) (*mainproc.TraysResult, error) {
	in, err := c.Session.Instrument(ctx)
	if err != nil {
		return nil, err
	}
	return in.ListTrays(ctx)
}

// onInstrument is a handler that runs op on the app's main-process
// instrumentation (installed on first use).
func onInstrument[A, R any](op func(*mainproc.Instrument, context.Context, *A) (R, error)) func(context.Context, *Call, *A) (R, error) {
	return func(ctx context.Context, c *Call, a *A) (R, error) {
		in, err := c.Session.Instrument(ctx)
		if err != nil {
			var none R
			return none, err
		}
		return op(in, ctx, a)
	}
}
