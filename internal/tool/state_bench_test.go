package tool

import (
	"testing"
	"time"
)

// BenchmarkStorageSnapshot1000Keys: storage_snapshot of the top page's
// origin holding 1,000 localStorage keys (issue 14 target: ≤ 20 ms).
func BenchmarkStorageSnapshot1000Keys(b *testing.B) {
	s, _ := launchBench(b, Config{AllowEvalRenderer: true}, "/second.html")
	dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": "for (let i = 0; i < 1000; i++) localStorage.setItem('key-' + i, 'value of key ' + i); localStorage.length"}, nil)
	origin := map[string]any{}
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		m := dispatchOK(b, s, "storage_snapshot", origin, nil)
		ds = append(ds, time.Since(t0))
		if i == 0 {
			os := m["origins"].([]any)
			if len(os) != 1 || len(os[0].(map[string]any)["localStorage"].([]any)) != 1000 {
				b.Fatalf("snapshot: %v origins", len(os))
			}
		}
	}
	b.ReportMetric(medianMS(ds), "ms-median")
}

// BenchmarkClockAdvance1000Timers: clock_advance of one hour with 1,000
// pending timers in the page (issue 14 target: ≤ 50 ms).
func BenchmarkClockAdvance1000Timers(b *testing.B) {
	s, _ := launchBench(b, Config{AllowEvalRenderer: true}, "/second.html")
	dispatchOK(b, s, "clock_install", map[string]any{"time": "2026-01-01T00:00:00Z"}, nil)
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": "window.__n = 0; for (let i = 0; i < 1000; i++) setTimeout(() => __n++, i * 3000); true"}, nil)
		b.StartTimer()
		t0 := time.Now()
		m := dispatchOK(b, s, "clock_advance", map[string]any{"ms": 3600000}, nil)
		ds = append(ds, time.Since(t0))
		if num(m["fired"]) < 1000 {
			b.Fatalf("advance fired %v", m["fired"])
		}
	}
	b.ReportMetric(medianMS(ds), "ms-median")
}

// BenchmarkIndexedDBPage100: storage_idb_get of a page of 100 records
// (objects with a Date and a typed array) (issue 14 target: ≤ 20 ms).
func BenchmarkIndexedDBPage100(b *testing.B) {
	s, _ := launchBench(b, Config{AllowEvalRenderer: true}, "/second.html")
	dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": idbSeed}, nil)
	args := map[string]any{"database": "shop", "store": "items", "limit": 100}
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		m := dispatchOK(b, s, "storage_idb_get", args, nil)
		ds = append(ds, time.Since(t0))
		if num(m["count"]) != 100 {
			b.Fatalf("page: %v", m["count"])
		}
	}
	b.ReportMetric(medianMS(ds), "ms-median")
}
