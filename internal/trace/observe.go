package trace

import (
	"encoding/json"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// What the dispatcher's observer asks of a live recording around a call.

// Veto is TRACE_BUDGET_EXCEEDED when the recording's budget is enforced
// and spent: the call of tool is then not run, and next are the calls
// the agent may make instead. nil while the call may run.
func (r *Recorder) Veto(tool string, next ...string) error {
	b := r.Budget()
	if b == nil || !b.Enforce || !b.OverBudget {
		return nil
	}
	e := errs.New(errs.TraceBudgetExceeded, "the trace's token budget is spent (%d of %d estimated tokens); %s was not run", b.Spent, b.BudgetTokens, tool).
		With("budget", b)
	e.NextActions = next
	return e
}

// Finish completes a step from its call's outcome: the time since start,
// whether it failed (then the envelope's error message is kept), its code,
// estimated tokens, session and envelope (redacted by the recorder's
// writer, off the call path).
func (st *Step) Finish(start time.Time, failed bool, code string, tokens int, sessionID string, envelope json.RawMessage) {
	st.ElapsedMS = time.Since(start).Milliseconds()
	st.OK, st.Code, st.Tokens, st.SessionID = !failed, code, tokens, sessionID
	if failed {
		var env struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal(envelope, &env)
		st.Error = env.Error
	}
	st.Result = envelope
}
