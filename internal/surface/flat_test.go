package surface_test

import (
	"context"
	"testing"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/target"
)

// TestFlatEnablesShareARoundTrip watches, through a tap on the browser
// socket, the commands of listing the fixture's top page (a cross-site
// OOPIF holding a nested cross-site one) in flat mode, where every target
// is a session on that one socket (as through a Selenium Grid's se:cdp,
// where each round trip is dear): on every target's session the registry
// sends Runtime.enable before Page.enable's reply has come back, so the
// two cost one round trip, not two.
func TestFlatEnablesShareARoundTrip(t *testing.T) {
	ctx, srv := browserAndFixture(t)
	tap, err := fixture.StartTap(browser.WSURL, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tap.Close()
	page, err := browser.NewPage(ctx, srv.URL(fixture.HostA, "/index.html"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = browser.ClosePage(context.Background(), page) }()
	pool, err := target.Open(ctx, target.Options{BrowserWSURL: tap.URL(), Flat: true})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	reg, err := surface.New(surface.Options{SessionID: "s1", Pool: pool})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	A, B, C := fixture.HostA, fixture.HostB, fixture.HostC
	waitList(ctx, t, reg, "the top page's frames", ready([2]string{A, "/index.html"}, [2]string{B, "/cross1.html"}, [2]string{C, "/cross2.html"}))
	pageOn := map[string]fixture.TapCommand{} // session → its Page.enable
	counts := map[string]int{}
	sessions := 0
	for _, c := range tap.Commands() {
		counts[c.Method]++
		switch c.Method {
		case "Page.enable":
			pageOn[c.SessionID] = c
		case "Runtime.enable":
			p, ok := pageOn[c.SessionID]
			if !ok {
				t.Fatalf("Runtime.enable on %s before its Page.enable", c.SessionID)
			}
			if !p.Replied.IsZero() && !c.At.Before(p.Replied) {
				t.Errorf("session %s: Runtime.enable went out %v after Page.enable's reply: a round trip of its own", c.SessionID, c.At.Sub(p.Replied))
			}
			sessions++
		}
	}
	t.Logf("commands of the listing: %v", counts)
	if sessions < 3 {
		t.Fatalf("%d sessions enabled, want the page and its two OOPIFs at least", sessions)
	}
}
