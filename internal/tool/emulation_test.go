package tool

import "testing"

// TestEmulation: each field given changes what the page itself reports
// (innerWidth, devicePixelRatio, matchMedia, Intl, navigator), only the
// fields given change, a timezone Chromium rejects is a coded error that
// leaves the window as it was, and reset restores the real values.
func TestEmulation(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/index.html")
	realTZ := e.eval("Intl.DateTimeFormat().resolvedOptions().timeZone")
	realWidth := num(e.eval("innerWidth"))
	r := e.ok("emulation_set", map[string]any{"viewport": map[string]any{"width": 500, "height": 400, "deviceScaleFactor": 2}, "colorScheme": "dark", "timezone": "Asia/Tokyo", "locale": "de-DE"})
	obs := r["observed"].(map[string]any)
	if num(obs["innerWidth"]) != 500 || obs["devicePixelRatio"] != 2.0 || obs["colorScheme"] != "dark" || obs["timezone"] != "Asia/Tokyo" {
		t.Fatalf("emulation_set: %v", r)
	}
	if got := e.eval("[innerWidth, matchMedia('(prefers-color-scheme: dark)').matches, Intl.DateTimeFormat().resolvedOptions().timeZone, Intl.DateTimeFormat().resolvedOptions().locale].join()"); got != "500,true,Asia/Tokyo,de-DE" {
		t.Fatalf("the page reports %v", got)
	}
	// Only the fields given change.
	e.ok("emulation_set", map[string]any{"colorScheme": "light", "reducedMotion": "reduce"})
	if got := e.eval("[innerWidth, matchMedia('(prefers-color-scheme: dark)').matches, matchMedia('(prefers-reduced-motion: reduce)').matches, Intl.DateTimeFormat().resolvedOptions().timeZone].join()"); got != "500,false,true,Asia/Tokyo" {
		t.Fatalf("after a second change the page reports %v", got)
	}
	m := e.fails("emulation_set", map[string]any{"timezone": "Mars/Olympus_Mons"}, "EMULATION_REJECTED")
	if m["details"].(map[string]any)["field"] != "timezone" {
		t.Fatalf("rejected timezone: %v", m)
	}
	if got := e.eval("Intl.DateTimeFormat().resolvedOptions().timeZone"); got != "Asia/Tokyo" {
		t.Fatalf("a rejected timezone changed the page's: %v", got)
	}
	m = e.fails("emulation_set", map[string]any{"viewport": map[string]any{"width": -1, "height": 10}}, "BAD_ARGUMENT")
	if m["details"].(map[string]any)["field"] != "viewport.width" {
		t.Fatalf("negative width: %v", m)
	}
	e.fails("emulation_set", map[string]any{"device": "Nokia 3310"}, "BAD_ARGUMENT")
	e.fails("emulation_set", map[string]any{"colorScheme": "sepia"}, "BAD_ARGUMENT")
	r = e.ok("emulation_set", map[string]any{"device": "iPhone 15"})
	if obs := r["observed"].(map[string]any); num(obs["screenWidth"]) != 393 || obs["devicePixelRatio"] != 3.0 {
		t.Fatalf("device: %v", r)
	}
	if got := e.eval("navigator.userAgent.includes('iPhone')"); got != true {
		t.Fatal("device user agent not applied")
	}
	e.ok("emulation_reset", nil)
	if got := e.eval("[innerWidth, Intl.DateTimeFormat().resolvedOptions().timeZone, navigator.userAgent.includes('iPhone')].join()"); got != itoa(realWidth)+","+realTZ.(string)+",false" {
		t.Fatalf("after reset the page reports %v", got)
	}
}

// TestEmulationInScreenshotAndSnapshot: while a viewport is emulated, a
// screenshot says so and its image is the emulated size times the
// deviceScaleFactor; a snapshot of the page and of its cross-site OOPIF
// says so too; after a reset neither does.
func TestEmulationInScreenshotAndSnapshot(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/index.html")
	top, cross := e.surfaceByURL("/index.html"), e.surfaceByURL("/cross1.html")
	e.use(top)
	e.ok("emulation_set", map[string]any{"viewport": map[string]any{"width": 400, "height": 300, "deviceScaleFactor": 2}})
	r := e.ok("electron_screenshot", nil)
	vp, _ := r["emulated_viewport"].(map[string]any)
	if vp == nil || num(vp["width"]) != 400 || num(vp["height"]) != 300 || vp["deviceScaleFactor"] != 2.0 || num(r["width"]) != 800 || num(r["height"]) != 600 {
		t.Fatalf("screenshot while emulated: %v", r)
	}
	r = e.ok("electron_snapshot", map[string]any{"format": "json"})
	vp, _ = r["emulated_viewport"].(map[string]any)
	if vp == nil || num(vp["width"]) != 400 || num(r["viewport"].(map[string]any)["width"]) != 400 {
		t.Fatalf("snapshot while emulated: %v", r)
	}
	e.use(cross)
	r = e.ok("electron_snapshot", map[string]any{"format": "json"})
	if vp, _ := r["emulated_viewport"].(map[string]any); vp == nil || num(vp["width"]) != 400 {
		t.Fatalf("snapshot of the OOPIF while emulated: %v", r)
	}
	e.use(top)
	e.ok("emulation_reset", nil)
	r = e.ok("electron_screenshot", nil)
	if r["emulated_viewport"] != nil || num(r["width"]) == 800 && num(r["height"]) == 600 {
		t.Fatalf("screenshot after reset: %v", r)
	}
	if r := e.ok("electron_snapshot", map[string]any{"format": "json"}); r["emulated_viewport"] != nil {
		t.Fatalf("snapshot after reset: %v", r)
	}
}
