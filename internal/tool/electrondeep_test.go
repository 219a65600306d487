package tool

import (
	"strings"
	"testing"
	"time"
)

// TestIPCInvokeAndMenuOnStandIn: on the Node stand-in's electron module
// (stand-in, unverified on real Electron), ipc_invoke calls a handler the
// app registered, as the focused window would; native_menu reads the
// application menu; native_menu_invoke runs an item's click (the app sees
// it) and toggles a checkbox; bad channels and paths are coded.
func TestIPCInvokeAndMenuOnStandIn(t *testing.T) {
	e := newEnv(t, Config{AllowEvalMain: true})
	pid := num(e.launchStandIn(nil, e.app.URL("a.test", "/index.html"))["pid"])
	// The app's own code, as its main.js would run it.
	e.ok("electron_eval_main", map[string]any{"code": `
		const { ipcMain, Menu } = require('electron');
		globalThis.__clicks = [];
		ipcMain.handle('add', (event, a, b) => ({ sum: a + b, sender: event.sender && event.sender.id }));
		ipcMain.handle('boom', () => { throw new Error('disk full'); });
		Menu.setApplicationMenu(Menu.buildFromTemplate([
			{ label: 'File', submenu: [
				{ label: 'Save', id: 'save', accelerator: 'CmdOrCtrl+S', click: (item, win) => __clicks.push('save:' + (win ? win.id : 'none')) },
				{ type: 'separator' },
				{ label: 'Export', enabled: false, click: () => __clicks.push('export') },
				{ role: 'quit' },
			] },
			{ label: 'View', submenu: [{ label: 'Dark Mode', type: 'checkbox', checked: false, click: () => __clicks.push('dark') }] },
		]));
		return true`})
	inv := e.ok("ipc_invoke", map[string]any{"channel": "add", "args": []any{2, 40}})
	if toJSON(inv["result"]) != `{"sender":1,"sum":42}` {
		t.Fatalf("ipc_invoke: %v", inv)
	}
	f := e.fails("ipc_invoke", map[string]any{"channel": "nope"}, "IPC_NO_HANDLER")
	if !strings.Contains(toJSON(f["details"]), `"add"`) {
		t.Errorf("no handler: %v", f)
	}
	f = e.fails("ipc_invoke", map[string]any{"channel": "boom"}, "IPC_INVOKE_FAILED")
	if !strings.Contains(toJSON(f), "disk full") {
		t.Errorf("handler threw: %v", f)
	}
	e.fails("ipc_invoke", map[string]any{"channel": ""}, "BAD_ARGUMENT")

	m := e.ok("native_menu", nil)
	js := toJSON(m["menu"])
	for _, want := range []string{`"label":"File"`, `"accelerator":"CmdOrCtrl+S"`, `"id":"save"`, `"role":"quit"`, `"type":"checkbox"`, `"enabled":false`} {
		if !strings.Contains(js, want) {
			t.Errorf("menu lacks %s: %s", want, js)
		}
	}
	it := e.ok("native_menu_item", map[string]any{"path": []string{"View", "Dark Mode"}})
	if it["found"] != true || it["item"].(map[string]any)["checked"] != false {
		t.Errorf("menu item: %v", it)
	}
	if it := e.ok("native_menu_item", map[string]any{"path": []string{"File", "Nope"}}); it["found"] != false {
		t.Errorf("missing item: %v", it)
	}
	if x := e.ok("native_menu_invoke", map[string]any{"id": "save"}); x["invoked"] != true || x["label"] != "Save" {
		t.Errorf("invoke save: %v", x)
	}
	if x := e.ok("native_menu_invoke", map[string]any{"path": []string{"View", "Dark Mode"}}); x["invoked"] != true || x["checked"] != true {
		t.Errorf("invoke checkbox: %v", x)
	}
	for path, reason := range map[string]string{"File/Export": "disabled", "File": "submenu", "File/Nope": "not_found"} {
		x := e.ok("native_menu_invoke", map[string]any{"path": strings.Split(path, "/")})
		if x["invoked"] != false || x["reason"] != reason {
			t.Errorf("%s: %v", path, x)
		}
	}
	// The app's own handlers saw exactly the two clicks, with the focused window.
	clicks := e.ok("electron_eval_main", map[string]any{"code": "__clicks"})
	if toJSON(clicks["result"]) != `["save:1","dark"]` {
		t.Errorf("the app saw: %v", clicks["result"])
	}
	if it := e.ok("native_menu_item", map[string]any{"path": []string{"view", "Dark Mode"}}); it["found"] != false {
		t.Errorf("labels match exactly: %v", it)
	}
	e.fails("native_menu_invoke", map[string]any{}, "BAD_ARGUMENT")
	e.ok("electron_stop", map[string]any{"timeoutMs": 3000})
	noOrphans(t, pid)
}

// TestIPCNeedsMainEval: without --allow-eval=main, ipc_invoke is a coded
// error saying so (before it looks for a session's inspector).
func TestIPCNeedsMainEval(t *testing.T) {
	e := newEnv(t, Config{})
	e.launch("/index.html")
	f := e.fails("ipc_invoke", map[string]any{"channel": "add"}, "EVAL_REQUIRED")
	if !strings.Contains(f["hint"].(string), "--allow-eval=main") {
		t.Errorf("hint: %v", f)
	}
	for _, name := range []string{"ipc_capture_start", "ipc_captured", "ipc_capture_stop", "ipc_stub"} {
		args := map[string]any{"channels": []string{"add"}, "channel": "add"}
		if name == "ipc_captured" || name == "ipc_capture_stop" {
			args = nil
		}
		if name == "ipc_capture_start" {
			delete(args, "channel")
		}
		if name == "ipc_stub" {
			delete(args, "channels")
		}
		f := e.fails(name, args, "EVAL_REQUIRED")
		if !strings.Contains(toJSON(f), "--allow-eval=main") {
			t.Errorf("%s: %v", name, f)
		}
	}
	e.fails("native_trays", nil, "TRANSPORT_UNSUPPORTED")
	e.fails("native_notifications_start", nil, "TRANSPORT_UNSUPPORTED")
	// Native UI needs the inspector, which a Chromium launch has not.
	e.fails("native_menu", nil, "TRANSPORT_UNSUPPORTED")
}

// BenchmarkIPCInvoke: one ipc_invoke round trip through the dispatcher
// and the main-process inspector on the Node stand-in (target ≤ 5 ms,
// docs/benchmarks.md).
func BenchmarkIPCInvoke(b *testing.B) {
	s := echoStandIn(b, Config{AllowEvalMain: true})
	dispatchOK(b, s, "ipc_invoke", map[string]any{"channel": "echo", "args": []any{1}}, nil)
	var ds []time.Duration
	for b.Loop() {
		t0 := time.Now()
		dispatchOK(b, s, "ipc_invoke", map[string]any{"channel": "echo", "args": []any{"hello"}}, nil)
		ds = append(ds, time.Since(t0))
	}
	b.ReportMetric(medianMS(ds), "median-ms")
	dispatchOK(b, s, "electron_stop", map[string]any{"timeoutMs": 3000}, nil)
}
