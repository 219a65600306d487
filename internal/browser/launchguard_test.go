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
	// --no-sandbox names no program: with an app root it passes when we
	// run as root (an app run as root needs it), and is refused otherwise
	// (docs/troubleshooting.md and docs/security.md say the same).
	for _, asRoot := range []bool{true, false} {
		for _, a := range []string{"--no-sandbox", "-no-sandbox"} {
			err := checkArgInRoot(root, "", 0, a, "no-sandbox", asRoot)
			if asRoot && err != nil {
				t.Errorf("%s with an app root, as root: %v", a, err)
			}
			if !asRoot {
				if e := wantCode(t, err, errs.BadArgument, "args"); !strings.Contains(e.Message, "only when understudy runs as root") {
					t.Errorf("%s with an app root, as a normal user: %v", a, e)
				}
			}
		}
	}
	_, err := plan(LaunchOptions{ExecutablePath: app, AppRoot: root, Args: []string{"--no-sandbox"}})
	if asRoot := os.Geteuid() == 0; (err == nil) != asRoot {
		t.Errorf("plan with --no-sandbox and an app root (euid %d): %v", os.Geteuid(), err)
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

// TestAppRootDocsAgree: docs/security.md lists every switch the app-root
// allowlist accepts, and it and docs/troubleshooting.md give the same
// answer for --no-sandbox with --app-root (issue 29: the troubleshooting
// page told root users to pass a switch the allowlist refused).
func TestAppRootDocsAgree(t *testing.T) {
	sec, err := os.ReadFile(filepath.Join("..", "..", "docs", "security.md"))
	if err != nil {
		t.Fatal(err)
	}
	trouble, err := os.ReadFile(filepath.Join("..", "..", "docs", "troubleshooting.md"))
	if err != nil {
		t.Fatal(err)
	}
	flat := func(b []byte) string { return strings.Join(strings.Fields(string(b)), " ") }
	for _, sw := range append(rootSwitches(), "no-sandbox") {
		if !strings.Contains(string(sec), "`--"+sw+"`") {
			t.Errorf("docs/security.md does not list --%s among the app-root switches", sw)
		}
	}
	for name, text := range map[string]string{"security.md": flat(sec), "troubleshooting.md": flat(trouble)} {
		if !strings.Contains(text, "`--no-sandbox` when understudy runs as root") && !strings.Contains(text, "that switch is on the allowlist when understudy runs as root") {
			t.Errorf("docs/%s does not say --no-sandbox passes --app-root when understudy runs as root", name)
		}
	}
}
