package surface_test

import (
	"context"
	"testing"

	"github.com/understudy-dev/understudy/internal/fixture"
)

// proxyEndpoint puts the Electron-shaped proxy in front of the shared
// browser and returns its DevTools endpoint and whether it shows a webview
// guest (guest.html becomes a webview of webview-host.html).
func proxyEndpoint(ctx context.Context, tb testing.TB, _ *fixture.Server) (string, bool) {
	tb.Helper()
	p, err := fixture.StartElectronProxy(ctx, browser.HTTPURL, fixture.ProxyOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = p.Close() })
	return p.HTTPURL(), true
}
