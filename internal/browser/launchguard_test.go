//go:build linux

package browser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestProgramSwitchesRefused: switches that make Chromium or Electron run
// another program (or open a debugger to the network) are refused with or
// without an app root; with one, only the allowlisted switches pass and
// positional paths must lie inside it.
func TestProgramSwitchesRefused(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	app := writeScript(t, root, "app", "#!/bin/sh\nexit 0\n")
	if err := os.WriteFile(filepath.Join(root, "index.html"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	outside := writeScript(t, dir, "evil", "#!/bin/sh\ntouch "+filepath.Join(dir, "ran")+"\n")
	if err := os.Symlink(dir, filepath.Join(root, "up")); err != nil {
		t.Fatal(err)
	}
	program := []string{
		"--renderer-cmd-prefix=" + outside, "--utility-cmd-prefix=" + outside, "--browser-subprocess-path=" + outside,
		"--gpu-launcher=" + outside, "--ppapi-plugin-launcher=" + outside, "--plugin-launcher=" + outside,
		"--zygote-cmd-prefix=" + outside, "-renderer-cmd-prefix=" + outside, "--RENDERER-CMD-PREFIX=" + outside,
		"--load-extension=" + dir, "--inspect=0.0.0.0:9229", "--inspect-brk=0.0.0.0:9229",
	}
	for _, withRoot := range []bool{false, true} {
		for _, a := range program {
			opts := LaunchOptions{ExecutablePath: app, Args: []string{"--no-zygote", a}}
			if withRoot {
				opts.AppRoot, opts.Args = root, []string{"--headless", a}
			}
			t.Run(a, func(t *testing.T) {
				_, err := plan(opts)
				if e := wantCode(t, err, errs.BadArgument, "args"); !strings.Contains(e.Message, "args[1]") {
					t.Errorf("%s (app root %v): %v, want args[1] named", a, withRoot, e)
				}
			})
		}
	}

	refusedInRoot := []string{
		"--no-zygote", "--log-file=/tmp/x", "--disable-web-security", "--some-future-switch",
		"--user-data-dir=" + dir, "--user-data-dir=" + filepath.Join(root, "up", "profile"),
		outside, "file://" + outside, filepath.Join(root, "up", "evil"), "../evil", "--",
	}
	for _, a := range refusedInRoot {
		t.Run("root "+a, func(t *testing.T) {
			_, err := plan(LaunchOptions{ExecutablePath: app, AppRoot: root, Args: []string{a}})
			wantCode(t, err, errs.BadArgument, "args")
		})
	}
	acceptedInRoot := []string{
		"--headless", "--window-size=800,600", "--lang=fr", "--enable-features=X", "--user-agent=x y",
		"--host-resolver-rules=MAP * 127.0.0.1", "--user-data-dir=" + filepath.Join(root, "profile"),
		"index.html", filepath.Join(root, "index.html"), "https://example.com/", "about:blank", "myapp://deep/link", "word",
	}
	for _, a := range acceptedInRoot {
		if _, err := plan(LaunchOptions{ExecutablePath: app, AppRoot: root, Args: []string{a}}); err != nil {
			t.Errorf("%q inside the app root: %v", a, err)
		}
	}
	// Without a root, other switches still pass.
	if _, err := plan(LaunchOptions{ExecutablePath: app, Args: []string{"--no-zygote", "--some-future-switch", outside}}); err != nil {
		t.Errorf("without an app root: %v", err)
	}
}

// TestLaunchIgnoresNonLoopbackDevToolsURL: a launched app that prints a
// DevTools (or Debugger) URL on another host is not dialed; the launch
// waits for a loopback one and times out without it.
func TestLaunchIgnoresNonLoopbackDevToolsURL(t *testing.T) {
	for _, line := range []string{
		"DevTools listening on ws://192.0.2.7:9222/devtools/browser/x",
		"DevTools listening on wss://127.0.0.1:9222/devtools/browser/x",
		"DevTools listening on ws://localhost.evil.example:9222/devtools/browser/x",
		"DevTools listening on ws://user@127.0.0.1.nip.io:9222/devtools/browser/x",
	} {
		if u, ok := listeningURL(line+"\n", devtoolsMarker); ok {
			t.Errorf("listeningURL(%q) = %q, want nothing", line, u)
		}
	}
	if testing.Short() {
		t.Skip("spawns a process; skipped under -short")
	}
	dir := t.TempDir()
	app := writeScript(t, dir, "app", "#!/bin/sh\necho 'DevTools listening on ws://192.0.2.7:9222/devtools/browser/x' >&2\nexec sleep 30\n")
	p, err := Launch(t.Context(), LaunchOptions{ExecutablePath: app, Timeout: 2 * time.Second})
	if p != nil {
		_ = p.Kill()
		t.Fatalf("launched with endpoint %+v", p.Endpoint)
	}
	wantCode(t, err, errs.LaunchTimeout, "")
}
