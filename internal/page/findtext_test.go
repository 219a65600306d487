package page

import (
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestFindTextAndWithin (issue 30 point 5, ADR-040): text finds the
// element whose words hold it (a text block inside a list item finds the
// item, with its controls); within keeps a find inside one element; bare
// text that no element holds finds nothing.
func TestFindTextAndWithin(t *testing.T) {
	tb := openTab(t, dataURL(`<title>F</title><body>Loose words here
<ul aria-label="Reports">
<li id="a"><div>Report Alpha</div><button>Open</button><a href="#a">Share</a></li>
<li id="b"><div>Report Beta</div><button>Open</button><a href="#b">Share</a></li>
</ul>
<p>A paragraph that says Report Gamma.</p>
<button>Report Delta</button>
</body>`))
	s, f, ctx := NewStore(), tb.frame("f"), ctxT(t)
	find := func(q FindQuery) *FindResult {
		t.Helper()
		r, err := s.Find(ctx, f, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		return r
	}
	r := find(FindQuery{Text: "  report   BETA "})
	if r.Count != 1 || r.Matches[0].Role != "listitem" || !strings.Contains(r.Matches[0].Name, "Report Beta") {
		t.Fatalf("text in a list item's block: %+v", r)
	}
	item := r.Matches[0]
	if len(item.Controls) != 2 || item.Controls[0].Role != "button" || item.Controls[0].Name != "Open" ||
		item.Controls[1].Role != "link" || item.Controls[1].Name != "Share" {
		t.Fatalf("the item's controls: %+v", item.Controls)
	}
	w := find(FindQuery{Within: item.Ref, Role: "link"})
	if w.Count != 1 || w.Matches[0].Ref != item.Controls[1].Ref {
		t.Fatalf("within the item: %+v, want its Share link %d", w, item.Controls[1].Ref)
	}
	if r = find(FindQuery{Text: "report"}); r.Count != 5 {
		t.Fatalf("text 'report': %d matches, want the list \"Reports\", its two items, the paragraph and the button: %+v", r.Count, r)
	}
	for _, m := range r.Matches {
		if m.Role == "button" && len(m.Controls) != 0 {
			t.Fatalf("a control matched by text lists controls: %+v", m)
		}
	}
	if r = find(FindQuery{Text: "report", Role: "paragraph"}); r.Count != 1 {
		t.Fatalf("text and role: %+v", r)
	}
	if r = find(FindQuery{Text: "loose words"}); r.Count != 0 {
		t.Fatalf("bare text under body has no element to act on: %+v", r)
	}
	_, err := s.Find(ctx, f, FindQuery{Within: 987654, Role: "button"})
	if errs.CodeOf(err) != errs.RefNotFound {
		t.Fatalf("within a dead ref: %v", err)
	}
}

// TestControlsInsidePresentationalRoles (ADR-040): a control inside a
// role whose children are presentational (tab, checkbox, button) is an
// entry under it; what is not a control, aria-hidden or not rendered stays
// out.
func TestControlsInsidePresentationalRoles(t *testing.T) {
	tb := openTab(t, dataURL(`<title>P</title><body>
<div role="tablist" aria-label="Editors">
<div role="tab" aria-selected="true" tabindex="0"><span>a.ts</span><button aria-label="Close a.ts">x</button><button aria-hidden="true">h</button><button style="display:none">n</button><span>plain</span></div>
</div>
<div role="checkbox" aria-checked="false" tabindex="0">Accept the <a href="#terms">terms</a></div>
<button>Save <span role="button" tabindex="0" aria-label="Save options">v</span></button>
</body>`))
	s, f, ctx := NewStore(), tb.frame("p"), ctxT(t)
	snap, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	parent := map[string]string{}
	byRef := map[int]Entry{}
	for _, e := range snap.Entries {
		byRef[e.Ref] = e
	}
	for _, e := range snap.Entries {
		if p, ok := byRef[e.Parent]; ok {
			parent[e.Role+" "+e.Name] = p.Role
		}
	}
	for child, want := range map[string]string{"button Close a.ts": "tab", "link terms": "checkbox", "button Save options": "button"} {
		if parent[child] != want {
			t.Errorf("%s: parent %q, want %q (entries %+v)", child, parent[child], want, snap.Entries)
		}
	}
	for _, e := range snap.Entries {
		if e.Name == "h" || e.Name == "n" || e.Name == "plain" {
			t.Errorf("entry %+v: not a rendered control, yet listed", e)
		}
	}
	r, err := s.Find(ctx, f, FindQuery{Role: "button", NameExact: "Close a.ts"})
	if err != nil || r.Count != 1 {
		t.Fatalf("find the close button: %+v, %v", r, err)
	}
}
