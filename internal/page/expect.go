package page

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// ExpectationFailed is the EXPECTATION_FAILED of an expectation that did
// not hold: subject and expected say what was checked, the wait w what was
// seen (actual, found, the length of a long text, documents replaced) in
// timeout (0: checked once).
func ExpectationFailed(w *WaitResult, cond Condition, timeout time.Duration, expected any, subject string) *errs.Error {
	msg := fmt.Sprintf("%s: expected %s, actual %s", subject, ShortJSON(expected), Clip(string(w.Actual), 300))
	if cond.Locator != (Locator{}) && !w.Found && cond.Kind != CondVisible {
		msg = fmt.Sprintf("%s: expected %s, but no element matched", subject, ShortJSON(expected))
	}
	if timeout > 0 {
		msg += fmt.Sprintf(" (checked for %d ms)", timeout.Milliseconds())
	} else {
		msg += " (checked once)"
	}
	if w.Navigations > 0 {
		msg += fmt.Sprintf("; the document was replaced %d time(s) meanwhile", w.Navigations)
	}
	e := errs.New(errs.ExpectationFailed, "%s", msg).With("expected", expected).With("actual", w.Actual).
		With("timeout_ms", timeout.Milliseconds()).With("elapsed_ms", w.Elapsed.Milliseconds()).With("surface_id", w.SurfaceID)
	if cond.Locator != (Locator{}) && cond.Kind != CondURL && cond.Kind != CondCount {
		e.With("found", w.Found)
	}
	if w.Length > 0 && len(w.Actual) > 0 && w.Actual[0] == '"' && w.Length > 2000 {
		e.With("actual_length", w.Length)
	}
	if w.Navigations > 0 {
		e.With("navigations", w.Navigations)
	}
	return e
}

// WaitTimeout is the WAIT_TIMEOUT of a wait that did not see its
// condition; format and args say what was awaited.
func WaitTimeout(w *WaitResult, timeout time.Duration, format string, args ...any) *errs.Error {
	msg := fmt.Sprintf(format, args...)
	if timeout > 0 {
		msg += fmt.Sprintf(" within %d ms", timeout.Milliseconds())
	} else {
		msg += " (checked once)"
	}
	if w.Navigations > 0 {
		msg += fmt.Sprintf("; the document was replaced %d time(s) meanwhile", w.Navigations)
	}
	e := errs.New(errs.WaitTimeout, "%s", msg).With("timeout_ms", timeout.Milliseconds()).
		With("elapsed_ms", w.Elapsed.Milliseconds()).With("surface_id", w.SurfaceID)
	if w.Navigations > 0 {
		e.With("navigations", w.Navigations)
	}
	return e
}

// Sleep sleeps ms milliseconds, at most limit (capped says it was more;
// the cap is compared before multiplying, since 1e13 ms overflows a
// Duration), and returns how long it slept; a context ended first is
// OPERATION_TIMEOUT or the context's own error.
func Sleep(ctx context.Context, ms int, limit time.Duration) (waited time.Duration, capped bool, err error) {
	capped = int64(ms) > limit.Milliseconds()
	d := limit
	if !capped {
		d = time.Duration(ms) * time.Millisecond
	}
	start := time.Now()
	if !Pause(ctx, d) {
		return 0, capped, errs.FromContext(ctx, errs.OperationTimeout, "sleeping")
	}
	return time.Since(start), capped, nil
}

// ShortJSON is v as short JSON for a message.
func ShortJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return Clip(string(b), 300)
}

// Clip is s cut to n bytes, with an ellipsis when it was longer.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
