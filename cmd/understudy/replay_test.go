package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// TestReplayCommand runs `understudy replay` on specs written as a reviewer
// would (a launch of the fixture app, a get_text with a result check) and
// checks each exit code and the --json report.
func TestReplayCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and drives Chromium; skipped under -short")
	}
	chrome := chromiumtest.Require(t)
	app, err := fixture.Serve(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	dir := t.TempDir()
	write := func(name, exe, check string) string {
		steps := `[{"seq": 1, "tool": "electron_launch", "session_id": "$session1", "expect": {"ok": true},
  "args": {"executablePath": ` + quote(exe) + `, "args": [` + quote("--host-resolver-rules="+fixture.HostResolverRules()) + `, ` + quote(app.URL("a.test", "/index.html")) + `]}},
 {"seq": 2, "tool": "electron_get_text", "session_id": "$session1", "args": {"selector": "h1", "sessionId": "$session1"},
  "expect": {"ok": true, "result": [` + check + `]}}]`
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(`{"format": "understudy-replay", "version": 1, "sessions": ["$session1"], "normalize": ["session_id", "refs"], "steps": `+steps+`}`), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var stderr string // of the last run
	run := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(binary(t), append([]string{"replay"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.Output()
		stderr = ""
		var ee *exec.ExitError
		switch {
		case err == nil:
			return string(out), 0
		case errors.As(err, &ee):
			stderr = string(ee.Stderr)
			return string(out), ee.ExitCode()
		}
		t.Fatal(err)
		return "", -1
	}

	// Green: the check holds; the --json report is one object.
	good := write("good.json", chrome, `{"path": "$.text", "exact": "Top"}`)
	out, code := run(good, "--json")
	var rep struct {
		Format   string `json:"format"`
		ExitCode int    `json:"exit_code"`
		Passed   bool   `json:"passed"`
		Replay   struct {
			Replayed        int `json:"replayed"`
			FirstDifference *struct {
				Tool        string `json:"tool"`
				FailedCheck *struct {
					Path, Expected, Actual string
				} `json:"failed_check"`
			} `json:"first_difference"`
		} `json:"replay"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || !rep.Passed || rep.Format != "understudy-replay-report" || rep.Replay.Replayed != 2 {
		t.Fatalf("a passing spec: exit %d, %v\n%s", code, err, out)
	}
	// A step differs: exit 1, and the report names the failed check.
	bad := write("bad.json", chrome, `{"path": "$.text", "regex": "^Bottom$"}`)
	out, code = run(bad, "--json")
	rep.Replay.FirstDifference = nil
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 || rep.ExitCode != 1 || rep.Replay.FirstDifference == nil ||
		rep.Replay.FirstDifference.FailedCheck == nil || rep.Replay.FirstDifference.FailedCheck.Actual != `"Top"` {
		t.Fatalf("a differing spec: exit %d, %v\n%s", code, err, out)
	}
	if out, code = run(bad); code != 1 || !strings.Contains(out, "first difference: step 2 electron_get_text") || !strings.Contains(out, "$.text") {
		t.Fatalf("the human report: exit %d\n%s", code, out)
	}
	// A malformed check: exit 2. No launch: exit 3. Bad usage: 64.
	// (the failure is a diagnostic: on stderr, stdout stays empty)
	if out, code = run(write("malformed.json", chrome, `{"path": "$.text", "regex": "("}`)); code != 2 || out != "" || !strings.Contains(stderr, "TRACE_INVALID") {
		t.Fatalf("a malformed spec: exit %d\nstdout %q\nstderr %q", code, out, stderr)
	}
	if out, code = run(write("nolaunch.json", filepath.Join(dir, "no-such-browser"), `{"path": "$.text", "exact": "Top"}`)); code != 3 {
		t.Fatalf("a spec whose launch fails: exit %d\n%s", code, out)
	}
	if _, code = run(); code != 64 {
		t.Fatalf("no spec: exit %d", code)
	}
	if _, code = run(good, "--no-such-flag"); code != 64 {
		t.Fatalf("a bad flag: exit %d", code)
	}
}
