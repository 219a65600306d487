package tool

import (
	"strings"
	"testing"
	"time"
)

// The drag tests of issue 28 (points 2 and 3), on real libraries: the
// effect is read through the library's own API, never from the answer.

// TestDragWithAnimatedDrop: @hello-pangea/dnd animates the drop and
// reorders its list only when the animation has ended. The drag must be
// judged after that: "One" onto "Three" ends at index 2, as the app's own
// order says, and the answer agrees.
func TestDragWithAnimatedDrop(t *testing.T) {
	e := componentsEnv(t, "dnd.html")
	for round, c := range []struct{ from, to, want string }{
		{"One", "Three", "Two,Three,One,Four,Five"},
		{"Five", "Two", "Five,Two,Three,One,Four"},
	} {
		src := e.ok("electron_find", map[string]any{"role": "button", "name_exact": c.from})
		dst := e.ok("electron_find", map[string]any{"role": "button", "name_exact": c.to})
		start := time.Now()
		r := e.ok("electron_drag", map[string]any{"ref": firstRef(t, src), "targetRef": firstRef(t, dst)})
		took := time.Since(start)
		if got := strings.Join(strs(e.eval("window.order()")), ","); got != c.want {
			t.Fatalf("round %d: the app's order is %s, want %s (answer %v)", round, got, c.want, r)
		}
		if r["reordered"] != true || r["verified"] != true {
			t.Fatalf("round %d: answer %v", round, r)
		}
		drops := e.eval("window.__drops.length")
		if num(drops) != round+1 {
			t.Fatalf("round %d: the library ended %v drags, want %d", round, drops, round+1)
		}
		t.Logf("round %d: %s onto %s in %v", round, c.from, c.to, took)
	}
}

// TestDragWithNoEffect: AG Grid draws a row-drag handle but with
// rowDragManaged:false it leaves the reorder to the app, which here does
// nothing. Nothing changes, so the drag is DRAG_NO_EFFECT, never ok. With
// rowDragManaged:true the grid moves the row itself.
func TestDragWithNoEffect(t *testing.T) {
	e := componentsEnv(t, "aggrid.html?rowDrag=unmanaged&rows=20")
	before := strings.Join(strs(e.eval("window.rowOrder(5)")), ",")
	handle := `[row-id="0"] .ag-row-drag`
	target := `[row-id="3"] [col-id="c1"]`
	e.fails("electron_drag", map[string]any{"selector": handle, "targetSelector": target}, "DRAG_NO_EFFECT")
	if got := strings.Join(strs(e.eval("window.rowOrder(5)")), ","); got != before {
		t.Fatalf("the grid's order changed to %s", got)
	}

	e.openComponent("aggrid.html?rowDrag=managed&rows=20")
	r := e.ok("electron_drag", map[string]any{"selector": handle, "targetSelector": target})
	got := strings.Join(strs(e.eval("window.rowOrder(5)")), ",")
	if got == before || !strings.HasPrefix(got, "1,2,3,0") && !strings.HasPrefix(got, "1,2,0,3") {
		t.Fatalf("managed row drag: the grid's order is %s (answer %v)", got, r)
	}
	t.Logf("managed: %v", r)
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// firstRef is the ref of an electron_find answer's first match.
func firstRef(t *testing.T, r map[string]any) int {
	t.Helper()
	m, _ := r["matches"].([]any)
	if len(m) == 0 {
		t.Fatalf("no match: %v", r)
	}
	return num(m[0].(map[string]any)["ref"])
}
