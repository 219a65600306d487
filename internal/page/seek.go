package page

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// seekSlice bounds one seek call in the renderer; the Go side calls again
// until its own time limit.
const seekSlice = time.Second

// SeekQuery names an element that may not be rendered yet: a selector, or
// a role and/or a name (exact or contained, case-insensitive). List, when
// set, names the list to scroll (itself or the scroller inside or around
// it); otherwise every virtualized list of the surface is searched in
// document order.
type SeekQuery struct {
	Selector     string
	Role         string
	Name         string
	NameContains string
	List         Locator
}

func (q SeekQuery) check() error {
	if q.Selector != "" && (q.Role != "" || q.Name != "" || q.NameContains != "") {
		return errs.BadArg("selector", "pass a selector or role/name, not both")
	}
	if strings.TrimSpace(q.Selector) == "" && q.Role == "" && q.Name == "" && q.NameContains == "" {
		return errs.BadArg("selector", "pass a selector, or a role and/or a name")
	}
	if q.List.Ref != 0 || q.List.Selector != "" {
		if err := q.List.Check(); err != nil {
			return err
		}
	}
	return nil
}

// Seeked is the element a seek found.
type Seeked struct {
	Ref  int    `json:"ref"`
	Role string `json:"role"`
	Name string `json:"name"`
	// Steps is how many pages the lists were scrolled (0: it was rendered).
	Steps int `json:"steps"`
}

type seekState struct {
	K       int     `json:"k"`
	Start   float64 `json:"start"`
	Wrapped bool    `json:"wrapped"`
	Steps   int     `json:"steps"`
	// Grids: the list whose jump was tried, the row and column the query
	// mapped to, the jumps made, the sweep direction across the columns,
	// whether columns were swept (h2) or the column was fixed (hfix).
	JK    *int `json:"jk,omitempty"`
	TR    int  `json:"tr,omitempty"`
	TC    int  `json:"tc,omitempty"`
	Jumps int  `json:"jumps,omitempty"`
	HDir  int  `json:"hdir,omitempty"`
	H2    bool `json:"h2,omitempty"`
	HFix  bool `json:"hfix,omitempty"`
}

type wireSeek struct {
	Found        bool       `json:"found"`
	Done         bool       `json:"done"`
	Lists        int        `json:"lists"`
	Ref          int        `json:"ref"`
	Role         string     `json:"role"`
	Name         string     `json:"name"`
	Steps        int        `json:"steps"`
	ScrollTop    float64    `json:"scroll_top"`
	ScrollHeight float64    `json:"scroll_height"`
	St           *seekState `json:"st"`
	// Columns: a grid that draws only some of its columns (nil else).
	Columns *struct {
		Count int `json:"count"`
		Drawn int `json:"drawn"`
	} `json:"columns"`
	// Grid: the grid of the last list searched (nil when it is no grid).
	Grid *wireGrid `json:"grid"`
}

// wireGrid is what a seek did in a grid: its extents (aria-rowcount and
// aria-colcount, 0 when unsaid), the row and column index the query
// mapped to (0: none), how many jumps it made, and whether its columns
// were swept at every row position (both axes searched).
type wireGrid struct {
	Rows      int  `json:"rows"`
	Cols      int  `json:"cols"`
	RowTarget int  `json:"row_target"`
	ColTarget int  `json:"col_target"`
	Jumps     int  `json:"jumps"`
	BothAxes  bool `json:"both_axes"`
	// Undrawn counts the views the grid had not drawn when they were
	// searched (it drew later than the seek waited).
	Undrawn int `json:"undrawn"`
}

// SeekDefault is how long the lists are scrolled when the caller gives no
// timeout.
const SeekDefault = 15 * time.Second

// Seek finds an element that a virtualized list may not have rendered:
// when no rendered element matches q, it scrolls the list page by page
// (checking in the renderer after each step) until one renders, the
// lists end, or limit passes. It answers with the element's ref (issued
// and remembered like a find's); otherwise SELECTOR_NO_MATCH (a selector)
// or ELEMENT_NOT_FOUND, with how far it scrolled.
func (s *Store) Seek(ctx context.Context, f Frame, q SeekQuery, limit time.Duration) (*Seeked, error) {
	if err := q.check(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(limit)
	var st *seekState
	var last wireSeek
	for {
		slice := min(seekSlice, time.Until(deadline))
		if slice < 50*time.Millisecond {
			slice = 50 * time.Millisecond
		}
		w, err := s.seekOnce(ctx, f, q, st, slice)
		if err != nil {
			return nil, err
		}
		if w.Found {
			return &Seeked{Ref: w.Ref, Role: w.Role, Name: w.Name, Steps: w.Steps}, nil
		}
		last = *w
		st = w.St
		if w.Lists == 0 || w.Done || time.Now().After(deadline) {
			break
		}
	}
	code, what := errs.ElementNotFound, "no element matches "+q.describe()
	if q.Selector != "" {
		code = errs.SelectorNoMatch
	}
	var e *errs.Error
	switch {
	case last.Lists == 0:
		e = errs.New(code, "%s, and the surface has no virtualized list to scroll", what)
	case last.Done && last.Grid != nil && last.Grid.Undrawn > 0:
		// Never "does not exist" for what a view that did not draw in time
		// may hold.
		e = errs.New(code, "%s in what the grid drew, but %d of the views the search scrolled to had not finished drawing when searched (a busy page or machine), so it may be there", what, last.Grid.Undrawn)
		e.Hint = "The grid drew slower than the search waited. Call again (a calmer page draws in time), or find the cell by a selector of its row and column."
		e = e.With("undrawn", last.Grid.Undrawn)
	case last.Done && last.Grid != nil && last.Grid.BothAxes:
		// Both axes were searched: every row position, and at each the
		// columns from one edge to the other.
		e = errs.New(code, "%s, even after searching the grid in both axes: every row (%s) and, at each, every column (%s)", what, extent(last.Grid.Rows, "rows"), extent(last.Grid.Cols, "columns"))
		if last.Grid.RowTarget > 0 || last.Grid.ColTarget > 0 {
			e.Hint = "The query pointed at a row or column (from the indexes of the drawn rows and cells) where the element was not, so the whole grid was searched."
		}
	case last.Done && last.Columns != nil:
		// Never "does not exist" for what the grid may hold: only its rows
		// were scrolled.
		e = errs.New(code, "%s in the columns in view: the grid has %d columns and draws %d, and only its rows were scrolled, so cells of the other columns were not searched", what, last.Columns.Count, last.Columns.Drawn)
		e.Hint = "The grid draws only the columns in view. Scroll it sideways (electron_scroll with dx on the grid) and look again, or find the cell by a selector of its row and column."
		e = e.With("column_count", last.Columns.Count).With("columns_drawn", last.Columns.Drawn)
	case last.Done:
		e = errs.New(code, "%s, even after scrolling %d virtualized list(s) through to their end", what, last.Lists)
	default:
		e = errs.New(code, "%s yet: stopped scrolling after %s (%d pages)", what, limit, stepsOf(last.St))
		e = e.With("timed_out", true)
	}
	e = e.With("lists", last.Lists).With("steps", stepsOf(last.St))
	if g := last.Grid; g != nil {
		e = e.With("grid_rows", g.Rows).With("grid_columns", g.Cols)
		if last.Done {
			// What was searched through to the end (a time-out says
			// timed_out instead: the search stopped part way).
			searched := "rows"
			if g.BothAxes {
				searched = "rows and columns"
			}
			e = e.With("searched", searched)
		}
		if g.RowTarget > 0 {
			e = e.With("row_target", g.RowTarget)
		}
		if g.ColTarget > 0 {
			e = e.With("column_target", g.ColTarget)
		}
		if g.Jumps > 0 {
			e = e.With("jumps", g.Jumps)
		}
	}
	if last.ScrollHeight > 0 {
		e = e.With("scroll_top", last.ScrollTop).With("scroll_height", last.ScrollHeight)
	}
	return nil, e
}

// extent says a count, or that the grid did not say it.
func extent(n int, what string) string {
	if n <= 0 {
		return what + " count unsaid"
	}
	return strconv.Itoa(n) + " " + what
}

func stepsOf(st *seekState) int {
	if st == nil {
		return 0
	}
	return st.Steps
}

func (q SeekQuery) describe() string {
	if q.Selector != "" {
		return q.Selector
	}
	var parts []string
	if q.Role != "" {
		parts = append(parts, "role "+q.Role)
	}
	if q.Name != "" {
		parts = append(parts, "name "+jsonString(q.Name))
	}
	if q.NameContains != "" {
		parts = append(parts, "name containing "+jsonString(q.NameContains))
	}
	return strings.Join(parts, ", ")
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// seekOnce runs one slice of a seek under the surface's lock.
func (s *Store) seekOnce(ctx context.Context, f Frame, q SeekQuery, st *seekState, slice time.Duration) (*wireSeek, error) {
	sf, err := s.lock(f)
	if err != nil {
		return nil, err
	}
	defer sf.mu.Unlock()
	args := map[string]any{
		"q":       map[string]any{"sel": q.Selector, "role": q.Role, "name": q.Name, "nameContains": q.NameContains},
		"sliceMs": slice.Milliseconds(),
	}
	if q.List.Ref != 0 || q.List.Selector != "" {
		if q.List.Ref > 0 {
			if err := sf.checkRef(f, q.List.Ref); err != nil {
				return nil, err
			}
		}
		args["list"] = sf.locArgs(q.List)
	}
	if st != nil {
		args["st"] = st
	}
	r, err := s.callAwait(ctx, f, sf, "seek", args)
	if err != nil {
		return nil, err
	}
	if r.E != nil {
		return nil, sf.toError(f, r.E)
	}
	var w wireSeek
	if err := decode(r.R, &w); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a seek")
	}
	return &w, nil
}

// Reveal scrolls the element loc names into view and waits (timeout)
// until it is visible and receives the pointer. An element named by a
// selector that matches nothing yet, or by a role and name (query), may
// lie in a virtualized list that has not rendered it: q is sought first
// (for at most seekLimit) and the found element revealed; found is nil
// when no seek ran. A ref is revealed as it is.
func (s *Store) Reveal(ctx context.Context, f Frame, loc Locator, q SeekQuery, query bool, seekLimit, timeout time.Duration) (acted *Acted, found *Seeked, err error) {
	if loc.Ref == 0 {
		seek := query
		if !seek {
			ok, err := s.Exists(ctx, f, loc)
			if err != nil {
				return nil, nil, err
			}
			seek = !ok
		}
		if seek {
			if found, err = s.Seek(ctx, f, q, seekLimit); err != nil {
				return nil, nil, err
			}
			loc = Locator{Ref: found.Ref}
		}
	}
	acted, err = s.Act(ctx, f, loc, Action{Checks: Checks{Visible: true, Scroll: true, Point: true}}, timeout)
	if err != nil {
		return nil, nil, err
	}
	return acted, found, nil
}
