package clock

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

// TestChecks: the clock tools' arguments refuse bad input with
// BAD_ARGUMENT naming the field, and pass good input.
func TestChecks(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func() error
		field string // "" when the input is good
	}{
		{"time empty", TimeArg{}.Check, "time"},
		{"time bad", TimeArg{Time: "soon"}.Check, "time"},
		{"time ok", TimeArg{Time: "2024-01-02T03:04:05Z"}.Check, ""},
		{"install default", InstallOptions{}.Check, ""},
		{"install bad", InstallOptions{Time: "soon"}.Check, "time"},
		{"ms negative", Span{Ms: -1}.Check, "ms"},
		{"ms over a year", Span{Ms: 367 * 24 * 3600 * 1000}.Check, "ms"},
		{"ms ok", Span{Ms: 1000}.Check, ""},
	} {
		errstest.CheckField(t, c.name, c.check(), c.field)
	}
}
