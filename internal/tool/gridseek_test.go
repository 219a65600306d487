package tool

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// gridSeekLimit fails a seek in the 2,000 × 42 grid that takes longer than
// this; the target is 2 s (issue 28, point 1), the rest is CI margin. The
// measured time is logged.
const gridSeekLimit = 4 * time.Second

// focusedCell is AG Grid's own word on which cell has focus: "row/col".
func (e *env) focusedCell() string {
	e.t.Helper()
	return e.evalString("(c => c ? c.rowIndex + '/' + c.column.getColId() : 'none')(grid.getFocusedCell())")
}

// gridSeek is one cell to reach: how it is named, and the grid's own word
// on the cell that has focus after the click.
type gridSeek struct {
	name string
	args map[string]any
	want string
}

// seekAndClick reaches each cell with electron_scroll_into_view within
// gridSeekLimit, clicks it (by the ref it answered, or by its selector),
// and checks with the grid's own word (focused) that the click landed there.
func seekAndClick(t *testing.T, e *env, cases []gridSeek, focused func() string) {
	t.Helper()
	for _, c := range cases {
		t0 := time.Now()
		r := e.ok("electron_scroll_into_view", c.args)
		took := time.Since(t0)
		t.Logf("%s: %v (scrolled_pages %v, server %v ms)", c.name, took.Round(time.Millisecond), r["scrolled_pages"], r["_meta"].(map[string]any)["elapsed_ms"])
		if took > gridSeekLimit {
			t.Errorf("%s: the seek took %v (target 2 s)", c.name, took)
		}
		click := map[string]any{"ref": r["ref"]}
		if sel, ok := c.args["selector"]; ok {
			click = map[string]any{"selector": sel}
		} else if num(r["ref"]) == 0 {
			t.Fatalf("%s: no ref: %v", c.name, r)
		}
		e.ok("electron_click", click)
		if got := focused(); got != c.want {
			t.Errorf("%s: the grid's focused cell is %s after the click, want %s", c.name, got, c.want)
		}
	}
}

// TestGridSeekBothAxes (issue 28, point 1): AG Grid Community draws about
// 15 of its 2,000 rows and 11 of its 42 columns; electron_scroll_into_view
// reaches any cell, by role/name or by a selector of its row and column, in
// both axes, by jumping to the row and column the grid's aria indexes
// point at rather than paging, and the click lands on that cell (the
// grid's own focused cell says so).
func TestGridSeekBothAxes(t *testing.T) {
	e := componentsEnv(t, "aggrid.html")
	cases := []gridSeek{ // want: AG Grid's focused cell after the click, row/col id
		{"r300c2", map[string]any{"role": "gridcell", "name": "r300c2"}, "300/c2"},
		{"r1999c41", map[string]any{"role": "gridcell", "name": "r1999c41"}, "1999/c41"},
		{"r5c38 (a column not drawn)", map[string]any{"role": "gridcell", "name": "r5c38"}, "5/c38"},
		{"selector", map[string]any{"selector": `[row-id="1500"] [col-id="c2"]`}, "1500/c2"},
		{"name_contains", map[string]any{"role": "gridcell", "name_contains": "r1234c40"}, "1234/c40"},
		// Only the row is known (^= is no [attr=value]): its columns are swept.
		{"selector, row only", map[string]any{"selector": `[row-id="700"] [col-id^="c7"]`}, "700/c7"},
	}
	seekAndClick(t, e, cases, e.focusedCell)
}

// TestGridSeekReactDataGrid (issue 28, point 1, a second library of the
// kind): react-data-grid draws about 15 of its 2,000 rows and 10 of its
// 42 columns, with the ARIA extents and indexes (no row ids of its own).
// electron_scroll_into_view reaches any cell by role/name and by a
// selector of its aria-rowindex and aria-colindex, and the click lands on
// that cell: the grid's own active position says so.
func TestGridSeekReactDataGrid(t *testing.T) {
	e := componentsEnv(t, "datagrid.html")
	cases := []gridSeek{ // want: the grid's active position after the click, row/column key
		{"r300c2", map[string]any{"role": "gridcell", "name": "r300c2"}, "300/c2"},
		{"r1999c41", map[string]any{"role": "gridcell", "name": "r1999c41"}, "1999/c41"},
		{"r5c38 (a column not drawn)", map[string]any{"role": "gridcell", "name": "r5c38"}, "5/c38"},
		{"name_contains", map[string]any{"role": "gridcell", "name_contains": "r1234c40"}, "1234/c40"},
		// Row 1500 is aria-rowindex 1502 (the header row is 1), c2 is 3.
		{"selector", map[string]any{"selector": `[aria-rowindex="1502"] [aria-colindex="3"]`}, "1500/c2"},
		{"r0c0, back at the start", map[string]any{"role": "gridcell", "name": "r0c0"}, "0/c0"},
	}
	seekAndClick(t, e, cases, func() string { return e.evalString("window.active()") })
	// A cell the grid does not hold, within a short time limit: not
	// found, and the answer says the search was cut short, not that the
	// cell does not exist.
	m := e.fails("electron_scroll_into_view", map[string]any{"role": "gridcell", "name": "r2500c2", "timeoutMs": 2000}, "ELEMENT_NOT_FOUND")
	if details(m)["timed_out"] != true || details(m)["grid_rows"] == nil {
		t.Fatalf("not found: %v", m)
	}
	t.Logf("not found: %v: %v", m["error"], details(m))
}

// TestGridHeaderCells (issue 28, point 1): AG Grid's header cells are
// columnheaders named by their text, not unnamed "none" entries (the sort
// label inside them shows a pointer cursor).
func TestGridHeaderCells(t *testing.T) {
	e := componentsEnv(t, "aggrid.html")
	text := e.ok("electron_snapshot", map[string]any{"format": "text"})["snapshot_text"].(string)
	if regexp.MustCompile(`\] none\b`).MatchString(text) {
		t.Errorf("unnamed none entries in the snapshot:\n%s", text)
	}
	drawn := e.evalString("[...document.querySelectorAll('.ag-header-cell[role=columnheader] .ag-header-cell-text')].map(x => x.textContent).join(',')")
	if drawn == "" {
		t.Fatal("no header drawn")
	}
	for _, name := range strings.Split(drawn, ",") {
		if !strings.Contains(text, fmt.Sprintf("columnheader %q", name)) {
			t.Errorf("the snapshot lacks columnheader %q:\n%s", name, text)
		}
	}
	// The header acts: a click on it sorts the grid by that column.
	f := e.ok("electron_find", map[string]any{"role": "columnheader", "name_exact": "c1"})
	e.ok("electron_click", map[string]any{"ref": firstRef(t, f)})
	if got := e.evalString("grid.getColumnState().filter(c => c.sort).map(c => c.colId + ':' + c.sort).join(',')"); got != "c1:asc" {
		t.Errorf("after the click on header c1 the grid sorts by %q", got)
	}
}

// TestGridSeekPagesBothAxes (issue 28, point 1): where the query says
// nothing of the cell's row or column, or what it says does not hold (the
// grid is sorted), the grid is paged in both axes (its columns swept at
// each row position); a cell the grid does not hold is ELEMENT_NOT_FOUND
// only after both axes were searched, and the answer says so.
func TestGridSeekPagesBothAxes(t *testing.T) {
	e := componentsEnv(t, "aggrid.html?rows=60")
	// "3c38" has not the shape of the cells' names: nothing to jump to.
	r := e.ok("electron_scroll_into_view", map[string]any{"role": "gridcell", "name_contains": "3c38"})
	e.ok("electron_click", map[string]any{"ref": r["ref"]})
	if got := e.focusedCell(); !strings.HasSuffix(got, "3/c38") {
		t.Fatalf("the grid's focused cell is %s after the click on %v", got, r)
	}
	t.Logf("3c38 by paging: %v pages, %v ms", r["scrolled_pages"], r["_meta"].(map[string]any)["elapsed_ms"])

	// Sorted, the names no longer follow the rows' order: the column is
	// still jumped to, the rows are paged.
	e.eval("grid.applyColumnState({state: [{colId: 'c0', sort: 'desc'}]}), true")
	if !e.waitTrue("grid.getDisplayedRowAtIndex(0).id === '9'") {
		t.Fatal("the grid did not sort")
	}
	e.ok("electron_scroll", map[string]any{"selector": "[role=grid]", "dy": -100000})
	r = e.ok("electron_scroll_into_view", map[string]any{"role": "gridcell", "name": "r7c38"})
	e.ok("electron_click", map[string]any{"ref": r["ref"]})
	if got := e.evalString("(c => grid.getDisplayedRowAtIndex(c.rowIndex).id + '/' + c.column.getColId())(grid.getFocusedCell())"); got != "7/c38" {
		t.Fatalf("the grid's focused cell is %s after the click on %v", got, r)
	}

	// A cell the grid does not hold.
	t0 := time.Now()
	x := e.fails("electron_scroll_into_view", map[string]any{"role": "gridcell", "name": "r70c3"}, "ELEMENT_NOT_FOUND")
	msg, _ := x["error"].(string)
	d, _ := x["details"].(map[string]any)
	if !strings.Contains(msg, "both axes") || d["searched"] != "rows and columns" || num(d["grid_columns"]) != 42 {
		t.Fatalf("answer: %v", x)
	}
	t.Logf("r70c3 not found after %v: %s %v", time.Since(t0).Round(time.Millisecond), msg, d)

	// A grid whose columns cannot be scrolled sideways (here: its
	// scroller's overflow-x hidden) has only its rows searched, and the
	// answer names the columns it did not search.
	e.eval("(g => { g.scrollLeft = 0; g.scrollTop = 0; g.dispatchEvent(new Event('scroll')); return true })(document.querySelector('[role=grid]'))")
	if !e.waitTrue("!!document.querySelector('[col-id=c0][role=gridcell]') && !document.querySelector('[col-id=c20]')") {
		t.Fatal("the grid did not scroll back to its first columns")
	}
	e.eval("document.head.insertAdjacentHTML('beforeend', '<style>[role=grid]{overflow-x:hidden!important}</style>'), true")
	x = e.fails("electron_scroll_into_view", map[string]any{"role": "gridcell", "name": "r3c38"}, "ELEMENT_NOT_FOUND")
	msg, _ = x["error"].(string)
	if d, _ := x["details"].(map[string]any); !strings.Contains(msg, "the grid has 42 columns") || !strings.Contains(msg, "not searched") || d["searched"] != "rows" {
		t.Fatalf("answer without a sideways scroller: %v", x)
	}
}

// TestGridSeekNotFoundSawEveryCell (issue 28, point 1): "not found" in a
// grid comes only after the grid drew every one of its cells while it was
// searched: a MutationObserver in the page records each (row, column) the
// grid draws during a seek for a name no cell has.
func TestGridSeekNotFoundSawEveryCell(t *testing.T) {
	e := componentsEnv(t, "aggrid.html?rows=200")
	e.eval(`(() => {
		const g = document.querySelector('[role=grid]');
		window.__drawn = new Set();
		const note = () => g.querySelectorAll('[role=row][aria-rowindex] [role=gridcell][aria-colindex]').forEach(c =>
			window.__drawn.add(c.closest('[role=row]').getAttribute('aria-rowindex') + '/' + c.getAttribute('aria-colindex')));
		note();
		new MutationObserver(note).observe(g, { childList: true, subtree: true });
		return true;
	})()`)
	t0 := time.Now()
	x := e.fails("electron_scroll_into_view", map[string]any{"role": "gridcell", "name": "no such cell", "timeoutMs": 30000}, "ELEMENT_NOT_FOUND")
	d, _ := x["details"].(map[string]any)
	if d["searched"] != "rows and columns" {
		t.Fatalf("answer: %v", x)
	}
	missing := e.evalString(`(() => { const out = []; for (let r = 2; r <= 201; r++) for (let c = 1; c <= 42; c++) if (!window.__drawn.has(r + '/' + c)) out.push(r + '/' + c); return out.slice(0, 20).join(' ') + (out.length ? ' (' + out.length + ' in all)' : ''); })()`)
	if missing != "" {
		t.Fatalf("ELEMENT_NOT_FOUND although the grid never drew (aria-rowindex/colindex) %s; answer %v", missing, x)
	}
	t.Logf("every cell of 200 × 42 drawn in %v (%v steps)", time.Since(t0).Round(time.Millisecond), d["steps"])
}
