//go:build linux

package browser

import (
	"context"
	"slices"
	"testing"
	"time"
)

// BenchmarkLaunchToEndpoint measures a Chromium launch until its DevTools
// endpoint is known, then a Kill (included; reported apart as ms/kill).
func BenchmarkLaunchToEndpoint(b *testing.B) {
	exe := requireChromium(b)
	ctx := context.Background()
	var toEndpoint, toKill time.Duration
	for b.Loop() {
		start := time.Now()
		p, err := Launch(ctx, LaunchOptions{ExecutablePath: exe})
		if err != nil {
			b.Fatalf("Launch: %v", err)
		}
		mid := time.Now()
		toEndpoint += mid.Sub(start)
		if err := p.Kill(); err != nil {
			b.Fatalf("Kill: %v", err)
		}
		toKill += time.Since(mid)
	}
	b.ReportMetric(float64(toEndpoint.Milliseconds())/float64(b.N), "ms/endpoint")
	b.ReportMetric(float64(toKill.Milliseconds())/float64(b.N), "ms/kill")
}

// BenchmarkResolve measures an attach resolve (/json/version) of a running
// Chromium by port.
func BenchmarkResolve(b *testing.B) {
	exe := requireChromium(b)
	ctx := context.Background()
	p, err := Launch(ctx, LaunchOptions{ExecutablePath: exe})
	if err != nil {
		b.Fatalf("Launch: %v", err)
	}
	defer p.Kill()
	// A running browser: wait until its first page is up.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		ts, err := ListTargets(ctx, p.Endpoint)
		if err == nil && slices.ContainsFunc(ts, func(t Target) bool { return t.Type == "page" }) {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("no page target: %v %v", ts, err)
		}
	}
	// Chromium keeps starting up for a while after its first page (answers
	// take 5–130 ms then, 0.3 ms after); measure the steady state.
	time.Sleep(time.Second)
	for b.Loop() {
		if _, _, err := Resolve(ctx, "127.0.0.1", p.Endpoint.Port, ""); err != nil {
			b.Fatalf("Resolve: %v", err)
		}
	}
}
