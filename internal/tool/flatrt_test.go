package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
	"github.com/understudy-dev/understudy/internal/nav"
)

// flatThroughTap attaches e's server to a browser of the test's own in flat
// mode (one browser socket, as on a Selenium Grid session's se:cdp: the
// auto-connect path) through a tap that records every command and holds
// each message for delay each way.
func flatThroughTap(t *testing.T, e *env, delay time.Duration) *fixture.Tap {
	tap, dir := tapActivePort(t, delay)
	e.ok("electron_attach", map[string]any{"autoConnect": true, "userDataDir": dir})
	return tap
}

// tapActivePort starts a browser of tb's own and a tap in front of its
// browser socket, and returns the tap and a user-data directory whose
// DevToolsActivePort names the tap (electron_attach {autoConnect,
// userDataDir} then connects through it).
func tapActivePort(tb testing.TB, delay time.Duration) (*fixture.Tap, string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := chromiumtest.Start(ctx, tb)
	tap, err := fixture.StartTap(b.WSURL, delay)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = tap.Close() })
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "DevToolsActivePort"), fmt.Appendf(nil, "%d\n%s\n", tap.Port(), tap.Path()), 0o600); err != nil {
		tb.Fatal(err)
	}
	return tap, dir
}

// commandCounts sums commands by method.
// withoutProbe drops the liveness probe the dispatcher writes before a
// page tool's own commands (hung.go), after checking that there is one and
// that it went first. Nothing waits for its reply but the dispatcher's
// watch beside the handler, so it adds no round trip.
func withoutProbe(t *testing.T, cmds []fixture.TapCommand) []fixture.TapCommand {
	t.Helper()
	var out []fixture.TapCommand
	probes := 0
	for i, c := range cmds {
		var p struct {
			Expression string `json:"expression"`
		}
		if c.Method == "Runtime.evaluate" && json.Unmarshal(c.Params, &p) == nil && p.Expression == nav.ProbeExpression {
			probes++
			if i != 0 {
				t.Errorf("the liveness probe went out as command %d, not first:\n%s", i, describeCommands(cmds))
			}
			continue
		}
		out = append(out, c)
	}
	if probes != 1 {
		t.Errorf("%d liveness probes, want 1:\n%s", probes, describeCommands(cmds))
	}
	return out
}

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

// settled waits until the tap has seen no command for half a second and
// returns what it saw: the registry attaches a new document's OOPIFs on
// its own after electron_navigate has answered (on a loaded machine well
// after), and those commands are not the next call's.
func settled(t *testing.T, tap *fixture.Tap) []fixture.TapCommand {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for n := len(tap.Commands()); ; {
		time.Sleep(500 * time.Millisecond)
		cmds := tap.Commands()
		if len(cmds) == n {
			return cmds
		}
		if time.Now().After(deadline) {
			t.Fatalf("the browser socket never went quiet after navigating:\n%s", describeCommands(cmds))
		}
		n = len(cmds)
	}
}

// TestFlatFirstSnapshotCommands counts the CDP commands of the first
// electron_snapshot of the fixture's top page (two cross-site OOPIFs, one
// nested in the other) after electron_navigate, in flat mode (as on a
// Selenium Grid session, where every round trip crosses the grid's
// proxy): one Runtime.evaluate that installs the walker if the document
// lacks it and walks, and nothing else, for a new session's first
// snapshot and for the first snapshot after the next navigation (no OOPIF is attached for it: the
// top page's snapshot does not walk them). The registry's own attaching of
// the new document's OOPIFs is let finish first (settled). The click after it is logged
// with its commands; its Page.bringToFront shares a round trip with the
// wait for the window's paint.
func TestFlatFirstSnapshotCommands(t *testing.T) {
	e := newEnv(t, Config{AllowAutoConnect: true, AllowEvalRenderer: true})
	// Every message waits 30 ms in the tap each way, so that a reply comes
	// back no sooner than 60 ms after its command: a command sent without
	// waiting for it goes out well before (with no delay a fast reply could
	// beat a pipelined command under -race). UNDERSTUDY_TAP_DELAY_MS sets
	// another delay.
	delay := 30 * time.Millisecond
	if ms, err := strconv.Atoi(os.Getenv("UNDERSTUDY_TAP_DELAY_MS")); err == nil {
		delay = time.Duration(ms) * time.Millisecond
	}
	tap := flatThroughTap(t, e, delay)
	tap.Reset()
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/index.html")})
	nav := settled(t, tap)
	tap.Reset()
	t0 := time.Now()
	e.ok("electron_snapshot", map[string]any{"format": "json"})
	took := time.Since(t0)
	snap := tap.Commands()
	tap.Reset()
	t0 = time.Now()
	e.ok("electron_click", map[string]any{"selector": "#btn"})
	tookClick := time.Since(t0)
	click := tap.Commands()
	t.Logf("navigate: %d commands %v\n%s", len(nav), commandCounts(nav), describeCommands(nav))
	t.Logf("first snapshot: %d commands in %v %v\n%s", len(snap), took, commandCounts(snap), describeCommands(snap))
	t.Logf("click: %d commands in %v %v\n%s", len(click), tookClick, commandCounts(click), describeCommands(click))
	// Every page tool's call first writes a liveness probe on the window's
	// socket (hung.go): it is not waited for, so it costs no round trip;
	// the snapshot's own evaluation goes out before the probe's reply.
	snap = withoutProbe(t, snap)
	click = withoutProbe(t, click)
	if len(snap) != 1 || snap[0].Method != "Runtime.evaluate" {
		t.Fatalf("the first snapshot sent %d commands %v, want one Runtime.evaluate", len(snap), commandCounts(snap))
	}
	// A new document on the same surface: its first snapshot is one
	// evaluation too (the registry saw the new document's context).
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/index.html?again=1")})
	settled(t, tap)
	tap.Reset()
	e.ok("electron_snapshot", map[string]any{"format": "json"})
	if again := withoutProbe(t, tap.Commands()); len(again) != 1 || again[0].Method != "Runtime.evaluate" {
		t.Fatalf("the first snapshot of a new document sent %d commands %v, want one Runtime.evaluate", len(again), commandCounts(again))
	}
	// The window comes to the front and waits for its paint in one round
	// trip: the wait goes out before Page.bringToFront's reply is back.
	if len(click) < 2 || click[0].Method != "Page.bringToFront" || click[1].Method != "Runtime.evaluate" {
		t.Fatalf("the click does not start with Page.bringToFront and its paint wait:\n%s", describeCommands(click))
	}
	if !click[0].Replied.IsZero() && !click[1].At.Before(click[0].Replied) {
		t.Errorf("the paint wait went out %v after Page.bringToFront's reply: a round trip of its own", click[1].At.Sub(click[0].Replied))
	}
}

// BenchmarkFlatFirstSnapshotLatency: the first electron_snapshot of the
// fixture's top page after electron_navigate (two cross-site OOPIFs, one
// nested) in flat mode, through a tap that holds every message for 0 and
// for 20 ms each way (a grid proxy's hop), same run. rt-critical is the
// round trips on the snapshot's critical path, (t20 − t0) / 40 ms;
// commands is what the snapshot sent. Run with
//
//	go test -run '^$' -bench FlatFirstSnapshotLatency -benchtime 5x ./internal/tool/
func BenchmarkFlatFirstSnapshotLatency(b *testing.B) {
	chromiumtest.Require(b)
	app, err := fixture.Serve(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = app.Close() })
	const delay = 20 * time.Millisecond
	type side struct {
		tap  *fixture.Tap
		srv  *Server
		took []time.Duration
		cmds []int
	}
	var sides [2]*side
	for i, d := range []time.Duration{0, delay} {
		tap, dir := tapActivePort(b, d)
		s := New(Config{AllowAutoConnect: true, OperationTimeout: 10 * time.Minute})
		b.Cleanup(s.Close)
		dispatchOK(b, s, "electron_attach", map[string]any{"autoConnect": true, "userDataDir": dir}, nil)
		sides[i] = &side{tap: tap, srv: s}
	}
	top := app.URL("a.test", "/index.html")
	for b.Loop() {
		for _, sd := range sides {
			dispatchOK(b, sd.srv, "electron_navigate", map[string]any{"url": top}, nil)
			sd.tap.Reset()
			t0 := time.Now()
			dispatchOK(b, sd.srv, "electron_snapshot", nil, nil)
			sd.took = append(sd.took, time.Since(t0))
			sd.cmds = append(sd.cmds, len(sd.tap.Commands()))
		}
	}
	t0, t20 := medianMS(sides[0].took), medianMS(sides[1].took)
	b.ReportMetric(t0, "ms-d0")
	b.ReportMetric(t20, "ms-d20")
	b.ReportMetric((t20-t0)/float64(2*delay.Milliseconds()), "rt-critical")
	b.ReportMetric(float64(slices.Max(sides[0].cmds)), "commands")
}
