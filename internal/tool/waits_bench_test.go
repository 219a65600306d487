package tool

import (
	"context"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// BenchmarkExpectTextHolds: an electron_expect_text that already holds,
// through the dispatcher (target ≤ 3 ms median): one renderer call that
// checks, finds the condition met and settles without polling.
func BenchmarkExpectTextHolds(b *testing.B) {
	chrome := chromiumtest.Require(b)
	app, err := fixture.Serve(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer app.Close()
	s := New(Config{})
	defer s.Close()
	args := []string{"--host-resolver-rules=" + fixture.HostResolverRules(), app.URL("a.test", "/actions.html")}
	dispatchOK(b, s, "electron_launch", map[string]any{"executablePath": chrome, "args": args}, nil)
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
