package page

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	cdpproto "github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/fixture"
)

// reloadingPage serves a page of n buttons that reloads itself every
// few milliseconds, so reads land on a document that is being replaced.
func reloadingPage(tb testing.TB, n int) string {
	tb.Helper()
	srv := fixtureServer(tb)
	srv.Mount("/reloading/", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		var b strings.Builder
		b.WriteString("<!doctype html><title>reloading</title><body>")
		for i := range n {
			fmt.Fprintf(&b, "<button id=b%d>button %d</button>", i, i)
		}
		b.WriteString("<script>setTimeout(() => location.reload(), 5)</script></body>")
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte(b.String()))
	}))
	return srv.URL(fixture.HostA, "/reloading/page.html")
}

// TestReadsSurviveNavigation: snapshot, find and the element reads on a
// page's own frame (no context id) look again in the new document when a
// navigation replaces the one they were sent to, instead of failing with
// "Inspected target navigated or closed" (an internal error to the agent).
func TestReadsSurviveNavigation(t *testing.T) {
	u := reloadingPage(t, 300)
	tb := openTab(t, u)
	s := NewStore()
	f := tb.frame("nav")
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	for i := range 15 {
		if _, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"}); err != nil {
			t.Fatalf("snapshot %d: %v", i, err)
		}
		if _, err := s.Find(ctx, f, FindQuery{Role: "button", NameContains: "button 7"}); err != nil {
			t.Fatalf("find %d: %v", i, err)
		}
		if _, err := s.Exists(ctx, f, Locator{Selector: "#b1"}); err != nil {
			t.Fatalf("exists %d: %v", i, err)
		}
	}
}

// TestReadOnAStaleContextIsPageNavigating: an in-process frame's context id
// that a navigation made stale is not retried here (only the caller can
// resolve the frame again); the read answers PAGE_NAVIGATING, retryable,
// not INTERNAL_ERROR.
func TestReadOnAStaleContextIsPageNavigating(t *testing.T) {
	srv := fixtureServer(t)
	u := srv.URL(fixture.HostA, "/index.html")
	tb := openTab(t, u)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	tree, err := cdpproto.Call(ctx, tb.conn, cdppage.GetFrameTree, cdpproto.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	world, err := cdpproto.Call(ctx, tb.conn, cdppage.CreateIsolatedWorld, cdppage.CreateIsolatedWorldParams{FrameID: tree.FrameTree.Frame.ID, WorldName: "stale"})
	if err != nil {
		t.Fatal(err)
	}
	f := tb.frame("stale")
	f.ContextID = world.ExecutionContextID
	s := NewStore()
	if _, err := s.Snapshot(ctx, f, SnapshotOptions{}); err != nil {
		t.Fatalf("snapshot in the live context: %v", err)
	}
	tb.reload(t)
	_, err = s.Snapshot(ctx, f, SnapshotOptions{})
	if errs.CodeOf(err) != errs.PageNavigating {
		t.Fatalf("snapshot in a stale context: %v, want PAGE_NAVIGATING", err)
	}
	if e, _ := errs.Lookup(errs.PageNavigating); !e.Retryable {
		t.Fatal("PAGE_NAVIGATING is not retryable")
	}
}
