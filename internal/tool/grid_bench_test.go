package tool

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
	"github.com/understudy-dev/understudy/internal/grid/gridtest"
)

// BenchmarkGridVsLocal: the first electron_snapshot of the fixture's top
// page and an electron_click on its button, on a local launch and on a
// Selenium Grid standalone session of the same Chromium, same run (issue
// #18: grid ≤ 1.2× local; session creation is the grid's and is reported,
// not targeted). Set UNDERSTUDY_BENCH_GRID=1 (make bench).
func BenchmarkGridVsLocal(b *testing.B) {
	if os.Getenv("UNDERSTUDY_BENCH_GRID") != "1" {
		b.Skip("set UNDERSTUDY_BENCH_GRID=1 (make bench) to start a Selenium Grid")
	}
	chrome := chromiumtest.Require(b)
	g := gridtest.Standalone(b, "--max-sessions", "2")
	hosts, err := g.AdvertisedHosts(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	allow, err := browser.ParseRemoteAllow(hosts)
	if err != nil {
		b.Fatal(err)
	}
	app, err := fixture.Serve(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = app.Close() })
	s := New(Config{AllowRemote: allow, OperationTimeout: 10 * time.Minute})
	b.Cleanup(s.Close)
	top := app.URL("a.test", "/index.html")

	var snapLocal, snapGrid, clickLocal, clickGrid, create []time.Duration
	for i := 0; i < b.N; i++ {
		local := dispatchOK(b, s, "electron_launch", map[string]any{"executablePath": chrome, "allowMultiple": true,
			"args": []string{"--host-resolver-rules=" + fixture.HostResolverRules()}}, nil)["session_id"].(string)
		t0 := time.Now()
		gr := dispatchOK(b, s, "electron_launch", map[string]any{"grid": g.URL, "capabilities": gridCaps(chrome), "allowMultiple": true}, nil)
		create = append(create, time.Since(t0))
		remote := gr["session_id"].(string)
		for _, c := range []struct {
			id          string
			snap, click *[]time.Duration
		}{{local, &snapLocal, &clickLocal}, {remote, &snapGrid, &clickGrid}} {
			dispatchOK(b, s, "electron_navigate", map[string]any{"sessionId": c.id, "url": top}, nil)
			t0 := time.Now()
			dispatchOK(b, s, "electron_snapshot", map[string]any{"format": "json", "sessionId": c.id}, nil)
			*c.snap = append(*c.snap, time.Since(t0))
			t0 = time.Now()
			dispatchOK(b, s, "electron_click", map[string]any{"sessionId": c.id, "selector": "#btn"}, nil)
			*c.click = append(*c.click, time.Since(t0))
		}
		dispatchOK(b, s, "electron_stop", map[string]any{"sessionId": local}, nil)
		dispatchOK(b, s, "electron_stop", map[string]any{"sessionId": remote}, nil)
	}
	b.ReportMetric(medianMS(snapLocal), "ms-snapshot-local")
	b.ReportMetric(medianMS(snapGrid), "ms-snapshot-grid")
	b.ReportMetric(medianMS(clickLocal), "ms-click-local")
	b.ReportMetric(medianMS(clickGrid), "ms-click-grid")
	b.ReportMetric(medianMS(create), "ms-grid-session")
}
