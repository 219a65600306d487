package tool

import (
	"testing"
	"time"
)

// BenchmarkGetTextDispatch: one electron_get_text on large.html through the
// dispatcher (the MCP transport adds its own floor on top; target through
// MCP ≤ 1.5 ms median).
func BenchmarkGetTextDispatch(b *testing.B) {
	s, _ := launchBench(b, Config{}, "/large.html")
	dispatchOK(b, s, "electron_get_text", map[string]any{"selector": "#status"}, nil)
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		dispatchOK(b, s, "electron_get_text", map[string]any{"selector": "#status"}, nil)
		ds = append(ds, time.Since(t0))
	}
	b.ReportMetric(medianMS(ds), "ms-median")
}
