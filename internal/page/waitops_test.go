package page

import (
	"context"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestWaitOperationsAnswer: the waits and expectations as whole
// operations answer their result types on the surface (with the fallback
// the frame came with) or WAIT_TIMEOUT / EXPECTATION_FAILED saying what was
// last seen; RunThen puts the action's answer in a failure.
func TestWaitOperationsAnswer(t *testing.T) {
	s := NewStore()
	tb := openTab(t, dataURL(`<button id="b">Save</button><p id="p">Saved 3 items</p><ul><li>a</li><li>b</li></ul>`))
	fb := &Fallback{From: "gone", To: "w", Reason: "closed"}
	frame := func(context.Context) (Frame, error) {
		f := tb.frame("w")
		f.Fallback = fb
		return f, nil
	}
	ctx := ctxT(t)
	zero := &WaitBudget{TimeoutMs: intp(0)}

	sel, err := s.WaitSelector(ctx, frame, Locator{Selector: "#b"}, &SelectorWait{})
	if err != nil || sel.SurfaceID != "w" || sel.Fallback != fb || sel.WaitedFor != StateVisible ||
		sel.Actual == nil || !sel.Actual.Visible || sel.Element == nil || sel.Element.Role != "button" {
		t.Fatalf("selector wait: %+v %v", sel, err)
	}
	_, err = s.WaitSelector(ctx, frame, Locator{Selector: "#none"}, &SelectorWait{WaitBudget: *zero})
	if e := wantCode(t, err, errs.WaitTimeout); e.Message != `"#none" did not become visible (checked once)` || e.Details["state"] != StateVisible {
		t.Errorf("selector timeout: %s %v", e.Message, e.Details)
	}
	_, err = s.WaitState(ctx, frame, Locator{Selector: "#none"}, &StateWait{*zero, StateWant{State: map[string]any{"enabled": true}}})
	if e := wantCode(t, err, errs.WaitTimeout); !strings.HasSuffix(e.Message, "(no element matched)") {
		t.Errorf("state timeout: %s", e.Message)
	}
	st, err := s.WaitState(ctx, frame, Locator{Selector: "#b"}, &StateWait{StateWant: StateWant{State: map[string]any{"enabled": true}}})
	if err != nil || st.State == nil || !st.State.Enabled || st.Element == nil {
		t.Fatalf("state wait: %+v %v", st, err)
	}

	saved := "Saved"
	txt, err := s.ExpectText(ctx, frame, Locator{Selector: "#p"}, &TextExpectation{TextOperators: TextOperators{Contains: &saved}})
	if err != nil || !txt.Passed || txt.Actual != "Saved 3 items" || txt.Fallback != fb {
		t.Fatalf("expect text: %+v %v", txt, err)
	}
	other := "Other"
	_, err = s.ExpectText(ctx, frame, Locator{Selector: "#p"}, &TextExpectation{*zero, TextOperators{Equals: &other}})
	if e := wantCode(t, err, errs.ExpectationFailed); !strings.HasPrefix(e.Message, `the text of "#p": expected`) || e.Details["found"] != true {
		t.Errorf("expect text failed: %s %v", e.Message, e.Details)
	}
	cnt, err := s.ExpectCount(ctx, frame, &CountExpectation{CountQuery: CountQuery{Selector: "li", Equals: intp(2)}})
	if err != nil || cnt.Actual != 2 {
		t.Fatalf("expect count: %+v %v", cnt, err)
	}
	vis, err := s.ExpectVisible(ctx, frame, Locator{Selector: "#none"}, &VisibleExpectation{VisibleWant: VisibleWant{Visible: new(bool)}})
	if err != nil || vis.Actual {
		t.Fatalf("expect hidden: %+v %v", vis, err)
	}
	pat := "^Saved \\d+"
	ap, err := s.AssertPattern(ctx, frame, Locator{Selector: "#p"}, &PatternQuery{Pattern: &pat})
	if err != nil || !ap.Passed {
		t.Fatalf("assert pattern: %+v %v", ap, err)
	}

	plan, err := ParseThen("text=Never shown;timeout=200")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.RunThen(ctx, frame, "electron_click", plan, map[string]any{"clicked": true})
	e := wantCode(t, err, errs.ExpectationFailed)
	if e.Details["acted"] != true || e.Details["result"] == nil || !strings.HasPrefix(e.Message, "electron_click was done; then text=Never shown did not hold within 200 ms") {
		t.Errorf("then failed: %s %v", e.Message, e.Details)
	}
	plan, _ = ParseThen("text=Saved;diff")
	then, err := s.RunThen(ctx, frame, "electron_click", plan, nil)
	if err != nil || !then.Met || then.Diff == "" {
		t.Fatalf("then: %+v %v", then, err)
	}
}

// TestReadOperationsAnswer: the reads answer their result types with the
// surface they read in; a find without scroll finds once.
func TestReadOperationsAnswer(t *testing.T) {
	s := NewStore()
	tb := openTab(t, dataURL(`<input id="pw" type="password" value="hunter2"><button id="b" title="t">Go</button>`))
	f, ctx := tb.frame("w"), ctxT(t)
	if r, err := s.ReadExists(ctx, f, Locator{Selector: "#b"}); err != nil || !r.Exists || r.SurfaceID != "w" {
		t.Errorf("exists: %+v %v", r, err)
	}
	if r, err := s.ReadText(ctx, f, Locator{Selector: "#b"}); err != nil || r.TextRead == nil || r.Text.Reveal() != "Go" {
		t.Errorf("text: %+v %v", r, err)
	}
	if r, err := s.ReadValue(ctx, f, Locator{Selector: "#pw"}, false); err != nil || !r.Value.IsSecret() || r.Value.String() == "hunter2" {
		t.Errorf("value not redacted: %+v %v", r, err)
	}
	if r, err := s.ReadAttribute(ctx, f, Locator{Selector: "#b"}, &AttributeName{Name: "title"}, false); err != nil || r.Value == nil || r.Value.Reveal() != "t" {
		t.Errorf("attribute: %+v %v", r, err)
	}
	if r, err := s.ReadStyle(ctx, f, Locator{Selector: "#b"}, &StyleQuery{Properties: []string{"display"}}); err != nil || r.Style["display"] == "" {
		t.Errorf("style: %+v %v", r, err)
	}
	if r, err := s.FindScrolling(ctx, f, FindQuery{Role: "button"}, &FindScroll{}, 0); err != nil || r.Count != 1 || r.ScrolledPages != nil {
		t.Errorf("find: %+v %v", r, err)
	}
}
