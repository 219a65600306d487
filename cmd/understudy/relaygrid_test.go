package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
	"github.com/understudy-dev/understudy/internal/fixture/npmtest"
	"github.com/understudy-dev/understudy/internal/grid/gridtest"
)

// relayCompat holds the pinned Playwright the relay's tests use.
var relayCompat = &npmtest.Folder{Dir: filepath.Join("..", "..", "internal", "relay", "compat")}

// TestRelayGrid runs `understudy relay --grid` against a real Selenium
// Grid 4 standalone (one slot): bad input exits 2 naming the flag (no
// URL, bad capabilities JSON, capabilities the grid refuses, an se:cdp
// address --allow-remote does not cover, after which the grid holds no
// session); then Playwright's connectOverCDP through the relay opens the
// fixture's top page on the grid's browser (its cross-site OOPIFs
// included) and reads its title; after SIGTERM the grid's slot is free,
// and a relay that fails to start (its port taken) deletes its session
// too.
func TestRelayGrid(t *testing.T) {
	chrome := chromiumtest.Require(t)
	node := relayCompat.Require(t)
	g := gridtest.Standalone(t, "--max-sessions", "1", "--session-request-timeout", "120")
	hosts, err := g.AdvertisedHosts(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	app, err := fixture.Serve(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	caps := map[string]any{"browserName": "chrome", "goog:chromeOptions": map[string]any{
		"binary": chrome,
		"args": []any{"--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
			"--host-resolver-rules=" + fixture.HostResolverRules()},
	}}
	capsJSON, _ := json.Marshal(caps)
	capsFile := filepath.Join(t.TempDir(), "caps.json")
	if err := os.WriteFile(capsFile, capsJSON, 0o600); err != nil {
		t.Fatal(err)
	}
	allow := strings.Join(hosts, ",")
	bin := binary(t)
	run := func(args ...string) (int, string) {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, append([]string{"relay"}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, stderr.String()
	}
	noSessions := func(what string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			m, err := g.Sessions(t.Context())
			if err == nil && len(m) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the grid still holds sessions %v (%v)", what, m, err)
			}
			time.Sleep(250 * time.Millisecond)
		}
	}

	t.Run("bad input exits 2 naming the flag", func(t *testing.T) {
		type badCase struct {
			args []string
			flag string
		}
		cases := []badCase{
			{[]string{"--capabilities", "{}"}, "--grid"},
			{[]string{"--grid", "grid.example:4444"}, "--grid"},
			{[]string{"--grid", g.URL, "--capabilities", "{not json"}, "--capabilities"},
			{[]string{"--grid", g.URL, "--capabilities", "@" + filepath.Join(t.TempDir(), "missing.json")}, "--capabilities"},
			{[]string{"--grid", g.URL, "--allow-remote", allow, "--capabilities",
				`{"browserName":"chrome","goog:chromeOptions":{"binary":"/nonexistent/chromium"}}`}, "--capabilities"},
		}
		if !slices.ContainsFunc(hosts, browser.IsLoopbackHost) {
			// The grid advertises an address off loopback (as it does on
			// this machine): without --allow-remote its se:cdp is refused.
			cases = append(cases, badCase{[]string{"--grid", g.URL, "--capabilities", "@" + capsFile}, "--allow-remote"})
		}
		for _, c := range cases {
			code, stderr := run(c.args...)
			if code != 2 || !strings.Contains(stderr, c.flag) {
				t.Errorf("relay %v: exit %d, want 2 naming %s; stderr: %s", c.args, code, c.flag, stderr)
			}
			t.Logf("relay %v: %s", c.args, strings.TrimSpace(stderr))
		}
		noSessions("after the refusals")
	})

	t.Run("Playwright through relay --grid; SIGTERM deletes the session", func(t *testing.T) {
		cmd, httpURL, stderr := startRelayCmd(t, "--grid", g.URL, "--capabilities", "@"+capsFile, "--allow-remote", allow)
		if m, err := g.Sessions(t.Context()); err != nil || len(m) != 1 {
			t.Fatalf("the grid holds %v (%v), want one session", m, err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
		defer cancel()
		script := exec.CommandContext(ctx, node, "grid.mjs")
		script.Dir = relayCompat.Dir
		script.Env = append(os.Environ(), "RELAY_HTTP="+httpURL, "TOP_URL="+app.URL("a.test", "/index.html"))
		got, err := script.CombinedOutput()
		if err != nil || !strings.Contains(string(got), "TITLE Top\n") || !strings.Contains(string(got), "/cross2.html") {
			t.Fatalf("grid.mjs: %v\n%s\nrelay stderr: %s", err, got, stderr.String())
		}
		t.Logf("grid.mjs:\n%s", got)
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("relay exit after SIGTERM: %v; stderr: %s", err, stderr.String())
			}
		case <-time.After(60 * time.Second):
			t.Fatal("relay did not exit on SIGTERM")
		}
		noSessions("after SIGTERM")
	})

	t.Run("a relay that fails deletes its session", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		port := ln.Addr().(*net.TCPAddr).Port
		code, stderr := run("--grid", g.URL, "--capabilities", "@"+capsFile, "--allow-remote", allow, "--port", strconv.Itoa(port))
		if code == 0 {
			t.Fatalf("the relay started on a taken port; stderr: %s", stderr)
		}
		t.Logf("exit %d: %s", code, strings.TrimSpace(stderr))
		noSessions("after the failed start")
	})
}

func TestValidRelayAllow(t *testing.T) {
	for s, want := range map[string]bool{
		"Target.exposeDevToolsProtocol": true, "SystemInfo.*": true, "Page.crash": true,
		"": false, "Page": false, "Page.": false, ".crash": false, "Page.crash.x": false, "*": false, "Page.cr ash": false, "1Page.x": false,
	} {
		if got := validRelayAllow(s); got != want {
			t.Errorf("validRelayAllow(%q) = %v, want %v", s, got, want)
		}
	}
}
