package tool

import (
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/fixture/components"
)

// componentsEnv is a server with the real UI libraries mounted on the
// fixture app, launched on one of their pages.
func componentsEnv(t *testing.T, page string) *env {
	t.Helper()
	dir := components.Require(t)
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.app.Mount(components.Prefix, components.Handler(dir))
	e.launch(components.Prefix + "pages/" + page)
	return e
}

// openComponent navigates the active surface to a components page and
// waits until its library is up.
func (e *env) openComponent(page string) {
	e.t.Helper()
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", components.Prefix+"pages/"+page)})
	if !e.waitTrue("window.__ready === true") {
		e.t.Fatalf("%s never set __ready", page)
	}
}

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
