package tool

import (
	"context"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// BenchmarkClickByRef: electron_click by ref on an Edit button of
// large.html that starts off-screen (row 250), through the dispatcher
// (target ≤ 20 ms median). ms-first is the first click (it scrolls the row
// into view and moves the mouse there); ms-median is the clicks after it
// (the mouse already rests on the button, so no move is sent); ms-moving is
// the median of clicks alternating between two buttons, each of which
// needs a mouse move.
func BenchmarkClickByRef(b *testing.B) {
	chrome := chromiumtest.Require(b)
	app, err := fixture.Serve(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer app.Close()
	s := New(Config{AllowEvalRenderer: true})
	defer s.Close()
	dispatchOK(b, s, "electron_launch", map[string]any{"executablePath": chrome, "args": []string{
		"--host-resolver-rules=" + fixture.HostResolverRules(), app.URL("a.test", "/large.html")}}, nil)
	refOf := func(sel string) int {
		items := dispatchOK(b, s, "electron_elements_list", map[string]any{"selector": sel}, nil)["items"].([]any)
		return num(items[0].(map[string]any)["ref"])
	}
	r250, r251 := refOf("#edit-250"), refOf("#edit-251")
	status := func() string {
		v, _ := dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": "document.getElementById('status').textContent"}, nil)["result"].(string)
		return v
	}
	inView := dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": "document.getElementById('edit-250').getBoundingClientRect().top < innerHeight"}, nil)["result"]
	if inView != false {
		b.Fatal("#edit-250 is in view before the first click; the benchmark needs it off-screen")
	}

	t0 := time.Now()
	dispatchOK(b, s, "electron_click", map[string]any{"ref": r250}, nil)
	first := time.Since(t0)
	if got := status(); got != "Editing Item 250" {
		b.Fatalf("status after the first click: %q", got)
	}

	var same, moving []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		dispatchOK(b, s, "electron_click", map[string]any{"ref": r250}, nil)
		same = append(same, time.Since(t0))
	}
	b.StopTimer()
	for i := 0; i < max(b.N, 10); i++ {
		ref := r250
		if i%2 == 0 {
			ref = r251
		}
		t0 := time.Now()
		dispatchOK(b, s, "electron_click", map[string]any{"ref": ref}, nil)
		moving = append(moving, time.Since(t0))
	}
	// Off-screen every time: scroll back to the top (not timed), click.
	var offscreen []time.Duration
	for i := 0; i < max(b.N, 10); i++ {
		dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": "window.scrollTo(0, 0); new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"}, nil)
		t0 := time.Now()
		dispatchOK(b, s, "electron_click", map[string]any{"ref": r250}, nil)
		offscreen = append(offscreen, time.Since(t0))
	}
	if got := status(); got != "Editing Item 250" {
		b.Fatalf("status after the clicks: %q", got)
	}
	clicks := num(dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": "window.__events.filter(x => x.type === 'click' && x.target === 'edit-250').length"}, nil)["result"])
	if want := 1 + b.N + max(b.N, 10)/2 + max(b.N, 10); clicks != want {
		b.Fatalf("the page recorded %d clicks on #edit-250, want %d", clicks, want)
	}
	b.ReportMetric(medianMS(offscreen), "ms-offscreen")
	b.ReportMetric(float64(first.Microseconds())/1000, "ms-first")
	b.ReportMetric(medianMS(same), "ms-median")
	b.ReportMetric(medianMS(moving), "ms-moving")
}
