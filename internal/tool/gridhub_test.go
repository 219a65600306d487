//go:build gridhub

// Built only with -tags gridhub (make bench): three JVMs are too slow for
// make test, so the test is absent there rather than skipped.

package tool

import (
	"sync"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/grid/gridtest"
)

// TestGridHubTwoNodes: a hub with two nodes of one slot each; two grid
// sessions land on different nodes and are driven at once (navigate,
// click in a cross-site OOPIF). Slow (three JVMs), so it runs in make
// bench (-tags gridhub), not make test.
func TestGridHubTwoNodes(t *testing.T) {
	g := gridtest.HubAndNodes(t, 2)
	e := gridEnv(t, g, true)
	var ids [2]string
	for i := range ids {
		r := e.ok("electron_launch", map[string]any{"grid": g.URL, "capabilities": gridCaps(e.chrome), "allowMultiple": true})
		ids[i] = r["session_id"].(string)
	}
	nodes, err := g.Sessions(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, n := range nodes {
		seen[n] = true
	}
	if len(nodes) != 2 || len(seen) != 2 {
		t.Fatalf("sessions by node: %v", nodes)
	}
	t.Logf("sessions by node: %v", nodes)
	var wg sync.WaitGroup
	start := time.Now()
	for _, id := range ids {
		wg.Go(func() {
			defer func() { t.Logf("%s: navigate and click done at +%v", id, time.Since(start).Round(time.Millisecond)) }()
			for _, step := range []struct {
				tool string
				args map[string]any
			}{
				{"electron_navigate", map[string]any{"sessionId": id, "url": e.app.URL("a.test", "/index.html")}},
				{"electron_click", map[string]any{"sessionId": id, "selector": "#btn"}},
			} {
				if r := e.call(step.tool, step.args); r["ok"] != true {
					t.Errorf("%s %s: %v", id, step.tool, r)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, id := range ids {
		e.ok("electron_stop", map[string]any{"sessionId": id})
	}
	waitGridSessions(t, g, 0)
}
