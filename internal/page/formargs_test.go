package page

import (
	"errors"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestFormArgsCheck: the setters' options refuse bad input naming value
// or values.
func TestFormArgsCheck(t *testing.T) {
	text, num := "abc", "5"
	lo, hi := 0.0, 3.0
	for _, c := range []struct {
		name  string
		check func() error
		field string
	}{
		{"select nil", (&SelectValues{}).Check, "values"},
		{"select empty", (&SelectValues{Values: []string{}}).Check, ""},
		{"value nil", (&ValueText{}).Check, "value"},
		{"value ok", (&ValueText{Value: &num}).Check, ""},
		{"not a number", func() error { _, err := (&ValueText{Value: &text}).Number("slider"); return err }, "value"},
		{"number", func() error { _, err := (&ValueText{Value: &num}).Number("slider"); return err }, ""},
		{"outside", func() error { return (&ValueState{Role: "slider", VMin: &lo, VMax: &hi}).CheckWithin(5) }, "value"},
		{"within", func() error { return (&ValueState{Role: "slider", VMin: &lo, VMax: &hi}).CheckWithin(2) }, ""},
	} {
		err := c.check()
		if c.field == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var e *errs.Error
		if !errors.As(err, &e) || e.Code != errs.BadArgument || e.Details["field"] != c.field {
			t.Errorf("%s: %v, want BAD_ARGUMENT naming %s", c.name, err, c.field)
		}
	}
}
