package tool

import (
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkTraceOverhead: a 50-call session (snapshot, finds, reads, a
// type and a click on the top page) with tracing off and on (no
// screenshots), interleaved in one run. Target: on ≤ 1.1× off.
func BenchmarkTraceOverhead(b *testing.B) {
	dir := b.TempDir()
	s, _ := launchBench(b, Config{FileRoots: []string{dir}}, "/index.html")
	session := func() time.Duration {
		t0 := time.Now()
		for i := 0; i < 5; i++ {
			dispatchOK(b, s, "electron_snapshot", map[string]any{"format": "json", "interactiveOnly": true}, nil)
			m := dispatchOK(b, s, "electron_find", map[string]any{"role": "textbox", "name_exact": "Input top"}, nil)
			ref := m["matches"].([]any)[0].(map[string]any)["ref"]
			dispatchOK(b, s, "electron_type", map[string]any{"ref": ref, "text": "hello"}, nil)
			dispatchOK(b, s, "electron_get_value", map[string]any{"ref": ref}, nil)
			dispatchOK(b, s, "electron_click", map[string]any{"selector": "#btn"}, nil)
			dispatchOK(b, s, "electron_get_text", map[string]any{"selector": "h1"}, nil)
			dispatchOK(b, s, "electron_exists", map[string]any{"selector": "#btn"}, nil)
			dispatchOK(b, s, "electron_get_state", map[string]any{"selector": "#btn"}, nil)
			dispatchOK(b, s, "electron_expect_visible", map[string]any{"selector": "#btn"}, nil)
			dispatchOK(b, s, "electron_focused_element", map[string]any{}, nil)
		}
		return time.Since(t0)
	}
	session() // warm
	var off, on []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		off = append(off, session())
		dispatchOK(b, s, "trace_start", map[string]any{"path": filepath.Join(dir, "t"+itoa(i))}, nil)
		on = append(on, session())
		dispatchOK(b, s, "trace_stop", map[string]any{}, nil)
	}
	mOff, mOn := medianMS(off), medianMS(on)
	b.ReportMetric(mOff, "ms-off")
	b.ReportMetric(mOn, "ms-on")
	b.ReportMetric(mOn/mOff, "ratio")
}

// BenchmarkVisualExpectWindow: visual_expect of the 1280×900 window (the
// top page, unchanged) against a plain electron_screenshot of it,
// interleaved. Target: ≤ 1.3×.
func BenchmarkVisualExpectWindow(b *testing.B) {
	dir := b.TempDir()
	s, _ := launchBench(b, Config{FileRoots: []string{dir}, ArtifactsDir: dir}, "/index.html")
	dispatchOK(b, s, "visual_update_baseline", map[string]any{"name": "win", "confirm": true, "baselineDir": dir}, nil)
	dispatchOK(b, s, "visual_expect", map[string]any{"name": "win", "baselineDir": dir}, nil)
	var shot, expect []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		dispatchOK(b, s, "electron_screenshot", map[string]any{"dir": dir}, nil)
		shot = append(shot, time.Since(t0))
		t0 = time.Now()
		dispatchOK(b, s, "visual_expect", map[string]any{"name": "win", "baselineDir": dir}, nil)
		expect = append(expect, time.Since(t0))
	}
	ms, me := medianMS(shot), medianMS(expect)
	b.ReportMetric(ms, "ms-screenshot")
	b.ReportMetric(me, "ms-expect")
	b.ReportMetric(me/ms, "ratio")
}
