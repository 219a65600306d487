package page

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Snapshot limits.
const (
	DefaultMaxEntries = 2000
	MaxMaxEntries     = 10000
	DefaultFindLimit  = 50
	MaxFindLimit      = 500
	// DefaultSnapshotTime is how long a snapshot's walk may run in the
	// renderer before it stops and answers with what it walked.
	DefaultSnapshotTime = 10 * time.Second
	// minSnapshotTime is the least time a walk gets, however close the
	// caller's deadline.
	minSnapshotTime = 50 * time.Millisecond
)

// SnapshotOptions shape a snapshot. The zero value is a full JSON snapshot
// of at most DefaultMaxEntries entries.
type SnapshotOptions struct {
	// Since is "" for a full snapshot or "last" for only what changed
	// since the surface's baseline (a full snapshot when there is none, or
	// when the renderer reloaded).
	Since string
	// InteractiveOnly keeps only interactive entries (the text form keeps
	// the labels of the rows and list items they sit in).
	InteractiveOnly bool
	// MaxEntries bounds the entries (default 2000, at most 10000); the least
	// useful go first.
	MaxEntries int
	// Format is "json" (default) or "text".
	Format string
	// BudgetTokens, when set, bounds the result to about 4 characters a
	// token, dropping the least useful entries first (text before
	// controls, far from the viewport before near).
	BudgetTokens int
	// ChildSurface, when set, names the surface an <iframe> entry hosts;
	// "" when it knows none.
	ChildSurface func(FrameInfo) string
	// TimeLimit bounds the walk in the renderer (default
	// DefaultSnapshotTime, and never past the context's deadline): past it
	// the walker stops where it is, so the page is free at once, and the
	// snapshot holds what it walked (Truncated, TruncatedReason "time").
	TimeLimit time.Duration
}

// SnapshotResult is a snapshot of one surface.
type SnapshotResult struct {
	SurfaceID string   `json:"surface_id"`
	Title     string   `json:"title"`
	URL       string   `json:"url"`
	Viewport  Viewport `json:"viewport"`
	// Count is the number of entries in the result (for since:'last', the
	// number of changes).
	Count   int     `json:"count"`
	Entries []Entry `json:"entries,omitempty"`
	// Text is the text form (Format "text").
	Text string `json:"snapshot_text,omitempty"`
	// Since is true when the result lists changes against the baseline.
	Since bool `json:"since,omitempty"`
	// Changes are the changes of a JSON since:'last' snapshot.
	Changes          *Diff `json:"changes,omitempty"`
	RendererReloaded bool  `json:"renderer_reloaded"`
	Truncated        bool  `json:"truncated"`
	// TruncatedReason says what cut a truncated result: "entries"
	// (maxEntries), "budget" (budgetTokens) or "time" (the walk's time
	// limit).
	TruncatedReason string `json:"truncated_reason,omitempty"`
	// Partial is true when the walk stopped before the end of the
	// document (at the entry cap, the budget or the time limit): what lies
	// past where it stopped is not in the result, and for since:'last' a
	// ref not reached is not reported removed.
	Partial bool `json:"partial,omitempty"`
	// Walked is how many entries the walk made; Omitted how many of those
	// the result leaves out (for since:'last' text, changes left out).
	Walked  int `json:"walked,omitempty"`
	Omitted int `json:"omitted,omitempty"`
	// WalkMS is the time the snapshot took in the renderer.
	WalkMS int `json:"walk_ms,omitempty"`
	// RecentlyChanged lists, on a full snapshot taken against a baseline,
	// the refs added or changed since it (marked ~ and + in the text form).
	RecentlyChanged []int `json:"recently_changed,omitempty"`
}

type wireSnapshot struct {
	Title     string      `json:"title"`
	URL       string      `json:"url"`
	Viewport  Viewport    `json:"viewport"`
	Count     int         `json:"count"`
	Truncated bool        `json:"truncated"`
	Reason    string      `json:"reason"`
	Partial   bool        `json:"partial"`
	Walked    int         `json:"walked"`
	Omitted   int         `json:"omitted"`
	WalkMS    int         `json:"walk_ms"`
	Text      string      `json:"text"`
	Entries   []wireEntry `json:"entries"`
	Since     bool        `json:"since"`
	Diff      *wireDiff   `json:"diff"`
	Recent    []int       `json:"recent"`
	Frames    []struct {
		FrameInfo
		Ref int `json:"ref"`
	} `json:"frames"`
}

func (o *SnapshotOptions) check() error {
	switch o.Since {
	case "", "last":
	default:
		return errs.BadArg("since", "must be \"last\" or empty, not %q", o.Since)
	}
	switch o.Format {
	case "", "json", "text":
	default:
		return errs.BadArg("format", "must be \"json\" or \"text\", not %q", o.Format)
	}
	if o.MaxEntries < 0 || o.MaxEntries > MaxMaxEntries {
		return errs.BadArg("maxEntries", "must be between 1 and %d, not %d", MaxMaxEntries, o.MaxEntries)
	}
	if o.BudgetTokens < 0 {
		return errs.BadArg("budgetTokens", "must not be negative")
	}
	if o.TimeLimit < 0 {
		return errs.BadArg("timeLimit", "must not be negative")
	}
	return nil
}

// walkTime is the renderer's time limit for a walk: opts' limit (default
// DefaultSnapshotTime), shortened to end well before ctx's deadline so
// the answer still travels back, and never below minSnapshotTime.
func walkTime(ctx context.Context, limit time.Duration) time.Duration {
	if limit <= 0 {
		limit = DefaultSnapshotTime
	}
	if dl, ok := ctx.Deadline(); ok {
		left := time.Until(dl)
		if margin := left / 5; left-margin < limit {
			limit = left - margin
		}
	}
	return max(limit, minSnapshotTime)
}

// Snapshot walks the surface's document and returns its entries (or what
// changed since the baseline), and moves the baseline to what it saw.
func (s *Store) Snapshot(ctx context.Context, f Frame, opts SnapshotOptions) (*SnapshotResult, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	sf, err := s.lock(f)
	if err != nil {
		return nil, err
	}
	defer sf.mu.Unlock()
	format := opts.Format
	if format == "" {
		format = "json"
	}
	maxEntries := opts.MaxEntries
	if maxEntries == 0 {
		maxEntries = DefaultMaxEntries
	}
	o := map[string]any{
		"since":           opts.Since == "last",
		"interactiveOnly": opts.InteractiveOnly,
		"maxEntries":      maxEntries,
		"format":          format,
		"budget":          opts.BudgetTokens * 4,
		"timeMs":          walkTime(ctx, opts.TimeLimit).Milliseconds(),
	}
	r, err := s.call(ctx, f, sf, "snapshot", map[string]any{"opt": o})
	if err != nil {
		return nil, err
	}
	if r.E != nil {
		if errs.Code(r.E.Code) == errs.OperationTimeout {
			// The walk ran out of time before its first entry.
			return nil, errs.New(errs.OperationTimeout, "%s", r.E.Message).With("surface_id", f.SurfaceID)
		}
		return nil, sf.toError(f, r.E)
	}
	var w wireSnapshot
	if err := decode(r.R, &w); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a snapshot")
	}
	res := &SnapshotResult{
		SurfaceID:        f.SurfaceID,
		Title:            w.Title,
		URL:              w.URL,
		Viewport:         w.Viewport,
		Count:            w.Count,
		Since:            w.Since,
		Truncated:        w.Truncated,
		TruncatedReason:  w.Reason,
		Partial:          w.Partial,
		Walked:           w.Walked,
		Omitted:          w.Omitted,
		WalkMS:           w.WalkMS,
		RendererReloaded: sf.reloaded,
		RecentlyChanged:  w.Recent,
	}
	sf.reloaded = false
	frames := map[int]string{}
	child := func(e *Entry) {
		if id, ok := frames[e.Ref]; ok && e.Frame != nil {
			e.SurfaceID = id
		}
	}
	if opts.ChildSurface != nil {
		for _, fr := range w.Frames {
			if id := opts.ChildSurface(fr.FrameInfo); id != "" {
				frames[fr.Ref] = id
			}
		}
	}
	if w.Diff != nil {
		res.Changes = w.Diff.diff()
		for i := range res.Changes.Added {
			child(&res.Changes.Added[i])
		}
	}
	if w.Entries != nil {
		res.Entries = make([]Entry, len(w.Entries))
		for i := range w.Entries {
			res.Entries[i] = w.Entries[i].entry()
			child(&res.Entries[i])
		}
	}
	if w.Text != "" {
		res.Text = fillFrames(w.Text, frames)
	}
	return res, nil
}

// fillFrames replaces the walker's frame markers (\x01ref\x01) in the text
// form with " surface=ID" when the caller names the child surface.
func fillFrames(text string, known map[int]string) string {
	if !strings.Contains(text, "\x01") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '\x01')
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := strings.IndexByte(text[i+1:], '\x01')
		if j < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		ref, _ := strconv.Atoi(text[i+1 : i+1+j])
		if id, ok := known[ref]; ok {
			b.WriteString(" surface=" + id)
		}
		text = text[i+2+j:]
	}
}

// FindQuery selects entries. Nil filters do not filter, except Visible:
// hidden elements are searched only when Visible is false. Its JSON names
// and descriptions are electron_find's parameters (docs/adr/045).
type FindQuery struct {
	Role         string `json:"role,omitempty" jsonschema:"ARIA role, e.g. button, link, textbox, checkbox"`
	NameContains string `json:"name_contains,omitempty" jsonschema:"case-insensitive substring of the accessible name"`
	NameExact    string `json:"name_exact,omitempty" jsonschema:"the exact accessible name"`
	Visible      *bool  `json:"visible,omitempty" jsonschema:"default true: only visible elements"`
	Enabled      *bool  `json:"enabled,omitempty" jsonschema:"true: only enabled elements; false: only disabled ones"`
	Interactive  *bool  `json:"interactive,omitempty" jsonschema:"true: only controls (buttons, links, fields…); false: only other elements"`
	Limit        int    `json:"limit,omitempty" jsonschema:"default 50, max 500"`
	// Within, a ref of this surface, searches only inside that element.
	Within int `json:"within,omitempty" jsonschema:"a ref: search only inside that element"`
	// Text is a case-insensitive substring of an element's visible text
	// (the words on its line); a text block or bare text inside a row or
	// list item finds that row or item.
	Text string `json:"text,omitempty" jsonschema:"case-insensitive substring of the visible text; a non-control match lists its controls"`
}

// Check refuses a query that selects nothing, a bad ref, a blank or
// over-long text and a limit out of range, naming the field.
func (q *FindQuery) Check() error {
	if q.Role == "" && q.NameContains == "" && q.NameExact == "" && q.Interactive == nil && q.Text == "" && q.Within == 0 {
		return errs.BadArg("role", "pass at least one of role, name_contains, name_exact, text, within or interactive")
	}
	if q.Within < 0 {
		return errs.BadArg("within", "a ref is a positive integer")
	}
	if len(q.Text) > 1000 {
		return errs.BadArg("text", "at most 1000 characters")
	}
	if strings.TrimSpace(q.Text) == "" && q.Text != "" {
		return errs.BadArg("text", "is blank")
	}
	if q.Limit < 0 || q.Limit > 500 {
		return errs.BadArg("limit", "must be between 1 and 500")
	}
	return nil
}

// InnerControl is an actionable entry inside a text match (a row's buttons).
type InnerControl struct {
	Ref  int    `json:"ref"`
	Role string `json:"role"`
	Name string `json:"name"`
}

// Match is one entry a find returned.
type Match struct {
	Ref     int    `json:"ref"`
	Role    string `json:"role"`
	Name    string `json:"name"`
	BBox    Rect   `json:"bbox"` // document coordinates
	Context string `json:"context,omitempty"`
	State   *State `json:"state,omitempty"`
	// SurfaceID is the surface of the match when a find spans surfaces
	// (electron_find {surfaces:"all"}).
	SurfaceID string `json:"surface_id,omitempty"`
	// Controls are, for a match by text that is not itself a control, the
	// controls inside it (a row's Archive and Star buttons), at most 12.
	Controls []InnerControl `json:"controls,omitempty"`
}

// FindResult lists the matches of a find.
type FindResult struct {
	SurfaceID        string  `json:"surface_id"`
	Matches          []Match `json:"matches"`
	Count            int     `json:"count"` // all matches, also those past the limit
	Truncated        bool    `json:"truncated"`
	RendererReloaded bool    `json:"renderer_reloaded,omitempty"`
}

// Find walks the surface's document like a snapshot (issuing refs and
// moving the baseline) and returns the entries that match q.
func (s *Store) Find(ctx context.Context, f Frame, q FindQuery) (*FindResult, error) {
	if q.Limit < 0 || q.Limit > MaxFindLimit {
		return nil, errs.BadArg("limit", "must be between 1 and %d, not %d", MaxFindLimit, q.Limit)
	}
	if q.Limit == 0 {
		q.Limit = DefaultFindLimit
	}
	sf, err := s.lock(f)
	if err != nil {
		return nil, err
	}
	defer sf.mu.Unlock()
	wq := map[string]any{"role": q.Role, "nameContains": q.NameContains, "nameExact": q.NameExact, "limit": q.Limit}
	if q.Visible != nil {
		wq["visible"] = *q.Visible
	}
	if q.Enabled != nil {
		wq["enabled"] = *q.Enabled
	}
	if q.Interactive != nil {
		wq["interactive"] = *q.Interactive
	}
	if q.Within > 0 {
		wq["within"] = q.Within
	}
	if q.Text != "" {
		wq["text"] = q.Text
	}
	r, err := s.call(ctx, f, sf, "find", map[string]any{"q": wq})
	if err != nil {
		return nil, err
	}
	if r.E != nil {
		return nil, sf.toError(f, r.E)
	}
	var w struct {
		Matches []struct {
			Match
			Flags string `json:"flags"`
		} `json:"matches"`
		Count     int  `json:"count"`
		Truncated bool `json:"truncated"`
	}
	if err := decode(r.R, &w); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a find")
	}
	res := &FindResult{SurfaceID: f.SurfaceID, Matches: make([]Match, len(w.Matches)), Count: w.Count, Truncated: w.Truncated, RendererReloaded: sf.reloaded}
	sf.reloaded = false
	for i, m := range w.Matches {
		res.Matches[i] = m.Match
		res.Matches[i].State = parseFlags(m.Flags)
	}
	return res, nil
}
