package page

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/understudy-dev/understudy/internal/errs"
)

// click sends a real left click at the element's point (the renderer's
// point read: scrolled into view, the center of its first box + Input).
func click(t *testing.T, s *Store, tb *tab, f Frame, l Locator) {
	t.Helper()
	ctx := ctxT(t)
	var p struct{ X, Y float64 }
	if err := s.read(ctx, f, l, "point", nil, &p); err != nil {
		t.Fatal(err)
	}
	x, y := p.X, p.Y
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		if err := tb.conn.Call(ctx, "Input.dispatchMouseEvent", map[string]any{"type": typ, "x": x, "y": y, "button": "left", "clickCount": 1}, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// refOf returns the ref of the first element a selector matches.
func refOf(t *testing.T, s *Store, f Frame, sel string) int {
	t.Helper()
	l, err := s.ElementsList(ctxT(t), f, sel, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Items) == 0 {
		t.Fatalf("%s matches nothing", sel)
	}
	return l.Items[0].Ref
}

func largePage(t *testing.T) (*Store, *tab, Frame) {
	t.Helper()
	srv := fixtureServer(t)
	tb := openTab(t, srv.URL("a.test", "/large.html"))
	return NewStore(), tb, tb.frame("large")
}

func TestInjectOncePerDocument(t *testing.T) {
	s, tb, f := largePage(t)
	ctx := ctxT(t)
	if _, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetText(ctx, f, Locator{Selector: "#status"}); err != nil {
		t.Fatal(err)
	}
	if n := s.injectionsOf(f.SurfaceID); n != 1 {
		t.Fatalf("injections after two snapshots and a read on one document = %d, want 1", n)
	}
	// The walker is invisible to the page: no enumerable key, no DOM mark.
	var keys []string
	tb.eval(t, `Object.keys(window).filter(k => /understudy/i.test(k))`, &keys)
	if len(keys) != 0 {
		t.Fatalf("window has enumerable walker keys %v", keys)
	}
	var marked bool
	tb.eval(t, `document.documentElement.outerHTML.includes('understudy')`, &marked)
	if marked {
		t.Fatal("the walker wrote into the DOM")
	}
	tb.reload(t)
	r, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	if n := s.injectionsOf(f.SurfaceID); n != 2 {
		t.Fatalf("injections after a reload = %d, want 2", n)
	}
	if !r.RendererReloaded {
		t.Fatal("renderer_reloaded is false after a reload")
	}
}

func TestRefsStableAcrossShuffle(t *testing.T) {
	s, tb, f := largePage(t)
	ctx := ctxT(t)
	before, err := s.ElementsList(ctx, f, "#reorder-list li", 20)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]int{}
	for _, it := range before.Items {
		byID[it.ID] = it.Ref
	}
	snap, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	order := func(text string) []string {
		return regexp.MustCompile(`\[\d+\] listitem "Entry \d+"`).FindAllString(text, -1)
	}
	first := order(snap.Text)
	click(t, s, tb, f, Locator{Selector: "#shuffle"})
	tb.waitTrue(t, `document.getElementById('status').textContent === 'Shuffled'`)
	after, err := s.ElementsList(ctx, f, "#reorder-list li", 20)
	if err != nil {
		t.Fatal(err)
	}
	moved := false
	for i, it := range after.Items {
		if byID[it.ID] != it.Ref {
			t.Fatalf("%s had ref %d, now %d", it.ID, byID[it.ID], it.Ref)
		}
		moved = moved || before.Items[i].ID != it.ID
	}
	if !moved {
		t.Fatal("shuffle did not move anything")
	}
	since, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text", Since: "last"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(since.Text, "(moved)") {
		t.Fatalf("since:'last' after a shuffle does not report moves:\n%s", since.Text)
	}
	snap2, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	second := order(snap2.Text)
	if len(first) != 10 || len(second) != 10 {
		t.Fatalf("list items: %d then %d lines, want 10", len(first), len(second))
	}
	sortedA, sortedB := append([]string(nil), first...), append([]string(nil), second...)
	if strings.Join(first, "\n") == strings.Join(second, "\n") {
		t.Fatal("the text snapshot did not change order")
	}
	set := map[string]bool{}
	for _, l := range sortedA {
		set[l] = true
	}
	for _, l := range sortedB {
		if !set[l] {
			t.Fatalf("after the shuffle %q is new: refs must follow their nodes", l)
		}
	}
}

func TestRefsContinueAfterReload(t *testing.T) {
	s, tb, f := largePage(t)
	ctx := ctxT(t)
	r1, err := s.Snapshot(ctx, f, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	maxRef := 0
	for _, e := range r1.Entries {
		maxRef = max(maxRef, e.Ref)
	}
	save := refOf(t, s, f, "#save")
	tb.reload(t)
	r2, err := s.Snapshot(ctx, f, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !r2.RendererReloaded {
		t.Fatal("renderer_reloaded is false after a reload")
	}
	if r2.RecentlyChanged != nil {
		t.Fatal("a snapshot of a new document marks recently changed entries")
	}
	for _, e := range r2.Entries {
		if e.Ref <= maxRef {
			t.Fatalf("ref %d (%s %q) reused after reload; refs up to %d were issued before", e.Ref, e.Role, e.Name, maxRef)
		}
	}
	// The old ref of the Save button is dead; similar_refs names the new one.
	_, err = s.GetText(ctx, f, Locator{Ref: save})
	e := wantCode(t, err, errs.RefNotFound)
	if len(e.SimilarRefs) == 0 {
		t.Fatalf("no similar_refs for a ref whose element was replaced by a reload: %+v", e)
	}
	top := e.SimilarRefs[0].(SimilarRef)
	if top.Role != "button" || top.Name != "Save profile" || top.Ref <= maxRef {
		t.Fatalf("best similar ref = %+v, want the new Save profile button", top)
	}
	r3, err := s.Snapshot(ctx, f, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r3.RendererReloaded {
		t.Fatal("renderer_reloaded reported twice for one reload")
	}
}

func TestRefNotFoundSimilar(t *testing.T) {
	s, tb, f := largePage(t)
	ctx := ctxT(t)
	if _, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"}); err != nil {
		t.Fatal(err)
	}
	edit := refOf(t, s, f, "#edit-17")
	tb.eval(t, `document.getElementById('row-17').remove()`, nil)
	_, err := s.GetState(ctx, f, Locator{Ref: edit})
	e := wantCode(t, err, errs.RefNotFound)
	if n := len(e.SimilarRefs); n == 0 || n > 5 {
		t.Fatalf("similar_refs has %d entries, want 1..5", n)
	}
	for _, x := range e.SimilarRefs {
		sr := x.(SimilarRef)
		if sr.Role != "button" || sr.Name != "Edit" {
			t.Fatalf("similar ref %+v is not an Edit button", sr)
		}
	}
	b, _ := json.Marshal(e.SimilarRefs)
	if !strings.Contains(string(b), `"role":"button"`) {
		t.Fatalf("similar_refs JSON = %s", b)
	}
	if _, err := s.Resolve(ctx, f, Locator{Ref: edit}); !errors.Is(err, errs.Kind(errs.RefNotFound)) {
		t.Fatalf("Resolve of a removed element: %v", err)
	}
	if ok, err := s.Exists(ctx, f, Locator{Ref: edit}); err != nil || ok {
		t.Fatalf("Exists of a removed element = %v, %v", ok, err)
	}
}

func TestRefsStayInTheirSurface(t *testing.T) {
	srv := fixtureServer(t)
	a := openTab(t, srv.URL("a.test", "/large.html"))
	b := openTab(t, dataURL(`<title>B</title><button id="b1">Only button</button>`))
	s := NewStore()
	ctx := ctxT(t)
	fa, fb := a.frame("A"), b.frame("B")
	if _, err := s.Snapshot(ctx, fa, SnapshotOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Snapshot(ctx, fb, SnapshotOptions{}); err != nil {
		t.Fatal(err)
	}
	ref := refOf(t, s, fa, "#save")
	if _, err := s.GetText(ctx, fa, Locator{Ref: ref}); err != nil {
		t.Fatalf("the ref works in its own surface: %v", err)
	}
	_, err := s.GetText(ctx, fb, Locator{Ref: ref})
	wantCode(t, err, errs.RefNotFound)
	_, err = s.Resolve(ctx, fb, Locator{Ref: ref})
	wantCode(t, err, errs.RefNotFound)
	// Refs are numbered store-wide: B never issued the small numbers A
	// did, so A's first ref names nothing in B (with a counter per surface
	// it would name B's own first element).
	rb, err := s.Snapshot(ctx, fb, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rb.Entries {
		if e.Ref == 1 {
			t.Fatalf("surface B reissued ref 1: %+v", e)
		}
	}
	_, err = s.GetText(ctx, fb, Locator{Ref: 1})
	wantCode(t, err, errs.RefNotFound)
	// The same document under another surface id shares nothing either.
	_, err = s.GetText(ctx, a.frame("A-other"), Locator{Ref: ref})
	wantCode(t, err, errs.RefNotFound)
	// And a second store (another session) keeps its own refs.
	s2 := NewStore()
	r, err := s2.Snapshot(ctx, fa, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Entries[0].Ref != 1 {
		t.Fatalf("a new store's first ref = %d, want 1", r.Entries[0].Ref)
	}
}

func TestSinceLastAfterClick(t *testing.T) {
	s, tb, f := largePage(t)
	ctx := ctxT(t)
	full, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	n := utf8.RuneCountInString(full.Text)
	if n > 23000 {
		t.Fatalf("full text snapshot of large.html = %d characters, want <= 23000", n)
	}
	click(t, s, tb, f, Locator{Selector: "#sel-17"})
	tb.waitTrue(t, `document.getElementById('sel-17').checked`)
	since, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text", Since: "last"})
	if err != nil {
		t.Fatal(err)
	}
	m := utf8.RuneCountInString(since.Text)
	t.Logf("full %d chars, since after a click %d chars (%.2f%%):\n%s", n, m, 100*float64(m)/float64(n), since.Text)
	if float64(m) > 0.02*float64(n) {
		t.Fatalf("since:'last' after one click = %d characters, more than 2%% of %d", m, n)
	}
	if !strings.Contains(since.Text, `checkbox "Select Item 17" checked focused`) || !strings.Contains(since.Text, "+checked") {
		t.Fatalf("since:'last' does not show the checked checkbox:\n%s", since.Text)
	}
	// The JSON form names the fields.
	click(t, s, tb, f, Locator{Selector: "#sel-18"})
	tb.waitTrue(t, `document.getElementById('sel-18').checked`)
	js, err := s.Snapshot(ctx, f, SnapshotOptions{Since: "last"})
	if err != nil {
		t.Fatal(err)
	}
	if js.Changes == nil {
		t.Fatal("no changes in a JSON since:'last'")
	}
	var got *Change
	for i := range js.Changes.Changed {
		if js.Changes.Changed[i].Name == "Select Item 18" {
			got = &js.Changes.Changed[i]
		}
	}
	if got == nil || got.State == nil || got.State.Checked != True || !got.State.Focused || got.Fields[0] != "state" || got.Context != "Item 18 — owner Linus" {
		b, _ := json.Marshal(js.Changes)
		t.Fatalf("the change of Select Item 18 is missing or wrong: %s", b)
	}
	if got.Was == nil || got.Was.State == nil || got.Was.State.Checked != False {
		t.Fatalf("was = %+v", got.Was)
	}
	// A full snapshot now marks nothing: the since moved the baseline.
	again, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.RecentlyChanged) != 0 || strings.Contains(again.Text, "~[") {
		t.Fatalf("recently_changed after a since = %v", again.RecentlyChanged)
	}
	// A change then shows as ~ in the next full snapshot.
	click(t, s, tb, f, Locator{Selector: "#sel-19"})
	tb.waitTrue(t, `document.getElementById('sel-19').checked`)
	marked, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(marked.Text, `~[`) || len(marked.RecentlyChanged) == 0 {
		t.Fatalf("a full snapshot after a click marks nothing: %v", marked.RecentlyChanged)
	}
}

func TestScrollIsNotAChange(t *testing.T) {
	s, tb, f := largePage(t)
	ctx := ctxT(t)
	r1, err := s.Snapshot(ctx, f, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tb.eval(t, `window.scrollTo(0, 2500)`, nil)
	tb.waitTrue(t, `window.scrollY >= 2000`)
	since, err := s.Snapshot(ctx, f, SnapshotOptions{Since: "last"})
	if err != nil {
		t.Fatal(err)
	}
	if since.Count != 0 {
		b, _ := json.Marshal(since.Changes)
		t.Fatalf("a scroll produced %d changes: %s", since.Count, b)
	}
	if since.Viewport.ScrollY < 2000 {
		t.Fatalf("viewport = %+v", since.Viewport)
	}
	r2, err := s.Snapshot(ctx, f, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r2.RecentlyChanged) != 0 {
		t.Fatalf("recently_changed after a scroll = %v", r2.RecentlyChanged)
	}
	// Boxes are in document coordinates: the same before and after.
	boxes := map[int]Rect{}
	for _, e := range r1.Entries {
		boxes[e.Ref] = *e.BBox
	}
	for _, e := range r2.Entries {
		if b, ok := boxes[e.Ref]; ok && b != *e.BBox && e.Role != "banner" {
			t.Fatalf("%s %q moved from %+v to %+v on a scroll", e.Role, e.Name, b, *e.BBox)
		}
	}
}

func TestBudgetTokens(t *testing.T) {
	s, _, f := largePage(t)
	ctx := ctxT(t)
	r, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text", BudgetTokens: 1500})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Truncated {
		t.Fatal("truncated is false")
	}
	if len(r.Text) > 1500*4 {
		t.Fatalf("text = %d chars, over a budget of %d", len(r.Text), 1500*4)
	}
	if strings.Contains(r.Text, `paragraph "Three hundred items`) {
		t.Fatal("the budget kept text before controls")
	}
	if !strings.Contains(r.Text, `button "Edit"`) || !strings.Contains(r.Text, `"owner `) {
		t.Fatalf("the budget dropped the controls near the viewport or their rows:\n%s", r.Text)
	}
	j, err := s.Snapshot(ctx, f, SnapshotOptions{BudgetTokens: 3000})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(j.Entries)
	if !j.Truncated || len(b) > 3000*4 {
		t.Fatalf("JSON with a budget: truncated=%v, %d bytes", j.Truncated, len(b))
	}
	for _, e := range j.Entries {
		if !e.Interactive && e.Role == "paragraph" {
			t.Fatal("the JSON budget kept text before controls")
		}
	}
	m, err := s.Snapshot(ctx, f, SnapshotOptions{MaxEntries: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Entries) != 100 || !m.Truncated {
		t.Fatalf("maxEntries 100: %d entries, truncated=%v", len(m.Entries), m.Truncated)
	}
	full, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text", BudgetTokens: 100000})
	if err != nil {
		t.Fatal(err)
	}
	if full.Truncated {
		t.Fatal("a budget larger than the page truncated it")
	}
}

func TestLargeTextSnapshot(t *testing.T) {
	s, _, f := largePage(t)
	ctx := ctxT(t)
	r, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	j, err := s.Snapshot(ctx, f, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Every interactive element is on a line with its ref, role, name and
	// non-default states.
	for _, e := range j.Entries {
		if !e.Interactive {
			continue
		}
		want := fmt.Sprintf("[%d] %s %q", e.Ref, e.Role, e.Name)
		if !strings.Contains(r.Text, want) {
			t.Fatalf("text snapshot lacks %s", want)
		}
	}
	for _, want := range []string{
		`textbox "Full name" value="" required`,
		`radio "Free" checked`,
		`textbox "Account ID" value="ACC-0042" disabled`,
		`combobox "Country" value="Choose…"`,
		`slider "Volume" value="5"`,
		`heading "Inventory" level=2`,
		`navigation "Main"`,
		`table "Items"`,
		`row "Select | Item | Action"`,
	} {
		if !strings.Contains(r.Text, want) {
			t.Fatalf("text snapshot lacks %s", want)
		}
	}
	// 300 Edit buttons, each on the line of its row.
	edit := regexp.MustCompile(`(?m)^"[^"\n]*owner [A-Za-z]+": \[\d+\] checkbox "Select Item (\d+)" \[\d+\] button "Edit"$`)
	rows := edit.FindAllStringSubmatch(r.Text, -1)
	if len(rows) != 300 {
		t.Fatalf("%d row lines with an Edit button, want 300", len(rows))
	}
	if !strings.HasPrefix(r.Text, `# page "Large" http://a.test:`) {
		t.Fatalf("header: %.120s", r.Text)
	}
}

func TestConcurrentUse(t *testing.T) {
	s, tb, f := largePage(t)
	other := tb.frame("large-2") // the same document under a second surface id
	ctx := ctxT(t)
	errc := make(chan error, 16)
	for i := range 8 {
		go func() {
			fr := f
			if i%2 == 1 {
				fr = other
			}
			if _, err := s.Snapshot(ctx, fr, SnapshotOptions{Format: "text"}); err != nil {
				errc <- err
				return
			}
			r, err := s.Find(ctx, fr, FindQuery{Role: "button", NameExact: "Shuffle"})
			if err != nil {
				errc <- err
				return
			}
			if _, err := s.GetText(ctx, fr, Locator{Ref: r.Matches[0].Ref}); err != nil {
				errc <- err
				return
			}
			errc <- nil
		}()
	}
	for range 8 {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	// Refs are unique in the session (ADR-001): the same element under two
	// surfaces has two refs, and each resolves only in its own surface.
	r1, _ := s.Find(ctx, f, FindQuery{Role: "banner"})
	r2, _ := s.Find(ctx, other, FindQuery{Role: "banner"})
	if r1.Matches[0].Ref == r2.Matches[0].Ref {
		t.Fatalf("both surfaces issued ref %d for their banner", r1.Matches[0].Ref)
	}
	if _, err := s.GetText(ctx, f, Locator{Ref: r2.Matches[0].Ref}); err == nil {
		t.Fatalf("ref %d of the other surface resolved in this one", r2.Matches[0].Ref)
	}
	if _, err := s.GetText(ctx, other, Locator{Ref: r2.Matches[0].Ref}); err != nil {
		t.Fatalf("ref %d does not resolve in its own surface: %v", r2.Matches[0].Ref, err)
	}
}

func TestInteractiveOnly(t *testing.T) {
	s, _, f := largePage(t)
	ctx := ctxT(t)
	r, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text", InteractiveOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.Text, "heading") || strings.Contains(r.Text, "paragraph") || strings.Contains(r.Text, "] navigation") {
		t.Fatalf("interactiveOnly kept structure or text:\n%.600s", r.Text)
	}
	// A row whose controls name it shows only its controls (its text is
	// not a control): `[55] checkbox "Select Item 1" [56] button "Edit"`.
	if strings.Contains(r.Text, `"owner Grace": [`) || !strings.Contains(r.Text, `checkbox "Select Item 1" [`) || !strings.Contains(r.Text, `link "Dashboard"`) {
		t.Fatalf("interactiveOnly lost the controls or their rows:\n%.600s", r.Text)
	}
	j, err := s.Snapshot(ctx, f, SnapshotOptions{InteractiveOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	edits := 0
	for _, e := range j.Entries {
		if !e.Interactive {
			t.Fatalf("interactiveOnly JSON has %s %q", e.Role, e.Name)
		}
		if e.Name == "Edit" && strings.HasPrefix(e.Context, "Item ") {
			edits++
		}
	}
	if edits != 300 || j.Count != len(j.Entries) {
		t.Fatalf("%d Edit buttons with their row as context (count %d, %d entries)", edits, j.Count, len(j.Entries))
	}
}

func TestResolveInstallsTheWalker(t *testing.T) {
	tb := openTab(t, dataURL(`<title>R</title><button id="go">Go</button>`))
	s := NewStore()
	f := tb.frame("r")
	el, err := s.Resolve(ctxT(t), f, Locator{Selector: "#go"})
	if err != nil {
		t.Fatal(err)
	}
	if el.ObjectID == "" || !strings.HasPrefix(el.Description, "button#go") {
		t.Fatalf("element = %+v", el)
	}
	if n := s.injectionsOf("r"); n != 1 {
		t.Fatalf("injections = %d", n)
	}
}
