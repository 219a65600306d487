package tool

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/secret"
)

// electron_fill_form: several fields in one call (issue 30, point 4), each
// set and verified by the single tool its kind calls for.

func registerFillForm(s *Server) {
	define(s, Def{
		Name: "electron_fill_form", Title: "Fill a form", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Short:   "Fill several fields (text, checkbox, select, range, date) in one call, each verified; a failure names its field.",
		Desc:    "Fill several form fields in order, each by ref or selector with its value: a text field or editor is set as electron_type sets it, a checkbox, radio or switch (value true or false) as electron_check/uncheck, a select (an option's value or label, or a list) as electron_select_option, a range, number, date, time or color input or an ARIA slider as electron_set_value; each is verified as that tool verifies it. Returns what each field holds now (filled). The first field that fails stops the call with its own code, naming it in details.field (fields[i]), with what the fields before it hold in details.filled.",
	}, fillForm)
}

// maxFormFields bounds one call's fields.
const maxFormFields = 50

// formField is one field to fill.
type formField struct {
	Ref      int             `json:"ref,omitempty" jsonschema:"a ref from electron_snapshot or electron_find of the active surface"`
	Selector string          `json:"selector,omitempty" jsonschema:"a CSS selector in the active surface's document"`
	Value    json.RawMessage `json:"value" jsonschema:"text; true or false for a checkbox, radio or switch; an option's value or label, or a list of them, for a select; a number, date or color for those inputs and ARIA sliders"`
}

type fillFormArgs struct {
	Common
	thenArg
	Fields    []formField `json:"fields" jsonschema:"the fields in the order to fill them: {ref or selector, value}"`
	TimeoutMs int         `json:"timeoutMs,omitempty" jsonschema:"how long each field may take to become actionable; default 5000, max 30000"`
}

func (a *fillFormArgs) validate() error {
	if len(a.Fields) == 0 || len(a.Fields) > maxFormFields {
		return errs.BadArg("fields", "give 1 to %d fields", maxFormFields)
	}
	if a.TimeoutMs < 0 || a.TimeoutMs > int(page.MaxActionTimeout/time.Millisecond) {
		return errs.BadArg("timeoutMs", "must be between 0 and %d", page.MaxActionTimeout/time.Millisecond)
	}
	for i, f := range a.Fields {
		name := "fields[" + strconv.Itoa(i) + "]"
		if err := (page.Locator{Ref: f.Ref, Selector: f.Selector}).Check(); err != nil {
			return errs.BadArg(name, "needs a ref or a selector (one of them): %v", err)
		}
		if len(f.Value) == 0 || string(f.Value) == "null" {
			return errs.BadArg(name+".value", "is required")
		}
	}
	return nil
}

// filledField is what one field holds after the call, read back.
type filledField struct {
	Field   string         `json:"field" jsonschema:"fields[i], as given"`
	Kind    string         `json:"kind" jsonschema:"text, checkbox, select or value: the single tool that set it (electron_type, electron_check/uncheck, electron_select_option, electron_set_value)"`
	Value   *secret.String `json:"value,omitempty" jsonschema:"the text or value it holds now ([redacted] in a password field)"`
	Checked *bool          `json:"checked,omitempty"`
	Values  []string       `json:"values,omitempty" jsonschema:"the options chosen now"`
	Changed bool           `json:"changed"`
	Altered bool           `json:"altered,omitempty" jsonschema:"the page changed the value as it was set (a mask, a step)"`
}

// fillFormResult is electron_fill_form's result.
type fillFormResult struct {
	onSurface
	Filled []filledField `json:"filled"`
}

func fillForm(ctx context.Context, c *Call, a *fillFormArgs) (*fillFormResult, error) {
	out := &fillFormResult{Filled: []filledField{}}
	routed := c.surface
	timeout := page.DefaultActionTimeout
	if a.TimeoutMs > 0 {
		timeout = time.Duration(a.TimeoutMs) * time.Millisecond
	}
	for i, fld := range a.Fields {
		name := "fields[" + strconv.Itoa(i) + "]"
		// A ref acts in the surface that issued it, as a single tool's
		// would (refroute.go).
		c.surface = routed
		el := elementArgs{Ref: fld.Ref, Selector: fld.Selector}
		if err := c.routeRef(&el); err != nil {
			return nil, fieldFailed(err, name, out)
		}
		act := actArgs{elementArgs: el, TimeoutMs: int(timeout / time.Millisecond)}
		frame := func(ctx context.Context) (page.Frame, error) {
			_, f, err := frameOf(ctx, c)
			return f, err
		}
		ctl, err := c.Session.Pages.ControlWithin(ctx, frame, el.locator(), timeout)
		if err != nil {
			return nil, fieldFailed(err, name, out)
		}
		ff := filledField{Field: name, Kind: ctl.Kind}
		switch ff.Kind {
		case "file":
			return nil, fieldFailed(errs.BadArg(name, "is a file input; set its files with electron_set_files"), name, out)
		case "checkbox":
			want, ok := boolValue(fld.Value)
			if !ok {
				return nil, fieldFailed(errs.BadArg(name+".value", "a checkbox, radio or switch takes true or false"), name, out)
			}
			r, err := setChecked(ctx, c, &checkArgs{actArgs: act}, want)
			if err != nil {
				return nil, fieldFailed(err, name, out)
			}
			out.onSurface = r.On
			ff.Checked, ff.Changed = r.Checked, r.Changed != nil && *r.Changed
		case "select":
			values, ok := stringsValue(fld.Value)
			if !ok {
				return nil, fieldFailed(errs.BadArg(name+".value", "a select takes an option's value or label, or a list of them"), name, out)
			}
			r, err := selectOption(ctx, c, &selectArgs{actArgs: act, SelectValues: page.SelectValues{Values: values}})
			if err != nil {
				return nil, fieldFailed(err, name, out)
			}
			out.onSurface = r.On
			ff.Values, ff.Changed = r.Values, r.Changed
		case "value":
			v, ok := textValue(fld.Value)
			if !ok {
				return nil, fieldFailed(errs.BadArg(name+".value", "this control takes a number, date, time or color"), name, out)
			}
			r, err := setValue(ctx, c, &setValueArgs{elementArgs: el, ValueText: page.ValueText{Value: &v}})
			if err != nil {
				return nil, fieldFailed(err, name, out)
			}
			out.onSurface = r.On
			held := secret.Plain(r.Value)
			ff.Value, ff.Changed, ff.Altered = &held, r.Value != r.Was, r.Altered
		default:
			v, ok := textValue(fld.Value)
			if !ok {
				return nil, fieldFailed(errs.BadArg(name+".value", "a text field takes text"), name, out)
			}
			r, err := fill(ctx, c, &act, v)
			if err != nil {
				return nil, fieldFailed(err, name, out)
			}
			out.onSurface = r.On
			ff.Value, ff.Changed, ff.Altered = r.Value, r.Changed != nil && *r.Changed, r.Altered
		}
		out.Filled = append(out.Filled, ff)
	}
	return out, nil
}

// fieldFailed is the failure of one field: its own code and message,
// naming the field, with what the fields before it hold now.
func fieldFailed(err error, name string, done *fillFormResult) error {
	out := errs.CopyOf(err, name)
	out.Message = name + ": " + out.Message
	out.Details["field"] = name
	out.Details["filled"] = done.Filled
	return out
}

// boolValue reads a checkbox's wanted state: true, false, or their words.
func boolValue(raw json.RawMessage) (bool, bool) {
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b, true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return false, false
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "on", "yes", "checked":
		return true, true
	case "false", "off", "no", "unchecked":
		return false, true
	}
	return false, false
}

// textValue reads a text or number as the text to set.
func textValue(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String(), true
	}
	return "", false
}

// stringsValue reads one option or a list of them.
func stringsValue(raw json.RawMessage) ([]string, bool) {
	var l []string
	if json.Unmarshal(raw, &l) == nil {
		return l, true
	}
	if s, ok := textValue(raw); ok {
		return []string{s}, true
	}
	return nil, false
}
