package capture

import (
	"errors"
	"math"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestClipCheck(t *testing.T) {
	for _, tc := range []struct {
		clip Clip
		ok   bool
	}{
		{Clip{X: 1, Y: 2, Width: 3, Height: 4}, true},
		{Clip{Width: MaxClipSide, Height: MaxClipSide}, true},
		{Clip{Width: 0, Height: 4}, false},
		{Clip{Width: 3, Height: -1}, false},
		{Clip{Width: MaxClipSide + 1, Height: 4}, false},
		{Clip{X: math.NaN(), Width: 3, Height: 4}, false},
		{Clip{Y: math.Inf(1), Width: 3, Height: 4}, false},
	} {
		err := tc.clip.Check()
		if tc.ok != (err == nil) {
			t.Errorf("%+v: Check() = %v", tc.clip, err)
			continue
		}
		var e *errs.Error
		if err != nil && (!errors.As(err, &e) || e.Code != errs.BadArgument || e.Details["field"] != "clip") {
			t.Errorf("%+v: %v is not BAD_ARGUMENT naming clip", tc.clip, err)
		}
	}
}
