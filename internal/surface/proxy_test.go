package surface_test

import (
	"context"
	"testing"

	"github.com/understudy-dev/understudy/internal/fixture"
)

// proxyEndpoint returns the DevTools endpoint to drive and whether it shows
// a webview guest.
func proxyEndpoint(ctx context.Context, tb testing.TB, srv *fixture.Server) (string, bool) {
	return browser.HTTPURL, false
}
