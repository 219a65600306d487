package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// The task benchmark of issue 15, item 6 (in the spirit of stagewright's
// ADR-021 point 6): agent tasks on the fixture app, each a sequence of
// tool calls an agent makes (look, act, check), run through the real MCP
// server for each profile. It reports per profile and mode the tasks that
// succeeded, the calls, the response tokens (o200k BPE of every response's
// text) and the manifest tokens (tools/list of the profile). Frame tasks
// run two ways: "switch" (electron_surfaces_list, electron_switch_surface,
// find or snapshot, act, and a switch back to the window root so the next
// task finds the surface it expects) and "all" (surfaces:"all" finds or
// snapshots every surface at once and the ref acts where it points).
//
//	go test ./internal/tool -run '^$' -bench BenchmarkAgentTasks -benchtime 1x -v
//
// TestAgentTasks runs the full profile both ways and checks that every task
// succeeds and that surfaces:"all" at least halves each frame task's calls.

// agent is one scripted agent's connection to the server.
type agent struct {
	tb     testing.TB
	cs     *mcp.ClientSession
	app    *fixture.Server
	all    bool   // frame tasks use surfaces:"all"
	top    string // the window root's surface id
	calls  int
	tokens int // response tokens (o200k BPE)
}

// call runs one tool and counts it; a failure is an error.
func (a *agent) call(name string, args map[string]any) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	a.calls++
	res, err := a.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	// What the agent reads: every text block. A text snapshot comes as
	// plain text, then the envelope without it (mcp.go's textContent).
	enc, err := bpe()
	if err != nil {
		return nil, err
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
			a.tokens += len(enc.Encode(tc.Text, nil, nil))
		}
	}
	if len(texts) == 0 {
		return nil, fmt.Errorf("%s: no text", name)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(texts[len(texts)-1]), &m); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(texts) == 2 {
		m["snapshot_text"] = texts[0]
	}
	if m["ok"] != true {
		return m, fmt.Errorf("%s(%v): %v: %v", name, args, m["code"], m["error"])
	}
	return m, nil
}

// findRef finds one element by role and exact name (in every surface with
// all) and returns its ref.
func (a *agent) findRef(role, name string, all bool) (int, error) {
	args := map[string]any{"role": role, "name_exact": name}
	if all {
		args["surfaces"] = "all"
	}
	r, err := a.call("electron_find", args)
	if err != nil {
		return 0, err
	}
	ms, _ := r["matches"].([]any)
	if len(ms) == 0 {
		return 0, fmt.Errorf("find %s %q: no match", role, name)
	}
	return num(ms[0].(map[string]any)["ref"]), nil
}

// inFrame does what a frame task does in the surface whose URL ends with
// page: find the element (role, name), then act on its ref.
func (a *agent) inFrame(page, role, name string, act func(ref int) error) error {
	if a.all {
		ref, err := a.findRef(role, name, true)
		if err != nil {
			return err
		}
		return act(ref)
	}
	if err := a.switchTo(page); err != nil {
		return err
	}
	ref, err := a.findRef(role, name, false)
	if err != nil {
		return err
	}
	if err := act(ref); err != nil {
		return err
	}
	_, err = a.call("electron_switch_surface", map[string]any{"surfaceId": a.top})
	return err
}

// switchTo lists the surfaces and selects the one showing page.
func (a *agent) switchTo(page string) error {
	r, err := a.call("electron_surfaces_list", nil)
	if err != nil {
		return err
	}
	for _, s := range r["surfaces"].([]any) {
		s := s.(map[string]any)
		if u, _ := s["url"].(string); strings.HasSuffix(u, "/"+page) {
			_, err := a.call("electron_switch_surface", map[string]any{"surfaceId": s["id"]})
			return err
		}
	}
	return fmt.Errorf("no surface shows %s", page)
}

// agentTask is one task; frame tasks are the ones surfaces:"all" serves.
type agentTask struct {
	name  string
	frame bool
	run   func(a *agent) error
}

func expectIn(text, want string) error {
	if !strings.Contains(text, want) {
		return fmt.Errorf("expected %q in %.300q", want, text)
	}
	return nil
}

// agentTasks are the tasks, in the order they run in one session.
func agentTasks() []agentTask {
	click := func(a *agent) func(int) error {
		return func(ref int) error { _, err := a.call("electron_click", map[string]any{"ref": ref}); return err }
	}
	typ := func(a *agent, text string) func(int) error {
		return func(ref int) error {
			_, err := a.call("electron_type", map[string]any{"ref": ref, "text": text})
			return err
		}
	}
	status := func(a *agent, want string) error {
		r, err := a.call("electron_find", map[string]any{"role": "status"})
		if err != nil {
			return err
		}
		ms, _ := r["matches"].([]any)
		if len(ms) == 0 {
			return fmt.Errorf("no status")
		}
		_, err = a.call("electron_expect_text", map[string]any{"ref": num(ms[0].(map[string]any)["ref"]), "contains": want})
		return err
	}
	return []agentTask{
		{"click a button on the page", false, func(a *agent) error {
			ref, err := a.findRef("button", "Click top", false)
			if err != nil {
				return err
			}
			return click(a)(ref)
		}},
		{"fill a field on the page", false, func(a *agent) error {
			ref, err := a.findRef("textbox", "Input top", false)
			if err != nil {
				return err
			}
			return typ(a, "hello top")(ref)
		}},
		{"click in the frame two deep", true, func(a *agent) error {
			return a.inFrame("same2.html", "button", "Click same2", click(a))
		}},
		{"click in the nested cross-site frame", true, func(a *agent) error {
			return a.inFrame("cross2.html", "button", "Click cross2", click(a))
		}},
		{"fill a field in a cross-site frame", true, func(a *agent) error {
			return a.inFrame("cross1.html", "textbox", "Input cross1", typ(a, "hello cross1"))
		}},
		{"fill and submit a field in a frame", true, func(a *agent) error {
			return a.inFrame("same1.html", "textbox", "Input same1", func(ref int) error {
				if err := typ(a, "hello same1")(ref); err != nil {
					return err
				}
				_, err := a.call("electron_key", map[string]any{"ref": ref, "key": "Enter"})
				return err
			})
		}},
		{"read the nested cross-site frame", true, func(a *agent) error {
			if a.all {
				r, err := a.call("electron_snapshot", map[string]any{"surfaces": "all", "format": "text"})
				if err != nil {
					return err
				}
				return expectIn(r["snapshot_text"].(string), `button "Click cross2"`)
			}
			if err := a.switchTo("cross2.html"); err != nil {
				return err
			}
			r, err := a.call("electron_snapshot", map[string]any{"format": "text"})
			if err != nil {
				return err
			}
			if err := expectIn(r["snapshot_text"].(string), `button "Click cross2"`); err != nil {
				return err
			}
			_, err = a.call("electron_switch_surface", map[string]any{"surfaceId": a.top})
			return err
		}},
		{"open the large page", false, func(a *agent) error {
			_, err := a.call("electron_navigate", map[string]any{"url": a.app.URL("a.test", "/large.html")})
			return err
		}},
		{"read a table row", false, func(a *agent) error {
			r, err := a.call("electron_find", map[string]any{"role": "row", "name_contains": "Item 17 "})
			if err != nil {
				return err
			}
			return expectIn(toJSON(r["matches"]), "Grace")
		}},
		{"click a row's button", false, func(a *agent) error {
			r, err := a.call("electron_snapshot", map[string]any{"format": "text", "interactiveOnly": true})
			if err != nil {
				return err
			}
			m := regexp.MustCompile(`checkbox "Select Item 42" \[(\d+)\] button "Edit"`).FindStringSubmatch(r["snapshot_text"].(string))
			if m == nil {
				return fmt.Errorf("no Edit button on Item 42's line")
			}
			ref := 0
			fmt.Sscan(m[1], &ref)
			if err := click(a)(ref); err != nil {
				return err
			}
			return status(a, "Editing Item 42")
		}},
		{"fill a form", false, func(a *agent) error {
			r, err := a.call("electron_find", map[string]any{"role": "textbox"})
			if err != nil {
				return err
			}
			refs := map[string]int{}
			for _, m := range r["matches"].([]any) {
				m := m.(map[string]any)
				refs[m["name"].(string)] = num(m["ref"])
			}
			if err := typ(a, "Ada Lovelace")(refs["Full name"]); err != nil {
				return err
			}
			if err := typ(a, "ada@example.com")(refs["Email"]); err != nil {
				return err
			}
			ref, err := a.findRef("combobox", "Country", false)
			if err != nil {
				return err
			}
			if _, err := a.call("electron_select_option", map[string]any{"ref": ref, "values": []string{"Japan"}}); err != nil {
				return err
			}
			if ref, err = a.findRef("checkbox", "Subscribe to newsletter", false); err != nil {
				return err
			}
			if _, err := a.call("electron_check", map[string]any{"ref": ref}); err != nil {
				return err
			}
			if ref, err = a.findRef("button", "Save profile", false); err != nil {
				return err
			}
			if err := click(a)(ref); err != nil {
				return err
			}
			return status(a, "Saved")
		}},
		{"choose an option on another page", false, func(a *agent) error {
			if _, err := a.call("electron_navigate", map[string]any{"url": a.app.URL("a.test", "/actions.html")}); err != nil {
				return err
			}
			ref, err := a.findRef("combobox", "Fruit", false)
			if err != nil {
				return err
			}
			_, err = a.call("electron_select_option", map[string]any{"ref": ref, "values": []string{"Banana"}})
			return err
		}},
		{"check a checkbox", false, func(a *agent) error {
			ref, err := a.findRef("checkbox", "I agree", false)
			if err != nil {
				return err
			}
			_, err = a.call("electron_check", map[string]any{"ref": ref})
			return err
		}},
		{"wait for text to change", false, func(a *agent) error {
			r, err := a.call("electron_find", map[string]any{"role": "paragraph", "name_contains": "Status:"})
			if err != nil {
				return err
			}
			ms, _ := r["matches"].([]any)
			if len(ms) == 0 {
				return fmt.Errorf("no Status paragraph")
			}
			_, err = a.call("electron_expect_text", map[string]any{"ref": num(ms[0].(map[string]any)["ref"]), "contains": "ready"})
			return err
		}},
	}
}

// taskRun is one task's measure.
type taskRun struct {
	name   string
	frame  bool
	ok     bool
	calls  int
	tokens int
	err    string
}

// agentReport is one profile and mode's run.
type agentReport struct {
	profile  string
	all      bool
	manifest int // tools/list BPE of the profile
	tasks    []taskRun
}

func (r agentReport) totals() (ok, calls, tokens, frameCalls int) {
	for _, t := range r.tasks {
		if t.ok {
			ok++
		}
		calls += t.calls
		tokens += t.tokens
		if t.frame {
			frameCalls += t.calls
		}
	}
	return
}

// runAgentTasks runs every task against a fresh server of the profile on
// a Chromium showing the fixture's top page (frames two deep, nested
// cross-site frames).
func runAgentTasks(tb testing.TB, profile string, all bool) agentReport {
	chrome := chromiumtest.Require(tb)
	ctx := context.Background()
	app, err := fixture.Serve(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	defer app.Close()
	cfg := Config{ToolProfile: profile, FileRoots: []string{os.TempDir()}, ArtifactsDir: filepath.Join(tb.TempDir(), "artifacts")}
	rep := agentReport{profile: profile, all: all, manifest: measureTools(tb, hostTools(tb, cfg)).BPE}
	s := New(cfg)
	defer s.Close()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer cs.Close()
	a := &agent{tb: tb, cs: cs, app: app, all: all}
	// Setup, not counted: launch and wait until the nested frames are there.
	if _, err := a.call("electron_launch", map[string]any{"executablePath": chrome,
		"args": []string{"--host-resolver-rules=" + fixture.HostResolverRules(), app.URL("a.test", "/index.html")}}); err != nil {
		tb.Fatal(err)
	}
	defer func() { _, _ = a.call("electron_stop", nil) }()
	deadline := time.Now().Add(60 * time.Second)
	for a.top == "" || !a.has("cross2.html") {
		if time.Now().After(deadline) {
			tb.Fatal("the fixture's frames did not all appear")
		}
		r, err := a.call("electron_surfaces_list", nil)
		if err != nil {
			tb.Fatal(err)
		}
		a.top, _ = r["active_surface_id"].(string)
		time.Sleep(200 * time.Millisecond)
	}
	for _, task := range agentTasks() {
		c0, t0 := a.calls, a.tokens
		err := task.run(a)
		tr := taskRun{name: task.name, frame: task.frame, ok: err == nil, calls: a.calls - c0, tokens: a.tokens - t0}
		if err != nil {
			tr.err = err.Error()
		}
		rep.tasks = append(rep.tasks, tr)
	}
	return rep
}

// has reports whether a surface shows page (a setup call, not counted).
func (a *agent) has(page string) bool {
	c, t := a.calls, a.tokens
	defer func() { a.calls, a.tokens = c, t }()
	r, err := a.call("electron_surfaces_list", nil)
	if err != nil {
		return false
	}
	return strings.Contains(toJSON(r["surfaces"]), page)
}

// agentTable prints the reports as a table.
func agentTable(reps []agentReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s %-6s %5s %6s %10s %9s %8s %12s\n", "profile", "frames", "tasks", "calls", "resp BPE", "manifest", "total", "frame calls")
	for _, r := range reps {
		ok, calls, tokens, frameCalls := r.totals()
		mode := "switch"
		if r.all {
			mode = "all"
		}
		fmt.Fprintf(&b, "%-10s %-6s %2d/%-2d %6d %10d %9d %8d %12d\n", r.profile, mode, ok, len(r.tasks), calls, tokens, r.manifest, tokens+r.manifest, frameCalls)
	}
	return b.String()
}

// taskTable prints one profile's tasks, both modes side by side.
func taskTable(sw, all agentReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-40s %13s %13s\n", "task", "switch calls", "all calls")
	for i := range sw.tasks {
		s, l := sw.tasks[i], all.tasks[i]
		fmt.Fprintf(&b, "%-40s %6d (%4d) %6d (%4d)\n", s.name, s.calls, s.tokens, l.calls, l.tokens)
	}
	return b.String()
}

// checkAgentReports fails on a failed task and on a frame task that
// surfaces:"all" does not cut to at most half its calls.
func checkAgentReports(tb testing.TB, sw, all agentReport) {
	tb.Helper()
	for i := range sw.tasks {
		s, l := sw.tasks[i], all.tasks[i]
		for _, t := range []taskRun{s, l} {
			if !t.ok {
				tb.Errorf("%s: task %q failed: %s", sw.profile, t.name, t.err)
			}
		}
		if s.frame && 2*l.calls > s.calls {
			tb.Errorf("%s: frame task %q takes %d calls with surfaces:\"all\", %d without: not halved", sw.profile, s.name, l.calls, s.calls)
		}
	}
}

// TestAgentTasks runs the tasks on the full profile both ways.
func TestAgentTasks(t *testing.T) {
	if testing.Short() {
		t.Skip("drives real Chromium; skipped under -short")
	}
	sw := runAgentTasks(t, "full", false)
	all := runAgentTasks(t, "full", true)
	t.Logf("\n%s\n%s", agentTable([]agentReport{sw, all}), taskTable(sw, all))
	checkAgentReports(t, sw, all)
}

// BenchmarkAgentTasks runs the tasks for every profile both ways and
// reports calls, response tokens and manifest tokens.
func BenchmarkAgentTasks(b *testing.B) {
	var reps []agentReport
	for _, p := range Profiles {
		for _, all := range []bool{false, true} {
			mode := "switch"
			if all {
				mode = "all"
			}
			b.Run(p+"/"+mode, func(b *testing.B) {
				var r agentReport
				for b.Loop() {
					r = runAgentTasks(b, p, all)
				}
				ok, calls, tokens, frameCalls := r.totals()
				b.ReportMetric(float64(ok), "tasks-ok")
				b.ReportMetric(float64(calls), "calls")
				b.ReportMetric(float64(frameCalls), "frame-calls")
				b.ReportMetric(float64(tokens), "resp-bpe")
				b.ReportMetric(float64(r.manifest), "manifest-bpe")
				reps = append(reps, r)
			})
		}
	}
	b.Logf("\n%s", agentTable(reps))
	for i := 0; i+1 < len(reps); i += 2 {
		checkAgentReports(b, reps[i], reps[i+1])
		if reps[i].profile == "full" {
			b.Logf("\n%s", taskTable(reps[i], reps[i+1]))
		}
	}
}
