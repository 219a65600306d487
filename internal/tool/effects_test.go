package tool

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// fingerprintJS is what a read-only call must leave as it was in the
// page: its DOM (every mutation counted by an observer installed before
// the call), URL, scroll position, form values, the events the fixture
// records (click, keydown, input, change, focus), Web Storage and
// cookies.
const fingerprintJS = `(() => {
  if (!window.__fx) {
    const fx = {m: 0};
    fx.o = new MutationObserver((l) => { fx.m += l.length; });
    fx.o.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    window.__fx = fx;
  }
  window.__fx.m += window.__fx.o.takeRecords().length;
  const vals = [...document.querySelectorAll('input,textarea,select')].map((e) => e.type === 'checkbox' || e.type === 'radio' ? e.checked : e.value);
  return JSON.stringify({m: window.__fx.m, href: location.href, x: scrollX, y: scrollY, vals,
    ev: (window.__events || []).length, ls: JSON.stringify(localStorage), ss: JSON.stringify(sessionStorage), ck: document.cookie});
})()`

// filesUnder lists every file under the folders with its size and
// modification time.
func filesUnder(dirs ...string) map[string]string {
	out := map[string]string{}
	for _, d := range dirs {
		_ = filepath.WalkDir(d, func(p string, de fs.DirEntry, err error) error {
			if err != nil || de.IsDir() {
				return nil
			}
			if fi, err := de.Info(); err == nil {
				out[p] = fi.ModTime().String() + "/" + itoa(int(fi.Size()))
			}
			return nil
		})
	}
	return out
}

// TestEffectsHoldOnTheFixture (issue 26) runs every tool once on a fixture
// page and fails when a call did what its Def does not declare: a tool
// declared read-only (Effects.Does kRead) that changed the page, or a tool
// that declares no file effect that wrote or changed a file (in the
// artifacts folder or the test's folder, where every path argument
// points). Every registered tool is either run or named in skipped with
// the reason, so a new tool cannot go unchecked.
func TestEffectsHoldOnTheFixture(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/second.html")
	dir := t.TempDir()
	upload := filepath.Join(dir, "upload.txt")
	if err := os.WriteFile(upload, []byte("upload"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "base"), 0o700); err != nil {
		t.Fatal(err)
	}
	// Controls second.html lacks, and an IndexedDB store, so that the
	// form and storage tools succeed and their checks mean something.
	e.eval(`(async () => {
	  document.body.insertAdjacentHTML('beforeend', '<input type=checkbox id=cb><select id=sel><option>a</option><option>b</option></select>' +
	    '<input type=range id=rng min=0 max=10><input type=file id=file>');
	  await new Promise((ok, bad) => { const r = indexedDB.open('d', 1);
	    r.onupgradeneeded = () => r.result.createObjectStore('s', {autoIncrement: true});
	    r.onsuccess = () => { r.result.close(); ok(); }; r.onerror = bad; });
	  return true;
	})()`)
	url := e.app.URL("a.test", "/second.html")
	top := func() string {
		return e.ok("electron_status", nil)["sessions"].([]any)[0].(map[string]any)["active_surface_id"].(string)
	}
	opened := ""
	trace := filepath.Join(dir, "tr")
	// skipped are the tools this test does not call, and why.
	skipped := map[string]string{
		"electron_launch":     "opens a second session (OpensSession); every test launches",
		"electron_attach":     "opens a second session (OpensSession)",
		"electron_inject":     "signals a pid to open its inspector",
		"electron_stop":       "ends the session (EndsSession): called last, below",
		"electron_force_kill": "ends the session (EndsSession)",
		"electron_detach":     "ends the session (EndsSession)",
	}
	type step struct {
		tool string
		args func() map[string]any
	}
	m := func(kv ...any) func() map[string]any {
		return func() map[string]any {
			out := map[string]any{}
			for i := 0; i+1 < len(kv); i += 2 {
				out[kv[i].(string)] = kv[i+1]
			}
			return out
		}
	}
	steps := []step{
		{"electron_status", m()}, {"electron_info", m()}, {"electron_doctor", m()}, {"electron_plugins", m()},
		{"electron_discover_running", m("ports", []int{1}, "timeoutMs", 200)},
		{"electron_windows_list", m()}, {"electron_surfaces_list", m()},
		{"electron_switch_surface", func() map[string]any { return map[string]any{"surfaceId": top()} }},
		{"electron_switch_window", m("index", 0)},
		{"electron_snapshot", m()}, {"electron_find", m("role", "button")},
		{"electron_elements_list", m("selector", "button")}, {"electron_exists", m("selector", "#btn")},
		{"electron_get_text", m("selector", "#btn")}, {"electron_get_value", m("selector", "#inp")},
		{"electron_get_attribute", m("selector", "#inp", "name", "id")}, {"electron_get_state", m("selector", "#btn")},
		{"electron_get_bbox", m("selector", "#btn")}, {"electron_get_computed_style", m("selector", "#btn", "properties", []string{"color"})},
		{"electron_focused_element", m()}, {"electron_console_logs", m()},
		{"electron_wait", m("ms", 1)}, {"electron_wait_for_selector", m("selector", "#btn")},
		{"electron_wait_for_state", m("selector", "#btn", "state", map[string]any{"visible": true})},
		{"electron_wait_for_event", m("selector", "#btn", "eventName", "click", "timeoutMs", 200)},
		{"electron_expect_text", m("selector", "#btn", "contains", "Click")},
		{"electron_expect_value", m("selector", "#inp", "equals", "")},
		{"electron_expect_visible", m("selector", "#btn")},
		{"electron_expect_state", m("selector", "#btn", "state", map[string]any{"enabled": true})},
		{"electron_expect_count", m("selector", "button", "equals", 1)},
		{"electron_expect_url", m("contains", "second")},
		{"electron_assert_pattern", m("selector", "#btn", "contains", "Click")},
		{"electron_relay_endpoint", m()},
		{"electron_dialog_handler", m()},
		{"electron_screenshot", m("path", filepath.Join(dir, "s.png"), "inlineMaxSide", 0)},
		{"electron_eval_renderer", m("code", "1")},
		{"electron_eval_main", m("code", "1")},
		{"electron_click", m("selector", "#btn")}, {"electron_hover", m("selector", "#btn")},
		{"electron_type", m("selector", "#inp", "text", "hello")},
		{"electron_keyboard_type", m("selector", "#inp", "text", "!")},
		{"electron_type_into_editor", m("selector", "#inp", "text", "x")},
		{"electron_key", m("selector", "#inp", "key", "End")},
		{"electron_press_sequence", m("selector", "#inp", "keys", []string{"Home"})},
		{"electron_clear_input", m("selector", "#inp")},
		{"electron_check", m("selector", "#cb")}, {"electron_uncheck", m("selector", "#cb")},
		{"electron_select_option", m("selector", "#sel", "values", []string{"b"})},
		{"electron_set_value", m("selector", "#rng", "value", "5")},
		{"electron_set_files", m("selector", "#file", "paths", []string{upload})},
		{"electron_drop_file", m("selector", "#btn", "paths", []string{upload})},
		{"electron_drag", m("selector", "#btn", "targetSelector", "#inp", "timeoutMs", 500)},
		{"electron_fill_form", m("fields", []map[string]any{{"selector": "#inp", "value": "filled"}, {"selector": "#cb", "value": true}})},
		{"electron_downloads", m()},
		{"electron_scroll", m("dy", 10)}, {"electron_scroll_into_view", m("selector", "#btn")},
		{"emulation_set", m("colorScheme", "dark")}, {"emulation_reset", m()},
		{"clock_status", m()}, {"clock_install", m()}, {"clock_set_time", m("time", "2026-01-01T00:00:00Z")},
		{"clock_set_system_time", m("time", "2026-01-02T00:00:00Z")}, {"clock_advance", m("ms", 10)},
		{"clock_run_for", m("ms", 10)}, {"clock_pause", m("time", "2026-01-03T00:00:00Z")}, {"clock_resume", m()},
		{"storage_cookies", m()}, {"storage_set_cookie", m("name", "c", "value", "1", "url", url)},
		{"storage_clear_cookies", m("name", "c")}, {"storage_snapshot", m()},
		{"storage_local_keys", m()}, {"storage_local_get", m("key", "k")}, {"storage_local_set", m("key", "k", "value", "v")},
		{"storage_local_remove", m("key", "k")}, {"storage_local_clear", m()},
		{"storage_session_keys", m()}, {"storage_session_get", m("key", "k")}, {"storage_session_set", m("key", "k", "value", "v")},
		{"storage_session_remove", m("key", "k")}, {"storage_session_clear", m()},
		{"storage_idb_schema", m()}, {"storage_idb_count", m("database", "d", "store", "s")},
		{"storage_idb_get", m("database", "d", "store", "s")}, {"storage_idb_keys", m("database", "d", "store", "s")},
		{"storage_idb_set", m("database", "d", "store", "s", "value", 1)}, {"storage_idb_delete", m("database", "d", "store", "s", "key", 1)},
		{"storage_idb_clear", m("database", "d", "store", "s")},
		{"storage_state_export", m("path", filepath.Join(dir, "state.json"))},
		{"storage_state_import", m("path", filepath.Join(dir, "state.json"))},
		{"network_capture_start", m()}, {"network_captured", m()},
		{"network_export_har", m("path", filepath.Join(dir, "n.har"))}, {"network_capture_stop", m()},
		{"network_conditions", m("latencyMs", 1)}, {"network_conditions", m()},
		{"network_stub", m("urls", []string{"http://nowhere.test/x"}, "status", 204)}, {"network_unstub", m("url", "http://nowhere.test/x")},
		{"network_replay_har", m("path", filepath.Join(dir, "n.har"), "urls", []string{"http://nowhere.test/*"})},
		{"network_unstub", m()},
		{"a11y_audit", m()},
		{"visual_capture", m("name", "fx")},
		{"visual_update_baseline", m("name", "fx", "baselineDir", filepath.Join(dir, "base"), "confirm", true)},
		{"visual_expect", m("name", "fx", "baselineDir", filepath.Join(dir, "base"))},
		{"production_validate", m("appPath", dir)},
		{"ipc_invoke", m("channel", "c")}, {"ipc_capture_start", m("channels", []string{"c"})}, {"ipc_captured", m()},
		{"ipc_stub", m("channel", "c", "response", 1)}, {"ipc_capture_stop", m()},
		{"native_menu", m()}, {"native_menu_item", m("id", "x")}, {"native_menu_invoke", m("id", "x")},
		{"native_notifications_start", m()}, {"native_notifications", m()}, {"native_notifications_stop", m()},
		{"native_trays", m()}, {"native_tray_invoke", m("id", 1, "event", "click")},
		{"trace_start", m("path", trace)}, {"trace_status", m()}, {"trace_budget", m()}, {"trace_stop", m()},
		{"trace_tokens", m("path", trace)}, {"trace_view", m("path", trace, "html", true)},
		{"trace_export_playwright", m("path", trace, "out", filepath.Join(dir, "t.spec.ts"))},
		{"trace_promote", m("path", trace)}, {"trace_replay", m("path", trace, "confirm", true)},
		{"electron_window_open", m("url", url)},
		{"electron_window_close", func() map[string]any { return map[string]any{"windowId": opened} }},
		{"electron_navigate", m("url", url+"?n")}, {"electron_go_back", m()}, {"electron_go_forward", m()},
		{"electron_reload", m()},
	}
	run := map[string]bool{}
	okCalls := 0
	for _, st := range steps {
		d, known := e.srv.tools().defs[st.tool]
		if !known {
			if _, exists := allTools(t).tools().defs[st.tool]; !exists {
				t.Errorf("the test names %s, which is no tool", st.tool)
			}
			continue // absent here: its eval gate is closed
		}
		run[st.tool] = true
		before := e.evalString(fingerprintJS)
		// The harness's own evaluations are steps of a trace that is
		// recording, written by the trace's writer up to 50 ms later
		// (trace_start declares them): on disk before the call's files
		// are counted, and the call's counted before the next one.
		flushTrace := func() {
			if rec := e.srv.tracing.Recorder(); rec != nil {
				rec.Flush()
			}
		}
		flushTrace()
		filesBefore := filesUnder(dir, e.srv.cfg.ArtifactsDir)
		start := time.Now()
		res := e.call(st.tool, st.args())
		flushTrace()
		filesAfter := filesUnder(dir, e.srv.cfg.ArtifactsDir)
		if st.tool == "electron_window_open" {
			opened, _ = res["window_id"].(string)
			e.ok("electron_switch_window", map[string]any{"index": 0})
		}
		if res["ok"] == true {
			okCalls++
		}
		t.Logf("%s: ok %v %v (%s)", st.tool, res["ok"], res["code"], time.Since(start).Round(time.Millisecond))
		after := e.evalString(fingerprintJS)
		if d.Effects.Does == kRead && before != after {
			t.Errorf("%s is declared read-only (kRead) but changed the page:\nbefore %s\nafter  %s", st.tool, before, after)
		}
		if !d.Effects.usesFiles() {
			var changed []string
			for p, v := range filesAfter {
				if filesBefore[p] != v {
					changed = append(changed, p)
				}
			}
			sort.Strings(changed)
			if len(changed) > 0 {
				t.Errorf("%s declares no file effect but wrote %s", st.tool, strings.Join(changed, ", "))
			}
		}
	}
	for _, n := range e.srv.Names() {
		if !run[n] && skipped[n] == "" {
			t.Errorf("%s is neither run by this test nor skipped with a reason", n)
		}
	}
	// Of what runs here, most must succeed for the checks to mean
	// anything: the fixture page has what they need.
	if okCalls < len(steps)*2/3 {
		t.Errorf("only %d of %d calls succeeded; the checks above prove little", okCalls, len(steps))
	}
	if r := e.ok("electron_stop", nil); r["action"] == nil {
		t.Errorf("stop: %v", r)
	}
}
