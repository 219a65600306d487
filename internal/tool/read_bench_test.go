package tool

import (
	"context"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// BenchmarkGetTextDispatch: one electron_get_text on large.html through the
// dispatcher (the MCP transport adds its own floor on top; target through
// MCP ≤ 1.5 ms median).
func BenchmarkGetTextDispatch(b *testing.B) {
	chrome := chromiumtest.Require(b)
	app, err := fixture.Serve(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer app.Close()
	s := New(Config{})
	defer s.Close()
	dispatchOK(b, s, "electron_launch", map[string]any{"executablePath": chrome, "args": []string{
		"--host-resolver-rules=" + fixture.HostResolverRules(), app.URL("a.test", "/large.html")}}, nil)
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
