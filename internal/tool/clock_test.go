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
