package tool

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// flatThroughTap attaches e's server to a browser of the test's own in flat
// mode (one browser socket, as on a Selenium Grid session's se:cdp: the
// auto-connect path) through a tap that records every command and holds
// each message for delay each way.
func flatThroughTap(t testing.TB, e *env, delay time.Duration) *fixture.Tap {
	b := chromiumtest.Start(t.Context(), t)
	tap, err := fixture.StartTap(b.WSURL, delay)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tap.Close() })
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "DevToolsActivePort"), fmt.Appendf(nil, "%d\n%s\n", tap.Port(), tap.Path()), 0o600); err != nil {
		t.Fatal(err)
	}
	e.ok("electron_attach", map[string]any{"autoConnect": true, "userDataDir": dir})
	return tap
}

// commandCounts sums commands by method.
func commandCounts(cmds []fixture.TapCommand) map[string]int {
	m := map[string]int{}
	for _, c := range cmds {
		m[c.Method]++
	}
	return m
}

func describeCommands(cmds []fixture.TapCommand) string {
	var b strings.Builder
	var t0 time.Time
	for i, c := range cmds {
		if i == 0 {
			t0 = c.At
		}
		fmt.Fprintf(&b, "  +%4d ms %s %s\n", c.At.Sub(t0).Milliseconds(), c.Method, c.SessionID)
	}
	return b.String()
}

// TestFlatFirstSnapshotCommands counts the CDP commands of the first
// electron_snapshot of the fixture's top page (two cross-site OOPIFs, one
// nested in the other) after electron_navigate, in flat mode.
func TestFlatFirstSnapshotCommands(t *testing.T) {
	e := newEnv(t, Config{AllowAutoConnect: true, AllowEvalRenderer: true})
	tap := flatThroughTap(t, e, 0)
	tap.Reset()
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/index.html")})
	nav := tap.Commands()
	tap.Reset()
	t0 := time.Now()
	e.ok("electron_snapshot", nil)
	took := time.Since(t0)
	snap := tap.Commands()
	t.Logf("navigate: %d commands %v\n%s", len(nav), commandCounts(nav), describeCommands(nav))
	t.Logf("first snapshot: %d commands in %v %v\n%s", len(snap), took, commandCounts(snap), describeCommands(snap))
}
