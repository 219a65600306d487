package tool

import (
	"testing"
	"time"
)

// BenchmarkExpectTextHolds: an electron_expect_text that already holds,
// through the dispatcher (target ≤ 3 ms median): one renderer call that
// checks, finds the condition met and settles without polling.
func BenchmarkExpectTextHolds(b *testing.B) {
	s, _ := launchBench(b, Config{}, "/actions.html")
	check := map[string]any{"selector": "#eventually", "equals": "ready"}
	first := map[string]any{"selector": "#eventually", "equals": "ready", "timeoutMs": 10000}
	dispatchOK(b, s, "electron_expect_text", first, nil) // the walker is installed, the page is ready
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		dispatchOK(b, s, "electron_expect_text", check, nil)
		ds = append(ds, time.Since(t0))
	}
	b.StopTimer()
	b.ReportMetric(medianMS(ds), "ms-median")
}
