package tool

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// playwrightNode returns node and the folder holding playwright-core
// (internal/relay/compat, installed by make test); without them the test
// is skipped, or fails under CI=true.
func playwrightNode(t *testing.T) (string, string) {
	t.Helper()
	return requirePlaywrightTest(t), compatDir // installs the compat lockfile once (trace_test.go)
}

// routeFromHAR loads page in a new page of the browser at cdpURL with
// Playwright's page.routeFromHAR(har, {notFound: 'abort'}) and returns what
// the script prints: the JSON of the fetches it makes there.
const routeFromHARScript = `
const { createRequire } = require('node:module');
const { chromium } = createRequire(process.env.COMPAT_DIR + '/package.json')('playwright-core');
(async () => {
  const browser = await chromium.connectOverCDP(process.env.CDP_URL);
  const context = browser.contexts()[0];
  const page = await context.newPage();
  await page.routeFromHAR(process.env.HAR, { notFound: 'abort' });
  const resp = await page.goto(process.env.PAGE_URL);
  const out = await page.evaluate(async () => ({
    only: await fetch('/api/only-in-har').then(r => r.text()),
    echo: await fetch('/echo?x=har1').then(r => r.json()).then(j => j.x),
    missing: await fetch('/api/not-recorded').then(() => 'loaded', () => 'aborted'),
    title: document.title,
  }));
  out.status = resp.status();
  console.log(JSON.stringify(out));
  await page.close();
  await browser.close();
})().catch(e => { console.error(e); process.exit(1); });
`

// TestNetworkHARRoundTrip: requests captured with bodies (one of them
// answered by a stub, so only the HAR has it) are written as HAR 1.2;
// Playwright's routeFromHAR loads the page from that file; our own
// network_replay_har serves it back; a file that is not HAR 1.2 is
// HAR_INVALID with the path of the first problem.
func TestNetworkHARRoundTrip(t *testing.T) {
	node, compat := playwrightNode(t)
	e := newEnv(t, Config{AllowEvalRenderer: true})
	b := chromiumtest.Start(t.Context(), t)
	if _, err := b.NewPage(t.Context(), e.app.URL("a.test", "/second.html")); err != nil {
		t.Fatal(err)
	}
	e.ok("electron_attach", map[string]any{"cdpUrl": b.HTTPURL})
	// Act in the fixture's window, not Chromium's new tab page (browser
	// UI, which the network tools leave alone).
	for _, x := range e.ok("electron_surfaces_list", nil)["surfaces"].([]any) {
		if m := x.(map[string]any); strings.HasSuffix(m["url"].(string), "/second.html") {
			e.use(m)
		}
	}
	e.ok("network_stub", map[string]any{"urls": []string{"/api/only-in-har"}, "contentType": "application/json", "body": `{"from":"har"}`})
	e.ok("network_capture_start", map[string]any{"captureBodies": true})
	pageURL := e.app.URL("a.test", "/index.html")
	e.ok("electron_navigate", map[string]any{"url": pageURL})
	e.waitEval("document.readyState === 'complete'")
	if got := e.eval(`Promise.all([fetch('/api/only-in-har').then(r => r.text()), fetch('/echo?x=har1').then(r => r.text())]).then(a => a.join('|'))`); !strings.HasPrefix(got.(string), `{"from":"har"}|`) {
		t.Fatalf("fetches: %v", got)
	}
	e.netEvents(nil, "the page and its fetches", func(evs []map[string]any) bool {
		doc := withURL(evs, "/index.html")
		return doc != nil && doc["responseBody"] != nil && withURL(evs, "/api/only-in-har") != nil && withURL(evs, "x=har1") != nil
	})
	e.ok("network_unstub", nil)
	harPath := filepath.Join(t.TempDir(), "round.har")
	r := e.ok("network_export_har", map[string]any{"path": harPath})
	if num(r["entry_count"]) < 3 || r["path"] != harPath {
		t.Fatalf("export: %v", r)
	}
	raw, err := os.ReadFile(harPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Log struct {
			Version string `json:"version"`
			Entries []struct {
				Request struct {
					URL string `json:"url"`
				} `json:"request"`
				Response struct {
					Status  int `json:"status"`
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"response"`
			} `json:"entries"`
		} `json:"log"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || doc.Log.Version != "1.2" {
		t.Fatalf("not HAR 1.2: %v %s", err, raw[:min(len(raw), 300)])
	}

	// Playwright replays it.
	out := runNodeScript(t, node, "route.cjs", routeFromHARScript, 2*time.Minute,
		"COMPAT_DIR="+compat, "CDP_URL="+b.HTTPURL, "HAR="+harPath, "PAGE_URL="+pageURL)
	var got map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(string(out))), &got); err != nil {
		t.Fatalf("routeFromHAR output %q: %v", out, err)
	}
	if got["only"] != `{"from":"har"}` || got["echo"] != "har1" || got["missing"] != "aborted" || num(got["status"]) != 200 || got["title"] == "" {
		t.Fatalf("routeFromHAR did not load the page from our HAR: %v", got)
	}

	// And back: our replay serves it.
	e.ok("network_capture_stop", nil)
	r = e.ok("network_replay_har", map[string]any{"path": harPath, "notFound": "abort"})
	if num(r["entry_count"]) < 3 || r["id"] == "" {
		t.Fatalf("replay: %v", r)
	}
	if got := e.eval(`fetch('/api/only-in-har').then(r => r.text())`); got != `{"from":"har"}` {
		t.Fatalf("replay: %v", got)
	}
	if got := e.eval(`fetch('/api/not-recorded').then(() => 'loaded', () => 'aborted')`); got != "aborted" {
		t.Fatalf("replay notFound abort: %v", got)
	}
	e.ok("network_unstub", map[string]any{"id": r["id"]})
	e.ok("network_replay_har", map[string]any{"path": harPath, "notFound": "fallback"})
	if got := e.eval(`fetch('/api/not-recorded').then(r => r.status, () => 'aborted')`); num(got) != 404 {
		t.Fatalf("replay notFound fallback: %v", got)
	}
	e.ok("network_unstub", nil)

	bad := filepath.Join(t.TempDir(), "bad.har")
	_ = os.WriteFile(bad, []byte(`{"log":{"version":"1.2","entries":[{"request":{"method":"GET","url":"http://a.test/"},"response":{"status":200,"headers":[],"content":{}}},{"request":{"method":"GET"}}]}}`), 0o600)
	m := e.fails("network_replay_har", map[string]any{"path": bad}, "HAR_INVALID")
	if d, _ := m["details"].(map[string]any); d["path"] != "$.log.entries[1].request.url" {
		t.Fatalf("HAR_INVALID names the path: %v", m)
	}
	_ = os.WriteFile(bad, []byte(`{"log":{"version":"1.1","entries":[]}}`), 0o600)
	e.fails("network_replay_har", map[string]any{"path": bad}, "HAR_INVALID")
	e.fails("network_replay_har", map[string]any{"path": filepath.Join(os.TempDir(), "no-such.har")}, "FILE_NOT_FOUND")
	e.fails("network_export_har", map[string]any{"path": "/etc/understudy-test.har"}, "PATH_NOT_ALLOWED")
}

// runNodeScript writes a Node script (named name) into a temporary folder,
// runs it with env added to this process's, and returns its stdout; it
// fails the test with stdout and stderr when the script fails or outlives
// timeout.
func runNodeScript(t *testing.T, node, name, script string, timeout time.Duration, env ...string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, path)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("%s: %v\n%s\n%s", name, err, out, stderr)
	}
	return out
}
