package consolelog

import (
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

func TestRequestCheck(t *testing.T) {
	for _, c := range []struct {
		name  string
		r     Request
		field string
	}{
		{"empty", Request{}, ""},
		{"all given", Request{Type: "warn", Match: "a+b", Since: 3, Limit: 1000}, ""},
		{"long match", Request{Match: strings.Repeat("a", 501)}, "match"},
		{"bad match", Request{Match: "(("}, "match"},
		{"negative since", Request{Since: -1}, "since"},
		{"negative limit", Request{Limit: -1}, "limit"},
		{"limit over", Request{Limit: 1001}, "limit"},
	} {
		errstest.CheckField(t, c.name, c.r.Check(), c.field)
	}
}
