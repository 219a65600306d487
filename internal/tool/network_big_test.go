package tool

import (
	"net/http"
	"strings"
	"testing"
)

// TestNetworkLargeBodyNeverWhole: a 50 MB response while bodies are
// captured is recorded without its body (truncated), and the page gets it
// whole.
func TestNetworkLargeBodyNeverWhole(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	chunk := strings.Repeat("0123456789abcdef", 4096) // 64 KiB
	e.app.Mount("/big", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		for range 800 { // 50 MiB
			if _, err := w.Write([]byte(chunk)); err != nil {
				return
			}
		}
	}))
	e.launch("/index.html")
	e.waitEval("location.pathname === '/index.html' && document.readyState === 'complete'")
	e.ok("network_capture_start", map[string]any{"captureBodies": true, "maxBodyBytes": 65536})
	if got := e.eval(`fetch('/big').then(r => r.arrayBuffer()).then(b => b.byteLength)`); num(got) != 800*65536 {
		t.Fatalf("the page got %v bytes", got)
	}
	evs := e.netEvents(map[string]any{"urls": []string{"/big"}}, "the big response", func(evs []map[string]any) bool { return len(evs) == 1 })
	if ev := evs[0]; ev["responseBodyTruncated"] != true || ev["responseBody"] != nil || num(ev["status"]) != 200 {
		t.Fatalf("the 50 MiB body: %v", ev)
	}
}
