package errs

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"
)

// Code is a stable, machine-readable error code, such as "SURFACE_CLOSED".
type Code string

// The registered codes. Keep them in step with registry below.
const (
	NotRunning           Code = "NOT_RUNNING"
	AlreadyRunning       Code = "ALREADY_RUNNING"
	LaunchTimeout        Code = "LAUNCH_TIMEOUT"
	LaunchFailed         Code = "LAUNCH_FAILED"
	FusesBlockLaunch     Code = "FUSES_BLOCK_LAUNCH"
	SingleInstanceLock   Code = "SINGLE_INSTANCE_LOCK"
	BadArgument          Code = "BAD_ARGUMENT"
	FileNotFound         Code = "FILE_NOT_FOUND"
	AbsolutePathRequired Code = "ABSOLUTE_PATH_REQUIRED"
	RefNotFound          Code = "REF_NOT_FOUND"
	RefStale             Code = "REF_STALE"
	SurfaceNotFound      Code = "SURFACE_NOT_FOUND"
	SurfaceClosed        Code = "SURFACE_CLOSED"
	SurfaceUnsupported   Code = "SURFACE_UNSUPPORTED"
	PageNavigating       Code = "PAGE_NAVIGATING"
	DialogOpen           Code = "DIALOG_OPEN"
	PageUnresponsive     Code = "PAGE_UNRESPONSIVE"
	SelectorNoMatch      Code = "SELECTOR_NO_MATCH"
	ElementNotFound      Code = "ELEMENT_NOT_FOUND"
	ElementNotVisible    Code = "ELEMENT_NOT_VISIBLE"
	ElementDisabled      Code = "ELEMENT_DISABLED"
	TypeNoEffect         Code = "TYPE_NO_EFFECT"
	DragNoEffect         Code = "DRAG_NO_EFFECT"
	DragMisplaced        Code = "DRAG_MISPLACED"
	WaitTimeout          Code = "WAIT_TIMEOUT"
	ExpectationFailed    Code = "EXPECTATION_FAILED"
	TransportUnsupported Code = "TRANSPORT_UNSUPPORTED"
	CDPDisconnected      Code = "CDP_DISCONNECTED"
	CDPTimeout           Code = "CDP_TIMEOUT"
	InjectFailed         Code = "INJECT_FAILED"
	EvalSyntaxError      Code = "EVAL_SYNTAX_ERROR"
	EvalRuntimeError     Code = "EVAL_RUNTIME_ERROR"
	EvalTimeout          Code = "EVAL_TIMEOUT"
	EvalBlockedKeyword   Code = "EVAL_BLOCKED_KEYWORD"
	EvalBlockedConstruct Code = "EVAL_BLOCKED_CONSTRUCT"
	OperationTimeout     Code = "OPERATION_TIMEOUT"
	NotImplemented       Code = "NOT_IMPLEMENTED"
	Internal             Code = "INTERNAL_ERROR"
	TypeMismatch         Code = "TYPE_MISMATCH"
	PathNotAllowed       Code = "PATH_NOT_ALLOWED"
	FileExists           Code = "FILE_EXISTS"
	ToolNotEnabled       Code = "TOOL_NOT_ENABLED"
	OriginNotOpen        Code = "ORIGIN_NOT_OPEN"
	SecretsNotAllowed    Code = "SECRETS_NOT_ALLOWED"
	StorageStateInvalid  Code = "STORAGE_STATE_INVALID"
	WindowOpenRefused    Code = "WINDOW_OPEN_REFUSED"
	LastWindow           Code = "LAST_WINDOW"
	HistoryEmpty         Code = "HISTORY_EMPTY"
	EmulationRejected    Code = "EMULATION_REJECTED"
	ClockNotInstalled    Code = "CLOCK_NOT_INSTALLED"
	AlreadyCapturing     Code = "ALREADY_CAPTURING"
	NotCapturing         Code = "NOT_CAPTURING"
	HARInvalid           Code = "HAR_INVALID"

	// Evidence: traces, replay, visual baselines, accessibility audits
	// (docs/evidence.md).
	TraceNotRecording     Code = "TRACE_NOT_RECORDING"
	TraceAlreadyRecording Code = "TRACE_ALREADY_RECORDING"
	TraceNotFound         Code = "TRACE_NOT_FOUND"
	TraceInvalid          Code = "TRACE_INVALID"
	TraceWriteFailed      Code = "TRACE_WRITE_FAILED"
	TraceBudgetExceeded   Code = "TRACE_BUDGET_EXCEEDED"
	ReplayNotAllowed      Code = "REPLAY_NOT_ALLOWED"
	ConfirmRequired       Code = "CONFIRM_REQUIRED"
	BaselineNotFound      Code = "VISUAL_BASELINE_NOT_FOUND"
	BaselineConflict      Code = "VISUAL_BASELINE_CONFLICT"
	VisualMismatch        Code = "VISUAL_MISMATCH"
	VisualEnvMismatch     Code = "VISUAL_ENV_MISMATCH"
	VisualSizeMismatch    Code = "VISUAL_SIZE_MISMATCH"
	ImageInvalid          Code = "IMAGE_INVALID"
	A11yEngineMissing     Code = "A11Y_ENGINE_MISSING"
	A11yUnknownRule       Code = "A11Y_UNKNOWN_RULE"
	UnsupportedArtifact   Code = "UNSUPPORTED_ARTIFACT"
	AsarInvalid           Code = "ASAR_INVALID"
	AppCrashed            Code = "APP_CRASHED"
	EvalRequired          Code = "EVAL_REQUIRED"
	IPCNoHandler          Code = "IPC_NO_HANDLER"
	IPCInvokeFailed       Code = "IPC_INVOKE_FAILED"

	// Main-process instrumentation (ADR-032).
	IPCAlreadyCapturing    Code = "IPC_ALREADY_CAPTURING"
	IPCNotCapturing        Code = "IPC_NOT_CAPTURING"
	IPCChannelNotCaptured  Code = "IPC_CHANNEL_NOT_CAPTURED"
	NativeAlreadyCapturing Code = "NATIVE_ALREADY_CAPTURING"
	NativeNotCapturing     Code = "NATIVE_NOT_CAPTURING"
	InstrumentationBusy    Code = "INSTRUMENTATION_BUSY"

	// Beyond one machine: Selenium Grid sessions, remote endpoints, the
	// user's own Chrome (docs/scale-out.md).
	GridNoSlot        Code = "GRID_NO_SLOT"
	GridSessionFailed Code = "GRID_SESSION_FAILED"
	GridUnreachable   Code = "GRID_UNREACHABLE"
	RemoteNotAllowed  Code = "REMOTE_NOT_ALLOWED"
	AutoConnectFailed Code = "AUTO_CONNECT_FAILED"
)

// Entry is what the registry knows about a code.
type Entry struct {
	Code      Code
	HTTP      int
	Retryable bool
	Hint      string
}

var registry = sync.OnceValue(func() map[Code]Entry {
	return map[Code]Entry{
		NotRunning:           {NotRunning, 409, false, "No app session is open. Call electron_launch or electron_attach first, or pass the sessionId of an open session."},
		AlreadyRunning:       {AlreadyRunning, 409, false, "A session is already open. Stop it with electron_stop, pass allowMultiple:true, or keep using it."},
		LaunchTimeout:        {LaunchTimeout, 408, true, "The app did not open a DevTools endpoint or a ready renderer in time. Raise timeoutMs/readyTimeoutMs, or run electron_doctor."},
		LaunchFailed:         {LaunchFailed, 500, false, "The app could not be started. Check executablePath, args and the stderr tail in details; run electron_doctor."},
		FusesBlockLaunch:     {FusesBlockLaunch, 409, false, "The app's Electron fuses forbid what this launch needs (details.fuse names the fuse, details.reason what it blocks): EnableNodeCliInspectArguments off ignores --inspect and SIGUSR1, OnlyLoadAppFromAsar on refuses a main script outside app.asar. Use a build with the fuse flipped (@electron/fuses), launch the packaged app with executablePath (no main-process tools), or run production_validate to see every fuse."},
		SingleInstanceLock:   {SingleInstanceLock, 409, false, "Another instance of the app holds its single-instance lock. Quit it, or attach to it with electron_attach."},
		BadArgument:          {BadArgument, 400, false, "An argument is missing or invalid; the message names the field. Fix it and call again."},
		FileNotFound:         {FileNotFound, 404, false, "The named file does not exist. Pass an existing path."},
		AbsolutePathRequired: {AbsolutePathRequired, 400, false, "Pass an absolute path."},
		RefNotFound:          {RefNotFound, 404, false, "The ref is not live (in the surface that issued it, or the active one for a ref this session never issued). Take a new electron_snapshot or electron_find and use a ref from it; similar_refs, when present, lists live elements of the same role and name as the one the ref named."},
		RefStale:             {RefStale, 409, false, "The ref's element now shows another item than when you last saw it (a list that reuses its rows as it scrolls, a control the page re-rendered): details.was is what you saw, details.now what it shows now; similar_refs, when present, are elements that show what you saw (same role and name). Use one of them, or take electron_snapshot (since:'last' is enough) or electron_find and use the ref of the item you mean; or pass allowChanged:true to act on the element as it is now."},
		SurfaceNotFound:      {SurfaceNotFound, 404, false, "No surface ever had this id. Call electron_surfaces_list and pass one of its ids."},
		SurfaceClosed:        {SurfaceClosed, 409, false, "The surface is gone (its frame or window closed). Call electron_surfaces_list and electron_switch_surface to pick a live one."},
		PageNavigating:       {PageNavigating, 409, true, "A navigation or reload replaced the surface's document while the call was reading it, each time it tried; nothing was read and nothing was done. Wait for the page to settle (electron_wait_for_selector on an element of the page you expect) and call again."},
		SurfaceUnsupported:   {SurfaceUnsupported, 501, false, "This surface cannot do that operation; its capabilities in electron_surfaces_list say what it can do. Select another surface."},
		DialogOpen:           {DialogOpen, 409, true, "A JavaScript dialog (alert, confirm, prompt or beforeunload; details say which and its message) is open in the window this call targets, and the page runs nothing until it is answered. Answer it with electron_dialog_handler (action accept or dismiss; arm a policy to answer later ones as they open), or select another window, then call again."},
		PageUnresponsive:     {PageUnresponsive, 503, false, "The window's renderer (or, with frame_target_id, the selected cross-site frame's own renderer) runs a script that does not return (while(true){}, a very long task): it answered no trivial evaluation in time (details: window_id, waited_ms, tried), so no page tool can act in it. A page busy with a long task may answer a later call; one that keeps answering this will not return by itself: electron_reload stops the running script (Runtime.terminateExecution) and reloads the window; electron_navigate stops it and opens another page (use it when the page spins again as it loads); electron_switch_window acts in another window meanwhile."},
		SelectorNoMatch:      {SelectorNoMatch, 404, false, "No element in the active surface matches the selector. Check the selector, the active surface (electron_surfaces_list), or wait with electron_wait_for_selector."},
		ElementNotFound:      {ElementNotFound, 404, false, "No element has that role and name, even after scrolling the virtualized lists (details: lists, steps, scroll_top, timed_out). Check the name with electron_snapshot or electron_find, name the list with listRef, or raise timeoutMs when timed_out."},
		ElementNotVisible:    {ElementNotVisible, 409, true, "The element is not visible. Wait for it (electron_wait_for_selector state:visible), scroll, or select the right surface."},
		ElementDisabled:      {ElementDisabled, 409, false, "The element is disabled. Do what enables it first, or check electron_get_state."},
		TypeNoEffect:         {TypeNoEffect, 422, false, "The value did not change (the page may reject or control it). Try electron_keyboard_type for real key events, or check the field."},
		DragNoEffect:         {DragNoEffect, 422, false, "The drag ended but the list kept its order (details.order). Check that the item can be dragged there (a handle, a delay), or pass expect:\"drop\" when the drag is not meant to reorder."},
		DragMisplaced:        {DragMisplaced, 422, false, "The list was reordered, but the dragged item is not where the target was: details.order is the order now and details.index its place. Do not repeat the same drag: drag it again from where it is now."},
		WaitTimeout:          {WaitTimeout, 408, true, "The condition did not hold in time; details carry the last state seen. Raise timeoutMs or check the condition."},
		ExpectationFailed:    {ExpectationFailed, 417, true, "The expectation did not hold; compare expected and actual in details."},
		TransportUnsupported: {TransportUnsupported, 501, false, "This transport cannot do that (for example no Node inspector for the main process). Launch with main, attach with inspectorPort, or use electron_inject."},
		CDPDisconnected:      {CDPDisconnected, 503, true, "The DevTools connection dropped (the app or window may have closed). Check electron_status; relaunch or reattach."},
		CDPTimeout:           {CDPTimeout, 408, true, "The app did not answer a DevTools call in time; it may be busy or paused. Retry, or check electron_status."},
		InjectFailed:         {InjectFailed, 500, true, "The main-process inspector did not open. The app may forbid it (fuses); retry or launch it yourself with --inspect."},
		EvalSyntaxError:      {EvalSyntaxError, 400, false, "The code does not parse. Fix the syntax; pass an expression or a function body."},
		EvalRuntimeError:     {EvalRuntimeError, 500, false, "The code threw; details carry the exception. Fix the code or the state it expects."},
		EvalTimeout:          {EvalTimeout, 408, true, "The code did not finish in time. Make it shorter or raise timeoutMs."},
		EvalBlockedKeyword:   {EvalBlockedKeyword, 400, false, "The operator's eval policy forbids a keyword in this code."},
		EvalBlockedConstruct: {EvalBlockedConstruct, 400, false, "The operator's eval policy forbids a construct in this code."},
		OperationTimeout:     {OperationTimeout, 408, true, "The tool call hit the server's backstop (--operation-timeout-ms). The session is still usable; retry with a smaller step."},
		NotImplemented:       {NotImplemented, 501, false, "This tool or option is not built yet on this transport."},
		Internal:             {Internal, 500, false, "An unexpected server error; details say what failed. Retry, and report it if it repeats."},
		TypeMismatch:         {TypeMismatch, 422, false, "The text went in, but the element now holds something else (details.observed; the message names the first difference). Do not type it again blindly, that inserts it twice: read the element, undo (Control/Meta+Z) or replace its content (replace:true)."},
		PathNotAllowed:       {PathNotAllowed, 403, false, "Files are read and written only under the allowed roots (details.roots): the MCP client's roots, the server's working directory, --app-root, the artifacts folder and every --file-root. Use a path under one of them (a relative output path lands in the artifacts folder), or ask the operator to add a root with --file-root DIR (or lift the rule with --allow-any-file)."},
		ToolNotEnabled:       {ToolNotEnabled, 403, false, "The tool exists but the operator's --tool-profile or --with does not enable it (the message names the flag that does). Use an enabled tool (tools/list, electron_plugins), or ask the operator to restart understudy with that flag."},
		OriginNotOpen:        {OriginNotOpen, 404, false, "No document of the app has that origin open, so its Web Storage cannot be reached (the DevTools DOMStorage domain works through a live document of the origin). details.open_origins lists the origins that are open (storage_snapshot shows them too); open a page of the origin first (electron_navigate, electron_window_open) or pass one of those."},
		SecretsNotAllowed:    {SecretsNotAllowed, 403, false, "Secret values (cookie values, password fields, credentials) are shown only when the operator started the server with --allow-secrets. Call again without reveal (the value stays [redacted]), or ask the operator for the flag."},
		StorageStateInvalid:  {StorageStateInvalid, 400, false, "The storageState file does not have Playwright's shape ({cookies: [...], origins: [{origin, localStorage: [{name, value}]}]}); details.path is the JSON path of the first problem. Nothing was written. Fix the file (or export one with storage_state_export) and import again."},
		WindowOpenRefused:    {WindowOpenRefused, 409, false, "The app decides which windows it opens (Electron apps create their BrowserWindows in the main process). Use the app's own UI (a menu, a button) to open the window, or electron_eval_main with new BrowserWindow(...) when the operator allows main-process eval."},
		LastWindow:           {LastWindow, 409, false, "That is the last window of an app you attached to: closing it may end the user's app. Pass force:true if you mean it, or use electron_stop (which detaches and leaves the app running)."},
		HistoryEmpty:         {HistoryEmpty, 409, false, "The window has no history entry in that direction (details.index, details.entries). See where the window is (electron_windows_list), or navigate with electron_navigate."},
		EmulationRejected:    {EmulationRejected, 400, false, "The browser rejected an emulation value (the message names the field and the browser's reason): an unknown timezone ID (IANA, like Europe/Berlin), locale (BCP 47, like de-DE) or a value out of range. Fix that field and call again; the window keeps the emulation it had before this call (details.observed is what the page reported)."},
		ClockNotInstalled:    {ClockNotInstalled, 409, false, "The fake clock is not installed in this session. Call clock_install first (optionally with a start time); then the other clock_* tools move it."},
		AlreadyCapturing:     {AlreadyCapturing, 409, false, "A network capture is already running in this session. Read it with network_captured, or end it with network_capture_stop and start again with the new filters."},
		NotCapturing:         {NotCapturing, 409, false, "No network capture is running in this session. Start one with network_capture_start."},
		HARInvalid:           {HARInvalid, 422, false, "The file is not a HAR 1.2 document; details.path is the JSON path of the first problem. Pass a HAR written by network_export_har, Playwright's recordHar or Chrome DevTools."},
		UnsupportedArtifact:  {UnsupportedArtifact, 400, false, "appPath is not an artifact the packaged-app checks read. Pass an unpacked app folder (with resources/app.asar or resources/app), a macOS .app bundle, an AppImage, an Electron executable or an .asar archive."},
		AsarInvalid:          {AsarInvalid, 422, false, "The file is not a readable asar archive (details.reason says where it breaks: a truncated or inconsistent header, invalid JSON). Pass an intact app.asar, or repackage the app."},
		AppCrashed:           {AppCrashed, 410, false, "The app's main process exited (details: exit_code or signal, stderr_tail). The session cannot act any more: call electron_launch with relaunch:true to start it again with the same arguments, or electron_stop to clear it."},
		EvalRequired:         {EvalRequired, 403, false, "This tool runs code in the app's main process, which the operator has not allowed. Restart the server with --allow-eval=main (or --allow-eval) to use the IPC tools."},
		IPCNoHandler:         {IPCNoHandler, 404, false, "No ipcMain.handle handler is registered for this channel (details.channels lists those that are). Check the channel name, or wait until the app has registered it."},
		IPCInvokeFailed:      {IPCInvokeFailed, 500, false, "The channel's main-process handler threw (details.exception). Check the arguments, or the app's state the handler expects."},

		IPCAlreadyCapturing:    {IPCAlreadyCapturing, 409, false, "An IPC capture is already running on this session. Read it with ipc_captured, or end it with ipc_capture_stop before starting another."},
		IPCNotCapturing:        {IPCNotCapturing, 409, false, "No IPC capture is running on this session. Call ipc_capture_start with the channels first (ipc_stub needs a capture of its channel too)."},
		IPCChannelNotCaptured:  {IPCChannelNotCaptured, 400, false, "A stub acts only on a channel of the running capture (details.channels). Stop the capture and start it again with this channel in channels."},
		NativeAlreadyCapturing: {NativeAlreadyCapturing, 409, false, "Notification capture is already armed on this session. Read it with native_notifications, or end it with native_notifications_stop."},
		NativeNotCapturing:     {NativeNotCapturing, 409, false, "Notification capture is not armed on this session. Call native_notifications_start first."},
		InstrumentationBusy:    {InstrumentationBusy, 409, false, "Another understudy server holds live instrumentation in this app's main process. Stop its capture, or wait: instrumentation whose server went away restores itself within seconds (its lease runs out)."},
		GridNoSlot:             {GridNoSlot, 503, true, "The grid had no free slot that matches the capabilities before its session-request timeout (the message is the grid's). Wait for a session to end (electron_stop frees ours), add nodes or --max-sessions on the grid, or ask for a browserName/platform the grid's nodes offer."},
		GridSessionFailed:      {GridSessionFailed, 502, false, "The grid could not create or keep the session; the message is the grid's own (a wrong goog:chromeOptions binary, bad capabilities, a driver that failed to start, a node that was lost). Fix the capabilities or the node and call electron_launch again."},
		GridUnreachable:        {GridUnreachable, 503, true, "No Selenium Grid answered at that URL (details.grid). Check the address (http://HOST:4444), that the grid is up (GET /status), and that --allow-remote covers it when it is not on loopback."},
		RemoteNotAllowed:       {RemoteNotAllowed, 403, false, "The endpoint is not on loopback, and the operator has not allowed it. Start the server with --allow-remote HOST[:PORT] (or UNDERSTUDY_ALLOW_REMOTE) naming it (details.host); a grid's se:cdp URL names the address the grid advertises, which must be allowed too."},
		AutoConnectFailed:      {AutoConnectFailed, 404, false, "No running Chrome/Chromium with remote debugging was found (details.looked lists each DevToolsActivePort read and why it did not match). Turn on remote debugging in that browser (chrome://inspect/#remote-debugging, or start it with --remote-debugging-port=0), pass userDataDir for a non-default profile, and allow the connection in the browser when it asks."},
		FileExists:             {FileExists, 409, false, "The file exists and this server did not write it, so it is not replaced. Pass overwrite:true to replace it, or choose another path (or dir for a new name)."},

		TraceNotRecording:     {TraceNotRecording, 409, false, "No trace is being recorded. Call trace_start first, or pass path to read a written trace."},
		TraceAlreadyRecording: {TraceAlreadyRecording, 409, false, "A trace is already being recorded (details.path). Call trace_stop first, or keep recording."},
		TraceNotFound:         {TraceNotFound, 404, false, "No trace artifact is at that path. Pass the folder trace_start/trace_stop returned (it holds trace.json)."},
		TraceInvalid:          {TraceInvalid, 422, false, "The folder is not a readable understudy trace, or a replay spec is malformed (the message says which file; details.at the JSON path of a spec's first problem). Record a new trace rather than edit trace files; fix the spec at details.at (docs/evidence.md, Result checks)."},
		TraceWriteFailed:      {TraceWriteFailed, 500, false, "A trace file could not be written (disk full, folder removed). The steps written so far stay readable; stop the trace and start a new one elsewhere."},
		TraceBudgetExceeded:   {TraceBudgetExceeded, 429, false, "The trace's token budget is spent and enforce is on: calls other than trace_* are refused. Call trace_stop (or trace_budget to see the numbers), then start again with a larger budgetTokens."},
		ReplayNotAllowed:      {ReplayNotAllowed, 403, false, "The trace has steps this server may not run now (eval without --allow-eval, a tool that does not exist here); details.steps lists them. Restart the server with the flag, or replay a trace without those steps."},
		ConfirmRequired:       {ConfirmRequired, 412, false, "This call changes something that is kept (a baseline) or replays destructive steps. Review what it will do, then call again with confirm:true."},
		BaselineNotFound:      {BaselineNotFound, 404, false, "No baseline with that name exists. Review a visual_capture, then create the baseline with visual_update_baseline {name, confirm:true}."},
		BaselineConflict:      {BaselineConflict, 409, false, "baselineDir holds a file named like the baseline (<name>.png or <name>.json) that is not a baseline and that this server did not write, so it is left as it is. Call visual_update_baseline again with another name or baselineDir."},
		VisualMismatch:        {VisualMismatch, 417, true, "The image differs from the baseline more than the threshold allows: look at details.diff_path and details.actual_path. Fix the UI, mask regions that change on every run, or accept the change with visual_update_baseline {confirm:true}."},
		VisualEnvMismatch:     {VisualEnvMismatch, 409, false, "The baseline was taken in another environment (browser version, device scale or viewport; details.baseline vs details.current), so pixels cannot be compared honestly. Compare in the baseline's environment, or take a new baseline here with visual_update_baseline {confirm:true}."},
		VisualSizeMismatch:    {VisualSizeMismatch, 409, false, "The capture and the baseline have different pixel sizes (details). Capture the same region (window size, element, clip), or take a new baseline with visual_update_baseline {confirm:true}."},
		ImageInvalid:          {ImageInvalid, 422, false, "The file is not a readable PNG (corrupt or another format). Take a new baseline with visual_update_baseline {confirm:true}."},
		A11yEngineMissing:     {A11yEngineMissing, 424, false, "axe-core is not installed where the operator said. Install it (npm ci in internal/a11y/engine, or npm install axe-core) and start the server with --axe-core PATH/axe.min.js or UNDERSTUDY_AXE_CORE=PATH."},
		A11yUnknownRule:       {A11yUnknownRule, 400, false, "axe-core has no rule with that id (details.unknown). Use ids from details.known, or filter by tags instead."},
	}
})

// Lookup returns the registry entry of a code.
func Lookup(c Code) (Entry, bool) {
	e, ok := registry()[c]
	return e, ok
}

// Codes returns every registered code, sorted.
func Codes() []Code {
	out := make([]Code, 0, len(registry()))
	for c := range registry() {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Error is a failure with a registered code. Message says what happened;
// Hint (when set) replaces the registry's hint; Details, NextActions and
// SimilarRefs go to the agent as they are.
type Error struct {
	Code        Code
	Message     string
	Hint        string
	NextActions []string
	Details     map[string]any
	SimilarRefs []any
	Err         error // the cause, if any; not shown to agents beyond Message
}

// Error implements error.
func (e *Error) Error() string {
	if e.Err != nil && e.Message == "" {
		return string(e.Code) + ": " + e.Err.Error()
	}
	return string(e.Code) + ": " + e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Message == ""
}

// New returns an error with a code and a formatted message. It panics on an
// unregistered code, so a typo fails in tests rather than reaching an agent.
func New(c Code, format string, args ...any) *Error {
	if _, ok := registry()[c]; !ok {
		panic(fmt.Sprintf("errs: unregistered code %q", c))
	}
	return &Error{Code: c, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an error with a code whose message is msg plus the cause.
func Wrap(c Code, err error, msg string) *Error {
	e := New(c, "%s: %v", msg, err)
	e.Err = err
	return e
}

// BadArg returns a BAD_ARGUMENT error that names the field.
func BadArg(field, format string, args ...any) *Error {
	e := New(BadArgument, "%s: %s", field, fmt.Sprintf(format, args...))
	e.Details = map[string]any{"field": field}
	return e
}

// With sets a detail and returns e.
func (e *Error) With(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

// CopyOf returns err as an *Error to amend (its message, hint, details)
// without touching err: a copy of its coded error with details of its own,
// or INTERNAL_ERROR wrapping err with what (an error without a code).
func CopyOf(err error, what string) *Error {
	e := As(err)
	if e == nil {
		w := Wrap(Internal, err, what)
		w.Details = map[string]any{}
		return w
	}
	c := *e
	c.Details = make(map[string]any, len(e.Details)+2)
	for k, v := range e.Details {
		c.Details[k] = v
	}
	return &c
}

// As returns the first *Error in err's chain, or nil.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// CodeOf returns the code of err, or INTERNAL_ERROR when it has none.
func CodeOf(err error) Code {
	if e := As(err); e != nil {
		return e.Code
	}
	return Internal
}

// Kind returns a sentinel with only a code, for errors.Is(err, errs.Kind(c)).
func Kind(c Code) error { return &Error{Code: c} }

// OrInternal is err from a protocol call as a tool reports it: as it is
// when it already carries a code or ctx has ended (the caller's context
// decides those), else INTERNAL, saying what was being done.
func OrInternal(ctx context.Context, err error, what string) error {
	if As(err) != nil || ctx.Err() != nil {
		return err
	}
	return Wrap(Internal, err, what)
}

// FromContext is the one way to turn a context that ended into a coded
// error. what says what was being waited for ("Runtime.evaluate got no
// reply", "waiting for the load event"). A deadline becomes onDeadline
// (CDP_TIMEOUT for a protocol reply, OPERATION_TIMEOUT for a tool call's own
// budget, WAIT_TIMEOUT for a wait the agent asked for); a cancellation
// (the client gave up, or the server's backstop fired) becomes
// OPERATION_TIMEOUT. The context's error stays in the chain, so
// errors.Is(err, context.DeadlineExceeded) still holds. nil when ctx has
// not ended.
func FromContext(ctx context.Context, onDeadline Code, what string) error {
	err := ctx.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return Wrap(onDeadline, err, what)
	default:
		return Wrap(OperationTimeout, err, what+" (cancelled)")
	}
}

// Quote quotes a value a message names (a URL, a path, text a page showed),
// cut to 80 characters so that a message never carries a page's whole text.
func Quote(s string) string {
	return strconv.Quote(ClipRunes(s, 80))
}

// ClipRunes is s cut to n characters, with an ellipsis when it was longer.
func ClipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
