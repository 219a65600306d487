package surface_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/target"
)

// TestFlatOOPIFsComeAttached counts the commands of listing the fixture's
// top page (a cross-site OOPIF holding a nested cross-site one) in flat
// mode, through a tap on the browser socket: the pool attaches the page
// with Target.attachToTarget, and the OOPIFs come auto-attached under it
// (Target.setAutoAttach {flatten} on the page's session, pipelined), so no
// OOPIF costs an attachToTarget round trip.
func TestFlatOOPIFsComeAttached(t *testing.T) {
	chromiumtest.Require(t)
	if browser == nil {
		t.Fatal("chromiumtest: no shared browser")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	srv, err := fixture.Serve(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
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
	infos, err := pool.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	kind := map[string]string{}
	for _, in := range infos {
		kind[in.ID] = in.Type
	}
	attached := map[string]int{} // target type → attachToTarget commands
	for _, c := range tap.Commands() {
		if c.Method == "Target.attachToTarget" {
			var p struct {
				TargetID string `json:"targetId"`
			}
			_ = json.Unmarshal(c.Params, &p)
			attached[kind[p.TargetID]]++
		}
	}
	iframes := 0
	for _, k := range kind {
		if k == target.TypeIframe {
			iframes++
		}
	}
	t.Logf("targets %v; attachToTarget by target type %v", kind, attached)
	if iframes < 2 {
		t.Fatalf("the pool lists %d OOPIFs, want the fixture's two at least", iframes)
	}
	if attached[target.TypeIframe] != 0 || attached[target.TypePage] == 0 {
		t.Fatalf("attachToTarget by target type %v: OOPIFs must come auto-attached, pages attached", attached)
	}
}
