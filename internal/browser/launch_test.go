//go:build linux

package browser

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// waitPage polls /json/list until a page target appears.
func waitPage(t *testing.T, ctx context.Context, ep Endpoint) []Target {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ts, err := ListTargets(ctx, ep)
		if err != nil {
			t.Fatalf("ListTargets: %v", err)
		}
		if slices.ContainsFunc(ts, func(t Target) bool { return t.Type == "page" }) {
			return ts
		}
		if time.Now().After(deadline) {
			t.Fatalf("no page target in %+v", ts)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestLaunchChromiumAndStopGracefully(t *testing.T) {
	exe := requireChromium(t)
	ctx := t.Context()
	var stages stageLog
	p, err := Launch(ctx, LaunchOptions{
		ExecutablePath: exe,
		Progress:       stages.add,
	})
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	t.Cleanup(func() { _ = p.Kill() })
	pipe := outputPipe(t, p)

	if got := strings.Join(stages.list(), ","); got != "spawned,devtools-endpoint" {
		t.Errorf("stages %q", got)
	}
	ep := p.Endpoint
	if ep.Host != "127.0.0.1" || ep.Port <= 0 || ep.HTTPURL != "http://127.0.0.1:"+strconv.Itoa(ep.Port) ||
		!strings.HasPrefix(ep.BrowserWSURL, "ws://127.0.0.1:"+strconv.Itoa(ep.Port)+"/devtools/browser/") {
		t.Fatalf("endpoint %+v", ep)
	}
	if !p.IsChromium || !p.OwnsUserDataDir || p.InspectorURL != "" {
		t.Fatalf("process %+v", p)
	}
	if _, err := os.Stat(p.UserDataDir); err != nil {
		t.Fatalf("user-data-dir: %v", err)
	}
	for _, want := range []string{"--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", "--headless",
		"--window-size=1280,900", "--user-data-dir=" + p.UserDataDir, "about:blank"} {
		if !slices.Contains(p.Argv, want) {
			t.Errorf("argv lacks %s: %v", want, p.Argv)
		}
	}

	ts := waitPage(t, ctx, ep)
	for _, tg := range ts {
		if tg.Type == "page" && (tg.ID == "" || !strings.HasPrefix(tg.WebSocketDebuggerURL, "ws://127.0.0.1:")) {
			t.Errorf("page target %+v", tg)
		}
	}
	v, err := GetVersion(ctx, ep)
	if err != nil {
		t.Fatalf("GetVersion: %v", err)
	}
	if !strings.Contains(v.Browser, "Chrome") || v.ProtocolVersion == "" || v.WebSocketDebuggerURL != ep.BrowserWSURL {
		t.Fatalf("version %+v (endpoint %s)", v, ep.BrowserWSURL)
	}

	escalated, err := p.Stop(ctx, browserClose(ep.BrowserWSURL), 10*time.Second)
	if err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if escalated {
		t.Fatal("Stop escalated although Browser.close was sent")
	}
	assertDone(t, p, time.Second)
	assertNoOrphans(t, p, pipe)
	assertDirGone(t, p.UserDataDir)
	if err := p.ExitErr(); err != nil {
		t.Errorf("ExitErr after Browser.close: %v", err)
	}
	// Stop and Kill again are no-ops.
	if esc, err := p.Stop(ctx, nil, time.Second); esc || err != nil {
		t.Fatalf("second Stop: %v %v", esc, err)
	}
	if err := p.Kill(); err != nil {
		t.Fatalf("Kill after Stop: %v", err)
	}
}

func TestStopEscalates(t *testing.T) {
	ctx := t.Context()
	p := launchChromium(t, ctx)
	pipe := outputPipe(t, p)
	waitPage(t, ctx, p.Endpoint)
	called := false
	escalated, err := p.Stop(ctx, func(context.Context) error { called = true; return nil }, 200*time.Millisecond)
	if err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if !called || !escalated {
		t.Fatalf("called=%v escalated=%v", called, escalated)
	}
	assertDone(t, p, time.Second)
	assertNoOrphans(t, p, pipe)
	assertDirGone(t, p.UserDataDir)
}

func TestStopCanceledContextKills(t *testing.T) {
	p := launchChromium(t, t.Context())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	escalated, err := p.Stop(ctx, browserClose(p.Endpoint.BrowserWSURL), 10*time.Second)
	if err != nil || !escalated {
		t.Fatalf("Stop: escalated=%v err=%v", escalated, err)
	}
	assertNoGroup(t, p.PID)
	assertDirGone(t, p.UserDataDir)
}

func TestKill(t *testing.T) {
	ctx := t.Context()
	p := launchChromium(t, ctx)
	pipe := outputPipe(t, p)
	waitPage(t, ctx, p.Endpoint) // renderers and helpers are up
	if n := len(groupMembers(t, p.PID)); n < 2 {
		t.Logf("only %d processes in the group before Kill", n)
	}
	if err := p.Kill(); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	assertDone(t, p, time.Second)
	assertNoOrphans(t, p, pipe)
	assertDirGone(t, p.UserDataDir)
	if p.ExitErr() == nil {
		t.Error("ExitErr is nil after SIGKILL")
	}
	// Kill from many goroutines at once is safe and idempotent.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if err := p.Kill(); err != nil {
				t.Errorf("Kill again: %v", err)
			}
		})
	}
	wg.Wait()
}

func TestCrashOfLeaderCleansUp(t *testing.T) {
	ctx := t.Context()
	p := launchChromium(t, ctx)
	pipe := outputPipe(t, p)
	waitPage(t, ctx, p.Endpoint)
	children := len(groupMembers(t, p.PID)) - 1
	// Kill only the browser process, from outside, as a crash would.
	if err := syscall.Kill(p.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	assertDone(t, p, 10*time.Second)
	t.Logf("%d child processes were in the group at the crash", children)
	assertNoOrphans(t, p, pipe)
	assertDirGone(t, p.UserDataDir)
	if p.ExitErr() == nil {
		t.Error("ExitErr is nil after a crash")
	}
	if err := p.Kill(); err != nil {
		t.Fatalf("Kill after crash: %v", err)
	}
	if esc, err := p.Stop(ctx, nil, time.Second); esc || err != nil {
		t.Fatalf("Stop after crash: %v %v", esc, err)
	}
}

// TestPdeathsigKillsGroup checks what Pdeathsig relies on: when
// nobody cleans up (our server died), the browser process getting SIGKILL
// takes the rest of its group with it.
func TestPdeathsigKillsGroup(t *testing.T) {
	requireChromium(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=launch-and-wait")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "HELPER") {
				lines <- sc.Text()
				return
			}
		}
		close(lines)
	}()
	var line string
	select {
	case line = <-lines:
	case <-time.After(40 * time.Second):
		t.Fatal("the helper printed nothing")
	}
	var pid int
	var dir string
	for _, f := range strings.Fields(line) {
		if v, ok := strings.CutPrefix(f, "pid="); ok {
			pid, _ = strconv.Atoi(v)
		}
		if v, ok := strings.CutPrefix(f, "dir="); ok {
			dir = v
		}
	}
	if pid == 0 || !strings.Contains(dir, "understudy-chromium-") {
		t.Fatalf("helper said %q", line)
	}
	t.Cleanup(func() {
		// Should the test fail, do not leave the group behind. While any
		// member runs, the group id cannot name another group.
		if len(groupMembers(t, pid)) > 0 {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
		}
		_ = os.RemoveAll(dir) // the helper cannot remove it
	})
	if n := len(groupMembers(t, pid)); n == 0 {
		t.Fatal("no Chromium group running under the helper")
	}

	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	waitNoGroup(t, pid, 10*time.Second)
}

func TestLaunchBadInput(t *testing.T) {
	dir := t.TempDir()
	exe := writeScript(t, dir, "app", "#!/bin/sh\nexit 0\n")
	notExec := filepath.Join(dir, "notexec")
	if err := os.WriteFile(notExec, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	inRoot := writeScript(t, root, "app", "#!/bin/sh\nexit 0\n")
	escape := filepath.Join(root, "escape")
	if err := os.Symlink(exe, escape); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name  string
		opts  LaunchOptions
		code  errs.Code
		field string
	}{
		{"no executable", LaunchOptions{}, errs.BadArgument, "executablePath"},
		{"missing executable", LaunchOptions{ExecutablePath: filepath.Join(dir, "nope")}, errs.FileNotFound, "executablePath"},
		{"relative executable", LaunchOptions{ExecutablePath: "bin/chromium"}, errs.AbsolutePathRequired, "executablePath"},
		{"directory", LaunchOptions{ExecutablePath: dir}, errs.BadArgument, "executablePath"},
		{"not executable", LaunchOptions{ExecutablePath: notExec}, errs.BadArgument, "executablePath"},
		{"debugging port in args", LaunchOptions{ExecutablePath: exe, Args: []string{"--remote-debugging-port=9222"}}, errs.BadArgument, "args"},
		{"debugging pipe in args", LaunchOptions{ExecutablePath: exe, Args: []string{"--remote-debugging-pipe"}}, errs.BadArgument, "args"},
		{"debugging address in args", LaunchOptions{ExecutablePath: exe, Args: []string{"-remote-debugging-address=0.0.0.0"}}, errs.BadArgument, "args"},
		{"allow origins in args", LaunchOptions{ExecutablePath: exe, Args: []string{"--remote-allow-origins=*"}}, errs.BadArgument, "args"},
		{"NODE_OPTIONS", LaunchOptions{ExecutablePath: exe, Env: map[string]string{"NODE_OPTIONS": "--require x"}}, errs.BadArgument, "env.NODE_OPTIONS"},
		{"LD_PRELOAD", LaunchOptions{ExecutablePath: exe, Env: map[string]string{"OK": "1", "LD_PRELOAD": "/x.so"}}, errs.BadArgument, "env.LD_PRELOAD"},
		{"DYLD_INSERT_LIBRARIES", LaunchOptions{ExecutablePath: exe, Env: map[string]string{"DYLD_INSERT_LIBRARIES": "x"}}, errs.BadArgument, "env.DYLD_INSERT_LIBRARIES"},
		{"ELECTRON_RUN_AS_NODE", LaunchOptions{ExecutablePath: exe, Env: map[string]string{"ELECTRON_RUN_AS_NODE": "1"}}, errs.BadArgument, "env.ELECTRON_RUN_AS_NODE"},
		{"bad env name", LaunchOptions{ExecutablePath: exe, Env: map[string]string{"A=B": "1"}}, errs.BadArgument, "env.A=B"},
		{"executable outside app root", LaunchOptions{ExecutablePath: exe, AppRoot: root}, errs.BadArgument, "executablePath"},
		{"symlink out of app root", LaunchOptions{ExecutablePath: escape, AppRoot: root}, errs.BadArgument, "executablePath"},
		{"cwd outside app root", LaunchOptions{ExecutablePath: inRoot, AppRoot: root, Cwd: dir}, errs.BadArgument, "cwd"},
		{"main outside app root", LaunchOptions{ExecutablePath: inRoot, AppRoot: root, MainScript: exe}, errs.BadArgument, "main"},
		{"relative app root", LaunchOptions{ExecutablePath: inRoot, AppRoot: "root"}, errs.AbsolutePathRequired, "appRoot"},
		{"missing cwd", LaunchOptions{ExecutablePath: exe, Cwd: filepath.Join(dir, "nope")}, errs.FileNotFound, "cwd"},
		{"missing main", LaunchOptions{ExecutablePath: exe, MainScript: filepath.Join(dir, "main.js")}, errs.FileNotFound, "main"},
		{"relative main without cwd", LaunchOptions{ExecutablePath: exe, MainScript: "main.js"}, errs.AbsolutePathRequired, "main"},
		{"missing electron", LaunchOptions{ExecutablePath: filepath.Join(dir, "electron"), MainScript: exe}, errs.FileNotFound, "electronPath"},
		{"dev launch of Chromium", LaunchOptions{ExecutablePath: writeScript(t, dir, "chromium", "#!/bin/sh\n"), MainScript: exe}, errs.BadArgument, "electronPath"},
		{"inspect on Chromium", LaunchOptions{ExecutablePath: writeScript(t, dir, "chrome", "#!/bin/sh\n"), Inspect: true}, errs.BadArgument, "inspect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Launch(t.Context(), tt.opts)
			if p != nil {
				_ = p.Kill()
				t.Fatal("launched")
			}
			wantCode(t, err, tt.code, tt.field)
		})
	}

	// Inside the root, all is well (the app exits at once: LAUNCH_FAILED,
	// which proves validation passed).
	_, err := Launch(t.Context(), LaunchOptions{ExecutablePath: inRoot, AppRoot: root, MainScript: "app", Timeout: 5 * time.Second})
	wantCode(t, err, errs.LaunchFailed, "")
}

func TestLaunchExitsAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes; skipped under -short")
	}
	_, err := Launch(t.Context(), LaunchOptions{ExecutablePath: "/bin/false", Timeout: 10 * time.Second})
	e := wantCode(t, err, errs.LaunchFailed, "")
	if e.Details["exit_code"] != 1 || e.Details["exit"] != "exit status 1" {
		t.Fatalf("details %v", e.Details)
	}

	dir := t.TempDir()
	noisy := writeScript(t, dir, "noisy", "#!/bin/sh\necho 'fatal: cannot open display' >&2\nexit 3\n")
	_, err = Launch(t.Context(), LaunchOptions{ExecutablePath: noisy, Timeout: 10 * time.Second})
	e = wantCode(t, err, errs.LaunchFailed, "")
	if e.Details["exit_code"] != 3 || !strings.Contains(e.Details["stderr_tail"].(string), "cannot open display") {
		t.Fatalf("details %v", e.Details)
	}
}

// neverListens is an app that never prints the DevTools line, with a
// background child in its group; it writes its PID (= the group) to
// $PIDFILE.
const neverListens = "#!/bin/sh\necho \"$$\" > \"$PIDFILE\"\necho starting >&2\nsleep 60 &\nexec sleep 60\n"

func TestLaunchTimeoutLeavesNoOrphan(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes; skipped under -short")
	}
	dir := t.TempDir()
	exe := writeScript(t, dir, "app", neverListens)
	pidFile := filepath.Join(dir, "pid")
	start := time.Now()
	_, err := Launch(t.Context(), LaunchOptions{
		ExecutablePath: exe,
		Env:            map[string]string{"PIDFILE": pidFile},
		Timeout:        500 * time.Millisecond,
	})
	e := wantCode(t, err, errs.LaunchTimeout, "")
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("took %v", el)
	}
	if !strings.Contains(e.Details["stderr_tail"].(string), "starting") {
		t.Errorf("details %v", e.Details)
	}
	if entry, _ := errs.Lookup(e.Code); !entry.Retryable {
		t.Error("LAUNCH_TIMEOUT is not retryable")
	}
	assertNoGroup(t, readPIDFile(t, pidFile))
}

func TestLaunchContextCanceled(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes; skipped under -short")
	}
	dir := t.TempDir()
	exe := writeScript(t, dir, "app", neverListens)
	pidFile := filepath.Join(dir, "pid")
	ctx, cancel := context.WithCancel(t.Context())
	_, err := Launch(ctx, LaunchOptions{
		ExecutablePath: exe,
		Env:            map[string]string{"PIDFILE": pidFile},
		Progress: func(s string) {
			if s == StageSpawned {
				time.AfterFunc(300*time.Millisecond, cancel)
			}
		},
	})
	wantCode(t, err, errs.LaunchFailed, "")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error does not wrap context.Canceled: %v", err)
	}
	assertNoGroup(t, readPIDFile(t, pidFile))
}

func TestLaunchEnvReachesChild(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes; skipped under -short")
	}
	t.Setenv("NODE_OPTIONS", "--require /nonexistent")
	t.Setenv("LD_DEBUG", "all")
	dir := t.TempDir()
	// Prints its environment, then a fake DevTools line, then waits.
	exe := writeScript(t, dir, "app", "#!/bin/sh\nenv >&2\necho 'DevTools listening on ws://127.0.0.1:1/devtools/browser/x' >&2\nexec sleep 60\n")
	var copyBuf syncBuffer
	p, err := Launch(t.Context(), LaunchOptions{
		ExecutablePath: exe,
		Env:            map[string]string{"UNDERSTUDY_X": "42"},
		Stderr:         &copyBuf,
		Timeout:        10 * time.Second,
	})
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	out := p.StderrTail()
	if !strings.Contains(out, "UNDERSTUDY_X=42") || strings.Contains(out, "NODE_OPTIONS") || strings.Contains(out, "LD_DEBUG") {
		t.Fatalf("child env:\n%s", out)
	}
	if copyBuf.String() != out {
		t.Fatalf("the Stderr copy differs from the tail:\n%q\n%q", copyBuf.String(), out)
	}
	if p.Endpoint.Port != 1 || p.IsChromium || p.UserDataDir != "" {
		t.Fatalf("process %+v", p)
	}
	if want := []string{exe, "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1"}; !slices.Equal(p.Argv, want) {
		t.Fatalf("argv %v, want %v", p.Argv, want)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// fakeElectron is a minimal Electron stand-in: it takes Electron's command
// line and runs main.js under node with the inspector flag.
const fakeElectron = `#!/bin/sh
inspect=
for a in "$@"; do
  case "$a" in
    --inspect*) inspect="$a" ;;
  esac
done
main=
for a in "$@"; do
  case "$a" in
    -*) ;;
    *) main="$a"; break ;;
  esac
done
exec "$NODE" $inspect "$main" "$@"
`

// fakeMain starts Chromium with the debugging switches it was given; the
// browser writes its DevTools line to the shared stderr.
const fakeMain = `
const { spawn } = require('child_process');
const pass = process.argv.slice(2).filter(a =>
  a.startsWith('--remote-debugging-') || a.startsWith('--user-data-dir='));
const flags = ['--headless', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
if (process.getuid && process.getuid() === 0) flags.push('--no-sandbox');
const child = spawn(process.env.FAKE_CHROMIUM, [...flags, ...pass, 'about:blank'],
  { stdio: ['ignore', 'ignore', 'inherit'] });
child.on('exit', (code) => process.exit(code === null ? 1 : code));
process.on('SIGTERM', () => child.kill('SIGTERM'));
`

func TestDevLaunch(t *testing.T) {
	chromium := requireChromium(t)
	node := lookNode(t)
	dir := t.TempDir()
	electron := writeScript(t, dir, "electron", fakeElectron)
	if err := os.WriteFile(filepath.Join(dir, "main.js"), []byte(fakeMain), 0o644); err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(dir, "profile") // inside the app root, as --user-data-dir must be
	var stages stageLog
	p, err := Launch(t.Context(), LaunchOptions{
		ExecutablePath: electron,
		MainScript:     "main.js",
		Cwd:            dir,
		AppRoot:        dir,
		Args:           []string{"--user-data-dir=" + profile},
		Env:            map[string]string{"NODE": node, "FAKE_CHROMIUM": chromium},
		AllowEnv:       []string{"NODE", "FAKE_CHROMIUM"}, // the stand-in's own variables (an app root allows only listed names)
		Progress:       stages.add,
	})
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	t.Cleanup(func() { _ = p.Kill() })
	pipe := outputPipe(t, p)
	if want := []string{electron, "--inspect=0", "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
		filepath.Join(dir, "main.js"), "--user-data-dir=" + profile}; !slices.Equal(p.Argv, want) {
		t.Fatalf("argv %v, want %v", p.Argv, want)
	}
	if !strings.HasPrefix(p.InspectorURL, "ws://127.0.0.1:") || p.Endpoint.Port <= 0 {
		t.Fatalf("inspector %q endpoint %+v", p.InspectorURL, p.Endpoint)
	}
	if p.IsChromium || p.UserDataDir != "" || p.OwnsUserDataDir {
		t.Fatalf("process %+v", p)
	}
	if got := stages.list(); !slices.Contains(got, StageInspectorEndpoint) || !slices.Contains(got, StageDevtoolsEndpoint) {
		t.Errorf("stages %v", got)
	}
	waitPage(t, t.Context(), p.Endpoint)

	// The inspector is Node's: its /json/list has one node target.
	insp, err := endpointFromWS(p.InspectorURL)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := ListTargets(t.Context(), insp)
	if err != nil || len(ts) != 1 || ts[0].Type != "node" {
		t.Fatalf("inspector targets %+v, %v", ts, err)
	}
	if n := len(groupMembers(t, p.PID)); n < 2 {
		t.Fatalf("expected node and Chromium in the group, got %d", n)
	}

	escalated, err := p.Stop(t.Context(), browserClose(p.Endpoint.BrowserWSURL), 10*time.Second)
	if err != nil || escalated {
		t.Fatalf("Stop: escalated=%v err=%v", escalated, err)
	}
	assertNoOrphans(t, p, pipe)
	if _, err := os.Stat(profile); err != nil {
		t.Fatalf("the caller's profile was touched: %v", err)
	}
}

func TestRegistryClose(t *testing.T) {
	exe := requireChromium(t)
	var r Registry
	var ps []*Process
	for range 2 {
		p, err := r.Launch(t.Context(), LaunchOptions{ExecutablePath: exe})
		if err != nil {
			t.Fatalf("Launch: %v", err)
		}
		t.Cleanup(func() { _ = p.Kill() })
		ps = append(ps, p)
	}
	if n := len(r.Live()); n != 2 {
		t.Fatalf("%d live", n)
	}
	if err := r.Close(t.Context(), 2*time.Second); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for _, p := range ps {
		assertDone(t, p, time.Second)
		assertNoGroup(t, p.PID)
		assertDirGone(t, p.UserDataDir)
	}
	if n := len(r.Live()); n != 0 {
		t.Fatalf("%d live after Close", n)
	}
	_, err := r.Launch(t.Context(), LaunchOptions{ExecutablePath: exe})
	wantCode(t, err, errs.LaunchFailed, "")
}

// fakeChromiumFileOnly is named chromium, so it gets a profile we own; it
// writes DevToolsActivePort there and never prints the DevTools line.
const fakeChromiumFileOnly = `#!/bin/sh
for a in "$@"; do
  case "$a" in
    --user-data-dir=*) dir="${a#--user-data-dir=}" ;;
  esac
done
sleep 0.2
printf '4242\n/devtools/browser/from-file' > "$dir/DevToolsActivePort"
exec sleep 60
`

func TestLaunchLearnsEndpointFromActivePortFile(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes; skipped under -short")
	}
	exe := writeScript(t, t.TempDir(), "chromium", fakeChromiumFileOnly)
	p, err := Launch(t.Context(), LaunchOptions{ExecutablePath: exe, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	if p.Endpoint.BrowserWSURL != "ws://127.0.0.1:4242/devtools/browser/from-file" || p.Endpoint.Port != 4242 {
		t.Fatalf("endpoint %+v", p.Endpoint)
	}
	escalated, err := p.Stop(t.Context(), nil, time.Second)
	if err != nil || !escalated {
		t.Fatalf("Stop: %v %v", escalated, err)
	}
	assertNoGroup(t, p.PID)
	assertDirGone(t, p.UserDataDir)
}

// TestLaunchSurvivesCallerThreadExit: Pdeathsig follows the OS thread that
// forked the child. Launch from a goroutine locked to its thread, which the
// runtime ends when the goroutine exits; the app must live on.
func TestLaunchSurvivesCallerThreadExit(t *testing.T) {
	exe := requireChromium(t)
	type result struct {
		p   *Process
		err error
		tid int
	}
	// launch runs on a locked thread that is not the main one (the runtime
	// never ends that one) and leaves it locked, so that it ends.
	launch := func() result {
		runtime.LockOSThread()
		p, err := Launch(t.Context(), LaunchOptions{ExecutablePath: exe})
		return result{p, err, syscall.Gettid()}
	}
	ch := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		if syscall.Gettid() != os.Getpid() {
			ch <- launch()
			return
		}
		// On the main thread: hold it while another goroutine launches.
		inner := make(chan result, 1)
		go func() { inner <- launch() }()
		r := <-inner
		runtime.UnlockOSThread()
		ch <- r
	}()
	r := <-ch
	if r.err != nil {
		t.Fatalf("Launch: %v", r.err)
	}
	p := r.p
	t.Cleanup(func() { _ = p.Kill() })
	pipe := outputPipe(t, p)

	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join("/proc/self/task", strconv.Itoa(r.tid))); err != nil {
			break // the launching thread is gone
		}
		if time.Now().After(deadline) {
			t.Fatalf("the launching thread %d did not end", r.tid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	select {
	case <-p.Done():
		t.Fatalf("the app died with the launching thread: %v", p.ExitErr())
	default:
	}
	if _, err := GetVersion(t.Context(), p.Endpoint); err != nil {
		t.Fatalf("GetVersion: %v", err)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	assertNoOrphans(t, p, pipe)
}

// stageLog records the stages a launch reports (Progress may be called
// from another goroutine).
type stageLog struct {
	mu     sync.Mutex
	stages []string
}

func (l *stageLog) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stages = append(l.stages, s)
}

func (l *stageLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.stages)
}
