package visual

import (
	"math"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

func TestMasksAndToleranceChecked(t *testing.T) {
	one, nan := 1.0, math.NaN()
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
		errstest.CheckField(t, tc.name, CheckMasks(tc.masks), tc.field)
	}
	big := 1.5
	errstest.CheckField(t, "defaults", CheckTolerance(nil, 0), "")
	errstest.CheckField(t, "threshold 1.5", CheckTolerance(&big, 0), "threshold")
	errstest.CheckField(t, "threshold NaN", CheckTolerance(&nan, 0), "threshold")
	errstest.CheckField(t, "maxDiffRatio -0.1", CheckTolerance(nil, -0.1), "maxDiffRatio")
	errstest.CheckField(t, "Tolerance defaults", Tolerance{}.Check(), "")
	errstest.CheckField(t, "Tolerance threshold 1.5", Tolerance{Threshold: &big}.Check(), "threshold")
	errstest.CheckField(t, "Tolerance maxDiffRatio 2", Tolerance{MaxDiffRatio: 2}.Check(), "maxDiffRatio")
}
