package surface_test

import (
	"context"
	"testing"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
	"github.com/understudy-dev/understudy/internal/surface"
)

// benchApp opens the fixture's top page (7 surfaces: in-process frames two
// deep, an OOPIF in an OOPIF) and a second window on the shared browser, and
// waits until every surface has a document.
func benchApp(b *testing.B) (context.Context, *app, []surface.Descriptor) {
	b.Helper()
	chromiumtest.Require(b)
	if browser == nil {
		b.Fatal("chromiumtest: no shared browser")
	}
	ctx := b.Context()
	srv, err := fixture.Serve(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = srv.Close() })
	a := openApp(ctx, b, srv, browser.HTTPURL, "/index.html", "/second.html")
	A := fixture.HostA
	ds := waitList(ctx, b, a.reg, "the fixture's surfaces", ready([2]string{A, "/index.html"}, [2]string{A, "/same2.html"},
		[2]string{fixture.HostC, "/cross2.html"}, [2]string{A, "/removable.html"}, [2]string{A, "/second.html"}))
	if len(ds) < 8 {
		b.Fatalf("%d surfaces, want at least 8", len(ds))
	}
	return ctx, a, ds
}

// BenchmarkList measures a listing on warm sockets: one /json/list and one
// Page.getFrameTree per target, in parallel.
func BenchmarkList(b *testing.B) {
	ctx, a, ds := benchApp(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := a.reg.List(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(ds)), "surfaces")
}

// BenchmarkResolve measures resolving the deepest surface (an OOPIF inside
// an OOPIF) when nothing changed: no CDP call.
func BenchmarkResolve(b *testing.B) {
	ctx, a, ds := benchApp(b)
	d, _ := byPath(ds, fixture.HostC, "/cross2.html")
	if _, err := a.reg.Select(d.ID); err != nil {
		b.Fatal(err)
	}
	if _, err := a.reg.Resolve(ctx); err != nil {
		b.Fatal(err)
	}
	calls := a.reg.CallCount("")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := a.reg.Resolve(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if n := a.reg.CallCount(""); n != calls {
		b.Fatalf("resolving made %d CDP calls", n-calls)
	}
}

// BenchmarkOffset measures reading the owner boxes of the same surface: two
// target boundaries, two calls each.
func BenchmarkOffset(b *testing.B) {
	ctx, a, ds := benchApp(b)
	d, _ := byPath(ds, fixture.HostC, "/cross2.html")
	res, err := a.reg.ResolveID(ctx, d.ID)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := res.Offset(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
