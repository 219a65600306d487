package tool

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// recordHARScript records two HARs with Playwright's recordHar in new
// contexts of the browser at CDP_URL: HAR with content 'attach' (bodies in
// files next to it) and ZIP (a zip holding the HAR and its bodies).
const recordHARScript = `
const { createRequire } = require('node:module');
const { chromium } = createRequire(process.env.COMPAT_DIR + '/package.json')('playwright-core');
(async () => {
  const browser = await chromium.connectOverCDP(process.env.CDP_URL);
  for (const [path, content] of [[process.env.HAR, 'attach'], [process.env.ZIP, undefined]]) {
    const context = await browser.newContext({ recordHar: { path, content } });
    const page = await context.newPage();
    await page.goto(process.env.PAGE_URL, { waitUntil: 'domcontentloaded', timeout: 120000 });
    await page.evaluate(() => fetch('/echo?x=recorded').then(r => r.text()));
    await context.close();
  }
  await browser.close();
})().catch(e => { console.error(e); process.exit(1); });
`

// TestNetworkReplayPlaywrightHARFiles: HARs recorded by real Playwright
// with their bodies in side files (content 'attach', and a .zip) are
// replayed by network_replay_har: the recorded body comes from the side
// file, a request the HAR lacks is aborted.
func TestNetworkReplayPlaywrightHARFiles(t *testing.T) {
	node, compat := playwrightNode(t)
	e := newEnv(t, Config{AllowEvalRenderer: true})
	b := chromiumtest.Start(t.Context(), t)
	pageURL := e.app.URL("a.test", "/second.html")
	dir := t.TempDir()
	harPath, zipPath := filepath.Join(dir, "attach", "rec.har"), filepath.Join(dir, "rec.zip")
	runNodeScript(t, node, "record.cjs", recordHARScript, 3*time.Minute,
		"COMPAT_DIR="+compat, "CDP_URL="+b.HTTPURL, "HAR="+harPath, "ZIP="+zipPath, "PAGE_URL="+pageURL)
	// The HAR keeps the echo's body in a side file, not inline.
	raw, err := os.ReadFile(harPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Log struct {
			Entries []struct {
				Request struct {
					URL string `json:"url"`
				} `json:"request"`
				Response struct {
					Content struct {
						Text string `json:"text"`
						File string `json:"_file"`
					} `json:"content"`
				} `json:"response"`
			} `json:"entries"`
		} `json:"log"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var want, sideName string
	for _, en := range doc.Log.Entries {
		if strings.Contains(en.Request.URL, "/echo?x=recorded") {
			if en.Response.Content.File == "" || en.Response.Content.Text != "" {
				t.Fatalf("Playwright did not attach the body in a side file: %+v", en.Response.Content)
			}
			side, err := os.ReadFile(filepath.Join(filepath.Dir(harPath), filepath.FromSlash(en.Response.Content.File)))
			if err != nil {
				t.Fatal(err)
			}
			want, sideName = string(side), en.Response.Content.File
		}
	}
	if !strings.Contains(want, "recorded") {
		t.Fatalf("no recorded echo in the HAR (body %q): %s", want, raw[:min(len(raw), 400)])
	}

	if _, err := b.NewPage(t.Context(), e.app.URL("a.test", "/second.html")); err != nil {
		t.Fatal(err)
	}
	e.ok("electron_attach", map[string]any{"cdpUrl": b.HTTPURL})
	for _, x := range e.ok("electron_surfaces_list", nil)["surfaces"].([]any) {
		if m := x.(map[string]any); strings.HasSuffix(m["url"].(string), "/second.html") {
			e.use(m)
		}
	}
	for _, path := range []string{harPath, zipPath} {
		r := e.ok("network_replay_har", map[string]any{"path": path, "notFound": "abort"})
		if num(r["entry_count"]) < 2 {
			t.Fatalf("%s: replay: %v", path, r)
		}
		if got := e.eval(`fetch('/echo?x=recorded').then(r => r.text())`); got != want {
			t.Fatalf("%s: replayed body %q, want the side file's %q", path, got, want)
		}
		if got := e.eval(`fetch('/echo?x=not-recorded').then(() => 'loaded', () => 'aborted')`); got != "aborted" {
			t.Fatalf("%s: a request the HAR lacks: %v", path, got)
		}
		e.ok("network_unstub", nil)
	}
	// A side file that is gone is a coded error naming where the HAR named it.
	if err := os.Remove(filepath.Join(filepath.Dir(harPath), filepath.FromSlash(sideName))); err != nil {
		t.Fatal(err)
	}
	if m := e.fails("network_replay_har", map[string]any{"path": harPath}, "FILE_NOT_FOUND"); !strings.Contains(mustJSON(m), "har_path") {
		t.Fatalf("missing side file: %v", m)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
