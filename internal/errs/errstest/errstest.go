// Package errstest holds test helpers for errors of the registry
// (internal/errs): what a Check answered, judged in one place.
package errstest

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// CheckField fails t unless err is what a Check answers for field: nil
// when field is "", else BAD_ARGUMENT naming field. name labels the case.
func CheckField(t testing.TB, name string, err error, field string) {
	t.Helper()
	if field == "" {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		return
	}
	if e := errs.As(err); e == nil || e.Code != errs.BadArgument || e.Details["field"] != field {
		t.Errorf("%s: got %v, want BAD_ARGUMENT on %s", name, err, field)
	}
}

// Field is the field a BAD_ARGUMENT err names, or "" for nil; any other
// error fails t at once.
func Field(t testing.TB, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	e := errs.As(err)
	if e == nil || e.Code != errs.BadArgument {
		t.Fatalf("%v: want BAD_ARGUMENT", err)
	}
	f, _ := e.Details["field"].(string)
	return f
}
