package a11y

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Rules is a11y_audit's rules: an array of rule ids (run only these) or
// axe's own per-rule options, {"color-contrast": {"enabled": false}}. It
// decodes anything; Request.Check names what is wrong (field rules). Its
// JSON Schema is internal/tool's (it decodes itself).
type Rules struct {
	IDs       []string
	Overrides map[string]bool
	bad       string
}

// UnmarshalJSON reads either shape, and notes what is wrong with anything
// else for Check.
func (r *Rules) UnmarshalJSON(b []byte) error {
	*r = Rules{}
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

// Request is a11y_audit's arguments: where to audit (the active surface,
// one surface, or every surface of the active window) and the Options, as
// the tool names them.
type Request struct {
	SurfaceID            string   `json:"surfaceId,omitempty" jsonschema:"audit this surface (an id from electron_surfaces_list) instead of the active one"`
	Surfaces             string   `json:"surfaces,omitempty" jsonschema:"'all': the active window and every surface in it (frames, nested OOPIFs, webviews)"`
	Rules                Rules    `json:"rules,omitempty" jsonschema:"axe rule ids to run only these, or axe's rule options {\"color-contrast\": {\"enabled\": false}}; unknown ids are A11Y_UNKNOWN_RULE"`
	Tags                 []string `json:"tags,omitempty" jsonschema:"or run only rules with any of these tags: wcag2a, wcag2aa, wcag21aa, wcag22aa, best-practice, ..."`
	Include              []string `json:"include,omitempty" jsonschema:"CSS selectors: audit only these elements and what is under them"`
	Scope                string   `json:"scope,omitempty" jsonschema:"one CSS selector to audit under (the same as include:[scope])"`
	Exclude              []string `json:"exclude,omitempty" jsonschema:"CSS selectors to leave out"`
	ImpactMin            string   `json:"impactMin,omitempty" jsonschema:"report only findings of this impact or worse: minor, moderate, serious, critical"`
	MaxViolations        int      `json:"maxViolations,omitempty" jsonschema:"findings of each kind returned (default 30, max 200); counts are always complete"`
	MaxNodesPerViolation int      `json:"maxNodesPerViolation,omitempty" jsonschema:"nodes per finding returned (default 5, max 50)"`
	NoIncomplete         bool     `json:"noIncomplete,omitempty" jsonschema:"leave out incomplete checks (axe could not decide; review them by hand)"`
}

// Options is the request's selection and bounds (Scope as the one
// include).
func (r *Request) Options() Options {
	inc := r.Include
	if r.Scope != "" {
		inc = []string{r.Scope}
	}
	return Options{Rules: r.Rules.IDs, Overrides: r.Rules.Overrides, Tags: r.Tags, Include: inc, Exclude: r.Exclude, Impact: r.ImpactMin,
		MaxViolations: r.MaxViolations, MaxNodes: r.MaxNodesPerViolation, NoIncomplete: r.NoIncomplete}
}

// Check refuses rules that did not decode, a surfaces other than 'all',
// alternatives given together, and Options that fail their Check.
func (r *Request) Check() error {
	if r.Rules.bad != "" {
		return errs.BadArg("rules", "%s", r.Rules.bad)
	}
	if r.Surfaces != "" && r.Surfaces != "all" {
		return errs.BadArg("surfaces", "'all' is the one value (omit it for the active surface)")
	}
	if r.Surfaces != "" && r.SurfaceID != "" {
		return errs.BadArg("surfaceId", "surfaceId and surfaces:'all' are alternatives")
	}
	if r.Scope != "" && len(r.Include) > 0 {
		return errs.BadArg("scope", "scope and include are alternatives")
	}
	o := r.Options()
	return o.Check()
}
