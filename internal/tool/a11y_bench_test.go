package tool

import (
	"net/http"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/a11y/axetest"
)

// BenchmarkA11yAudit: a11y_audit of the 2,000-element page (gen.html)
// through the dispatcher (the engine in its isolated world), against
// axe-core run directly in the same page in the same run (loaded into the
// page's main world by a script tag, axe.run with the same options through
// electron_eval_renderer: one Runtime.evaluate, answering the counts).
// Target: audit median ≤ 1.5× direct median. Reports both and the ratio.
func BenchmarkA11yAudit(b *testing.B) {
	axePath := axetest.Path(b)
	s, app := launchBench(b, Config{AllowEvalRenderer: true, AxeCore: axePath}, "/gen.html?n=2000")
	app.Mount("/axe-direct.js", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		http.ServeFile(w, r, axePath)
	}))
	// The first audit installs the engine and the first direct run loads
	// axe-core into the page; both then run warm.
	dispatchOK(b, s, "a11y_audit", map[string]any{}, nil)
	direct := `(async () => {
  if (!window.axe) await new Promise((ok, no) => { const s = document.createElement('script'); s.src = '/axe-direct.js'; s.onload = ok; s.onerror = () => no(new Error('axe-direct.js did not load')); document.head.appendChild(s); });
  const r = await window.axe.run(document, {iframes: false, resultTypes: ['violations', 'incomplete'], performanceTimer: false});
  return r.violations.length + r.incomplete.length; })()`
	dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": direct, "timeoutMs": 60000}, nil)
	var audit, raw []time.Duration
	for i := 0; i < 7; i++ {
		t0 := time.Now()
		dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": direct, "timeoutMs": 60000}, nil)
		raw = append(raw, time.Since(t0))
		t0 = time.Now()
		dispatchOK(b, s, "a11y_audit", map[string]any{}, nil)
		audit = append(audit, time.Since(t0))
	}
	a, d := medianMS(audit), medianMS(raw)
	b.ReportMetric(a, "audit-ms")
	b.ReportMetric(d, "direct-ms")
	b.ReportMetric(a/d, "ratio")
	for i := 0; i < b.N; i++ {
		dispatchOK(b, s, "a11y_audit", map[string]any{}, nil)
	}
}
