package trace

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

// TestArgsCheckNamesTheField: each trace tool argument type's Check
// refuses bad input with a BAD_ARGUMENT naming the field, and passes good
// input.
func TestArgsCheckNamesTheField(t *testing.T) {
	half, nan := 0.5, math.NaN()
	for _, c := range []struct {
		name  string
		check func() error
		field string
	}{
		{"start ok", (&StartArgs{BudgetTokens: 10, Enforce: true, WarnThreshold: &half}).Check, ""},
		{"start budget", (&StartArgs{BudgetTokens: -1}).Check, "budgetTokens"},
		{"start enforce", (&StartArgs{Enforce: true}).Check, "enforce"},
		{"start warn", (&StartArgs{BudgetTokens: 1, WarnThreshold: &nan}).Check, "warnThreshold"},
		{"start steps", (&StartArgs{MaxSteps: 100001}).Check, "maxSteps"},
		{"start path", (&StartArgs{Path: "a\x00b"}).Check, "path"},
		{"view ok", (&ViewArgs{Path: "t", HTML: true, Out: "r.html"}).Check, ""},
		{"view path", (&ViewArgs{}).Check, "path"},
		{"view out", (&ViewArgs{Path: "t", Out: "r.html"}).Check, "out"},
		{"export ok", (&ExportArgs{Path: "t", Out: "a.spec.ts", RelayURL: "ws://127.0.0.1:1"}).Check, ""},
		{"export path", (&ExportArgs{Out: "a.ts"}).Check, "path"},
		{"export out", (&ExportArgs{Path: "t"}).Check, "out"},
		{"export suffix", (&ExportArgs{Path: "t", Out: "a.py"}).Check, "out"},
		{"export relay", (&ExportArgs{Path: "t", Out: "a.ts", RelayURL: "ftp://x"}).Check, "relayUrl"},
		{"promote ok", (&PromoteArgs{Path: "t", Redactions: []string{"args.text"}}).Check, ""},
		{"promote path", (&PromoteArgs{}).Check, "path"},
		{"promote out", (&PromoteArgs{Path: "t", Out: "a.yaml"}).Check, "out"},
		{"promote include", (&PromoteArgs{Path: "t", Exclude: make([]string, 201)}).Check, "include"},
		{"promote redactions", (&PromoteArgs{Path: "t", Redactions: []string{"args.a.b"}}).Check, "redactions"},
		{"replay ok", (&ReplayArgs{Path: "t"}).Check, ""},
		{"replay path", (&ReplayArgs{}).Check, "path"},
		{"replay steps", (&ReplayArgs{Path: "t", MaxSteps: -1}).Check, "maxSteps"},
		{"start folder", func() error { _, _, err := (&StartArgs{Path: "/"}).Folder(time.Now()); return err }, "path"},
	} {
		errstest.CheckField(t, c.name, c.check(), c.field)
	}
}

// TestReplayStepsRefusesAndConfirms: a step whose tool is not offered is
// REPLAY_NOT_ALLOWED, a destructive one needs confirm, skipped tools are
// left out and MaxSteps bounds the rest.
func TestReplayStepsRefusesAndConfirms(t *testing.T) {
	tr := &Trace{Steps: []Step{{Seq: 1, Tool: "trace_x"}, {Seq: 2, Tool: "a"}, {Seq: 3, Tool: "kill"}, {Seq: 4, Tool: "b"}}}
	skip := func(tool string) bool { return tool == "trace_x" }
	offered := func(tool string) (bool, bool) { return tool != "gone", tool == "kill" }
	code := func(err error) errs.Code {
		var e *errs.Error
		if errors.As(err, &e) {
			return e.Code
		}
		return ""
	}
	if _, err := (&ReplayArgs{Path: "t"}).Steps(tr, skip, offered); code(err) != errs.ConfirmRequired {
		t.Errorf("destructive without confirm: %v", err)
	}
	steps, err := (&ReplayArgs{Path: "t", Confirm: true, MaxSteps: 2}).Steps(tr, skip, offered)
	if err != nil || len(steps) != 2 || steps[0].Seq != 2 || steps[1].Seq != 3 {
		t.Errorf("confirmed, 2 steps: %v %v", steps, err)
	}
	tr.Steps = append(tr.Steps, Step{Seq: 5, Tool: "gone"})
	if _, err := (&ReplayArgs{Path: "t", Confirm: true}).Steps(tr, skip, offered); code(err) != errs.ReplayNotAllowed {
		t.Errorf("a tool not offered: %v", err)
	}
}
