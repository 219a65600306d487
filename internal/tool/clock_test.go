package tool

import (
	"strings"
	"testing"
	"time"
)

// surfaceByURL waits for a surface whose URL ends with suffix.
func (e *env) surfaceByURL(suffix string) map[string]any {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		for _, s := range e.ok("electron_surfaces_list", nil)["surfaces"].([]any) {
			m := s.(map[string]any)
			if u, _ := m["url"].(string); strings.HasSuffix(u, suffix) {
				return m
			}
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("no surface %s", suffix)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestClockOneAcrossPageAndOOPIF: after clock_install, the top page and its
// cross-site OOPIF read the same fake time; clock_advance fires a timer in
// each at its due time, in order, and leaves both at the same time.
func TestClockOneAcrossPageAndOOPIF(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/index.html")
	top, cross := e.surfaceByURL("/index.html"), e.surfaceByURL("/cross1.html")
	e.fails("clock_advance", map[string]any{"ms": 10}, "CLOCK_NOT_INSTALLED")
	const start = 1767225600000 // 2026-01-01T00:00:00Z
	r := e.ok("clock_install", map[string]any{"time": "2026-01-01T00:00:00Z"})
	if r["installed"] != true || num(r["documents"]) < 2 {
		t.Fatalf("install: %v", r)
	}
	arm := "window.__fired = []; const at = (ms, tag) => setTimeout(() => __fired.push(tag + '@' + (Date.now() - " + itoa(start) + ")), ms);"
	e.use(top)
	if got := e.eval("Date.now()"); num(got) != start {
		t.Fatalf("top reads %v", got)
	}
	e.eval(arm + "at(300, 'top'); at(1000, 'top'); requestAnimationFrame(() => __fired.push('raf')); true")
	e.use(cross)
	if got := e.eval("Date.now()"); num(got) != start {
		t.Fatalf("the OOPIF reads %v", got)
	}
	e.eval(arm + "at(500, 'cross'); setInterval(() => __fired.push('tick'), 400); true")
	r = e.ok("clock_advance", map[string]any{"ms": 2000})
	if num(r["fired"]) < 4 || r["time"].(float64) != start+2000 {
		t.Fatalf("advance: %v", r)
	}
	if got := e.eval("__fired.join() + '|' + (Date.now() - " + itoa(start) + ")"); got != "tick,cross@500|2000" {
		t.Fatalf("the OOPIF saw %v", got)
	}
	e.use(top)
	if got := e.eval("__fired.join() + '|' + (Date.now() - " + itoa(start) + ")"); got != "raf,top@300,top@1000|2000" {
		t.Fatalf("the top page saw %v", got)
	}
	// run_for repeats intervals; pause holds at a time.
	e.use(cross)
	e.eval("__fired = []; true")
	e.ok("clock_run_for", map[string]any{"ms": 1000})
	if got := e.eval("__fired.length"); num(got) < 2 {
		t.Fatalf("run_for fired %v interval ticks", got)
	}
	e.ok("clock_pause", map[string]any{"time": "2026-01-01T01:00:00Z"})
	if got := e.eval("Date.now() - " + itoa(start)); num(got) != 3600000 {
		t.Fatalf("after pause the OOPIF reads %v", got)
	}
	st := e.ok("clock_status", nil)
	if st["mode"] != "fixed" || st["time"].(float64) != start+3600000 {
		t.Fatalf("status: %v", st)
	}
	e.fails("clock_set_time", map[string]any{"time": "yesterday"}, "BAD_ARGUMENT")
	e.fails("clock_advance", map[string]any{"ms": -1}, "BAD_ARGUMENT")
	e.ok("clock_resume", nil)
	time.Sleep(300 * time.Millisecond)
	if got := e.eval("Date.now() - " + itoa(start)); num(got) <= 3600000 {
		t.Fatalf("after resume the clock does not run: %v", got)
	}
}

// TestClockJoinsNewWindowsAndForgetsClosedOnes: a window opened after
// clock_install runs on the clock before any further clock call; a timer
// in it and one in the first page fire in due order on clock_advance; when
// it closes, the clock's and the emulation book's records of it go
// (ADR-008).
func TestClockJoinsNewWindowsAndForgetsClosedOnes(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/index.html")
	top := e.surfaceByURL("/index.html")
	e.surfaceByURL("/cross2.html") // every fixture frame is there: the base count holds still
	sess := e.srv.sessions.List()[0]
	k, err := sess.Clock()
	if err != nil {
		t.Fatal(err)
	}
	book, err := sess.Emulation()
	if err != nil {
		t.Fatal(err)
	}
	const start = 1767225600000
	e.ok("clock_install", map[string]any{"time": itoa(start)})
	base := k.Stats().Scripts
	r := e.ok("electron_window_open", map[string]any{"url": e.app.URL("a.test", "/second.html"), "select": true})
	win := r["window_id"].(string)
	// No clock call since the open: the window joined by itself.
	deadline := time.Now().Add(30 * time.Second)
	for num(e.eval("Date.now()")) != start {
		if time.Now().After(deadline) {
			t.Fatalf("the new window reads %v, not the clock's time", e.eval("Date.now()"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if st := k.Stats(); st.Joined < 1 || st.Scripts != base+1 {
		t.Fatalf("clock stats after the open: %+v (base %d)", st, base)
	}
	e.eval("window.__fired = []; setTimeout(() => __fired.push('new@' + (Date.now() - " + itoa(start) + ")), 200); true")
	e.ok("emulation_set", map[string]any{"colorScheme": "dark"})
	newWin := e.surfaceByURL("/second.html")
	if book.Stats().Windows != 1 {
		t.Fatalf("book: %+v", book.Stats())
	}
	e.use(top)
	e.eval("window.__fired = []; setTimeout(() => __fired.push('top@' + (Date.now() - " + itoa(start) + ")), 100); setTimeout(() => __fired.push('top@' + (Date.now() - " + itoa(start) + ")), 300); true")
	if r := e.ok("clock_advance", map[string]any{"ms": 1000}); num(r["fired"]) != 3 {
		t.Fatalf("advance: %v", r)
	}
	if got := e.eval("__fired.join()"); got != "top@100,top@300" {
		t.Fatalf("top fired %v", got)
	}
	e.use(newWin)
	if got := e.eval("__fired.join() + '|' + (Date.now() - " + itoa(start) + ")"); got != "new@200|1000" {
		t.Fatalf("the new window fired %v", got)
	}
	e.use(top)
	e.ok("electron_window_close", map[string]any{"windowId": win})
	deadline = time.Now().Add(30 * time.Second)
	for k.Stats().Scripts != base || book.Stats().Windows != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("after the close: clock %+v (base %d), book %+v", k.Stats(), base, book.Stats())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
