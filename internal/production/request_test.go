package production

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

func TestRequestCheck(t *testing.T) {
	for _, c := range []struct {
		name  string
		r     Request
		field string
	}{
		{"path", Request{AppPath: "/opt/app"}, ""},
		{"known checks", Request{AppPath: "/opt/app", Checks: []string{"fuses", "asar"}}, ""},
		{"no path", Request{Checks: []string{"fuses"}}, "appPath"},
		{"unknown check", Request{AppPath: "/opt/app", Checks: []string{"fuses", "nope"}}, "checks[1]"},
	} {
		errstest.CheckField(t, c.name, c.r.Check(), c.field)
	}
}
