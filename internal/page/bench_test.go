package page

import (
	"context"
	"sort"
	"testing"
	"time"
	"unicode/utf8"
)

// medianMS reports the median of per-iteration durations, which the mean
// (ns/op) hides on a busy two-core machine.
func medianMS(b *testing.B, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "median-ms")
}

// timeEach runs op once per iteration and reports the median.
func timeEach(b *testing.B, op func() error) {
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		if err := op(); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
	}
	medianMS(b, ds)
}

func benchLarge(b *testing.B) (*Store, *tab, Frame) {
	srv := fixtureServer(b)
	tb := openTab(b, srv.URL("a.test", "/large.html"))
	s := NewStore()
	f := tb.frame("bench")
	// Install the walker and warm the JIT outside the timing.
	for range 3 {
		if _, err := s.Snapshot(context.Background(), f, SnapshotOptions{Format: "text"}); err != nil {
			b.Fatal(err)
		}
	}
	return s, tb, f
}

// BenchmarkSnapshotTextLarge is a full text snapshot of large.html (about
// 2000 elements). Targets: median <= 45 ms, <= 23000 characters.
func BenchmarkSnapshotTextLarge(b *testing.B) {
	s, _, f := benchLarge(b)
	ctx := context.Background()
	var chars int
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		r, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
		if err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
		chars = utf8.RuneCountInString(r.Text)
	}
	b.ReportMetric(float64(chars), "chars")
	medianMS(b, ds)
}

// BenchmarkSnapshotJSONLarge is the JSON form of the same snapshot.
func BenchmarkSnapshotJSONLarge(b *testing.B) {
	s, _, f := benchLarge(b)
	ctx := context.Background()
	timeEach(b, func() error {
		_, err := s.Snapshot(ctx, f, SnapshotOptions{})
		return err
	})
}

// BenchmarkGetText is one element read by ref on large.html (one CDP round
// trip). Target: <= 1.5 ms.
func BenchmarkGetText(b *testing.B) {
	s, _, f := benchLarge(b)
	ctx := context.Background()
	l, err := s.ElementsList(ctx, f, "#row-150 td:nth-child(2)", 1)
	if err != nil {
		b.Fatal(err)
	}
	loc := Locator{Ref: l.Items[0].Ref}
	timeEach(b, func() error {
		_, err := s.GetText(ctx, f, loc)
		return err
	})
}

// BenchmarkGetStateSelector is a read by CSS selector.
func BenchmarkGetStateSelector(b *testing.B) {
	s, _, f := benchLarge(b)
	ctx := context.Background()
	timeEach(b, func() error {
		_, err := s.GetState(ctx, f, Locator{Selector: "#sel-150"})
		return err
	})
}

// BenchmarkSinceAfterClick toggles one checkbox, then takes a since:'last'
// text snapshot (timed). It reports the size of that diff and its share of
// the full text snapshot. Target: <= 2 %.
func BenchmarkSinceAfterClick(b *testing.B) {
	s, tb, f := benchLarge(b)
	ctx := context.Background()
	full, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		b.Fatal(err)
	}
	n := utf8.RuneCountInString(full.Text)
	var chars int
	ds := make([]time.Duration, 0, b.N)
	i := 0
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		i++
		tb.eval(b, `document.getElementById('sel-`+itoa(1+i%300)+`').click()`, nil)
		b.StartTimer()
		t0 := time.Now()
		r, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text", Since: "last"})
		if err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
		chars = utf8.RuneCountInString(r.Text)
	}
	b.ReportMetric(float64(chars), "chars")
	b.ReportMetric(100*float64(chars)/float64(n), "%-of-full")
	medianMS(b, ds)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// BenchmarkSnapshotTextLargeFirst is the first text snapshot a session
// takes of large.html: every ref is new, so what the agent is shown of each
// is recorded (identityOf, for REF_STALE) on top of the walk.
func BenchmarkSnapshotTextLargeFirst(b *testing.B) {
	_, _, f := benchLarge(b)
	ctx := context.Background()
	timeEach(b, func() error {
		_, err := NewStore().Snapshot(ctx, f, SnapshotOptions{Format: "text"})
		return err
	})
}
