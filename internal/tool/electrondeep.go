package tool

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/mainproc"
	"github.com/understudy-dev/understudy/internal/session"
)

// Main-process tools of issue 17 (stand-in, unverified on real Electron;
// docs/electron.md).
func registerElectronDeep(s *Server) {
	define(s, Def{
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
	define(s, Def{
		Name: "native_menu_item", Title: "Find an application-menu item", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Find one application-menu item by path (labels or roles from the top, e.g. [\"View\",\"Dark Mode\"]) or id: found, and the item as native_menu shows it. Needs the main-process inspector. Stand-in, unverified on real Electron.",
	}, nativeMenuItem)
	define(s, Def{
		Name: "native_menu_invoke", Title: "Click an application-menu item", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Click an application-menu item by path (labels or roles) or id, as a user click would: its click handler runs with the focused window, a checkbox toggles. invoked:false with reason not_found, no_menu, disabled, submenu, separator or no_handler when it did not run. Needs the main-process inspector. Stand-in, unverified on real Electron.",
	}, nativeMenuInvoke)
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
	SurfaceID string            `json:"surfaceId,omitempty" jsonschema:"send as this surface's renderer; default the focused window"`
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
	url, err := inspectorOf(c)
	if err != nil {
		return nil, err
	}
	conn, err := session.Attach(c.Session, mainproc.ConnKey, mainproc.Opener(ctx, url))
	if err != nil {
		return nil, err
	}
	sender := ""
	if a.SurfaceID != "" {
		res, err := c.Session.Surfaces.ResolveID(ctx, a.SurfaceID)
		if err != nil {
			return nil, err
		}
		if res.InputRootID == "" {
			return nil, errs.New(errs.SurfaceNotFound, "surface %s has no window above it", a.SurfaceID).With("field", "surfaceId")
		}
		sender = res.InputRootID
	}
	return mainproc.Invoke(ctx, conn, a.Channel, a.Args, sender, ms(a.TimeoutMs, 10*time.Second))
}

type menuResult struct {
	Menu []mainproc.MenuItem `json:"menu"`
}

func nativeMenu(ctx context.Context, c *Call, _ *noArgs) (*menuResult, error) {
	url, err := inspectorOf(c)
	if err != nil {
		return nil, err
	}
	conn, err := session.Attach(c.Session, mainproc.ConnKey, mainproc.Opener(ctx, url))
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
	conn, err := session.Attach(c.Session, mainproc.ConnKey, mainproc.Opener(ctx, url))
	if err != nil {
		return nil, err
	}
	items, err := mainproc.ApplicationMenu(ctx, conn, 10*time.Second)
	if err != nil {
		return nil, err
	}
	if it := mainproc.FindMenuItem(items, a.Path, a.ID); it != nil {
		return &menuItemResult{Found: true, Item: it}, nil
	}
	return &menuItemResult{Found: false}, nil
}

func nativeMenuInvoke(ctx context.Context, c *Call, a *menuItemArgs) (*mainproc.MenuInvokeResult, error) {
	url, err := inspectorOf(c)
	if err != nil {
		return nil, err
	}
	conn, err := session.Attach(c.Session, mainproc.ConnKey, mainproc.Opener(ctx, url))
	if err != nil {
		return nil, err
	}
	return mainproc.InvokeMenuItem(ctx, conn, a.Path, a.ID, 10*time.Second)
}

// registerElectronInstrument adds the instrumentation tools of issue 17:
// IPC capture and stubs (--allow-eval=main), notifications and trays (no
// --allow-eval: fixed code, data only). Stand-in, unverified on real
// Electron (docs/electron.md).
func registerElectronInstrument(s *Server) {
	const standIn = " Proven on understudy's Node stand-in only (stand-in, unverified on real Electron)."
	define(s, Def{
		Name: "ipc_capture_start", Title: "Start recording IPC channels", Class: classAction, Session: true,
		Effects: Effects{Does: kAct, Eval: gateMainCode},
		Desc:    "Start recording the IPC of the channels listed (an explicit allowlist): ipcRenderer.invoke calls of their ipcMain.handle handlers (args, answer or exception, handler ms, the sender's webContents and surface), with captureSend the ipcRenderer.send messages (ipcMain.on), with captureSendToRenderer webContents.send pushes. Argument keys in redact (plus password, token, secret, authorization, cookie, apiKey, …) become [redacted]; payloads over maxArgBytes are cut; the buffer keeps maxEvents and counts what it dropped. The app's handlers and methods are restored by ipc_capture_stop, when the session ends, and by the app itself within 5 s if this server dies. Needs --allow-eval=main (EVAL_REQUIRED otherwise) and the main-process inspector." + standIn,
	}, ipcCaptureStart)
	define(s, Def{
		Name: "ipc_captured", Title: "Read recorded IPC", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Eval: gateMainCode},
		Desc:    "The IPC recorded by the running capture, oldest first (optionally one channel, or after the seq since): channel, type, direction, args, answer, ok, exception, ms, ts, webcontents_id, surface_id, stubbed; dropped counts what a full buffer refused. IPC_NOT_CAPTURING without a capture." + standIn,
	}, ipcCaptured)
	define(s, Def{
		Name: "ipc_capture_stop", Title: "Stop recording IPC and restore handlers", Class: classAction, Session: true,
		Effects: Effects{Does: kAct, Eval: gateMainCode},
		Desc:    "Stop the IPC capture: every wrapped handler, ipcMain.emit and WebContents.send are restored exactly and every stub goes; returns what was recorded." + standIn,
	}, ipcCaptureStop)
	define(s, Def{
		Name: "ipc_stub", Title: "Stub an IPC channel's answer", Class: classAction, Session: true,
		Effects:    Effects{Does: kAct, Eval: gateMainCode},
		Desc:       "Make a captured channel's ipcMain.handle handler answer response (JSON) or reject with error, after delayMs, for the next times calls (0: until removed), instead of running the app's handler; remove:true takes the stub away (the app's handler answers again). The channel must be in the running capture (IPC_CHANNEL_NOT_CAPTURED) and have a handler (IPC_NO_HANDLER). Stubs end with the capture, the session, or this server." + standIn,
		VerifiedOn: "the Node stand-in's electron module, answering a Chromium page's ipcRenderer.invoke; the restore after a server kill (lease) is proven on an attached stand-in app" + standInUnverified,
	}, ipcStub)
	define(s, Def{
		Name: "native_notifications_start", Title: "Capture notifications", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Desc:    "Arm capture of the notifications the app shows (Notification.prototype.show, a fixed hook; no --allow-eval), optionally only titles containing titleContains. On an app launched with electron_launch {main, instrumentNative:true} the capture reaches back to app start (from_launch, before_arm on each earlier one). Needs the main-process inspector." + standIn,
	}, notificationsStart)
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
	define(s, Def{
		Name: "native_tray_invoke", Title: "Fire a tray event", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Fire event (click, right-click, double-click, middle-click, mouse-up, mouse-down, mouse-enter, mouse-leave, mouse-move, balloon-click) on the tray with id, running the app's tray.on handler with the (event, bounds, position) a real click carries; emitted:false with reason not_found, no_listener or handler_threw when it did not run; tray is read back after the handler (null when it destroyed the tray). right-click does not open the context menu by itself." + standIn,
	}, nativeTrayInvoke)
}

// instrumentOf is the session's main-process instrumentation (its own
// inspector connection and lease; restored when the session closes).
func instrumentOf(ctx context.Context, c *Call) (*mainproc.Instrument, error) {
	url, err := inspectorOf(c)
	if err != nil {
		return nil, err
	}
	return session.Attach(c.Session, mainproc.InstrumentKey, mainproc.NewInstrument(ctx, url))
}

// defaultRedact are the argument keys every capture redacts.
var defaultRedact = []string{"password", "passwd", "passphrase", "secret", "token", "accessToken", "refreshToken", "idToken", "apiKey", "api_key", "authorization", "cookie", "privateKey"}

type ipcCaptureStartArgs struct {
	Common
	Channels              []string `json:"channels" jsonschema:"the channels to record (required: there is no capture-everything)"`
	CaptureSend           bool     `json:"captureSend,omitempty" jsonschema:"also record ipcRenderer.send messages (ipcMain.on)"`
	CaptureSendToRenderer bool     `json:"captureSendToRenderer,omitempty" jsonschema:"also record webContents.send / sendToFrame pushes to renderers"`
	Redact                []string `json:"redact,omitempty" jsonschema:"more argument keys to replace with [redacted] (case-insensitive; password, token, secret, authorization, cookie, apiKey and the like always are)"`
	MaxEvents             int      `json:"maxEvents,omitempty" jsonschema:"how many events the buffer keeps; later ones are dropped and counted; default 1000, at most 10000"`
	MaxArgBytes           int      `json:"maxArgBytes,omitempty" jsonschema:"how many characters of JSON an event's args (or answer) may take; default 4096, at most 65536"`
}

func (a *ipcCaptureStartArgs) validate() error {
	switch {
	case len(a.Channels) == 0:
		return errs.BadArg("channels", "name at least one channel to capture")
	case len(a.Channels) > 200:
		return errs.BadArg("channels", "at most 200 channels")
	case a.MaxEvents < 0 || a.MaxEvents > 10000:
		return errs.BadArg("maxEvents", "must be between 1 and 10000")
	case a.MaxArgBytes < 0 || a.MaxArgBytes > 65536:
		return errs.BadArg("maxArgBytes", "must be between 1 and 65536")
	case len(a.Redact) > 100:
		return errs.BadArg("redact", "at most 100 keys")
	}
	for i, ch := range a.Channels {
		if strings.TrimSpace(ch) == "" || len(ch) > 512 {
			return errs.BadArg("channels["+itoa(i)+"]", "must be a channel name of 1 to 512 characters")
		}
	}
	return nil
}

type ipcCaptureStartResult struct {
	mainproc.CaptureStarted
	RedactKeys  []string `json:"redact_keys" jsonschema:"the argument keys this capture redacts"`
	MaxEvents   int      `json:"max_events"`
	MaxArgBytes int      `json:"max_arg_bytes"`
}

func ipcCaptureStart(ctx context.Context, c *Call, a *ipcCaptureStartArgs) (*ipcCaptureStartResult, error) {
	in, err := instrumentOf(ctx, c)
	if err != nil {
		return nil, err
	}
	redact := append(append([]string{}, defaultRedact...), a.Redact...)
	o := mainproc.CaptureOptions{Channels: a.Channels, CaptureSend: a.CaptureSend, CaptureSendToRenderer: a.CaptureSendToRenderer,
		Redact: redact, MaxEvents: a.MaxEvents, MaxArgBytes: a.MaxArgBytes}
	if o.MaxEvents == 0 {
		o.MaxEvents = 1000
	}
	if o.MaxArgBytes == 0 {
		o.MaxArgBytes = 4096
	}
	st, err := in.CaptureStart(ctx, o)
	if err != nil {
		return nil, err
	}
	if st.Wrapped == nil {
		st.Wrapped = []string{}
	}
	return &ipcCaptureStartResult{CaptureStarted: *st, RedactKeys: redact, MaxEvents: o.MaxEvents, MaxArgBytes: o.MaxArgBytes}, nil
}

type ipcCapturedArgs struct {
	Common
	Channel string `json:"channel,omitempty" jsonschema:"only this channel"`
	Since   int64  `json:"since,omitempty" jsonschema:"only events after this seq (from an earlier read)"`
}

func (a *ipcCapturedArgs) validate() error {
	if a.Since < 0 {
		return errs.BadArg("since", "must not be negative")
	}
	return nil
}

type ipcCapturedResult struct {
	Capturing bool                `json:"capturing"`
	Count     int                 `json:"count"`
	Events    []mainproc.IPCEvent `json:"events"`
	Dropped   int                 `json:"dropped" jsonschema:"events refused because the buffer was full"`
}

func ipcCaptured(ctx context.Context, c *Call, a *ipcCapturedArgs) (*ipcCapturedResult, error) {
	in, err := instrumentOf(ctx, c)
	if err != nil {
		return nil, err
	}
	ev, dropped, err := in.Captured(ctx, a.Channel, a.Since)
	if err != nil {
		return nil, err
	}
	nameSurfaces(ctx, c, in, ev)
	return &ipcCapturedResult{Capturing: true, Count: len(ev), Events: ev, Dropped: dropped}, nil
}

func ipcCaptureStop(ctx context.Context, c *Call, _ *noArgs) (*ipcCapturedResult, error) {
	in, err := instrumentOf(ctx, c)
	if err != nil {
		return nil, err
	}
	ev, dropped, err := in.CaptureStop(ctx)
	if err != nil {
		return nil, err
	}
	nameSurfaces(ctx, c, in, ev)
	return &ipcCapturedResult{Capturing: false, Count: len(ev), Events: ev, Dropped: dropped}, nil
}

// nameSurfaces fills each event's surface_id from its webContents, as the
// main process maps the session's window roots (best effort: an app whose
// electron module cannot tell leaves them empty).
func nameSurfaces(ctx context.Context, c *Call, in *mainproc.Instrument, ev []mainproc.IPCEvent) {
	need := false
	for _, e := range ev {
		need = need || e.WebContentsID != nil
	}
	if !need {
		return
	}
	byWC := rootsByWebContents(ctx, c, func(ctx context.Context, ids []string) (map[string]mainproc.SurfaceKind, error) {
		return in.Kinds(ctx, ids)
	})
	for i := range ev {
		if ev[i].WebContentsID != nil {
			ev[i].SurfaceID = byWC[*ev[i].WebContentsID]
		}
	}
}

// rootsByWebContents maps webContents ids to the session's root surface ids.
func rootsByWebContents(ctx context.Context, c *Call, kinds func(context.Context, []string) (map[string]mainproc.SurfaceKind, error)) map[int]string {
	list, err := c.Session.Surfaces.List(ctx)
	if err != nil {
		return nil
	}
	var ids []string
	surf := map[string]string{}
	for _, d := range list {
		if d.ParentID == "" && d.FrameID != "" {
			ids = append(ids, d.FrameID)
			surf[d.FrameID] = d.ID
		}
	}
	k, err := kinds(ctx, ids)
	if err != nil {
		return nil
	}
	out := map[int]string{}
	for t, sk := range k {
		out[sk.WebContentsID] = surf[t]
	}
	return out
}

type ipcStubArgs struct {
	Common
	Channel  string          `json:"channel" jsonschema:"a channel of the running capture"`
	Response json.RawMessage `json:"response,omitempty" jsonschema:"the answer (any JSON value); null when omitted"`
	Error    string          `json:"error,omitempty" jsonschema:"reject the invoke with this message instead of answering"`
	DelayMs  int             `json:"delayMs,omitempty" jsonschema:"wait this long before answering (at most 60000)"`
	Times    int             `json:"times,omitempty" jsonschema:"answer only the next N calls, then the app's handler again; 0: until removed"`
	Remove   bool            `json:"remove,omitempty" jsonschema:"take the channel's stub away"`
}

func (a *ipcStubArgs) validate() error {
	switch {
	case strings.TrimSpace(a.Channel) == "":
		return errs.BadArg("channel", "is required: a channel of the running capture")
	case a.DelayMs < 0 || a.DelayMs > 60000:
		return errs.BadArg("delayMs", "must be between 0 and 60000")
	case a.Times < 0:
		return errs.BadArg("times", "must not be negative")
	case a.Remove && (len(a.Response) > 0 || a.Error != "" || a.DelayMs != 0 || a.Times != 0):
		return errs.BadArg("remove", "pass remove alone (with channel)")
	case len(a.Response) > 0 && a.Error != "":
		return errs.BadArg("error", "pass response or error, not both")
	case len(a.Response) > 1<<20:
		return errs.BadArg("response", "is larger than 1 MiB")
	}
	if len(a.Response) > 0 && !json.Valid(a.Response) {
		return errs.BadArg("response", "is not JSON")
	}
	return nil
}

type ipcStubResult struct {
	Channel string `json:"channel"`
	Stubbed bool   `json:"stubbed"`
	Removed bool   `json:"removed,omitempty"`
}

func ipcStub(ctx context.Context, c *Call, a *ipcStubArgs) (*ipcStubResult, error) {
	in, err := instrumentOf(ctx, c)
	if err != nil {
		return nil, err
	}
	removed, err := in.SetStub(ctx, mainproc.Stub{Channel: a.Channel, Value: a.Response, Error: a.Error,
		Delay: time.Duration(a.DelayMs) * time.Millisecond, Times: a.Times, Remove: a.Remove})
	if err != nil {
		return nil, err
	}
	return &ipcStubResult{Channel: a.Channel, Stubbed: !a.Remove, Removed: removed}, nil
}

type notificationsStartArgs struct {
	Common
	TitleContains string `json:"titleContains,omitempty" jsonschema:"only notifications whose title contains this"`
}

type notificationsStartResult struct {
	Capturing  bool `json:"capturing"`
	FromLaunch bool `json:"from_launch" jsonschema:"the capture reaches back to app start (launched with instrumentNative)"`
}

func notificationsStart(ctx context.Context, c *Call, a *notificationsStartArgs) (*notificationsStartResult, error) {
	in, err := instrumentOf(ctx, c)
	if err != nil {
		return nil, err
	}
	from, err := in.NotificationsStart(ctx, a.TitleContains)
	if err != nil {
		return nil, err
	}
	return &notificationsStartResult{Capturing: true, FromLaunch: from}, nil
}

type notificationsResult struct {
	Count         int                     `json:"count"`
	Notifications []mainproc.Notification `json:"notifications"`
	Dropped       int                     `json:"dropped" jsonschema:"older notifications the bounded buffer (1000) let go"`
}

func notificationsRead(ctx context.Context, c *Call, _ *noArgs) (*notificationsResult, error) {
	return notifications(ctx, c, false)
}

func notificationsStop(ctx context.Context, c *Call, _ *noArgs) (*notificationsResult, error) {
	return notifications(ctx, c, true)
}

func notifications(ctx context.Context, c *Call, stop bool) (*notificationsResult, error) {
	in, err := instrumentOf(ctx, c)
	if err != nil {
		return nil, err
	}
	list, dropped, err := in.Notifications(ctx, stop)
	if err != nil {
		return nil, err
	}
	return &notificationsResult{Count: len(list), Notifications: list, Dropped: dropped}, nil
}

type traysResult struct {
	Count      int             `json:"count"`
	Trays      []mainproc.Tray `json:"trays"`
	FromLaunch bool            `json:"instrumented_from_launch" jsonschema:"tray setters were recorded from app start (launched with instrumentNative)"`
}

func nativeTrays(ctx context.Context, c *Call, _ *noArgs) (*traysResult, error) {
	in, err := instrumentOf(ctx, c)
	if err != nil {
		return nil, err
	}
	trays, from, err := in.Trays(ctx)
	if err != nil {
		return nil, err
	}
	return &traysResult{Count: len(trays), Trays: trays, FromLaunch: from}, nil
}

// trayEvents are the tray events native_tray_invoke fires (Electron's
// Tray events that a pointer or the notification area raises).
var trayEvents = []string{"click", "right-click", "double-click", "middle-click", "mouse-up", "mouse-down", "mouse-enter", "mouse-leave", "mouse-move", "balloon-click"}

type trayInvokeArgs struct {
	Common
	ID    int    `json:"id" jsonschema:"a tray id from native_trays"`
	Event string `json:"event" jsonschema:"click, right-click, double-click, middle-click, mouse-up, mouse-down, mouse-enter, mouse-leave, mouse-move or balloon-click"`
}

func (a *trayInvokeArgs) validate() error {
	if a.ID <= 0 {
		return errs.BadArg("id", "must be a tray id from native_trays")
	}
	if !slices.Contains(trayEvents, a.Event) {
		return errs.BadArg("event", "%q is not one of %s", a.Event, strings.Join(trayEvents, ", "))
	}
	return nil
}

type trayInvokeResult struct {
	mainproc.TrayInvokeResult
	TrayID    int    `json:"tray_id"`
	TrayEvent string `json:"tray_event"`
}

func nativeTrayInvoke(ctx context.Context, c *Call, a *trayInvokeArgs) (*trayInvokeResult, error) {
	in, err := instrumentOf(ctx, c)
	if err != nil {
		return nil, err
	}
	r, err := in.TrayInvoke(ctx, a.ID, a.Event)
	if err != nil {
		return nil, err
	}
	return &trayInvokeResult{TrayInvokeResult: *r, TrayID: a.ID, TrayEvent: a.Event}, nil
}
