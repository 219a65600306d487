package page

import (
	"fmt"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// The option types of the waits and expectations, as callers give them:
// their JSON names and descriptions are the MCP tools' parameters
// (docs/adr/045), and each checks itself, naming the field.

// WaitBudget is how long a wait or an expectation keeps checking.
type WaitBudget struct {
	TimeoutMs *int `json:"timeoutMs,omitempty" jsonschema:"how long to keep checking, in ms: default 5000, max 60000; 0 checks once"`
}

// CheckTimeout refuses a timeout below 0 or above MaxWaitTimeout.
func (t WaitBudget) CheckTimeout() error {
	if t.TimeoutMs != nil && (*t.TimeoutMs < 0 || *t.TimeoutMs > int(MaxWaitTimeout/time.Millisecond)) {
		return errs.BadArg("timeoutMs", "must be between 0 (check once) and %d", MaxWaitTimeout.Milliseconds())
	}
	return nil
}

// Timeout is the wait's budget: DefaultWaitTimeout when none was given.
func (t WaitBudget) Timeout() time.Duration {
	if t.TimeoutMs == nil {
		return DefaultWaitTimeout
	}
	return time.Duration(*t.TimeoutMs) * time.Millisecond
}

// TextOperators are the operators of a text expectation: exactly one is
// set (the regex one may be named otherwise; see Match).
type TextOperators struct {
	Equals      *string `json:"equals,omitempty" jsonschema:"the whole text, exactly"`
	Contains    *string `json:"contains,omitempty" jsonschema:"a part of the text (case-sensitive)"`
	Regex       *string `json:"regex,omitempty" jsonschema:"a JavaScript regular expression source without slashes, e.g. ^Saved \\d+ items?$ (at most 1000 characters)"`
	Flags       string  `json:"flags,omitempty" jsonschema:"regex flags, any of i m s u"`
	NotEquals   *string `json:"not_equals,omitempty" jsonschema:"anything but this text"`
	NotContains *string `json:"not_contains,omitempty" jsonschema:"the text must not contain this"`
}

// Match returns the one operator given, checked; regexField and regex are
// the regular expression's argument (a caller may take it as another
// field than Regex) and name it in errors.
func (m *TextOperators) Match(regexField string, regex *string) (*TextMatch, error) {
	var out *TextMatch
	for _, o := range []struct {
		op, field string
		v         *string
	}{
		{MatchEquals, "equals", m.Equals},
		{MatchContains, "contains", m.Contains},
		{MatchRegex, regexField, regex},
		{MatchNotEquals, "not_equals", m.NotEquals},
		{MatchNotContains, "not_contains", m.NotContains},
	} {
		if o.v == nil {
			continue
		}
		if out != nil {
			return nil, errs.BadArg(o.field, "pass exactly one of equals, contains, %s, not_equals, not_contains (%s is already given)", regexField, out.Field)
		}
		out = &TextMatch{Op: o.op, Value: *o.v, Field: o.field}
	}
	if out == nil {
		return nil, errs.BadArg("equals", "pass one of equals, contains, %s, not_equals, not_contains", regexField)
	}
	if m.Flags != "" && out.Op != MatchRegex {
		return nil, errs.BadArg("flags", "only apply to %s", regexField)
	}
	out.Flags = m.Flags
	return out, out.Check()
}

// CountQuery counts the elements a CSS selector matches, or the snapshot
// entries of a role (and name), against bounds.
type CountQuery struct {
	Selector     string `json:"selector,omitempty" jsonschema:"count the elements matching this CSS selector (open shadow roots included)"`
	Role         string `json:"role,omitempty" jsonschema:"or count the snapshot entries (not hidden) with this ARIA role"`
	Name         string `json:"name,omitempty" jsonschema:"with role: the exact accessible name"`
	NameContains string `json:"name_contains,omitempty" jsonschema:"with role: a case-insensitive part of the accessible name"`
	Equals       *int   `json:"equals,omitempty" jsonschema:"the count, exactly"`
	Min          *int   `json:"min,omitempty" jsonschema:"at least this many"`
	Max          *int   `json:"max,omitempty" jsonschema:"at most this many"`
}

// Condition is the count's wait condition; its Check judges the query.
func (q *CountQuery) Condition() Condition {
	return Condition{Kind: CondCount, Selector: q.Selector, Role: q.Role, Name: q.Name, NameContains: q.NameContains,
		Equals: q.Equals, Min: q.Min, Max: q.Max}
}

// Expected is the bounds given, as an expectation's failure shows them.
func (q *CountQuery) Expected() map[string]any {
	exp := map[string]any{}
	for k, v := range map[string]*int{"equals": q.Equals, "min": q.Min, "max": q.Max} {
		if v != nil {
			exp[k] = *v
		}
	}
	return exp
}

// Subject names what is counted, for an expectation's failure.
func (q *CountQuery) Subject() string {
	if q.Selector != "" {
		return fmt.Sprintf("the count of %q", q.Selector)
	}
	subject := "the count of role " + q.Role
	switch {
	case q.Name != "":
		subject += fmt.Sprintf(" named %q", q.Name)
	case q.NameContains != "":
		subject += fmt.Sprintf(" with a name containing %q", q.NameContains)
	}
	return subject
}

// URLQuery is what the document's URL must hold: a part of it, or a
// regular expression it matches.
type URLQuery struct {
	Contains *string `json:"contains,omitempty" jsonschema:"a part of the URL"`
	Matches  *string `json:"matches,omitempty" jsonschema:"a JavaScript regular expression the URL matches, without slashes (at most 1000 characters)"`
	Flags    string  `json:"flags,omitempty" jsonschema:"regex flags for matches, any of i m s u"`
}

// Match is the query as a checked text match.
func (q *URLQuery) Match() (*TextMatch, error) {
	switch {
	case q.Contains != nil && q.Matches != nil:
		return nil, errs.BadArg("matches", "pass contains or matches, not both")
	case q.Contains != nil:
		if q.Flags != "" {
			return nil, errs.BadArg("flags", "only apply to matches")
		}
		return &TextMatch{Op: MatchContains, Value: *q.Contains, Field: "contains"}, nil
	case q.Matches != nil:
		m := &TextMatch{Op: MatchRegex, Value: *q.Matches, Flags: q.Flags, Field: "matches"}
		return m, m.Check()
	}
	return nil, errs.BadArg("contains", "pass contains or matches")
}

// Expected is the query as an expectation's failure shows it.
func (q *URLQuery) Expected() map[string]any {
	if q.Contains != nil {
		return map[string]any{"contains": *q.Contains}
	}
	exp := map[string]any{"matches": *q.Matches}
	if q.Flags != "" {
		exp["flags"] = q.Flags
	}
	return exp
}
