package surface_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/target"
	"github.com/understudy-dev/understudy/internal/target/targettest"
)

func fakeRegistry(t *testing.T, fb *targettest.Browser) (*target.Pool, *surface.Registry) {
	t.Helper()
	p, err := target.Open(t.Context(), target.Options{HTTPURL: fb.HTTPURL(), CallTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	r, err := surface.New(surface.Options{SessionID: "sx", Pool: p, ContextWait: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return p, r
}

func list(t *testing.T, r *surface.Registry) []surface.Descriptor {
	t.Helper()
	ds, err := r.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// shape renders a listing as "frame<parentFrame>" items, parent-first.
func shape(ds []surface.Descriptor) string {
	frame := map[string]string{}
	for _, d := range ds {
		frame[d.ID] = d.FrameID
	}
	var parts []string
	for _, d := range ds {
		parts = append(parts, d.FrameID+"<"+frame[d.ParentID]+">")
	}
	return strings.Join(parts, " ")
}

func find(ds []surface.Descriptor, frameID string) (surface.Descriptor, bool) {
	for _, d := range ds {
		if d.FrameID == frameID {
			return d, true
		}
	}
	return surface.Descriptor{}, false
}

func TestParentFirstOrderWithOrphansAndCycles(t *testing.T) {
	tests := []struct {
		name    string
		targets []targettest.Target // /json/list order: newest first
		trees   map[string]targettest.Frame
		want    string
	}{
		{
			name: "children listed before parents in /json/list",
			targets: []targettest.Target{
				{ID: "C2", Type: "iframe", URL: "http://c.test/", ParentID: "C1"},
				{ID: "C1", Type: "iframe", URL: "http://b.test/", ParentID: "F1"},
				{ID: "P2", Type: "page", URL: "http://a.test/2"},
				{ID: "P1", Type: "page", URL: "http://a.test/1"},
			},
			trees: map[string]targettest.Frame{"P1": {ID: "P1", URL: "http://a.test/1", Children: []targettest.Frame{
				{ID: "F1", URL: "http://a.test/f1", Children: []targettest.Frame{{ID: "F2", URL: "http://a.test/f2"}}},
				{ID: "F3", URL: "about:blank"},
			}}},
			want: "P1<> F1<P1> F2<F1> C1<F1> C2<C1> F3<P1> P2<>",
		},
		{
			name: "an orphan is a root",
			targets: []targettest.Target{
				{ID: "O1", Type: "iframe", URL: "http://b.test/", ParentID: "GONE"},
				{ID: "P1", Type: "page", URL: "http://a.test/1"},
			},
			want: "P1<> O1<>",
		},
		{
			name: "a cycle is broken at its first node, never given an invented parent",
			targets: []targettest.Target{
				{ID: "Y", Type: "iframe", URL: "http://c.test/", ParentID: "X"},
				{ID: "X", Type: "iframe", URL: "http://b.test/", ParentID: "Y"},
				{ID: "Z", Type: "iframe", URL: "http://d.test/", ParentID: "Z"},
				{ID: "P1", Type: "page", URL: "http://a.test/1"},
			},
			want: "P1<> Z<> X<> Y<X>",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fb := targettest.New(t)
			fb.SetTargets(tc.targets...)
			for id, tr := range tc.trees {
				fb.SetTree(id, tr)
			}
			_, r := fakeRegistry(t, fb)
			ds := list(t, r)
			if got := shape(ds); got != tc.want {
				t.Errorf("order\n got %s\nwant %s", got, tc.want)
			}
			for _, d := range ds {
				if !strings.HasPrefix(d.ID, "sx-surface-") {
					t.Errorf("id %q", d.ID)
				}
			}
		})
	}
}

func TestKindsRelationsAndOneFrameTreePerTarget(t *testing.T) {
	fb := targettest.New(t)
	fb.SetTargets(
		targettest.Target{ID: "W", Type: "webview", URL: "http://g.test/", ParentID: "P1"},
		targettest.Target{ID: "C1", Type: "iframe", URL: "http://b.test/", ParentID: "P1"},
		targettest.Target{ID: "P1", Type: "page", URL: "http://a.test/1"},
	)
	fb.SetTree("P1", targettest.Frame{ID: "P1", URL: "http://a.test/1", Children: []targettest.Frame{
		{ID: "F1", URL: "http://a.test/f1"}, {ID: "F3", URL: "about:blank"},
	}})
	_, r := fakeRegistry(t, fb)
	ds := list(t, r)
	want := map[string][2]string{
		"P1": {surface.KindOther, ""}, "F1": {surface.KindFrame, surface.SameOrigin},
		"F3": {surface.KindFrame, surface.Opaque}, "C1": {surface.KindFrame, surface.CrossOrigin},
		"W": {surface.KindWebview, surface.CrossOrigin},
	}
	for f, w := range want {
		d, ok := find(ds, f)
		if !ok || d.Kind != w[0] || d.OriginRelation != w[1] {
			t.Errorf("%s: %+v, want kind %s relation %q", f, d, w[0], w[1])
		}
	}
	for _, id := range []string{"P1", "C1", "W"} {
		if n := fb.Calls(id, "Page.getFrameTree"); n != 1 {
			t.Errorf("%s: %d Page.getFrameTree", id, n)
		}
	}
	list(t, r)
	for _, id := range []string{"P1", "C1", "W"} {
		if n := fb.Calls(id, "Page.getFrameTree"); n != 2 {
			t.Errorf("%s: %d Page.getFrameTree after two listings", id, n)
		}
		if n := fb.Calls(id, "Runtime.enable"); n != 1 {
			t.Errorf("%s: Runtime.enable %d times", id, n)
		}
	}
	// The first root became the active surface.
	if d, _ := find(ds, "P1"); !d.Active || r.ActiveWindow() != "P1" {
		t.Errorf("active %+v, window %q", d, r.ActiveWindow())
	}
}

func TestFrameMovingBetweenInProcessAndOOPIFKeepsItsID(t *testing.T) {
	fb := targettest.New(t)
	ctx := t.Context()
	page := targettest.Target{ID: "P1", Type: "page", URL: "http://a.test/1"}
	inProcess := targettest.Frame{ID: "P1", URL: page.URL, Children: []targettest.Frame{{ID: "F1", URL: "http://a.test/f"}}}
	fb.SetTargets(page)
	fb.SetTree("P1", inProcess)
	p, r := fakeRegistry(t, fb)
	d1, _ := find(list(t, r), "F1")
	res, err := r.ResolveID(ctx, d1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if res.ContextID == 0 || !strings.HasSuffix(res.Eval.URL(), "/P1") || res.InputRootID != "P1" {
		t.Fatalf("in-process resolution %+v", res)
	}

	// F1 moves out of process: the parent reports a swap, a target appears.
	fb.Emit(ctx, "P1", "Page.frameDetached", map[string]any{"frameId": "F1", "reason": "swap"})
	oopif := targettest.Target{ID: "F1", Type: "iframe", URL: "http://b.test/f", ParentID: "P1"}
	fb.SetTargets(oopif, page)
	fb.SetTree("P1", targettest.Frame{ID: "P1", URL: page.URL})
	fb.EmitBrowser(ctx, "Target.targetCreated", map[string]any{"targetInfo": targettest.TargetInfo(oopif)})
	ds := list(t, r)
	d2, ok := find(ds, "F1")
	if !ok || d2.ID != d1.ID || d2.Kind != surface.KindFrame || d2.OriginRelation != surface.CrossOrigin {
		t.Fatalf("after the move: %+v (was %s)", d2, d1.ID)
	}
	res, err = r.ResolveID(ctx, d1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if res.ContextID != 0 || !strings.HasSuffix(res.Eval.URL(), "/F1") || res.InputRootID != "P1" {
		t.Errorf("OOPIF resolution: eval %s context %d root %s", res.Eval.URL(), res.ContextID, res.InputRootID)
	}
	if x, y, err := res.Offset(ctx); err != nil || x != 10 || y != 20 {
		t.Errorf("offset %v,%v %v", x, y, err)
	}

	// And back in process: the target goes, the parent's tree has it again.
	fb.SetTargets(page)
	fb.SetTree("P1", inProcess)
	fb.EmitBrowser(ctx, "Target.targetDestroyed", map[string]any{"targetId": "F1"})
	waitFor(t, "F1's target gone", func() bool { _, ok := p.Known("F1"); return !ok })
	// Between the target's end and the next listing the surface is a
	// tombstone, as ADR-029 has it.
	waitFor(t, "F1's tombstone", func() bool {
		_, err := r.ResolveID(ctx, d1.ID)
		return errs.CodeOf(err) == errs.SurfaceClosed
	})
	d3, ok := find(list(t, r), "F1")
	if !ok || d3.ID != d1.ID {
		t.Fatalf("back in process: %+v", d3)
	}
	res, err = r.ResolveID(ctx, d1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if res.ContextID == 0 || !strings.HasSuffix(res.Eval.URL(), "/P1") {
		t.Errorf("back in process: eval %s context %d", res.Eval.URL(), res.ContextID)
	}
}

func TestTombstonesAndRevival(t *testing.T) {
	fb := targettest.New(t)
	ctx := t.Context()
	page := targettest.Target{ID: "P1", Type: "page", URL: "http://a.test/1"}
	withF := targettest.Frame{ID: "P1", URL: page.URL, Children: []targettest.Frame{
		{ID: "F1", URL: "http://a.test/f"}, {ID: "F2", URL: "http://a.test/g"}}}
	fb.SetTargets(page)
	fb.SetTree("P1", withF)
	_, r := fakeRegistry(t, fb)
	ds := list(t, r)
	f1, _ := find(ds, "F1")
	f2, _ := find(ds, "F2")

	// A listing that misses a frame makes it a tombstone.
	fb.SetTree("P1", targettest.Frame{ID: "P1", URL: page.URL, Children: []targettest.Frame{{ID: "F2", URL: "http://a.test/g"}}})
	if _, ok := find(list(t, r), "F1"); ok {
		t.Fatal("F1 still listed")
	}
	_, err := r.Select(f1.ID)
	wantCode(t, err, errs.SurfaceClosed)
	_, err = r.Select("sx-surface-99")
	wantCode(t, err, errs.SurfaceNotFound)

	// The frame id comes back: the same record, live again.
	fb.SetTree("P1", withF)
	d, ok := find(list(t, r), "F1")
	if !ok || d.ID != f1.ID {
		t.Fatalf("revived as %+v, want %s", d, f1.ID)
	}
	if _, err := r.Select(f1.ID); err != nil {
		t.Fatal(err)
	}

	// Page.frameDetached makes a tombstone at once, except for a swap.
	fb.Emit(ctx, "P1", "Page.frameDetached", map[string]any{"frameId": "F2", "reason": "swap"})
	fb.Emit(ctx, "P1", "Page.frameDetached", map[string]any{"frameId": "F1", "reason": "remove"})
	waitFor(t, "F1's tombstone", func() bool {
		_, err := r.Resolve(ctx)
		return errs.CodeOf(err) == errs.SurfaceClosed
	})
	if _, err := r.Select(f2.ID); err != nil {
		t.Errorf("a swapped frame was closed: %v", err)
	}
	// An attached frame revives it before any listing.
	fb.Emit(ctx, "P1", "Page.frameAttached", map[string]any{"frameId": "F1", "parentFrameId": "P1"})
	waitFor(t, "F1 revived", func() bool { _, err := r.Select(f1.ID); return err == nil })
}

func TestResolveIsFreeWhenNothingChanged(t *testing.T) {
	fb := targettest.New(t)
	fb.SetTargets(
		targettest.Target{ID: "C1", Type: "iframe", URL: "http://b.test/", ParentID: "F1"},
		targettest.Target{ID: "P1", Type: "page", URL: "http://a.test/1"},
	)
	fb.SetTree("P1", targettest.Frame{ID: "P1", URL: "http://a.test/1", Children: []targettest.Frame{{ID: "F1", URL: "http://a.test/f"}}})
	_, r := fakeRegistry(t, fb)
	ctx := t.Context()
	ds := list(t, r)
	c1, _ := find(ds, "C1")
	if _, err := r.Select(c1.ID); err != nil {
		t.Fatal(err)
	}
	before := r.CallCount("")
	sent := fb.Calls("", "Runtime.evaluate") + fb.Calls("", "Page.getFrameTree")
	var res *surface.Resolution
	for range 100 {
		var err error
		if res, err = r.Resolve(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.CallCount(""); got != before {
		t.Errorf("resolving made %d calls", got-before)
	}
	if fb.Calls("", "Runtime.evaluate")+fb.Calls("", "Page.getFrameTree") != sent {
		t.Errorf("the fake saw calls")
	}
	// The OOPIF's owner lives in the in-process frame F1 of P1: one hop,
	// asked on P1's socket. Each Offset reads the boxes anew.
	for range 2 {
		if _, _, err := res.Offset(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := fb.Calls("P1", "DOM.getFrameOwner"); n != 2 {
		t.Errorf("%d DOM.getFrameOwner on P1, want 2", n)
	}
	if n := fb.Calls("P1", "DOM.getBoxModel"); n != 2 {
		t.Errorf("%d DOM.getBoxModel on P1, want 2", n)
	}
}

func TestResolveWaitsForANewContext(t *testing.T) {
	fb := targettest.New(t)
	fb.SetTargets(targettest.Target{ID: "P1", Type: "page", URL: "http://a.test/1"})
	fb.SetTree("P1", targettest.Frame{ID: "P1", URL: "http://a.test/1", Children: []targettest.Frame{{ID: "F1", URL: "http://a.test/f"}}})
	_, r := fakeRegistry(t, fb)
	ctx := t.Context()
	f1, _ := find(list(t, r), "F1")
	res, err := r.ResolveID(ctx, f1.ID)
	if err != nil {
		t.Fatal(err)
	}
	old := res.ContextID
	// A navigation: the old context goes, a new one comes a little later.
	fb.Emit(ctx, "P1", "Runtime.executionContextDestroyed", map[string]any{"executionContextId": old})
	waitFor(t, "F1 without a document", func() bool {
		d, _ := find(list(t, r), "F1")
		return !d.Capabilities.RendererEval
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(50 * time.Millisecond)
		fb.Emit(context.Background(), "P1", "Runtime.executionContextCreated", map[string]any{"context": map[string]any{
			"id": 777, "origin": "http://a.test", "name": "", "auxData": map[string]any{"isDefault": true, "type": "default", "frameId": "F1"}}})
	}()
	res, err = r.ResolveID(ctx, f1.ID)
	<-done
	if err != nil || res.ContextID != 777 {
		t.Fatalf("resolved %+v, %v", res, err)
	}
	// Nothing comes: SURFACE_UNSUPPORTED after ContextWait.
	fb.Emit(ctx, "P1", "Runtime.executionContextsCleared", map[string]any{})
	waitFor(t, "contexts cleared", func() bool {
		d, _ := find(list(t, r), "F1")
		return !d.Capabilities.RendererEval
	})
	_, err = r.ResolveID(ctx, f1.ID)
	wantCode(t, err, errs.SurfaceUnsupported)
}

// TestTombstonesAreBounded: 300 frames attached and detached leave at most
// 128 tombstone records (the newest); every closed surface is reported to
// OnClosed once; a pruned id still reads SURFACE_CLOSED, an id never issued
// SURFACE_NOT_FOUND; and a new document in the page closes the frames of
// the old one.
func TestTombstonesAreBounded(t *testing.T) {
	fb := targettest.New(t)
	ctx := t.Context()
	page := targettest.Target{ID: "P1", Type: "page", URL: "http://a.test/1"}
	fb.SetTargets(page)
	fb.SetTree("P1", targettest.Frame{ID: "P1", URL: page.URL})
	_, r := fakeRegistry(t, fb)
	var mu sync.Mutex
	closed := map[string]int{}
	r.OnClosed(func(id string) { mu.Lock(); closed[id]++; mu.Unlock() })
	list(t, r)
	base := r.Stats()
	const n = 300
	var first string
	for i := range n {
		id := "F" + strconv.Itoa(i)
		fb.Emit(ctx, "P1", "Page.frameAttached", map[string]any{"frameId": id, "parentFrameId": "P1"})
		fb.Emit(ctx, "P1", "Page.frameDetached", map[string]any{"frameId": id, "reason": "remove"})
		if i == 0 {
			waitFor(t, "the first frame's surface", func() bool { s, ok := r.SurfaceOf(id); first = s; return ok })
		}
	}
	waitFor(t, "every close reported", func() bool { mu.Lock(); defer mu.Unlock(); return len(closed) == n })
	st := r.Stats()
	if st.Live != base.Live || st.Tombstones > 128 || st.Nodes > base.Nodes+128 {
		t.Fatalf("after %d frames came and went: %+v (baseline %+v)", n, st, base)
	}
	for id, k := range closed {
		if k != 1 {
			t.Fatalf("%s reported closed %d times", id, k)
		}
	}
	if _, ok := r.SurfaceOf("F0"); ok {
		t.Fatal("the oldest tombstone was kept whole")
	}
	_, err := r.Select(first)
	wantCode(t, err, errs.SurfaceClosed)
	_, err = r.ResolveID(ctx, first)
	wantCode(t, err, errs.SurfaceClosed)
	for _, id := range []string{"sx-surface-99999", "sx-surface-0", "sx-surface-01", "other-surface-1"} {
		_, err = r.Select(id)
		wantCode(t, err, errs.SurfaceNotFound)
	}

	// A new document in the page: its in-process frames are gone even
	// without Page.frameDetached.
	fb.Emit(ctx, "P1", "Page.frameAttached", map[string]any{"frameId": "K1", "parentFrameId": "P1"})
	fb.Emit(ctx, "P1", "Page.frameAttached", map[string]any{"frameId": "K2", "parentFrameId": "K1"})
	waitFor(t, "the new frames", func() bool { _, ok := r.SurfaceOf("K2"); return ok && r.Stats().Live == base.Live+2 })
	fb.Emit(ctx, "P1", "Page.frameNavigated", map[string]any{"frame": map[string]any{"id": "P1", "url": "http://a.test/2", "securityOrigin": "http://a.test"}})
	waitFor(t, "the old document's frames closed", func() bool { return r.Stats().Live == base.Live })
}
