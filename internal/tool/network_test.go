package tool

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// netEvents reads network_captured until pred holds for the events, or fails.
func (e *env) netEvents(args map[string]any, what string, pred func([]map[string]any) bool) []map[string]any {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := e.ok("network_captured", args)
		var evs []map[string]any
		for _, x := range r["events"].([]any) {
			evs = append(evs, x.(map[string]any))
		}
		if pred(evs) {
			return evs
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("network_captured never had %s: %v", what, r)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func withURL(evs []map[string]any, sub string) map[string]any {
	for _, ev := range evs {
		if u, _ := ev["url"].(string); strings.Contains(u, sub) {
			return ev
		}
	}
	return nil
}

// openPopup opens a popup from the top page after the network tools are
// set up, and returns its surface (a target that appears later).
func (e *env) openPopup(s map[string]map[string]any, query string) map[string]any {
	e.t.Helper()
	e.use(s["top"])
	e.eval("window.open('/second.html?" + query + "', '_blank', 'popup'); true")
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := e.ok("electron_surfaces_list", nil)
		for _, x := range r["surfaces"].([]any) {
			m := x.(map[string]any)
			if u, _ := m["url"].(string); strings.HasSuffix(u, "?"+query) {
				if caps, _ := m["capabilities"].(map[string]any); caps["rendererEval"] == true {
					return m
				}
			}
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("the popup never appeared: %v", r)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

var netSurfaces = []string{"top", "same2", "cross2", "guest"}

// TestNetworkCaptureEverySurface: requests from the top page, a frame two
// deep, the nested OOPIF, the webview guest (through the Electron-shaped
// proxy) and a popup that opens after capture started, each recorded with
// its surface and window, headers and bodies, secrets redacted; filters,
// since shared with electron_console_logs, reveal refused without
// --allow-secrets.
func TestNetworkCaptureEverySurface(t *testing.T) {
	e, s := surfaceEnv(t)
	e.fails("network_captured", nil, "NOT_CAPTURING")
	r := e.ok("network_capture_start", map[string]any{"captureBodies": true})
	if r["capturing"] != true || num(r["targets"]) < 4 {
		t.Fatalf("capture_start: %v", r)
	}
	e.fails("network_capture_start", nil, "ALREADY_CAPTURING")
	for _, name := range netSurfaces {
		e.use(s[name])
		got := e.eval(fmt.Sprintf(`fetch('/echo?x=%s', {method: 'POST', headers: {'Authorization': 'Bearer sekrit-%s', 'Content-Type': 'application/json'},
			body: JSON.stringify({user: 'bob', password: 'hunter2', nested: {api_key: 'k-123'}})}).then(r => r.json()).then(j => j.x)`, name, name))
		if got != name {
			t.Fatalf("fetch in %s: %v", name, got)
		}
	}
	popup := e.openPopup(s, "netpopup")
	e.use(popup)
	if got := e.eval(`fetch('/echo?x=popup').then(r => r.json()).then(j => j.x)`); got != "popup" {
		t.Fatalf("fetch in the popup: %v", got)
	}
	s["popup"] = popup
	names := append(append([]string(nil), netSurfaces...), "popup")
	evs := e.netEvents(map[string]any{"urls": []string{"/echo?x="}}, "every surface's fetch", func(evs []map[string]any) bool {
		for _, n := range names {
			if ev := withURL(evs, "x="+n); ev == nil || ev["responseBody"] == nil {
				return false
			}
		}
		return true
	})
	for _, n := range names {
		ev := withURL(evs, "x="+n)
		if ev["surface_id"] != s[n]["id"] || ev["window_id"] == nil || ev["windowId"] != ev["window_id"] || ev["frame_id"] == nil {
			t.Fatalf("%s: surface %v want %v: %v", n, ev["surface_id"], s[n]["id"], ev)
		}
		if num(ev["status"]) != 200 || ev["ok"] != true || ev["resourceType"] != "Fetch" || ev["durationMs"] == nil || ev["ttfbMs"] == nil || ev["timestamp"] == nil {
			t.Fatalf("%s: record fields: %v", n, ev)
		}
		if in, _ := ev["initiator"].(map[string]any); in == nil || in["type"] != "script" {
			t.Fatalf("%s: initiator: %v", n, ev["initiator"])
		}
		body, _ := ev["responseBody"].(string)
		if !strings.Contains(body, `"x":"`+n+`"`) {
			t.Fatalf("%s: response body %q", n, body)
		}
		if n == "popup" {
			continue
		}
		h := ev["requestHeaders"].(map[string]any)
		if h["Authorization"] != "[redacted]" {
			t.Fatalf("%s: Authorization not redacted: %v", n, h)
		}
		rb, _ := ev["requestBody"].(string)
		if !strings.Contains(rb, `"user":"bob"`) || strings.Contains(rb, "hunter2") || strings.Contains(rb, "k-123") || !strings.Contains(rb, `"password":"[redacted]"`) {
			t.Fatalf("%s: request body not redacted: %q", n, rb)
		}
	}
	raw, _ := json.Marshal(e.ok("network_captured", nil))
	if strings.Contains(string(raw), "sekrit") || strings.Contains(string(raw), "hunter2") {
		t.Fatalf("a secret in network_captured: %s", raw)
	}
	e.fails("network_captured", map[string]any{"reveal": true}, "SECRETS_NOT_ALLOWED")

	// Filters.
	r = e.ok("network_captured", map[string]any{"globs": []string{"*/echo?x=guest"}})
	if num(r["count"]) != 1 {
		t.Fatalf("glob: %v", r)
	}
	r = e.ok("network_captured", map[string]any{"regex": `x=(top|cross2)$`, "methods": []string{"post"}})
	if num(r["count"]) != 2 {
		t.Fatalf("regex+methods: %v", r)
	}
	r = e.ok("network_captured", map[string]any{"surfaces": []string{s["cross2"]["id"].(string)}, "resourceTypes": []string{"fetch"}})
	if num(r["count"]) != 1 {
		t.Fatalf("surfaces: %v", r)
	}
	e.fails("network_captured", map[string]any{"regex": "("}, "BAD_ARGUMENT")
	if m := e.fails("network_capture_start", map[string]any{"globs": []string{""}}, "BAD_ARGUMENT"); !strings.Contains(fmt.Sprint(m), "globs") {
		t.Fatalf("bad glob names the field: %v", m)
	}
	e.fails("network_captured", map[string]any{"resourceTypes": []string{"nonsense"}}, "BAD_ARGUMENT")

	// One clock with the console: what happened after a cursor.
	e.use(s["top"])
	e.eval("console.log('before the click'); true")
	c := e.ok("electron_console_logs", map[string]any{"match": "before the click"})
	cursor := num(c["next_since"])
	e.eval(`console.log('after the click'); fetch('/echo?x=after').then(r => r.text())`)
	after := e.netEvents(map[string]any{"since": cursor}, "the request after the cursor", func(evs []map[string]any) bool { return withURL(evs, "x=after") != nil })
	for _, ev := range after {
		if num(ev["seq"]) <= cursor || withURL([]map[string]any{ev}, "x=top") != nil {
			t.Fatalf("since %d returned an older record: %v", cursor, ev)
		}
	}
	c = e.ok("electron_console_logs", map[string]any{"since": cursor})
	if got := c["entries"].([]any); len(got) == 0 || !strings.Contains(fmt.Sprint(got), "after the click") || strings.Contains(fmt.Sprint(got), "before the click") {
		t.Fatalf("console since the same cursor: %v", got)
	}

	r = e.ok("network_capture_stop", nil)
	if r["stopped"] != true || num(r["events"]) < 6 {
		t.Fatalf("stop: %v", r)
	}
	e.fails("network_capture_stop", nil, "NOT_CAPTURING")
}

// TestNetworkRevealWithAllowSecrets: the operator's --allow-secrets lets
// reveal show what is otherwise redacted; an operator header is redacted.
func TestNetworkRevealWithAllowSecrets(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true, AllowSecrets: true, RedactHeaders: []string{"X-Api-Key"}})
	e.launch("/index.html")
	e.ok("network_capture_start", map[string]any{"urls": []string{"/echo"}})
	e.eval(`fetch('/echo?x=1', {headers: {'Authorization': 'Bearer open', 'X-Api-Key': 'k1'}}).then(r => r.text())`)
	evs := e.netEvents(nil, "the fetch", func(evs []map[string]any) bool { return withURL(evs, "x=1") != nil })
	h := withURL(evs, "x=1")["requestHeaders"].(map[string]any)
	if h["Authorization"] != "[redacted]" || h["X-Api-Key"] != "[redacted]" {
		t.Fatalf("redacted by default: %v", h)
	}
	evs = e.netEvents(map[string]any{"reveal": true}, "the fetch", func(evs []map[string]any) bool { return withURL(evs, "x=1") != nil })
	h = withURL(evs, "x=1")["requestHeaders"].(map[string]any)
	if h["Authorization"] != "Bearer open" || h["X-Api-Key"] != "k1" {
		t.Fatalf("reveal: %v", h)
	}
}

// TestNetworkStubEverySurface: one stub answers in the top page, a frame
// two deep, the nested OOPIF, the webview guest and a popup that opens
// later; abort, continue with a new URL, times and delay; unstub restores
// live traffic.
func TestNetworkStubEverySurface(t *testing.T) {
	e, s := surfaceEnv(t)
	r := e.ok("network_stub", map[string]any{"urls": []string{"/api/canned"}, "status": 201, "contentType": "application/json", "body": `{"canned":true}`})
	if r["stubbed"] != true || r["action"] != "fulfill" || num(r["targets"]) < 4 {
		t.Fatalf("stub: %v", r)
	}
	fulfil := r["id"].(string)
	check := func(name string) {
		t.Helper()
		got := e.eval(`fetch('/api/canned?from=` + name + `').then(async r => r.status + ' ' + r.headers.get('content-type') + ' ' + await r.text())`)
		if got != `201 application/json {"canned":true}` {
			t.Fatalf("stub in %s: %v", name, got)
		}
	}
	for _, name := range netSurfaces {
		e.use(s[name])
		check(name)
	}
	e.use(e.openPopup(s, "stubpopup"))
	check("popup")
	// The stub survives a navigation.
	e.use(s["second"])
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/index.html?after-nav")})
	e.ok("electron_wait_for_selector", map[string]any{"selector": "body"})
	check("navigated")

	e.use(s["top"])
	r = e.ok("network_stub", map[string]any{"globs": []string{"*/api/down*"}, "abort": "connectionrefused"})
	if r["action"] != "abort" {
		t.Fatalf("abort stub: %v", r)
	}
	if got := e.eval(`fetch('/api/down').then(() => 'loaded', e => 'failed: ' + e.name)`); got != "failed: TypeError" {
		t.Fatalf("abort: %v", got)
	}
	e.ok("network_stub", map[string]any{"regex": `/echo\?x=orig$`, "continue": map[string]any{"url": e.app.URL("a.test", "/echo?x=changed"), "headers": map[string]any{"X-Extra": "1"}}})
	if got := e.eval(`fetch('/echo?x=orig').then(r => r.json()).then(j => j.x)`); got != "changed" {
		t.Fatalf("continue with a new url: %v", got)
	}
	e.ok("network_stub", map[string]any{"urls": []string{"/api/once"}, "body": "once", "times": 1, "delayMs": 300})
	start := time.Now()
	if got := e.eval(`fetch('/api/once').then(r => r.text())`); got != "once" {
		t.Fatalf("times 1, first: %v", got)
	}
	if time.Since(start) < 300*time.Millisecond {
		t.Fatalf("delayMs 300 answered in %v", time.Since(start))
	}
	if got := e.eval(`fetch('/api/once').then(r => r.status)`); num(got) != 404 {
		t.Fatalf("times 1, second goes to the server (404): %v", got)
	}
	e.fails("network_stub", map[string]any{"urls": []string{"x"}, "abort": "nope"}, "BAD_ARGUMENT")
	e.fails("network_stub", map[string]any{"urls": []string{"x"}, "abort": "failed", "status": 200}, "BAD_ARGUMENT")
	e.fails("network_stub", map[string]any{"regex": "("}, "BAD_ARGUMENT")
	e.fails("network_stub", map[string]any{"body": "x"}, "BAD_ARGUMENT")
	e.fails("network_stub", map[string]any{"urls": []string{"x"}, "bodyFile": "/nonexistent/body.json"}, "PATH_NOT_ALLOWED")
	e.fails("network_stub", map[string]any{"urls": []string{"x"}, "bodyFile": filepath.Join(os.TempDir(), "no-such-body-file.json")}, "FILE_NOT_FOUND")
	bodyFile := filepath.Join(t.TempDir(), "body.json")
	if err := os.WriteFile(bodyFile, []byte(`{"from":"file"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	e.ok("network_stub", map[string]any{"urls": []string{"/api/file"}, "bodyFile": bodyFile})
	if got := e.eval(`fetch('/api/file').then(r => r.text())`); got != `{"from":"file"}` {
		t.Fatalf("bodyFile: %v", got)
	}

	r = e.ok("network_unstub", map[string]any{"id": fulfil})
	if num(r["unstubbed"]) != 1 {
		t.Fatalf("unstub by id: %v", r)
	}
	if got := e.eval(`fetch('/api/canned').then(r => r.status)`); num(got) != 404 {
		t.Fatalf("after unstub: %v", got)
	}
	r = e.ok("network_unstub", nil)
	if num(r["remaining"]) != 0 || num(r["unstubbed"]) < 2 {
		t.Fatalf("unstub all: %v", r)
	}
	if got := e.eval(`fetch('/api/down').then(r => r.status, e => 'failed')`); num(got) != 404 {
		t.Fatalf("after unstub all: %v", got)
	}
	r = e.ok("network_unstub", nil)
	if num(r["unstubbed"]) != 0 {
		t.Fatalf("unstub is idempotent: %v", r)
	}
}

// TestNetworkConditions: offline fails requests, latency delays them, a
// window's own conditions stay in that window, and clearing restores the
// network.
func TestNetworkConditions(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	r := e.launch("/index.html")
	_ = r
	timed := `(async () => { const t = performance.now(); try { await fetch('/echo?x=' + Math.random()).then(r => r.text()); return performance.now() - t } catch (e) { return -1 } })()`
	e.fails("network_conditions", map[string]any{"windowId": "nope"}, "SURFACE_NOT_FOUND")
	e.fails("network_conditions", map[string]any{"latencyMs": -1}, "BAD_ARGUMENT")
	r = e.ok("network_conditions", map[string]any{"offline": true})
	if num(r["targets"]) < 1 || r["cleared"] != false {
		t.Fatalf("offline: %v", r)
	}
	if got := e.eval(timed); num(got) != -1 {
		t.Fatalf("offline fetch: %v", got)
	}
	w := e.ok("electron_windows_list", nil)["windows"].([]any)[0].(map[string]any)
	e.ok("network_conditions", map[string]any{"windowId": w["id"], "latencyMs": 600, "cacheDisabled": true})
	if got, ok := e.eval(timed).(float64); !ok || got < 550 {
		t.Fatalf("latency 600: the fetch took %v ms", got)
	}
	e.ok("network_conditions", map[string]any{"windowId": w["id"]})
	e.ok("network_conditions", nil)
	if got := e.eval(timed); num(got) < 0 {
		t.Fatalf("cleared: %v", got)
	}
}
