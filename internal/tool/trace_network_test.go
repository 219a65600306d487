package tool

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/trace"
)

// TestTraceNetwork: with network capture on, each step records the
// requests that finished since the previous step, and the HTML report
// shows them.
func TestTraceNetwork(t *testing.T) {
	if testing.Short() {
		t.Skip("drives Chromium; skipped under -short")
	}
	e := newEnv(t, Config{})
	e.launch("/index.html")
	dir := filepath.Join(t.TempDir(), "tr")
	e.ok("trace_start", map[string]any{"path": dir})
	e.ok("network_capture_start", nil)
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/second.html")})
	e.ok("electron_get_text", map[string]any{"selector": "h1"})
	e.ok("trace_stop", nil)
	// trace.Load reads the steps as written: a file per step, or one file
	// for steps that came within the writer's coalescing window.
	tr, err := trace.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var found string
	for _, st := range tr.Steps {
		for _, l := range st.Network {
			if strings.Contains(l, "/second.html") && strings.HasPrefix(l, "GET 200 ") {
				found = st.Tool
			}
		}
	}
	if found == "" {
		t.Fatal("no step recorded the request for /second.html")
	}
	v := e.ok("trace_view", map[string]any{"path": dir, "html": true})
	page, err := os.ReadFile(v["html_path"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "Network since the previous step") || !strings.Contains(string(page), "/second.html") {
		t.Fatal("the HTML report does not show the network records")
	}
}
