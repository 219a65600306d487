package doctor

import (
	"context"
	"testing"
)

func TestRunJudgesTheConfiguration(t *testing.T) {
	rep := Run(context.Background(), Config{BrowserPath: "/nonexistent/chromium", AppRoot: "relative/root", AllowAnyFile: true})
	got := map[string]Check{}
	for _, c := range rep.Checks {
		got[c.Name] = c
	}
	if rep.OK || got["browser"].OK || got["browser"].Fix == "" {
		t.Fatalf("a browser that does not run passed: %+v", got["browser"])
	}
	if got["app_root"].OK {
		t.Fatal("a relative --app-root passed")
	}
	if !got["file_roots"].OK || got["eval_policy"].Detail == "" {
		t.Fatalf("checks %+v", rep.Checks)
	}
}
