package act

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

func TestPointArgsChecked(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name    string
		p       PointArgs
		element bool
		field   string
	}{
		{"nothing", PointArgs{}, true, ""},
		{"a point", PointArgs{X: f(1), Y: f(2)}, false, ""},
		{"a point with an element", PointArgs{X: f(1), Y: f(2)}, true, "x"},
		{"x alone", PointArgs{X: f(1)}, false, "y"},
		{"y alone", PointArgs{Y: f(1)}, false, "x"},
		{"point and position", PointArgs{X: f(1), Y: f(2), Position: &XY{1, 1}}, false, "position"},
		{"x NaN", PointArgs{X: f(math.NaN()), Y: f(2)}, false, "x"},
		{"y negative", PointArgs{X: f(1), Y: f(-1)}, false, "y"},
		{"x infinite", PointArgs{X: f(math.Inf(1)), Y: f(2)}, false, "x"},
		{"position", PointArgs{Position: &XY{3, 4}}, true, ""},
		{"position without an element", PointArgs{Position: &XY{3, 4}}, false, "position"},
		{"position negative", PointArgs{Position: &XY{-3, 4}}, true, "position"},
	} {
		errstest.CheckField(t, tc.name, tc.p.Check(tc.element), tc.field)
	}
	if p := (PointArgs{X: f(1), Y: f(2)}); !p.AtPoint() || p.Pos() != nil {
		t.Errorf("x/y: AtPoint %v, Pos %v; want a point and no position", p.AtPoint(), p.Pos())
	}
	if o := (&PointArgs{Position: &XY{3, 4}}).Pos(); o == nil || o.X != 3 || o.Y != 4 {
		t.Errorf("position {3, 4} gives the offset %v", o)
	}
}

func TestDragArgsChecked(t *testing.T) {
	for _, tc := range []struct {
		name  string
		d     DragArgs
		field string
	}{
		{"by ref", DragArgs{TargetRef: 3}, ""},
		{"by selector, reorder", DragArgs{TargetSelector: "#b", Expect: "reorder", Steps: 20}, ""},
		{"no target", DragArgs{}, "targetSelector"},
		{"blank selector", DragArgs{TargetSelector: "  "}, "targetSelector"},
		{"negative ref", DragArgs{TargetRef: -1}, "targetRef"},
		{"both", DragArgs{TargetRef: 2, TargetSelector: "#b"}, "targetRef"},
		{"too many steps", DragArgs{TargetRef: 2, Steps: maxDragSteps + 1}, "steps"},
		{"negative steps", DragArgs{TargetRef: 2, Steps: -1}, "steps"},
		{"unknown expect", DragArgs{TargetRef: 2, Expect: "swap"}, "expect"},
	} {
		errstest.CheckField(t, tc.name, tc.d.Check(), tc.field)
	}
}

func TestRevealArgsChecked(t *testing.T) {
	for _, tc := range []struct {
		name  string
		r     RevealArgs
		field string
	}{
		{"by ref", RevealArgs{Ref: 4}, ""},
		{"by selector in a list", RevealArgs{Selector: "#row-900", ListSelector: "#list"}, ""},
		{"by role and name", RevealArgs{Role: "row", NameContains: "900", ListRef: 7}, ""},
		{"nothing", RevealArgs{}, "selector"},
		{"blank selector", RevealArgs{Selector: " "}, "selector"},
		{"negative ref", RevealArgs{Ref: -2}, "ref"},
		{"ref and selector", RevealArgs{Ref: 2, Selector: "#a"}, "ref"},
		{"ref and name", RevealArgs{Ref: 2, Name: "Save"}, "ref"},
		{"selector and role", RevealArgs{Selector: "#a", Role: "row"}, "selector"},
		{"two lists", RevealArgs{Role: "row", ListRef: 2, ListSelector: "#l"}, "listRef"},
		{"timeout too long", RevealArgs{Ref: 2, TimeoutMs: 60000}, "timeoutMs"},
	} {
		errstest.CheckField(t, tc.name, tc.r.Check(), tc.field)
	}
}

func TestFormFieldsChecked(t *testing.T) {
	v := json.RawMessage(`"x"`)
	for _, tc := range []struct {
		name   string
		fields []FormField
		field  string
	}{
		{"one by ref", []FormField{{Ref: 3, Value: v}}, ""},
		{"none", nil, "fields"},
		{"too many", make([]FormField, maxFormFields+1), "fields"},
		{"no element", []FormField{{Ref: 3, Value: v}, {Value: v}}, "fields[1]"},
		{"no value", []FormField{{Selector: "#a"}}, "fields[0].value"},
		{"null value", []FormField{{Selector: "#a", Value: json.RawMessage("null")}}, "fields[0].value"},
	} {
		errstest.CheckField(t, tc.name, CheckFields(tc.fields), tc.field)
	}
}

func TestFormValuesRead(t *testing.T) {
	for raw, want := range map[string]bool{`true`: true, `"on"`: true, `" Checked "`: true, `false`: false, `"no"`: false} {
		if got, ok := boolValue(json.RawMessage(raw)); !ok || got != want {
			t.Errorf("boolValue(%s) = %v, %v; want %v", raw, got, ok, want)
		}
	}
	for _, raw := range []string{`"maybe"`, `1`, `[]`} {
		if _, ok := boolValue(json.RawMessage(raw)); ok {
			t.Errorf("boolValue(%s) took it", raw)
		}
	}
	if s, ok := textValue(json.RawMessage(`42.50`)); !ok || s != "42.50" {
		t.Errorf("textValue(42.50) = %q, %v; want the number as written", s, ok)
	}
	if l, ok := stringsValue(json.RawMessage(`["a","b"]`)); !ok || len(l) != 2 {
		t.Errorf("stringsValue of a list = %v, %v", l, ok)
	}
	if l, ok := stringsValue(json.RawMessage(`"a"`)); !ok || len(l) != 1 || l[0] != "a" {
		t.Errorf("stringsValue of one = %v, %v", l, ok)
	}
	if _, ok := stringsValue(json.RawMessage(`{"a":1}`)); ok {
		t.Error("stringsValue took an object")
	}
}

func TestPressArgsChecked(t *testing.T) {
	long := strings.Repeat("x", maxTypeChars+1)
	text := "hello"
	for _, tc := range []struct {
		name  string
		err   error
		field string
	}{
		{"a double click", (&ClickArgs{ClickCount: 2, Button: "Right", Modifiers: []string{"Shift"}}).Check(), ""},
		{"four clicks", (&ClickArgs{ClickCount: 4}).Check(), "clickCount"},
		{"a fourth button", (&ClickArgs{Button: "back"}).Check(), "button"},
		{"an unknown modifier", (&ClickArgs{Modifiers: []string{"Hyper"}}).Check(), "modifiers"},
		{"a chord", (&KeyArgs{Key: "Control+Shift+P"}).Check(), ""},
		{"no key", (&KeyArgs{}).Check(), "key"},
		{"keys", (&SequenceArgs{Keys: []string{"Control+A", "Backspace"}, DelayMs: 20}).Check(), ""},
		{"no keys", (&SequenceArgs{}).Check(), "keys"},
		{"too many keys", (&SequenceArgs{Keys: make([]string, maxSequence+1)}).Check(), "keys"},
		{"a bad key among them", (&SequenceArgs{Keys: []string{"Enter", "Control+"}}).Check(), "keys[1]"},
		{"a long delay", (&SequenceArgs{Keys: []string{"a"}, DelayMs: 1001}).Check(), "delayMs"},
		{"field text", (&FieldText{Text: &text}).Check(), ""},
		{"no field text", (&FieldText{}).Check(), "text"},
		{"too much key text", (&KeyText{Text: &long}).Check(), "text"},
		{"editor text", (&EditorText{Text: &text, Replace: true}).Check(), ""},
		{"a wheel", (&WheelArgs{Dy: 300}).Check(false), ""},
		{"no wheel, an element", (&WheelArgs{}).Check(true), ""},
		{"no wheel, no element", (&WheelArgs{}).Check(false), "dy"},
		{"a wheel too far", (&WheelArgs{Dx: -2e6}).Check(false), "dy"},
	} {
		errstest.CheckField(t, tc.name, tc.err, tc.field)
	}
	if d := (&SequenceArgs{DelayMs: 250}).Delay(); d != 250*time.Millisecond {
		t.Errorf("Delay() = %v, want 250ms", d)
	}
}
