package page

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"
)

// genTab opens gen.html?n=N (a generated page of about n elements) and
// waits, longer than openTab would, until it is built: a large page takes a
// while to lay out on a loaded machine.
func genTab(tb testing.TB, n int) *tab {
	tb.Helper()
	srv := fixtureServer(tb)
	t := openTab(tb, srv.URL("a.test", "/second.html"))
	t.navigateGen(tb, srv.URL("a.test", "/gen.html?n="+strconv.Itoa(n)))
	return t
}

// navigateGen loads a generated page into the tab (a new document each
// time: a cold walk) and waits until it is complete.
func (t *tab) navigateGen(tb testing.TB, url string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	defer cancel()
	var raw json.RawMessage
	if err := t.conn.Call(ctx, "Page.navigate", map[string]any{"url": url}, &raw); err != nil {
		tb.Fatal(err)
	}
	expr := `!!(document.readyState === "complete" && location.href === ` + strconv.Quote(url) + ` && window.__genCount > 0)`
	for {
		cctx, ccancel := context.WithTimeout(ctx, 10*time.Second)
		var res struct {
			Result struct {
				Value bool `json:"value"`
			} `json:"result"`
		}
		err := t.conn.Call(cctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res)
		ccancel()
		if err == nil && res.Result.Value {
			return
		}
		if ctx.Err() != nil {
			tb.Fatalf("%s did not load within 180 s", url)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// rendererCPU is the CPU time the tab's renderer main thread has used
// (Performance.getMetrics ThreadTime), which a loaded machine does not
// inflate the way it inflates wall time.
func (t *tab) rendererCPU(tb testing.TB) time.Duration {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var raw json.RawMessage
	if err := t.conn.Call(ctx, "Performance.enable", map[string]any{}, &raw); err != nil {
		tb.Fatal(err)
	}
	var m struct {
		Metrics []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
		} `json:"metrics"`
	}
	if err := t.conn.Call(ctx, "Performance.getMetrics", map[string]any{}, &m); err != nil {
		tb.Fatal(err)
	}
	for _, x := range m.Metrics {
		if x.Name == "ThreadTime" {
			return time.Duration(x.Value * float64(time.Second))
		}
	}
	tb.Fatal("no ThreadTime metric")
	return 0
}

// TestHugePageSnapshotStopsAtTheCap: a snapshot of an 80,000-element page
// with maxEntries 50 stops its walk early and says so, and the renderer is
// free at once (the next read answers fast). Before, the walk read the
// whole page (quadratic in its labelled fields) and timed out after 30 s
// with the renderer still busy.
func TestHugePageSnapshotStopsAtTheCap(t *testing.T) {
	tb := genTab(t, 80000)
	s, f := NewStore(), tb.frame("gen")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, o := range []SnapshotOptions{{MaxEntries: 50}, {MaxEntries: 50, Format: "text"}, {MaxEntries: 50, InteractiveOnly: true}} {
		form := o.Format
		if o.InteractiveOnly {
			form += " interactiveOnly"
		}
		t0 := time.Now()
		r, err := s.Snapshot(ctx, f, o)
		took := time.Since(t0)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Truncated || !r.Partial || r.TruncatedReason != "entries" || r.Count != 50 {
			t.Fatalf("%s: truncated=%v partial=%v reason=%q count=%d", form, r.Truncated, r.Partial, r.TruncatedReason, r.Count)
		}
		// interactiveOnly trims from the interactive entries walked only.
		if r.Walked < 50 || r.Walked > 4*WalkMin || (r.Omitted != r.Walked-50 && !o.InteractiveOnly) || r.Omitted < 1 || r.Omitted > r.Walked-50 {
			t.Fatalf("%s: walked %d, omitted %d", form, r.Walked, r.Omitted)
		}
		if o.Format == "text" && !containsAll(r.Text, "# truncated: ", "the rest of the page was not read") {
			t.Fatalf("text form does not say it stopped:\n%s", r.Text)
		}
		// The renderer is free: a read answers at once.
		t1 := time.Now()
		if _, err := s.GetText(ctx, f, Locator{Selector: "#h-1"}); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(t1); d > 3*time.Second {
			t.Fatalf("get_text after the snapshot took %v", d)
		}
		t.Logf("%s: snapshot %v (renderer %d ms, walked %d), get_text %v", form, took, r.WalkMS, r.Walked, time.Since(t1))
	}
}

// TestSnapshotTimeLimitStopsInTheRenderer: a walk past its time limit stops
// inside the renderer and answers with what it walked (truncated, reason
// "time"); the page is free right after.
func TestSnapshotTimeLimitStopsInTheRenderer(t *testing.T) {
	tb := genTab(t, 80000)
	s, f := NewStore(), tb.frame("gen")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// Warm up the walker (install, style and layout), then walk with a
	// limit far shorter than the whole walk needs.
	if _, err := s.Snapshot(ctx, f, SnapshotOptions{MaxEntries: 50}); err != nil {
		t.Fatal(err)
	}
	r, err := s.Snapshot(ctx, f, SnapshotOptions{MaxEntries: MaxMaxEntries, Format: "text", TimeLimit: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Truncated || !r.Partial || r.TruncatedReason != "time" || r.Walked == 0 || r.Walked >= 4*MaxMaxEntries {
		t.Fatalf("truncated=%v partial=%v reason=%q walked=%d", r.Truncated, r.Partial, r.TruncatedReason, r.Walked)
	}
	if !containsAll(r.Text, "# truncated: the walk ran out of time") {
		t.Fatalf("text form does not say it ran out of time:\n%s", lastLines(r.Text, 3))
	}
	// The walk stopped near its limit, not at the end of the page.
	if r.WalkMS > 3000 {
		t.Fatalf("the walk went on for %d ms past a limit of %v", r.WalkMS, minSnapshotTime)
	}
	t1 := time.Now()
	if _, err := s.GetText(ctx, f, Locator{Selector: "#h-1"}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(t1); d > 3*time.Second {
		t.Fatalf("get_text after the snapshot took %v", d)
	}
}

// TestSinceAfterPartialWalk: after a walk that stopped at its cap, a
// since:'last' diff does not report what lies past the cap as removed,
// and what was not reached stays in the baseline.
func TestSinceAfterPartialWalk(t *testing.T) {
	tb := genTab(t, 3000)
	s, f := NewStore(), tb.frame("gen")
	ctx := ctxT(t)
	full, err := s.Snapshot(ctx, f, SnapshotOptions{})
	if err != nil || full.Partial {
		t.Fatalf("full snapshot: partial=%v %v", full != nil && full.Partial, err)
	}
	cut, err := s.Snapshot(ctx, f, SnapshotOptions{MaxEntries: 50})
	if err != nil || !cut.Partial {
		t.Fatalf("capped snapshot: %+v %v", cut, err)
	}
	tb.eval(t, `document.querySelector('#gen section:last-child button').textContent = 'Changed'`, nil)
	d, err := s.Snapshot(ctx, f, SnapshotOptions{Since: "last", Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Partial || d.Count != 1 || !containsAll(d.Text, `~[`, `button "Changed"`) {
		t.Fatalf("since after a partial walk: partial=%v count=%d\n%s", d.Partial, d.Count, d.Text)
	}
}

// WalkMin mirrors WALK_MIN of ops.js: the fewest entries a capped walk
// makes.
const WalkMin = 1000

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !contains(s, x) {
			return false
		}
	}
	return true
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func lastLines(s string, n int) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '\n' {
			n--
			if n == 0 {
				return s[i+1:]
			}
		}
	}
	return s
}

// BenchmarkSnapshotScale takes cold snapshots (a new document every
// iteration, as right after a navigation) of gen.html?n=N for N from 2,000
// to 80,000 elements, with default settings, with maxEntries 50 and with
// maxEntries 10000 (whose cap lets the walk read most of the page); and,
// as "layout", only a forced style and layout of the same cold page (what
// any first reader pays, the floor under the snapshot's numbers). It
// reports the median wall time (median-ms), the median CPU time of the
// renderer's main thread during the call (cpu-ms: what a loaded machine
// inflates least) and their growth against the 2,000-element page
// (x-vs-2k, cpu-x-vs-2k). Targets (quiet machine): 80,000 elements
// <= 2 s with default settings and <= 200 ms with maxEntries 50; the
// 2,000-element page is BenchmarkSnapshotTextLarge's size. Run it with
//
//	go test -run '^$' -bench BenchmarkSnapshotScale -benchtime 3x ./internal/page/
func BenchmarkSnapshotScale(b *testing.B) {
	srv := fixtureServer(b)
	sizes := []int{2000, 8000, 16000, 32000, 80000}
	for _, cfg := range []struct {
		name string
		o    SnapshotOptions
		bare bool
	}{
		// What any reader pays on the same cold page: one forced style
		// and layout (document.body.getBoundingClientRect()) and nothing
		// else, the floor under a snapshot's numbers.
		{"layout", SnapshotOptions{}, true},
		{"default", SnapshotOptions{}, false},
		{"max50", SnapshotOptions{MaxEntries: 50}, false},
		// The largest cap walks up to 40,000 entries: the walk's own growth.
		{"max10000", SnapshotOptions{MaxEntries: MaxMaxEntries}, false},
	} {
		var wall0, cpu0 float64
		for _, n := range sizes {
			b.Run(cfg.name+"/n="+itoa(n), func(b *testing.B) {
				tb := genTab(b, n)
				url := srv.URL("a.test", "/gen.html?n="+itoa(n))
				walls := make([]time.Duration, 0, b.N)
				cpus := make([]time.Duration, 0, b.N)
				var last *SnapshotResult
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					tb.navigateGen(b, url+"&i="+itoa(i+1))
					s := NewStore()
					c0 := tb.rendererCPU(b)
					ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
					b.StartTimer()
					t0 := time.Now()
					var r *SnapshotResult
					var err error
					if cfg.bare {
						r, err = bareLayout(ctx, tb)
					} else {
						r, err = s.Snapshot(ctx, tb.frame("gen"), cfg.o)
					}
					d := time.Since(t0)
					b.StopTimer()
					cancel()
					if err != nil {
						b.Fatal(err)
					}
					cpus = append(cpus, tb.rendererCPU(b)-c0)
					walls = append(walls, d)
					last = r
					b.StartTimer()
				}
				wall, cpu := medianOf(walls), medianOf(cpus)
				b.ReportMetric(wall, "median-ms")
				b.ReportMetric(cpu, "cpu-ms")
				b.ReportMetric(float64(last.Count), "entries")
				b.ReportMetric(float64(last.Walked), "walked")
				if n == sizes[0] {
					wall0, cpu0 = wall, cpu
				}
				if wall0 > 0 && cpu0 > 0 {
					b.ReportMetric(wall/wall0, "x-vs-2k")
					b.ReportMetric(cpu/cpu0, "cpu-x-vs-2k")
				}
			})
		}
	}
}

// bareLayout forces the style and layout of the whole document, as the
// first reader of a cold page does, and reads nothing else. Its result is
// empty.
func bareLayout(ctx context.Context, t *tab) (*SnapshotResult, error) {
	var raw json.RawMessage
	err := t.conn.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document.body.getBoundingClientRect().height", "returnByValue": true}, &raw)
	return &SnapshotResult{}, err
}

// medianOf is the median of ds in milliseconds.
func medianOf(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return float64(s[len(s)/2].Microseconds()) / 1000
}

// TestWalkTime: the renderer's time limit defaults to DefaultSnapshotTime,
// ends well before the caller's deadline, and never drops below
// minSnapshotTime.
func TestWalkTime(t *testing.T) {
	if got := walkTime(context.Background(), 0); got != DefaultSnapshotTime {
		t.Errorf("no deadline: %v", got)
	}
	if got := walkTime(context.Background(), 300*time.Millisecond); got != 300*time.Millisecond {
		t.Errorf("explicit limit: %v", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if got := walkTime(ctx, 0); got > 4*time.Second || got < 3*time.Second {
		t.Errorf("5 s left: %v, want about 4 s", got)
	}
	short, cancel2 := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel2()
	if got := walkTime(short, 0); got != minSnapshotTime {
		t.Errorf("10 ms left: %v, want %v", got, minSnapshotTime)
	}
	if (&SnapshotOptions{TimeLimit: -1}).check() == nil {
		t.Error("a negative time limit was accepted")
	}
}
