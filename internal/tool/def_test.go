package tool

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/trace"
)

// allTools is a server with every gate open: every tool there is.
func allTools(t testing.TB) *Server {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	t.Cleanup(s.Close)
	return s
}

// TestToolNameInOneFile (issue 26): a tool's name is written, as a Go
// string, in exactly one file of the server's code (internal/, tests
// aside): the file of its Def. Nothing else is keyed by it; the
// dispatcher derives everything from the Def. Prose that mentions a tool
// (descriptions, hints) is not a key and is not counted. Clients of the
// server (cmd/understudy's demo and replay, bench/) call tools by name as
// any MCP client does.
func TestToolNameInOneFile(t *testing.T) {
	s := allTools(t)
	names := map[string]bool{}
	for _, n := range s.Names() {
		names[n] = true
	}
	files := map[string]map[string]bool{} // name → files
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			v, err := strconv.Unquote(lit.Value)
			if err != nil || !names[v] {
				return true
			}
			if files[v] == nil {
				files[v] = map[string]bool{}
			}
			files[v][path] = true
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for n := range names {
		if len(files[n]) == 0 {
			t.Errorf("%s: its name is written nowhere as a string (its Def must hold it)", n)
		}
		if len(files[n]) > 1 {
			var in []string
			for f := range files[n] {
				in = append(in, f)
			}
			sort.Strings(in)
			t.Errorf("%s is written in %d files: %v; derive what the others need from its Def", n, len(in), in)
		}
	}
}

// fileParams are the parameter names that are paths or URLs of files: a
// tool taking one declares it in Effects.Reads or Effects.Writes.
var fileParams = []string{"path", "paths", "out", "dir", "baselineDir", "bodyFile", "appPath", "url"}

// notFiles are parameters named like files that are not: a cookie's path,
// a path of menu labels.
var notFiles = map[string]string{"storage_set_cookie": "path", "native_menu_item": "path", "native_menu_invoke": "path"}

// TestEffectsDeclared (issue 26): every Def declares what its calls do,
// and the declaration matches the tool's input: Reads and Writes name real
// parameters and every file parameter is in one of them; a tool declaring
// Secrets takes reveal and a tool taking reveal declares Secrets; the
// profile and group membership, annotations and host text come from the
// Def.
func TestEffectsDeclared(t *testing.T) {
	s := allTools(t)
	for _, n := range s.Names() {
		d := s.tools().defs[n]
		e := d.Effects
		if e.Does == 0 {
			t.Errorf("%s declares no effects (Effects.Does)", n)
			continue
		}
		if d.Class == 0 || d.Title == "" || d.Desc == "" {
			t.Errorf("%s: a Def needs a class, a title and a description", n)
		}
		props := d.schema().Properties
		for _, p := range slices.Concat(e.Reads, e.Writes) {
			if _, ok := props[p]; !ok {
				t.Errorf("%s declares file parameter %q, which it does not take", n, p)
			}
		}
		for _, p := range fileParams {
			if _, ok := props[p]; !ok {
				continue
			}
			if p == "url" && d.Effects.Does != kOpen && d.Effects.Does != kReach || notFiles[n] == p {
				continue // a URL it only matches (cookies, captures), not one it loads; not a file
			}
			if !slices.Contains(e.Reads, p) && !slices.Contains(e.Writes, p) {
				t.Errorf("%s takes %q but declares it neither read nor written (Effects.Reads / Effects.Writes)", n, p)
			}
		}
		in := reflect.New(d.in).Interface()
		_, takesReveal := props["reveal"]
		if e.Secrets != takesReveal {
			t.Errorf("%s: Effects.Secrets is %v but it takes reveal: %v", n, e.Secrets, takesReveal)
		}
		if _, ok := in.(revealer); ok != takesReveal {
			t.Errorf("%s: takes reveal %v, but its input says so (revealer) %v", n, takesReveal, ok)
		}
		// A ref routes the call to the surface that issued it (refroute.go).
		if _, takesRef := props["ref"]; takesRef {
			if _, ok := in.(refBearer); !ok {
				t.Errorf("%s takes ref but its input does not say it (refBearer): the call would not be routed", n)
			}
		}
		if (e.Eval == gateEvalMain || e.Eval == gateEvalRenderer) && e.Does != kOpen {
			t.Errorf("%s runs the caller's code yet is not kOpen", n)
		}
		if e.OpensSession && d.Session {
			t.Errorf("%s opens a session, so it cannot need one", n)
		}
	}
}

// TestSecretsGateAtTheDispatcher: reveal:true without --allow-secrets is
// refused before any handler runs, for every tool that declares secrets
// (no session is open, so a handler would answer NO_SESSION instead).
func TestSecretsGateAtTheDispatcher(t *testing.T) {
	s := allTools(t)
	for _, n := range s.Names() {
		d := s.tools().defs[n]
		if !d.Effects.Secrets {
			continue
		}
		args := map[string]any{"reveal": true}
		for _, p := range d.Effects.Writes {
			args[p] = filepath.Join(t.TempDir(), "x.har")
		}
		props := d.schema().Properties
		for p, v := range map[string]any{"selector": "#x", "name": "value"} {
			if _, ok := props[p]; ok {
				args[p] = v
			}
		}
		raw, _ := json.Marshal(args)
		res := s.Dispatch(t.Context(), n, raw, nil)
		var env struct {
			Code string `json:"code"`
		}
		_ = json.Unmarshal(res.JSON, &env)
		if env.Code != "SECRETS_NOT_ALLOWED" {
			t.Errorf("%s {reveal:true} without --allow-secrets: %s", n, res.JSON)
		}
	}
}

// TestMainCodeGateAtTheDispatcher: a tool that wraps the app's
// main-process handlers answers EVAL_REQUIRED without --allow-eval=main,
// before its handler runs.
func TestMainCodeGateAtTheDispatcher(t *testing.T) {
	s := New(Config{})
	t.Cleanup(s.Close)
	seen := 0
	for _, n := range s.Names() {
		d := s.tools().defs[n]
		if d.Effects.Eval != gateMainCode {
			continue
		}
		seen++
		res := s.Dispatch(t.Context(), n, json.RawMessage(`{}`), nil)
		if !strings.Contains(string(res.JSON), `"EVAL_REQUIRED"`) || !strings.Contains(string(res.JSON), n) {
			t.Errorf("%s without --allow-eval=main: %s", n, res.JSON)
		}
	}
	if seen < 5 {
		t.Fatalf("only %d tools declare gateMainCode; the ipc tools do", seen)
	}
}

// TestExportActionsFromTypedInputs: trace_export_playwright turns recorded
// arguments into actions through each tool's typed input, and tools that
// share an input shape still export as themselves (uncheck, clear,
// expect_value).
func TestExportActionsFromTypedInputs(t *testing.T) {
	s := allTools(t)
	regex := "^a\\d$"
	yes := true
	for _, c := range []struct {
		tool, args string
		want       trace.Action
	}{
		{"electron_type", `{"ref":4,"text":"it's"}`, trace.Fill{Elem: trace.Elem{RefParam: "ref", Ref: 4}, Text: "it's"}},
		{"electron_clear_input", `{"selector":"#q"}`, trace.Fill{Elem: trace.Elem{RefParam: "ref", Selector: "#q"}}},
		{"electron_key", `{"key":"Control + a"}`, trace.Press{Elem: trace.Elem{RefParam: "ref"}, Keys: []string{"Control + a"}}},
		{"electron_expect_text", `{"selector":"#r","regex":"^a\\d$","flags":"i"}`, trace.ExpectText{Elem: trace.Elem{RefParam: "ref", Selector: "#r"}, Regex: &regex, Flags: "i"}},
		{"electron_expect_value", `{"selector":"#r","regex":"^a\\d$"}`, trace.ExpectText{Elem: trace.Elem{RefParam: "ref", Selector: "#r"}, Value: true, Regex: &regex}},
		{"electron_assert_pattern", `{"selector":"#r","pattern":"^a\\d$"}`, trace.ExpectText{Elem: trace.Elem{RefParam: "ref", Selector: "#r"}, Regex: &regex}},
		{"electron_check", `{"selector":"#c"}`, trace.SetChecked{Elem: trace.Elem{RefParam: "ref", Selector: "#c"}, Checked: true}},
		{"electron_uncheck", `{"selector":"#c"}`, trace.SetChecked{Elem: trace.Elem{RefParam: "ref", Selector: "#c"}}},
		{"electron_drag", `{"ref":1,"targetRef":2}`, trace.Drag{Source: trace.Elem{RefParam: "ref", Ref: 1}, Target: trace.Elem{RefParam: "targetRef", Ref: 2}}},
		{"electron_expect_state", `{"selector":"#c","state":{"checked":true}}`, trace.ExpectState{Elem: trace.Elem{RefParam: "ref", Selector: "#c"}, State: map[string]bool{"checked": true}}},
		{"electron_expect_visible", `{"selector":"#c"}`, trace.ExpectVisible{Elem: trace.Elem{RefParam: "ref", Selector: "#c"}, Visible: yes}},
		{"electron_launch", `{}`, trace.Connect{}},
		{"electron_stop", `{}`, trace.Connect{}},
		{"electron_snapshot", `{}`, trace.Read{}},
		{"electron_switch_surface", `{"surfaceId":"s1-surface-2"}`, trace.Read{}},
		{"trace_status", `{}`, trace.Ignore{}},
		{"electron_eval_renderer", `{"code":"1"}`, nil},
		{"electron_dialog_handler", `{}`, nil},
	} {
		got := s.exportAction(trace.Step{Tool: c.tool, Args: json.RawMessage(c.args)})
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s: action %#v, want %#v", c.tool, c.args, got, c.want)
		}
	}
}
