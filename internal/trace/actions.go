package trace

// An Action is what a recorded step did, in the terms the Playwright
// export writes. The server makes one from each step's arguments after
// decoding them into the tool's own typed input (the tool's input says
// which action it is); the trace never reads a tool's arguments itself
// nor knows a tool by name. A step with no action has no Playwright
// equivalent and is listed as skipped.
type Action interface{ isAction() }

// Elem is the element an action names: a ref, by the parameter that
// carried it (the step's Targets say what it named when recorded), or a
// CSS selector in the step's surface.
type Elem struct {
	RefParam string // "ref", "targetRef"
	Ref      int
	Selector string
}

// Read is a step that only looked (a snapshot, a read, a listing): the
// export notes it and goes on.
type Read struct{}

// Connect is a launch, attach, stop or detach: the exported test connects
// to the running app through the relay instead.
type Connect struct{}

// Navigate loads URL in the step's window.
type Navigate struct{ URL string }

// Click presses at Elem, or at the viewport point X, Y when Elem names
// nothing.
type Click struct {
	Elem      Elem
	X, Y      *float64
	Button    string
	Count     int
	Modifiers []string
}

// Hover moves the mouse onto Elem.
type Hover struct{ Elem Elem }

// Fill sets a field's whole text (clearing it when Text is "").
type Fill struct {
	Elem Elem
	Text string
}

// TypeKeys types Text as key events into Elem, or the focused element.
type TypeKeys struct {
	Elem Elem
	Text string
}

// Press presses keys or chords in order into Elem, or the focused element.
type Press struct {
	Elem Elem
	Keys []string
}

// SetChecked checks (or unchecks) Elem.
type SetChecked struct {
	Elem    Elem
	Checked bool
}

// SelectOptions chooses options of a select by value or label.
type SelectOptions struct {
	Elem   Elem
	Values []string
}

// ScrollIntoView brings Elem into view.
type ScrollIntoView struct{ Elem Elem }

// Drag drags Source onto Target.
type Drag struct{ Source, Target Elem }

// Wheel turns the mouse wheel by DX, DY.
type Wheel struct{ DX, DY float64 }

// ExpectText asserts an element's text (its value when Value) with one
// of the matchers.
type ExpectText struct {
	Elem                                     Elem
	Value                                    bool
	Equals, NotEquals, Contains, NotContains *string
	Regex                                    *string
	Flags                                    string
}

// ExpectVisible asserts an element is visible (or hidden).
type ExpectVisible struct {
	Elem    Elem
	Visible bool
}

// WaitFor waits for an element's state: attached, visible, hidden or
// detached ("" is visible).
type WaitFor struct {
	Elem  Elem
	State string
}

// ExpectState asserts an element's state flags.
type ExpectState struct {
	Elem  Elem
	State map[string]bool
}

// ExpectCount asserts how many elements match a selector or a role and
// name; only an exact count (Equals) exports.
type ExpectCount struct {
	Selector, Role, Name string
	Equals               *int
}

// ExpectURL asserts the page's URL contains a text or matches a regex.
type ExpectURL struct {
	Contains, Matches *string
	Flags             string
}

func (Read) isAction()           {}
func (Connect) isAction()        {}
func (Navigate) isAction()       {}
func (Click) isAction()          {}
func (Hover) isAction()          {}
func (Fill) isAction()           {}
func (TypeKeys) isAction()       {}
func (Press) isAction()          {}
func (SetChecked) isAction()     {}
func (SelectOptions) isAction()  {}
func (ScrollIntoView) isAction() {}
func (Drag) isAction()           {}
func (Wheel) isAction()          {}
func (ExpectText) isAction()     {}
func (ExpectVisible) isAction()  {}
func (WaitFor) isAction()        {}
func (ExpectState) isAction()    {}
func (ExpectCount) isAction()    {}
func (ExpectURL) isAction()      {}
