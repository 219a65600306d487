package tool

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"sync"

	"github.com/understudy-dev/understudy/internal/a11y"
)

// a11yRules is a11y_audit's rules: an array of rule ids (run only these)
// or axe's own per-rule options, {"color-contrast": {"enabled": false}}.
// It decodes anything; validate names what is wrong (field rules).
type a11yRules struct {
	IDs       []string
	Overrides map[string]bool
	bad       string
}

func (r *a11yRules) UnmarshalJSON(b []byte) error {
	*r = a11yRules{}
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || bytes.Equal(b, []byte("null")):
	case b[0] == '[':
		if json.Unmarshal(b, &r.IDs) != nil {
			r.bad = "an array of rule ids holds strings"
		}
	case b[0] == '{':
		var m map[string]map[string]json.RawMessage
		if json.Unmarshal(b, &m) != nil {
			r.bad = `rule options are {"rule-id": {"enabled": true|false}}`
			return nil
		}
		r.Overrides = make(map[string]bool, len(m))
		for _, id := range slices.Sorted(maps.Keys(m)) {
			o := m[id]
			var on bool
			raw, ok := o["enabled"]
			if len(o) != 1 || !ok || json.Unmarshal(raw, &on) != nil {
				r.bad = "rules." + id + ` is {"enabled": true|false} (the one rule option)`
				return nil
			}
			r.Overrides[id] = on
		}
	default:
		r.bad = `an array of rule ids, or rule options {"rule-id": {"enabled": false}}`
	}
	return nil
}

// axeEngine holds the engine the server loaded (once it loads; a failure
// is tried again at the next audit, so an operator can install it while
// the server runs).
type axeEngine struct {
	mu  sync.Mutex
	eng *a11y.Engine
}
