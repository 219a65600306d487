package page

import (
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/secret"
)

// The options and results of the element reads (get_*, exists, the
// elements list, the focused element), as callers give and read them
// (docs/adr/045).

// ListQuery is the elements a CSS selector matches, up to a limit.
type ListQuery struct {
	Selector string `json:"selector" jsonschema:"a CSS selector"`
	Limit    int    `json:"limit,omitempty" jsonschema:"default 50, max 200"`
}

// Check refuses an empty selector and a limit outside 0-200.
func (q *ListQuery) Check() error {
	if strings.TrimSpace(q.Selector) == "" {
		return errs.BadArg("selector", "is required")
	}
	if q.Limit < 0 || q.Limit > 200 {
		return errs.BadArg("limit", "must be between 1 and 200")
	}
	return nil
}

// AttributeName names the attribute to read.
type AttributeName struct {
	Name string `json:"name" jsonschema:"the attribute name"`
}

// Check refuses an empty name.
func (a *AttributeName) Check() error {
	if strings.TrimSpace(a.Name) == "" {
		return errs.BadArg("name", "is required")
	}
	return nil
}

// StyleQuery names the computed CSS properties to read.
type StyleQuery struct {
	Properties []string `json:"properties" jsonschema:"CSS property names, e.g. display, color"`
}

// Check refuses no properties and more than 100.
func (q *StyleQuery) Check() error {
	if len(q.Properties) == 0 || len(q.Properties) > 100 {
		return errs.BadArg("properties", "pass 1 to 100 property names")
	}
	return nil
}

// ExistsResult says whether an element exists.
type ExistsResult struct {
	SurfaceID string `json:"surface_id"`
	Exists    bool   `json:"exists"`
}

// TextResult is an element's text, with its surface.
type TextResult struct {
	SurfaceID string `json:"surface_id" jsonschema:"the surface the element is in"`
	*TextRead
}

// ValueResult is a form control's value, with its surface (Value's
// fields: a struct embedding Value would hide its field value).
type ValueResult struct {
	SurfaceID string        `json:"surface_id"`
	Value     secret.String `json:"value" jsonschema:"a password field's value is [redacted] unless reveal"`
	Label     string        `json:"label,omitempty" jsonschema:"a select's chosen labels"`
	Values    []string      `json:"values,omitempty" jsonschema:"a multiple select's chosen values"`
	Checked   *bool         `json:"checked,omitempty" jsonschema:"a checkbox's or radio's state"`
}

// AttributeResult is an element's attribute, with its surface.
type AttributeResult struct {
	SurfaceID string         `json:"surface_id"`
	Name      string         `json:"name"`
	Value     *secret.String `json:"value" jsonschema:"null when the element has no such attribute; a password field's value is [redacted] unless reveal"`
}

// StateResult is an element's state flags, with its surface.
type StateResult struct {
	SurfaceID string        `json:"surface_id"`
	State     *ElementState `json:"state"`
}

// BBoxResult is an element's box, with its surface.
type BBoxResult struct {
	SurfaceID string  `json:"surface_id"`
	BBox      *BBoxes `json:"bbox"`
}

// StyleResult is an element's computed style, with its surface.
type StyleResult struct {
	SurfaceID string            `json:"surface_id"`
	Style     map[string]string `json:"style" jsonschema:"each property asked for, by name"`
}

// FocusedResult is the focused element of a surface.
type FocusedResult struct {
	SurfaceID string    `json:"surface_id"`
	Element   *ListItem `json:"element" jsonschema:"null when only the document's body has the focus"`
}

// Result is v as read on the surface surfaceID: a password field's value
// redacted unless reveal.
func (v *Value) Result(surfaceID string, reveal bool) *ValueResult {
	return &ValueResult{SurfaceID: surfaceID, Value: v.Value.Shown(reveal), Label: v.Label, Values: v.Values, Checked: v.Checked}
}

// SnapshotQuery is a snapshot as a caller asks for it; Options makes it
// SnapshotOptions.
type SnapshotQuery struct {
	Since           string `json:"since,omitempty" jsonschema:"'last': only what changed since the last snapshot or find of this surface"`
	InteractiveOnly bool   `json:"interactiveOnly,omitempty" jsonschema:"only controls"`
	MaxEntries      int    `json:"maxEntries,omitempty" jsonschema:"default 2000, max 10000"`
	Format          string `json:"format,omitempty" jsonschema:"'text' (default) or 'json'"`
	BudgetTokens    int    `json:"budgetTokens,omitempty" jsonschema:"drop the least useful entries to fit about this many tokens"`
}

// Options are the query's SnapshotOptions: the text form unless another
// format was asked for (what an agent reads best, and a sixth of the
// JSON; issue 30).
func (q *SnapshotQuery) Options() SnapshotOptions {
	format := q.Format
	if format == "" {
		format = "text"
	}
	return SnapshotOptions{Since: q.Since, InteractiveOnly: q.InteractiveOnly, MaxEntries: q.MaxEntries, Format: format, BudgetTokens: q.BudgetTokens}
}

// FindScroll is a find's scrolling of the virtualized lists, when nothing
// rendered matches.
type FindScroll struct {
	Scroll    bool `json:"scroll,omitempty" jsonschema:"when nothing rendered matches, scroll the virtualized lists page by page until a match renders (ELEMENT_NOT_FOUND with how far it scrolled when none does); plain find never scrolls"`
	TimeoutMs int  `json:"timeoutMs,omitempty" jsonschema:"with scroll: how long to scroll, default 15000, max 30000"`
}

// CheckWith refuses a timeout out of range, and scrolling for q without a
// role or a name to look for.
func (s *FindScroll) CheckWith(q *FindQuery) error {
	if _, err := CheckTimeout("timeoutMs", s.TimeoutMs); err != nil {
		return err
	}
	if s.Scroll && q.Role == "" && q.NameContains == "" && q.NameExact == "" {
		return errs.BadArg("scroll", "scrolling needs a role or a name to look for")
	}
	return nil
}

// ScrollLimit is how long to scroll: def when no timeoutMs was given.
func (s *FindScroll) ScrollLimit(def time.Duration) time.Duration {
	if s.TimeoutMs > 0 {
		d, _ := CheckTimeout("timeoutMs", s.TimeoutMs)
		return d
	}
	return def
}

// Seek is the query's role and name as a SeekQuery.
func (q *FindQuery) Seek() SeekQuery {
	return SeekQuery{Role: q.Role, Name: q.NameExact, NameContains: q.NameContains}
}
