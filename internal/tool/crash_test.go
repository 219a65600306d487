//go:build unix

package tool

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
)

// waitState polls electron_status until the only session reaches state.
func (e *env) waitState(state string) map[string]any {
	e.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		st := e.ok("electron_status", nil)
		if ss, _ := st["sessions"].([]any); len(ss) == 1 {
			if x := ss[0].(map[string]any); x["state"] == state {
				return x
			}
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("no session reached state %s: %v", state, st)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestMainProcessCrashAndRelaunch: the stand-in's main process exits with
// status 7 after writing to stderr. The session says crashed with the exit
// code and the last stderr lines; every later call is APP_CRASHED (not
// retryable); electron_launch {relaunch:true} starts it again with the same
// arguments; a stop is not a crash.
func TestMainProcessCrashAndRelaunch(t *testing.T) {
	e := newEnv(t, Config{AllowEvalMain: true})
	electron, mainJS, err := fixture.WriteElectronStandIn(t.TempDir(), e.chrome)
	if err != nil {
		t.Fatal(err)
	}
	r := e.ok("electron_launch", map[string]any{"main": mainJS, "electronPath": electron, "args": []string{e.app.URL("a.test", "/second.html")}})
	old := r["session_id"].(string)
	e.ok("electron_eval_main", map[string]any{"code": "process.stderr.write('fatal: the database is gone\\n'); setTimeout(() => process.exit(7), 100); 'bye'"})
	x := e.waitState("crashed")
	crash := x["crash"].(map[string]any)
	if num(crash["exit_code"]) != 7 || !strings.Contains(toJSON(crash["stderr_tail"]), "fatal: the database is gone") {
		t.Fatalf("crash: %v", x)
	}
	if !strings.Contains(x["note"].(string), "relaunch") {
		t.Errorf("note: %v", x["note"])
	}
	f := e.fails("electron_snapshot", nil, "APP_CRASHED")
	if f["retryable"] != false || !strings.Contains(f["hint"].(string), "relaunch") {
		t.Errorf("APP_CRASHED envelope: %v", f)
	}
	d := f["details"].(map[string]any)
	if num(d["exit_code"]) != 7 || !strings.Contains(toJSON(d["stderr_tail"]), "database is gone") {
		t.Errorf("details: %v", d)
	}
	e.fails("electron_eval_main", map[string]any{"code": "1"}, "APP_CRASHED")
	e.fails("electron_windows_list", nil, "APP_CRASHED")

	r2 := e.ok("electron_launch", map[string]any{"relaunch": true})
	if r2["relaunched_from"] != old || r2["replaced_dead_session"] != old || r2["launch_mode"] != "dev" || r2["renderer_ready"] != true {
		t.Fatalf("relaunch: %v", r2)
	}
	w := e.ok("electron_windows_list", nil)
	if !strings.Contains(toJSON(w), "/second.html") { // the same arguments: the same page
		t.Errorf("relaunched app shows: %v", w)
	}
	if m := e.ok("electron_eval_main", map[string]any{"code": "1+1"}); num(m["result"]) != 2 {
		t.Errorf("eval_main after relaunch: %v", m)
	}
	e.fails("electron_launch", map[string]any{"relaunch": true}, "BAD_ARGUMENT") // nothing ended
	e.fails("electron_launch", map[string]any{"relaunch": true, "main": mainJS}, "BAD_ARGUMENT")
	pid := num(r2["pid"])
	e.ok("electron_stop", map[string]any{"timeoutMs": 3000})
	noOrphans(t, pid)
}

// TestKilledBrowserIsACrash: a launched browser killed by SIGKILL is a
// crash with the signal; electron_stop then cleans up.
func TestKilledBrowserIsACrash(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.launch("/index.html")
	killGroupNow(t, num(r["pid"]))
	x := e.waitState("crashed")
	if x["crash"].(map[string]any)["signal"] != "SIGKILL" {
		t.Fatalf("crash: %v", x)
	}
	f := e.fails("electron_click", map[string]any{"selector": "button"}, "APP_CRASHED")
	if f["details"].(map[string]any)["signal"] != "SIGKILL" {
		t.Errorf("details: %v", f)
	}
	s := e.ok("electron_stop", nil)
	if s["action"] != "cleaned_up" {
		t.Errorf("stop: %v", s)
	}
}

// TestRendererCrashClosesItsSurfaces: Page.crash kills the window's
// renderer (as a renderer crash does). Its surface becomes a tombstone
// with the reason, electron_console_logs has the crash, the session stays
// alive, and loading a page again revives the surface.
func TestRendererCrashClosesItsSurfaces(t *testing.T) {
	e := newEnv(t, Config{})
	e.launch("/index.html")
	list := e.ok("electron_surfaces_list", nil)
	root := list["surfaces"].([]any)[0].(map[string]any)
	sid := root["id"].(string)
	sess := e.srv.sessions.List()[0]
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	win := sess.Surfaces.ActiveWindow()
	conn, err := sess.Pool.Conn(ctx, win)
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = conn.Call(ctx, "Page.crash", nil, nil) }() // no reply comes: the renderer is gone
	deadline := time.Now().Add(20 * time.Second)
	var logs map[string]any
	for {
		logs = e.ok("electron_console_logs", map[string]any{"type": "error"})
		if strings.Contains(toJSON(logs), `"source":"crash"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no crash entry in the console logs: %v", logs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var entry map[string]any
	for _, x := range logs["entries"].([]any) {
		if m := x.(map[string]any); m["source"] == "crash" {
			entry = m
		}
	}
	if entry["surface_id"] != sid || entry["target_id"] != win {
		t.Errorf("crash entry: %v (want surface %s, target %s)", entry, sid, win)
	}
	f := e.fails("electron_switch_surface", map[string]any{"surfaceId": sid}, "SURFACE_CLOSED")
	if !strings.Contains(toJSON(f), "renderer ended") {
		t.Errorf("SURFACE_CLOSED: %v", f)
	}
	if x := e.waitStateOK(); x["state"] != "running" {
		t.Errorf("a renderer crash is not an app crash: %v", x)
	}
	// A new document revives it.
	_ = conn.Call(ctx, "Page.navigate", map[string]any{"url": e.app.URL("a.test", "/second.html")}, nil)
	deadline = time.Now().Add(20 * time.Second)
	for {
		r := e.call("electron_switch_surface", map[string]any{"surfaceId": sid})
		if r["ok"] == true {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the surface did not come back after a navigation: %v", r)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitStateOK returns the only session's status entry.
func (e *env) waitStateOK() map[string]any {
	st := e.ok("electron_status", nil)
	return st["sessions"].([]any)[0].(map[string]any)
}
