package tool

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// TestHTTPClientsIsolated: over streamable HTTP, without --share-sessions,
// another client's sessions and the apps they launched do not exist for a
// client (issue 27, point 13): its own launch is not ALREADY_RUNNING
// because of them (and names none of their ids), discovery does not list
// their ports, and attaching to them (allowMultiple included, by port or
// by URL) answers as a closed port does.
func TestHTTPClientsIsolated(t *testing.T) {
	chrome := chromiumtest.Require(t)
	app, err := fixture.Serve(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	s := New(Config{FileRoots: []string{os.TempDir()}, ArtifactsDir: filepath.Join(t.TempDir(), "artifacts")})
	t.Cleanup(s.Close)
	hs := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	t.Cleanup(hs.Close)
	a := httpClient(t, hs.URL+MCPPath, "")
	b := httpClient(t, hs.URL+MCPPath, "")
	launchArgs := map[string]any{"executablePath": chrome,
		"args": []string{"--host-resolver-rules=" + fixture.HostResolverRules(), app.URL("a.test", "/index.html")}}

	ra := a("electron_launch", launchArgs)
	if ra["ok"] != true {
		t.Fatalf("A's launch: %v", ra)
	}
	aID, aEndpoint := ra["session_id"].(string), ra["endpoint"].(string)
	aPort := portOf(t, aEndpoint)

	// B's launch is B's business: A's session neither blocks nor shows.
	rb := b("electron_launch", launchArgs)
	if rb["ok"] != true {
		t.Fatalf("B's launch while A's session is open: %v", rb)
	}
	bEndpoint := rb["endpoint"].(string)
	bPort := portOf(t, bEndpoint)
	// B's second launch counts only B's session, and names only it.
	if m := b("electron_launch", launchArgs); m["code"] != "ALREADY_RUNNING" || strings.Contains(m["error"].(string), aID) {
		t.Fatalf("B's second launch: %v, want ALREADY_RUNNING naming only B's session", m)
	}

	// Discovery: each client finds its own app, never the other's.
	ports := []int{aPort, bPort}
	for _, c := range []struct {
		name        string
		call        func(string, map[string]any) map[string]any
		mine, other int
	}{{"A", a, aPort, bPort}, {"B", b, bPort, aPort}} {
		m := c.call("electron_discover_running", map[string]any{"ports": ports})
		found := map[int]bool{}
		for _, e := range m["endpoints"].([]any) {
			found[int(num(e.(map[string]any)["port"]))] = true
		}
		if !found[c.mine] || found[c.other] {
			t.Errorf("%s discovers %v, want its own port %d and not %d", c.name, m["endpoints"], c.mine, c.other)
		}
	}

	// Attach to A's app: as if nothing listened there.
	for _, args := range []map[string]any{
		{"port": aPort, "allowMultiple": true},
		{"port": aPort, "host": "localhost", "allowMultiple": true},
		{"cdpUrl": aEndpoint, "allowMultiple": true},
	} {
		m := b("electron_attach", args)
		if m["code"] != "NOT_RUNNING" || strings.Contains(m["error"].(string), aID) {
			t.Errorf("B attaches to A's app %v: %v, want NOT_RUNNING", args, m)
		}
	}
	// Nor its main-process inspector, next to B's own app.
	if m := b("electron_attach", map[string]any{"port": bPort, "allowMultiple": true, "inspectorPort": aPort}); m["code"] != "NOT_RUNNING" {
		t.Errorf("B attaches its app with A's port as inspector: %v, want NOT_RUNNING", m)
	}
	if st := b("electron_status", nil); len(st["sessions"].([]any)) != 1 {
		t.Errorf("B's status: %v, want only B's session", st)
	}
	if m := a("electron_windows_list", nil); m["ok"] != true {
		t.Fatalf("A's session after B's attempts: %v", m)
	}

	// A's trace does not exist for B: B's calls are not recorded in it,
	// B cannot read, stop or learn its folder.
	st := a("trace_start", map[string]any{"path": filepath.Join(t.TempDir(), "a-trace")})
	if st["recording"] != true {
		t.Fatalf("A's trace_start: %v", st)
	}
	before := num(a("trace_status", nil)["step_count"])
	b("electron_windows_list", nil)
	b("electron_status", nil)
	if got := num(a("trace_status", nil)["step_count"]); got != before {
		t.Errorf("B's calls were recorded in A's trace: %v steps, was %v", got, before)
	}
	if m := b("trace_status", nil); m["recording"] == true || m["path"] != nil {
		t.Errorf("B sees A's trace: %v", m)
	}
	if m := b("trace_budget", nil); m["recording"] == true || m["path"] != nil {
		t.Errorf("B sees A's trace budget: %v", m)
	}
	if m := b("trace_start", nil); m["code"] != "TRACE_ALREADY_RECORDING" || strings.Contains(fmt.Sprint(m), "a-trace") {
		t.Errorf("B's trace_start while A records: %v, want TRACE_ALREADY_RECORDING without A's folder", m)
	}
	if m := b("trace_stop", nil); m["code"] != "TRACE_NOT_RECORDING" {
		t.Errorf("B stops A's trace: %v", m)
	}
	if m := a("trace_stop", nil); m["ok"] != true {
		t.Errorf("A's trace_stop: %v", m)
	}
	for _, c := range []func(string, map[string]any) map[string]any{a, b} {
		if m := c("electron_stop", nil); m["action"] != "closed" {
			t.Errorf("stop: %v", m)
		}
	}
	noOrphans(t, num(ra["pid"]))
	noOrphans(t, num(rb["pid"]))
}

func portOf(t *testing.T, endpoint string) int {
	t.Helper()
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatalf("endpoint %q: %v", endpoint, err)
	}
	return p
}
