package files

import (
	"errors"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestPathsCheck: no list, too many or a relative path is refused,
// naming the field.
func TestPathsCheck(t *testing.T) {
	many := make([]string, MaxPaths+1)
	for i := range many {
		many[i] = "/f"
	}
	for _, c := range []struct {
		paths []string
		code  errs.Code
		field string
	}{
		{nil, errs.BadArgument, "paths"},
		{many, errs.BadArgument, "paths"},
		{[]string{"/a", "b"}, errs.AbsolutePathRequired, "paths[1]"},
		{[]string{}, "", ""},
		{[]string{"/a"}, "", ""},
	} {
		err := (&PathList{Paths: c.paths}).Check()
		var e *errs.Error
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%v: %v", c.paths, err)
		case c.field != "" && (!errors.As(err, &e) || e.Code != c.code || e.Details["field"] != c.field):
			t.Errorf("%d paths: %v, want %s naming %s", len(c.paths), err, c.code, c.field)
		}
	}
}
