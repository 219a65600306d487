package mainproc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/fixture"
)

// TestAgentRestoresExactly runs the agent in plain Node against the
// stand-in's electron module (no Chromium): a stop restores the handler
// map entry and deletes the own ipcMain.handle it added, but leaves a
// method someone patched over ours; a lapsed lease restores everything by
// itself; a second owner is refused while the lease is live; the launch
// shim is valid JavaScript that loads the real main after its hooks.
func TestAgentRestoresExactly(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is required")
		}
		t.Skip("no node (CI is not true, so skipped)")
	}
	dir := t.TempDir()
	if _, _, err := fixture.WriteElectronStandIn(dir, "/nonexistent/chromium"); err != nil {
		t.Fatal(err)
	}
	agent := filepath.Join(dir, "agent.js")
	if err := os.WriteFile(agent, []byte(agentJS), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "check.js")
	src := `const agent = eval(require('fs').readFileSync(` + "`" + agent + "`" + `, 'utf8'));
const { ipcMain } = require('electron');
const h = () => 1; ipcMain.handle('a', h);
const out = [];
const start = (owner, leaseMs) => agent({ op: 'ipcStart', channels: ['a'], redact: [], maxEvents: 10, maxArgBytes: 100, owner, leaseMs }, require);
out.push(start('o1', 60000).capturing === true);
out.push(ipcMain._invokeHandlers.get('a') !== h);
out.push(start('o2', 60000).error === 'already');
const theirs = function (c, f) { return 'theirs'; };
ipcMain.handle = theirs;
agent({ op: 'ipcStop', owner: 'o1' }, require);
out.push(ipcMain._invokeHandlers.get('a') === h, ipcMain.handle === theirs);
delete ipcMain.handle;
out.push(start('o1', 300).capturing === true, Object.prototype.hasOwnProperty.call(ipcMain, 'handle'));
out.push(agent({ op: 'notifStart', owner: 'o2', leaseMs: 300 }, require).error === 'busy');
setTimeout(() => {
  out.push(ipcMain._invokeHandlers.get('a') === h, !Object.prototype.hasOwnProperty.call(ipcMain, 'handle'), globalThis.__understudyMain.ipc === null, globalThis.__understudyMain.timer === null);
  console.log(JSON.stringify(out));
}, 1200);
`
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command(node, "--require", filepath.Join(dir, "electron-module.js"), script).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if got := strings.TrimSpace(string(b)); got != "[true,true,true,true,true,true,true,true,true,true,true,true]" {
		t.Errorf("agent checks: %s", got)
	}

	// The shim installs the hooks, then runs the real main.
	real := filepath.Join(dir, "real.js")
	if err := os.WriteFile(real, []byte(`console.log(JSON.stringify({ hooked: !!globalThis.__understudyMain.notif && !!globalThis.__understudyMain.tray }));`), 0o644); err != nil {
		t.Fatal(err)
	}
	shim := filepath.Join(dir, "shim.cjs")
	if err := os.WriteFile(shim, []byte(LaunchShim(real)), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err = exec.Command(node, "--require", filepath.Join(dir, "electron-module.js"), shim).CombinedOutput()
	if err != nil || strings.TrimSpace(string(b)) != `{"hooked":true}` {
		t.Errorf("shim: %v: %s", err, b)
	}
}
