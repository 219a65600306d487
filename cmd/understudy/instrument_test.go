//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// startStandInApp starts the Electron stand-in as a user would (not through
// understudy) with its DevTools port and Node inspector open, and returns
// the DevTools port and the inspector URL. The app is killed at cleanup.
func startStandInApp(t *testing.T) (int, string) {
	t.Helper()
	chrome := chromiumtest.Require(t)
	electron, mainJS, err := fixture.WriteElectronStandIn(t.TempDir(), chrome)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(electron, "--inspect=0", "--remote-debugging-port=0", mainJS)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	devtools := regexp.MustCompile(`DevTools listening on ws://127\.0\.0\.1:(\d+)/`)
	inspector := regexp.MustCompile(`Debugger listening on (ws://127\.0\.0\.1:\d+/\S+)`)
	found := make(chan [2]string, 1)
	go func() {
		var port, insp string
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := devtools.FindStringSubmatch(sc.Text()); m != nil {
				port = m[1]
			}
			if m := inspector.FindStringSubmatch(sc.Text()); m != nil {
				insp = m[1]
			}
			if port != "" && insp != "" {
				found <- [2]string{port, insp}
				break
			}
		}
		for sc.Scan() { // keep draining
		}
	}()
	select {
	case f := <-found:
		var port int
		_ = json.Unmarshal([]byte(f[0]), &port)
		return port, f[1]
	case <-time.After(30 * time.Second):
		t.Fatal("the stand-in app did not open its DevTools port and inspector")
	}
	return 0, ""
}

// TestInstrumentationRestoredWhenServerDies: on a stand-in app we attached
// to (stand-in, unverified on real Electron), an IPC stub is in force; the
// server is killed (SIGKILL: nothing of ours runs). A new server attaches
// again and the app's own handler is back within the lease (5 s), put
// there by the app itself; the stub no longer answers. A detach, the
// orderly end, restores at once.
func TestInstrumentationRestoredWhenServerDies(t *testing.T) {
	port, insp := startStandInApp(t)
	attach := map[string]any{"port": port, "inspectorUrl": insp}
	p := startBinary(t, "--allow-eval=main", "--with", "ipc")
	p.call(t, "electron_attach", attach)
	p.call(t, "electron_eval_main", map[string]any{"code": `const { ipcMain } = require('electron');
		ipcMain.handle('add', (e, a, b) => a + b); globalThis.__origAdd = ipcMain._invokeHandlers.get('add'); true`})
	p.call(t, "ipc_capture_start", map[string]any{"channels": []string{"add"}})
	p.call(t, "ipc_stub", map[string]any{"channel": "add", "response": "stubbed"})
	if r := p.call(t, "ipc_invoke", map[string]any{"channel": "add", "args": []any{1, 2}}); r["result"] != "stubbed" {
		t.Fatalf("stub not in force: %v", r)
	}
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
	killed := time.Now()

	q := startBinary(t, "--allow-eval=main", "--with", "ipc")
	q.call(t, "electron_attach", attach)
	const check = `const { ipcMain } = require('electron');
		return ipcMain._invokeHandlers.get('add') === __origAdd && !Object.prototype.hasOwnProperty.call(ipcMain, 'handle') && !globalThis.__understudyMain.ipc`
	for {
		if q.call(t, "electron_eval_main", map[string]any{"code": check})["result"] == true {
			break
		}
		if time.Since(killed) > 20*time.Second {
			t.Fatal("the app's handler was not restored after the server died")
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("restored %s after the kill", time.Since(killed).Round(100*time.Millisecond))
	if r := q.call(t, "ipc_invoke", map[string]any{"channel": "add", "args": []any{1, 2}}); r["result"] != float64(3) {
		t.Errorf("the app's handler does not answer: %v", r)
	}

	// An orderly end (detach) restores at once.
	q.call(t, "ipc_capture_start", map[string]any{"channels": []string{"add"}})
	q.call(t, "ipc_stub", map[string]any{"channel": "add", "response": "stubbed"})
	q.call(t, "electron_detach", nil)
	q.call(t, "electron_attach", attach)
	if r := q.call(t, "electron_eval_main", map[string]any{"code": check}); r["result"] != true {
		t.Errorf("detach did not restore: %v", r)
	}
}
