package tool

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// TestAutoConnect: electron_attach {autoConnect} is refused without the
// operator's flag; with it, an empty userDataDir says what was looked at
// and why nothing matched; pointed at a running Chromium's user-data
// directory (--remote-debugging-port=0 writes DevToolsActivePort there) it
// attaches over the browser socket alone (flat, ADR-025), and the
// existing tool paths work there: surfaces, a snapshot, a click and typing
// in a cross-site OOPIF. electron_stop leaves the user's browser running.
func TestAutoConnect(t *testing.T) {
	off := newEnv(t, Config{})
	r := off.fails("electron_attach", map[string]any{"autoConnect": true}, "BAD_ARGUMENT")
	if !strings.Contains(r["error"].(string), "--allow-auto-connect") {
		t.Fatalf("the refusal does not name the flag: %v", r)
	}

	e := newEnv(t, Config{AllowAutoConnect: true, AllowEvalRenderer: true})
	empty := t.TempDir()
	r = e.fails("electron_attach", map[string]any{"autoConnect": true, "userDataDir": empty}, "AUTO_CONNECT_FAILED")
	looked, _ := details(r)["looked"].([]any)
	if len(looked) == 0 || looked[0].(map[string]any)["dir"] != empty || looked[0].(map[string]any)["why"] == "" {
		t.Fatalf("looked: %v", r)
	}

	// A headful-style browser (the new headless mode) writes
	// DevToolsActivePort into its user-data directory, as Chrome does.
	b := chromiumtest.Start(t.Context(), t, "--headless=new")
	// The browser writes the file a moment after it starts listening.
	deadline := time.Now().Add(30 * time.Second)
	for {
		if data, err := os.ReadFile(filepath.Join(b.UserDataDir, "DevToolsActivePort")); err == nil && strings.Count(string(data), "\n") >= 1 && strings.Contains(string(data), "/devtools/browser/") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no DevToolsActivePort in the browser's user-data directory")
		}
		time.Sleep(50 * time.Millisecond)
	}
	r = e.ok("electron_attach", map[string]any{"autoConnect": true, "userDataDir": b.UserDataDir})
	if r["auto_connected"] != b.UserDataDir || !strings.HasPrefix(r["endpoint"].(string), "ws://127.0.0.1:") {
		t.Fatalf("attach: %v", r)
	}
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/index.html")})
	s := e.gridSurfaces()
	e.use(s["cross2"])
	snap := e.ok("electron_snapshot", map[string]any{"format": "json"})
	if !strings.HasSuffix(snap["url"].(string), "/cross2.html") {
		t.Fatalf("snapshot: %v", snap)
	}
	e.ok("electron_click", map[string]any{"selector": "#btn"})
	if n := e.clicksOn("btn"); n != 1 {
		t.Fatalf("cross2 recorded %d clicks", n)
	}
	e.ok("electron_type", map[string]any{"selector": "#inp", "text": "own chrome"})
	if v := e.evalString("document.getElementById('inp').value"); v != "own chrome" {
		t.Fatalf("value %q", v)
	}
	// New OOPIFs are held here too (ADR-033 amendment 2: auto-attach on
	// each target's view), and the views work on once the hold is gone.
	e.lateOOPIF(s["top"], "flat")
	e.use(s["cross2"])
	e.ok("electron_click", map[string]any{"selector": "#btn"})
	if n := e.clicksOn("btn"); n != 2 {
		t.Fatalf("after the hold cross2 recorded %d clicks", n)
	}
	if r := e.ok("electron_stop", nil); r["action"] != "detached" || r["app_left_running"] != true {
		t.Fatalf("stop: %v", r)
	}
	if _, err := b.List(t.Context()); err != nil {
		t.Fatalf("the user's browser did not survive stop: %v", err)
	}
}

// externalIP is an address of this machine off loopback, or "".
func externalIP() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	return ""
}

// TestRemoteEndpoint: a cdpUrl off loopback is REMOTE_NOT_ALLOWED naming
// --allow-remote, without being dialled; allowed, it attaches through an
// authenticating proxy on this machine's external address with the
// operator's header, which never shows in a result or in the logs.
func TestRemoteEndpoint(t *testing.T) {
	ip := externalIP()
	if ip == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI: this machine has no address off loopback, which the remote endpoint test needs")
		}
		t.Skip("CI not true: no address off loopback on this machine")
	}
	b := chromiumtest.Start(t.Context(), t)
	const token = "Bearer tok-3f9a1c"
	var mu sync.Mutex
	seen := 0
	up, _ := url.Parse(b.HTTPURL)
	rp := httputil.NewSingleHostReverseProxy(up)
	proxy := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mu.Lock()
		seen++
		mu.Unlock()
		r.Header.Del("Authorization")
		r.Host = up.Host // Chromium checks Host
		rp.ServeHTTP(w, r)
	}))
	l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Fatal(err)
	}
	proxy.Listener = l
	proxy.Start()
	t.Cleanup(proxy.Close)
	wsPath := strings.TrimPrefix(b.WSURL, "ws://"+up.Host)
	cdpURL := "ws://" + l.Addr().String() + wsPath

	e0 := newEnv(t, Config{})
	r := e0.fails("electron_attach", map[string]any{"cdpUrl": cdpURL}, "REMOTE_NOT_ALLOWED")
	if !strings.Contains(r["error"].(string), "--allow-remote") || seen != 0 {
		t.Fatalf("refusal: %v (proxy saw %d requests)", r, seen)
	}

	allow, err := browser.ParseRemoteAllow([]string{ip})
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	e := newEnv(t, Config{AllowRemote: allow, RemoteHeaders: http.Header{"Authorization": {token}},
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	for _, u := range []string{cdpURL, "http://" + l.Addr().String()} {
		r = e.ok("electron_attach", map[string]any{"cdpUrl": u})
		if len(r["windows"].([]any)) == 0 {
			t.Fatalf("attach %s: %v", u, r)
		}
		e.ok("electron_snapshot", map[string]any{"format": "json"})
		st := e.ok("electron_status", nil)
		e.ok("electron_stop", nil)
		for _, m := range []map[string]any{r, st} {
			if strings.Contains(jsonString(t, m), "tok-3f9a1c") {
				t.Fatalf("the token is in a result: %v", m)
			}
		}
	}
	if seen == 0 {
		t.Fatal("the proxy saw no authorised request")
	}
	if strings.Contains(logs.String(), "tok-3f9a1c") {
		t.Fatal("the token is in the logs")
	}
	// Without the header the proxy refuses: a coded error, no token in it.
	e2 := newEnv(t, Config{AllowRemote: allow})
	r = e2.call("electron_attach", map[string]any{"cdpUrl": cdpURL})
	if r["ok"] != false {
		t.Fatalf("attach without the header: %v", r)
	}
}

func jsonString(t *testing.T, m map[string]any) string {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
