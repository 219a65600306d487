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
		{"selector wait bad state first", (&SelectorWait{WaitBudget{&neg}, PresenceWant{State: "gone"}}).Check, "state"},
		{"selector wait timeout", (&SelectorWait{WaitBudget: WaitBudget{&big}}).Check, "timeoutMs"},
		{"selector wait ok", (&SelectorWait{}).Check, ""},
		{"state wait timeout first", (&StateWait{WaitBudget{&neg}, StateWant{}}).Check, "timeoutMs"},
		{"state wait no flag", (&StateWait{}).Check, "state"},
		{"state wait unknown flag", (&StateWait{StateWant: StateWant{State: map[string]any{"shiny": true}}}).Check, "state.shiny"},
		{"state wait mixed visible", (&StateWait{StateWant: StateWant{State: map[string]any{"visible": "mixed"}}}).Check, "state.visible"},
		{"state wait ok", (&StateWait{StateWant: StateWant{State: map[string]any{"checked": "mixed", "expanded": nil}}}).Check, ""},
		{"event wait name first", (&EventWait{WaitBudget{&neg}, EventWant{}}).Check, "eventName"},
		{"event wait timeout", (&EventWait{WaitBudget{&big}, EventWant{EventName: "click"}}).Check, "timeoutMs"},
		{"text expectation timeout first", (&TextExpectation{WaitBudget{&neg}, TextOperators{}}).Check, "timeoutMs"},
		{"text expectation none", (&TextExpectation{}).Check, "equals"},
		{"text expectation two", (&TextExpectation{TextOperators: TextOperators{Equals: &s, Regex: &s}}).Check, "regex"},
		{"text expectation ok", (&TextExpectation{TextOperators: TextOperators{Contains: &s}}).Check, ""},
		{"visible expectation timeout", (&VisibleExpectation{WaitBudget: WaitBudget{&big}}).Check, "timeoutMs"},
		{"visible expectation ok", (&VisibleExpectation{}).Check, ""},
		{"count expectation timeout first", (&CountExpectation{WaitBudget: WaitBudget{&neg}}).Check, "timeoutMs"},
		{"count expectation nothing counted", (&CountExpectation{}).Check, "selector"},
		{"count expectation ok", (&CountExpectation{CountQuery: CountQuery{Selector: "li", Min: &big}}).Check, ""},
		{"url expectation timeout first", (&URLExpectation{WaitBudget: WaitBudget{&neg}}).Check, "timeoutMs"},
		{"url expectation none", (&URLExpectation{}).Check, "contains"},
		{"url expectation ok", (&URLExpectation{URLQuery: URLQuery{Contains: &s}}).Check, ""},
		{"optional locator none", Locator{}.CheckOptional, ""},
		{"optional locator both", Locator{Ref: 2, Selector: "a"}.CheckOptional, "ref"},
		{"optional locator negative", Locator{Ref: -1}.CheckOptional, "ref"},
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

// TestSubject: a wait's failure names the ref, the selector or the document.
func TestSubject(t *testing.T) {
	for l, want := range map[Locator]string{{Ref: 7}: "ref 7", {Selector: "#a"}: `"#a"`, {}: "the document"} {
		if got := Subject(l); got != want {
			t.Errorf("Subject(%+v) = %s, want %s", l, got, want)
		}
	}
}
