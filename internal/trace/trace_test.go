package trace

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
)

func step(r *Recorder, tool string, args string, ok bool, tokens int) Step {
	st := Step{Seq: r.Next(), Tool: tool, Args: json.RawMessage(args), OK: ok, Tokens: tokens, StartedAt: time.Now()}
	if !ok {
		st.Code = "SELECTOR_NO_MATCH"
	}
	return st
}

func TestKilledTraceStillOpens(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "t")
	r, err := startIn(dir, Options{Budget: &Budget{Tokens: 10, WarnThreshold: 0.8}})
	if err != nil {
		t.Fatal(err)
	}
	for i, tool := range []string{"electron_click", "electron_type"} {
		r.Add(step(r, tool, `{"ref":3}`, i == 0, 7), []byte("\x89PNG fake"))
	}
	r.Flush()
	// A kill in the middle of writing the third step leaves only its
	// temporary file.
	if err := os.WriteFile(filepath.Join(dir, "steps", ".understudy-tmp-123"), []byte(`{"seq":3,"to`), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Complete || tr.StoppedAfter != 2 || len(tr.Steps) != 2 || tr.Steps[1].Tool != "electron_type" {
		t.Fatalf("loaded %+v", tr)
	}
	if b := tr.BudgetStatus(); b == nil || b.Spent != 14 || !b.OverBudget {
		t.Fatalf("budget %+v", b)
	}
	if string(tr.Screenshot(tr.Steps[0])) != "\x89PNG fake" {
		t.Fatal("screenshot not kept")
	}
	html, err := tr.HTML(time.Now())
	if err != nil || !strings.Contains(string(html), "it stops after step 2") {
		t.Fatalf("html: %v %s", err, html)
	}
	if _, err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	if tr, err = Load(filepath.Join(dir, HeaderFile)); err != nil || !tr.Complete || tr.Header.Steps != 2 || tr.Header.Spent != 14 {
		t.Fatalf("after stop: %+v %v", tr, err)
	}
	// A footer that lies about the steps is refused.
	files, _ := filepath.Glob(filepath.Join(dir, "steps", "0*.json"))
	if len(files) == 0 {
		t.Fatal("no step files")
	}
	if err := os.Remove(files[len(files)-1]); err != nil { // the file holding step 2
		t.Fatal(err)
	}
	if _, err := Load(dir); errs.CodeOf(err) != errs.TraceInvalid {
		t.Fatalf("lying footer: %v", err)
	}
	if _, err := Load(t.TempDir()); errs.CodeOf(err) != errs.TraceNotFound {
		t.Fatalf("no trace: %v", err)
	}
	if _, err := startIn(dir, Options{}); errs.CodeOf(err) != errs.FileExists {
		t.Fatalf("start over an existing folder: %v", err)
	}
}

func TestRedact(t *testing.T) {
	in := `{"text":"hunter2","password":"p","headers":[{"name":"Authorization","value":"Bearer x"}],"budgetTokens":5,"_meta":{"estimated_tokens":3},"nested":{"apiKey":"k","accessToken":"t"}}`
	out := string(Redact(json.RawMessage(in), "text"))
	for _, secret := range []string{"hunter2", `"p"`, "Bearer x", `"k"`, `"t"`} {
		if strings.Contains(out, secret) {
			t.Fatalf("%s kept in %s", secret, out)
		}
	}
	if !strings.Contains(out, `"budgetTokens":5`) || !strings.Contains(out, `"estimated_tokens":3`) {
		t.Fatalf("token counts are not secrets: %s", out)
	}
	if !IsSecretTarget(Target{Role: "textbox", Name: "Password"}) || IsSecretTarget(Target{Role: "textbox", Name: "Quantity"}) {
		t.Fatal("secret targets")
	}
}

// hostileTrace puts v in every text the report shows.
func hostileTrace(v string) *Trace {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	arg, _ := json.Marshal(map[string]string{"text": v})
	tr := &Trace{Dir: v, Steps: []Step{
		{Seq: 1, Tool: v, OK: true, StartedAt: t0, ElapsedMS: 12, Args: arg, Result: arg, Surface: &Place{SurfaceID: v},
			Targets: map[string]Target{v: {Ref: 3, Role: v, Name: v}}, Console: []string{v}, Network: []string{v}},
		{Seq: 2, Tool: v, Code: v, Error: v, StartedAt: t0.Add(time.Second), Args: arg},
	}}
	tr.Header.StartedAt = t0
	return tr
}

// FuzzHTMLEscapes: whatever text a trace holds, the report has exactly
// the markup it has for plain text: every '<', '>' and '"' comes from the
// report's own markup.
func FuzzHTMLEscapes(f *testing.F) {
	for _, s := range []string{`<img src=x onerror=alert(1)>`, `"><script>alert(1)</script>`, `' onmouseover='x`, "&amp;", "</pre></details>"} {
		f.Add(s)
	}
	plain, err := hostileTrace("plain").HTML(time.Unix(0, 0))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if v == "" { // an empty role leaves out the target's name, on purpose
			return
		}
		got, err := hostileTrace(v).HTML(time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []string{"<", ">", `"`} {
			if a, b := strings.Count(string(got), c), strings.Count(string(plain), c); a != b {
				t.Fatalf("%d %q in the report of %q, %d in that of plain text", a, c, v, b)
			}
		}
	})
}

func TestHTMLEscapesCapturedMarkup(t *testing.T) {
	tr := &Trace{Dir: "x", Complete: true, Steps: []Step{{Seq: 1, Tool: "electron_type", OK: false, Code: "X",
		Error: `<img src=x onerror=alert(1)>`, Args: json.RawMessage(`{"text":"</pre><script>alert(2)</script>"}`)}}}
	html, err := tr.HTML(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(html), "<script>alert") || strings.Contains(string(html), "<img src=x") {
		t.Fatalf("captured markup is live:\n%s", html)
	}
}

func TestExportPlaywright(t *testing.T) {
	place := &Place{SurfaceID: "s1-surface-7", Kind: "frame", WindowID: "W", WindowURL: "http://a.test/index.html",
		Frames: []Frame{{Selector: "#cross1"}, {Selector: "iframe[name=\"x\"]"}}}
	top := &Place{SurfaceID: "s1-surface-1", WindowID: "W", WindowURL: "http://a.test/index.html"}
	tr := &Trace{Dir: "d", Steps: []Step{
		{Seq: 1, Tool: "electron_type", OK: true, Args: json.RawMessage(`{"ref":4,"text":"it's"}`), Surface: place,
			Targets: map[string]Target{"ref": {Ref: 4, Role: "textbox", Name: "Quantity", Place: place}}},
		{Seq: 2, Tool: "electron_key", OK: true, Args: json.RawMessage(`{"key":"Control + a"}`), Surface: top},
		{Seq: 3, Tool: "electron_expect_text", OK: true, Args: json.RawMessage(`{"selector":"#r","regex":"^a\\d$","flags":"i"}`), Surface: top},
		{Seq: 4, Tool: "electron_eval_renderer", OK: true, Args: json.RawMessage(`{"code":"1"}`), Surface: top},
		{Seq: 5, Tool: "electron_click", OK: false, Code: "X", Args: json.RawMessage(`{"selector":"#n"}`), Surface: top},
		{Seq: 6, Tool: "electron_uncheck", OK: true, Args: json.RawMessage(`{"selector":"#c"}`), Surface: top},
	}}
	// The server makes each step's Action from its tool's typed input
	// (internal/tool: TestExportActionsFromTypedInputs); here they are given.
	regex := "^a\\d$"
	actions := map[int]Action{
		1: Fill{Elem: Elem{RefParam: "ref", Ref: 4}, Text: "it's"},
		2: Press{Keys: []string{"Control + a"}},
		3: ExpectText{Elem: Elem{Selector: "#r"}, Regex: &regex, Flags: "i"},
		6: SetChecked{Elem: Elem{Selector: "#c"}},
	}
	ex := tr.ExportPlaywright(ExportOptions{Name: "n", Action: func(st Step) Action { return actions[st.Seq] }})
	for _, want := range []string{
		`const page1 = await pageAt(browser, "http://a.test/index.html");`,
		`page1.frameLocator("#cross1").frameLocator("iframe[name=\"x\"]").getByRole("textbox", { name: "Quantity", exact: true }).fill("it's");`,
		`await page1.keyboard.press("Control+a");`,
		`await expect(page1.locator("#r")).toHaveText(new RegExp("^a\\d$", "i"));`,
		`await page1.locator("#c").uncheck();`,
	} {
		if !strings.Contains(ex.Source, want) {
			t.Fatalf("missing %s in\n%s", want, ex.Source)
		}
	}
	if ex.Actions != 3 || ex.Asserts != 1 || len(ex.Skipped) != 2 || ex.Skipped[0].Seq != 4 || ex.Skipped[1].Seq != 5 {
		t.Fatalf("export %+v", ex)
	}
	if strings.Contains(ex.Source, "clickInFrames(") {
		t.Fatal("the frame helper is written only when used")
	}
}

// TestAbortWritesWhatWasQueued: steps handed to the writer reach the disk
// even when the recording ends without trace_stop (the server closing),
// and a step added after the end is only counted.
func TestAbortWritesWhatWasQueued(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "t")
	r, err := startIn(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 * writeQueue {
		r.Add(step(r, "electron_click", `{"ref":1}`, true, 1), nil)
	}
	r.Abort()
	r.Add(step(r, "electron_type", `{"ref":2}`, true, 1), nil)
	tr, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Complete || len(tr.Steps) != 3*writeQueue || tr.StoppedAfter != 3*writeQueue {
		t.Fatalf("after abort: complete %v, %d steps, stopped after %d", tr.Complete, len(tr.Steps), tr.StoppedAfter)
	}
	if _, err := r.Stop(); err != nil { // a second end is harmless
		t.Fatal(err)
	}
}

// TestStepsGatheredIntoFiles: steps added close together share a file
// (NNNNNN-MMMMMM.json), steps finishing out of seq order load in order,
// and a file whose steps do not match its name is TRACE_INVALID.
func TestStepsGatheredIntoFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "t")
	r, err := startIn(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := step(r, "electron_click", `{}`, true, 1), step(r, "electron_type", `{}`, true, 1), step(r, "electron_get_text", `{}`, true, 1)
	r.Add(b, nil) // calls can finish out of their seq order
	r.Add(a, nil)
	r.Add(c, nil)
	if _, err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "steps", "*.json"))
	if len(files) != 1 || filepath.Base(files[0]) != "000001-000003.json" {
		t.Fatalf("step files %v, want one file for the three steps", files)
	}
	tr, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Complete || len(tr.Steps) != 3 || tr.Steps[0].Tool != "electron_click" || tr.Steps[2].Seq != 3 || tr.StoppedAfter != 3 {
		t.Fatalf("loaded %+v", tr)
	}
	// A file named for steps it does not hold.
	if err := os.Rename(files[0], filepath.Join(dir, "steps", "000002-000004.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); errs.CodeOf(err) != errs.TraceInvalid {
		t.Fatalf("misnamed step file: %v", err)
	}
}

// startIn starts a recording in the new folder dir, made by the one
// writer as trace_start makes it.
func startIn(dir string, o Options) (*Recorder, error) {
	d, err := files.New(files.Config{AllowAny: true}).MakeDir(context.Background(), "path", dir, errs.TraceWriteFailed)
	if err != nil {
		return nil, err
	}
	return Start(d, o)
}
