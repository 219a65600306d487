package page

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
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
		errstest.CheckField(t, c.name, c.check(), c.field)
	}
}
