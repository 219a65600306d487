package mainproc

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/understudy-dev/understudy/internal/agentjs"
	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/svc"
)

// agentJS is the fixed main-process instrumentation (agent.js): IPC capture
// and stubs, notification capture, tray records, surface kinds.
//
//go:embed agent.js
var agentJS string

// Lease timing: the instrumentation an Instrument installs restores itself
// in the app when LeaseDuration passes without a renewal (the server that
// installed it died without restoring); a live Instrument renews every
// RenewEvery.
const (
	LeaseDuration = 5 * time.Second
	RenewEvery    = time.Second
)

// Instrument is one session's instrumentation of an Electron main process
// (IPC capture and stubs, notification capture, tray records). It owns its
// own inspector connection and a lease in the app that it renews while it
// lives; [Instrument.Close] restores everything installed (the session's
// end), and if this process dies without closing, the app restores itself
// when the lease runs out.
type Instrument struct {
	conn      *cdp.Conn
	closeConn func() error
	owner     string
	cancel    context.CancelFunc
	done      chan struct{}
	timeout   time.Duration
}

// InstrumentKey names the instrumentation connection a session holds.
var InstrumentKey = svc.New[*Instrument]("main-process instrumentation")

// NewInstrument opens an inspector connection for instrumentation (as
// [Opener] does) and starts renewing its lease on life. The closer it
// returns restores the app and closes the connection, in the shape
// session.Attach takes.
func NewInstrument(ctx context.Context, inspector string) func(life context.Context) (*Instrument, func() error, error) {
	return func(life context.Context) (*Instrument, func() error, error) {
		conn, closeConn, err := Opener(ctx, inspector)(life)
		if err != nil {
			return nil, nil, err
		}
		var b [12]byte
		_, _ = rand.Read(b[:])
		rctx, cancel := context.WithCancel(life)
		in := &Instrument{conn: conn, closeConn: closeConn, owner: hex.EncodeToString(b[:]), cancel: cancel,
			done: make(chan struct{}), timeout: 10 * time.Second}
		go in.renew(rctx)
		return in, in.Close, nil
	}
}

func (in *Instrument) renew(ctx context.Context) {
	defer close(in.done)
	t := time.NewTicker(RenewEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-in.conn.Done():
			return
		case <-t.C:
			_, _ = in.op(ctx, map[string]any{"op": "renew"})
		}
	}
}

// Close restores what this instrument installed (IPC wrappers and stubs,
// patched prototypes) and closes its connection. An app that is already
// gone is not waited for.
func (in *Instrument) Close() error {
	in.cancel()
	<-in.done
	select {
	case <-in.conn.Done():
	default:
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		_, _ = in.op(ctx, map[string]any{"op": "restore"})
		cancel()
	}
	return in.closeConn()
}

// Owner is the token this instrument's lease carries.
func (in *Instrument) Owner() string { return in.owner }

// op runs the agent with a (owner and lease added) and decodes its
// {error} answer into the caller's codes.
func (in *Instrument) op(ctx context.Context, a map[string]any) (json.RawMessage, error) {
	a["owner"] = in.owner
	a["leaseMs"] = LeaseDuration.Milliseconds()
	arg, err := json.Marshal(a)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "encoding the instrumentation call")
	}
	return agentjs.Run(ctx, agentjs.Target{Session: in.conn, CommandLineAPI: true}, agentJS, arg, in.timeout)
}

type agentError struct {
	Error    string   `json:"error"`
	Channels []string `json:"channels"`
}

// failed maps the agent's {error} to a coded error (nil when there is none).
func failed(raw json.RawMessage, what string) error {
	var e agentError
	_ = json.Unmarshal(raw, &e)
	switch e.Error {
	case "":
		return nil
	case "unsupported":
		return errs.New(errs.TransportUnsupported, "the main process's electron module has no %s", what)
	case "busy":
		return errs.New(errs.InstrumentationBusy, "another understudy server holds live instrumentation in this main process")
	case "not_capturing":
		if what == "Notification" {
			return errs.New(errs.NativeNotCapturing, "notification capture is not armed")
		}
		return errs.New(errs.IPCNotCapturing, "no IPC capture is running")
	case "already":
		if what == "Notification" {
			return errs.New(errs.NativeAlreadyCapturing, "notification capture is already armed")
		}
		return errs.New(errs.IPCAlreadyCapturing, "an IPC capture is already running")
	case "not_captured":
		return errs.New(errs.IPCChannelNotCaptured, "the channel is not one the running capture records").With("channels", e.Channels)
	case "no_handler":
		return errs.New(errs.IPCNoHandler, "the channel has no ipcMain.handle handler to stub").With("channels", e.Channels)
	}
	return errs.New(errs.Internal, "main-process instrumentation: %s", e.Error)
}

// CaptureOptions says what ipc_capture_start records.
type CaptureOptions struct {
	Channels              []string
	CaptureSend           bool // ipcRenderer.send → ipcMain.on (renderer to main, no answer)
	CaptureSendToRenderer bool // webContents.send / sendToFrame (main to renderer)
	Redact                []string
	MaxEvents             int
	MaxArgBytes           int
}

// CaptureStarted is what a capture wraps.
type CaptureStarted struct {
	Capturing      bool     `json:"capturing"`
	Channels       []string `json:"channels"`
	Wrapped        []string `json:"wrapped" jsonschema:"channels whose ipcMain.handle handler existed and is now recorded (later handlers on a captured channel are wrapped when registered)"`
	SendToRenderer bool     `json:"send_to_renderer" jsonschema:"main-to-renderer sends are recorded (needs a webContents at start)"`
}

// CaptureStart wraps the channels' handlers (and, as asked, ipcMain.emit
// and WebContents.send) to record each call.
func (in *Instrument) CaptureStart(ctx context.Context, o CaptureOptions) (*CaptureStarted, error) {
	raw, err := in.op(ctx, map[string]any{"op": "ipcStart", "channels": o.Channels, "captureSend": o.CaptureSend,
		"captureSendToRenderer": o.CaptureSendToRenderer, "redact": o.Redact, "maxEvents": o.MaxEvents, "maxArgBytes": o.MaxArgBytes})
	if err != nil {
		return nil, err
	}
	if err := failed(raw, "ipcMain handler map"); err != nil {
		return nil, err
	}
	var out CaptureStarted
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "reading the capture start")
	}
	return &out, nil
}

// IPCEvent is one captured IPC message.
type IPCEvent struct {
	Seq           int64  `json:"seq"`
	Channel       string `json:"channel"`
	Type          string `json:"type" jsonschema:"invoke (ipcRenderer.invoke → ipcMain.handle), send (ipcRenderer.send → ipcMain.on) or send-to-renderer (webContents.send)"`
	Direction     string `json:"direction" jsonschema:"renderer_to_main or main_to_renderer"`
	Args          any    `json:"args" jsonschema:"the arguments (JSON) with redacted keys replaced by [redacted]; a longer payload than the cap is {truncated, chars, preview}"`
	ArgsTruncated bool   `json:"args_truncated,omitempty"`
	Answer        any    `json:"answer,omitempty" jsonschema:"an invoke's answer (JSON, redacted and capped like args)"`
	OK            bool   `json:"ok"`
	Exception     string `json:"exception,omitempty" jsonschema:"what the handler threw"`
	MS            int64  `json:"ms" jsonschema:"how long the handler took"`
	TS            int64  `json:"ts" jsonschema:"when it was called (epoch ms, the app's clock)"`
	WebContentsID *int   `json:"webcontents_id,omitempty" jsonschema:"the sending renderer's webContents (the receiving one for send-to-renderer)"`
	SurfaceID     string `json:"surface_id,omitempty" jsonschema:"that webContents' surface, when the main process can tell (webContents.fromDevToolsTargetId)"`
	Stubbed       bool   `json:"stubbed,omitempty" jsonschema:"an ipc_stub answered instead of the app's handler"`
}

type rawEvent struct {
	IPCEvent
	Args   string `json:"args"`
	Result string `json:"result"`
	Error  string `json:"error"`
}

func decodeEvents(raw []rawEvent) []IPCEvent {
	out := make([]IPCEvent, 0, len(raw))
	for _, r := range raw {
		e := r.IPCEvent
		e.Args = jsonValue(r.Args)
		if r.Result != "" {
			e.Answer = jsonValue(r.Result)
		}
		e.Exception = r.Error
		out = append(out, e)
	}
	return out
}

func jsonValue(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return s
	}
	return v
}

// Captured returns the events recorded so far (of one channel, after the
// sequence number since), and how many were dropped because the buffer
// was full.
func (in *Instrument) Captured(ctx context.Context, channel string, since int64) ([]IPCEvent, int, error) {
	return in.events(ctx, map[string]any{"op": "ipcRead", "channel": channel, "since": since})
}

// CaptureStop restores the app's handlers and methods and returns what was
// recorded.
func (in *Instrument) CaptureStop(ctx context.Context) ([]IPCEvent, int, error) {
	return in.events(ctx, map[string]any{"op": "ipcStop"})
}

// events runs an agent operation that answers with captured events and
// the count of those dropped.
func (in *Instrument) events(ctx context.Context, op map[string]any) ([]IPCEvent, int, error) {
	raw, err := in.op(ctx, op)
	if err != nil {
		return nil, 0, err
	}
	if err := failed(raw, "ipcMain"); err != nil {
		return nil, 0, err
	}
	var out struct {
		Events  []rawEvent `json:"events"`
		Dropped int        `json:"dropped"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, 0, errs.Wrap(errs.Internal, err, "reading the capture")
	}
	return decodeEvents(out.Events), out.Dropped, nil
}

// Stub is what a stubbed channel answers: Value (JSON) or Error (a message
// the invoke rejects with), after Delay, for the next Times calls (0: every
// call until removed or the capture stops).
type Stub struct {
	Channel string
	Value   json.RawMessage
	Error   string
	Delay   time.Duration
	Times   int
	Remove  bool
}

// SetStub installs or removes a stub on a captured channel. It reports
// whether a stub was removed.
func (in *Instrument) SetStub(ctx context.Context, s Stub) (bool, error) {
	v := string(s.Value)
	if v == "" {
		v = "null"
	}
	raw, err := in.op(ctx, map[string]any{"op": "ipcStub", "channel": s.Channel, "value": v, "error": s.Error,
		"delayMs": s.Delay.Milliseconds(), "times": s.Times, "remove": s.Remove})
	if err != nil {
		return false, err
	}
	if err := failed(raw, "ipcMain"); err != nil {
		if e := errs.As(err); e != nil {
			e.With("channel", s.Channel)
		}
		return false, err
	}
	var out struct {
		Removed bool `json:"removed"`
	}
	_ = json.Unmarshal(raw, &out)
	return out.Removed, nil
}

// Notification is one notification the app showed.
type Notification struct {
	Title     string `json:"title"`
	Body      string `json:"body"`
	Subtitle  string `json:"subtitle,omitempty"`
	Silent    *bool  `json:"silent,omitempty"`
	Urgency   string `json:"urgency,omitempty"`
	At        int64  `json:"at" jsonschema:"when show() was called (epoch ms, the app's clock)"`
	BeforeArm bool   `json:"before_arm" jsonschema:"shown before native_notifications_start (at app start, launch-time instrumentation)"`
}

// NotificationsStart arms notification capture (adopting the launch-time
// hook and its records when the app was launched with instrumentNative).
// It reports whether the capture reaches back to app start.
func (in *Instrument) NotificationsStart(ctx context.Context, titleContains string) (bool, error) {
	raw, err := in.op(ctx, map[string]any{"op": "notifStart", "titleContains": titleContains})
	if err != nil {
		return false, err
	}
	if err := failed(raw, "Notification"); err != nil {
		return false, err
	}
	var out struct {
		FromLaunch bool `json:"from_launch"`
	}
	_ = json.Unmarshal(raw, &out)
	return out.FromLaunch, nil
}

// Notifications returns the captured notifications, oldest first, and how
// many older ones the bounded buffer let go; stop also disarms and
// restores Notification.prototype.show.
func (in *Instrument) Notifications(ctx context.Context, stop bool) ([]Notification, int, error) {
	op := "notifRead"
	if stop {
		op = "notifStop"
	}
	raw, err := in.op(ctx, map[string]any{"op": op})
	if err != nil {
		return nil, 0, err
	}
	if err := failed(raw, "Notification"); err != nil {
		return nil, 0, err
	}
	var out struct {
		Notifications []Notification `json:"notifications"`
		Dropped       int            `json:"dropped"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, 0, errs.Wrap(errs.Internal, err, "reading notifications")
	}
	if out.Notifications == nil {
		out.Notifications = []Notification{}
	}
	return out.Notifications, out.Dropped, nil
}

// Tray is one system-tray icon of the app.
type Tray struct {
	ID        int        `json:"id"`
	Tooltip   *string    `json:"tooltip" jsonschema:"what the app set with setToolTip; null when it was set before understudy's hook (Electron has no getter)"`
	Title     *string    `json:"title"`
	HasImage  *bool      `json:"has_image" jsonschema:"whether setImage was given an image (null: not recorded)"`
	Menu      []MenuItem `json:"menu" jsonschema:"the context menu set with setContextMenu (items as native_menu shows them); null when none was recorded"`
	Recorded  bool       `json:"recorded" jsonschema:"understudy's hook saw this tray's setters (from app start with instrumentNative)"`
	Events    []string   `json:"events" jsonschema:"the events the app listens to (tray.on), which native_tray_invoke can fire"`
	Destroyed bool       `json:"destroyed"`
}

type rawTray struct {
	ID        int        `json:"id"`
	Tooltip   *string    `json:"tooltip"`
	Title     *string    `json:"title"`
	HasImage  *bool      `json:"has_image"`
	Menu      []menuNode `json:"menu"`
	Recorded  bool       `json:"recorded"`
	Events    []string   `json:"events"`
	Destroyed bool       `json:"destroyed"`
}

func (r rawTray) tray() Tray {
	t := Tray{ID: r.ID, Tooltip: r.Tooltip, Title: r.Title, HasImage: r.HasImage, Menu: toItems(r.Menu),
		Recorded: r.Recorded, Events: r.Events, Destroyed: r.Destroyed}
	if t.Events == nil {
		t.Events = []string{}
	}
	return t
}

// withTrays runs the agent with op and the app's live Tray objects, found
// on the heap by Runtime.queryObjects (Electron keeps no tray registry).
// It first patches Tray's setters so what the app sets from now on is
// recorded.
func (in *Instrument) withTrays(ctx context.Context, a map[string]any) (json.RawMessage, error) {
	prep, err := in.op(ctx, map[string]any{"op": "trayPrepare"})
	if err != nil {
		return nil, err
	}
	if err := failed(prep, "Tray"); err != nil {
		return nil, err
	}
	const group = "understudy-trays"
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		_ = in.conn.Call(rctx, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": group}, nil)
		cancel()
	}()
	type remote struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	var req, proto remote
	if err := in.conn.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "require", "includeCommandLineAPI": true, "objectGroup": group}, &req); err != nil {
		return nil, err
	}
	if err := in.conn.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "require('electron').Tray.prototype", "includeCommandLineAPI": true, "objectGroup": group}, &proto); err != nil {
		return nil, err
	}
	if req.Result.ObjectID == "" || proto.Result.ObjectID == "" {
		return nil, errs.New(errs.TransportUnsupported, "the main process's electron module has no Tray")
	}
	var list struct {
		Objects struct {
			ObjectID string `json:"objectId"`
		} `json:"objects"`
	}
	if err := in.conn.Call(ctx, "Runtime.queryObjects", map[string]any{"prototypeObjectId": proto.Result.ObjectID, "objectGroup": group}, &list); err != nil {
		return nil, err
	}
	a["owner"] = in.owner
	arg, err := json.Marshal(a)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "encoding the tray call")
	}
	var res cdp.Evaluated
	fn := "function (req, a) { a.list = this; return (" + agentJS + ")(a, req); }"
	if err := in.conn.Call(ctx, "Runtime.callFunctionOn", map[string]any{"objectId": list.Objects.ObjectID, "functionDeclaration": fn,
		"arguments":     []any{map[string]any{"objectId": req.Result.ObjectID}, map[string]any{"value": json.RawMessage(arg)}},
		"returnByValue": true, "awaitPromise": true}, &res); err != nil {
		return nil, err
	}
	if text, threw := res.Threw(); threw {
		return nil, errs.New(errs.Internal, "tray instrumentation threw: %s", text)
	}
	return res.Result.Value, nil
}

// Trays lists the app's live trays. fromLaunch says whether the setters
// were recorded from app start.
func (in *Instrument) Trays(ctx context.Context) ([]Tray, bool, error) {
	raw, err := in.withTrays(ctx, map[string]any{"op": "trays"})
	if err != nil {
		return nil, false, err
	}
	var out struct {
		Trays      []rawTray `json:"trays"`
		FromLaunch bool      `json:"instrumented_from_launch"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, false, errs.Wrap(errs.Internal, err, "reading trays")
	}
	trays := make([]Tray, 0, len(out.Trays))
	for _, t := range out.Trays {
		trays = append(trays, t.tray())
	}
	return trays, out.FromLaunch, nil
}

// TrayInvokeResult says whether the tray event reached the app's handler,
// and the tray as it is afterwards (nil when the handler destroyed it).
type TrayInvokeResult struct {
	Emitted   bool   `json:"emitted"`
	Reason    string `json:"reason,omitempty" jsonschema:"why not: not_found, no_listener or handler_threw"`
	Exception string `json:"exception,omitempty"`
	Tray      *Tray  `json:"tray"`
}

// TrayInvoke emits event on the tray with id, with the (event, bounds,
// position) arguments a real click carries.
func (in *Instrument) TrayInvoke(ctx context.Context, id int, event string) (*TrayInvokeResult, error) {
	raw, err := in.withTrays(ctx, map[string]any{"op": "trayInvoke", "id": id, "event": event})
	if err != nil {
		return nil, err
	}
	var out struct {
		Emitted bool     `json:"emitted"`
		Reason  string   `json:"reason"`
		Error   string   `json:"error"`
		Tray    *rawTray `json:"tray"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, errs.Wrap(errs.Internal, err, fmt.Sprintf("reading the tray invoke %s", raw))
	}
	r := &TrayInvokeResult{Emitted: out.Emitted, Reason: out.Reason, Exception: out.Error}
	if out.Tray != nil {
		t := out.Tray.tray()
		r.Tray = &t
	}
	return r, nil
}

// SurfaceKind is what the main process says a DevTools target is.
type SurfaceKind struct {
	WebContentsID int    `json:"webcontents_id"`
	Kind          string `json:"kind"` // window, webcontents_view, webview, other
	WindowID      *int   `json:"window_id"`
	Type          string `json:"type"` // webContents.getType()
}

// Kinds asks the main process, for each DevTools target id, which
// webContents it is (webContents.fromDevToolsTargetId) and whether that is
// a window's own, a WebContentsView in a window's content view tree, or a
// <webview>. Targets the main process does not know are absent.
func (in *Instrument) Kinds(ctx context.Context, targetIDs []string) (map[string]SurfaceKind, error) {
	return Kinds(ctx, in.conn, targetIDs)
}

// Kinds is Instrument.Kinds on any main-process connection (it installs
// nothing).
func Kinds(ctx context.Context, c *cdp.Conn, targetIDs []string) (map[string]SurfaceKind, error) {
	arg, err := json.Marshal(map[string]any{"op": "kinds", "targets": targetIDs})
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "encoding targets")
	}
	raw, err := agentjs.Run(ctx, agentjs.Target{Session: c, CommandLineAPI: true}, agentJS, arg, 10*time.Second)
	if err != nil {
		return nil, err
	}
	if err := failed(raw, "webContents.fromDevToolsTargetId"); err != nil {
		return nil, err
	}
	var out struct {
		Kinds map[string]*SurfaceKind `json:"kinds"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "reading surface kinds")
	}
	m := map[string]SurfaceKind{}
	for k, v := range out.Kinds {
		if v != nil {
			m[k] = *v
		}
	}
	return m, nil
}

// LaunchShim is the main script launch-time instrumentation runs in place
// of the app's main (ADR-020 of stagewright): it installs the notification
// and tray hooks before any app code, then imports the real main (CommonJS
// or ESM alike). realMain must be absolute.
func LaunchShim(realMain string) string {
	q, _ := json.Marshal(realMain)
	return "'use strict';\n// understudy launch-time instrumentation (docs/electron.md): fixed hooks, then the app's main.\n" +
		"(" + agentJS + ")({ op: 'launch' }, require);\n" +
		"import(require('url').pathToFileURL(" + string(q) + ").href).catch((e) => { console.error(e); process.exit(1); });\n"
}

// ClassifyRoots asks the main process what each root surface of l is
// (Kinds) and sets their kinds; when it cannot tell, the roots stay as CDP
// saw them (ADR-029: other).
func ClassifyRoots(ctx context.Context, c *cdp.Conn, l *surface.Listing) {
	ids := l.Roots()
	if len(ids) == 0 {
		return
	}
	kinds, err := Kinds(ctx, c, ids)
	if err != nil {
		return
	}
	roots := make(map[string]surface.RootKind, len(kinds))
	for id, k := range kinds {
		roots[id] = surface.RootKind{WebContentsID: k.WebContentsID, Kind: k.Kind, WindowID: k.WindowID}
	}
	l.Classify(roots)
}
