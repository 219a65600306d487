package page

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

// TestEvalArgsCheck: Check refuses bad eval arguments with a BAD_ARGUMENT
// naming the field; the defaults and the cap on results hold. No browser.
func TestEvalArgsCheck(t *testing.T) {
	for _, c := range []struct {
		name  string
		a     EvalArgs
		field string
	}{
		{"ok", EvalArgs{Code: "1+1", Arg: json.RawMessage(`{"a":1}`), TimeoutMs: 60000}, ""},
		{"blank", EvalArgs{Code: " \n"}, "code"},
		{"long", EvalArgs{Code: strings.Repeat("x", MaxEvalCode+1)}, "code"},
		{"timeout", EvalArgs{Code: "1", TimeoutMs: 60001}, "timeoutMs"},
		{"arg", EvalArgs{Code: "1", Arg: json.RawMessage(`{`)}, "arg"},
	} {
		errstest.CheckField(t, c.name, c.a.Check(), c.field)
	}
	a := EvalArgs{Code: "1"}
	if a.Timeout() != DefaultEvalTimeout || string(a.ArgOrNull()) != "null" {
		t.Errorf("defaults: %v %s", a.Timeout(), a.ArgOrNull())
	}
	if a.TimeoutMs = 250; a.Timeout() != 250*time.Millisecond {
		t.Errorf("timeout %v", a.Timeout())
	}
	if o := EvalOutOf(json.RawMessage(`"` + strings.Repeat("x", MaxEvalResult) + `"`)); !o.ResultTruncated || string(o.Result) != "null" || o.ResultBytes != MaxEvalResult+2 {
		t.Errorf("large result: %v %s %d", o.ResultTruncated, o.Result, o.ResultBytes)
	}
}
