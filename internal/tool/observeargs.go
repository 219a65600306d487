package tool

import (
	"strings"

	"github.com/understudy-dev/understudy/internal/emulation"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

type snapshotArgs struct {
	Common
	Since           string `json:"since,omitempty" jsonschema:"'last': only what changed since the last snapshot or find of this surface"`
	InteractiveOnly bool   `json:"interactiveOnly,omitempty" jsonschema:"only controls"`
	MaxEntries      int    `json:"maxEntries,omitempty" jsonschema:"default 2000, max 10000"`
	Format          string `json:"format,omitempty" jsonschema:"'text' (default) or 'json'"`
	BudgetTokens    int    `json:"budgetTokens,omitempty" jsonschema:"drop the least useful entries to fit about this many tokens"`
	Surfaces        string `json:"surfaces,omitempty" jsonschema:"'all': the active window's every surface in one text snapshot, each frame or webview under its iframe line; refs act where they point"`
}

// snapshotResult is electron_snapshot's result.
type snapshotResult struct {
	*page.SnapshotResult
	Fallback *surface.Fallback   `json:"surface_fallback,omitempty"`
	Emulated *emulation.Viewport `json:"emulated_viewport,omitempty" jsonschema:"the viewport emulation_set gave the surface's window; viewport is then the emulated one"`
}

type findArgs struct {
	Common
	Role         string `json:"role,omitempty" jsonschema:"ARIA role, e.g. button, link, textbox, checkbox"`
	NameContains string `json:"name_contains,omitempty" jsonschema:"case-insensitive substring of the accessible name"`
	NameExact    string `json:"name_exact,omitempty" jsonschema:"the exact accessible name"`
	Visible      *bool  `json:"visible,omitempty" jsonschema:"default true: only visible elements"`
	Enabled      *bool  `json:"enabled,omitempty" jsonschema:"true: only enabled elements; false: only disabled ones"`
	Interactive  *bool  `json:"interactive,omitempty" jsonschema:"true: only controls (buttons, links, fields…); false: only other elements"`
	Limit        int    `json:"limit,omitempty" jsonschema:"default 50, max 500"`
	Scroll       bool   `json:"scroll,omitempty" jsonschema:"when nothing rendered matches, scroll the virtualized lists page by page until a match renders (ELEMENT_NOT_FOUND with how far it scrolled when none does); plain find never scrolls"`
	TimeoutMs    int    `json:"timeoutMs,omitempty" jsonschema:"with scroll: how long to scroll, default 15000, max 30000"`
	Surfaces     string `json:"surfaces,omitempty" jsonschema:"'all': search the active window's every surface; each match says its surface_id"`
	Within       int    `json:"within,omitempty" jsonschema:"a ref: search only inside that element"`
	Text         string `json:"text,omitempty" jsonschema:"case-insensitive substring of the visible text; a non-control match lists its controls"`
}

// refArg routes a find within a ref of another surface to that surface.
func (a *findArgs) refArg() int { return a.Within }

func (a *findArgs) validate() error {
	if a.Role == "" && a.NameContains == "" && a.NameExact == "" && a.Interactive == nil && a.Text == "" && a.Within == 0 {
		return errs.BadArg("role", "pass at least one of role, name_contains, name_exact, text, within or interactive")
	}
	if a.Within < 0 {
		return errs.BadArg("within", "a ref is a positive integer")
	}
	if a.Within > 0 && a.Surfaces != "" {
		return errs.BadArg("within", "within searches the ref's own surface; leave out surfaces")
	}
	if len(a.Text) > 1000 {
		return errs.BadArg("text", "at most 1000 characters")
	}
	if strings.TrimSpace(a.Text) == "" && a.Text != "" {
		return errs.BadArg("text", "is blank")
	}
	if a.Limit < 0 || a.Limit > 500 {
		return errs.BadArg("limit", "must be between 1 and 500")
	}
	if _, err := page.CheckTimeout("timeoutMs", a.TimeoutMs); err != nil {
		return err
	}
	if a.Scroll && a.Role == "" && a.NameContains == "" && a.NameExact == "" {
		return errs.BadArg("scroll", "scrolling needs a role or a name to look for")
	}
	return nil
}

// findResult is electron_find's result.
type findResult struct {
	*page.FindResult
	ScrolledPages *int `json:"scrolled_pages,omitempty" jsonschema:"with scroll: how many pages the virtualized lists were scrolled"`
	// Skipped names, with surfaces:'all', the surfaces that could not be
	// searched (no document yet, or gone during the call).
	Skipped []string `json:"skipped_surfaces,omitempty"`
}
