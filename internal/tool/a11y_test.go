package tool

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/a11y/axetest"
)

func TestA11yEngineMissing(t *testing.T) {
	e := newEnv(t, Config{AxeCore: filepath.Join(t.TempDir(), "nope", "axe.min.js")})
	e.launch("/index.html")
	r := e.fails("a11y_audit", nil, "A11Y_ENGINE_MISSING")
	if !strings.Contains(r["hint"].(string), "--axe-core") {
		t.Fatalf("the hint does not say how to install axe-core: %v", r)
	}
	e.fails("a11y_audit", map[string]any{"rules": []any{"image-alt"}, "tags": []any{"wcag2a"}}, "BAD_ARGUMENT")
	e.fails("a11y_audit", map[string]any{"impactMin": "huge"}, "BAD_ARGUMENT")
	e.fails("a11y_audit", map[string]any{"surfaces": "some"}, "BAD_ARGUMENT")
}

// a11yEnv attaches (through the Electron-shaped proxy) to a Chromium that
// shows the surface fixture and a webview guest, with axe-core configured,
// and plants violations in the nested OOPIF (cross2) and the guest.
func a11yEnv(t *testing.T) (*env, map[string]map[string]any) {
	t.Helper()
	e, s := surfaceEnvWith(t, Config{AllowEvalRenderer: true, AxeCore: axetest.Path(t)})
	e.use(s["cross2"])
	e.eval(`(() => { const i = document.createElement('img'); i.id = 'noalt'; i.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw='; i.width = 20; i.height = 20; document.body.appendChild(i);
	  const b = document.createElement('button'); b.id = 'nameless'; document.body.appendChild(b); return true; })()`)
	e.use(s["guest"])
	e.eval(`(() => { const i = document.createElement('input'); i.id = 'unlabelled'; document.body.appendChild(i); return true; })()`)
	return e, s
}

// a11yNodes lists rule → selectors of a result's violations in surface id.
func a11yNodes(r map[string]any, surfaceID string) map[string][]string {
	out := map[string][]string{}
	for _, v := range r["violations"].([]any) {
		f := v.(map[string]any)
		for _, n := range f["nodes"].([]any) {
			nd := n.(map[string]any)
			if nd["surface_id"] != surfaceID {
				continue
			}
			var sel []string
			for _, s := range nd["selector"].([]any) {
				sel = append(sel, s.(string))
			}
			out[f["rule"].(string)] = append(out[f["rule"].(string)], strings.Join(sel, " >>> "))
		}
	}
	for k := range out {
		sort.Strings(out[k])
	}
	return out
}

func findRule(r map[string]any, rule string) map[string]any {
	for _, v := range r["violations"].([]any) {
		if f := v.(map[string]any); f["rule"] == rule {
			return f
		}
	}
	return nil
}

func TestA11yAudit(t *testing.T) {
	if testing.Short() {
		t.Skip("drives Chromium; skipped under -short")
	}
	e, s := a11yEnv(t)
	cross2, guest, top := s["cross2"]["id"].(string), s["guest"]["id"].(string), s["top"]["id"].(string)

	// One surface by id, the nested OOPIF, without switching to it.
	e.use(s["top"])
	r := e.ok("a11y_audit", map[string]any{"surfaceId": cross2})
	if r["surface_id"] != cross2 || r["engine"].(map[string]any)["version"] == "" {
		t.Fatalf("audit of cross2: %v", r)
	}
	img := findRule(r, "image-alt")
	if img == nil || img["impact"] != "critical" || !strings.Contains(img["help_url"].(string), "dequeuniversity.com") || len(img["wcag"].([]any)) == 0 {
		t.Fatalf("no image-alt violation in cross2: %v", r)
	}
	node := img["nodes"].([]any)[0].(map[string]any)
	if node["surface_id"] != cross2 || num(node["ref"]) == 0 || node["selector"].([]any)[0] != "#noalt" {
		t.Fatalf("image-alt node: %v", node)
	}
	// The ref acts where it points (routed to cross2) with top still active.
	if at := e.ok("electron_get_attribute", map[string]any{"ref": num(node["ref"]), "name": "id"}); at["value"] != "noalt" {
		t.Fatalf("the ref did not name cross2's image: %v", at)
	}
	if findRule(r, "button-name") == nil {
		t.Fatalf("no button-name violation in cross2: %v", r)
	}

	// The webview guest, as the active surface.
	e.use(s["guest"])
	g := e.ok("a11y_audit", map[string]any{"tags": []any{"wcag2a"}})
	if g["surface_id"] != guest || findRule(g, "label") == nil {
		t.Fatalf("guest audit: %v", g)
	}
	for _, v := range g["violations"].([]any) {
		tags := v.(map[string]any)["rule_tags"].([]any)
		if !strings.Contains(strings.Join(strAll(tags), " "), "wcag2a") {
			t.Fatalf("tags:[wcag2a] returned a rule without the tag: %v", v)
		}
	}

	// Every surface of the top window at once: cross2's nodes come with
	// their surface and refs.
	e.use(s["top"])
	all := e.ok("a11y_audit", map[string]any{"surfaces": "all", "maxNodesPerViolation": 50})
	if all["surface_id"] != top || len(all["audited"].([]any)) < 6 {
		t.Fatalf("surfaces:all audited %v", all["audited"])
	}
	if n := a11yNodes(all, cross2)["image-alt"]; len(n) != 1 || n[0] != "#noalt" {
		t.Fatalf("surfaces:all lost cross2's image-alt: %v", a11yNodes(all, cross2))
	}

	// Filters: an impact floor, include/exclude, exact rules.
	crit := e.ok("a11y_audit", map[string]any{"surfaceId": cross2, "impactMin": "critical"})
	for _, v := range crit["violations"].([]any) {
		if v.(map[string]any)["impact"] != "critical" {
			t.Fatalf("impactMin critical returned %v", v)
		}
	}
	only := e.ok("a11y_audit", map[string]any{"surfaceId": cross2, "rules": []any{"image-alt"}, "noIncomplete": true})
	if v := only["violations"].([]any); len(v) != 1 || v[0].(map[string]any)["rule"] != "image-alt" {
		t.Fatalf("rules:[image-alt]: %v", only)
	}
	ex := e.ok("a11y_audit", map[string]any{"surfaceId": cross2, "rules": []any{"image-alt"}, "exclude": []any{"#noalt"}})
	if len(ex["violations"].([]any)) != 0 {
		t.Fatalf("exclude #noalt still reports it: %v", ex)
	}
	inc := e.ok("a11y_audit", map[string]any{"surfaceId": cross2, "include": []any{"#order"}})
	if findRule(inc, "image-alt") != nil {
		t.Fatalf("include #order reports an image outside it: %v", inc)
	}

	// Bad input.
	u := e.fails("a11y_audit", map[string]any{"surfaceId": cross2, "rules": []any{"image-alt", "no-such-rule"}}, "A11Y_UNKNOWN_RULE")
	if !strings.Contains(u["error"].(string), "no-such-rule") {
		t.Fatalf("unknown rule: %v", u)
	}
	e.fails("a11y_audit", map[string]any{"tags": []any{"wcag9zzz"}}, "BAD_ARGUMENT")
	e.fails("a11y_audit", map[string]any{"include": []any{"[[["}}, "BAD_ARGUMENT")
	e.fails("a11y_audit", map[string]any{"include": []any{"#not-here"}}, "SELECTOR_NO_MATCH")

	// Per-rule options, axe's own: image-alt off, the other rules still run.
	off := e.ok("a11y_audit", map[string]any{"surfaceId": cross2, "rules": map[string]any{"image-alt": map[string]any{"enabled": false}}})
	if findRule(off, "image-alt") != nil || findRule(off, "button-name") == nil {
		t.Fatalf("rules {image-alt: {enabled: false}}: %v", off)
	}
	u = e.fails("a11y_audit", map[string]any{"surfaceId": cross2, "rules": map[string]any{"no-such-rule": map[string]any{"enabled": false}}}, "A11Y_UNKNOWN_RULE")
	if !strings.Contains(u["error"].(string), "no-such-rule") {
		t.Fatalf("unknown rule in rule options: %v", u)
	}
	e.fails("a11y_audit", map[string]any{"rules": map[string]any{"image-alt": map[string]any{"on": false}}}, "BAD_ARGUMENT")
	e.fails("a11y_audit", map[string]any{"rules": "image-alt"}, "BAD_ARGUMENT")

	// The engine runs in an isolated world: a page with its own window.axe
	// and an Array.prototype.reduce that throws (axe-core calls it) is
	// audited all the same, and the page sees neither a change to its
	// window.axe nor anything of the engine's.
	e.use(s["second"])
	e.eval(`(() => { window.axe = 1; Array.prototype.reduce = function () { throw new Error('the page broke reduce'); };
	  const i = document.createElement('img'); i.id = 'noalt2'; i.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw='; i.width = 20; i.height = 20; document.body.appendChild(i); return true; })()`)
	iso := e.ok("a11y_audit", nil)
	if n := a11yNodes(iso, s["second"]["id"].(string))["image-alt"]; len(n) != 1 || n[0] != "#noalt2" {
		t.Fatalf("audit of a page with its own window.axe and a broken reduce: %v", iso)
	}
	if v := e.eval(`[typeof window.axe, String(window.axe), Symbol.for('understudy.axe') in window, Symbol.for('understudy.axe.job') in window].join(' ')`); v != "number 1 false false" {
		t.Fatalf("the page's main world after the audit: %v", v)
	}

	// axe-core run directly in the page through the relay (Playwright, not
	// our engine) finds the same violations on the same nodes, in the top
	// page and in the nested OOPIF.
	node2 := requirePlaywrightTest(t)
	relay := e.ok("electron_relay_endpoint", nil)["http_url"].(string)
	direct := axeThroughRelay(t, node2, relay, axetest.Path(t), []string{"/index.html", "/cross2.html"})
	for i, id := range []string{top, cross2} {
		ours := a11yNodes(all, id)
		if len(ours) == 0 && i == 1 {
			t.Fatalf("no violations of ours in %s", id)
		}
		if !equalNodes(ours, direct[i]) {
			t.Fatalf("surface %s: ours %v, axe-core through the relay %v", id, ours, direct[i])
		}
	}
}

func strAll(v []any) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i], _ = x.(string)
	}
	return out
}

func equalNodes(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if strings.Join(v, "\n") != strings.Join(b[k], "\n") {
			return false
		}
	}
	return true
}

const axeDirectJS = `
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
const [relay, axePath, ...suffixes] = process.argv.slice(2);
const src = readFileSync(axePath, 'utf8');
const browser = await chromium.connectOverCDP(relay);
const out = [];
for (const suffix of suffixes) {
  let frame = null;
  for (const ctx of browser.contexts()) for (const p of ctx.pages()) for (const f of p.frames()) if (!frame && f.url().endsWith(suffix)) frame = f;
  if (!frame) throw new Error('no frame ' + suffix);
  await frame.evaluate((s) => { (0, eval)(s); return true; }, src);
  const r = await frame.evaluate(async () => {
    const res = await window.axe.run(document, { iframes: false, resultTypes: ['violations'] });
    const m = {};
    for (const v of res.violations) m[v.id] = v.nodes.map((n) => { const t = n.target[n.target.length - 1]; return typeof t === 'string' ? t : t.join(' >>> '); }).sort();
    return m;
  });
  out.push(r);
}
console.log(JSON.stringify(out));
process.exit(0);
`

// axeThroughRelay runs axe-core in each frame (by URL suffix) through
// Playwright connected to the relay, and returns rule → node selectors.
func axeThroughRelay(t *testing.T, node, relay, axePath string, suffixes []string) []map[string][]string {
	t.Helper()
	script := filepath.Join(compatDir, ".generated-a11y-direct.mjs")
	if err := os.WriteFile(script, []byte(axeDirectJS), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Remove(script) })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{script, relay, axePath}, suffixes...)...)
	cmd.Dir = compatDir
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("axe-core through the relay: %v\n%s\n%s", err, out, stderr)
	}
	var res []map[string][]string
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("axe-core through the relay answered %s: %v", out, err)
	}
	return res
}
