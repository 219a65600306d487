package visual

import (
	"errors"
	"math"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestMasksAndToleranceChecked(t *testing.T) {
	one, nan := 1.0, math.NaN()
	fieldOf := func(err error) string {
		var e *errs.Error
		if !errors.As(err, &e) || e.Code != errs.BadArgument {
			return ""
		}
		f, _ := e.Details["field"].(string)
		return f
	}
	for _, tc := range []struct {
		name  string
		masks []Mask
		field string
	}{
		{"selector", []Mask{{Selector: "#a"}}, ""},
		{"rect", []Mask{{X: &one, Y: &one, Width: 2, Height: 2}}, ""},
		{"both", []Mask{{Selector: "#a", X: &one, Y: &one, Width: 2, Height: 2}}, "masks"},
		{"neither", []Mask{{}}, "masks"},
		{"half a rect", []Mask{{X: &one, Width: 2, Height: 2}}, "masks"},
		{"too many", make([]Mask, MaxMasks+1), "masks"},
	} {
		if got := fieldOf(CheckMasks(tc.masks)); got != tc.field || (tc.field == "" && CheckMasks(tc.masks) != nil) {
			t.Errorf("%s: CheckMasks = %v", tc.name, CheckMasks(tc.masks))
		}
	}
	big := 1.5
	if err := CheckTolerance(nil, 0); err != nil {
		t.Errorf("defaults refused: %v", err)
	}
	if f := fieldOf(CheckTolerance(&big, 0)); f != "threshold" {
		t.Errorf("threshold 1.5: field %q", f)
	}
	if f := fieldOf(CheckTolerance(&nan, 0)); f != "threshold" {
		t.Errorf("threshold NaN: field %q", f)
	}
	if f := fieldOf(CheckTolerance(nil, -0.1)); f != "maxDiffRatio" {
		t.Errorf("maxDiffRatio -0.1: field %q", f)
	}
}
