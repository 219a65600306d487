//go:build linux

package browser

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestIsChromium(t *testing.T) {
	for path, want := range map[string]bool{
		"/usr/lib/chromium/chromium":                                   true,
		"/usr/bin/chromium":                                            true,
		"/usr/bin/chromium-browser":                                    true,
		"/opt/google/chrome/chrome":                                    true,
		"/usr/bin/google-chrome-stable":                                true,
		"/x/chrome-linux64/chrome":                                     true,
		"/x/headless_shell":                                            true,
		"/x/chrome-headless-shell":                                     true,
		"/c/Program Files/Edge/msedge.exe":                             true,
		"/usr/bin/microsoft-edge-dev":                                  true,
		"/usr/bin/brave-browser":                                       true,
		"/Applications/Chromium.app/Contents/MacOS/Chromium":           true,
		"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome": true,
		"/Applications/Slack.app/Contents/MacOS/Slack":                 false,
		"/usr/lib/slack/slack":                                         false,
		"/usr/bin/electron":                                            false,
		"/app/node_modules/.bin/electron":                              false,
		"/usr/share/code/code":                                         false,
		"":                                                             false,
	} {
		if got := IsChromium(filepath.FromSlash(path)); got != want {
			t.Errorf("IsChromium(%q) = %v, want %v", path, got, want)
		}
	}
	// A symlink with another name is followed.
	dir := t.TempDir()
	target := writeScript(t, dir, "chromium", "#!/bin/sh\n")
	link := filepath.Join(dir, "x-www-browser")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if !IsChromium(link) {
		t.Error("a symlink to chromium is not Chromium")
	}
}

func TestSwitchNameAndURL(t *testing.T) {
	for arg, want := range map[string]string{
		"--remote-debugging-port=9222": "remote-debugging-port",
		"-remote-debugging-port=9222":  "remote-debugging-port",
		"--Remote-Debugging-Pipe":      "remote-debugging-pipe",
		"--headless":                   "headless",
		"about:blank":                  "",
		"---x":                         "-x",
	} {
		if got := switchName(arg); got != want {
			t.Errorf("switchName(%q) = %q, want %q", arg, got, want)
		}
	}
	if hasURL([]string{"--a", "-b=c"}) || !hasURL([]string{"--a", "http://x/"}) || hasURL(nil) {
		t.Error("hasURL")
	}
}

func TestArgv(t *testing.T) {
	dir := t.TempDir()
	chromium := writeScript(t, dir, "chromium", "#!/bin/sh\n")
	app := writeScript(t, dir, "myapp", "#!/bin/sh\n")
	no := false
	root := os.Geteuid() == 0

	pl, err := plan(LaunchOptions{ExecutablePath: chromium, Args: []string{"--lang=fr"}})
	if err != nil {
		t.Fatal(err)
	}
	got := pl.argv("/tmp/prof")
	want := append([]string{chromium, "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1"}, chromiumDefaults()...)
	want = append(want, "--user-data-dir=/tmp/prof", "--headless")
	if root {
		want = append(want, "--no-sandbox")
	}
	want = append(want, "--lang=fr", "about:blank")
	if !slices.Equal(got, want) {
		t.Fatalf("chromium argv\n got %v\nwant %v", got, want)
	}

	pl, err = plan(LaunchOptions{ExecutablePath: chromium, Headless: &no, Args: []string{"--user-data-dir=/home/u/p", "http://a.test/"}})
	if err != nil {
		t.Fatal(err)
	}
	got = pl.argv("")
	if slices.Contains(got, "--headless") || slices.Contains(got, "about:blank") || pl.ownProfile || pl.profile != "/home/u/p" ||
		slices.ContainsFunc(got[:len(got)-2], func(a string) bool { return strings.HasPrefix(a, "--user-data-dir") }) {
		t.Fatalf("headful argv with own profile: %v (plan %+v)", got, pl)
	}

	pl, err = plan(LaunchOptions{ExecutablePath: app, Args: []string{"--flag"}, Headless: &no})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pl.argv(""), []string{app, "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", "--flag"}; !slices.Equal(got, want) {
		t.Fatalf("electron argv %v", got)
	}
	pl, err = plan(LaunchOptions{ExecutablePath: app, Inspect: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := pl.argv(""); got[1] != "--inspect=0" || !pl.inspect || pl.ownProfile {
		t.Fatalf("inspect argv %v", got)
	}
	main := writeScript(t, dir, "main.js", "")
	pl, err = plan(LaunchOptions{ExecutablePath: app, MainScript: "main.js", Cwd: dir, Args: []string{"--x"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pl.argv(""), []string{app, "--inspect=0", "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", main, "--x"}; !slices.Equal(got, want) {
		t.Fatalf("dev argv %v", got)
	}
	if pl.timeout != DefaultLaunchTimeout {
		t.Fatalf("timeout %v", pl.timeout)
	}
}

func TestPlanEnv(t *testing.T) {
	t.Setenv("NODE_OPTIONS", "--inspect")
	t.Setenv("LD_LIBRARY_PATH", "/evil")
	t.Setenv("UNDERSTUDY_KEEP", "1")
	t.Setenv("UNDERSTUDY_OVER", "old")
	dir := t.TempDir()
	app := writeScript(t, dir, "app", "#!/bin/sh\n")
	pl, err := plan(LaunchOptions{ExecutablePath: app, Env: map[string]string{"UNDERSTUDY_OVER": "new", "B": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	has := func(kv string) bool { return slices.Contains(pl.env, kv) }
	if !has("UNDERSTUDY_KEEP=1") || !has("UNDERSTUDY_OVER=new") || has("UNDERSTUDY_OVER=old") || !has("B=2") {
		t.Fatalf("env %v", pl.env)
	}
	for _, kv := range pl.env {
		if strings.HasPrefix(kv, "NODE_OPTIONS=") || strings.HasPrefix(kv, "LD_") {
			t.Fatalf("refused variable passed: %s", kv)
		}
	}
}

func TestListeningURL(t *testing.T) {
	for line, want := range map[string]string{
		"DevTools listening on ws://127.0.0.1:39581/devtools/browser/0b6e\n":                  "ws://127.0.0.1:39581/devtools/browser/0b6e",
		"[1:2:ERROR:x] DevTools listening on ws://127.0.0.1:1/devtools/browser/a\r\n":         "ws://127.0.0.1:1/devtools/browser/a",
		"DevTools listening on http://127.0.0.1:1/\n":                                         "",
		"DevTools listening on \n":                                                            "",
		"Debugger listening on ws://127.0.0.1:9229/1c7d-4f\n":                                 "",
		"Some other line mentioning ws://127.0.0.1:1/devtools/browser/a without the marker\n": "",
	} {
		got, ok := listeningURL(line, devtoolsMarker)
		if got != want || ok != (want != "") {
			t.Errorf("listeningURL(%q) = %q %v, want %q", line, got, ok, want)
		}
	}
	if u, ok := listeningURL("Debugger listening on ws://127.0.0.1:9229/1c7d\n", debuggerMarker); !ok || u != "ws://127.0.0.1:9229/1c7d" {
		t.Errorf("debugger: %q", u)
	}
}

func TestEndpointFromWS(t *testing.T) {
	ep, err := endpointFromWS("ws://0.0.0.0:9333/devtools/browser/abc")
	if err != nil || ep.Host != "127.0.0.1" || ep.Port != 9333 || ep.HTTPURL != "http://127.0.0.1:9333" ||
		ep.BrowserWSURL != "ws://127.0.0.1:9333/devtools/browser/abc" {
		t.Fatalf("%+v %v", ep, err)
	}
	ep, err = endpointFromWS("ws://[::1]:9333/devtools/browser/abc")
	if err != nil || ep.Host != "::1" || ep.HTTPURL != "http://[::1]:9333" {
		t.Fatalf("%+v %v", ep, err)
	}
	for _, bad := range []string{"http://127.0.0.1:1/", "ws://127.0.0.1/devtools", "ws://127.0.0.1:0/x", "::"} {
		if _, err := endpointFromWS(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestTail(t *testing.T) {
	tl := newTail(16)
	io.WriteString(tl, "one\n")
	if tl.String() != "one\n" {
		t.Fatal(tl.String())
	}
	io.WriteString(tl, "two\nthree\nfour\n")
	if got := tl.String(); got != "two\nthree\nfour\n" {
		t.Fatalf("%q", got)
	}
	io.WriteString(tl, strings.Repeat("x", 40))
	if got := tl.String(); len(got) > 16 {
		t.Fatalf("%q", got)
	}
}

func TestOutputReader(t *testing.T) {
	r, w := io.Pipe()
	var copyBuf syncBuffer
	o := newOutputReader(r, &copyBuf)
	done := make(chan struct{})
	go func() { defer close(done); o.run() }()
	long := strings.Repeat("y", maxLineForMatch+10) + " DevTools listening on ws://127.0.0.1:1/devtools/browser/wrong\n"
	input := "[: 1: unexpected operator\n" + long +
		"Debugger listening on ws://127.0.0.1:9229/uuid\nFor help, see: https://nodejs.org/en/docs/inspector\n" +
		"DevTools listening on ws://127.0.0.1:4242/devtools/browser/right\n" +
		"DevTools listening on ws://127.0.0.1:5/devtools/browser/second\n"
	go func() {
		io.WriteString(w, input)
		w.Close()
	}()
	select {
	case u := <-o.devtools:
		if u != "ws://127.0.0.1:4242/devtools/browser/right" {
			t.Fatalf("devtools %q", u)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no devtools line")
	}
	if u := <-o.inspector; u != "ws://127.0.0.1:9229/uuid" {
		t.Fatalf("inspector %q", u)
	}
	<-done
	if copyBuf.String() != input {
		t.Fatal("the copy differs from the input")
	}
	if !strings.HasSuffix(o.tail.String(), "browser/second\n") || len(o.tail.String()) > tailSize {
		t.Fatal("tail")
	}
}

func TestReadActivePort(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "DevToolsActivePort")
	for content, want := range map[string]string{
		"39581\n/devtools/browser/0b6e-11":   "ws://127.0.0.1:39581/devtools/browser/0b6e-11",
		"39581\n/devtools/browser/0b6e-11\n": "ws://127.0.0.1:39581/devtools/browser/0b6e-11",
		"39581\n":                            "",
		"39581\n/devtools/browser/":          "",
		"x\n/devtools/browser/a":             "",
		"0\n/devtools/browser/a":             "",
	} {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		got, ok := readActivePort(p)
		if got != want || ok != (want != "") {
			t.Errorf("%q: got %q %v, want %q", content, got, ok, want)
		}
	}
	if _, ok := readActivePort(filepath.Join(dir, "none")); ok {
		t.Error("a missing file parsed")
	}
}
