package grid

import (
	"errors"
	"reflect"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestCheckTarget: a bad grid URL or chromeOptions is BAD_ARGUMENT naming
// the field.
func TestCheckTarget(t *testing.T) {
	for _, c := range []struct {
		grid  string
		caps  map[string]any
		field string
	}{
		{"http://grid:4444", nil, ""},
		{"ftp://grid", nil, "grid"},
		{"http://", nil, "grid"},
		{"https://grid", map[string]any{"goog:chromeOptions": "x"}, "capabilities"},
	} {
		err := CheckTarget(c.grid, c.caps)
		var e *errs.Error
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s: %v", c.grid, err)
		case c.field != "" && (!errors.As(err, &e) || e.Details["field"] != c.field):
			t.Errorf("%s: %v, want BAD_ARGUMENT naming %s", c.grid, err, c.field)
		}
	}
}

// TestAlwaysMatch: chrome by default, the binary and args in
// goog:chromeOptions, the caller's map untouched.
func TestAlwaysMatch(t *testing.T) {
	in := map[string]any{"goog:chromeOptions": map[string]any{"args": []any{"--a"}}}
	got := AlwaysMatch(in, "/bin/app", []string{"--b"})
	want := map[string]any{"browserName": "chrome", "goog:chromeOptions": map[string]any{"binary": "/bin/app", "args": []any{"--a", "--b"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, ok := in["browserName"]; ok {
		t.Error("the caller's capabilities changed")
	}
	if got := AlwaysMatch(nil, "", nil); !reflect.DeepEqual(got, map[string]any{"browserName": "chrome"}) {
		t.Errorf("empty: %v", got)
	}
}
