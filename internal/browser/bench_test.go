package browser

import (
	"context"
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
	for b.Loop() {
		if _, _, err := Resolve(ctx, "127.0.0.1", p.Endpoint.Port, ""); err != nil {
			b.Fatalf("Resolve: %v", err)
		}
	}
}
