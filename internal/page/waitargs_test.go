package page

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

// TestWaitArgsCheck: each wait option refuses bad input naming its field.
func TestWaitArgsCheck(t *testing.T) {
	neg, big, s := -1, 70000, "x"
	for _, c := range []struct {
		name  string
		check func() error
		field string
	}{
		{"sleep missing", (&SleepArgs{}).Check, "ms"},
		{"sleep negative", (&SleepArgs{Ms: &neg}).Check, "ms"},
		{"sleep above cap", (&SleepArgs{Ms: &big}).Check, ""},
		{"presence bad", (&PresenceWant{State: "gone"}).Check, "state"},
		{"presence default", (&PresenceWant{}).Check, ""},
		{"event blank", (&EventWant{EventName: " "}).Check, "eventName"},
		{"event ok", (&EventWant{EventName: "click"}).Check, ""},
		{"pattern and regex", (&PatternQuery{TextOperators: TextOperators{Regex: &s}, Pattern: &s}).Check, "pattern"},
		{"pattern none", (&PatternQuery{}).Check, "equals"},
		{"pattern ok", (&PatternQuery{Pattern: &s}).Check, ""},
	} {
		errstest.CheckField(t, c.name, c.check(), c.field)
	}
	if w := (&PresenceWant{}).Want(); w != StateVisible {
		t.Errorf("default presence %q", w)
	}
	if !(&VisibleWant{}).Want() {
		t.Error("default visible is false")
	}
}
