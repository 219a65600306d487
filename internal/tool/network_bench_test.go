package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/network"
)

// launchNetBench launches the fixture's top page and waits until it is
// loaded (relative fetches need its origin).
func launchNetBench(b *testing.B) *Server {
	s, _ := launchBench(b, Config{AllowEvalRenderer: true}, "/index.html")
	for deadline := time.Now().Add(30 * time.Second); ; {
		r := dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": "location.pathname === '/index.html' && document.readyState === 'complete'"}, nil)
		if r["result"] == true {
			return s
		}
		if time.Now().After(deadline) {
			b.Fatal("the page never loaded")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// bareSocket dials a socket of its own to the session's page whose URL
// ends with path: a CDP client that is not understudy, for baselines.
func bareSocket(b *testing.B, s *Server, path string) *cdp.Conn {
	sess, err := s.sessions.Resolve("")
	if err != nil {
		b.Fatal(err)
	}
	resp, err := http.Get(sess.Endpoint.HTTPURL + "/json/list")
	if err != nil {
		b.Fatal(err)
	}
	var list []struct{ Type, URL, WebSocketDebuggerURL string }
	err = json.NewDecoder(resp.Body).Decode(&list)
	_ = resp.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range list {
		if t.Type == "page" && strings.HasSuffix(t.URL, path) {
			c, err := cdp.Dial(b.Context(), t.WebSocketDebuggerURL, &cdp.Options{CallTimeout: time.Minute})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = c.Close() })
			return c
		}
	}
	b.Fatalf("no page ending in %s in %v", path, list)
	return nil
}

// netOfSession returns the network state of the server's one session.
func netOfSession(s *Server) (*network.Network, error) {
	sess, err := s.sessions.Resolve("")
	if err != nil {
		return nil, err
	}
	return netOf(&Call{Server: s, Session: sess})
}

// rssMiB is this process's resident set (the server runs in it).
func rssMiB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

func medianF(xs []float64) float64 {
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

// fetches2000 makes 2,000 fetches (50 at a time) and returns the page's ms.
const fetches2000 = `(async () => { const N = NFETCH; const t = performance.now(); for (let i = 0; i < N; i += 50) { await Promise.all(Array.from({length: 50}, (_, j) => fetch('/echo?x=' + (i + j)).then(r => r.text()))); } return performance.now() - t })()`

// BenchmarkNetworkCapture2000Fetches: a page making 2,000 fetches with
// capture off, on (no bodies) and on (64 KiB bodies), interleaved in one
// run; reports the page-time ratios (target on/off ≤ 1.15) and the RSS
// after each capture (target ≤ 40 MiB bodies off; ≤ 40 MiB + budget on).
func BenchmarkNetworkCapture2000Fetches(b *testing.B) {
	s := launchNetBench(b)
	run := func() float64 {
		n := os.Getenv("NET_BENCH_FETCHES") // default 2000
		if n == "" {
			n = "2000"
		}
		r := dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": strings.Replace(fetches2000, "NFETCH", n, 1), "timeoutMs": 60000}, nil)
		v, _ := r["result"].(float64)
		return v
	}
	run() // warm up
	bare := bareSocket(b, s, "/index.html")
	var off, bared, on, bodies []float64
	var rssOn, rssBodies float64
	for i := 0; i < b.N; i++ {
		off = append(off, run())
		// Chromium's own cost of the Network domain: a second socket on
		// the page that enables it and reads (and drops) every event.
		if err := bare.Call(b.Context(), "Network.enable", map[string]any{}, nil); err != nil {
			b.Fatal(err)
		}
		bared = append(bared, run())
		if err := bare.Call(b.Context(), "Network.disable", map[string]any{}, nil); err != nil {
			b.Fatal(err)
		}
		dispatchOK(b, s, "network_capture_start", map[string]any{}, nil)
		on = append(on, run())
		dispatchOK(b, s, "network_captured", map[string]any{"limit": 1}, nil)
		rssOn = max(rssOn, rssMiB())
		dispatchOK(b, s, "network_capture_stop", map[string]any{}, nil)
		dispatchOK(b, s, "network_capture_start", map[string]any{"captureBodies": true, "maxBodyBytes": 65536}, nil)
		bodies = append(bodies, run())
		time.Sleep(500 * time.Millisecond) // the body reads finish
		dispatchOK(b, s, "network_captured", map[string]any{"limit": 1}, nil)
		rssBodies = max(rssBodies, rssMiB())
		dispatchOK(b, s, "network_capture_stop", map[string]any{}, nil)
	}
	mo, mn, mb, mbare := medianF(off), medianF(on), medianF(bodies), medianF(bared)
	b.ReportMetric(mo, "ms-off")
	b.ReportMetric(mbare, "ms-bare-network-enable")
	b.ReportMetric(mbare/mo, "ratio-bare")
	b.ReportMetric(mn/mbare, "ratio-on-vs-bare")
	b.ReportMetric(mn, "ms-on")
	b.ReportMetric(mb, "ms-bodies")
	b.ReportMetric(mn/mo, "ratio-on")
	b.ReportMetric(mb/mo, "ratio-bodies")
	b.ReportMetric(rssOn, "MiB-rss-on")
	b.ReportMetric(rssBodies, "MiB-rss-bodies")
}

// stubTimes times n sequential fetches of url in the page, per request ms.
func stubTimes(url string) string {
	return `(async () => { const d = []; for (let i = 0; i < 100; i++) { const t = performance.now(); await fetch('` + url + `?i=' + i).then(r => r.text()); d.push(performance.now() - t); } d.sort((a, b) => a - b); return d[50] })()`
}

// BenchmarkNetworkStubRoundTrip: a fulfilled stub's round trip against an
// unstubbed local request (no interception), and an unstubbed request
// while interception is on (target: stubbed − unstubbed ≤ 2 ms median).
func BenchmarkNetworkStubRoundTrip(b *testing.B) {
	s := launchNetBench(b)
	med := func(url string) float64 {
		r := dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": stubTimes(url), "timeoutMs": 60000}, nil)
		v, _ := r["result"].(float64)
		return v
	}
	var plain, stubbed, passed []float64
	for i := 0; i < b.N; i++ {
		plain = append(plain, med("/echo"))
		dispatchOK(b, s, "network_stub", map[string]any{"urls": []string{"/api/stubbed"}, "body": `{"ok":true}`, "contentType": "application/json"}, nil)
		stubbed = append(stubbed, med("/api/stubbed"))
		passed = append(passed, med("/echo"))
		dispatchOK(b, s, "network_unstub", map[string]any{}, nil)
	}
	mp, ms, mpass := medianF(plain), medianF(stubbed), medianF(passed)
	b.ReportMetric(mp, "ms-unstubbed")
	b.ReportMetric(ms, "ms-stubbed")
	b.ReportMetric(mpass, "ms-unstubbed-intercepting")
	b.ReportMetric(ms-mp, "ms-added")
}

// BenchmarkNetworkCaptured1000: network_captured answering 1,000 records
// through the dispatcher (target ≤ 10 ms).
func BenchmarkNetworkCaptured1000(b *testing.B) {
	s := launchNetBench(b)
	dispatchOK(b, s, "network_capture_start", map[string]any{"urls": []string{"/echo"}}, nil)
	dispatchOK(b, s, "electron_eval_renderer", map[string]any{"code": `Promise.all(Array.from({length: 1000}, (_, i) => fetch('/echo?x=' + i).then(r => r.text()))).then(() => true)`, "timeoutMs": 60000}, nil)
	for deadline := time.Now().Add(30 * time.Second); ; {
		r := dispatchOK(b, s, "network_captured", map[string]any{"limit": 1}, nil)
		if num(r["total"]) >= 1000 {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("only %v records", r["total"])
		}
		time.Sleep(100 * time.Millisecond)
	}
	var ds, one, read []time.Duration
	var size int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		dispatchOK(b, s, "network_captured", map[string]any{"limit": 1}, nil)
		one = append(one, time.Since(t0))
		n, _ := netOfSession(s)
		t0 = time.Now()
		if p := n.Read(network.ReadOptions{Limit: 1000}); len(p.Records) != 1000 {
			b.Fatalf("read %d", len(p.Records))
		}
		read = append(read, time.Since(t0))
		t0 = time.Now()
		res := s.Dispatch(context.Background(), "network_captured", json.RawMessage(`{"limit":1000}`), nil)
		ds = append(ds, time.Since(t0))
		if res.IsError || !bytes.Contains(res.JSON, []byte(`"count":1000,`)) {
			b.Fatalf("network_captured: %.300s", res.JSON)
		}
		size = len(res.JSON)
	}
	b.ReportMetric(medianMS(ds), "ms-median")
	b.ReportMetric(medianMS(one), "ms-median-1-record")
	b.ReportMetric(medianMS(read), "ms-median-domain-read")
	b.ReportMetric(float64(size)/1024, "KiB-answer")
}
