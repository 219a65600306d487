package page

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/components"
)

// blankLine is a snapshot line with a ref and nothing after it.
var blankLine = regexp.MustCompile(`(?m)^[~+]?\[\d+\] *$`)

// TestSnapshotPlainText: text outside any block (text nodes, span, em,
// small directly under body) shows as text lines, and a status message a
// click writes there shows in since:'last', in both formats.
func TestSnapshotPlainText(t *testing.T) {
	long := strings.Repeat("lorem ipsum ", 40)
	tb := openTab(t, dataURL(`<title>T</title><body>
Loose words <em>stressed</em> and <small>fine print</small>
<button id="go" onclick="document.getElementById('st').textContent = 'Draft saved'">Save</button>
<span id="st"></span>
<p>Para <span>graph</span></p>
<span>`+long+`</span>
</body>`))
	s := NewStore()
	ctx := ctxT(t)
	f := tb.frame("text")
	full, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", full.Text)
	for _, want := range []string{
		"\ntext \"Loose words stressed and fine print\"\n", // one run, no ref (bare text nodes)
		`button "Save"`,
		`paragraph "Para graph"`,
		` len=479`,
	} {
		if !strings.Contains(full.Text, want) {
			t.Errorf("text snapshot lacks %q", want)
		}
	}
	if strings.Count(full.Text, "Save") != 1 {
		t.Errorf("the button's label is repeated as text:\n%s", full.Text)
	}
	if blankLine.MatchString(full.Text) {
		t.Errorf("blank line in\n%s", full.Text)
	}
	click(t, s, tb, f, Locator{Selector: "#go"})
	tb.waitTrue(t, `document.getElementById('st').textContent === 'Draft saved'`)
	since, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text", Since: "last"})
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\+\[\d+\] text "Draft saved"$`).MatchString(since.Text) {
		t.Fatalf("since:'last' after the click lacks the status:\n%s", since.Text)
	}
	// JSON: the same change, and the run of bare text has no ref.
	tb.eval(t, `document.getElementById('st').textContent = 'Published'`, nil)
	js, err := s.Snapshot(ctx, f, SnapshotOptions{Since: "last"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(js.Changes)
	if len(js.Changes.Changed) != 1 || js.Changes.Changed[0].Text != "Published" || js.Changes.Changed[0].Was.Text == nil || *js.Changes.Changed[0].Was.Text != "Draft saved" {
		t.Fatalf("JSON since:'last' = %s", b)
	}
	all, err := s.Snapshot(ctx, f, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var run *Entry
	for i, e := range all.Entries {
		if e.Role == "text" && strings.HasPrefix(e.Text, "Loose words") {
			run = &all.Entries[i]
		}
		if e.Role == "text" && strings.HasPrefix(e.Text, "lorem") && e.TextLength != 479 {
			t.Errorf("long text entry: length %d, want text_length 479", e.TextLength)
		}
	}
	if run == nil || run.Ref != 0 || run.BBox == nil || run.BBox.Width == 0 {
		t.Fatalf("bare text entry = %+v", run)
	}
	// A budget keeps the controls and lets text go first.
	cut, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text", BudgetTokens: 100})
	if err != nil {
		t.Fatal(err)
	}
	if !cut.Truncated || !strings.Contains(cut.Text, `button "Save"`) || strings.Contains(cut.Text, "lorem") {
		t.Fatalf("budgetTokens 100:\n%s", cut.Text)
	}
}

// componentTab opens a page of the real-components fixture once its
// library is up.
func componentTab(t *testing.T, page string) *tab {
	t.Helper()
	srv := fixtureServer(t)
	srv.Mount(components.Prefix, components.Handler(components.Require(t)))
	tb := openTab(t, srv.URL(fixture.HostA, components.Prefix+"pages/"+page))
	tb.waitTrue(t, `window.__ready === true`)
	return tb
}

// TestSnapshotShoelace: web components with open shadow roots show no
// blank host lines, the button shows its slotted label once, and the
// status its click writes shows in since:'last'.
func TestSnapshotShoelace(t *testing.T) {
	tb := componentTab(t, "shoelace.html")
	s := NewStore()
	ctx := ctxT(t)
	f := tb.frame("shoelace")
	r, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", r.Text)
	if blankLine.MatchString(r.Text) {
		t.Fatalf("blank host line in\n%s", r.Text)
	}
	for _, want := range []string{`button "Save draft"`, `checkbox "I agree"`, `switch "Dark mode"`, `textbox "Your name"`} {
		if strings.Count(r.Text, want) != 1 {
			t.Errorf("want %s once in\n%s", want, r.Text)
		}
	}
	if strings.Count(r.Text, "Save draft") != 1 {
		t.Errorf("the slotted label shows more than once:\n%s", r.Text)
	}
	tb.eval(t, `document.getElementById('save').click()`, nil)
	tb.waitTrue(t, `window.__saved === 1`)
	since, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text", Since: "last"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(since.Text, `paragraph "Draft saved"`) {
		t.Fatalf("since:'last' lacks the status:\n%s", since.Text)
	}
}

// TestSnapshotEditorContent: Monaco's drawn lines are its text box's
// value (multiline; partial when the lines fill the editor), and an
// xterm.js terminal's rows are its text.
func TestSnapshotEditorContent(t *testing.T) {
	ctx := ctxT(t)
	mon := componentTab(t, "monaco.html")
	s := NewStore()
	f := mon.frame("monaco")
	r, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	// Monaco's empty, unnamed live regions (role=alert) say nothing.
	if !strings.Contains(r.Text, `textbox "Editor content" value="function f() {\n}" multiline`) || strings.Contains(r.Text, "partial") || strings.Contains(r.Text, "alert") {
		t.Fatalf("monaco:\n%s", r.Text)
	}
	var lines []string
	for i := range 60 {
		lines = append(lines, "line "+string(rune('a'+i%26)))
	}
	v, _ := json.Marshal(strings.Join(lines, "\n"))
	mon.eval(t, `editor.setValue(`+string(v)+`)`, nil)
	mon.waitTrue(t, `document.querySelectorAll('.view-line').length > 10`)
	js, err := s.Snapshot(ctx, f, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var box *Entry
	for i, e := range js.Entries {
		if e.Role == "textbox" {
			box = &js.Entries[i]
		}
	}
	if box == nil || box.Value == nil || !strings.HasPrefix(*box.Value, "line a\nline b\n") || box.State == nil || !box.State.Multiline || !box.State.Partial {
		t.Fatalf("monaco with 60 lines: %+v", box)
	}

	term := componentTab(t, "xterm.html")
	term.eval(t, `new Promise(r => term.write('hello world\r\nsecond line\r\n$ ', r))`, nil)
	ft := term.frame("xterm")
	r, err = s.Snapshot(ctx, ft, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text, `textbox "Terminal input" text="$ hello world\nsecond line\n$"`) {
		t.Fatalf("xterm:\n%s", r.Text)
	}
}

// TestVirtualListExtentAndSeek: react-window's list shows how many rows it
// has and how many it rendered; Seek scrolls it until "Item 5000"
// renders, and a click on the ref it answers lands on that row.
func TestVirtualListExtentAndSeek(t *testing.T) {
	tb := componentTab(t, "reactwindow.html")
	s := NewStore()
	ctx := ctxT(t)
	f := tb.frame("list")
	tb.waitTrue(t, `document.querySelector('[role=listitem]')`)
	r, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`list "Files" rows≈10000 rendered=(\d+)`).FindStringSubmatch(r.Text)
	if m == nil {
		t.Fatalf("no extent on the list:\n%s", r.Text)
	}
	var rendered int
	tb.eval(t, `document.querySelectorAll('[role=listitem]').length`, &rendered)
	if m[1] != strconvI(rendered) {
		t.Fatalf("rendered=%s, the page renders %d rows", m[1], rendered)
	}
	js, err := s.Snapshot(ctx, f, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if js.Entries[1].Name != "Files" || js.Entries[1].Rows != 10000 || !js.Entries[1].RowsEstimated || js.Entries[1].Rendered != rendered {
		t.Fatalf("JSON list entry = %+v", js.Entries[1])
	}

	// Not rendered: a plain find does not see it.
	fr, err := s.Find(ctx, f, FindQuery{Role: "button", NameExact: "Item 5000"})
	if err != nil || fr.Count != 0 {
		t.Fatalf("plain find = %+v, %v", fr, err)
	}
	t0 := time.Now()
	ctx = ctxLong(t)
	sk, err := s.Seek(ctx, f, SeekQuery{Role: "button", Name: "Item 5000"}, 60*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("seek: %+v in %s", sk, time.Since(t0))
	if sk.Name != "Item 5000" || sk.Steps == 0 {
		t.Fatalf("seek = %+v", sk)
	}
	click(t, s, tb, f, Locator{Ref: sk.Ref})
	var clicked []int
	tb.waitTrue(t, `window.__clicked.length > 0`)
	tb.eval(t, `window.__clicked`, &clicked)
	if len(clicked) != 1 || clicked[0] != 5000 {
		t.Fatalf("window.__clicked = %v, want [5000]", clicked)
	}
	// Above the current position: at the end, it wraps to the top.
	tb.eval(t, `(() => { const sc = document.querySelector('[role=list] [role=list]'); sc.scrollTop = sc.scrollHeight - 700; return true })()`, nil)
	tb.waitTrue(t, `document.querySelector('[data-react-window-index="9990"]')`)
	sk, err = s.Seek(ctx, f, SeekQuery{Selector: "[data-react-window-index='40'] button"}, 60*time.Second)
	if err != nil || sk.Name != "Item 40" {
		t.Fatalf("seek back up = %+v, %v", sk, err)
	}
	// Never renders: ELEMENT_NOT_FOUND with how far it went.
	_, err = s.Seek(ctx, f, SeekQuery{Role: "button", Name: "Item 20000"}, 2*time.Second)
	e := wantCode(t, err, errs.ElementNotFound)
	if e.Details["steps"] == nil || e.Details["lists"] != 1 {
		t.Fatalf("details = %v", e.Details)
	}
}

// ctxLong is ctxT for a test that scrolls a long list on a loaded machine.
func ctxLong(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	tb.Cleanup(cancel)
	return ctx
}

func strconvI(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestListExtentExactAndPlain: aria-setsize gives an exact extent; a
// scrollable list that renders all its rows gets none.
func TestListExtentExactAndPlain(t *testing.T) {
	tb := openTab(t, dataURL(`<title>L</title>
<div role="listbox" aria-label="Exact" style="height:100px;overflow:auto"><div style="height:15000px;position:relative">`+
		rowsHTML(0, 12, `role="option" aria-setsize="500"`)+`</div></div>
<ul aria-label="Plain" style="height:100px;overflow:auto">`+rowsHTML(0, 30, "")+`</ul>`))
	s := NewStore()
	r, err := s.Snapshot(ctxT(t), tb.frame("lists"), SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text, `listbox "Exact" rows=500 rendered=12`) {
		t.Errorf("no exact extent:\n%s", r.Text)
	}
	if !strings.Contains(r.Text, `list "Plain"`) || strings.Contains(r.Text, `"Plain" rows`) {
		t.Errorf("a list that renders every row got an extent:\n%s", r.Text)
	}
	// The named list is scrolled to its end (it never renders more rows):
	// ELEMENT_NOT_FOUND, not a time-out, saying how far it went.
	_, err = s.Seek(ctxT(t), tb.frame("lists"), SeekQuery{Name: "Row 300", List: Locator{Selector: "[aria-label=Exact]"}}, 10*time.Second)
	e := wantCode(t, err, errs.ElementNotFound)
	if e.Details["timed_out"] != nil || e.Details["lists"] != 1 || e.Details["steps"].(int) < 10 {
		t.Fatalf("seek in a list that never renders the row: %v %v", err, e.Details)
	}
	var top float64
	tb.eval(t, `document.querySelector('[aria-label=Exact]').scrollTop`, &top)
	if top < 14000 {
		t.Fatalf("the list was not scrolled to its end: scrollTop %v", top)
	}
}

// rowsHTML is n rows of 30 px (li, or div with attrs) named Row i.
func rowsHTML(from, n int, attrs string) string {
	var b strings.Builder
	for i := from; i < from+n; i++ {
		if attrs == "" {
			b.WriteString(`<li style="height:30px">Row ` + strconvI(i) + `</li>`)
		} else {
			b.WriteString(`<div ` + attrs + ` aria-posinset="` + strconvI(i+1) + `" style="height:30px">Row ` + strconvI(i) + `</div>`)
		}
	}
	return b.String()
}
