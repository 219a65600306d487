package act

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

// maxFormFields bounds one form's fields.
const maxFormFields = 50

// FormField is one field to fill.
type FormField struct {
	Ref      int             `json:"ref,omitempty" jsonschema:"a ref from electron_snapshot or electron_find of the active surface"`
	Selector string          `json:"selector,omitempty" jsonschema:"a CSS selector in the active surface's document"`
	Value    json.RawMessage `json:"value" jsonschema:"text; true or false for a checkbox, radio or switch; an option's value or label, or a list of them, for a select; a number, date or color for those inputs and ARIA sliders"`
}

// CheckFields validates a form's fields: 1 to 50, each with a ref or a
// selector and a value.
func CheckFields(fields []FormField) error {
	if len(fields) == 0 || len(fields) > maxFormFields {
		return errs.BadArg("fields", "give 1 to %d fields", maxFormFields)
	}
	for i, f := range fields {
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
// FilledField is what filling one field of a form left in it.
type FilledField struct {
	Field   string         `json:"field" jsonschema:"fields[i], as given"`
	Kind    string         `json:"kind" jsonschema:"text, checkbox, select or value: the single tool that set it (electron_type, electron_check/uncheck, electron_select_option, electron_set_value)"`
	Value   *secret.String `json:"value,omitempty" jsonschema:"the text or value it holds now ([redacted] in a password field)"`
	Checked *bool          `json:"checked,omitempty"`
	Values  []string       `json:"values,omitempty" jsonschema:"the options chosen now"`
	Changed bool           `json:"changed"`
	Altered bool           `json:"altered,omitempty" jsonschema:"the page changed the value as it was set (a mask, a step)"`
}

// FillField sets the field loc names, of the kind the page found (file,
// checkbox, select, value or text), from the value given, as the single
// action for that kind sets and verifies it; name is the field as the
// caller gave it (fields[i]).
func (t Target) FillField(ctx context.Context, name, kind string, value json.RawMessage, loc page.Locator, timeout time.Duration) (*FilledField, error) {
	ff := &FilledField{Field: name, Kind: kind}
	switch kind {
	case "file":
		return nil, errs.BadArg(name, "is a file input; set its files with electron_set_files")
	case "checkbox":
		want, ok := boolValue(value)
		if !ok {
			return nil, errs.BadArg(name+".value", "a checkbox, radio or switch takes true or false")
		}
		r, err := t.SetChecked(ctx, loc, want, false, timeout)
		if err != nil {
			return nil, err
		}
		ff.Checked, ff.Changed = r.Checked, r.Changed != nil && *r.Changed
	case "select":
		values, ok := stringsValue(value)
		if !ok {
			return nil, errs.BadArg(name+".value", "a select takes an option's value or label, or a list of them")
		}
		r, err := t.Select(ctx, loc, values, timeout)
		if err != nil {
			return nil, err
		}
		ff.Values, ff.Changed = r.Values, r.Changed
	case "value":
		v, ok := textValue(value)
		if !ok {
			return nil, errs.BadArg(name+".value", "this control takes a number, date, time or color")
		}
		r, err := t.SetValue(ctx, loc, page.ValueText{Value: &v})
		if err != nil {
			return nil, err
		}
		held := secret.Plain(r.Value)
		ff.Value, ff.Changed, ff.Altered = &held, r.Value != r.Was, r.Altered
	default:
		v, ok := textValue(value)
		if !ok {
			return nil, errs.BadArg(name+".value", "a text field takes text")
		}
		r, err := t.Fill(ctx, loc, v, timeout)
		if err != nil {
			return nil, err
		}
		ff.Value, ff.Changed, ff.Altered = r.Value, r.Changed != nil && *r.Changed, r.Altered
	}
	return ff, nil
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
