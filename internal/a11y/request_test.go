package a11y

import (
	"encoding/json"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

// TestRequestCheck: a11y_audit's arguments, decoded as the tool decodes
// them, are refused with BAD_ARGUMENT naming the field, or pass.
func TestRequestCheck(t *testing.T) {
	for _, c := range []struct {
		json  string
		field string // "" when the input is good
	}{
		{`{"rules": 3}`, "rules"},
		{`{"rules": [1]}`, "rules"},
		{`{"rules": {"image-alt": {"enabled": false, "x": 1}}}`, "rules"},
		{`{"rules": ["image-alt"], "tags": ["wcag2a"]}`, "rules"},
		{`{"surfaces": "some"}`, "surfaces"},
		{`{"surfaces": "all", "surfaceId": "s1"}`, "surfaceId"},
		{`{"scope": "#a", "include": ["#b"]}`, "scope"},
		{`{"impactMin": "huge"}`, "impact"},
		{`{"maxNodesPerViolation": 51}`, "maxNodes"},
		{`{"rules": {"color-contrast": {"enabled": false}}, "scope": "main", "surfaces": "all"}`, ""},
	} {
		var r Request
		if err := json.Unmarshal([]byte(c.json), &r); err != nil {
			t.Fatalf("%s: %v", c.json, err)
		}
		errstest.CheckField(t, c.json, r.Check(), c.field)
	}
	r := Request{Scope: "main"}
	if o := r.Options(); len(o.Include) != 1 || o.Include[0] != "main" {
		t.Fatalf("scope is the one include: %+v", o)
	}
}
