package trace

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestVetoOnceAnEnforcedBudgetIsSpent(t *testing.T) {
	r, err := startIn(filepath.Join(t.TempDir(), "t"), Options{Budget: &Budget{Tokens: 10, Enforce: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = r.Stop() }()
	if err := r.Veto("electron_click", "trace_budget"); err != nil {
		t.Fatalf("vetoed within the budget: %v", err)
	}
	r.Add(step(r, "electron_click", `{}`, true, 12), nil)
	err = r.Veto("electron_type", "trace_budget", "trace_stop")
	e := errs.As(err)
	if e == nil || e.Code != errs.TraceBudgetExceeded || len(e.NextActions) != 2 ||
		e.Message != "the trace's token budget is spent (12 of 10 estimated tokens); electron_type was not run" {
		t.Fatalf("veto %#v", err)
	}
}

func TestStepFinishKeepsTheFailure(t *testing.T) {
	var st Step
	env := json.RawMessage(`{"ok":false,"code":"SELECTOR_NO_MATCH","error":"no element"}`)
	st.Finish(time.Now(), true, "SELECTOR_NO_MATCH", 9, "s1", env)
	if st.OK || st.Code != "SELECTOR_NO_MATCH" || st.Error != "no element" || st.Tokens != 9 || st.SessionID != "s1" || string(st.Result) != string(env) {
		t.Fatalf("step %+v", st)
	}
	st = Step{}
	st.Finish(time.Now(), false, "", 3, "", json.RawMessage(`{"ok":true,"error":"a field"}`))
	if !st.OK || st.Error != "" {
		t.Fatalf("step %+v", st)
	}
}
