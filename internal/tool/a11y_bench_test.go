package tool

import (
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/a11y/axetest"
)

// BenchmarkA11yAudit: a11y_audit of the 2,000-element page (gen.html)
// through the dispatcher, against axe-core run directly in the same page
// in the same run (axe.run with the same options, through
// electron_eval_renderer: one Runtime.evaluate, answering the counts).
// Target: audit median ≤ 1.5× direct median. Reports both and the ratio.
func BenchmarkA11yAudit(b *testing.B) {
	s, _ := launchBench(b, Config{AllowEvalRenderer: true, AxeCore: axetest.Path(b)}, "/gen.html?n=2000")
	// The first audit installs the engine; both then run warm.
	dispatchOK(b, s, "a11y_audit", map[string]any{}, nil)
	direct := `(async () => { const r = await window[Symbol.for('understudy.axe')].run(document, {iframes: false, resultTypes: ['violations', 'incomplete'], performanceTimer: false}); return r.violations.length + r.incomplete.length; })()`
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
