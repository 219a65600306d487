package page

import (
	"math"
	"strconv"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// The options of the form controls' setters, as callers give them
// (docs/adr/045).

// SelectValues are the options to choose in a select.
type SelectValues struct {
	Values []string `json:"values" jsonschema:"option values or visible labels to choose; several for a multiple select, [] deselects all"`
}

// Check refuses no list ([] is a list: deselect all).
func (a *SelectValues) Check() error {
	if a.Values == nil {
		return errs.BadArg("values", "is required: the values or labels of the options to choose")
	}
	return nil
}

// ValueText is the value to give a control that holds one of its own.
type ValueText struct {
	Value *string `json:"value" jsonschema:"a number, or date, time or color text"`
}

// Check refuses no value.
func (a *ValueText) Check() error {
	if a.Value == nil {
		return errs.BadArg("value", "is required")
	}
	return nil
}

// Number is the value as an ARIA control's number (aria-valuenow), or
// BAD_ARGUMENT naming value; role names the control in the message.
func (a *ValueText) Number(role string) (float64, error) {
	want, err := strconv.ParseFloat(strings.TrimSpace(*a.Value), 64)
	if err != nil || math.IsNaN(want) || math.IsInf(want, 0) {
		return 0, errs.BadArg("value", "the %s takes a number (aria-valuenow), not %s", role, strconv.Quote(*a.Value))
	}
	return want, nil
}

// CheckWithin refuses a value outside the ARIA control's
// aria-valuemin and aria-valuemax, naming the field value.
func (st *ValueState) CheckWithin(want float64) error {
	if (st.VMin != nil && want < *st.VMin) || (st.VMax != nil && want > *st.VMax) {
		return errs.BadArg("value", "%s lies outside the %s's range %s to %s", NumStr(want), st.Role, NumPtrStr(st.VMin), NumPtrStr(st.VMax))
	}
	return nil
}
