//go:build unix

package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// startStandInApp starts the Electron stand-in as a user would (not through
// understudy) with its DevTools port and Node inspector open, and returns
// the DevTools port and the inspector URL. args go to the app (the first
// is its first page's URL). The app is killed at cleanup.
func startStandInApp(t *testing.T, args ...string) (int, string) {
	t.Helper()
	chrome := chromiumtest.Require(t)
	electron, mainJS, err := fixture.WriteElectronStandIn(t.TempDir(), chrome)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(electron, append([]string{"--inspect=0", "--remote-debugging-port=0", mainJS}, args...)...)
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

// askPage is the stand-in app's first page: #ask invokes "add" through the
// preload's ipcRenderer and shows the click's number and the answer.
const askPage = `<title>Ask</title><button id="ask">Ask main</button><p id="answer">none</p><script>
let n = 0;
document.getElementById('ask').addEventListener('click', async () => {
  const k = ++n;
  const out = document.getElementById('answer');
  try { out.textContent = k + ' ' + JSON.stringify(await window.electronStandIn.ipcRenderer.invoke('add', 1, 2)); }
  catch (e) { out.textContent = k + ' error: ' + e.message; }
});
</script>`

// askMain clicks the page's #ask and waits for the answer to click n.
func askMain(t *testing.T, p *proc, n int) string {
	t.Helper()
	p.call(t, "electron_click", map[string]any{"selector": "#ask"})
	prefix := strconv.Itoa(n) + " "
	deadline := time.Now().Add(30 * time.Second)
	for {
		text, _ := p.call(t, "electron_get_text", map[string]any{"selector": "#answer"})["text"].(string)
		if strings.HasPrefix(text, prefix) {
			return strings.TrimPrefix(text, prefix)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no answer to click %d: %q", n, text)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestInstrumentationRestoredWhenServerDies: on a stand-in app we attached
// to (stand-in, unverified on real Electron), an IPC stub is in force — the
// app's page, invoking through its ipcRenderer, gets the stub's answer; the
// server is killed (SIGKILL: nothing of ours runs). A new server attaches
// again and the app's own handler is back within the lease (5 s), put
// there by the app itself; the stub no longer answers, the page gets the
// handler's answer. A detach, the orderly end, restores at once.
func TestInstrumentationRestoredWhenServerDies(t *testing.T) {
	port, insp := startStandInApp(t, "data:text/html;base64,"+base64.StdEncoding.EncodeToString([]byte(askPage)))
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
	if a := askMain(t, p, 1); a != `"stubbed"` {
		t.Fatalf("the page's invoke under the stub: %s", a)
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
	if a := askMain(t, q, 2); a != "3" {
		t.Errorf("the page's invoke after the restore: %s", a)
	}

	// An orderly end (detach) restores at once.
	q.call(t, "ipc_capture_start", map[string]any{"channels": []string{"add"}})
	q.call(t, "ipc_stub", map[string]any{"channel": "add", "response": "stubbed"})
	q.call(t, "electron_detach", nil)
	q.call(t, "electron_attach", attach)
	if r := q.call(t, "electron_eval_main", map[string]any{"code": check}); r["result"] != true {
		t.Errorf("detach did not restore: %v", r)
	}
	if a := askMain(t, q, 3); a != "3" {
		t.Errorf("the page's invoke after the detach: %s", a)
	}
}
