package page

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

func ptr[T any](v T) *T { return &v }

func TestFindFilters(t *testing.T) {
	s, tb, f := largePage(t)
	ctx := ctxT(t)
	tb.eval(t, `(function(){var b=document.createElement('button');b.id='ghost';b.textContent='Ghost action';b.style.display='none';document.body.appendChild(b);
		var c=document.createElement('button');c.textContent='Invisible action';c.style.visibility='hidden';document.body.appendChild(c);return 1})()`, nil)
	cases := []struct {
		name      string
		q         FindQuery
		count     int
		firstName string
	}{
		{"role+exact", FindQuery{Role: "button", NameExact: "Edit"}, 300, "Edit"},
		{"limit", FindQuery{Role: "button", NameExact: "Edit", Limit: 5}, 300, "Edit"},
		{"contains is case-insensitive", FindQuery{Role: "checkbox", NameContains: "item 250"}, 1, "Select Item 250"},
		{"disabled", FindQuery{Enabled: ptr(false)}, 1, "Account ID"},
		{"interactive links", FindQuery{Role: "link", Interactive: ptr(true)}, 21, "Dashboard"},
		{"non-interactive headings", FindQuery{Role: "heading", Interactive: ptr(false)}, 4, "Large"},
		{"hidden only on request", FindQuery{NameContains: "Ghost"}, 0, ""},
		{"hidden", FindQuery{NameContains: "Ghost", Visible: ptr(false)}, 1, "Ghost action"},
		{"visibility hidden", FindQuery{NameContains: "Invisible", Visible: ptr(false)}, 1, "Invisible action"},
		{"visibility hidden is not visible", FindQuery{NameContains: "Invisible"}, 0, ""},
		{"no match", FindQuery{Role: "button", NameExact: "Nope"}, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := s.Find(ctx, f, c.q)
			if err != nil {
				t.Fatal(err)
			}
			if r.Count != c.count {
				t.Fatalf("count = %d, want %d", r.Count, c.count)
			}
			limit := c.q.Limit
			if limit == 0 {
				limit = DefaultFindLimit
			}
			if want := min(c.count, limit); len(r.Matches) != want || r.Truncated != (c.count > limit) {
				t.Fatalf("%d matches (truncated %v), want %d", len(r.Matches), r.Truncated, want)
			}
			if c.count > 0 && r.Matches[0].Name != c.firstName {
				t.Fatalf("first match %+v, want name %q", r.Matches[0], c.firstName)
			}
		})
	}
	r, err := s.Find(ctx, f, FindQuery{Role: "button", NameExact: "Edit", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	m := r.Matches[1]
	if m.Context != "Item 2 — owner Linus" || m.BBox.Width <= 0 || m.BBox.Height <= 0 {
		t.Fatalf("match = %+v: want the row's words as context and a box", m)
	}
	// The refs of a find work for reads.
	st, err := s.GetState(ctx, f, Locator{Ref: m.Ref})
	if err != nil || !st.Visible || !st.Enabled {
		t.Fatalf("state of a found ref = %+v, %v", st, err)
	}
	// A find moves the baseline.
	tb.eval(t, `document.getElementById('sel-5').click()`, nil)
	if _, err := s.Find(ctx, f, FindQuery{Role: "checkbox"}); err != nil {
		t.Fatal(err)
	}
	since, err := s.Snapshot(ctx, f, SnapshotOptions{Since: "last"})
	if err != nil {
		t.Fatal(err)
	}
	if since.Count != 0 {
		t.Fatalf("since:'last' after a find still reports %d changes", since.Count)
	}
	if _, err := s.Find(ctx, f, FindQuery{Limit: MaxFindLimit + 1}); err == nil {
		t.Fatal("limit over the maximum accepted")
	}
}

func TestReads(t *testing.T) {
	s, tb, f := largePage(t)
	ctx := ctxT(t)
	tb.eval(t, `(function(){
		document.getElementById('f-name').value = 'Ada Lovelace';
		document.getElementById('f-country').value = 'jp';
		document.getElementById('f-subscribe').checked = true;
		document.getElementById('f-name').focus();
		return 1})()`, nil)

	t.Run("text", func(t *testing.T) {
		r, err := s.GetText(ctx, f, Locator{Selector: "#row-17 td:nth-child(2)"})
		if err != nil || r.Text.Reveal() != "Item 17 — owner Grace" {
			t.Fatalf("GetText = %+v, %v", r, err)
		}
		r, err = s.GetText(ctx, f, Locator{Selector: "#f-name"})
		if err != nil || r.Text.Reveal() != "Ada Lovelace" {
			t.Fatalf("GetText of a field = %+v, %v", r, err)
		}
		r, err = s.GetText(ctx, f, Locator{Selector: "body"})
		if err != nil || r.Length <= 1000 {
			t.Fatalf("GetText of the body = %d chars, %v", r.Length, err)
		}
	})
	t.Run("value", func(t *testing.T) {
		v, err := s.GetValue(ctx, f, Locator{Selector: "#f-country"})
		if err != nil || v.Value.Reveal() != "jp" || v.Label != "Japan" {
			t.Fatalf("select value = %+v, %v", v, err)
		}
		v, err = s.GetValue(ctx, f, Locator{Selector: "#f-subscribe"})
		if err != nil || v.Checked == nil || !*v.Checked {
			t.Fatalf("checkbox value = %+v, %v", v, err)
		}
		v, err = s.GetValue(ctx, f, Locator{Selector: "#f-volume"})
		if err != nil || v.Value.Reveal() != "5" {
			t.Fatalf("range value = %+v, %v", v, err)
		}
	})
	t.Run("attribute", func(t *testing.T) {
		a, err := s.GetAttribute(ctx, f, Locator{Selector: "#f-age"}, "max")
		if err != nil || a == nil || a.Reveal() != "150" {
			t.Fatalf("attribute = %v, %v", a, err)
		}
		a, err = s.GetAttribute(ctx, f, Locator{Selector: "#f-age"}, "placeholder")
		if err != nil || a != nil {
			t.Fatalf("missing attribute = %v, %v", a, err)
		}
		if _, err := s.GetAttribute(ctx, f, Locator{Selector: "#f-age"}, ""); err == nil {
			t.Fatal("an empty attribute name was accepted")
		}
	})
	t.Run("state", func(t *testing.T) {
		st, err := s.GetState(ctx, f, Locator{Selector: "#f-account"})
		if err != nil || !st.Disabled || st.Enabled || !st.Visible {
			t.Fatalf("disabled field state = %+v, %v", st, err)
		}
		st, err = s.GetState(ctx, f, Locator{Selector: "#f-name"})
		if err != nil || !st.Focused || !st.Required || st.Checked != False || st.Expanded != nil {
			t.Fatalf("focused required field state = %+v, %v", st, err)
		}
		st, err = s.GetState(ctx, f, Locator{Selector: "#plan-free"})
		if err != nil || st.Checked != True {
			t.Fatalf("radio state = %+v, %v", st, err)
		}
		st, err = s.GetState(ctx, f, Locator{Selector: "#f-country"})
		if err != nil || st.Expanded == nil || *st.Expanded {
			t.Fatalf("select state = %+v, %v", st, err)
		}
		b, _ := json.Marshal(st)
		if !strings.Contains(string(b), `"checked":false`) || !strings.Contains(string(b), `"pressed":null`) {
			t.Fatalf("state JSON = %s", b)
		}
	})
	t.Run("bbox", func(t *testing.T) {
		tb.eval(t, `window.scrollTo(0, 300)`, nil)
		tb.waitTrue(t, `window.scrollY === 300`)
		b, err := s.GetBBox(ctx, f, Locator{Selector: "#btn"})
		if err != nil {
			t.Fatal(err)
		}
		if b.Document.Y-b.Viewport.Y != 300 || b.Viewport.Width <= 0 {
			t.Fatalf("bbox = %+v", b)
		}
		tb.eval(t, `window.scrollTo(0, 0)`, nil)
	})
	t.Run("computed style", func(t *testing.T) {
		cs, err := s.GetComputedStyle(ctx, f, Locator{Selector: "#log"}, []string{"white-space", "overflow-y"})
		if err != nil || cs["white-space"] != "pre" || cs["overflow-y"] != "auto" {
			t.Fatalf("computed style = %v, %v", cs, err)
		}
		cs, err = s.GetComputedStyle(ctx, f, Locator{Selector: "#log"}, nil)
		if err != nil || cs["display"] != "block" {
			t.Fatalf("default computed style = %v, %v", cs, err)
		}
	})
	t.Run("focused", func(t *testing.T) {
		fe, err := s.FocusedElement(ctx, f)
		if err != nil || fe == nil || fe.ID != "f-name" || fe.Role != "textbox" || fe.Name != "Full name" || fe.Value != "Ada Lovelace" {
			t.Fatalf("focused = %+v, %v", fe, err)
		}
		st, err := s.GetState(ctx, f, Locator{Ref: fe.Ref})
		if err != nil || !st.Focused {
			t.Fatalf("the focused ref = %+v, %v", st, err)
		}
		tb.eval(t, `document.activeElement.blur()`, nil)
		fe, err = s.FocusedElement(ctx, f)
		if err != nil || fe != nil {
			t.Fatalf("nothing focused = %+v, %v", fe, err)
		}
	})
	t.Run("list and exists", func(t *testing.T) {
		l, err := s.ElementsList(ctx, f, "#items-body button", 0)
		if err != nil || l.Count != 300 || len(l.Items) != DefaultListLimit || !l.Truncated {
			t.Fatalf("list = %d of %d, %v", len(l.Items), l.Count, err)
		}
		if it := l.Items[3]; it.Role != "button" || it.Name != "Edit" || it.ID != "edit-4" || !it.Visible || it.BBox == nil {
			t.Fatalf("item = %+v", it)
		}
		if _, err := s.ElementsList(ctx, f, "button", MaxListLimit+1); err == nil {
			t.Fatal("limit over the maximum accepted")
		}
		ok, err := s.Exists(ctx, f, Locator{Selector: "#reorder-list li"})
		if err != nil || !ok {
			t.Fatalf("exists = %v, %v", ok, err)
		}
		ok, err = s.Exists(ctx, f, Locator{Selector: "#nope"})
		if err != nil || ok {
			t.Fatalf("exists of nothing = %v, %v", ok, err)
		}
		ok, err = s.Exists(ctx, f, Locator{Ref: l.Items[0].Ref})
		if err != nil || !ok {
			t.Fatalf("exists of a listed ref = %v, %v", ok, err)
		}
		ok, err = s.Exists(ctx, f, Locator{Ref: 999999})
		if err != nil || ok {
			t.Fatalf("exists of a never-issued ref = %v, %v", ok, err)
		}
	})
	t.Run("resolve", func(t *testing.T) {
		el, err := s.Resolve(ctx, f, Locator{Selector: "#save"})
		if err != nil {
			t.Fatal(err)
		}
		var desc struct {
			Node struct {
				NodeName   string   `json:"nodeName"`
				Attributes []string `json:"attributes"`
			} `json:"node"`
		}
		if err := tb.conn.Call(ctx, "DOM.describeNode", map[string]any{"objectId": el.ObjectID}, &desc); err != nil {
			t.Fatal(err)
		}
		if desc.Node.NodeName != "BUTTON" || !strings.Contains(strings.Join(desc.Node.Attributes, " "), "save") {
			t.Fatalf("resolved %+v (%s)", desc.Node, el.Description)
		}
		_ = tb.conn.Call(ctx, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": ObjectGroup}, nil)
	})
}

func TestLocatorErrors(t *testing.T) {
	s, _, f := largePage(t)
	ctx := ctxT(t)
	cases := []struct {
		name  string
		loc   Locator
		code  errs.Code
		field string
	}{
		{"both", Locator{Ref: 1, Selector: "#btn"}, errs.BadArgument, "ref"},
		{"neither", Locator{}, errs.BadArgument, "selector"},
		{"negative ref", Locator{Ref: -3}, errs.BadArgument, "ref"},
		{"bad selector", Locator{Selector: "div[[["}, errs.BadArgument, "selector"},
		{"no match", Locator{Selector: "#does-not-exist"}, errs.SelectorNoMatch, ""},
		{"never issued", Locator{Ref: 424242}, errs.RefNotFound, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.GetText(ctx, f, c.loc)
			e := wantCode(t, err, c.code)
			if c.field != "" && e.Details["field"] != c.field {
				t.Fatalf("field = %v, want %s", e.Details["field"], c.field)
			}
			_, err = s.Resolve(ctx, f, c.loc)
			wantCode(t, err, c.code)
		})
	}
	for _, o := range []SnapshotOptions{{Since: "first"}, {Format: "yaml"}, {MaxEntries: MaxMaxEntries + 1}, {BudgetTokens: -1}} {
		if _, err := s.Snapshot(ctx, f, o); errs.CodeOf(err) != errs.BadArgument {
			t.Fatalf("options %+v: %v", o, err)
		}
	}
	if _, err := s.Snapshot(ctx, Frame{SurfaceID: "x"}, SnapshotOptions{}); errs.CodeOf(err) != errs.BadArgument {
		t.Fatalf("a frame without a session: %v", err)
	}
}

func TestShadowDOM(t *testing.T) {
	tb := openTab(t, dataURL(`<title>Shadow</title><main><x-panel></x-panel></main><script>
		customElements.define('x-panel', class extends HTMLElement { constructor() { super();
			const r = this.attachShadow({mode: 'open'});
			r.innerHTML = '<label for="q">Query</label><input id="q"><div role="tablist"><button role="tab" aria-selected="true">One</button></div><x-inner></x-inner>';
		}});
		customElements.define('x-inner', class extends HTMLElement { constructor() { super();
			this.attachShadow({mode: 'open'}).innerHTML = '<a href="#deep">Deep link</a>';
		}});
	</script>`))
	s := NewStore()
	ctx := ctxT(t)
	f := tb.frame("shadow")
	r, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`textbox "Query" value=""`, `tab "One" selected`, `link "Deep link"`} {
		if !strings.Contains(r.Text, want) {
			t.Fatalf("snapshot lacks %s:\n%s", want, r.Text)
		}
	}
	fr, err := s.Find(ctx, f, FindQuery{Role: "link"})
	if err != nil || fr.Count != 1 {
		t.Fatalf("find in shadow roots = %+v, %v", fr, err)
	}
	txt, err := s.GetText(ctx, f, Locator{Ref: fr.Matches[0].Ref})
	if err != nil || txt.Text.Reveal() != "Deep link" {
		t.Fatalf("read by ref inside a shadow root = %+v, %v", txt, err)
	}
	// Selectors look into open shadow roots when the document has no match.
	txt, err = s.GetText(ctx, f, Locator{Selector: "a[href='#deep']"})
	if err != nil || txt.Text.Reveal() != "Deep link" {
		t.Fatalf("selector into a shadow root = %+v, %v", txt, err)
	}
}

// contextOf returns the main-world execution context of a frame of the tab
// whose document URL contains urlPart.
func contextOf(t *testing.T, tb *tab, urlPart string) int64 {
	t.Helper()
	ctx := ctxT(t)
	events, cancel := tb.conn.Subscribe("Runtime.executionContextCreated")
	defer cancel()
	if err := tb.conn.Call(ctx, "Runtime.enable", nil, nil); err != nil {
		t.Fatal(err)
	}
	var tree struct {
		FrameTree struct {
			ChildFrames []struct {
				Frame struct {
					ID  string `json:"id"`
					URL string `json:"url"`
				} `json:"frame"`
			} `json:"childFrames"`
		} `json:"frameTree"`
	}
	if err := tb.conn.Call(ctx, "Page.getFrameTree", nil, &tree); err != nil {
		t.Fatal(err)
	}
	frameID := ""
	for _, c := range tree.FrameTree.ChildFrames {
		if strings.Contains(c.Frame.URL, urlPart) {
			frameID = c.Frame.ID
		}
	}
	if frameID == "" {
		t.Fatalf("no child frame with %s", urlPart)
	}
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("events closed")
			}
			var c struct {
				Context struct {
					ID      int64 `json:"id"`
					AuxData struct {
						IsDefault bool   `json:"isDefault"`
						FrameID   string `json:"frameId"`
					} `json:"auxData"`
				} `json:"context"`
			}
			if err := json.Unmarshal(ev, &c); err != nil {
				t.Fatal(err)
			}
			if c.Context.AuxData.FrameID == frameID && c.Context.AuxData.IsDefault {
				return c.Context.ID
			}
		case <-ctx.Done():
			t.Fatal("no execution context for the frame")
		}
	}
}

func TestFramesStayApart(t *testing.T) {
	srv := fixtureServer(t)
	tb := openTab(t, srv.URL("a.test", "/index.html"))
	tb.waitTrue(t, `document.getElementById('same1').contentDocument && document.getElementById('same1').contentDocument.readyState === 'complete' && document.getElementById('same1').contentDocument.getElementById('btn')`)
	s := NewStore()
	ctx := ctxT(t)
	top := tb.frame("top")
	child := map[string]string{}
	r, err := s.Snapshot(ctx, top, SnapshotOptions{Format: "text", ChildSurface: func(fi FrameInfo) string {
		child[fi.ID] = fi.Src
		if fi.Name == "same1" {
			return "sess-surface-7"
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text, `iframe "Same 1 frame" surface=sess-surface-7`) || !strings.Contains(r.Text, `iframe "Cross 1 frame"`) {
		t.Fatalf("frame entries:\n%s", r.Text)
	}
	if strings.Contains(r.Text, `"Click same1"`) {
		t.Fatal("the top surface's snapshot entered a child frame")
	}
	if !strings.HasSuffix(child["cross1"], "/cross1.html") {
		t.Fatalf("frame info = %v", child)
	}
	j, err := s.Snapshot(ctx, top, SnapshotOptions{ChildSurface: func(fi FrameInfo) string {
		if fi.Name == "same1" {
			return "sess-surface-7"
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range j.Entries {
		if e.Role == "iframe" && e.Frame != nil && e.Frame.Name == "same1" {
			found = e.SurfaceID == "sess-surface-7"
		}
	}
	if !found {
		t.Fatal("the JSON iframe entry has no surface_id")
	}
	// The same-site child frame as its own surface: its context only.
	cid := contextOf(t, tb, "same1.html")
	sub := Frame{Session: tb.conn, ContextID: runtimeContext(cid), SurfaceID: "same1"}
	rs, err := s.Snapshot(ctx, sub, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rs.Text, `button "Click same1"`) || strings.Contains(rs.Text, `"Click top"`) {
		t.Fatalf("child surface snapshot:\n%s", rs.Text)
	}
	btn := refOf(t, s, sub, "#btn")
	if _, err := s.GetText(ctx, top, Locator{Ref: btn}); err == nil {
		// ref numbers are per surface: the top surface may have issued the
		// same number for another element; it must not be this one.
		txt, _ := s.GetText(ctx, top, Locator{Ref: btn})
		if txt != nil && txt.Text.Reveal() == "Click same1" {
			t.Fatal("a child frame's ref resolved in the top surface")
		}
	}
	txt, err := s.GetText(ctx, sub, Locator{Ref: btn})
	if err != nil || txt.Text.Reveal() != "Click same1" {
		t.Fatalf("child ref read = %+v, %v", txt, err)
	}
	// Selectors resolve in the frame's own document.
	txt, err = s.GetText(ctx, sub, Locator{Selector: "#btn"})
	if err != nil || txt.Text.Reveal() != "Click same1" {
		t.Fatalf("child selector read = %+v, %v", txt, err)
	}
}
