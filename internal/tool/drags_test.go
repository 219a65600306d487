package tool

import (
	"slices"
	"strconv"
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

// TestDropVerifiedSoonAfterTheAnimation (issue 28, point 2's timing): a
// drop is verified at most 1.5 s after the library's animation ends.
// @hello-pangea/dnd animates the drop and calls onDragEnd when it has
// ended; SortableJS with its animation on calls onEnd at the drop and
// slides the items after it (the last transitionend). The page writes
// those times (Date.now()); the time electron_drag answered is taken as
// the call returns, on the same clock. Numbers: docs/benchmarks.md.
func TestDropVerifiedSoonAfterTheAnimation(t *testing.T) {
	const rounds, goal = 5, 1500 * time.Millisecond
	e := componentsEnv(t, "dnd.html")
	report := func(t *testing.T, lags []time.Duration) {
		t.Helper()
		slices.Sort(lags)
		t.Logf("answered after the library ended: median %v, max %v (%d rounds)", lags[len(lags)/2], lags[len(lags)-1], len(lags))
		if lags[len(lags)-1] > goal {
			t.Fatalf("a drop was verified %v after the library's animation ended, more than %v", lags[len(lags)-1], goal)
		}
	}
	t.Run("hello-pangea", func(t *testing.T) {
		e := e.on(t)
		var lags []time.Duration
		for round := range rounds {
			e.openComponent("dnd.html")
			src := e.ok("electron_find", map[string]any{"role": "button", "name_exact": "One"})
			dst := e.ok("electron_find", map[string]any{"role": "button", "name_exact": "Three"})
			r := e.ok("electron_drag", map[string]any{"ref": firstRef(t, src), "targetRef": firstRef(t, dst)})
			answered := time.Now()
			if got := strings.Join(strs(e.eval("window.order()")), ","); got != "Two,Three,One,Four,Five" || r["reordered"] != true {
				t.Fatalf("round %d: the app's order is %s (answer %v)", round, got, r)
			}
			ended := int64(num(e.eval("window.__drops[window.__drops.length - 1].at")))
			lags = append(lags, answered.Sub(time.UnixMilli(ended)))
			t.Logf("round %d: the call took %v ms", round, r["_meta"].(map[string]any)["elapsed_ms"])
		}
		report(t, lags)
	})
	for _, mode := range []string{"native", "fallback"} {
		t.Run("sortablejs "+mode, func(t *testing.T) {
			e := e.on(t)
			var lags []time.Duration
			for round := range rounds {
				e.openComponent("sortable.html?animation=150&mode=" + mode)
				r := e.ok("electron_drag", map[string]any{"selector": "#list li:nth-child(1)", "targetSelector": "#list li:nth-child(3)"})
				answered := time.Now()
				if got := e.evalString("window.order().join(',')"); got != "Item 2,Item 3,Item 1,Item 4,Item 5,Item 6" || r["reordered"] != true {
					t.Fatalf("round %d: order %s (answer %v)", round, got, r)
				}
				// The library is done at its onEnd or its last slide
				// (transitionend; none when a slide was cut short),
				// whichever came later.
				onEnd, slid := int64(num(e.eval("window.__ends[window.__ends.length - 1]"))), int64(num(e.eval("window.__slid")))
				lags = append(lags, answered.Sub(time.UnixMilli(max(onEnd, slid))))
				slide := "no slide ended"
				if slid > 0 {
					slide = "last slide ended " + strconv.FormatInt(slid-onEnd, 10) + " ms after onEnd"
				}
				t.Logf("round %d: %s; the call took %v ms", round, slide, r["_meta"].(map[string]any)["elapsed_ms"])
			}
			report(t, lags)
		})
	}
}
