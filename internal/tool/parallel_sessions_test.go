package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// Many sessions per server (docs/adr/028): sessions driven in parallel
// through one server share no lock on the call path, and each call acts on
// its own session's page.

// parallelSessions launches n Chromiums through s, one after the other
// (starting eight browsers at once on a loaded two-core machine only makes
// each launch time out), each on the fixture's actions page with its own
// query, and returns their session ids (index i is on ?s=i).
func parallelSessions(tb testing.TB, s *Server, app *fixture.Server, chrome string, n int) []string {
	tb.Helper()
	ids := make([]string, n)
	for i := range n {
		m, err := dispatchMap(s, "electron_launch", map[string]any{"executablePath": chrome, "allowMultiple": true,
			"timeoutMs": 240000, "readyTimeoutMs": 120000, "args": []string{
				"--host-resolver-rules=" + fixture.HostResolverRules(), app.URL("a.test", fmt.Sprintf("/actions.html?s=%d", i))}})
		if err != nil {
			tb.Fatalf("launch %d: %v", i, err)
		}
		ids[i], _ = m["session_id"].(string)
	}
	return ids
}

// dispatchMap runs one call and returns its envelope, or an error with the
// envelope when it failed.
func dispatchMap(s *Server, name string, args any) (map[string]any, error) {
	raw, _ := json.Marshal(args)
	res := s.Dispatch(context.Background(), name, raw, nil)
	var m map[string]any
	_ = json.Unmarshal(res.JSON, &m)
	if res.IsError {
		return m, fmt.Errorf("%s: %s", name, res.JSON)
	}
	return m, nil
}

// roundTrip is one step of a session's loop: type a value of its own,
// click, snapshot, and read the value back; it fails unless the session's
// page holds the value this session typed.
func roundTrip(s *Server, sid, value string) error {
	if _, err := dispatchMap(s, "electron_type", map[string]any{"sessionId": sid, "selector": "#inp", "text": value}); err != nil {
		return err
	}
	if _, err := dispatchMap(s, "electron_click", map[string]any{"sessionId": sid, "selector": "#btn"}); err != nil {
		return err
	}
	if _, err := dispatchMap(s, "electron_snapshot", map[string]any{"format": "json", "sessionId": sid}); err != nil {
		return err
	}
	m, err := dispatchMap(s, "electron_get_value", map[string]any{"sessionId": sid, "selector": "#inp"})
	if err != nil {
		return err
	}
	if m["value"] != value {
		return fmt.Errorf("session %s reads %q, want %q (its own)", sid, m["value"], value)
	}
	return nil
}

// TestEightSessionsInParallel: eight sessions (eight Chromiums) on one
// server, driven at once, each typing, clicking, taking snapshots and
// reading back a value of its own: every call acts on its own session's
// page.
func TestEightSessionsInParallel(t *testing.T) {
	chrome := chromiumtest.Require(t)
	if testing.Short() {
		t.Skip("-short: launches eight browsers")
	}
	app, err := fixture.Serve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	s := New(Config{OperationTimeout: 5 * time.Minute})
	t.Cleanup(s.Close)
	ids := parallelSessions(t, s, app, chrome, 8)
	var wg sync.WaitGroup
	errc := make(chan error, len(ids))
	for i, sid := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 4 {
				if err := roundTrip(s, sid, fmt.Sprintf("session-%d-round-%d", i, round)); err != nil {
					errc <- err
					return
				}
			}
			// Each session is still on its own page.
			if _, err := dispatchMap(s, "electron_expect_url", map[string]any{"sessionId": sid, "contains": fmt.Sprintf("/actions.html?s=%d", i), "timeoutMs": 0}); err != nil {
				errc <- err
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
}

// BenchmarkParallelSessions: N sessions (UNDERSTUDY_BENCH_SESSIONS, default
// 8) on one server, each driven by its own goroutine in a loop of
// type+click+snapshot+get_value for UNDERSTUDY_BENCH_SECONDS (default 20),
// against one session driven alone for the same time, in one run. It
// reports loops per second for both and the speed-up.
//
//	go test -run '^$' -bench ParallelSessions -benchtime 1x -timeout 20m ./internal/tool/
func BenchmarkParallelSessions(b *testing.B) {
	chrome := chromiumtest.Require(b)
	n, secs := 8, 20
	if v, err := strconv.Atoi(os.Getenv("UNDERSTUDY_BENCH_SESSIONS")); err == nil && v > 0 {
		n = v
	}
	if v, err := strconv.Atoi(os.Getenv("UNDERSTUDY_BENCH_SECONDS")); err == nil && v > 0 {
		secs = v
	}
	app, err := fixture.Serve(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = app.Close() })
	s := New(Config{OperationTimeout: 5 * time.Minute})
	b.Cleanup(s.Close)
	ids := parallelSessions(b, s, app, chrome, n)
	// A call that times out on the loaded machine (the renderer did not
	// answer) is counted, not fatal: the benchmark reports the failed loops.
	// A session reading another session's value fails it.
	run := func(sids []string) (loops, failed int, lat []time.Duration) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		end := time.Now().Add(time.Duration(secs) * time.Second)
		for i, sid := range sids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := 0; time.Now().Before(end); k++ {
					t0 := time.Now()
					if err := roundTrip(s, sid, fmt.Sprintf("s%d-%d", i, k)); err != nil {
						if strings.Contains(err.Error(), "want") {
							b.Error(err)
							return
						}
						mu.Lock()
						failed++
						mu.Unlock()
						continue
					}
					d := time.Since(t0)
					mu.Lock()
					loops++
					lat = append(lat, d)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		return loops, failed, lat
	}
	for b.Loop() {
		one, f1, l1 := run(ids[:1])
		all, fn, ln := run(ids)
		b.ReportMetric(float64(f1), "failed-1")
		b.ReportMetric(float64(fn), fmt.Sprintf("failed-%d", n))
		r1, rn := float64(one)/float64(secs), float64(all)/float64(secs)
		b.ReportMetric(r1, "loops/s-1")
		b.ReportMetric(rn, fmt.Sprintf("loops/s-%d", n))
		b.ReportMetric(rn/r1, "speedup")
		b.ReportMetric(medianMS(l1), "ms/loop-1")
		b.ReportMetric(medianMS(ln), fmt.Sprintf("ms/loop-%d", n))
	}
}
