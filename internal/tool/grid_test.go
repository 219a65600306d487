package tool

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/grid/gridtest"
)

// gridCaps are the capabilities of a test session: headless Chromium that
// resolves the fixture's hosts.
func gridCaps(chrome string) map[string]any {
	return map[string]any{
		"browserName": "chrome",
		"goog:chromeOptions": map[string]any{
			"binary": chrome,
			"args": []any{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--window-size=1280,900",
				"--host-resolver-rules=" + fixture.HostResolverRules()},
		},
	}
}

// gridEnv is an env whose server allows the grid's advertised hosts.
func gridEnv(t *testing.T, g *gridtest.Grid, allow bool) *env {
	t.Helper()
	cfg := Config{AllowEvalRenderer: true, OperationTimeout: 10 * time.Minute}
	if allow {
		hosts, err := g.AdvertisedHosts(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		cfg.AllowRemote, err = browser.ParseRemoteAllow(hosts)
		if err != nil {
			t.Fatal(err)
		}
	}
	e := newEnv(t, cfg)
	e.callTimeout = 10 * time.Minute
	return e
}

func gridSessions(t *testing.T, g *gridtest.Grid) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m, err := g.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// waitGridSessions waits until the grid holds exactly want sessions (it
// frees a slot a moment after DELETE answers).
func waitGridSessions(t *testing.T, g *gridtest.Grid, want int) []string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ids := gridSessions(t, g)
		if len(ids) == want {
			return ids
		}
		if time.Now().After(deadline) {
			t.Fatalf("the grid holds sessions %v, want %d", ids, want)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// TestGridStandalone drives a session of a real Selenium Grid 4
// (standalone, one slot) through every layer: the se:cdp endpoint off
// loopback is refused without --allow-remote (and the grid session is
// deleted again), then allowed; the fixture's surfaces are listed, and a
// snapshot, a click and typing work in a cross-site OOPIF nested in
// another; a second launch while the slot is taken is GRID_NO_SLOT with
// the grid's message; electron_stop deletes the session; a session left
// open is deleted when the server exits.
func TestGridStandalone(t *testing.T) {
	g := gridtest.Standalone(t, "--max-sessions", "1", "--session-request-timeout", "90")
	chrome := os.Getenv("UNDERSTUDY_CHROMIUM")
	e0 := gridEnv(t, g, false)
	if chrome == "" {
		chrome = e0.chrome
	}
	launchArgs := map[string]any{"grid": g.URL, "capabilities": gridCaps(chrome)}

	t.Run("se:cdp off loopback needs --allow-remote", func(t *testing.T) {
		e := e0.on(t)
		r := e.fails("electron_launch", launchArgs, "REMOTE_NOT_ALLOWED")
		if msg, _ := r["error"].(string); !strings.Contains(msg, "--allow-remote") {
			t.Fatalf("the error does not name the flag: %v", r)
		}
		waitGridSessions(t, g, 0)
	})

	e := gridEnv(t, g, true)
	t.Run("bad capabilities carry the grid's message", func(t *testing.T) {
		e := e.on(t)
		r := e.fails("electron_launch", map[string]any{"grid": g.URL, "capabilities": map[string]any{
			"browserName": "chrome", "goog:chromeOptions": map[string]any{"binary": "/nonexistent/chromium"}}}, "GRID_SESSION_FAILED")
		t.Logf("grid error: %v", r["error"])
	})

	var sid string
	t.Run("launch, surfaces, snapshot, click and type in an OOPIF", func(t *testing.T) {
		e := e.on(t)
		r := e.ok("electron_launch", launchArgs)
		sid, _ = r["grid_session_id"].(string)
		if sid == "" || r["launch_mode"] != "grid" {
			t.Fatalf("launch: %v", r)
		}
		t.Logf("grid session %s created in %v ms", sid, r["grid_session_ms"])
		if ids := gridSessions(t, g); !slices.Equal(ids, []string{sid}) {
			t.Fatalf("grid sessions %v, want [%s]", ids, sid)
		}
		e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/index.html")})
		s := e.gridSurfaces()
		e.use(s["cross2"])
		snap := e.ok("electron_snapshot", map[string]any{"format": "json"})
		found := false
		for _, x := range snap["entries"].([]any) {
			m := x.(map[string]any)
			found = found || (m["role"] == "button" && m["name"] == "Click cross2")
		}
		if !found || !strings.HasSuffix(snap["url"].(string), "/cross2.html") {
			t.Fatalf("snapshot of cross2: %v", snap)
		}
		e.ok("electron_click", map[string]any{"selector": "#btn"})
		if n := e.clicksOn("btn"); n != 1 {
			t.Fatalf("cross2 recorded %d clicks", n)
		}
		e.ok("electron_type", map[string]any{"selector": "#inp", "text": "over the grid"})
		if v := e.evalString("document.getElementById('inp').value"); v != "over the grid" {
			t.Fatalf("value %q", v)
		}
	})

	t.Run("no free slot is GRID_NO_SLOT", func(t *testing.T) {
		e := e.on(t)
		args := map[string]any{"grid": g.URL, "capabilities": gridCaps(chrome), "allowMultiple": true}
		r := e.fails("electron_launch", args, "GRID_NO_SLOT")
		t.Logf("grid error: %v", r["error"])
	})

	t.Run("stop deletes the grid session", func(t *testing.T) {
		e := e.on(t)
		r := e.ok("electron_stop", nil)
		if r["action"] != "closed" || r["owned"] != true {
			t.Fatalf("stop: %v", r)
		}
		waitGridSessions(t, g, 0)
	})

	t.Run("server exit deletes the grid sessions it created", func(t *testing.T) {
		e2 := gridEnv(t, g, true)
		e2.ok("electron_launch", launchArgs)
		waitGridSessions(t, g, 1)
		e2.srv.Close()
		waitGridSessions(t, g, 0)
	})
}

// gridSurfaces waits for the fixture's frames (no webview guest here).
func (e *env) gridSurfaces() map[string]map[string]any {
	e.t.Helper()
	return e.surfacesNamed(map[string]string{"index.html": "top", "same1.html": "same1", "same2.html": "same2", "cross1.html": "cross1",
		"cross2.html": "cross2"})
}
