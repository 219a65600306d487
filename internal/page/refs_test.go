package page

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// snapRef returns the ref of `[N] role "name"` in a text snapshot.
func snapRef(t *testing.T, text, role, name string) int {
	t.Helper()
	m := regexp.MustCompile(`\[(\d+)\] ` + regexp.QuoteMeta(role) + ` ` + regexp.QuoteMeta(strconv.Quote(name))).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %s %q in:\n%s", role, name, text)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestRefStale: a recycled row's ref is REF_STALE for actions (at once),
// acts with AllowChanged and reports the change, which is then seen.
func TestRefStale(t *testing.T) {
	srv := fixtureServer(t)
	tb := openTab(t, srv.URL("a.test", "/recycle.html"))
	s := NewStore()
	f := tb.frame("recycle")
	ctx := ctxT(t)
	snap, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	ref := snapRef(t, snap.Text, "option", "Item 3")
	tb.eval(t, `document.getElementById('viewport').scrollTop = 300`, nil)
	tb.waitTrue(t, `window.rowText(3) === 'Item 13'`)

	t0 := time.Now()
	_, err = s.Act(ctx, f, Locator{Ref: ref}, Action{Checks: PointerChecks()}, 3*time.Second)
	e := wantCode(t, err, errs.RefStale)
	if time.Since(t0) > time.Second {
		t.Fatalf("REF_STALE after %v", time.Since(t0))
	}
	if w, _ := e.Details["was"].(Identity); w.Name != "Item 3" || w.Role != "option" {
		t.Fatalf("was: %+v", e.Details)
	}
	if n, _ := e.Details["now"].(Identity); n.Name != "Item 13" || n.Role != "option" {
		t.Fatalf("now: %+v", e.Details)
	}
	// Reads are not actions: they read the element as it is.
	if tr, err := s.GetText(ctx, f, Locator{Ref: ref}); err != nil || tr.Text.Reveal() != "Item 13" {
		t.Fatalf("get text: %+v %v", tr, err)
	}
	acted, err := s.Act(ctx, f, Locator{Ref: ref, AllowChanged: true}, Action{Checks: PointerChecks()}, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(acted.Changed) != 1 || acted.Changed[0].Ref != ref || acted.Changed[0].Was.Name != "Item 3" || acted.Changed[0].Now.Name != "Item 13" {
		t.Fatalf("changed: %+v", acted.Changed)
	}
	acted, err = s.Act(ctx, f, Locator{Ref: ref}, Action{Checks: PointerChecks()}, 3*time.Second)
	if err != nil || len(acted.Changed) != 0 {
		t.Fatalf("after the change was reported: %+v %v", acted, err)
	}

	// A scroll container is not what it shows: scrolling a plain (role-
	// less, short-texted) scroller does not make its ref stale.
	tb.eval(t, `(() => { const v = document.getElementById('viewport'); v.removeAttribute('role'); v.removeAttribute('aria-label');
		v.scrollTop = 0; for (const r of v.querySelectorAll('.row')) r.removeAttribute('role'); })()`, nil)
	tb.waitTrue(t, `window.rowText(3) === 'Item 3'`)
	found, err := s.ElementsList(ctx, f, "#viewport", 1)
	if err != nil || len(found.Items) != 1 {
		t.Fatalf("list #viewport: %+v %v", found, err)
	}
	scroller := found.Items[0].Ref
	tb.eval(t, `document.getElementById('viewport').scrollTop = 300`, nil)
	tb.waitTrue(t, `window.rowText(3) === 'Item 13'`)
	if _, err := s.Act(ctx, f, Locator{Ref: scroller}, Action{Checks: Checks{Visible: true, Scroll: true, Point: true}}, 3*time.Second); err != nil {
		t.Fatalf("the scroller's ref after it scrolled: %v", err)
	}
}
