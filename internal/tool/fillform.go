package tool

import (
	"context"
	"strconv"
	"time"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
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

type fillFormArgs struct {
	Common
	thenArg
	Fields    []act.FormField `json:"fields" jsonschema:"the fields in the order to fill them: {ref or selector, value}"`
	TimeoutMs int             `json:"timeoutMs,omitempty" jsonschema:"how long each field may take to become actionable; default 5000, max 30000"`
}

func (a *fillFormArgs) validate() error {
	if err := act.CheckFields(a.Fields); err != nil {
		return err
	}
	if a.TimeoutMs < 0 || a.TimeoutMs > int(page.MaxActionTimeout/time.Millisecond) {
		return errs.BadArg("timeoutMs", "must be between 0 and %d", page.MaxActionTimeout/time.Millisecond)
	}
	return nil
}

// fillFormResult is electron_fill_form's result.
type fillFormResult struct {
	onSurface
	Filled []act.FilledField `json:"filled"`
}

func fillForm(ctx context.Context, c *Call, a *fillFormArgs) (*fillFormResult, error) {
	out := &fillFormResult{Filled: []act.FilledField{}}
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
		var res *surface.Resolution // the field's surface, as the control was found in it
		var f page.Frame
		frame := func(ctx context.Context) (page.Frame, error) {
			r, fr, err := frameOf(ctx, c)
			res, f = r, fr
			return fr, err
		}
		ctl, err := c.Session.Pages.ControlWithin(ctx, frame, el.locator(), timeout)
		if err != nil {
			return nil, fieldFailed(err, name, out)
		}
		var opened *dialogOpened // electron_fill_form answers no dialog_opened
		t := targetOf(c, res, f)
		t.Guard = guardDialogs(ctx, c, res, &opened)
		ff, err := t.FillField(ctx, name, ctl.Kind, fld.Value, el.locator(), timeout)
		if err != nil {
			return nil, fieldFailed(err, name, out)
		}
		out.onSurface = res.On()
		out.Filled = append(out.Filled, *ff)
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
