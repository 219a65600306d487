package mainproc

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/surface"
)

// The arguments and answers of the main-process tools: their JSON names and
// descriptions (the tools' schemas), their checks (Check, errors naming the
// field) and the operations that answer them.

// menuTimeout bounds a menu read or click.
const menuTimeout = 10 * time.Second

// InvokeArgs are an ipcMain.handle call as a renderer would make it.
type InvokeArgs struct {
	Channel   string            `json:"channel" jsonschema:"the ipcMain.handle channel"`
	Args      []json.RawMessage `json:"args,omitempty" jsonschema:"the arguments the renderer would pass (JSON values)"`
	TimeoutMs int               `json:"timeoutMs,omitempty" jsonschema:"how long the handler may take; default 10000"`
	SurfaceID string            `json:"surfaceId,omitempty" jsonschema:"send as this surface's renderer; default the focused window"`
}

// Check refuses a missing or too long channel and a timeout out of range.
func (a *InvokeArgs) Check() error {
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

// Invoke calls the channel's handler on c ([Invoke]), sent as the window
// above surfaceId (resolved in surfaces) or the focused window; the
// timeout defaults to 10 s.
func (a *InvokeArgs) Invoke(ctx context.Context, c *cdp.Conn, surfaces *surface.Registry) (*InvokeResult, error) {
	sender := ""
	if a.SurfaceID != "" {
		res, err := surfaces.ResolveID(ctx, a.SurfaceID)
		if err != nil {
			return nil, err
		}
		if res.InputRootID == "" {
			return nil, errs.New(errs.SurfaceNotFound, "surface %s has no window above it", a.SurfaceID).With("field", "surfaceId")
		}
		sender = res.InputRootID
	}
	timeout := 10 * time.Second
	if a.TimeoutMs > 0 {
		timeout = time.Duration(a.TimeoutMs) * time.Millisecond
	}
	return Invoke(ctx, c, a.Channel, a.Args, sender, timeout)
}

// MenuResult is the application menu as a tree (nil: the app set none).
type MenuResult struct {
	Menu []MenuItem `json:"menu"`
}

// Menu reads the application menu on c.
func Menu(ctx context.Context, c *cdp.Conn) (*MenuResult, error) {
	items, err := ApplicationMenu(ctx, c, menuTimeout)
	if err != nil {
		return nil, err
	}
	return &MenuResult{Menu: items}, nil
}

// MenuItemArgs name an application-menu item by its path or id.
type MenuItemArgs struct {
	Path []string `json:"path,omitempty" jsonschema:"labels or roles from the top of the menu, e.g. [\"File\",\"Save\"]"`
	ID   string   `json:"id,omitempty" jsonschema:"the item's id, instead of path"`
}

// Check refuses neither or both of path and id, a path too long and an
// empty segment.
func (a *MenuItemArgs) Check() error {
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
			return errs.BadArg("path["+strconv.Itoa(i)+"]", "is empty")
		}
	}
	return nil
}

// MenuItemResult says whether the item was found, and the item.
type MenuItemResult struct {
	Found bool      `json:"found"`
	Item  *MenuItem `json:"item,omitempty"`
}

// Find reads the application menu on c and finds the item.
func (a *MenuItemArgs) Find(ctx context.Context, c *cdp.Conn) (*MenuItemResult, error) {
	items, err := ApplicationMenu(ctx, c, menuTimeout)
	if err != nil {
		return nil, err
	}
	if it := FindMenuItem(items, a.Path, a.ID); it != nil {
		return &MenuItemResult{Found: true, Item: it}, nil
	}
	return &MenuItemResult{Found: false}, nil
}

// Click clicks the item on c as a user would ([InvokeMenuItem]).
func (a *MenuItemArgs) Click(ctx context.Context, c *cdp.Conn) (*MenuInvokeResult, error) {
	return InvokeMenuItem(ctx, c, a.Path, a.ID, menuTimeout)
}

// DefaultRedact are the argument keys every IPC capture redacts.
var DefaultRedact = []string{"password", "passwd", "passphrase", "secret", "token", "accessToken", "refreshToken", "idToken", "apiKey", "api_key", "authorization", "cookie", "privateKey"}

// IPCCaptureArgs are an IPC capture as asked: its channels (an allowlist)
// and its bounds.
type IPCCaptureArgs struct {
	Channels              []string `json:"channels" jsonschema:"the channels to record (required: there is no capture-everything)"`
	CaptureSend           bool     `json:"captureSend,omitempty" jsonschema:"also record ipcRenderer.send messages (ipcMain.on)"`
	CaptureSendToRenderer bool     `json:"captureSendToRenderer,omitempty" jsonschema:"also record webContents.send / sendToFrame pushes to renderers"`
	Redact                []string `json:"redact,omitempty" jsonschema:"more argument keys to replace with [redacted] (case-insensitive; password, token, secret, authorization, cookie, apiKey and the like always are)"`
	MaxEvents             int      `json:"maxEvents,omitempty" jsonschema:"how many events the buffer keeps; later ones are dropped and counted; default 1000, at most 10000"`
	MaxArgBytes           int      `json:"maxArgBytes,omitempty" jsonschema:"how many characters of JSON an event's args (or answer) may take; default 4096, at most 65536"`
}

// Check refuses no channels or too many, a bad channel name and bounds out
// of range.
func (a *IPCCaptureArgs) Check() error {
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
			return errs.BadArg("channels["+strconv.Itoa(i)+"]", "must be a channel name of 1 to 512 characters")
		}
	}
	return nil
}

// IPCCaptureStartResult is what a started IPC capture wraps and its
// bounds.
type IPCCaptureStartResult struct {
	CaptureStarted
	RedactKeys  []string `json:"redact_keys" jsonschema:"the argument keys this capture redacts"`
	MaxEvents   int      `json:"max_events"`
	MaxArgBytes int      `json:"max_arg_bytes"`
}

// StartIPC starts the capture a asks, redacting [DefaultRedact] and a's
// keys; maxEvents defaults to 1000, maxArgBytes to 4096.
func (in *Instrument) StartIPC(ctx context.Context, a *IPCCaptureArgs) (*IPCCaptureStartResult, error) {
	redact := append(append([]string{}, DefaultRedact...), a.Redact...)
	o := CaptureOptions{Channels: a.Channels, CaptureSend: a.CaptureSend, CaptureSendToRenderer: a.CaptureSendToRenderer,
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
	return &IPCCaptureStartResult{CaptureStarted: *st, RedactKeys: redact, MaxEvents: o.MaxEvents, MaxArgBytes: o.MaxArgBytes}, nil
}

// IPCCapturedArgs select the recorded IPC to read.
type IPCCapturedArgs struct {
	Channel string `json:"channel,omitempty" jsonschema:"only this channel"`
	Since   int64  `json:"since,omitempty" jsonschema:"only events after this seq (from an earlier read)"`
}

// Check refuses a negative since.
func (a *IPCCapturedArgs) Check() error {
	if a.Since < 0 {
		return errs.BadArg("since", "must not be negative")
	}
	return nil
}

// IPCCapturedResult is the recorded IPC.
type IPCCapturedResult struct {
	Capturing bool       `json:"capturing"`
	Count     int        `json:"count"`
	Events    []IPCEvent `json:"events"`
	Dropped   int        `json:"dropped" jsonschema:"events refused because the buffer was full"`
}

// ReadIPC reads the recorded IPC a selects, each event's surface named
// from surfaces.
func (in *Instrument) ReadIPC(ctx context.Context, a *IPCCapturedArgs, surfaces *surface.Registry) (*IPCCapturedResult, error) {
	ev, dropped, err := in.Captured(ctx, a.Channel, a.Since)
	if err != nil {
		return nil, err
	}
	in.NameSurfaces(ctx, ev, surfaces)
	return &IPCCapturedResult{Capturing: true, Count: len(ev), Events: ev, Dropped: dropped}, nil
}

// StopIPC stops the capture and returns what it recorded, each event's
// surface named from surfaces.
func (in *Instrument) StopIPC(ctx context.Context, surfaces *surface.Registry) (*IPCCapturedResult, error) {
	ev, dropped, err := in.CaptureStop(ctx)
	if err != nil {
		return nil, err
	}
	in.NameSurfaces(ctx, ev, surfaces)
	return &IPCCapturedResult{Capturing: false, Count: len(ev), Events: ev, Dropped: dropped}, nil
}

// NameSurfaces fills each event's surface_id from its webContents, as the
// main process maps the window roots of surfaces (best effort: an app
// whose electron module cannot tell leaves them empty).
func (in *Instrument) NameSurfaces(ctx context.Context, ev []IPCEvent, surfaces *surface.Registry) {
	need := false
	for _, e := range ev {
		need = need || e.WebContentsID != nil
	}
	if !need {
		return
	}
	byWC := rootsByWebContents(ctx, surfaces, in.Kinds)
	for i := range ev {
		if ev[i].WebContentsID != nil {
			ev[i].SurfaceID = byWC[*ev[i].WebContentsID]
		}
	}
}

// rootsByWebContents maps webContents ids to the root surface ids of
// surfaces; nil when either side cannot tell.
func rootsByWebContents(ctx context.Context, surfaces *surface.Registry, kinds func(context.Context, []string) (map[string]SurfaceKind, error)) map[int]string {
	list, err := surfaces.List(ctx)
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

// IPCStubArgs are a stub of a captured channel's handler, or its removal.
type IPCStubArgs struct {
	Channel  string          `json:"channel" jsonschema:"a channel of the running capture"`
	Response json.RawMessage `json:"response,omitempty" jsonschema:"the answer (any JSON value); null when omitted"`
	Error    string          `json:"error,omitempty" jsonschema:"reject the invoke with this message instead of answering"`
	DelayMs  int             `json:"delayMs,omitempty" jsonschema:"wait this long before answering (at most 60000)"`
	Times    int             `json:"times,omitempty" jsonschema:"answer only the next N calls, then the app's handler again; 0: until removed"`
	Remove   bool            `json:"remove,omitempty" jsonschema:"take the channel's stub away"`
}

// Check refuses a missing channel, bounds out of range, remove with
// anything else, both response and error, and a response that is not
// JSON or over 1 MiB.
func (a *IPCStubArgs) Check() error {
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

// IPCStubResult says whether the channel is stubbed now or its stub was
// removed.
type IPCStubResult struct {
	Channel string `json:"channel"`
	Stubbed bool   `json:"stubbed"`
	Removed bool   `json:"removed,omitempty"`
}

// StubIPC sets or removes the stub a asks ([Instrument.SetStub]).
func (in *Instrument) StubIPC(ctx context.Context, a *IPCStubArgs) (*IPCStubResult, error) {
	removed, err := in.SetStub(ctx, Stub{Channel: a.Channel, Value: a.Response, Error: a.Error,
		Delay: time.Duration(a.DelayMs) * time.Millisecond, Times: a.Times, Remove: a.Remove})
	if err != nil {
		return nil, err
	}
	return &IPCStubResult{Channel: a.Channel, Stubbed: !a.Remove, Removed: removed}, nil
}

// NotificationsStartArgs filter the notifications captured.
type NotificationsStartArgs struct {
	TitleContains string `json:"titleContains,omitempty" jsonschema:"only notifications whose title contains this"`
}

// NotificationsStartResult says that capture is armed and whether it
// reaches back to app start.
type NotificationsStartResult struct {
	Capturing  bool `json:"capturing"`
	FromLaunch bool `json:"from_launch" jsonschema:"the capture reaches back to app start (launched with instrumentNative)"`
}

// StartNotifications arms notification capture ([Instrument.NotificationsStart]).
func (in *Instrument) StartNotifications(ctx context.Context, a *NotificationsStartArgs) (*NotificationsStartResult, error) {
	from, err := in.NotificationsStart(ctx, a.TitleContains)
	if err != nil {
		return nil, err
	}
	return &NotificationsStartResult{Capturing: true, FromLaunch: from}, nil
}

// NotificationsResult are the notifications captured.
type NotificationsResult struct {
	Count         int            `json:"count"`
	Notifications []Notification `json:"notifications"`
	Dropped       int            `json:"dropped" jsonschema:"older notifications the bounded buffer (1000) let go"`
}

// ReadNotifications returns the notifications captured, disarming the
// capture when stop.
func (in *Instrument) ReadNotifications(ctx context.Context, stop bool) (*NotificationsResult, error) {
	list, dropped, err := in.Notifications(ctx, stop)
	if err != nil {
		return nil, err
	}
	return &NotificationsResult{Count: len(list), Notifications: list, Dropped: dropped}, nil
}

// TraysResult are the app's system-tray icons.
type TraysResult struct {
	Count      int    `json:"count"`
	Trays      []Tray `json:"trays"`
	FromLaunch bool   `json:"instrumented_from_launch" jsonschema:"tray setters were recorded from app start (launched with instrumentNative)"`
}

// ListTrays reads the app's trays ([Instrument.Trays]).
func (in *Instrument) ListTrays(ctx context.Context) (*TraysResult, error) {
	trays, from, err := in.Trays(ctx)
	if err != nil {
		return nil, err
	}
	return &TraysResult{Count: len(trays), Trays: trays, FromLaunch: from}, nil
}

// TrayEvents are the tray events a tray may be fired (Electron's Tray
// events that a pointer or the notification area raises).
var TrayEvents = []string{"click", "right-click", "double-click", "middle-click", "mouse-up", "mouse-down", "mouse-enter", "mouse-leave", "mouse-move", "balloon-click"}

// TrayInvokeArgs name a tray and the event to fire on it.
type TrayInvokeArgs struct {
	ID    int    `json:"id" jsonschema:"a tray id from native_trays"`
	Event string `json:"event" jsonschema:"click, right-click, double-click, middle-click, mouse-up, mouse-down, mouse-enter, mouse-leave, mouse-move or balloon-click"`
}

// Check refuses a tray id below 1 and an event not in [TrayEvents].
func (a *TrayInvokeArgs) Check() error {
	if a.ID <= 0 {
		return errs.BadArg("id", "must be a tray id from native_trays")
	}
	if !slices.Contains(TrayEvents, a.Event) {
		return errs.BadArg("event", "%q is not one of %s", a.Event, strings.Join(TrayEvents, ", "))
	}
	return nil
}

// TrayFired is what firing a tray event did, with the tray and event.
type TrayFired struct {
	TrayInvokeResult
	TrayID    int    `json:"tray_id"`
	TrayEvent string `json:"tray_event"`
}

// FireTray fires the event a names ([Instrument.TrayInvoke]).
func (in *Instrument) FireTray(ctx context.Context, a *TrayInvokeArgs) (*TrayFired, error) {
	r, err := in.TrayInvoke(ctx, a.ID, a.Event)
	if err != nil {
		return nil, err
	}
	return &TrayFired{TrayInvokeResult: *r, TrayID: a.ID, TrayEvent: a.Event}, nil
}
