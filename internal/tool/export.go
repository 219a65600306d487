package tool

import (
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/trace"
)

// exportable is a tool input that says what its call did in the terms of
// the Playwright export (trace.Action). trace_export_playwright decodes
// each recorded step's arguments into its tool's input, as the call did,
// and asks it: the trace never reads a tool's arguments by key.
type exportable interface{ export() trace.Action }

// exportAction is the Action of a recorded step: what its typed input
// says; else a launch, attach or end of a session connects through the
// relay; a read or an operator's view (a window or surface selected, a
// screenshot) is a note; a trace, visual or audit call is left out; and
// anything else has no Playwright equivalent (nil).
func (s *Server) exportAction(st trace.Step) trace.Action {
	d, ok := s.tools().defs[st.Tool]
	if !ok {
		return nil
	}
	switch d.Group {
	case "trace", "visual", "a11y":
		return trace.Ignore{}
	}
	in, err := d.decode(st.Args)
	if err != nil {
		return nil
	}
	if x, ok := in.(exportable); ok {
		return x.export()
	}
	switch {
	case d.Effects.OpensSession || d.Effects.EndsSession:
		return trace.Connect{}
	case d.Effects.Does == kRead || d.Class == classRead || d.Effects.Does == kSelect && d.Class == classLifecycle:
		return trace.Read{}
	}
	return nil
}

func (a *elementArgs) elem() trace.Elem {
	return trace.Elem{RefParam: "ref", Ref: a.Ref, Selector: a.Selector}
}

func (a *optElementArgs) elem() trace.Elem {
	return trace.Elem{RefParam: "ref", Ref: a.Ref, Selector: a.Selector}
}

func deref[T any](p *T) (v T) {
	if p != nil {
		v = *p
	}
	return v
}

func (a *navigateArgs) export() trace.Action { return trace.Navigate{URL: a.URL} }

func (a *clickArgs) export() trace.Action {
	return trace.Click{Elem: a.elem(), X: a.X, Y: a.Y, Button: a.Button, Count: a.ClickCount, Modifiers: a.Modifiers}
}

func (a *hoverArgs) export() trace.Action { return trace.Hover{Elem: a.elem()} }
func (a *typeArgs) export() trace.Action  { return trace.Fill{Elem: a.elem(), Text: deref(a.Text)} }
func (a *clearArgs) export() trace.Action { return trace.Fill{Elem: a.elem()} }

func (a *keyboardTypeArgs) export() trace.Action {
	return trace.TypeKeys{Elem: a.elem(), Text: deref(a.Text)}
}

func (a *keyArgs) export() trace.Action      { return trace.Press{Elem: a.elem(), Keys: []string{a.Key}} }
func (a *sequenceArgs) export() trace.Action { return trace.Press{Elem: a.elem(), Keys: a.Keys} }
func (a *checkArgs) export() trace.Action    { return trace.SetChecked{Elem: a.elem(), Checked: true} }
func (a *uncheckArgs) export() trace.Action  { return trace.SetChecked{Elem: a.elem()} }

func (a *selectArgs) export() trace.Action {
	return trace.SelectOptions{Elem: a.elem(), Values: a.Values}
}

func (a *scrollIntoViewArgs) export() trace.Action {
	return trace.ScrollIntoView{Elem: trace.Elem{RefParam: "ref", Ref: a.Ref, Selector: a.Selector}}
}

func (a *dragArgs) export() trace.Action {
	return trace.Drag{Source: a.elem(), Target: trace.Elem{RefParam: "targetRef", Ref: a.TargetRef, Selector: a.TargetSelector}}
}

func (a *scrollArgs) export() trace.Action { return trace.Wheel{DX: a.Dx, DY: a.Dy} }

// textExpectation is the assertion of a text match on the element.
func textExpectation(m *page.TextOperators, el trace.Elem, value bool, regex *string) trace.ExpectText {
	return trace.ExpectText{Elem: el, Value: value, Equals: m.Equals, NotEquals: m.NotEquals,
		Contains: m.Contains, NotContains: m.NotContains, Regex: regex, Flags: m.Flags}
}

func (a *expectTextArgs) export() trace.Action {
	return textExpectation(&a.TextOperators, a.elem(), false, a.Regex)
}

func (a *expectValueArgs) export() trace.Action {
	return textExpectation(&a.TextOperators, a.elem(), true, a.Regex)
}

func (a *assertPatternArgs) export() trace.Action {
	regex := a.Regex
	if regex == nil {
		regex = a.Pattern
	}
	return textExpectation(&a.TextOperators, a.elem(), false, regex)
}

func (a *expectVisibleArgs) export() trace.Action {
	return trace.ExpectVisible{Elem: a.elem(), Visible: a.Visible == nil || *a.Visible}
}

func (a *waitSelectorArgs) export() trace.Action {
	return trace.WaitFor{Elem: a.elem(), State: a.State}
}

func (a *waitStateArgs) export() trace.Action {
	state := map[string]bool{}
	for k, v := range a.State {
		b, _ := v.(bool)
		state[k] = b
	}
	return trace.ExpectState{Elem: a.elem(), State: state}
}

func (a *expectCountArgs) export() trace.Action {
	return trace.ExpectCount{Selector: a.Selector, Role: a.Role, Name: a.Name, Equals: a.Equals}
}

func (a *expectURLArgs) export() trace.Action {
	return trace.ExpectURL{Contains: a.Contains, Matches: a.Matches, Flags: a.Flags}
}
