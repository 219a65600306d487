package tool

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture/npmtest"
)

// compatDir holds the pinned npm clients (playwright-core, @playwright/test).
var compatDir, _ = filepath.Abs(filepath.Join("..", "relay", "compat"))

// compatNPM installs the pinned clients from the relay's lockfile; the
// relay's tests share the folder (npmtest locks it).
var compatNPM = &npmtest.Folder{Dir: compatDir}

// requirePlaywrightTest returns node after making sure @playwright/test is
// installed from the committed lockfile (npm ci). Without node the test is
// skipped, or fails with CI=true.
func requirePlaywrightTest(t *testing.T) string {
	t.Helper()
	return compatNPM.Require(t)
}

// runPlaywrightTest runs one generated spec with Playwright Test and
// returns its output and whether it passed.
func runPlaywrightTest(t *testing.T, node, dir, spec, relay string) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(compatDir, "node_modules", "@playwright", "test", "cli.js"),
		"test", "--config", filepath.Join(dir, "playwright.config.mjs"), "--reporter=line", filepath.Base(spec))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "UNDERSTUDY_RELAY="+relay, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1", "FORCE_COLOR=0")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("playwright test did not finish: %s", out)
	}
	return string(out), err == nil
}

// orderFlow runs the agent's flow on the nested OOPIF's order form (top →
// cross1 → cross2): type, select, check, click, expect, plus one failing
// call. It returns the refs it used.
func (e *env) orderFlow() {
	e.t.Helper()
	s := e.topSurfaces()
	e.use(s["cross2"])
	refOf := func(role, name string) int {
		m := e.ok("electron_find", map[string]any{"role": role, "name_exact": name})
		ms, _ := m["matches"].([]any)
		if len(ms) != 1 {
			e.t.Fatalf("find %s %q: %v", role, name, m)
		}
		return num(ms[0].(map[string]any)["ref"])
	}
	qty, size, gift, order := refOf("textbox", "Quantity"), refOf("combobox", "Size"), refOf("checkbox", "Gift"), refOf("button", "Order")
	e.ok("electron_type", map[string]any{"ref": qty, "text": "3"})
	e.ok("electron_select_option", map[string]any{"ref": size, "values": []string{"l"}})
	e.ok("electron_check", map[string]any{"ref": gift})
	e.ok("electron_click", map[string]any{"ref": order})
	e.ok("electron_expect_text", map[string]any{"selector": "#result", "equals": "Ordered 3 x l (gift)"})
	e.fails("electron_click", map[string]any{"selector": "#no-such-button", "timeoutMs": 300}, "SELECTOR_NO_MATCH")
}

// topSurfaces waits for the top page and its nested OOPIF and returns them
// by name (top, cross2).
func (e *env) topSurfaces() map[string]map[string]any {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		r := e.ok("electron_surfaces_list", nil)
		out := map[string]map[string]any{}
		for _, s := range r["surfaces"].([]any) {
			m := s.(map[string]any)
			u, _ := m["url"].(string)
			if strings.HasSuffix(u, "/index.html") {
				out["top"] = m
			}
			if strings.HasSuffix(u, "/cross2.html") && m["capabilities"].(map[string]any)["snapshot"] == true {
				out["cross2"] = m
			}
		}
		if len(out) == 2 {
			return out
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("the top page and cross2 never showed: %v", r)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// reloadTop loads the top page again (fresh form state) and waits for the
// frames.
func (e *env) reloadTop() {
	e.t.Helper()
	top := e.topSurfaces()["top"]
	e.use(top)
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/index.html")})
	e.topSurfaces()
}

func TestTraceRecordViewExportReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: drives Chromium and Playwright")
	}
	node := requirePlaywrightTest(t)
	gen, err := os.MkdirTemp(compatDir, ".generated-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(gen) })
	if err := os.WriteFile(filepath.Join(gen, "playwright.config.mjs"), []byte("export default { testDir: '.', outputDir: './results', timeout: 90000, workers: 1, expect: { timeout: 10000 }, use: { actionTimeout: 15000 } };\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Config{FileRoots: []string{os.TempDir(), compatDir}})
	e.launch("/index.html")
	dir := filepath.Join(t.TempDir(), "flow.trace")

	started := e.ok("trace_start", map[string]any{"path": dir, "screenshots": true})
	if started["recording"] != true || started["path"] != dir {
		t.Fatalf("trace_start: %v", started)
	}
	e.fails("trace_start", map[string]any{"path": dir + "2"}, "TRACE_ALREADY_RECORDING")
	e.orderFlow()
	status := e.ok("trace_status", nil)
	if status["recording"] != true || num(status["step_count"]) < 10 {
		t.Fatalf("trace_status: %v", status)
	}
	stopped := e.ok("trace_stop", nil)
	steps := num(stopped["step_count"])
	if steps != num(status["step_count"]) || num(stopped["spent_tokens"]) <= 0 {
		t.Fatalf("trace_stop: %v (status %v)", stopped, status)
	}
	e.fails("trace_stop", nil, "TRACE_NOT_RECORDING")

	// The summary: every step, the failure, tokens per tool.
	view := e.ok("trace_view", map[string]any{"path": dir})
	if view["complete"] != true || num(view["calls"]) != steps || num(view["failures"]) != 1 {
		t.Fatalf("trace_view: %v", view)
	}
	tokens := e.ok("trace_tokens", map[string]any{"path": dir})
	if num(tokens["total_estimated_tokens"]) != num(stopped["spent_tokens"]) || len(tokens["per_tool"].([]any)) < 5 {
		t.Fatalf("trace_tokens: %v vs %v", tokens, stopped)
	}

	// The Playwright test: green on the flow as it is.
	relay := e.ok("electron_relay_endpoint", nil)["http_url"].(string)
	spec := filepath.Join(gen, "flow.spec.ts")
	ex := e.ok("trace_export_playwright", map[string]any{"path": dir, "out": spec, "name": "order flow"})
	src, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`.frameLocator("#cross1").frameLocator("#cross2").getByRole("textbox", { name: "Quantity", exact: true }).fill("3")`,
		`getByRole("combobox", { name: "Size", exact: true }).selectOption(["l"])`,
		`await expect(page1.frameLocator("#cross1").frameLocator("#cross2").getByRole("checkbox", { name: "Gift", exact: true })).toBeChecked({ checked: true })`,
		`await clickInFrames(page1, ["#cross1", "#cross2"], page1.frameLocator("#cross1").frameLocator("#cross2").getByRole("button", { name: "Order", exact: true }), {  });`,
		`await expect(page1.frameLocator("#cross1").frameLocator("#cross2").locator("#result")).toHaveText("Ordered 3 x l (gift)")`,
	} {
		if !strings.Contains(string(src), want) {
			t.Fatalf("the generated test lacks %s:\n%s", want, src)
		}
	}
	if num(ex["actions"]) != 4 || num(ex["assertions"]) != 2 || len(ex["skipped"].([]any)) != 1 {
		t.Fatalf("export: %v\n%s", ex, src)
	}
	e.reloadTop()
	if out, ok := runPlaywrightTest(t, node, gen, spec, relay); !ok {
		t.Fatalf("the generated test failed on the unchanged app:\n%s\n%s", out, src)
	}
	// It really drove the app: the form in the nested OOPIF shows the order.
	e.use(e.topSurfaces()["cross2"])
	e.ok("electron_expect_text", map[string]any{"selector": "#result", "equals": "Ordered 3 x l (gift)"})

	// Replay through our own tools: the same outcomes, step by step.
	e.reloadTop()
	rep := e.ok("trace_replay", map[string]any{"path": dir})
	if rep["passed"] != true || num(rep["replayed"]) != steps {
		t.Fatalf("trace_replay on the unchanged app: %v", toJSON(rep))
	}

	// The fixture changes: the Order button is now "Buy". The replay
	// names the first differing step and the Playwright test fails.
	e.app.Mount("/cross2.html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Cross 2</title><form id="order" onsubmit="event.preventDefault(); document.getElementById('result').textContent = 'Bought'">
<input id="qty" aria-label="Quantity"><select id="size" aria-label="Size"><option value="s">Small</option><option value="l">Large</option></select>
<label><input type="checkbox" id="gift"> Gift</label><button type="submit">Buy</button></form><output id="result"></output>`)
	}))
	e.reloadTop()
	rep = e.ok("trace_replay", map[string]any{"path": dir})
	first, _ := rep["first_difference"].(map[string]any)
	if rep["passed"] != false || first == nil || first["tool"] != "electron_click" || !strings.Contains(fmt.Sprint(first["why"]), `"Order"`) {
		t.Fatalf("trace_replay on the changed app: %v", toJSON(rep))
	}
	e.reloadTop()
	out, ok := runPlaywrightTest(t, node, gen, spec, relay)
	if ok || !strings.Contains(out, `name: 'Order'`) && !strings.Contains(out, `name: "Order"`) {
		t.Fatalf("the generated test should fail on the Order button of the changed app:\n%s", out)
	}

	// The HTML report opens from disk with no server: load it in Chromium
	// and read it.
	rv := e.ok("trace_view", map[string]any{"path": dir, "html": true})
	html := rv["html_path"].(string)
	e.use(e.topSurfaces()["top"])
	e.ok("electron_navigate", map[string]any{"url": "file://" + html})
	text := e.ok("electron_get_text", map[string]any{"selector": "body"})["text"].(string)
	for _, want := range []string{fmt.Sprintf("%d calls", steps), "1 failed", "SELECTOR_NO_MATCH", "electron_select_option", "Timeline", `checkbox "Gift"`} {
		if !strings.Contains(text, want) {
			t.Fatalf("the report lacks %q:\n%s", want, text)
		}
	}
	e.ok("electron_expect_count", map[string]any{"selector": "details.step.fail", "equals": 1})
	e.ok("electron_expect_count", map[string]any{"selector": "#timeline span", "equals": steps})
	// Screenshots after the actions are inlined and render.
	box := e.ok("electron_get_bbox", map[string]any{"selector": "img"})
	bb, _ := box["bbox"].(map[string]any)
	if vp, _ := bb["viewport"].(map[string]any); vp == nil || num(vp["width"]) < 100 {
		t.Fatalf("the first screenshot does not render: %v", box)
	}
}

func TestTraceBudgetEnforcedAndKilledTraceOpens(t *testing.T) {
	if testing.Short() {
		t.Skip("drives Chromium; skipped under -short")
	}
	e := newEnv(t, Config{})
	e.launch("/index.html")
	dir := filepath.Join(t.TempDir(), "budget.trace")
	e.fails("trace_start", map[string]any{"enforce": true}, "BAD_ARGUMENT")
	e.ok("trace_start", map[string]any{"path": dir, "budgetTokens": 100, "enforce": true, "warnThreshold": 0.5})
	e.ok("electron_snapshot", map[string]any{"format": "json"}) // far more than 100 tokens: it runs, the next call does not
	b := e.ok("trace_budget", nil)["budget"].(map[string]any)
	if b["over_budget"] != true || b["near_budget"] != true || num(b["spent"]) <= 100 || num(b["remaining"]) != 0 {
		t.Fatalf("trace_budget: %v", b)
	}
	m := e.fails("electron_get_text", map[string]any{"selector": "h1"}, "TRACE_BUDGET_EXCEEDED")
	if na, _ := m["next_actions"].([]any); len(na) == 0 {
		t.Fatalf("no next_actions: %v", m)
	}
	live := e.ok("trace_tokens", nil)
	if live["live"] != true || num(live["total_estimated_tokens"]) != num(b["spent"])+num(m["_meta"].(map[string]any)["estimated_tokens"]) {
		t.Fatalf("trace_tokens (live): %v, budget %v", live, b)
	}
	// The server goes away without trace_stop: the trace still opens and
	// says where it stopped.
	view := e.ok("trace_view", map[string]any{"path": dir})
	if view["complete"] != false || num(view["stopped_after"]) != 2 || !strings.Contains(fmt.Sprint(view["note"]), "after step 2") {
		t.Fatalf("trace_view of a trace still recording: %v", view)
	}
	e.ok("trace_stop", nil)
	e.ok("electron_get_text", map[string]any{"selector": "h1"}) // no trace, no budget
	// Bad input: outside the roots, not a trace, a corrupt step.
	e.fails("trace_view", map[string]any{"path": "/etc"}, "PATH_NOT_ALLOWED")
	e.fails("trace_view", map[string]any{"path": t.TempDir()}, "TRACE_NOT_FOUND")
	if err := os.WriteFile(filepath.Join(dir, "steps", "000001.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.fails("trace_view", map[string]any{"path": dir}, "TRACE_INVALID")
	e.fails("trace_export_playwright", map[string]any{"path": dir, "out": "x.txt"}, "BAD_ARGUMENT")
}

// TestTraceReplayRefInOtherSurface: refs of the nested cross-site OOPIF
// (cross2) used while the top page is the active surface (found with
// surfaces:"all", acted on where they point) are found again by role and
// name in the cross2 of the new run, and the replay acts there.
func TestTraceReplayRefInOtherSurface(t *testing.T) {
	if testing.Short() {
		t.Skip("drives Chromium; skipped under -short")
	}
	e := newEnv(t, Config{})
	e.launch("/index.html")
	s := e.topSurfaces()
	e.use(s["top"])
	refIn := func(role, name string) int {
		m := e.ok("electron_find", map[string]any{"role": role, "name_exact": name, "surfaces": "all"})
		ms, _ := m["matches"].([]any)
		if len(ms) != 1 || ms[0].(map[string]any)["surface_id"] != s["cross2"]["id"] {
			t.Fatalf("find %s %q in every surface: %v", role, name, m)
		}
		return num(ms[0].(map[string]any)["ref"])
	}
	dir := filepath.Join(t.TempDir(), "oopif.trace")
	e.ok("trace_start", map[string]any{"path": dir})
	qty, order := refIn("textbox", "Quantity"), refIn("button", "Order")
	e.ok("electron_type", map[string]any{"ref": qty, "text": "7"})
	e.ok("electron_click", map[string]any{"ref": order})
	e.ok("trace_stop", nil)
	e.use(s["cross2"])
	e.ok("electron_expect_text", map[string]any{"selector": "#result", "equals": "Ordered 7 x s"})

	// A fresh page (new surface ids, new refs, an empty form): the replay
	// finds both refs in the new cross2, with the top page active.
	e.reloadTop()
	rep := e.ok("trace_replay", map[string]any{"path": dir})
	if rep["passed"] != true || num(rep["replayed"]) != 4 {
		t.Fatalf("trace_replay of refs in the nested OOPIF: %v", toJSON(rep))
	}
	now := e.topSurfaces()
	for _, i := range []int{2, 3} {
		st := rep["step_list"].([]any)[i].(map[string]any)
		res, _ := st["resolved"].([]any)
		if len(res) != 1 || !strings.Contains(fmt.Sprint(res[0]), "in "+now["cross2"]["id"].(string)) {
			t.Fatalf("step %d was not re-resolved in the new cross2 (%v): %v", i, now["cross2"]["id"], st)
		}
	}
	// The replay acted where the refs pointed; the selection stayed on top.
	for _, x := range e.ok("electron_surfaces_list", nil)["surfaces"].([]any) {
		if m := x.(map[string]any); m["active"] == true && m["id"] != now["top"]["id"] {
			t.Fatalf("the replay moved the selection to %v", m)
		}
	}
	e.use(now["cross2"])
	e.ok("electron_expect_text", map[string]any{"selector": "#result", "equals": "Ordered 7 x s"})
}
