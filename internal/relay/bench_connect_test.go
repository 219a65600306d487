package relay

import (
	"encoding/json"
	"os"
	"testing"
)

// BenchmarkRelayConnectFrames compares Playwright's chromium.connectOverCDP
// through the relay with connectOverCDP straight to the same Chromium, in
// one run, on an app with six frames: the fixture's index.html (two
// same-site frames, a cross-site out-of-process iframe that holds a nested
// cross-site one, and two more same-site ones). The browser is its own, so
// no other test's tabs are in either connect. Run it with
//
//	go test -run '^$' -bench RelayConnectFrames -benchtime 1x ./internal/relay/
//
// UNDERSTUDY_BENCH_CONNECTS sets the connects per side (default 30,
// interleaved direct/relay). It reports the medians and their ratio.
func BenchmarkRelayConnectFrames(bb *testing.B) {
	node, own, top, r := ownRelay(bb, "/index.html")
	n := "30"
	if v := os.Getenv("UNDERSTUDY_BENCH_CONNECTS"); v != "" {
		n = v
	}
	for bb.Loop() {
		cn := runBench(bb, node, "connect", r.HTTPURL(), own.HTTPURL, n, top)
		j := func(v any) string { s, _ := json.Marshal(v); return string(s) }
		bb.Logf("connectOverCDP to a page with six frames, ms: relay %s direct %s ratio(p50) %v ratio(mean) %v",
			j(cn["relay"]), j(cn["direct"]), cn["ratio_p50"], cn["ratio_mean"])
		rel, _ := cn["relay"].(map[string]any)
		dir, _ := cn["direct"].(map[string]any)
		if p, ok := rel["p50"].(float64); ok {
			bb.ReportMetric(p, "ms-relay-p50")
		}
		if p, ok := dir["p50"].(float64); ok {
			bb.ReportMetric(p, "ms-direct-p50")
		}
		if p, ok := cn["ratio_p50"].(float64); ok {
			bb.ReportMetric(p, "ratio-p50")
		}
	}
}
