package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/page"
)

// findTool is electron_find's name, which trace_replay calls to find a
// recorded ref's element again.
const findTool = "electron_find"

func registerObserve(s *Server) {
	define(s, Def{
		Name: "electron_snapshot", Title: "Snapshot the page", Profiles: "ETD", Class: classRead, Session: true, TextBody: "snapshot_text",
		Effects: Effects{Does: kRead},
		Short:   "The page's elements as roles, names and refs to act on. A few elements: electron_find.",
		Desc:    "An accessibility-style snapshot of the active surface with stable refs. The default text form is compact (one line per control; table rows and list items group their controls) and reaches the agent as plain text; format:'json' gives entries with fields; since:'last' returns only what changed since the surface's last snapshot or find. Plain text shows once: in its paragraph or row, or as a text line (text outside any element of its own has no ref); long text is cut with len=N. Open shadow roots are walked (a host with no role of its own is transparent). A virtualized list shows its extent (rows=N from aria-setsize/aria-rowcount, rows≈N when inferred from its scroll height; rendered=N); a Monaco editor's text box shows its drawn lines as value (multiline, partial when more may lie outside), an xterm.js terminal its rows as text. interactiveOnly, maxEntries (2000, ≤10000) and budgetTokens trim it (text before controls) and say truncated (truncated_reason entries|budget|time, omitted). A full snapshot's walk stops early, at 4× maxEntries entries (at least 1000) or the budget's worth, and after 10 s in the renderer, so huge pages answer fast and the page stays free: partial:true means what lies past that point is not in it (since:'last' reports no removal there); OPERATION_TIMEOUT when the time ran out before any entry.",
	}, snapshot)
	define(s, Def{
		Name: findTool, Title: "Find elements by role, name or text", Profiles: "ETD", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Find elements by role, name or text; returns refs. Whole page: electron_snapshot.",
		Desc:    "Find elements of the active surface by role and name (name_contains / name_exact), visible text (text: a row or list item by its words, answered with its controls' refs), visible, enabled, interactive, only inside an element (within: a ref); returns refs usable by every element tool. Moves the snapshot baseline like a snapshot. Read-only: it never scrolls, unless scroll:true, which, when nothing rendered matches, scrolls the virtualized lists page by page until a match renders (scrolled_pages says how many; ELEMENT_NOT_FOUND with how far it scrolled when none does).",
	}, find)
	defineOpt(s, Def{
		Name: "electron_elements_list", Title: "List elements matching a selector", Profiles: "TD", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Every element matching a CSS selector, with refs, roles, names and boxes.",
		Desc:    "All elements of the active surface matching a CSS selector (limit 50, ≤200), with refs, roles, names and boxes.",
	}, elementsList)
	define(s, Def{
		Name: "electron_exists", Title: "Whether an element exists", Profiles: "TD", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Whether an element exists now, without waiting.",
		Desc:    "Whether an element (ref or selector) exists in the active surface. A dead or foreign ref is false.",
	}, exists)
	define(s, Def{
		Name: "electron_get_text", Title: "Read an element's text", Profiles: "ETD", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "An element's visible text. To assert: electron_expect_text.",
		Desc:    "The visible text (innerText) of an element, by ref or selector.",
	}, getText)
	define(s, Def{
		Name: "electron_get_value", Title: "Read a form control's value", Profiles: "ETD", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Secrets: true},
		Short:   "Read a form control's value. To assert: electron_expect_value.",
		Desc:    "The value of a form control (input, textarea, select, contenteditable), by ref or selector.",
	}, getValue)
	define(s, Def{
		Name: "electron_get_attribute", Title: "Read an attribute", Profiles: "TD", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Secrets: true},
		Short:   "Read an element's attribute; null when absent.",
		Desc:    "An attribute of an element (null when absent), by ref or selector.",
	}, getAttribute)
	define(s, Def{
		Name: "electron_get_state", Title: "Read an element's states", Profiles: "TD", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Read an element's states (visible, enabled, checked, expanded, focused…). To wait: electron_wait_for_state.",
		Desc:    "The state of an element: visible, enabled, disabled, checked, selected, expanded, pressed, focused, readonly, required, invalid, busy.",
	}, getState)
	define(s, Def{
		Name: "electron_get_bbox", Title: "Read an element's box", Profiles: "D", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Short:   "Read an element's box in viewport and document coordinates.",
		Desc:    "The box of an element in the surface's viewport and in document coordinates.",
	}, getBBox)
	define(s, Def{
		Name: "electron_get_computed_style", Title: "Read computed styles", Profiles: "D", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Computed CSS properties of an element.",
	}, getComputedStyle)
	define(s, Def{
		Name: "electron_focused_element", Title: "The focused element", Profiles: "TD", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "The element that has the focus in the active surface.",
	}, focusedElement)
}

func snapshot(ctx context.Context, c *Call, a *snapshotArgs) (*snapshotResult, error) {
	if a.Surfaces != "" {
		r, err := c.Session.Surfaces.SnapshotAll(ctx, c.Session.Pages, a.Surfaces, &a.SnapshotQuery)
		if err != nil {
			return nil, err
		}
		return &snapshotResult{SnapshotResult: r, Emulated: emulatedViewport(c, c.Session.Surfaces.ActiveWindow())}, nil
	}
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	opts := a.Options()
	opts.ChildSurface = c.Session.Surfaces.ChildSurfaceOf(f.SurfaceID)
	out, err := c.Session.Pages.Snapshot(ctx, f, opts)
	if err != nil {
		return nil, err
	}
	win, _ := c.Session.Surfaces.WindowOf(res.FrameID)
	return &snapshotResult{out, res.Fallback, emulatedViewport(c, win)}, nil
}

func find(ctx context.Context, c *Call, a *findArgs) (*page.Found, error) {
	if a.Surfaces != "" {
		return c.Session.Surfaces.FindAll(ctx, c.Session.Pages, a.Surfaces, a.FindQuery, &a.FindScroll) // within is refused with surfaces
	}
	return inFrame(ctx, c, func(f page.Frame) (*page.Found, error) {
		return c.Session.Pages.FindScrolling(ctx, f, a.FindQuery, &a.FindScroll, page.SeekDefault)
	})
}

func exists(ctx context.Context, c *Call, a *elementArgs) (*page.ExistsResult, error) {
	return inFrame(ctx, c, func(f page.Frame) (*page.ExistsResult, error) { return c.Session.Pages.ReadExists(ctx, f, a.locator()) })
}

func getText(ctx context.Context, c *Call, a *elementArgs) (*page.TextResult, error) {
	return inFrame(ctx, c, func(f page.Frame) (*page.TextResult, error) { return c.Session.Pages.ReadText(ctx, f, a.locator()) })
}

// valueArgs are electron_get_value's arguments.
type valueArgs struct {
	elementArgs
	revealSecret
}

// getValue shows a password only with reveal, which the dispatcher refused
// without --allow-secrets (gateArgs); so does getAttribute.
func getValue(ctx context.Context, c *Call, a *valueArgs) (*page.ValueResult, error) {
	return inFrame(ctx, c, func(f page.Frame) (*page.ValueResult, error) {
		return c.Session.Pages.ReadValue(ctx, f, a.locator(), a.Reveal)
	})
}

type attributeArgs struct {
	elementArgs
	page.AttributeName
	revealSecret
}

func (a *attributeArgs) validate() error {
	return checked(a.AttributeName.Check, a.elementArgs.validate)
}

func getAttribute(ctx context.Context, c *Call, a *attributeArgs) (*page.AttributeResult, error) {
	return inFrame(ctx, c, func(f page.Frame) (*page.AttributeResult, error) {
		return c.Session.Pages.ReadAttribute(ctx, f, a.locator(), &a.AttributeName, a.Reveal)
	})
}

func getState(ctx context.Context, c *Call, a *elementArgs) (*page.StateResult, error) {
	return inFrame(ctx, c, func(f page.Frame) (*page.StateResult, error) { return c.Session.Pages.ReadState(ctx, f, a.locator()) })
}

func getBBox(ctx context.Context, c *Call, a *elementArgs) (*page.BBoxResult, error) {
	return inFrame(ctx, c, func(f page.Frame) (*page.BBoxResult, error) { return c.Session.Pages.ReadBBox(ctx, f, a.locator()) })
}

type styleArgs struct {
	elementArgs
	page.StyleQuery
}

func (a *styleArgs) validate() error { return checked(a.StyleQuery.Check, a.elementArgs.validate) }

func getComputedStyle(ctx context.Context, c *Call, a *styleArgs) (*page.StyleResult, error) {
	return inFrame(ctx, c, func(f page.Frame) (*page.StyleResult, error) {
		return c.Session.Pages.ReadStyle(ctx, f, a.locator(), &a.StyleQuery)
	})
}

func elementsList(ctx context.Context, c *Call, a *page.ListQuery) (*page.ElementsListResult, error) {
	return inFrame(ctx, c, func(f page.Frame) (*page.ElementsListResult, error) {
		return c.Session.Pages.ElementsList(ctx, f, a.Selector, a.Limit)
	})
}

func focusedElement(ctx context.Context, c *Call, _ *noArgs) (*page.FocusedResult, error) {
	return inFrame(ctx, c, func(f page.Frame) (*page.FocusedResult, error) { return c.Session.Pages.ReadFocused(ctx, f) })
}
