package tool

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withChecks writes a copy of the spec at path whose first step of tool
// has expect.result set to checks (JSON text), and returns its path.
func withChecks(t *testing.T, path, tool, checks string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sp map[string]any
	if err := json.Unmarshal(b, &sp); err != nil {
		t.Fatal(err)
	}
	for _, st := range sp["steps"].([]any) {
		m := st.(map[string]any)
		if m["tool"] == tool {
			m["expect"].(map[string]any)["result"] = json.RawMessage(checks)
			break
		}
	}
	out, err := json.MarshalIndent(sp, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "checked.json")
	if err := os.WriteFile(f, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// failedCheck fails the test unless the replay stopped at
// electron_get_text on a result check at path with these values.
func failedCheck(t *testing.T, rep map[string]any, path, expected, actual string) {
	t.Helper()
	first, _ := rep["first_difference"].(map[string]any)
	fc, _ := first["failed_check"].(map[string]any)
	if rep["passed"] != false || first["tool"] != "electron_get_text" || fc == nil || fc["path"] != path || fc["expected"] != expected || fc["actual"] != actual ||
		!strings.Contains(fmt.Sprint(first["why"]), path) {
		t.Fatalf("want a failed check at %s (expected %s, actual %s): %v", path, expected, actual, toJSON(rep))
	}
}

func TestTracePromote(t *testing.T) {
	if testing.Short() {
		t.Skip("drives Chromium; skipped under -short")
	}
	e := newEnv(t, Config{})
	dir := filepath.Join(t.TempDir(), "tr")
	e.ok("trace_start", map[string]any{"path": dir})
	e.launch("/index.html")
	e.ok("electron_type", map[string]any{"selector": "#inp", "text": "42"})
	e.ok("electron_expect_value", map[string]any{"selector": "#inp", "equals": "42"})
	e.ok("electron_get_text", map[string]any{"selector": "h1"})
	e.fails("electron_click", map[string]any{"selector": "#no-such", "timeoutMs": 300}, "SELECTOR_NO_MATCH")
	e.ok("trace_stop", nil)

	// Filtered: the typing and the expectation keep the launch that opened
	// their session; text is redacted as asked.
	small := filepath.Join(t.TempDir(), "small.json")
	r := e.ok("trace_promote", map[string]any{"path": dir, "out": small, "include": []any{"electron_type", "electron_expect_*"}, "redactions": []any{"args.text"}})
	if num(r["step_count"]) != 3 || len(r["retained"].([]any)) != 1 || len(r["session_placeholders"].([]any)) != 1 {
		t.Fatalf("promote filtered: %v", r)
	}
	var sp struct {
		Format string `json:"format"`
		Steps  []struct {
			Tool     string         `json:"tool"`
			Args     map[string]any `json:"args"`
			Session  string         `json:"session_id"`
			Expect   map[string]any `json:"expect"`
			Retained bool           `json:"retained"`
		} `json:"steps"`
	}
	b, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sp); err != nil {
		t.Fatal(err)
	}
	if sp.Format != "understudy-replay" || sp.Steps[0].Tool != "electron_launch" || !sp.Steps[0].Retained || sp.Steps[1].Args["text"] != "[redacted]" || sp.Steps[1].Session != "$session1" {
		t.Fatalf("spec: %s", b)
	}
	if strings.Contains(string(b), `"result"`) {
		t.Fatalf("a spec carries no result payloads: %s", b)
	}

	// The whole trace, replayed from the spec: a new launch, the same
	// outcomes (the failing click fails the same way).
	full := filepath.Join(t.TempDir(), "full.json")
	e.ok("trace_promote", map[string]any{"path": dir, "out": full})
	e.ok("electron_stop", nil) // one session at a time: the replay launches its own
	rep := e.ok("trace_replay", map[string]any{"path": full})
	if rep["passed"] != true || num(rep["replayed"]) != 5 {
		t.Fatalf("trace_replay of the spec: %v", toJSON(rep))
	}
	e.ok("electron_stop", map[string]any{"sessionId": rep["session_id"]})

	// Result checks a reviewer adds: a subset and a regex on
	// electron_get_text's result pass on the app as it is.
	checked := withChecks(t, full, "electron_get_text", `[{"path": "$", "subset": {"ok": true, "text": "Top"}}, {"path": "$.text", "regex": "^T[a-z]+$"}, {"path": "$.length", "exact": 4, "tolerance": 1}]`)
	rep = e.ok("trace_replay", map[string]any{"path": checked})
	if rep["passed"] != true || num(rep["replayed"]) != 5 {
		t.Fatalf("trace_replay of the spec with result checks: %v", toJSON(rep))
	}
	e.ok("electron_stop", map[string]any{"sessionId": rep["session_id"]})
	// A changed check fails at that step, naming the path and both values.
	wrong := withChecks(t, full, "electron_get_text", `[{"path": "$", "subset": {"ok": true, "text": "Topp"}}]`)
	rep = e.ok("trace_replay", map[string]any{"path": wrong})
	failedCheck(t, rep, "$.text", `"Topp"`, `"Top"`)
	e.ok("electron_stop", map[string]any{"sessionId": rep["session_id"]})
	// The app changes its heading: the unchanged spec fails there.
	e.app.Mount("/index.html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Top</title><h1>Bottom</h1><input id="inp" aria-label="Input top">`)
	}))
	rep = e.ok("trace_replay", map[string]any{"path": checked})
	failedCheck(t, rep, "$.text", `"Top"`, `"Bottom"`)
	e.ok("electron_stop", map[string]any{"sessionId": rep["session_id"]})

	// Bad checks are TRACE_INVALID naming where, before anything runs.
	for check, at := range map[string]string{
		`[{"path": "$.text", "regex": "("}]`:                                 "expect.result[0].regex",
		`[{"path": "$.text", "regex": "` + strings.Repeat("a", 1025) + `"}]`: "expect.result[0].regex",
		`[{"path": "$.text", "subset": "Top", "exact": "Top"}]`:              "expect.result[0]",
		`[{"path": "$.text", "sbuset": "Top"}]`:                              "expect.result[0].sbuset",
		`[{"path": "$.text[", "exact": "Top"}]`:                              "expect.result[0].path",
		`[{"path": "$.text", "ignore": false}]`:                              "expect.result[0].ignore",
		`[{"path": "$.text", "regex": "T", "tolerance": 1}]`:                 "expect.result[0].tolerance",
		`{"path": "$.text"}`:                                                 "expect.result",
	} {
		m := e.fails("trace_replay", map[string]any{"path": withChecks(t, full, "electron_get_text", check)}, "TRACE_INVALID")
		d, _ := m["details"].(map[string]any)
		got, _ := d["at"].(string)
		if !strings.HasPrefix(got, "steps[") || !strings.HasSuffix(got, at) {
			t.Errorf("check %s: TRACE_INVALID at %q, want …%s: %v", check, got, at, m)
		}
	}

	// Bad input.
	e.fails("trace_promote", map[string]any{"path": dir, "out": filepath.Join(t.TempDir(), "x.txt")}, "BAD_ARGUMENT")
	e.fails("trace_promote", map[string]any{"path": dir, "redactions": []any{"args.a.b"}}, "BAD_ARGUMENT")
	e.fails("trace_promote", map[string]any{"path": filepath.Join(t.TempDir(), "none")}, "TRACE_NOT_FOUND")
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"format":"understudy-replay","version":1,"steps":[{"seq":2,"tool":"a"},{"seq":1,"tool":"b"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	e.fails("trace_replay", map[string]any{"path": bad}, "TRACE_INVALID")
}
