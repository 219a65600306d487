package a11y

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestCacheTriesAgain: a failed load is not kept; the next Get tries again.
func TestCacheTriesAgain(t *testing.T) {
	var c Cache
	for i := 0; i < 2; i++ {
		eng, err := c.Get("")
		if e := errs.As(err); eng != nil || e == nil || e.Code != errs.A11yEngineMissing {
			t.Fatalf("get %d: %v, %v; want A11Y_ENGINE_MISSING", i, eng, err)
		}
	}
}
