package tool

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestAppRootRefusesLauncherPath: electron_launch {env:{PATH:"<dir>:..."}}
// made Debian's chromium launcher (/usr/bin/chromium, a shell script) run
// <dir>/grep. With --app-root the launch is BAD_ARGUMENT naming env.PATH
// and nothing of <dir> runs (issue 27, point 11).
func TestAppRootRefusesLauncherPath(t *testing.T) {
	const launcher = "/usr/bin/chromium"
	if testing.Short() {
		t.Skip("-short: launches a browser")
	}
	if _, err := os.Stat(launcher); err != nil {
		// make test installs Debian's chromium, which brings the launcher.
		if os.Getenv("CI") == "true" {
			t.Fatalf("no Debian chromium launcher script at %s (make test installs it)", launcher)
		}
		t.Skip("no Debian chromium launcher script (with CI=true this fails)")
	}
	dir := t.TempDir()
	root, evil := filepath.Join(dir, "root"), filepath.Join(dir, "evil")
	for _, d := range []string{root, evil} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	marker := filepath.Join(dir, "ran")
	if err := os.WriteFile(filepath.Join(evil, "grep"), []byte("#!/bin/sh\ntouch "+marker+"\nexec /usr/bin/grep \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(root, "app")
	if err := os.WriteFile(app, []byte("#!/bin/sh\nexec "+launcher+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Config{AppRoot: root})
	m := e.call("electron_launch", map[string]any{"executablePath": app, "args": []string{"--headless"},
		"env": map[string]string{"PATH": evil + ":" + os.Getenv("PATH")}, "timeoutMs": 20000})
	if m["ok"] == true {
		e.call("electron_stop", map[string]any{"force": true})
	}
	time.Sleep(200 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the launcher ran %s/grep", evil)
	}
	if m["code"] != "BAD_ARGUMENT" {
		t.Fatalf("launch with env.PATH under an app root: %v, want BAD_ARGUMENT", m)
	}
	if d, _ := m["details"].(map[string]any); d["field"] != "env.PATH" {
		t.Fatalf("launch: %v, want field env.PATH", m)
	}
}
