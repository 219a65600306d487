package tool

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/fixture"

	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

func TestLaunchWindowsNavigateStop(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.launch("/index.html")
	if r["transport"] != "cdp" || r["renderer_ready"] != true || r["session_id"] == "" {
		t.Fatalf("launch result: %v", r)
	}
	pid := num(r["pid"])
	w := e.ok("electron_windows_list", nil)
	wins, _ := w["windows"].([]any)
	if len(wins) != 1 {
		t.Fatalf("want 1 window, got %v", w)
	}
	win := wins[0].(map[string]any)
	if win["title"] != "Top" || !strings.Contains(win["url"].(string), "a.test") || win["surface_id"] == "" {
		t.Fatalf("window: %v", win)
	}
	if w["active_window_id"] != win["id"] {
		t.Fatalf("active window %v, want %v", w["active_window_id"], win["id"])
	}
	n := e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/second.html")})
	if n["title"] != "Second" {
		t.Fatalf("navigate: %v", n)
	}
	st := e.ok("electron_status", nil)
	if ss, _ := st["sessions"].([]any); len(ss) != 1 {
		t.Fatalf("status: %v", st)
	}
	info := e.ok("electron_info", nil)
	if info["runtime"] != "chromium" || info["capabilities"] == nil {
		t.Fatalf("info: %v", info)
	}
	s := e.ok("electron_stop", nil)
	if s["escalated"] != false {
		t.Fatalf("stop escalated: %v", s)
	}
	noOrphans(t, pid)
	e.fails("electron_windows_list", nil, "NOT_RUNNING")
}

func TestForceKillLeavesNoOrphan(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.launch("/index.html")
	pid := num(r["pid"])
	e.ok("electron_force_kill", nil)
	noOrphans(t, pid)
}

// TestDetachedLaunchEndsWithServer: a launched app whose session was
// detached runs on, and the server's exit still ends it (what we launch we
// end).
func TestDetachedLaunchEndsWithServer(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.launch("/index.html")
	pid := num(r["pid"])
	d := e.ok("electron_detach", nil)
	if d["app_left_running"] != true || d["ends_with_server"] != true {
		t.Fatalf("detach: %v", d)
	}
	if !browser.PIDAlive(pid) {
		t.Fatalf("the detached app is not running")
	}
	e.srv.Close()
	noOrphans(t, pid)
}

func TestCrashIsNoticed(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.launch("/index.html")
	pid := num(r["pid"])
	if err := browser.KillPID(pid); err != nil {
		t.Fatal(err)
	}
	noOrphans(t, pid)
	deadline := time.Now().Add(5 * time.Second)
	for {
		st := e.ok("electron_status", nil)
		ss := st["sessions"].([]any)
		if len(ss) == 1 && ss[0].(map[string]any)["alive"] == false {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("crash not noticed: %v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// A tool on the dead session fails with a transport code, not a hang.
	m := e.call("electron_windows_list", nil)
	if m["ok"] != false {
		t.Fatalf("windows on a crashed app: %v", m)
	}
	e.ok("electron_stop", nil) // cleans up the dead session
}

func TestAttachToRunningChromium(t *testing.T) {
	e := newEnv(t, Config{})
	b := chromiumtest.Start(t.Context(), t)
	r := e.ok("electron_attach", map[string]any{"port": b.Port})
	if r["launch_mode"] != "attach" || len(r["windows"].([]any)) == 0 {
		t.Fatalf("attach: %v", r)
	}
	e.ok("electron_windows_list", nil)
	e.ok("electron_detach", nil)
	if len(browser.LiveGroupMembers(b.PID)) == 0 {
		t.Fatal("detach ended the user's browser")
	}
	// Attach again by URL, then let the server close: the browser stays.
	e.ok("electron_attach", map[string]any{"cdpUrl": b.HTTPURL})
	e.srv.Close()
	time.Sleep(200 * time.Millisecond)
	if len(browser.LiveGroupMembers(b.PID)) == 0 {
		t.Fatal("server exit ended an attached browser")
	}
}

func TestDevLaunchStandIn(t *testing.T) {
	e := newEnv(t, Config{AllowEvalMain: true})
	dir := t.TempDir()
	electron, mainJS, err := fixture.WriteElectronStandIn(dir, e.chrome)
	if err != nil {
		t.Fatal(err)
	}
	r := e.ok("electron_launch", map[string]any{"main": mainJS, "electronPath": electron, "args": []string{e.app.URL("a.test", "/second.html")}})
	if r["launch_mode"] != "dev" || !strings.HasPrefix(r["inspector_url"].(string), "ws://127.0.0.1:") {
		t.Fatalf("dev launch: %v", r)
	}
	pid := num(r["pid"])
	e.ok("electron_windows_list", nil)
	// The main process answers through its Node inspector, require included.
	m := e.ok("electron_eval_main", map[string]any{"code": "require('os').platform() + ' ' + typeof process.versions.node"})
	if m["result"] != "linux string" {
		t.Fatalf("eval_main: %v", m)
	}
	e.fails("electron_eval_main", map[string]any{"code": "throw new Error('boom')"}, "EVAL_RUNTIME_ERROR")
	e.fails("electron_eval_main", map[string]any{"code": "let = ;"}, "EVAL_SYNTAX_ERROR")
	e.ok("electron_stop", map[string]any{"timeoutMs": 3000})
	noOrphans(t, pid)
}

func TestBadInput(t *testing.T) {
	e := newEnv(t, Config{})
	cases := []struct {
		tool  string
		args  map[string]any
		code  string
		field string
	}{
		{"electron_launch", map[string]any{"executablePath": "/nope/not/here"}, "FILE_NOT_FOUND", ""},
		{"electron_launch", map[string]any{"executablePath": 42}, "BAD_ARGUMENT", "executablePath"},
		{"electron_launch", map[string]any{"executablePath": e.chrome, "args": "--x"}, "BAD_ARGUMENT", "args"},
		{"electron_launch", map[string]any{"executablePath": e.chrome, "args": []string{"--remote-debugging-port=9222"}}, "BAD_ARGUMENT", "args"},
		{"electron_launch", map[string]any{"executablePath": e.chrome, "env": map[string]string{"NODE_OPTIONS": "--x"}}, "BAD_ARGUMENT", "env.NODE_OPTIONS"},
		{"electron_launch", map[string]any{"executablePath": e.chrome, "bogus": 1}, "BAD_ARGUMENT", "bogus"},
		{"electron_attach", map[string]any{"port": 9222, "host": "10.0.0.1"}, "BAD_ARGUMENT", "host"},
		{"electron_attach", map[string]any{"cdpUrl": "http://example.com:9222"}, "REMOTE_NOT_ALLOWED", "cdpUrl"},
		{"electron_attach", map[string]any{"port": "9222"}, "BAD_ARGUMENT", "port"},
		{"electron_attach", map[string]any{}, "BAD_ARGUMENT", "port"},
		{"electron_attach", map[string]any{"port": 1}, "NOT_RUNNING", ""},
		{"electron_windows_list", map[string]any{}, "NOT_RUNNING", ""},
		{"electron_windows_list", map[string]any{"sessionId": "s99"}, "NOT_RUNNING", ""},
		{"electron_discover_running", map[string]any{"ports": []int{0}}, "BAD_ARGUMENT", "ports"},
	}
	for _, c := range cases {
		m := e.fails(c.tool, c.args, c.code)
		if c.field != "" {
			d, _ := m["details"].(map[string]any)
			if d["field"] != c.field {
				t.Errorf("%s %v: field %v, want %s (%v)", c.tool, c.args, d["field"], c.field, m["error"])
			}
		}
	}
	// With a session open, an unknown sessionId lists the open ones.
	e.launch("/second.html")
	m := e.fails("electron_windows_list", map[string]any{"sessionId": "nope"}, "NOT_RUNNING")
	if !strings.Contains(m["error"].(string), "s") {
		t.Fatalf("unknown session error: %v", m)
	}
	e.fails("electron_launch", map[string]any{"executablePath": e.chrome}, "ALREADY_RUNNING")
	e.ok("electron_stop", nil)
}

func TestDiscoverFindsLaunchedBrowser(t *testing.T) {
	e := newEnv(t, Config{})
	b := chromiumtest.Start(t.Context(), t)
	// A browser that has just printed its DevTools line may not answer a
	// probe yet on a loaded machine: look again for a while.
	deadline := time.Now().Add(15 * time.Second)
	for {
		r := e.ok("electron_discover_running", map[string]any{"ports": []int{b.Port, 1}})
		eps := r["endpoints"].([]any)
		if len(eps) == 1 && num(eps[0].(map[string]any)["port"]) == b.Port {
			break
		}
		if len(eps) > 1 || time.Now().After(deadline) {
			t.Fatalf("discover: %v", r)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestEvalMainNeedsAnInspector(t *testing.T) {
	e := newEnv(t, Config{AllowEvalMain: true, AllowEvalRenderer: true})
	e.launch("/second.html")
	e.fails("electron_eval_main", map[string]any{"code": "1"}, "TRANSPORT_UNSUPPORTED")
	if r := e.ok("electron_eval_renderer", map[string]any{"code": "return document.title + arg", "arg": "!"}); r["result"] != "Second!" {
		t.Fatalf("renderer eval with arg: %v", r)
	}
	if r := e.ok("electron_eval_renderer", map[string]any{"code": "(a) => a * 2", "arg": 21}); num(r["result"]) != 42 {
		t.Fatalf("function form: %v", r)
	}
	if r := e.ok("electron_eval_renderer", map[string]any{"code": "new Promise(r => setTimeout(() => r('late'), 20))"}); r["result"] != "late" {
		t.Fatalf("promise: %v", r)
	}
	e.fails("electron_eval_renderer", map[string]any{"code": "while (true) {}", "timeoutMs": 300}, "EVAL_TIMEOUT")
	e.fails("electron_eval_renderer", map[string]any{"code": "", "timeoutMs": 300}, "BAD_ARGUMENT")
	// The page still answers after a timed-out eval.
	e.ok("electron_eval_renderer", map[string]any{"code": "1"})
}

func TestInjectIntoRunningNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is needed: apt-get install -y nodejs")
		}
		t.Skip("no node (CI is not true, so skipped)")
	}
	e := newEnv(t, Config{AllowEvalMain: true})
	e.launch("/second.html")
	cmd := exec.Command(node, "-e", "globalThis.answer = 42; setInterval(() => {}, 1000); console.log('ready')")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	// Node has installed its SIGUSR1 handler once the script runs.
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("node did not start: %q %v", line, err)
	}
	r := e.ok("electron_inject", map[string]any{"pid": cmd.Process.Pid})
	if !strings.HasPrefix(r["inspector_url"].(string), "ws://127.0.0.1:9229/") {
		t.Fatalf("inject: %v", r)
	}
	if m := e.ok("electron_eval_main", map[string]any{"code": "globalThis.answer"}); num(m["result"]) != 42 {
		t.Fatalf("eval in the injected process: %v", m)
	}
	e.fails("electron_inject", map[string]any{"pid": 0}, "BAD_ARGUMENT")
}

// TestStopLeavesAttachedAppRunning: electron_stop on an attached app only
// disconnects (the browser keeps its page and answers a new attach); with
// closeApp:true it closes the browser.
func TestStopLeavesAttachedAppRunning(t *testing.T) {
	e := newEnv(t, Config{})
	b := chromiumtest.Start(t.Context(), t)
	pageURL := e.app.URL("a.test", "/index.html")
	if _, err := b.NewPage(t.Context(), pageURL); err != nil {
		t.Fatal(err)
	}
	e.ok("electron_attach", map[string]any{"port": b.Port})
	r := e.ok("electron_stop", nil)
	if r["action"] != "detached" || r["app_left_running"] != true {
		t.Fatalf("stop of an attached app: %v", r)
	}
	time.Sleep(300 * time.Millisecond)
	if len(browser.LiveGroupMembers(b.PID)) == 0 {
		t.Fatal("stop ended the user's browser")
	}
	targets, err := b.List(t.Context())
	if err != nil {
		t.Fatalf("the browser no longer answers: %v", err)
	}
	found := false
	for _, tg := range targets {
		found = found || tg.URL == pageURL
	}
	if !found {
		t.Fatalf("the user's page is gone: %v", targets)
	}
	e.fails("electron_windows_list", nil, "NOT_RUNNING")

	// Asked to, stop closes it.
	e.ok("electron_attach", map[string]any{"port": b.Port})
	r = e.ok("electron_stop", map[string]any{"closeApp": true})
	if r["action"] != "closed" || r["app_left_running"] != false {
		t.Fatalf("stop closeApp: %v", r)
	}
	noOrphans(t, b.PID)
}

// TestWindowTitlesAreRaw: a title with HTML-special characters is listed and
// matched as the page has it, not as /json/list escapes it.
func TestWindowTitlesAreRaw(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/index.html")
	const title = `Tom & Jerry <"it's">`
	e.eval("document.title = " + jsString(title) + "; true")
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := e.ok("electron_surfaces_list", nil)
		s0 := r["surfaces"].([]any)[0].(map[string]any)
		if s0["title"] == title {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("surface title %q, want %q", s0["title"], title)
		}
		time.Sleep(50 * time.Millisecond)
	}
	r := e.ok("electron_switch_window", map[string]any{"windowTitle": "Tom & Jerry"})
	if w, _ := r["window"].(map[string]any); w["title"] != title {
		t.Fatalf("switch_window: %v", r)
	}
	r = e.ok("electron_windows_list", nil)
	if w := r["windows"].([]any)[0].(map[string]any); w["title"] != title {
		t.Fatalf("windows_list: %v", w)
	}
}

// TestLaunchWaitsUntilLaunchable: while Config.Launchable is open (the
// command has not yet installed its signal handler) a launch starts
// nothing and ends when its context does; once it is closed, the same
// server launches.
func TestLaunchWaitsUntilLaunchable(t *testing.T) {
	launchable := make(chan struct{})
	e := newEnv(t, Config{Launchable: launchable})
	raw, _ := json.Marshal(map[string]any{"executablePath": e.chrome, "args": []string{e.app.URL("a.test", "/")}})
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	var mu sync.Mutex
	var stages []string // browser.Launch reports each stage, "spawned" first
	res := e.srv.Dispatch(ctx, "electron_launch", raw, func(msg string, _, _ float64) {
		mu.Lock()
		defer mu.Unlock()
		stages = append(stages, msg)
	})
	mu.Lock()
	defer mu.Unlock()
	if !res.IsError || res.Code != errs.OperationTimeout {
		t.Fatalf("a held launch answered %s", res.JSON)
	}
	if len(stages) != 0 {
		t.Fatalf("a held launch went on: %q", stages)
	}
	if d := time.Since(start); d < 400*time.Millisecond {
		t.Fatalf("the held launch ended after %v, before its context", d)
	}
	if n := e.srv.Sessions().Len(); n != 0 {
		t.Fatalf("%d sessions after a held launch, want 0", n)
	}
	close(launchable)
	e.launch("/")
}
