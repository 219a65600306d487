package relay

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// Peer benchmarks: Playwright through the relay against Playwright
// connected straight to the same Chromium, in one run. A benchmark, so not
// part of `make test`; run it with
//
//	go test -run '^$' -bench RelayPeers -benchtime 1x -timeout 30m ./internal/relay/
//
// UNDERSTUDY_BENCH_REQUESTS (20000) and UNDERSTUDY_BENCH_CLIENTS (8) size
// the flood.
//
// The relay runs in a child process (this test binary, started with
// childEnv) so that its peak RSS is its own, apart from the fixture server
// that serves the flood.

const childEnv = "UNDERSTUDY_RELAY_CHILD_UPSTREAM"

// runRelayChild is the child process: a relay in front of upstream until
// stdin closes.
func runRelayChild(upstream string) int {
	r, err := New(Options{Upstream: browser.Endpoint{HTTPURL: upstream}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := r.Start(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("RELAY", r.HTTPURL(), r.WSURL())
	_, _ = io.Copy(io.Discard, os.Stdin)
	_ = r.Close()
	return 0
}

type relayChild struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	http  string
}

func startRelayChild(t testing.TB, upstream string) *relayChild {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+upstream)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	f := strings.Fields(line)
	if err != nil || len(f) != 3 || f[0] != "RELAY" {
		t.Fatalf("relay child: %q %v", line, err)
	}
	c := &relayChild{cmd: cmd, stdin: stdin, http: f[1]}
	t.Cleanup(func() {
		_ = c.stdin.Close()
		_ = c.cmd.Wait()
	})
	return c
}

// memory returns the child's peak and current resident set, in MiB.
func (c *relayChild) memory() (peak, now float64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		return 0, 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		var kb float64
		if _, err := fmt.Sscanf(l, "VmHWM: %f kB", &kb); err == nil {
			peak = kb / 1024
		}
		if _, err := fmt.Sscanf(l, "VmRSS: %f kB", &kb); err == nil {
			now = kb / 1024
		}
	}
	return peak, now
}

func runBench(t testing.TB, node string, args ...string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"bench.mjs"}, args...)...)
	cmd.Dir = compatDir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bench.mjs %v: %v\n%s", args, err, out)
	}
	var v map[string]any
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &v); err != nil {
		t.Fatalf("bench.mjs %v: %v\n%s", args, err, out)
	}
	return v
}

// BenchmarkRelayPeers runs the whole comparison once per iteration (several
// minutes each: use -benchtime 1x) and logs the table rows of docs/relay.md.
func BenchmarkRelayPeers(bb *testing.B) {
	for bb.Loop() {
		relayPeers(bb)
	}
}

func relayPeers(t *testing.B) {
	node := requireNode(t)
	b := needBrowser(t)
	srv := fixtureSrv.get(t)
	relay := startRelayChild(t, b.HTTPURL)
	requests, clients := 20000, 8
	if n := os.Getenv("UNDERSTUDY_BENCH_REQUESTS"); n != "" {
		_, _ = fmt.Sscan(n, &requests)
	}
	if n := os.Getenv("UNDERSTUDY_BENCH_CLIENTS"); n != "" {
		_, _ = fmt.Sscan(n, &clients)
	}

	evalURL := srv.URL("a.test", "/second.html?bench=eval")
	openPage(t, evalURL)
	ev := runBench(t, node, "eval", relay.http, b.HTTPURL, evalURL, "500")
	cn := runBench(t, node, "connect", relay.http, b.HTTPURL, "10")

	floodRelay := srv.URL("a.test", fmt.Sprintf("/flood.html?n=%d&run=relay", requests))
	relayProbe := startProbe(t, b, openPage(t, floodRelay))
	fr := runBench(t, node, "flood", relay.http, floodRelay, fmt.Sprint(clients), fmt.Sprint(requests))
	rp := relayProbe.stop()
	peak, now := relay.memory()
	floodDirect := srv.URL("a.test", fmt.Sprintf("/flood.html?n=%d&run=direct", requests))
	directProbe := startProbe(t, b, openPage(t, floodDirect))
	fd := runBench(t, node, "flood", b.HTTPURL, floodDirect, fmt.Sprint(clients), fmt.Sprint(requests))
	dp := directProbe.stop()

	j := func(v any) string { s, _ := json.Marshal(v); return string(s) }
	t.Logf("eval 500x page.evaluate('1') ms: relay %s direct %s ratio(mean) %v ratio(p50) %v",
		j(ev["relay"]), j(ev["direct"]), ev["ratio_mean"], ev["ratio_p50"])
	t.Logf("connectOverCDP ms: relay %s direct %s ratio(p50) %v ratio(mean) %v",
		j(cn["relay"]), j(cn["direct"]), cn["ratio_p50"], cn["ratio_mean"])
	t.Logf("flood %d requests, %d clients, relay: %ss all %s worst client p99 %v; console events %v",
		requests, clients, j(fr["seconds"]), j(fr["all"]), fr["worst_client_p99"], j(fr["console_events"]))
	t.Logf("flood %d requests, %d clients, direct: %ss all %s worst client p99 %v; console events %v",
		requests, clients, j(fd["seconds"]), j(fd["all"]), fd["worst_client_p99"], j(fd["console_events"]))
	t.Logf("floor during the relay flood: a raw Runtime.evaluate straight to the page, no domain enabled: %s", rp)
	t.Logf("floor during the direct flood: %s", dp)
	t.Logf("relay process memory: peak RSS %.1f MiB, after the flood %.1f MiB", peak, now)
}

// probe measures the floor under a flood: a trivial Runtime.evaluate on the
// flooded page's own socket straight to Chromium, with no domain enabled
// (so no event reaches it), every 5 ms once the flood has started, until
// stop. Its latency is what the renderer and the machine give any client,
// with no relay and no client-side event handling in the way.
type probe struct {
	t      testing.TB
	cancel context.CancelFunc
	done   chan []time.Duration
}

func startProbe(t testing.TB, b *chromiumtest.Browser, id string) *probe {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	conn, err := cdp.Dial(ctx, b.WSURL[:strings.Index(b.WSURL, "/devtools/")]+"/devtools/page/"+id, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	p := &probe{t: t, cancel: cancel, done: make(chan []time.Duration, 1)}
	go func() {
		defer conn.Close()
		var ds []time.Duration
		started := false
		for ctx.Err() == nil {
			t0 := time.Now()
			var raw json.RawMessage
			err := conn.Call(ctx, "Runtime.evaluate", json.RawMessage(`{"expression":"window.__floodOK + window.__floodFailed","returnByValue":true}`), &raw)
			d := time.Since(t0)
			if err != nil {
				break
			}
			if started {
				ds = append(ds, d)
			} else {
				started = !strings.Contains(string(raw), `"value":0}`)
			}
			select {
			case <-ctx.Done():
			case <-time.After(5 * time.Millisecond):
			}
		}
		p.done <- ds
	}()
	return p
}

// stop ends the probe and describes its samples.
func (p *probe) stop() string {
	p.cancel()
	ds := <-p.done
	if len(ds) == 0 {
		return "no samples"
	}
	slices.Sort(ds)
	q := func(f float64) float64 {
		return float64(ds[min(len(ds)-1, int(f*float64(len(ds))))].Microseconds()) / 1000
	}
	return fmt.Sprintf("n=%d p50 %.1f ms p99 %.1f ms max %.1f ms", len(ds), q(0.5), q(0.99), q(1))
}

// BenchmarkRelayEvaluate compares a trivial Runtime.evaluate through the
// relay (a flattened session on the relay's browser socket) with the same
// call on the page's own socket straight to Chromium, interleaved, 500 of
// each per iteration; it reports the medians and their ratio.
func BenchmarkRelayEvaluate(b *testing.B) {
	br := needBrowser(b)
	id := openPage(b, fixtureSrv.get(b).URL("a.test", "/second.html?bench=go"))
	r := startRelay(b, endpointOf(br))
	ctx := context.Background()
	direct, err := cdp.Dial(ctx, br.WSURL[:strings.Index(br.WSURL, "/devtools/")]+"/devtools/page/"+id, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer direct.Close()
	via, err := cdp.Dial(ctx, r.WSURL(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer via.Close()
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := via.Call(ctx, "Target.attachToTarget", map[string]any{"targetId": id, "flatten": true}, &att); err != nil {
		b.Fatal(err)
	}
	params := json.RawMessage(`{"expression":"1","returnByValue":true}`)
	rt := func(call func() error) time.Duration {
		t0 := time.Now()
		if err := call(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	var out json.RawMessage
	callDirect := func() error { return direct.Call(ctx, "Runtime.evaluate", params, &out) }
	callRelay := func() error { return via.Session(att.SessionID).Call(ctx, "Runtime.evaluate", params, &out) }
	median := func(ds []time.Duration) time.Duration {
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	for b.Loop() {
		var ds, rs []time.Duration
		for range 500 {
			ds = append(ds, rt(callDirect))
			rs = append(rs, rt(callRelay))
		}
		md, mr := median(ds), median(rs)
		b.ReportMetric(float64(md.Microseconds())/1000, "ms-direct")
		b.ReportMetric(float64(mr.Microseconds())/1000, "ms-relay")
		b.ReportMetric(float64(mr)/float64(md), "ratio")
	}
}

// BenchmarkGuardCommand: what the default-deny guard costs a command that
// passes it (an allowlisted domain) and a Page.navigate it parses.
func BenchmarkGuardCommand(b *testing.B) {
	pol := guardPolicy{kind: sockSession, mayClose: func(string) bool { return false }, ownTarget: "T",
		ctxOf: func(string) ctxOwner { return ctxNobody }}
	eval := []byte(`{"expression":"document.title","returnByValue":true}`)
	nav := []byte(`{"url":"https://a.test/some/path?q=1#x","transitionType":"typed"}`)
	b.Run("Runtime.evaluate", func(b *testing.B) {
		for range b.N {
			if guardCommand("Runtime.evaluate", eval, pol).v != pass {
				b.Fatal("refused")
			}
		}
	})
	b.Run("Page.navigate", func(b *testing.B) {
		for range b.N {
			if guardCommand("Page.navigate", nav, pol).v != pass {
				b.Fatal("refused")
			}
		}
	})
}
