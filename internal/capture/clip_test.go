package capture

import (
	"fmt"
	"math"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

func TestClipCheck(t *testing.T) {
	for _, tc := range []struct {
		clip  Clip
		field string
	}{
		{Clip{X: 1, Y: 2, Width: 3, Height: 4}, ""},
		{Clip{Width: MaxClipSide, Height: MaxClipSide}, ""},
		{Clip{Width: 0, Height: 4}, "clip"},
		{Clip{Width: 3, Height: -1}, "clip"},
		{Clip{Width: MaxClipSide + 1, Height: 4}, "clip"},
		{Clip{X: math.NaN(), Width: 3, Height: 4}, "clip"},
		{Clip{Y: math.Inf(1), Width: 3, Height: 4}, "clip"},
	} {
		errstest.CheckField(t, fmt.Sprintf("%+v", tc.clip), tc.clip.Check(), tc.field)
	}
}
