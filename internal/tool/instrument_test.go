package tool

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// launchStandIn writes the Node Electron stand-in and launches it through
// electron_launch {main} (a dev launch: the main-process inspector is
// there) with the app's arguments (the first is the first page's URL);
// extra adds launch arguments. It returns the launch result.
func (e *env) launchStandIn(extra map[string]any, args ...string) map[string]any {
	e.t.Helper()
	electron, mainJS, err := fixture.WriteElectronStandIn(e.t.TempDir(), e.chrome)
	if err != nil {
		e.t.Fatal(err)
	}
	launch := map[string]any{"main": mainJS, "electronPath": electron}
	if len(args) > 0 {
		launch["args"] = args
	}
	for k, v := range extra {
		launch[k] = v
	}
	return e.ok("electron_launch", launch)
}

// TestIPCCaptureAndStubOnStandIn: on the Node stand-in's electron module
// (stand-in, unverified on real Electron), ipc_capture_start records
// invokes (args redacted, answer, timing, the sender's webContents and
// surface), send messages, main-to-renderer sends and handlers registered
// after the start; the buffer is bounded and counts what it dropped;
// ipc_stub answers, rejects and delays for a number of calls; bad input is
// coded; ipc_capture_stop puts every handler and method back exactly.
func TestIPCCaptureAndStubOnStandIn(t *testing.T) {
	e := newEnv(t, Config{AllowEvalMain: true})
	pid := num(e.launchStandIn(nil, e.app.URL("a.test", "/index.html"))["pid"])
	e.ok("electron_eval_main", map[string]any{"code": `
		const { ipcMain, webContents } = require('electron');
		globalThis.__pings = [];
		ipcMain.handle('add', (event, a, b) => a + b);
		ipcMain.handle('login', (event, creds) => ({ ok: creds.user === 'ann' }));
		ipcMain.on('ping', (event, x) => __pings.push(x));
		globalThis.__orig = { add: ipcMain._invokeHandlers.get('add'), send: Object.getPrototypeOf(webContents.fromId(1)).send,
			ownHandle: Object.prototype.hasOwnProperty.call(ipcMain, 'handle'), ownEmit: Object.prototype.hasOwnProperty.call(ipcMain, 'emit') };
		return true`})
	st := e.ok("ipc_capture_start", map[string]any{"channels": []string{"add", "login", "late", "ping", "push", "never"},
		"captureSend": true, "captureSendToRenderer": true, "redact": []string{"pin"}, "maxEvents": 6})
	if toJSON(st["wrapped"]) != `["add","login"]` || st["send_to_renderer"] != true {
		t.Fatalf("capture start: %v", st)
	}
	e.fails("ipc_capture_start", map[string]any{"channels": []string{"add"}}, "IPC_ALREADY_CAPTURING")

	if inv := e.ok("ipc_invoke", map[string]any{"channel": "add", "args": []any{2, 40}}); toJSON(inv["result"]) != "42" {
		t.Fatalf("invoke under capture: %v", inv)
	}
	e.ok("ipc_invoke", map[string]any{"channel": "login", "args": []any{map[string]any{"user": "ann", "password": "hunter2", "pin": "1234", "Token": "t"}}})
	e.ok("electron_eval_main", map[string]any{"code": `
		const { ipcMain, webContents } = require('electron');
		ipcMain.handle('late', () => 'registered after the start');
		ipcMain.emit('ping', { sender: webContents.fromId(1) }, 'hello');
		webContents.fromId(1).send('push', { apiKey: 'k', n: 1 });
		return true`})
	e.ok("ipc_invoke", map[string]any{"channel": "late"})
	got := e.ok("ipc_captured", nil)
	evs := got["events"].([]any)
	if len(evs) != 5 || got["dropped"] != float64(0) {
		t.Fatalf("captured: %v", got)
	}
	active := e.ok("electron_surfaces_list", nil)["active_surface_id"]
	add := evs[0].(map[string]any)
	if add["channel"] != "add" || add["type"] != "invoke" || add["direction"] != "renderer_to_main" || toJSON(add["args"]) != "[2,40]" ||
		toJSON(add["answer"]) != "42" || add["ok"] != true || add["webcontents_id"] != float64(1) || add["surface_id"] != active || add["ts"].(float64) <= 0 {
		t.Errorf("add event: %v (active surface %v)", add, active)
	}
	login := toJSON(evs[1].(map[string]any)["args"])
	if strings.Contains(login, "hunter2") || strings.Contains(login, "1234") || strings.Contains(login, `"t"`) || !strings.Contains(login, `"user":"ann"`) {
		t.Errorf("login args not redacted: %s", login)
	}
	kinds := []string{}
	for _, x := range evs {
		m := x.(map[string]any)
		kinds = append(kinds, m["channel"].(string)+":"+m["type"].(string)+":"+m["direction"].(string))
	}
	if strings.Join(kinds, " ") != "add:invoke:renderer_to_main login:invoke:renderer_to_main ping:send:renderer_to_main push:send-to-renderer:main_to_renderer late:invoke:renderer_to_main" {
		t.Errorf("events: %v", kinds)
	}
	if push := toJSON(evs[3].(map[string]any)["args"]); push != `[{"apiKey":"[redacted]","n":1}]` {
		t.Errorf("push args: %s", push)
	}
	if one := e.ok("ipc_captured", map[string]any{"channel": "late"}); one["count"] != float64(1) {
		t.Errorf("one channel: %v", one)
	}
	// The sixth fits, the seventh is dropped and counted.
	e.ok("ipc_invoke", map[string]any{"channel": "add", "args": []any{1, 1}})
	e.ok("ipc_invoke", map[string]any{"channel": "add", "args": []any{1, 2}})
	if got := e.ok("ipc_captured", map[string]any{"since": 0}); got["count"] != float64(6) || got["dropped"] != float64(1) {
		t.Errorf("bounded buffer: count %v dropped %v", got["count"], got["dropped"])
	}

	// Stubs: a value for one call, then the app's handler again.
	e.ok("ipc_stub", map[string]any{"channel": "add", "response": map[string]any{"stubbed": true}, "times": 1})
	if inv := e.ok("ipc_invoke", map[string]any{"channel": "add", "args": []any{1, 2}}); toJSON(inv["result"]) != `{"stubbed":true}` {
		t.Errorf("stubbed answer: %v", inv)
	}
	if inv := e.ok("ipc_invoke", map[string]any{"channel": "add", "args": []any{1, 2}}); toJSON(inv["result"]) != "3" {
		t.Errorf("after times:1 the handler answers: %v", inv)
	}
	e.ok("ipc_stub", map[string]any{"channel": "login", "error": "offline", "delayMs": 200})
	t0 := time.Now()
	f := e.fails("ipc_invoke", map[string]any{"channel": "login", "args": []any{map[string]any{"user": "ann"}}}, "IPC_INVOKE_FAILED")
	if !strings.Contains(toJSON(f), "offline") || time.Since(t0) < 200*time.Millisecond {
		t.Errorf("stubbed error after 200 ms: %v (%s)", f, time.Since(t0))
	}
	if x := e.ok("ipc_stub", map[string]any{"channel": "login", "remove": true}); x["removed"] != true {
		t.Errorf("remove: %v", x)
	}
	if inv := e.ok("ipc_invoke", map[string]any{"channel": "login", "args": []any{map[string]any{"user": "ann"}}}); toJSON(inv["result"]) != `{"ok":true}` {
		t.Errorf("unstubbed: %v", inv)
	}
	e.fails("ipc_stub", map[string]any{"channel": "elsewhere", "response": 1}, "IPC_CHANNEL_NOT_CAPTURED")
	e.fails("ipc_stub", map[string]any{"channel": "never", "response": 1}, "IPC_NO_HANDLER")
	e.fails("ipc_stub", map[string]any{"channel": "add", "response": 1, "error": "x"}, "BAD_ARGUMENT")
	e.fails("ipc_capture_start", map[string]any{"channels": []string{}}, "BAD_ARGUMENT")

	// A stub left in place goes with the capture; everything is put back.
	e.ok("ipc_stub", map[string]any{"channel": "add", "response": 0})
	stop := e.ok("ipc_capture_stop", nil)
	if stop["capturing"] != false || num(stop["count"]) < 6 {
		t.Errorf("stop: %v", stop)
	}
	back := e.ok("electron_eval_main", map[string]any{"code": `
		const { ipcMain, webContents } = require('electron');
		const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
		return { add: ipcMain._invokeHandlers.get('add') === __orig.add, send: Object.getPrototypeOf(webContents.fromId(1)).send === __orig.send,
			handle: own(ipcMain, 'handle') === __orig.ownHandle, emit: own(ipcMain, 'emit') === __orig.ownEmit,
			late: typeof ipcMain._invokeHandlers.get('late') === 'function', state: globalThis.__understudyMain.ipc === null }`})
	if toJSON(back["result"]) != `{"add":true,"emit":true,"handle":true,"late":true,"send":true,"state":true}` {
		t.Errorf("not restored: %v", back["result"])
	}
	if inv := e.ok("ipc_invoke", map[string]any{"channel": "add", "args": []any{1, 2}}); toJSON(inv["result"]) != "3" {
		t.Errorf("after stop the app's handler answers: %v", inv)
	}
	e.fails("ipc_captured", nil, "IPC_NOT_CAPTURING")
	e.fails("ipc_stub", map[string]any{"channel": "add", "response": 1}, "IPC_NOT_CAPTURING")
	e.fails("ipc_capture_stop", nil, "IPC_NOT_CAPTURING")

	// The session's end restores too: start again, stub, stop the session
	// through detach-free means is covered by TestInstrumentationRestoredWhenServerDies.
	e.ok("electron_stop", map[string]any{"timeoutMs": 3000})
	noOrphans(t, pid)
}

// ipcPage is a renderer page of the stand-in that talks to the main
// process through the preload's ipcRenderer: #ask invokes "add", #tell
// sends "note", and what the main process pushes on "pushed" is shown.
// Each answer starts with the click's number, so a fresh answer is told
// from an old one.
const ipcPage = `<!doctype html><html><head><title>IPC</title></head><body>
<h1>IPC</h1>
<button id="ask">Ask main</button> <button id="tell">Tell main</button> <button id="missing">Ask nobody</button>
<p id="answer">none</p>
<p id="pushed">none</p>
<script>
const ipc = window.electronStandIn.ipcRenderer;
document.title = 'IPC ' + new URLSearchParams(location.search).get('w');
let n = 0;
const show = (id, text) => { document.getElementById(id).textContent = text; };
const ask = async (channel, ...args) => {
  const k = ++n;
  try { show('answer', k + ' ' + JSON.stringify(await ipc.invoke(channel, ...args))); }
  catch (e) { show('answer', k + ' error: ' + e.message); }
};
document.getElementById('ask').addEventListener('click', () => ask('add', 2, 40, { pin: '1234' }));
document.getElementById('missing').addEventListener('click', () => ask('missing'));
document.getElementById('tell').addEventListener('click', () => ipc.send('note', { title: document.title, n: ++n }));
ipc.on('pushed', (event, v) => show('pushed', JSON.stringify(v)));
</script></body></html>`

// textSoon waits until the element's text is want.
func (e *env) textSoon(selector, want string) {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, _ := e.ok("electron_get_text", map[string]any{"selector": selector})["text"].(string)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: text %q, want %q", selector, got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRendererIPCOnStandIn: a page in the stand-in talks to the main
// process through the preload's ipcRenderer, carried over a CDP binding
// (stand-in, unverified on real Electron). The agent clicks the page's
// buttons: without a capture the page shows the handler's answer (and a
// rejection for a channel without one); under ipc_capture_start the
// renderer's invoke and send and the main process's webContents.send reply
// are recorded with the sending renderer's surface — in the first window
// and in a second one; ipc_stub changes what the page receives, and after
// the stub is removed, and after the capture stops, the page gets the
// app's handler's answer again.
func TestRendererIPCOnStandIn(t *testing.T) {
	e := newEnv(t, Config{AllowEvalMain: true})
	e.app.Mount("/ipc/", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(ipcPage))
	}))
	page := func(w int) string { return e.app.URL("a.test", "/ipc/page.html?w="+itoa(w)) }
	pid := num(e.launchStandIn(nil, e.app.URL("a.test", "/index.html"))["pid"])
	e.ok("electron_eval_main", map[string]any{"code": `
		const { ipcMain } = require('electron');
		ipcMain.handle('add', (event, a, b) => ({ sum: a + b, wc: event.sender.id, frame: event.senderFrame.url.split('?')[1] }));
		ipcMain.on('note', (event, x) => event.sender.send('pushed', { got: x.n, wc: event.sender.id }));
		return true`})
	e.ok("electron_navigate", map[string]any{"url": page(1)})
	first := e.surfaceByURL("?w=1")

	// No capture: the renderer's invoke reaches the app's handler.
	e.ok("electron_click", map[string]any{"selector": "#ask"})
	e.textSoon("#answer", `1 {"sum":42,"wc":1,"frame":"w=1"}`)
	e.ok("electron_click", map[string]any{"selector": "#missing"})
	e.textSoon("#answer", `2 error: Error invoking remote method 'missing': Error: No handler registered for 'missing'`)
	e.ok("electron_click", map[string]any{"selector": "#tell"})
	e.textSoon("#pushed", `{"got":3,"wc":1}`)

	// Captured: the invoke, the send and the reply the main process pushed.
	e.ok("ipc_capture_start", map[string]any{"channels": []string{"add", "note", "pushed"}, "captureSend": true,
		"captureSendToRenderer": true, "redact": []string{"pin"}})
	e.ok("electron_click", map[string]any{"selector": "#ask"})
	e.textSoon("#answer", `4 {"sum":42,"wc":1,"frame":"w=1"}`)
	e.ok("electron_click", map[string]any{"selector": "#tell"})
	e.textSoon("#pushed", `{"got":5,"wc":1}`)
	got := e.ok("ipc_captured", nil)
	evs := got["events"].([]any)
	if len(evs) != 3 {
		t.Fatalf("captured: %v", got)
	}
	want := []string{
		`add invoke renderer_to_main [2,40,{"pin":"[redacted]"}]`,
		`note send renderer_to_main [{"n":5,"title":"IPC 1"}]`,
		`pushed send-to-renderer main_to_renderer [{"got":5,"wc":1}]`,
	}
	for i, x := range evs {
		m := x.(map[string]any)
		if s := m["channel"].(string) + " " + m["type"].(string) + " " + m["direction"].(string) + " " + toJSON(m["args"]); s != want[i] {
			t.Errorf("event %d: %s, want %s", i, s, want[i])
		}
		if m["webcontents_id"] != float64(1) || m["surface_id"] != first["id"] || m["ok"] != true || m["ts"].(float64) <= 0 {
			t.Errorf("event %d: %v (the page's surface is %v)", i, m, first["id"])
		}
	}
	if add := evs[0].(map[string]any); toJSON(add["answer"]) != `{"frame":"w=1","sum":42,"wc":1}` || add["stubbed"] != nil {
		t.Errorf("the invoke's answer: %v", add)
	}
	last := num(evs[2].(map[string]any)["seq"])

	// A second window: its renderer is told apart by webContents and surface.
	wc := e.ok("electron_eval_main", map[string]any{"code": `const { BrowserWindow } = require('electron');
		const w = new BrowserWindow(); await w.loadURL(` + toJSON(page(2)) + `); return w.webContents.id`})
	if wc["result"] != float64(2) {
		t.Fatalf("second window: %v", wc)
	}
	second := e.surfaceByURL("?w=2")
	if second["id"] == first["id"] {
		t.Fatalf("one surface for two windows: %v", second)
	}
	e.use(second)
	e.ok("electron_click", map[string]any{"selector": "#ask"})
	e.textSoon("#answer", `1 {"sum":42,"wc":2,"frame":"w=2"}`)
	two := e.ok("ipc_captured", map[string]any{"since": last})["events"].([]any)
	if len(two) != 1 || two[0].(map[string]any)["webcontents_id"] != float64(2) || two[0].(map[string]any)["surface_id"] != second["id"] {
		t.Fatalf("the second window's invoke: %v (its surface is %v)", two, second["id"])
	}

	// ipc_invoke as a given surface's renderer: event.sender is that
	// window's webContents.
	e.ok("electron_eval_main", map[string]any{"code": `require('electron').ipcMain.handle('who', (event) => event.sender.id); return true`})
	for _, w := range []struct {
		surface any
		want    float64
	}{{first["id"], 1}, {second["id"], 2}} {
		if r := e.ok("ipc_invoke", map[string]any{"channel": "who", "surfaceId": w.surface}); r["result"] != w.want || r["sender_webcontents_id"] != w.want {
			t.Fatalf("ipc_invoke as %v: %v, want webContents %v", w.surface, r, w.want)
		}
	}
	e.fails("ipc_invoke", map[string]any{"channel": "who", "surfaceId": "nope"}, "SURFACE_NOT_FOUND")

	// A stub answers the page instead of the app's handler, until removed.
	e.ok("ipc_stub", map[string]any{"channel": "add", "response": map[string]any{"stubbed": true}})
	e.ok("electron_click", map[string]any{"selector": "#ask"})
	e.textSoon("#answer", `2 {"stubbed":true}`)
	e.ok("ipc_stub", map[string]any{"channel": "add", "remove": true})
	e.ok("electron_click", map[string]any{"selector": "#ask"})
	e.textSoon("#answer", `3 {"sum":42,"wc":2,"frame":"w=2"}`)
	e.ok("ipc_stub", map[string]any{"channel": "add", "error": "offline"})
	e.ok("electron_click", map[string]any{"selector": "#ask"})
	e.textSoon("#answer", `4 error: Error invoking remote method 'add': Error: offline`)
	stubbed := e.ok("ipc_captured", map[string]any{"channel": "add", "since": last})["events"].([]any)
	if len(stubbed) != 4 || stubbed[1].(map[string]any)["stubbed"] != true || stubbed[2].(map[string]any)["stubbed"] != nil ||
		stubbed[3].(map[string]any)["ok"] != false || stubbed[3].(map[string]any)["exception"] != "offline" {
		t.Errorf("stubbed invokes: %v", stubbed)
	}
	// Stopping the capture takes the stub with it: the handler answers.
	e.ok("ipc_capture_stop", nil)
	e.ok("electron_click", map[string]any{"selector": "#ask"})
	e.textSoon("#answer", `5 {"sum":42,"wc":2,"frame":"w=2"}`)

	e.ok("electron_stop", map[string]any{"timeoutMs": 3000})
	noOrphans(t, pid)
}

// TestNativeNotificationsAndTraysAtLaunch: with electron_launch
// {instrumentNative: true} the fixed hooks run before the app's main, so a
// notification shown at startup and a tray's tooltip and menu set at
// startup are known; native_tray_invoke runs the app's handler; stop
// restores Notification.prototype.show. Stand-in, unverified on real
// Electron.
func TestNativeNotificationsAndTraysAtLaunch(t *testing.T) {
	e := newEnv(t, Config{})
	dir := t.TempDir()
	electron, mainJS, err := fixture.WriteElectronStandIn(dir, e.chrome)
	if err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(dir, "app.js")
	src := `const { Notification, Tray, Menu } = require('electron');
new Notification({ title: 'Started', body: 'at launch', urgency: 'low' }).show();
new Notification({ title: 'Never shown' });
const tray = new Tray('/icon.png');
tray.setToolTip('Stand-in tray');
tray.setContextMenu(Menu.buildFromTemplate([{ label: 'Open', id: 'open' }, { type: 'separator' }, { role: 'quit' }]));
tray.on('click', () => { tray.setToolTip('clicked'); new Notification({ title: 'Tray clicked', body: 'hi' }).show(); });
tray.on('double-click', () => { throw new Error('nope'); });
globalThis.__tray = tray;
require(` + toJSON(mainJS) + `);
`
	if err := os.WriteFile(app, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.ok("electron_launch", map[string]any{"main": app, "electronPath": electron, "instrumentNative": true, "args": []string{e.app.URL("a.test", "/index.html")}})
	pid := num(r["pid"])
	if st := e.ok("native_notifications_start", nil); st["from_launch"] != true {
		t.Fatalf("start: %v", st)
	}
	e.fails("native_notifications_start", nil, "NATIVE_ALREADY_CAPTURING")
	n := e.ok("native_notifications", nil)
	if n["count"] != float64(1) {
		t.Fatalf("startup notification: %v", n)
	}
	first := n["notifications"].([]any)[0].(map[string]any)
	if first["title"] != "Started" || first["body"] != "at launch" || first["urgency"] != "low" || first["before_arm"] != true {
		t.Errorf("startup notification: %v", first)
	}
	tr := e.ok("native_trays", nil)
	if tr["count"] != float64(1) || tr["instrumented_from_launch"] != true {
		t.Fatalf("trays: %v", tr)
	}
	tray := tr["trays"].([]any)[0].(map[string]any)
	menu := toJSON(tray["menu"])
	if tray["tooltip"] != "Stand-in tray" || tray["recorded"] != true || !strings.Contains(menu, `"id":"open"`) || !strings.Contains(menu, `"role":"quit"`) ||
		!strings.Contains(toJSON(tray["events"]), `"click"`) {
		t.Errorf("tray: %v", tray)
	}
	id := num(tray["id"])
	x := e.ok("native_tray_invoke", map[string]any{"id": id, "event": "click"})
	if x["emitted"] != true || x["tray"].(map[string]any)["tooltip"] != "clicked" {
		t.Errorf("tray click: %v", x)
	}
	for ev, reason := range map[string]string{"right-click": "no_listener", "double-click": "handler_threw"} {
		if x := e.ok("native_tray_invoke", map[string]any{"id": id, "event": ev}); x["emitted"] != false || x["reason"] != reason {
			t.Errorf("%s: %v", ev, x)
		}
	}
	if x := e.ok("native_tray_invoke", map[string]any{"id": 999, "event": "click"}); x["reason"] != "not_found" {
		t.Errorf("unknown tray: %v", x)
	}
	e.fails("native_tray_invoke", map[string]any{"id": id, "event": "explode"}, "BAD_ARGUMENT")
	n = e.ok("native_notifications_stop", nil)
	if n["count"] != float64(2) || n["notifications"].([]any)[1].(map[string]any)["before_arm"] != false {
		t.Errorf("after the click: %v", n)
	}
	e.fails("native_notifications", nil, "NATIVE_NOT_CAPTURING")
	// The launch hook went with the stop: a new capture starts afresh
	// (no --allow-eval was needed for any of this).
	if st := e.ok("native_notifications_start", nil); st["from_launch"] != false {
		t.Errorf("restart after stop: %v", st)
	}
	if n := e.ok("native_notifications_stop", nil); n["count"] != float64(0) {
		t.Errorf("nothing shown since: %v", n)
	}
	e.ok("electron_stop", map[string]any{"timeoutMs": 3000})
	noOrphans(t, pid)
	e.fails("electron_launch", map[string]any{"executablePath": e.chrome, "instrumentNative": true}, "BAD_ARGUMENT")
}

// TestNativeOnRunningApp: without launch-time instrumentation, trays made
// before the first native_trays are found on the heap (their tooltip is
// unknown: Electron has no getter) and what the app sets afterwards is
// recorded; notifications are captured from the arm on.
func TestNativeOnRunningApp(t *testing.T) {
	e := newEnv(t, Config{AllowEvalMain: true})
	pid := num(e.launchStandIn(nil)["pid"])
	e.ok("electron_eval_main", map[string]any{"code": `const { Tray, Notification } = require('electron');
		globalThis.__t = new Tray('/i.png'); __t.setToolTip('early'); __t.setTitle('T');
		new Notification({ title: 'before arm' }).show(); true`})
	tr := e.ok("native_trays", nil)
	tray := tr["trays"].([]any)[0].(map[string]any)
	if tr["count"] != float64(1) || tray["tooltip"] != nil || tray["recorded"] != false || tray["title"] != "T" || tr["instrumented_from_launch"] != false {
		t.Fatalf("running app's tray: %v", tr)
	}
	e.ok("electron_eval_main", map[string]any{"code": `__t.setToolTip('later'); true`})
	if tray := e.ok("native_trays", nil)["trays"].([]any)[0].(map[string]any); tray["tooltip"] != "later" || tray["recorded"] != true {
		t.Errorf("tooltip set after the hook: %v", tray)
	}
	if st := e.ok("native_notifications_start", map[string]any{"titleContains": "Saved"}); st["from_launch"] != false {
		t.Errorf("start: %v", st)
	}
	e.ok("electron_eval_main", map[string]any{"code": `const { Notification } = require('electron');
		new Notification({ title: 'Saved file' }).show(); new Notification({ title: 'Other' }).show(); true`})
	n := e.ok("native_notifications", nil)
	if n["count"] != float64(1) || n["notifications"].([]any)[0].(map[string]any)["title"] != "Saved file" {
		t.Errorf("running app's notifications: %v", n)
	}
	e.ok("electron_eval_main", map[string]any{"code": `__t.destroy(); true`})
	if tr := e.ok("native_trays", nil); tr["count"] != float64(0) {
		t.Errorf("a destroyed tray is gone: %v", tr)
	}
	e.ok("electron_stop", map[string]any{"timeoutMs": 3000})
	noOrphans(t, pid)
}

// TestSurfaceKindsFromMainProcess: with the inspector, the stand-in's
// window root is "window" and a WebContentsView added to its content view
// is "webcontents_view", both held by window 1; a Chromium launch (no
// inspector) stays "other" from CDP.
func TestSurfaceKindsFromMainProcess(t *testing.T) {
	e := newEnv(t, Config{AllowEvalMain: true})
	pid := num(e.launchStandIn(nil, e.app.URL("a.test", "/index.html"))["pid"])
	e.ok("electron_eval_main", map[string]any{"code": `const { BrowserWindow, WebContentsView } = require('electron');
		const v = new WebContentsView(); BrowserWindow.getAllWindows()[0].contentView.addChildView(v);
		await v.webContents.loadURL(` + toJSON(e.app.URL("a.test", "/second.html")) + `); return v.webContents.id`})
	var list map[string]any
	deadline := time.Now().Add(15 * time.Second)
	for {
		list = e.ok("electron_surfaces_list", nil)
		if len(list["windows"].([]any)) == 1 && len(list["windows"].([]any)[0].(map[string]any)["surface_ids"].([]any)) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("surfaces: %v", list)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if list["kinds_from"] != "main_process" {
		t.Errorf("kinds_from: %v", list)
	}
	kinds := map[string]string{}
	for _, s := range list["surfaces"].([]any) {
		m := s.(map[string]any)
		if m["parentId"] == nil {
			kinds[m["url"].(string)] = m["kind"].(string)
			if m["window_id"] != float64(1) {
				t.Errorf("window of %v", m)
			}
		}
	}
	if kinds[e.app.URL("a.test", "/index.html")] != "window" || kinds[e.app.URL("a.test", "/second.html")] != "webcontents_view" {
		t.Errorf("kinds: %v", kinds)
	}
	e.ok("electron_stop", map[string]any{"timeoutMs": 3000})
	noOrphans(t, pid)

	e.launch("/index.html")
	if list := e.ok("electron_surfaces_list", nil); list["kinds_from"] != "cdp" || list["surfaces"].([]any)[0].(map[string]any)["kind"] != "other" {
		t.Errorf("without an inspector: %v", list)
	}
}

// BenchmarkIPCCapture: what an IPC capture costs. invoke-ms is one
// ipc_invoke round trip through the dispatcher and the inspector with the
// channel captured (compare BenchmarkIPCInvoke, uncaptured); raw-us and
// captured-us are one handler call inside the main process (2000 awaited
// calls of the _invokeHandlers entry, as Electron makes them) before and
// during a capture, so their difference is the wrapper's cost per message.
func BenchmarkIPCCapture(b *testing.B) {
	s := echoStandIn(b, Config{AllowEvalMain: true})
	const loop = `const h = require('electron').ipcMain._invokeHandlers.get('echo');
		const ev = { sender: require('electron').webContents.fromId(1) };
		for (let i = 0; i < 200; i++) await h(ev, { i, token: 'x' });
		const t0 = process.hrtime.bigint();
		for (let i = 0; i < 2000; i++) await h(ev, { i, token: 'x' });
		return Number(process.hrtime.bigint() - t0) / 2000 / 1000`
	raw, _ := dispatchOK(b, s, "electron_eval_main", map[string]any{"code": loop}, nil)["result"].(float64)
	dispatchOK(b, s, "ipc_capture_start", map[string]any{"channels": []string{"echo"}, "maxEvents": 10000}, nil)
	captured, _ := dispatchOK(b, s, "electron_eval_main", map[string]any{"code": loop}, nil)["result"].(float64)
	dispatchOK(b, s, "ipc_capture_stop", nil, nil)
	dispatchOK(b, s, "ipc_capture_start", map[string]any{"channels": []string{"echo"}, "maxEvents": 10000}, nil)
	var ds []time.Duration
	for b.Loop() {
		t0 := time.Now()
		dispatchOK(b, s, "ipc_invoke", map[string]any{"channel": "echo", "args": []any{"hello"}}, nil)
		ds = append(ds, time.Since(t0))
	}
	b.ReportMetric(medianMS(ds), "invoke-ms")
	b.ReportMetric(raw, "raw-us")
	b.ReportMetric(captured, "captured-us")
	dispatchOK(b, s, "ipc_capture_stop", nil, nil)
	dispatchOK(b, s, "electron_stop", map[string]any{"timeoutMs": 3000}, nil)
}

// echoStandIn starts a server with cfg, launches the Node stand-in through
// electron_launch {main} and registers an "echo" handler in its main
// process (the benchmarks' common set-up).
func echoStandIn(b *testing.B, cfg Config) *Server {
	b.Helper()
	chrome := chromiumtest.Require(b)
	s := New(cfg)
	b.Cleanup(s.Close)
	electron, mainJS, err := fixture.WriteElectronStandIn(b.TempDir(), chrome)
	if err != nil {
		b.Fatal(err)
	}
	dispatchOK(b, s, "electron_launch", map[string]any{"main": mainJS, "electronPath": electron}, nil)
	dispatchOK(b, s, "electron_eval_main", map[string]any{"code": "require('electron').ipcMain.handle('echo', (e, x) => x); true"}, nil)
	return s
}

// BenchmarkRendererIPC: one ipcRenderer.invoke round trip from a page of
// the stand-in (binding → the main process's handler → Runtime.evaluate
// back into the page), timed inside the page: the median of 200 awaited
// invokes, without a capture (plain-us) and with the channel captured
// (captured-us). Stand-in only: it says what the stand-in's transport
// costs, not what Electron's IPC does.
func BenchmarkRendererIPC(b *testing.B) {
	s := echoStandIn(b, Config{AllowEvalMain: true, AllowEvalRenderer: true})
	const loop = `(async () => {
		const ipc = window.electronStandIn.ipcRenderer;
		for (let i = 0; i < 20; i++) await ipc.invoke('echo', { i });
		const ds = [];
		for (let i = 0; i < 200; i++) { const t0 = performance.now(); await ipc.invoke('echo', { i, token: 'x' }); ds.push(performance.now() - t0); }
		ds.sort((a, b) => a - b);
		return Math.round(ds[100] * 1000);
	})()`
	median := func() float64 {
		v, _ := dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": loop, "timeoutMs": 60000}, nil)["result"].(float64)
		return v
	}
	var plain, captured float64
	for b.Loop() {
		plain = median()
	}
	dispatchOK(b, s, "ipc_capture_start", map[string]any{"channels": []string{"echo"}, "maxEvents": 10000}, nil)
	captured = median()
	dispatchOK(b, s, "ipc_capture_stop", nil, nil)
	b.ReportMetric(plain, "plain-us")
	b.ReportMetric(captured, "captured-us")
	dispatchOK(b, s, "electron_stop", map[string]any{"timeoutMs": 3000}, nil)
}
