package tool

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
	if rep["passed"] != true || num(rep["replayed"]) != 4 {
		t.Fatalf("trace_replay of the spec: %v", toJSON(rep))
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
