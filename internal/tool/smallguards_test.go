package tool

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	capt "github.com/understudy-dev/understudy/internal/capture"
	"github.com/understudy-dev/understudy/internal/toolargs"
)

// TestSmallInputGuards: issue 12 point 13.
func TestSmallInputGuards(t *testing.T) {
	e := newEnv(t, Config{})

	// electron_wait {ms: 1e13} overflowed a Duration and returned at once;
	// it is clamped to 60 s (cut short here by the call's context).
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	start := time.Now()
	e.srv.Dispatch(ctx, "electron_wait", json.RawMessage(`{"ms":10000000000000}`), nil)
	if d := time.Since(start); d < 1400*time.Millisecond {
		t.Errorf("electron_wait {ms: 1e13} returned after %v: the duration overflowed", d)
	}

	// Screenshot paths that cannot hold an image: BAD_ARGUMENT naming path.
	dir := t.TempDir()
	for _, p := range []string{dir, filepath.Join(dir, "a\x00b.png"), "/proc/self/mem", "/dev/null", "/sys/kernel/x.png"} {
		m := e.fails("electron_screenshot", map[string]any{"path": p}, "BAD_ARGUMENT")
		if d, _ := m["details"].(map[string]any); d["field"] != "path" {
			t.Errorf("screenshot path %q: %v", p, m)
		}
	}
	e.fails("electron_screenshot", map[string]any{"dir": "/proc/self"}, "BAD_ARGUMENT")

	// A 10 MB selector: BAD_ARGUMENT naming it, before any work.
	big := strings.Repeat("div ", 10<<20/4)
	for _, c := range []struct{ tool, field string }{
		{"electron_click", "selector"}, {"electron_wait_for_selector", "selector"}, {"electron_screenshot", "selector"},
	} {
		m := e.fails(c.tool, map[string]any{c.field: big}, "BAD_ARGUMENT")
		if d, _ := m["details"].(map[string]any); d["field"] != c.field {
			t.Errorf("%s with a 10 MB %s: %v", c.tool, c.field, m)
		}
	}
	if m := e.fails("electron_click", map[string]any{"selector": strings.Repeat("a", toolargs.MaxSelectorLen+1)}, "BAD_ARGUMENT"); !strings.Contains(m["error"].(string), "4096") {
		t.Errorf("a selector one byte over the cap: %v", m)
	}

	// A full page past 16384 px says it was cut, with the real height.
	e.launch("/second.html")
	e.ok("electron_navigate", map[string]any{"url": `data:text/html,<body style="margin:0"><div style="height:20000px;background:linear-gradient(red,blue)"></div></body>`})
	r := e.ok("electron_screenshot", map[string]any{"fullPage": true, "dir": dir})
	if r["truncated"] != true || num(r["full_height"]) < 20000 || num(r["height"]) > capt.MaxClipSide {
		t.Errorf("a 20000 px full page: %v, want truncated with full_height 20000", r)
	}
	r = e.ok("electron_screenshot", map[string]any{"dir": dir})
	if _, cut := r["truncated"]; cut {
		t.Errorf("a viewport screenshot says truncated: %v", r)
	}
	e.ok("electron_stop", nil)
}
