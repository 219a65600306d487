package page

import (
	"testing"
	"time"
)

// TestWaitRefReservedAcrossSurfaces: a wait on one surface lets the store
// go while its renderer watches, so a snapshot of another surface runs
// meanwhile and issues refs from the same session-wide counter; the ref
// the wait's answer then issues is the number reserved for it, never one
// the snapshot issued (ADR-001, ADR-018), and it names the element found.
func TestWaitRefReservedAcrossSurfaces(t *testing.T) {
	srv := fixtureServer(t)
	s := NewStore()
	a := openTab(t, srv.URL("a.test", "/actions.html"))
	b := openTab(t, srv.URL("a.test", "/large.html"))
	type out struct {
		r   *WaitResult
		err error
	}
	done := make(chan out, 1)
	go func() {
		r, err := s.Wait(ctxT(t), a.frameFunc("A"), Condition{Kind: CondSelector, Locator: Locator{Selector: "#arrives-later"}, State: StateVisible}, 60*time.Second)
		done <- out{r, err}
	}()
	// The wait is in flight once its renderer call holds no store lock:
	// the snapshot below gets the store while it runs.
	time.Sleep(300 * time.Millisecond)
	snap, err := s.Snapshot(ctxT(t), b.frame("B"), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case o := <-done:
		t.Fatalf("the wait ended before its element arrived: %+v %v", o.r, o.err)
	default:
	}
	issued := map[int]bool{}
	for _, e := range snap.Entries {
		if e.Ref > 0 {
			issued[e.Ref] = true
		}
	}
	if len(issued) < 10 {
		t.Fatalf("the snapshot of large.html issued only %d refs", len(issued))
	}
	a.eval(t, `(() => { const b = document.createElement('button'); b.id = 'arrives-later'; b.textContent = 'Arrived'; document.body.appendChild(b); return true; })()`, nil)
	var o out
	select {
	case o = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the wait never answered")
	}
	if o.err != nil || !o.r.Met || o.r.Element == nil || o.r.Element.Ref <= 0 {
		t.Fatalf("wait: %+v %v", o.r, o.err)
	}
	if issued[o.r.Element.Ref] {
		t.Fatalf("the wait's ref %d was also issued by the snapshot of the other surface", o.r.Element.Ref)
	}
	got, err := s.GetText(ctxT(t), a.frame("A"), Locator{Ref: o.r.Element.Ref})
	if err != nil || got.Text.Reveal() != "Arrived" {
		t.Fatalf("ref %d: %+v %v", o.r.Element.Ref, got, err)
	}
}
