package target_test

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/target"
	"github.com/understudy-dev/understudy/internal/target/targettest"
)

func open(t *testing.T, fb *targettest.Browser, onChange func(target.Change)) *target.Pool {
	t.Helper()
	p, err := target.Open(t.Context(), target.Options{HTTPURL: fb.HTTPURL(), CallTimeout: 5 * time.Second, OnChange: onChange})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func ids(infos []target.Info) []string {
	out := make([]string, len(infos))
	for i, in := range infos {
		out[i] = in.ID
	}
	return out
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

var (
	p1 = targettest.Target{ID: "P1", Type: "page", URL: "http://a.test/1"}
	p2 = targettest.Target{ID: "P2", Type: "page", URL: "http://a.test/2"}
	p3 = targettest.Target{ID: "P3", Type: "page", URL: "http://a.test/3"}
	i1 = targettest.Target{ID: "I1", Type: "iframe", URL: "http://b.test/x", ParentID: "P1"}
	sw = targettest.Target{ID: "SW", Type: "service_worker", URL: "http://a.test/sw.js"}
	wv = targettest.Target{ID: "W1", Type: "webview", URL: "http://a.test/guest", ParentID: "P2"}
)

func TestListFiltersAndKeepsFirstSeenOrder(t *testing.T) {
	fb := targettest.New(t)
	// /json/list is newest first.
	fb.SetTargets(wv, p2, i1, sw, p1)
	p := open(t, fb, nil)
	ctx := t.Context()
	got, err := p.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"P1", "I1", "P2", "W1"}; !slices.Equal(ids(got), want) {
		t.Fatalf("first listing %v, want %v", ids(got), want)
	}
	if got[1].ParentID != "P1" || got[1].WSURL == "" || got[3].Type != "webview" || got[3].ParentID != "P2" {
		t.Errorf("infos %+v", got)
	}
	// A new target comes last; a reordered /json/list (Chromium sorts by
	// activity) changes nothing.
	fb.SetTargets(p1, p3, wv, i1, p2)
	got, err = p.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"P1", "I1", "P2", "W1", "P3"}; !slices.Equal(ids(got), want) {
		t.Fatalf("second listing %v, want %v", ids(got), want)
	}
	win, err := p.Windows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"P1", "P2", "W1", "P3"}; !slices.Equal(ids(win), want) {
		t.Errorf("windows %v, want %v", ids(win), want)
	}
	if _, ok := p.Known("SW"); ok {
		t.Errorf("a service worker is known")
	}
}

func TestConcurrentCallersShareOneDial(t *testing.T) {
	fb := targettest.New(t)
	fb.SetTargets(p1)
	p := open(t, fb, nil)
	var wg sync.WaitGroup
	conns := make([]*cdp.Conn, 16)
	for i := range conns {
		wg.Go(func() {
			c, err := p.Conn(t.Context(), "P1")
			if err != nil {
				t.Error(err)
			}
			conns[i] = c
		})
	}
	wg.Wait()
	for _, c := range conns {
		if c == nil || c != conns[0] {
			t.Fatalf("callers got different connections")
		}
	}
	if n := fb.Dials("P1"); n != 1 {
		t.Errorf("%d dials, want 1", n)
	}
	// Reused later too.
	c, err := p.Conn(t.Context(), "P1")
	if err != nil || c != conns[0] || fb.Dials("P1") != 1 {
		t.Errorf("not reused: %v, %d dials", err, fb.Dials("P1"))
	}
}

func TestEventsKeepTheSetCurrentAndCloseSockets(t *testing.T) {
	fb := targettest.New(t)
	fb.SetTargets(p1)
	var mu sync.Mutex
	var changes []string
	p := open(t, fb, func(c target.Change) {
		mu.Lock()
		changes = append(changes, c.Kind.String()+" "+c.Target.ID)
		mu.Unlock()
	})
	ctx := t.Context()
	if _, err := p.Conn(ctx, "P1"); err != nil {
		t.Fatal(err)
	}
	x := targettest.Target{ID: "X", Type: "iframe", URL: "http://c.test/", ParentID: "P1"}
	fb.EmitBrowser(ctx, "Target.targetCreated", map[string]any{"targetInfo": targettest.TargetInfo(x)})
	fb.EmitBrowser(ctx, "Target.targetCreated", map[string]any{"targetInfo": targettest.TargetInfo(sw)})
	waitFor(t, "X known", func() bool { _, ok := p.Known("X"); return ok })
	if in, _ := p.Known("X"); in.ParentID != "P1" || in.Type != "iframe" {
		t.Errorf("X = %+v", in)
	}
	x.URL = "http://c.test/next"
	fb.EmitBrowser(ctx, "Target.targetInfoChanged", map[string]any{"targetInfo": targettest.TargetInfo(x)})
	waitFor(t, "X's new url", func() bool { in, _ := p.Known("X"); return in.URL == x.URL })
	fb.EmitBrowser(ctx, "Target.targetDestroyed", map[string]any{"targetId": "P1"})
	waitFor(t, "P1's socket closed", func() bool { return fb.Closed("P1") == 1 })
	if _, ok := p.Known("P1"); ok {
		t.Errorf("P1 still known")
	}
	fb.SetTargets()
	_, err := p.Conn(ctx, "P1")
	if errs.CodeOf(err) != errs.SurfaceClosed {
		t.Errorf("Conn of a destroyed target: %v", err)
	}
	_, err = p.Conn(ctx, "NOPE")
	if errs.CodeOf(err) != errs.SurfaceNotFound {
		t.Errorf("Conn of an unknown target: %v", err)
	}
	want := []string{"created P1", "created X", "info-changed X", "destroyed P1"}
	waitFor(t, "changes", func() bool { mu.Lock(); defer mu.Unlock(); return len(changes) >= len(want) })
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(changes, want) {
		t.Errorf("changes %v, want %v", changes, want)
	}
}

func TestListenersSeeEventsFromTheFirstFrame(t *testing.T) {
	fb := targettest.New(t)
	fb.SetTargets(p1)
	fb.SetTree("P1", targettest.Frame{ID: "P1", URL: p1.URL, Children: []targettest.Frame{{ID: "F1", URL: "http://a.test/f"}}})
	p := open(t, fb, nil)
	var mu sync.Mutex
	var seen []string
	remove := p.Listen(func(s *target.Socket, ev cdp.Event) {
		mu.Lock()
		seen = append(seen, s.TargetID()+" "+ev.Method)
		mu.Unlock()
	})
	defer remove()
	c, err := p.Conn(t.Context(), "P1")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Call(t.Context(), "Runtime.enable", nil, nil); err != nil {
		t.Fatal(err)
	}
	// The events came before the reply: the listener has them already.
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"P1 Runtime.executionContextCreated", "P1 Runtime.executionContextCreated"}; !slices.Equal(seen, want) {
		t.Errorf("seen %v, want %v", seen, want)
	}
}

func TestCloseEndsEverything(t *testing.T) {
	fb := targettest.New(t)
	fb.SetTargets(p1, p2)
	p, err := target.Open(t.Context(), target.Options{HTTPURL: fb.HTTPURL()})
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Socket(t.Context(), "P1")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.Conn().Done():
	default:
		t.Errorf("P1's connection is open after Close")
	}
	select {
	case <-p.Browser().Done():
	default:
		t.Errorf("the browser connection is open after Close")
	}
	if _, err := p.Conn(context.Background(), "P2"); errs.CodeOf(err) != errs.CDPDisconnected {
		t.Errorf("Conn after Close: %v", err)
	}
	waitFor(t, "the fake to see the socket end", func() bool { return fb.Closed("P1") == 1 })
}

// TestDestroyedTargetsArePruned: 300 targets created and destroyed leave at
// most about maxDestroyed (128) records, the newest; a live target keeps
// its first-seen place; a destroyed one still known is SURFACE_CLOSED.
func TestDestroyedTargetsArePruned(t *testing.T) {
	fb := targettest.New(t)
	fb.SetTargets(p1)
	var mu sync.Mutex
	destroyed := 0
	p := open(t, fb, func(ch target.Change) {
		if ch.Kind == target.Destroyed {
			mu.Lock()
			destroyed++
			mu.Unlock()
		}
	})
	ctx := t.Context()
	if _, err := p.List(ctx); err != nil {
		t.Fatal(err)
	}
	base := p.Stats()
	const n = 300
	for i := range n {
		ti := targettest.Target{ID: "F" + itoa(i), Type: "iframe", URL: "http://b.test/f", ParentID: "P1"}
		fb.EmitBrowser(ctx, "Target.targetCreated", map[string]any{"targetInfo": targettest.TargetInfo(ti)})
		fb.EmitBrowser(ctx, "Target.targetDestroyed", map[string]any{"targetId": ti.ID})
	}
	waitFor(t, "every destroy", func() bool { mu.Lock(); defer mu.Unlock(); return destroyed == n })
	st := p.Stats()
	if st.Targets != base.Targets || st.Destroyed > 128 || st.Destroyed < 64 || st.Sockets != base.Sockets {
		t.Fatalf("after %d targets came and went: %+v (baseline %+v)", n, st, base)
	}
	if _, err := p.Socket(ctx, "F"+itoa(n-1)); errs.CodeOf(err) != errs.SurfaceClosed {
		t.Fatalf("the newest destroyed target: %v", err)
	}
	got, err := p.List(ctx)
	if err != nil || len(got) != 1 || got[0].ID != "P1" {
		t.Fatalf("listing after the churn: %v %v", ids(got), err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
