package tool

import (
	"encoding/json"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestDecodeArgsNamesUnknownField pins the one text match left in decoding:
// encoding/json reports an unknown field only as text, and decodeArgs must
// still name the field (and name the field of a wrong type, by type).
func TestDecodeArgsNamesUnknownField(t *testing.T) {
	var in struct {
		Selector string `json:"selector"`
		N        int    `json:"n"`
	}
	for _, c := range []struct{ raw, field string }{
		{`{"selector":"a","bogus":1}`, "bogus"},
		{`{"n":"x"}`, "n"},
		{`[1]`, "arguments"},
		{`{"n":`, "arguments"},
	} {
		err := decodeArgs(json.RawMessage(c.raw), &in)
		e := errs.As(err)
		if e == nil || e.Code != errs.BadArgument || e.Details["field"] != c.field {
			t.Errorf("%s: %v, want BAD_ARGUMENT naming %q", c.raw, err, c.field)
		}
	}
}
