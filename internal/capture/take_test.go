package capture

import (
	"context"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestElementClipRefusesAnEmptyBox(t *testing.T) {
	s := NewShooter(nil) // an empty box is refused before the window is asked
	for _, box := range [][2]float64{{0, 10}, {10, 0}, {-1, 5}} {
		_, _, err := s.ElementClip(context.Background(), 1, 2, box[0], box[1])
		if e := errs.As(err); e == nil || e.Code != errs.ElementNotVisible {
			t.Errorf("box %v: %v", box, err)
		}
	}
}
