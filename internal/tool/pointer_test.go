package tool

import (
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture/components"
)

// TestDragSortableJS drags items of a real SortableJS list in its three
// ways of dragging (HTML drag and drop; forceFallback, which follows
// pointer events and samples them every 50 ms; items that are draggable
// from the start), down and up, and checks the order through the list's
// own DOM (window.order()), never through the tool's answer alone.
func TestDragSortableJS(t *testing.T) {
	e := componentsEnv(t, "sortable.html")
	item := func(n string) string { return "#list li:nth-child(" + n + ")" }
	cases := []struct {
		from, to string
		want     string
	}{
		{"1", "3", "Item 2,Item 3,Item 1,Item 4,Item 5,Item 6"}, // down: item 1 ends where item 3 was
		{"5", "2", "Item 1,Item 5,Item 2,Item 3,Item 4,Item 6"}, // up: item 5 ends where item 2 was
	}
	modes := map[string]string{"native": "html5", "fallback": "pointer", "draggable": "html5"}
	for _, mode := range []string{"native", "fallback", "draggable"} {
		for _, c := range cases {
			t.Run(mode+" "+c.from+" onto "+c.to, func(t *testing.T) {
				e := e.on(t)
				e.openComponent("sortable.html?mode=" + mode)
				r := e.ok("electron_drag", map[string]any{"selector": item(c.from), "targetSelector": item(c.to)})
				got := e.evalString("window.order().join(',')")
				if got != c.want {
					t.Fatalf("order %s, want %s (answer %v)", got, c.want, r)
				}
				if r["mode"] != modes[mode] || r["reordered"] != true || toJSON(r["order"]) != toJSON(strings.Split(c.want, ",")) {
					t.Fatalf("answer %v: want mode %s, reordered, and the order the page shows", r, modes[mode])
				}
				t.Logf("%s %s onto %s: %v steps, %v ms", mode, c.from, c.to, r["steps"], r["_meta"].(map[string]any)["elapsed_ms"])
			})
		}
	}

	// With SortableJS's animation on (as apps ship it): items slide for
	// 150 ms after each swap, and SortableJS ignores a target while it
	// slides.
	for _, mode := range []string{"native", "fallback"} {
		for _, c := range cases {
			t.Run("animated "+mode+" "+c.from+" onto "+c.to, func(t *testing.T) {
				e := e.on(t)
				e.openComponent("sortable.html?mode=" + mode)
				e.eval("window.sortable.option('animation', 150); true")
				r := e.ok("electron_drag", map[string]any{"selector": item(c.from), "targetSelector": item(c.to)})
				if got := e.evalString("window.order().join(',')"); got != c.want || r["reordered"] != true {
					t.Fatalf("order %s, want %s (answer %v)", got, c.want, r)
				}
			})
		}
	}

	// A drag the list cannot take: SortableJS's filter refuses to start
	// it, so the order stays and the answer says so with the order it saw.
	t.Run("refused", func(t *testing.T) {
		e := e.on(t)
		e.openComponent("sortable.html?mode=fallback")
		e.eval("window.sortable.option('filter', 'li'); true")
		m := e.fails("electron_drag", map[string]any{"selector": item("1"), "targetSelector": item("3")}, "DRAG_NO_EFFECT")
		d := details(m)
		if toJSON(d["order"]) != toJSON(strings.Split("Item 1,Item 2,Item 3,Item 4,Item 5,Item 6", ",")) || num(d["index"]) != 0 || num(d["target_index"]) != 2 {
			t.Fatalf("details %v", d)
		}
		if got := e.evalString("window.order().join(',')"); got != "Item 1,Item 2,Item 3,Item 4,Item 5,Item 6" {
			t.Fatalf("order %s", got)
		}
	})

	// Toward another list (SortableJS groups): the item is not two
	// children of one parent with its target, so there is no slot to
	// check, but where the page put it is: SortableJS keeps it at the end of
	// its own list (it takes the gap between the lists for the end of the
	// first), which is neither beside the target nor in it, and the answer
	// says so with the place instead of ok or TYPE_NO_EFFECT.
	t.Run("another list", func(t *testing.T) {
		e := e.on(t)
		e.openComponent("sortable.html?mode=native")
		e.eval(`(() => { window.sortable.option('group', 'g'); const l = document.createElement('ul'); l.id = 'list2';
  l.innerHTML = '<li>Other A</li><li>Other B</li>'; document.body.append(l); Sortable.create(l, { group: 'g', animation: 0 }); return true })()`)
		r := e.call("electron_drag", map[string]any{"selector": item("1"), "targetSelector": "#list2 li:nth-child(2)"})
		in1 := e.evalString("window.order().join(',')")
		in2 := e.evalString("[...document.querySelectorAll('#list2 li')].map(l => l.textContent).join(',')")
		switch {
		case strings.Contains(in2, "Item 1"):
			// Had the page put it beside the target, that is an ok.
			if r["ok"] != true || r["source_moved"] != true {
				t.Fatalf("answer %v; #list2 holds %s", r, in2)
			}
		default:
			src, _ := details(r)["source"].(map[string]any)
			idx := strings.Index(in1+",", "Item 1,")
			if r["code"] != "DRAG_MISPLACED" || src["parent"] != "ul#list" || idx < 0 || num(src["index"]) != len(strings.Split(in1[:idx], ","))-1 {
				t.Fatalf("answer %v; #list holds %s, #list2 %s", r, in1, in2)
			}
		}
	})

	// A list that puts the item elsewhere: the answer is DRAG_MISPLACED
	// with the order the page shows, never ok.
	t.Run("misplaced", func(t *testing.T) {
		e := e.on(t)
		e.openComponent("sortable.html?mode=fallback")
		e.eval("window.sortable.option('onEnd', () => { const l = document.getElementById('list'); l.append(l.firstElementChild.nextElementSibling); }); true")
		m := e.fails("electron_drag", map[string]any{"selector": item("1"), "targetSelector": item("3")}, "DRAG_MISPLACED")
		got := e.evalString("window.order().join(',')")
		if toJSON(details(m)["order"]) != toJSON(strings.Split(got, ",")) || got == "Item 2,Item 3,Item 1,Item 4,Item 5,Item 6" {
			t.Fatalf("order %s, details %v", got, details(m))
		}
	})
}

// point reads {x, y} from the page.
func (e *env) point(expr string) map[string]any {
	e.t.Helper()
	m, ok := e.eval(expr).(map[string]any)
	if !ok {
		e.t.Fatalf("%s is not a point", expr)
	}
	return map[string]any{"x": m["x"], "y": m["y"]}
}

// TestClickAtPoint clicks and hovers a real Chart.js bar chart (a canvas:
// no element per bar) at points of the viewport and of the canvas, and
// checks what Chart.js's own hit test saw (window.__chartClicks,
// chart.getActiveElements()).
func TestClickAtPoint(t *testing.T) {
	e := componentsEnv(t, "chart.html")
	if !e.waitTrue("window.__ready === true") {
		t.Fatal("chart.html never set __ready")
	}
	// Chart.js handles events at the next animation frame.
	clicks := func() string {
		e.eval("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
		return toJSON(e.eval("window.__chartClicks"))
	}

	// A point of the viewport: bar 2's centre.
	r := e.ok("electron_click", map[string]any{"x": e.point("barCenter(2)")["x"], "y": e.point("barCenter(2)")["y"]})
	if got := clicks(); got != "[2]" {
		t.Fatalf("__chartClicks %s after a click at bar 2 (answer %v)", got, r)
	}
	tg, _ := r["target"].(map[string]any)
	if tg["tag"] != "canvas" || tg["id"] != "chart" || tg["role"] != "img" || tg["name"] != "Sales by month" || r["verified"] != true || r["over"] != nil {
		t.Fatalf("answer %v: the target is the canvas, verified, over nothing", r)
	}

	// A point of an element: bar 1, from the canvas's top-left corner.
	pos := e.point("(() => { const c = barCenter(1), r = chart.canvas.getBoundingClientRect(); return {x: c.x - r.left, y: c.y - r.top} })()")
	r = e.ok("electron_click", map[string]any{"selector": "#chart", "position": pos})
	if got := clicks(); got != "[2,1]" || r["verified"] != true {
		t.Fatalf("__chartClicks %s after a click at bar 1 of #chart (answer %v)", got, r)
	}

	// Hover within the element: Chart.js makes the bar under the mouse
	// active.
	pos = e.point("(() => { const c = barCenter(3), r = chart.canvas.getBoundingClientRect(); return {x: c.x - r.left, y: c.y - r.top} })()")
	e.ok("electron_hover", map[string]any{"selector": "#chart", "position": pos})
	if !e.waitTrue("chart.getActiveElements().length === 1 && chart.getActiveElements()[0].index === 3") {
		t.Fatalf("active elements after hovering bar 3: %v", e.eval("chart.getActiveElements().map(a => a.index)"))
	}
	// And at a point of the viewport: bar 0.
	c0 := e.point("barCenter(0)")
	r = e.ok("electron_hover", map[string]any{"x": c0["x"], "y": c0["y"]})
	if !e.waitTrue("chart.getActiveElements().length === 1 && chart.getActiveElements()[0].index === 0") || r["verified"] != true {
		t.Fatalf("active elements after hovering bar 0: %v (answer %v)", e.eval("chart.getActiveElements().map(a => a.index)"), r)
	}

	// An overlay over bar 0 receives a click there, and the answer says
	// so: the target is the overlay, lying over the canvas.
	e.eval(`(() => { const c = barCenter(0), v = document.createElement('div'); v.id = 'veil'; v.setAttribute('aria-label', 'Veil');
  v.style.cssText = 'position:fixed;left:' + (c.x - 20) + 'px;top:' + (c.y - 20) + 'px;width:40px;height:40px;background:rgba(0,0,0,.2)';
  document.body.append(v); return true })()`)
	r = e.ok("electron_click", map[string]any{"x": c0["x"], "y": c0["y"]})
	tg, _ = r["target"].(map[string]any)
	over, _ := r["over"].(map[string]any)
	if tg["id"] != "veil" || over["id"] != "chart" || !strings.Contains(toJSON(r["note"]), "overlay") || clicks() != "[2,1]" {
		t.Fatalf("a click on the overlay: %v; __chartClicks %s", r, clicks())
	}
	// A point of #chart under the overlay is covered: waited for, then named.
	pos = e.point("(() => { const c = barCenter(0), r = chart.canvas.getBoundingClientRect(); return {x: c.x - r.left, y: c.y - r.top} })()")
	m := e.fails("electron_click", map[string]any{"selector": "#chart", "position": pos, "timeoutMs": 300}, "ELEMENT_NOT_VISIBLE")
	if !strings.Contains(m["error"].(string), "Veil") || clicks() != "[2,1]" {
		t.Fatalf("covered point: %v; __chartClicks %s", m, clicks())
	}

	// A page that cancels pointerdown (as canvas apps do) suppresses
	// mousedown but not the click: both kinds of click still land and are
	// verified.
	e.eval("document.getElementById('veil').remove(); document.getElementById('chart').addEventListener('pointerdown', ev => ev.preventDefault()); true")
	c3 := e.point("barCenter(3)")
	if r := e.ok("electron_click", map[string]any{"x": c3["x"], "y": c3["y"]}); r["verified"] != true {
		t.Fatalf("click at bar 3: %v", r)
	}
	pos = e.point("(() => { const c = barCenter(0), r = chart.canvas.getBoundingClientRect(); return {x: c.x - r.left, y: c.y - r.top} })()")
	if r := e.ok("electron_click", map[string]any{"selector": "#chart", "position": pos}); r["verified"] != true {
		t.Fatalf("click at bar 0 of #chart: %v", r)
	}
	if got := clicks(); got != "[2,1,3,0]" {
		t.Fatalf("__chartClicks %s after clicks with pointerdown cancelled", got)
	}

	// Bad points name their field.
	for _, c := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"x": -1, "y": 10}, "x"},
		{map[string]any{"x": 10, "y": -0.5}, "y"},
		{map[string]any{"x": 100000, "y": 10}, "x"},
		{map[string]any{"x": 10, "y": 100000}, "y"},
		{map[string]any{"x": 10}, "y"},
		{map[string]any{"x": 10, "y": 10, "selector": "#chart"}, "x"},
		{map[string]any{"position": map[string]any{"x": 1, "y": 1}}, "position"},
		{map[string]any{"selector": "#chart", "position": map[string]any{"x": 100000, "y": 1}}, "position"},
		{map[string]any{"selector": "#chart", "position": map[string]any{"x": 1, "y": -1}}, "position"},
	} {
		for _, tool := range []string{"electron_click", "electron_hover"} {
			m := e.fails(tool, c.args, "BAD_ARGUMENT")
			if details(m)["field"] != c.field {
				t.Errorf("%s %v: field %v, want %s (%v)", tool, c.args, details(m)["field"], c.field, m["error"])
			}
		}
	}
	if got := clicks(); got != "[2,1,3,0]" {
		t.Fatalf("bad points clicked: %s", got)
	}
}

// TestClickAtPointInFrames clicks the real Chart.js chart loaded in an
// in-process frame two deep (same2) and in a nested OOPIF (cross2): x/y
// are of the selected surface's own viewport, and reach the bar through
// the frame offsets.
func TestClickAtPointInFrames(t *testing.T) {
	dir := components.Require(t)
	e, s := surfaceEnv(t)
	e.app.Mount(components.Prefix, components.Handler(dir))
	size := func(surface, id, css string) {
		e.use(s[surface])
		e.eval("document.getElementById('" + id + "').style.cssText = '" + css + "'; true")
	}
	for _, c := range []struct{ name, parent, owner, inner string }{
		{"same2", "same1", "same1", "same2"},
		{"cross2", "cross1", "cross1", "cross2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := e.on(t)
			// Room for the chart (600 × 300 under a heading): the frame
			// and its parent frame grow, the other column shrinks.
			size("top", "same1", "width:"+map[bool]string{true: "700px;height:520px", false: "200px;height:330px"}[c.name == "same2"])
			size("top", "cross1", "width:"+map[bool]string{true: "700px;height:520px", false: "200px;height:330px"}[c.name == "cross2"])
			size(c.parent, c.inner, "width:660px;height:440px;margin:7px 4px 5px 11px")
			e.use(s[c.name])
			e.eval("location.href = '" + components.Prefix + "pages/chart.html'; true")
			deadline := time.Now().Add(15 * time.Second)
			for {
				r := e.call("electron_eval_renderer", map[string]any{"code": "window.__ready === true && location.pathname.endsWith('chart.html')"})
				if r["result"] == true {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("chart.html never came up in %s: %v", c.name, r)
				}
				time.Sleep(100 * time.Millisecond)
			}
			clicks := func() string {
				e.eval("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
				return toJSON(e.eval("window.__chartClicks"))
			}
			p := e.point("barCenter(2)")
			r := e.ok("electron_click", map[string]any{"x": p["x"], "y": p["y"]})
			if got := clicks(); got != "[2]" {
				t.Fatalf("%s: __chartClicks %s after a click at bar 2 (answer %v)", c.name, got, r)
			}
			// The answer gives the point as asked and in the window, past
			// the two frames' offsets.
			at, _ := r["at"].(map[string]any)
			tg, _ := r["target"].(map[string]any)
			if toJSON(at) != toJSON(p) || r["x"].(float64) <= p["x"].(float64)+20 || r["y"].(float64) <= p["y"].(float64)+20 || tg["id"] != "chart" || r["surface_id"] != s[c.name]["id"] {
				t.Fatalf("%s: answer %v for the point %v", c.name, r, p)
			}
			pos := e.point("(() => { const c = barCenter(1), r = chart.canvas.getBoundingClientRect(); return {x: c.x - r.left, y: c.y - r.top} })()")
			e.ok("electron_click", map[string]any{"selector": "#chart", "position": pos})
			if got := clicks(); got != "[2,1]" {
				t.Fatalf("%s: __chartClicks %s after a click at bar 1 of #chart", c.name, got)
			}
		})
	}
}

// TestDragExpect: expect says what a drag is for when the page cannot tell.
func TestDragExpect(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/actions.html")
	// The handle and the drop target are two children of one plain div:
	// by default a drop, ok once the press reached the handle (the page
	// records the drop); as a reorder, nothing moved.
	r := e.ok("electron_drag", map[string]any{"selector": "#drag-handle", "targetSelector": "#drag-target"})
	if r["mode"] != "pointer" || r["reordered"] != false || len(e.recorded("x.type === 'pointer-drop'")) != 1 {
		t.Fatalf("a drop: %v", r)
	}
	m := e.fails("electron_drag", map[string]any{"selector": "#drag-handle", "targetSelector": "#drag-target", "expect": "reorder"}, "DRAG_NO_EFFECT")
	if d := details(m); toJSON(d["order"]) != `["Drag handle","Drop target"]` || num(d["index"]) != 0 || num(d["target_index"]) != 1 {
		t.Fatalf("details %v", d)
	}
	e.fails("electron_drag", map[string]any{"selector": "#s-1", "targetSelector": "#btn", "expect": "reorder"}, "BAD_ARGUMENT")
	e.fails("electron_drag", map[string]any{"selector": "#s-1", "targetSelector": "#s-2", "expect": "sideways"}, "BAD_ARGUMENT")
	// As a drop, a list item dropped on another is not held to the slot;
	// the page moved it beside the target, which is ok.
	r = e.ok("electron_drag", map[string]any{"selector": "#s-1", "targetSelector": "#s-3", "expect": "drop"})
	if r["source_moved"] != true || e.eval("[...document.querySelectorAll('#sortable li')].map(l => l.id).join()") != "s-2,s-3,s-1,s-4,s-5" {
		t.Fatalf("a drop on a list item: %v", r)
	}
}
