package tool

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/target"
)

// stateCounts is what a session keeps per target, frame and surface.
type stateCounts struct {
	Pool     target.PoolStats
	Registry surface.Stats
	Pages    page.StoreStats
}

func countsOf(s *session.Session) stateCounts {
	return stateCounts{Pool: s.Pool.Stats(), Registry: s.Surfaces.Stats(), Pages: s.Pages.Stats()}
}

// TestStateBoundedOverNavigationsAndFrames: 500 navigations of a page with
// an iframe and 200 cycles of an iframe added and removed (every fifth one
// cross-site: an OOPIF target each time), with snapshots in the frames on the way, leave
// the session's per-target, per-frame and per-surface state where it
// started, give or take the bounded tombstones (docs/adr: bounded state).
func TestStateBoundedOverNavigationsAndFrames(t *testing.T) {
	e := newEnv(t, Config{})
	e.launch("/churn.html")
	sess := e.srv.sessions.List()[0]
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	win := sess.Surfaces.ActiveWindow()
	conn, err := sess.Pool.Conn(ctx, win)
	if err != nil {
		t.Fatal(err)
	}
	// snapshotFrames lists the surfaces and snapshots every frame surface,
	// so the page store holds state for each.
	snapshotFrames := func() int {
		t.Helper()
		list, err := sess.Surfaces.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, d := range list {
			if d.Kind != surface.KindFrame || !d.Capabilities.Snapshot {
				continue
			}
			res, err := sess.Surfaces.ResolveID(ctx, d.ID)
			if err != nil {
				continue // gone meanwhile
			}
			if _, err := sess.Pages.Snapshot(ctx, page.Frame{Session: res.Eval, ContextID: res.ContextID, SurfaceID: res.SurfaceID}, page.SnapshotOptions{}); err == nil {
				n++
			}
		}
		return n
	}
	if snapshotFrames() == 0 {
		t.Fatal("no frame surface to snapshot on the churn page")
	}
	base := countsOf(sess)
	t.Logf("baseline: %+v", base)

	start := time.Now()
	loads, stopLoads := conn.Subscribe("Page.loadEventFired")
	defer stopLoads()
	// loaded reports whether the page shows the document of navigation want.
	loaded := func(want string) (bool, string) {
		var out struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}
		err := conn.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "location.search + ' ' + document.readyState", "returnByValue": true}, &out)
		return err == nil && out.Result.Value == want+" complete", out.Result.Value
	}
	for i := range 500 {
		want := fmt.Sprintf("?n=%d", i)
		if err := conn.Call(ctx, "Page.navigate", map[string]any{"url": e.app.URL("a.test", "/churn.html"+want)}, nil); err != nil {
			t.Fatalf("navigation %d: %v", i, err)
		}
		// Wait for a load event, then check it was this document's; look
		// again every 500 ms in case an event was missed.
		for deadline := time.Now().Add(30 * time.Second); ; {
			select {
			case <-loads:
			case <-time.After(500 * time.Millisecond):
			}
			ok, got := loaded(want)
			if ok {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("navigation %d did not load: %q", i, got)
			}
		}
		if i%100 == 0 {
			snapshotFrames()
		}
	}
	navigated := time.Since(start)
	afterNav := countsOf(sess)
	t.Logf("after 500 navigations (%s): %+v", navigated.Round(time.Millisecond), afterNav)

	start = time.Now()
	// Every fifth frame is cross-site (an OOPIF: a target of its own, and a
	// renderer process to start); the others are in-process frames.
	same, cross := e.app.URL("a.test", "/removable.html"), e.app.URL("b.test", "/cross1.html")
	loadedCycles := 0
	for i := range 200 {
		url := same
		if i%5 == 0 {
			url = cross
		}
		var out struct {
			Result struct {
				Value bool `json:"value"`
			} `json:"result"`
		}
		// On a starved machine a frame may not load in time (the page then
		// removes it anyway): what counts here is that every frame goes.
		if err := conn.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "cycle(" + jsString(url) + ")", "awaitPromise": true, "returnByValue": true}, &out); err != nil {
			t.Logf("frame cycle %d: %v", i, err)
		} else if out.Result.Value {
			loadedCycles++
		}
	}
	if loadedCycles < 100 {
		t.Fatalf("only %d of 200 frames loaded", loadedCycles)
	}
	// Let the last frames go before counting.
	for deadline := time.Now().Add(60 * time.Second); ; {
		var out struct {
			Result struct {
				Value float64 `json:"value"`
			} `json:"result"`
		}
		err := conn.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document.querySelectorAll('iframe').length", "returnByValue": true}, &out)
		if err == nil && out.Result.Value == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("frames left on the page: %v %v", out.Result.Value, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	cycled := time.Since(start)
	snapshotFrames() // a listing: what it misses is a tombstone at the latest now
	end := countsOf(sess)
	t.Logf("after 200 frame cycles (%s): %+v", cycled.Round(time.Millisecond), end)

	const slack = 4 // a frame or target on its way in or out
	var bad []string
	check := func(what string, got, limit int) {
		if got > limit {
			bad = append(bad, fmt.Sprintf("%s: %d, want at most %d", what, got, limit))
		}
	}
	for _, c := range []stateCounts{afterNav, end} {
		check("pool targets", c.Pool.Targets, base.Pool.Targets+slack)
		check("pool destroyed targets", c.Pool.Destroyed, base.Pool.Destroyed+128+slack)
		check("pool sockets", c.Pool.Sockets, base.Pool.Sockets+slack)
		check("pool listeners", c.Pool.Listeners, base.Pool.Listeners)
		check("pool watchers", c.Pool.Watchers, base.Pool.Watchers)
		check("live surfaces", c.Registry.Live, base.Registry.Live+slack)
		check("surface records", c.Registry.Nodes, base.Registry.Live+128+slack)
		check("tracked sockets", c.Registry.Sockets, base.Registry.Sockets+slack)
		check("tracked contexts", c.Registry.Contexts, base.Registry.Contexts+slack)
		check("frames with a context", c.Registry.Defaults, base.Registry.Defaults+slack)
		check("page store surfaces", c.Pages.Surfaces, base.Pages.Surfaces+slack)
		check("page store refs", c.Pages.Refs, base.Pages.Refs*4+50)
	}
	if len(bad) > 0 {
		t.Fatalf("state grew:\n%s", strings.Join(bad, "\n"))
	}
	// The oldest surfaces' records are gone, but their ids still read as
	// closed, not unknown.
	if _, err := sess.Surfaces.Select(sess.ID + "-surface-3"); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("a pruned surface id: %v", err)
	}
	if _, err := sess.Surfaces.Select(sess.ID + "-surface-999999"); err == nil || !strings.Contains(err.Error(), "no surface") {
		t.Fatalf("an id never issued: %v", err)
	}
}
