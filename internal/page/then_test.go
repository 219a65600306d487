package page

import (
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestParseThen(t *testing.T) {
	p, err := ParseThen("text=Saved; diff ;timeout=1500")
	if err != nil || p.Cond == nil || p.Cond.Kind != CondText || !p.Diff || p.Timeout != 1500*time.Millisecond || p.What != "text=Saved" {
		t.Fatalf("%+v %v", p, err)
	}
	if p, err := ParseThen("gone=#spinner"); err != nil || p.Cond.State != StateHidden || p.Timeout != DefaultActionTimeout {
		t.Fatalf("gone: %+v %v", p, err)
	}
	for _, bad := range []string{"", "text=a;url=b", "timeout=0;diff", "wait=1", "text", "timeout=5"} {
		if _, err := ParseThen(bad); errs.CodeOf(err) != errs.BadArgument {
			t.Errorf("ParseThen(%q) = %v, want BAD_ARGUMENT", bad, err)
		}
	}
}
