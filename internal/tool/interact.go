package tool

import (
	"context"
	"encoding/json"
	"math"
	"mime"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"time"

	capt "github.com/understudy-dev/understudy/internal/capture" // "capture" is console.go's type
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

// Limits of the file tools.
const (
	maxFiles = 100
	// maxSetFileBytes bounds one file given to a file input (the browser
	// reads it from disk).
	maxSetFileBytes = 1 << 30
	// maxDropFileBytes and maxDropTotalBytes bound the files of a drop,
	// which travel to the renderer inside one protocol message.
	maxDropFileBytes  = 8 << 20
	maxDropTotalBytes = 16 << 20
	// maxDragSteps bounds the moves of a pointer drag.
	maxDragSteps = 100
	// maxSequence bounds electron_press_sequence.
	maxSequence = 200
	// maxTypeChars bounds the text of the typing tools.
	maxTypeChars = 100000
)

const actionabilityNote = " Before acting it waits (timeoutMs, default 5000, max 30000) until the element is attached, visible, stable (same box in two animation frames), enabled, scrolled into view and receives the pointer at its centre. Errors: SELECTOR_NO_MATCH / REF_NOT_FOUND (no such element), REF_STALE at once (the ref's element now shows another item than you last saw; allowChanged:true acts anyway), ELEMENT_NOT_VISIBLE (hidden, moving, or covered — the message names the cover), ELEMENT_DISABLED."

func registerInteract(s *Server) {
	add(s, "electron_click", "Click an element of the active surface (ref or selector) or a point (x, y) with real mouse events on its window, so the browser's own hit-testing decides what receives it. An element is clicked at the centre of its first box, or at position {x, y} (CSS pixels from the top-left corner of its border box; outside the box is BAD_ARGUMENT). x/y are CSS pixels of the active surface's own viewport (for a frame surface, of that frame: converted through the frame offsets; outside the viewport, negative or not finite is BAD_ARGUMENT naming the field), for what has no element of its own: canvas charts, design canvases, terminals. What covers the element or point in its own document (elements only) or its frame in an enclosing document is waited for before anything is sent. Verified: the press reached the element (for x/y: the element that was at the point, named in target {tag, id, role, name, selector, ref}; when it lies over another element there that is not its ancestor, over names that one: an overlay got the click); a click taken by something else is an error naming it, never a silent miss. button (left|right|middle), clickCount (2 = double click), modifiers held (Alt, Control, Meta, Shift)."+actionabilityNote+" force:true skips the checks (the browser still hit-tests). A click whose handler opens a JavaScript dialog returns at once with dialog_opened {type, message}: the page waits for the dialog's answer.", true, gateNone, click)
	add(s, "electron_hover", "Move the mouse over an element of the active surface (real mouse events), e.g. to open a hover menu or show a tooltip: at its centre, at position {x, y} within it (from the top-left corner of its border box), or at a point x/y of the active surface's viewport (as electron_click takes them; target names the element there). Verified: the element's document saw the mouse arrive on it (a move taken by something else is an error naming it)."+actionabilityNote, true, gateNone, hover)
	add(s, "electron_type", "Set the text of a text field, textarea or contenteditable (ref or selector) as a paste would: the value is replaced, then input and change fire (frameworks such as React see it); verified by reading the value back (altered:true when the page changed the text, e.g. a mask or maxlength; TYPE_NO_EFFECT when it did not change: the page rejected or reset it). On a code or rich-text editor or a terminal (Monaco, CodeMirror 6, Quill, ProseMirror, xterm.js; their hidden input elements too) it does what electron_type_into_editor with replace:true does (a terminal: sends the text) and answers as it does. Waits until the element is visible, enabled and editable (timeoutMs).", true, gateNone, typeText)
	add(s, "electron_keyboard_type", "Type text with real key events, one keydown/keyup per character (characters with no US key go in as IME text), into the element given by ref or selector (focused first, caret at the end) or into whatever has the focus. Use it when a page reacts to keys (autocomplete, shortcuts) or rejects electron_type. With a text target, TYPE_NO_EFFECT when its text did not change.", true, gateNone, keyboardType)
	add(s, "electron_type_into_editor", "Put exact text into a code or rich-text editor or a terminal (ref or selector: the editor, its mount element or its input element). Known editors, by their DOM: Monaco (EditContext and textarea modes), CodeMirror 6, Quill, ProseMirror, xterm.js; anything else that takes text counts as a plain field or editing host. The editor is clicked into like a user (TYPE_NO_EFFECT when that puts the focus in nothing that takes text); replace:true selects everything first (Control/Meta+A), else the caret goes to the end (Control/Meta+End); the text goes in as one paste (a paste event carrying text/plain on the editor's input element), so the editor's typing rules (auto-indent, closing brackets) do not rewrite it; a plain field or editing host gets it as one input-method insertion (Input.insertText), as does an editor that ignores the paste where that is exact. editor and path in the answer say which. Then the editor's text is read back from what it draws and compared: match/verified \"exact\" when all of it was read and equals the expected text exactly; \"partial\" when the editor draws only the lines in view (long texts in Monaco or CodeMirror): the drawn lines that end the text equal it (checked_lines) and the rest was not read; \"ignoring white space\" only for elements not known as editors whose drawn text spaces differently. Any difference is TYPE_MISMATCH with the observed text: the text went in, so do not type it again blindly. A terminal (xterm.js) gets no click and no key: its input element is focused and the paste goes to the application as one piece (line breaks as carriage returns, as Enter sends; bracketed when the application asked); verified \"delivered\" means the terminal's paste handler took it (what the application received is not readable), echoed says whether the screen changed; replace is BAD_ARGUMENT there. To go through an editor's typing rules key by key, use electron_keyboard_type instead (not after this tool: the text would go in twice).", true, gateNone, typeIntoEditor)
	add(s, "electron_key", "Press a key or chord (Enter, Tab, Escape, ArrowDown, Control+Shift+P, Meta+K, Shift+Tab…) with real key events in the active surface; with ref or selector that element is focused first (waiting until it is visible and enabled), else the surface's frame gets the focus and the key goes to whatever is focused there. A key that opens a JavaScript dialog returns at once with dialog_opened.", true, gateNone, key)
	add(s, "electron_press_sequence", "Press keys one after another (keys: [\"Control+A\", \"Backspace\", \"Enter\"]), each a key or chord as electron_key takes, optionally focusing ref or selector first; delayMs between keys (default 0, max 1000).", true, gateNone, pressSequence)
	add(s, "electron_clear_input", "Empty a text field, textarea or contenteditable (ref or selector); input and change fire. TYPE_NO_EFFECT when the page kept a value. On a code or rich-text editor (Monaco, CodeMirror 6, Quill, ProseMirror) it selects everything and presses Backspace, verified as electron_type_into_editor verifies.", true, gateNone, clearInput)
	add(s, "electron_check", "Check a checkbox, radio or switch (ref or selector; a label works too): clicks it only when it is not checked, then verifies it is (TYPE_NO_EFFECT when the page undid it)."+actionabilityNote, true, gateNone, checkBox)
	add(s, "electron_uncheck", "Uncheck a checkbox or switch (ref or selector): clicks it only when it is checked, then verifies it is not. A radio cannot be unchecked (check another one of its group)."+actionabilityNote, true, gateNone, uncheckBox)
	add(s, "electron_select_option", "Choose options of a <select> (ref or selector): values[] are matched against option values first, then visible labels (case-insensitive), so [\"b\"] and [\"Banana\"] both work; several values for a multiple select (the others are deselected; [] deselects all). input and change fire; the choice is verified (TYPE_NO_EFFECT when the page reset it). Waits until the select is visible and enabled.", true, gateNone, selectOption)
	add(s, "electron_set_files", "Put files into an <input type=file> (ref or selector; it may be hidden, as styled file inputs are) as if the user chose them: paths[] are absolute paths of existing files under the allowed roots (ABSOLUTE_PATH_REQUIRED, FILE_NOT_FOUND, PATH_NOT_ALLOWED); [] empties it. change fires; returns the files the input holds.", true, gateNone, setFiles)
	add(s, "electron_drop_file", "Drop files onto an element (a drop zone) with drag events carrying File objects built from the files' bytes (paths[] absolute, under the allowed roots; at most 8 MiB each, 16 MiB in all): dragenter, dragover, then drop when the page accepts it. Returns default_prevented (the page handled the drop itself); TYPE_NO_EFFECT when the page did not accept the drop there.", true, gateNone, dropFile)
	add(s, "electron_drag", "Drag an element (ref or selector) onto another (targetRef or targetSelector) in the active surface with real input, as a user's drag goes: the mouse presses the source and moves past the drag threshold; when the page starts an HTML drag there (the source or an ancestor is draggable, even if only since the press, as SortableJS makes it), the browser's own drag events carry it on (dragenter, a dragover at every step, drop at the target's centre: trusted, with the page's DataTransfer; mode \"html5\"), else the mouse keeps moving with the button held and is released at the target's centre (mode \"pointer\"). The steps (default: none skips more than a quarter of the smaller element, at least 10) are held 25 ms each and the last 150 ms, so libraries that sort by where the pointer has been see every item it passes. Verified: the press reached the source. For two children of one list (ul, ol, tbody, role list, listbox, grid, tree…, or a parent whose children the page moved during the drag; expect reorder or drop says it yourself) the target means the dragged item ends where the target item was: ok (reordered:true, index, order as the page shows it) only when it is there; DRAG_NO_EFFECT when the order did not change, DRAG_MISPLACED when the item went elsewhere, both with details.order. Otherwise, when the page moved the source (into another list, say), ok only when it went beside the target (into the target's parent) or into it (source_moved, source {parent, index}), else DRAG_MISPLACED with details.source; when it did not, an HTML drag must be dropped on a target that accepted it (TYPE_NO_EFFECT when the page cancelled dragstart or the target refused the drop), and a pointer drag is answered once the press reached the source (reordered:false says two siblings kept their order)."+actionabilityNote, true, gateNone, drag)
	add(s, "electron_scroll", "Scroll the active surface: with ref or selector and no dx/dy, scroll that element into view; with dx/dy (CSS pixels, positive = down/right), turn the mouse wheel at the element's centre (scrolling whatever scrolls there, e.g. a list) or at the viewport's centre. Returns the scroll positions before and after.", true, gateNone, scroll)
	add(s, "electron_scroll_into_view", "Scroll an element (ref, selector, or role and/or name / name_contains) into view: every scroll container and enclosing frame moves as needed. When nothing rendered matches a selector or a role/name, virtualized lists (those the snapshot shows with rows=/rows≈; listRef or listSelector names one) are scrolled page by page, checking after each step, until it renders (then it is scrolled into view and its ref returned) or the lists end: ELEMENT_NOT_FOUND (SELECTOR_NO_MATCH for a selector) says how far it scrolled. Waits until it is visible (timeoutMs; default 5000, or 15000 when it must scroll a list); returns its ref, role, name and box in the viewport.", true, gateNone, scrollIntoView)
}

// actArgs name one element and how long to wait for it.
type actArgs struct {
	elementArgs
	TimeoutMs    int  `json:"timeoutMs,omitempty" jsonschema:"how long to wait until the element is actionable; default 5000, max 30000"`
	AllowChanged bool `json:"allowChanged,omitempty" jsonschema:"act on the ref's element even when it now shows another role or name than you last saw (else REF_STALE); the result's ref_changed reports the change"`
}

func (a *actArgs) locator() page.Locator {
	l := a.elementArgs.locator()
	l.AllowChanged = a.AllowChanged
	return l
}

// noteChanged adds to a result the refs whose element showed another role
// or name than the agent last saw (allowed by allowChanged, or made by
// the action itself), first sight to last.
func noteChanged(out map[string]any, lists ...[]page.RefChange) map[string]any {
	byRef := map[int]int{}
	var all []page.RefChange
	for _, l := range lists {
		for _, ch := range l {
			if i, ok := byRef[ch.Ref]; ok {
				all[i].Now = ch.Now
				continue
			}
			byRef[ch.Ref] = len(all)
			all = append(all, ch)
		}
	}
	if len(all) > 0 {
		out["ref_changed"] = all
	}
	return out
}

// receiptChange is the change a receipt reports, as a list.
func receiptChange(r *page.Receipt) []page.RefChange {
	if r == nil || r.Changed == nil {
		return nil
	}
	return []page.RefChange{*r.Changed}
}

func (a *actArgs) validate() error {
	if _, err := page.CheckTimeout("timeoutMs", a.TimeoutMs); err != nil {
		return err
	}
	return a.elementArgs.validate()
}

func (a *actArgs) timeout() time.Duration {
	d, _ := page.CheckTimeout("timeoutMs", a.TimeoutMs)
	return d
}

// optElementArgs may name an element.
type optElementArgs struct {
	Common
	Ref          int    `json:"ref,omitempty" jsonschema:"focus this element first (a ref from electron_snapshot or electron_find)"`
	Selector     string `json:"selector,omitempty" jsonschema:"focus this element first (a CSS selector)"`
	TimeoutMs    int    `json:"timeoutMs,omitempty" jsonschema:"how long to wait for the element; default 5000, max 30000"`
	AllowChanged bool   `json:"allowChanged,omitempty" jsonschema:"use the ref's element even when it now shows another role or name than you last saw (else REF_STALE); the result's ref_changed reports the change"`
}

func (a *optElementArgs) has() bool { return a.Ref != 0 || a.Selector != "" }

func (a *optElementArgs) locator() page.Locator {
	return page.Locator{Ref: a.Ref, Selector: a.Selector, AllowChanged: a.AllowChanged}
}

func (a *optElementArgs) validate() error {
	if _, err := page.CheckTimeout("timeoutMs", a.TimeoutMs); err != nil {
		return err
	}
	if a.has() {
		return a.locator().Check()
	}
	return nil
}

func (a *optElementArgs) timeout() time.Duration {
	d, _ := page.CheckTimeout("timeoutMs", a.TimeoutMs)
	return d
}

// inputFrame resolves the active surface for real input: it must have a
// window root, and that window is brought to the front.
func inputFrame(ctx context.Context, c *Call) (*surface.Resolution, page.Frame, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, f, err
	}
	if res.InputRoot == nil {
		return nil, f, errs.New(errs.SurfaceUnsupported, "surface %s has no window root to take input", res.SurfaceID)
	}
	if err := bringToFront(ctx, c, res); err != nil {
		return nil, f, err
	}
	return res, f, nil
}

// bringToFront makes the surface's window the front one before pointer
// input: headless Chromium renders only the front window, and a click
// into an OOPIF of a window behind it would miss.
func bringToFront(ctx context.Context, c *Call, res *surface.Resolution) error {
	return toFront(ctx, c, nav.On(res.InputRoot), res.InputRootID)
}

// toFront makes a window the front one, unless it is already.
func toFront(ctx context.Context, c *Call, win nav.Window, windowID string) error {
	if c.Session.IsFront(windowID) {
		return nil
	}
	if err := win.BringToFront(ctx); err != nil {
		return err
	}
	c.Session.SetFront(windowID) // only now: a failure above is retried next time
	return nil
}

// pointed is an actionable element's point in the input root's viewport.
type pointed struct {
	x, y  float64
	acted *page.Acted
}

// pointAt waits until the element passes the action's checks in its own
// document and returns its point in the input root's viewport. With
// act.Early (for actions whose first event is a lone move, which waits for
// a frame: hover, drag; in a window root's own document only), when the element is not stable yet only because
// it was looked at once, the mouse moves to it while a frame passes and the
// second look completes the check, so the action pays one frame, not one
// for stability and one for the move. Clicks do not need it: their move is
// pipelined with the press (input.Click) and costs no frame. What lies over
// the element's frame in enclosing documents is left to the browser's
// hit-testing: the receipt (verifyReceived) tells afterwards.
func pointAt(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, loc page.Locator, act page.Action, timeout time.Duration) (*pointed, error) {
	deadline := time.Now().Add(timeout)
	// In a frame, no move goes out before the enclosing documents are
	// hit-tested (below): a move there would hover a cover.
	act.Early = act.Early && act.Checks.Stable && !act.Force && res.IsInputRoot()
	acted, err := c.Session.Pages.Act(ctx, f, loc, act, timeout)
	if err != nil {
		return nil, err
	}
	if acted.Early {
		if !acted.There {
			ox, oy, err := res.Offset(ctx)
			if err != nil {
				return nil, err
			}
			if err := input.Move(ctx, res.InputRoot, acted.X+ox, acted.Y+oy, 0); err != nil {
				return nil, err
			}
		}
		act.Early = false
		if acted, err = c.Session.Pages.Act(ctx, f, loc, act, max(0, time.Until(deadline))); err != nil {
			return nil, err
		}
	}
	if res.IsInputRoot() || act.Force {
		ox, oy, err := res.Offset(ctx)
		if err != nil {
			return nil, err
		}
		return &pointed{acted.X + ox, acted.Y + oy, acted}, nil
	}
	// In a frame, what covers the frame in an enclosing document is waited
	// for too, before any event is sent: a click there would land on it.
	act.Early = false
	var covered time.Time // when a cover was first seen
	for {
		x, y, cover, err := res.Reach(ctx, acted.X, acted.Y)
		if err != nil {
			return nil, err
		}
		if cover == nil {
			if !covered.IsZero() {
				acted.Waited += time.Since(covered)
			}
			return &pointed{x, y, acted}, nil
		}
		if covered.IsZero() {
			covered = time.Now()
		}
		if !time.Now().Before(deadline) {
			e := errs.New(errs.ElementNotVisible, "the element does not receive the pointer: %s covers its frame at %s in an enclosing document (waited %s)", cover.String(), point(x, y), timeout.Round(time.Millisecond))
			e.Hint = "Something in a page that holds this frame (an overlay, dialog or banner) lies over it. Close it or wait for it to go, or act on it first; force:true clicks anyway and the browser gives the click to what is on top."
			return nil, e.With("covering", cover).With("x", x).With("y", y).With("surface_id", res.SurfaceID)
		}
		select {
		case <-ctx.Done():
			return nil, errs.FromContext(ctx, errs.OperationTimeout, "waiting for the cover over the frame to go")
		case <-time.After(min(coverPoll, time.Until(deadline))):
		}
		seen := acted.Changed // reported once, by the call that found it
		if acted, err = c.Session.Pages.Act(ctx, f, loc, act, max(0, time.Until(deadline))); err != nil {
			return nil, err
		}
		acted.Changed = append(seen, acted.Changed...)
	}
}

// coverPoll is how often a frame covered in an enclosing document is
// looked at again.
const coverPoll = 50 * time.Millisecond

// coverAt describes what the window's top document has at a point.
func (c *Call) coverAt(ctx context.Context, res *surface.Resolution, x, y float64) string {
	what, err := nav.On(res.InputRoot).DescribeAt(ctx, x, y)
	if err != nil {
		return "unknown"
	}
	return "at the window's top level: " + what
}

// verifyReceived checks the receipt armed by pointAt: the event must have
// reached the element. what names the action for the message.
func verifyReceived(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, x, y float64, what string) (bool, error) {
	r, err := verifyReceipt(ctx, c, res, f, x, y, what)
	if err != nil {
		return false, err
	}
	return r.Got, nil
}

// verifyReceipt is verifyReceived returning the receipt (Got false when
// the document was replaced and nothing was left to ask).
func verifyReceipt(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, x, y float64, what string) (*page.Receipt, error) {
	r, err := c.Session.Pages.ActReceived(ctx, f)
	if err != nil {
		return nil, err
	}
	if !r.Armed {
		// The document was replaced (the press navigated): nothing is
		// left to ask.
		return r, nil
	}
	if r.Got {
		return r, nil
	}
	var e *errs.Error
	if r.Seen && r.What != nil {
		e = errs.New(errs.ElementNotVisible, "the %s at %s went to %s instead of the element (it moved or something covered it at that moment)", what, point(x, y), r.What.String())
		e.With("covering", r.What)
	} else {
		e = errs.New(errs.ElementNotVisible, "the %s at %s did not reach the element: something in an enclosing frame covers it (%s)", what, point(x, y), c.coverAt(ctx, res, x, y))
	}
	e.Hint = "The browser's hit-testing gave the event to another element. Close or wait for what covers the element (an overlay, dialog or banner), or act on that first."
	return nil, e.With("x", x).With("y", y).With("surface_id", res.SurfaceID)
}

func point(x, y float64) string { return "(" + ftoa(x) + ", " + ftoa(y) + ")" }

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

func waitedMS(a *page.Acted) int64 { return a.Waited.Milliseconds() }

func waitedDur(a *page.Acted) time.Duration { return a.Waited }

// dialogOpened is a JavaScript dialog (alert, confirm, prompt,
// beforeunload) that input opened.
type dialogOpened struct {
	Type          string `json:"type"`
	Message       string `json:"message"`
	URL           string `json:"url,omitempty"`
	DefaultPrompt string `json:"default_prompt,omitempty"`
	Note          string `json:"note"`
}

// watchDialogs runs input that may open a JavaScript dialog. The page then
// stops until the dialog is answered, and so does the reply to the input
// event that opened it: when a dialog opens, watchDialogs returns it at
// once and leaves the input call to end with the tool call.
func watchDialogs(ctx context.Context, c *Call, res *surface.Resolution, run func() error) (*dialogOpened, error) {
	w := capt.WatchDialogs(res.InputRoot, res.Eval)
	defer w.Stop()
	done := make(chan error, 1)
	c.Go(func() { done <- run() }) // joined by the dispatcher when the call ends
	d, err := w.Wait(ctx, done)
	if d == nil {
		return nil, err
	}
	return dialogNote(c, &dialogOpened{Type: d.Type, Message: d.Message, URL: d.URL, DefaultPrompt: d.DefaultPrompt,
		Note: "the page shows this dialog and waits for an answer (electron_dialog_handler); until then it runs no script"}), nil
}

// dialogNote says in the dialog's note whether the armed policy of
// electron_dialog_handler answered it already.
func dialogNote(c *Call, d *dialogOpened) *dialogOpened {
	if e := dialogsOf(c.Session).find(d.Type, d.Message); e != nil && e.By == "policy" {
		d.Note = "electron_dialog_handler's armed policy " + e.Answer + " it"
	}
	return d
}

// ---- click and hover ----

// xy is a point in CSS pixels.
type xy struct {
	X float64 `json:"x" jsonschema:"CSS pixels from the left edge"`
	Y float64 `json:"y" jsonschema:"CSS pixels from the top edge"`
}

// pointArgs put a pointer action at a point: of the active surface's
// viewport (x, y, without an element), or of the element (position).
type pointArgs struct {
	X        *float64 `json:"x,omitempty" jsonschema:"instead of an element: a point of the active surface's viewport, CSS pixels from its left edge (with y); for a frame surface, of that frame's own viewport"`
	Y        *float64 `json:"y,omitempty" jsonschema:"instead of an element: CSS pixels from the top edge of the active surface's viewport (with x)"`
	Position *xy      `json:"position,omitempty" jsonschema:"with ref or selector: the point to use, in CSS pixels from the top-left corner of the element's border box (default: the centre of its first box)"`
}

// checkCoord checks one coordinate of a point.
func checkCoord(field string, v float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return errs.BadArg(field, "must be a finite number, not %v", v)
	case v < 0:
		return errs.BadArg(field, "must be 0 or more (CSS pixels from the top-left corner), not %v", v)
	}
	return nil
}

// check validates the point against whether an element is named.
func (p *pointArgs) check(element bool) error {
	switch {
	case p.X != nil || p.Y != nil:
		switch {
		case element:
			return errs.BadArg("x", "x/y are a point of the viewport: pass them without ref or selector (position places the action within an element)")
		case p.X == nil:
			return errs.BadArg("x", "pass x with y")
		case p.Y == nil:
			return errs.BadArg("y", "pass y with x")
		case p.Position != nil:
			return errs.BadArg("position", "position counts from an element's corner: pass it with ref or selector, not with x/y")
		}
		if err := checkCoord("x", *p.X); err != nil {
			return err
		}
		return checkCoord("y", *p.Y)
	case p.Position != nil:
		if !element {
			return errs.BadArg("position", "position counts from an element's corner: pass ref or selector with it (x/y name a point of the viewport)")
		}
		if err := checkCoord("position", p.Position.X); err != nil {
			return err
		}
		return checkCoord("position", p.Position.Y)
	}
	return nil
}

// atPoint says whether the action goes to a point of the viewport.
func (p *pointArgs) atPoint() bool { return p.X != nil && p.Y != nil }

// args are the renderer arguments of an action within an element.
func (p *pointArgs) args() map[string]any {
	if p.Position == nil {
		return nil
	}
	return map[string]any{"pos": map[string]float64{"x": p.Position.X, "y": p.Position.Y}}
}

// validatePointed validates an element action that may go to a point
// instead.
func validatePointed(a *actArgs, p *pointArgs) error {
	if err := p.check(a.Ref != 0 || strings.TrimSpace(a.Selector) != ""); err != nil {
		return err
	}
	if p.atPoint() {
		_, err := page.CheckTimeout("timeoutMs", a.TimeoutMs)
		return err
	}
	return a.validate()
}

type clickArgs struct {
	actArgs
	pointArgs
	Button     string   `json:"button,omitempty" jsonschema:"left (default), right or middle"`
	ClickCount int      `json:"clickCount,omitempty" jsonschema:"1 (default) to 3; 2 is a double click"`
	Modifiers  []string `json:"modifiers,omitempty" jsonschema:"held during the click: Alt, Control, Meta, Shift"`
	Force      bool     `json:"force,omitempty" jsonschema:"skip the actionability checks (the browser still decides what the click hits)"`
}

func (a *clickArgs) validate() error {
	if a.ClickCount < 0 || a.ClickCount > 3 {
		return errs.BadArg("clickCount", "must be 1, 2 or 3")
	}
	switch strings.ToLower(a.Button) {
	case "", "left", "right", "middle":
	default:
		return errs.BadArg("button", "must be left, right or middle")
	}
	if _, err := modifierMask(a.Modifiers); err != nil {
		return err
	}
	return validatePointed(&a.actArgs, &a.pointArgs)
}

func click(ctx context.Context, c *Call, a *clickArgs) (any, error) {
	mods, err := modifierMask(a.Modifiers)
	if err != nil {
		return nil, err
	}
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	opts := input.ClickOptions{Button: a.Button, ClickCount: a.ClickCount, Modifiers: mods}
	if a.atPoint() {
		return clickAtXY(ctx, c, res, f, a, opts)
	}
	// The receipt is the pointerdown: a page that cancels it (canvas
	// apps, sortable lists) suppresses mousedown, yet the click goes on.
	p, err := pointAt(ctx, c, res, f, a.locator(), page.Action{Checks: page.PointerChecks(), Force: a.Force, Arm: "pointerdown", Args: a.args()}, a.timeout())
	if err != nil {
		return nil, err
	}
	out := map[string]any{"surface_id": res.SurfaceID, "clicked": true, "x": p.x, "y": p.y, "window_id": res.InputRootID, "waited_ms": waitedMS(p.acted)}
	if a.Position != nil {
		out["position"] = a.Position
	}
	dialog, err := watchDialogs(ctx, c, res, func() error { return clickAt(ctx, res, p, opts) })
	if err != nil {
		return nil, err
	}
	if dialog != nil {
		// The page stopped in a handler of this click: it got it.
		out["verified"], out["dialog_opened"] = true, dialog
		return withFallback(res, noteChanged(out, p.acted.Changed)), nil
	}
	r, err := verifyReceipt(ctx, c, res, f, p.x, p.y, "click")
	if err != nil {
		return nil, err
	}
	out["verified"] = r.Got
	return withFallback(res, noteChanged(out, p.acted.Changed, receiptChange(r))), nil
}

// clickAt clicks at the point: when the mouse already rests there on the
// element, the presses go without a move first.
func clickAt(ctx context.Context, res *surface.Resolution, p *pointed, opts input.ClickOptions) error {
	if p.acted.There {
		return input.ClickInPlace(ctx, res.InputRoot, p.x, p.y, opts)
	}
	return input.Click(ctx, res.InputRoot, p.x, p.y, opts)
}

// spot is a point of the surface's viewport made ready for a pointer
// action: the element there (armed), and the point in the input root's
// viewport.
type spot struct {
	x, y   float64 // in the input root's viewport
	at     *page.AtPoint
	waited time.Duration
}

// spotAt looks at the point (x, y) of the surface's viewport (arming arm
// against the element there) and turns it into the input root's viewport.
// In a frame, what covers the frame there in an enclosing document is
// waited for (up to timeout; force skips the wait and the browser gives
// the event to what is on top), as for an element's point, and is an
// ELEMENT_NOT_VISIBLE naming the cover if it stays.
func spotAt(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, x, y float64, arm string, force bool, timeout time.Duration) (*spot, error) {
	start := time.Now()
	deadline := start.Add(timeout)
	for {
		at, err := c.Session.Pages.ActAt(ctx, f, x, y, arm)
		if err != nil {
			return nil, err
		}
		if res.IsInputRoot() || force {
			ox, oy, err := res.Offset(ctx)
			if err != nil {
				return nil, err
			}
			return &spot{x + ox, y + oy, at, time.Since(start)}, nil
		}
		wx, wy, cover, err := res.Reach(ctx, x, y)
		if err != nil {
			return nil, err
		}
		if cover == nil {
			return &spot{wx, wy, at, time.Since(start)}, nil
		}
		if !time.Now().Before(deadline) {
			_, _ = c.Session.Pages.ActReceived(ctx, f) // disarm
			e := errs.New(errs.ElementNotVisible, "the point (%s, %s) of surface %s does not receive the pointer: %s covers its frame there in an enclosing document (waited %s)", ftoa(x), ftoa(y), res.SurfaceID, cover.String(), timeout.Round(time.Millisecond))
			e.Hint = "Something in a page that holds this frame (an overlay, dialog or banner) lies over the point. Close it or wait for it to go, or act on it first; force:true sends the event anyway and the browser gives it to what is on top."
			return nil, e.With("covering", cover).With("x", wx).With("y", wy).With("surface_id", res.SurfaceID)
		}
		select {
		case <-ctx.Done():
			return nil, errs.FromContext(ctx, errs.OperationTimeout, "waiting for the cover over the frame to go")
		case <-time.After(min(coverPoll, time.Until(deadline))):
		}
	}
}

// verifySpot checks the receipt armed by spotAt: the event must have
// reached the element that was at the point. what names the action.
func verifySpot(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, sp *spot, what string) (bool, error) {
	r, err := c.Session.Pages.ActReceived(ctx, f)
	if err != nil {
		return false, err
	}
	if !r.Armed {
		return false, nil // the document was replaced: nothing is left to ask
	}
	if r.Got {
		return true, nil
	}
	t := sp.at.Target
	var e *errs.Error
	if r.Seen && r.What != nil {
		e = errs.New(errs.ElementNotVisible, "the %s at %s went to %s, not to %s that was there when the point was checked (something moved or appeared there)", what, point(sp.x, sp.y), r.What.String(), t.Tag+" "+t.Selector)
		e.With("covering", r.What)
	} else {
		e = errs.New(errs.ElementNotVisible, "the %s at %s did not reach surface %s: something in an enclosing frame covers it (%s)", what, point(sp.x, sp.y), res.SurfaceID, c.coverAt(ctx, res, sp.x, sp.y))
	}
	e.Hint = "The browser's hit-testing gave the event to another element. Look at the point again (electron_screenshot, electron_snapshot) and wait for what covers it to go, or act on that first."
	return false, e.With("x", sp.x).With("y", sp.y).With("surface_id", res.SurfaceID)
}

// clickAtXY clicks at a point of the surface's viewport and reports the
// element that received the click.
func clickAtXY(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, a *clickArgs, opts input.ClickOptions) (any, error) {
	sp, err := spotAt(ctx, c, res, f, *a.X, *a.Y, "pointerdown", a.Force, a.timeout())
	if err != nil {
		return nil, err
	}
	out := map[string]any{"surface_id": res.SurfaceID, "clicked": true, "at": xy{*a.X, *a.Y}, "x": sp.x, "y": sp.y,
		"target": sp.at.Target, "window_id": res.InputRootID, "waited_ms": sp.waited.Milliseconds()}
	if sp.at.Over != nil {
		out["over"] = sp.at.Over
		out["note"] = "the element that received the click lies over " + sp.at.Over.Tag + " " + sp.at.Over.Selector + " at this point (an overlay)"
	}
	dialog, err := watchDialogs(ctx, c, res, func() error { return input.Click(ctx, res.InputRoot, sp.x, sp.y, opts) })
	if err != nil {
		return nil, err
	}
	if dialog != nil {
		out["verified"], out["dialog_opened"] = true, dialog
		return withFallback(res, out), nil
	}
	if out["verified"], err = verifySpot(ctx, c, res, f, sp, "click"); err != nil {
		return nil, err
	}
	return withFallback(res, out), nil
}

type hoverArgs struct {
	actArgs
	pointArgs
	Force bool `json:"force,omitempty" jsonschema:"skip the actionability checks"`
}

func (a *hoverArgs) validate() error { return validatePointed(&a.actArgs, &a.pointArgs) }

func hover(ctx context.Context, c *Call, a *hoverArgs) (any, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	if a.atPoint() {
		sp, err := spotAt(ctx, c, res, f, *a.X, *a.Y, "mousemove", a.Force, a.timeout())
		if err != nil {
			return nil, err
		}
		// There: the document saw the mouse arrive on the element at
		// this point and not leave; a move to where it is sends nothing.
		verified := true
		if sp.at.There {
			if _, err := c.Session.Pages.ActReceived(ctx, f); err != nil { // disarm
				return nil, err
			}
		} else {
			if err := input.Move(ctx, res.InputRoot, sp.x, sp.y, 0); err != nil {
				return nil, err
			}
			if verified, err = verifySpot(ctx, c, res, f, sp, "mouse move"); err != nil {
				return nil, err
			}
		}
		out := map[string]any{"surface_id": res.SurfaceID, "hovered": true, "verified": verified, "at": xy{*a.X, *a.Y}, "x": sp.x, "y": sp.y,
			"target": sp.at.Target, "window_id": res.InputRootID, "waited_ms": sp.waited.Milliseconds()}
		if sp.at.Over != nil {
			out["over"] = sp.at.Over
		}
		return withFallback(res, out), nil
	}
	checks := page.PointerChecks()
	checks.Enabled = false // a disabled control still shows its tooltip
	p, err := pointAt(ctx, c, res, f, a.locator(), page.Action{Checks: checks, Force: a.Force, Arm: "mousemove", Early: true, Args: a.args()}, a.timeout())
	if err != nil {
		return nil, err
	}
	// There: the element's document saw the mouse arrive on it (and not
	// leave), which is what a hover is.
	verified := true
	if p.acted.There {
		if _, err := c.Session.Pages.ActReceived(ctx, f); err != nil { // disarm
			return nil, err
		}
	} else {
		if err := input.Move(ctx, res.InputRoot, p.x, p.y, 0); err != nil {
			return nil, err
		}
		if verified, err = verifyReceived(ctx, c, res, f, p.x, p.y, "mouse move"); err != nil {
			return nil, err
		}
	}
	out := map[string]any{"surface_id": res.SurfaceID, "hovered": true, "verified": verified, "x": p.x, "y": p.y,
		"window_id": res.InputRootID, "waited_ms": waitedMS(p.acted)}
	if a.Position != nil {
		out["position"] = a.Position
	}
	return withFallback(res, noteChanged(out, p.acted.Changed)), nil
}

// ---- text ----

type typeArgs struct {
	actArgs
	Text *string `json:"text" jsonschema:"the text the field will hold (replaces what it holds)"`
}

func checkText(field string, t *string) error {
	if t == nil {
		return errs.BadArg(field, "is required")
	}
	if len(*t) > maxTypeChars {
		return errs.BadArg(field, "at most %d bytes, not %d", maxTypeChars, len(*t))
	}
	return nil
}

func (a *typeArgs) validate() error {
	if err := checkText("text", a.Text); err != nil {
		return err
	}
	return a.actArgs.validate()
}

// fillResult is the renderer's answer to fill: the text before and
// after, or the editor the element belongs to (nothing was done then).
type fillResult struct {
	Before string `json:"before"`
	After  string `json:"after"`
	Editor string `json:"editor"`
}

// sameText compares what a field holds with what was meant, forgiving an
// editing host's trailing newline and non-breaking spaces.
func sameText(got, want string) bool {
	norm := func(s string) string {
		s = strings.ReplaceAll(s, "\u00a0", " ")
		s = strings.ReplaceAll(s, "\r\n", "\n")
		return strings.TrimRight(s, "\n")
	}
	return norm(got) == norm(want)
}

func fill(ctx context.Context, c *Call, a *actArgs, text string) (map[string]any, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	acted, err := c.Session.Pages.Act(ctx, f, a.locator(), page.Action{
		Checks: page.Checks{Visible: true, Enabled: true, Editable: true}, Name: "fill", Args: map[string]any{"text": text},
	}, a.timeout())
	if err != nil {
		return nil, err
	}
	var out fillResult
	if err := json.Unmarshal(acted.Out, &out); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a fill")
	}
	if out.Editor != "" {
		// A code editor, rich-text editor or terminal: its text goes in
		// as a paste, verified as electron_type_into_editor verifies it.
		if res.InputRoot == nil {
			return nil, errs.New(errs.SurfaceUnsupported, "surface %s has no window root to take input", res.SurfaceID)
		}
		if err := bringToFront(ctx, c, res); err != nil {
			return nil, err
		}
		r, err := insertIntoEditor(ctx, c, res, f, a.locator(), out.Editor, text, out.Editor != page.EditorXterm, max(0, a.timeout()-waitedDur(acted)))
		if err != nil {
			return nil, err
		}
		if r["verified"] == "exact" || r["verified"] == "partial" {
			r["value"], r["changed"] = r["text"], true
		}
		return withFallback(res, r), nil
	}
	exact := sameText(out.After, text)
	if !exact && out.After == out.Before {
		e := errs.New(errs.TypeNoEffect, "the field still holds %s, not the text set: the page rejected or reset the value", clipQuote(out.After))
		return nil, e.With("before", out.Before).With("after", out.After).With("surface_id", res.SurfaceID)
	}
	r := noteChanged(map[string]any{"surface_id": res.SurfaceID, "value": out.After, "changed": out.Before != out.After, "waited_ms": waitedMS(acted)}, acted.Changed)
	if !exact {
		// It changed, but not into the text: a mask, a maxlength, a
		// sanitiser. Say so rather than claim the text.
		r["altered"] = true
		r["note"] = "the page changed the text as it was set; value is what the field holds"
	}
	return withFallback(res, r), nil
}

func clipQuote(s string) string {
	const n = 80
	r := []rune(s)
	if len(r) > n {
		s = string(r[:n]) + "…"
	}
	return strconv.Quote(s)
}

func typeText(ctx context.Context, c *Call, a *typeArgs) (any, error) {
	return fill(ctx, c, &a.actArgs, *a.Text)
}

func clearInput(ctx context.Context, c *Call, a *actArgs) (any, error) {
	return fill(ctx, c, a, "")
}

type keyboardTypeArgs struct {
	optElementArgs
	Text *string `json:"text" jsonschema:"the text to type; \\n presses Enter, \\t Tab"`
}

func (a *keyboardTypeArgs) validate() error {
	if err := checkText("text", a.Text); err != nil {
		return err
	}
	return a.optElementArgs.validate()
}

// focusFor focuses the element named by a (waiting until it is visible and
// enabled) with the renderer action (focus, focusText), or gives the
// surface's frame the focus when none is named (nil result then).
func focusFor(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, a *optElementArgs, action string) (*page.Acted, error) {
	if !a.has() {
		return nil, res.FocusFrame(ctx)
	}
	return c.Session.Pages.Act(ctx, f, a.locator(), page.Action{Checks: page.Checks{Visible: true, Enabled: true}, Name: action}, a.timeout())
}

func keyboardType(ctx context.Context, c *Call, a *keyboardTypeArgs) (any, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	focused, err := focusFor(ctx, c, res, f, &a.optElementArgs, "focusText")
	if err != nil {
		return nil, err
	}
	var before page.TextState
	if focused != nil {
		if err := json.Unmarshal(focused.Out, &before); err != nil {
			return nil, errs.Wrap(errs.Internal, err, "decoding a text target")
		}
	}
	out := map[string]any{"surface_id": res.SurfaceID, "typed": len([]rune(*a.Text)), "window_id": res.InputRootID}
	if focused != nil {
		noteChanged(out, focused.Changed)
	}
	dialog, err := watchDialogs(ctx, c, res, func() error { return input.TypeText(ctx, res.InputRoot, *a.Text) })
	if err != nil {
		return nil, err
	}
	if dialog != nil {
		out["dialog_opened"] = dialog
		return withFallback(res, out), nil
	}
	if a.has() {
		after, err := c.Session.Pages.ActText(ctx, f, a.locator())
		if err != nil {
			return nil, err
		}
		if after.Editable {
			out["value"] = after.Text
			if *a.Text != "" && after.Text == before.Text {
				e := errs.New(errs.TypeNoEffect, "the element still holds %s after typing: the page rejected or reset the keys", clipQuote(after.Text))
				return nil, e.With("after", after.Text).With("surface_id", res.SurfaceID)
			}
		}
	}
	return withFallback(res, out), nil
}

type editorArgs struct {
	actArgs
	Text    *string `json:"text" jsonschema:"the text to type; \\n starts a new line"`
	Replace bool    `json:"replace,omitempty" jsonschema:"select everything first, so the text replaces the editor's content"`
}

func (a *editorArgs) validate() error {
	if err := checkText("text", a.Text); err != nil {
		return err
	}
	return a.actArgs.validate()
}

// editorChords are the chords that select everything and go to the end
// of a document in an editor, on this machine's platform.
func editorChords() (selectAll, end input.Chord) {
	if runtime.GOOS == "darwin" {
		selectAll, _ = input.ParseChord("Meta+a")
		end, _ = input.ParseChord("Meta+ArrowDown")
		return
	}
	selectAll, _ = input.ParseChord("Control+a")
	end, _ = input.ParseChord("Control+End")
	return
}

// collapseSpace reduces every run of white space to one space.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
}

func typeIntoEditor(ctx context.Context, c *Call, a *editorArgs) (any, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	loc := a.locator()
	start := time.Now()
	kind, _, err := c.Session.Pages.EditorKind(ctx, f, loc, a.timeout())
	if err != nil {
		return nil, err
	}
	out, err := insertIntoEditor(ctx, c, res, f, loc, kind, *a.Text, a.Replace, max(0, a.timeout()-time.Since(start)))
	if err != nil {
		return nil, err
	}
	return withFallback(res, out), nil
}

// maxObserved bounds the editor text an answer carries.
const maxObserved = 2000

// insertIntoEditor puts text into the editor loc names, of the given kind
// ("" for a plain field or editing host, else a page.Editor* kind):
// replacing everything (replace) or at the end of the document. A terminal
// gets the text as a paste on its input element, with no click and no key;
// the others are clicked into like a user, given Control/Meta+A or
// Control/Meta+End, and get the text as a paste (insertText where a paste
// is not handled and insertText is exact: plain fields and editing hosts,
// CodeMirror, Quill, ProseMirror). The result is read back and compared.
func insertIntoEditor(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, loc page.Locator, kind, text string, replace bool, timeout time.Duration) (map[string]any, error) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if kind == page.EditorXterm {
		return insertIntoTerminal(ctx, c, res, f, loc, text, replace)
	}
	p, err := pointAt(ctx, c, res, f, loc, page.Action{Checks: page.PointerChecks(), Arm: "mousedown"}, timeout)
	if err != nil {
		return nil, err
	}
	if err := clickAt(ctx, res, p, input.ClickOptions{}); err != nil {
		return nil, err
	}
	if _, err := verifyReceived(ctx, c, res, f, p.x, p.y, "click"); err != nil {
		return nil, err
	}
	st, err := c.Session.Pages.EditorState(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	if (kind == "" && st.FocusKind == "") || (kind != "" && !st.Focused) {
		e := errs.New(errs.TypeNoEffect, "clicking the element gave the focus to nothing that takes text, so nothing was typed")
		e.Hint = "Target the editor itself (its editable area, or the element a click on which puts the caret in it); electron_focused_element shows what has the focus."
		return nil, e.With("surface_id", res.SurfaceID).With("editor", kind)
	}
	selectAll, end := editorChords()
	move := end
	if replace {
		move = selectAll
	}
	if err := input.PressChord(ctx, res.InputRoot, move); err != nil {
		return nil, err
	}
	before, err := settledEditor(ctx, c, f, loc)
	if err != nil {
		return nil, err
	}
	path := ""
	switch {
	case text == "" && replace:
		path = "key"
		if err := input.PressChord(ctx, res.InputRoot, input.Chord{Key: "Backspace"}); err != nil {
			return nil, err
		}
	case text == "":
	case kind != "":
		pasted, err := c.Session.Pages.EditorPaste(ctx, f, loc, text)
		if err != nil {
			return nil, err
		}
		if pasted.Handled {
			path = "paste"
			break
		}
		if kind == page.EditorMonaco {
			// Monaco runs text that arrives as typing through its typing
			// rules (indenting, closing brackets): never exact.
			e := errs.New(errs.TypeNoEffect, "the Monaco editor did not take the paste (on %s), so nothing was inserted", pasted.Target)
			e.Hint = "The editor ignored a paste event. Check that it is editable (not read-only) and has the focus (electron_focused_element)."
			return nil, e.With("surface_id", res.SurfaceID).With("editor", kind)
		}
		fallthrough
	default:
		// One insertion, as an input method's commit: plain fields and
		// editing hosts take it as it is.
		path = "insertText"
		if err := input.InsertText(ctx, res.InputRoot, text); err != nil {
			return nil, err
		}
	}
	// An editor draws a change at a later frame, and a busy page draws
	// late: a difference is taken as final only once the drawing has
	// held still.
	var after *page.EditorState
	var v page.Verdict
	for settle := time.Now().Add(editorSettle); ; {
		if after, err = settledEditor(ctx, c, f, loc); err != nil {
			return nil, err
		}
		if v = page.VerifyInsertion(&before.Text, &after.Text, text, replace); v.Verified != "" || !time.Now().Before(settle) {
			break
		}
		if !page.Pause(ctx, 50*time.Millisecond) {
			return nil, errs.FromContext(ctx, errs.OperationTimeout, "waiting for the editor to settle")
		}
	}
	editor := kind
	if editor == "" {
		editor = "plain"
	}
	out := map[string]any{"surface_id": res.SurfaceID, "editor": editor, "path": path, "typed": len([]rune(text)), "replaced": replace,
		"text": clipObserved(v.Observed), "window_id": res.InputRootID}
	if before.Mode != "" {
		out["mode"] = before.Mode
	}
	switch {
	case v.Verified == "exact":
		out["match"], out["verified"] = "exact", "exact"
	case v.Verified == "partial":
		out["match"], out["verified"], out["checked_lines"] = "partial", "partial", v.CheckedLines
		out["note"] = "the editor draws only the lines in view: the " + itoa(v.CheckedLines) + " drawn lines that end the text equal it; the lines out of view were not read"
	case after.Text.Drawn && collapseSpace(v.Observed) == collapseSpace(expectedWhole(&before.Text, text, replace)):
		// An element not known as an editor, read from what it draws: its
		// spacing may be its own.
		out["match"], out["verified"] = "ignoring white space", "ignoring white space"
	case text != "" && reflect.DeepEqual(before.Text, after.Text):
		e := errs.New(errs.TypeNoEffect, "the %s editor's text did not change after the %s: nothing was inserted", editor, pathName(path))
		e.Hint = "The editor took nothing (it may be read-only, or busy). Nothing was inserted, so the same call is safe once it takes text; check electron_get_state or electron_focused_element."
		return nil, e.With("surface_id", res.SurfaceID).With("editor", editor).With("path", path).With("observed", clipObserved(v.Observed))
	default:
		e := errs.New(errs.TypeMismatch, "after the %s the %s editor does not hold the text as given: %s", pathName(path), editor, v.Mismatch)
		return nil, e.With("surface_id", res.SurfaceID).With("editor", editor).With("path", path).With("observed", clipObserved(v.Observed))
	}
	return out, nil
}

// editorSettle is how long a difference between an editor's drawn text
// and the expected one may last before it counts.
const editorSettle = 1500 * time.Millisecond

// settledEditor reads an editor until two reads (each after two animation
// frames) agree, for at most editorSettle.
func settledEditor(ctx context.Context, c *Call, f page.Frame, loc page.Locator) (*page.EditorState, error) {
	prev, err := c.Session.Pages.EditorState(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	for deadline := time.Now().Add(editorSettle); time.Now().Before(deadline); {
		next, err := c.Session.Pages.EditorState(ctx, f, loc)
		if err != nil {
			return nil, err
		}
		if reflect.DeepEqual(prev.Text, next.Text) {
			return next, nil
		}
		prev = next
	}
	return prev, nil
}

// expectedWhole is what a fully read element should hold after the
// insertion.
func expectedWhole(before *page.EditorText, text string, replace bool) string {
	if replace || before.Whole == nil {
		return text
	}
	return *before.Whole + text
}

func pathName(path string) string {
	switch path {
	case "paste":
		return "paste"
	case "insertText":
		return "text insertion"
	case "key":
		return "Backspace"
	}
	return "caret move"
}

func clipObserved(s string) string {
	r := []rune(s)
	if len(r) > maxObserved {
		return string(r[:maxObserved]) + "…"
	}
	return s
}

// insertIntoTerminal sends text to a terminal (xterm.js) as a paste on its
// input element: the terminal hands it to the application as one piece
// (line breaks become carriage returns, as Enter sends; bracketed when the
// application asked for it). No click (it could reach the application as
// mouse input) and no key goes out.
func insertIntoTerminal(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, loc page.Locator, text string, replace bool) (map[string]any, error) {
	if replace {
		return nil, errs.BadArg("replace", "a terminal has no text to replace: what it is sent goes to the application; send the text without replace")
	}
	if text == "" {
		return nil, errs.BadArg("text", "a terminal cannot be cleared or sent nothing; pass the text to send")
	}
	focused, err := c.Session.Pages.EditorFocus(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	if !focused {
		e := errs.New(errs.TypeNoEffect, "the terminal's input element did not take the focus, so nothing was sent")
		e.Hint = "The terminal may be disabled or covered; check electron_focused_element."
		return nil, e.With("surface_id", res.SurfaceID).With("editor", page.EditorXterm)
	}
	before, err := c.Session.Pages.EditorState(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	pasted, err := c.Session.Pages.EditorPaste(ctx, f, loc, text)
	if err != nil {
		return nil, err
	}
	if !pasted.Handled {
		e := errs.New(errs.TypeNoEffect, "the terminal did not take the paste (on %s), so nothing was sent", pasted.Target)
		e.Hint = "The terminal ignored a paste event (its input may be disabled). Check electron_focused_element; nothing was sent, so sending again is safe once it takes input."
		return nil, e.With("surface_id", res.SurfaceID).With("editor", page.EditorXterm)
	}
	after, err := c.Session.Pages.EditorState(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	echoed := before.Screen != nil && after.Screen != nil && *before.Screen != *after.Screen
	return map[string]any{"surface_id": res.SurfaceID, "editor": page.EditorXterm, "path": "paste", "typed": len([]rune(text)),
		"verified": "delivered", "echoed": echoed, "changed": echoed, "window_id": res.InputRootID,
		"note": "the terminal's paste handler took the text and handed it to the application (line breaks as carriage returns); what the application received is not readable from the page, and changed/echoed say whether the screen changed within two frames"}, nil
}

// ---- keys ----

type keyArgs struct {
	optElementArgs
	Key string `json:"key" jsonschema:"a key or chord: Enter, a, Control+Shift+P, Meta+K, Shift+Tab"`
}

func (a *keyArgs) validate() error {
	if _, err := input.ParseChord(a.Key); err != nil {
		return err
	}
	return a.optElementArgs.validate()
}

func key(ctx context.Context, c *Call, a *keyArgs) (any, error) {
	chord, err := input.ParseChord(a.Key)
	if err != nil {
		return nil, err
	}
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	focused, err := focusFor(ctx, c, res, f, &a.optElementArgs, "focus")
	if err != nil {
		return nil, err
	}
	out := map[string]any{"surface_id": res.SurfaceID, "pressed": chord.String(), "window_id": res.InputRootID}
	if focused != nil {
		noteChanged(out, focused.Changed)
	}
	dialog, err := watchDialogs(ctx, c, res, func() error { return input.PressChord(ctx, res.InputRoot, chord) })
	if err != nil {
		return nil, err
	}
	if dialog != nil {
		out["dialog_opened"] = dialog
	}
	return withFallback(res, out), nil
}

type sequenceArgs struct {
	optElementArgs
	Keys    []string `json:"keys" jsonschema:"keys or chords pressed in order, e.g. [\"Control+A\", \"Backspace\", \"Enter\"]"`
	DelayMs int      `json:"delayMs,omitempty" jsonschema:"pause between keys in ms; default 0, max 1000"`
}

func (a *sequenceArgs) validate() error {
	if len(a.Keys) == 0 || len(a.Keys) > maxSequence {
		return errs.BadArg("keys", "pass 1 to %d keys", maxSequence)
	}
	for i, k := range a.Keys {
		if _, err := input.ParseChord(k); err != nil {
			if e := errs.As(err); e != nil {
				e.Details["field"] = "keys[" + itoa(i) + "]"
				e.Message = "keys[" + itoa(i) + "]: " + e.Message
			}
			return err
		}
	}
	if a.DelayMs < 0 || a.DelayMs > 1000 {
		return errs.BadArg("delayMs", "must be between 0 and 1000")
	}
	return a.optElementArgs.validate()
}

func pressSequence(ctx context.Context, c *Call, a *sequenceArgs) (any, error) {
	chords := make([]input.Chord, len(a.Keys))
	for i, k := range a.Keys {
		ch, err := input.ParseChord(k)
		if err != nil {
			return nil, err
		}
		chords[i] = ch
	}
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	if _, err := focusFor(ctx, c, res, f, &a.optElementArgs, "focus"); err != nil {
		return nil, err
	}
	pressed := make([]string, 0, len(chords))
	for i, ch := range chords {
		if i > 0 && a.DelayMs > 0 && !page.Pause(ctx, time.Duration(a.DelayMs)*time.Millisecond) {
			return nil, errs.FromContext(ctx, errs.OperationTimeout, "pausing between key presses")
		}
		dialog, err := watchDialogs(ctx, c, res, func() error { return input.PressChord(ctx, res.InputRoot, ch) })
		if err != nil {
			return nil, err
		}
		pressed = append(pressed, ch.String())
		if dialog != nil {
			// The page is stopped: the keys after this one would wait.
			return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "pressed": pressed, "window_id": res.InputRootID,
				"dialog_opened": dialog, "not_pressed": a.Keys[i+1:]}), nil
		}
	}
	return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "pressed": pressed, "window_id": res.InputRootID}), nil
}

// ---- check, select ----

type checkArgs struct {
	actArgs
	Force bool `json:"force,omitempty" jsonschema:"skip the actionability checks of the click"`
}

func checkBox(ctx context.Context, c *Call, a *checkArgs) (any, error) {
	return setChecked(ctx, c, a, true)
}

func uncheckBox(ctx context.Context, c *Call, a *checkArgs) (any, error) {
	return setChecked(ctx, c, a, false)
}

func setChecked(ctx context.Context, c *Call, a *checkArgs, want bool) (any, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	loc := a.locator()
	start := time.Now()
	acted, err := c.Session.Pages.Act(ctx, f, loc, page.Action{Name: "checked"}, a.timeout())
	if err != nil {
		return nil, err
	}
	var st page.CheckState
	if err := json.Unmarshal(acted.Out, &st); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a checked state")
	}
	if st.Checked == want && !st.Mixed {
		return withFallback(res, noteChanged(map[string]any{"surface_id": res.SurfaceID, "checked": want, "changed": false}, acted.Changed)), nil
	}
	if !want && st.Radio {
		return nil, errs.BadArg("selector", "a radio button cannot be unchecked by clicking it; check another radio of its group")
	}
	if res.InputRoot == nil {
		return nil, errs.New(errs.SurfaceUnsupported, "surface %s has no window root to take input", res.SurfaceID)
	}
	if err := bringToFront(ctx, c, res); err != nil {
		return nil, err
	}
	p, err := pointAt(ctx, c, res, f, loc, page.Action{Checks: page.PointerChecks(), Force: a.Force, Arm: "mousedown"}, max(0, a.timeout()-time.Since(start)))
	if err != nil {
		return nil, err
	}
	dialog, err := watchDialogs(ctx, c, res, func() error { return clickAt(ctx, res, p, input.ClickOptions{}) })
	if err != nil {
		return nil, err
	}
	if dialog != nil {
		return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "dialog_opened": dialog}), nil
	}
	rc, err := verifyReceipt(ctx, c, res, f, p.x, p.y, "click")
	if err != nil {
		return nil, err
	}
	after, err := c.Session.Pages.ActChecked(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	if after.Checked != want {
		e := errs.New(errs.TypeNoEffect, "the click did not leave the element %s: the page undid or ignored it", map[bool]string{true: "checked", false: "unchecked"}[want])
		e.Hint = "The element's checked state did not change as asked. Check electron_get_state, whether a label or another control drives it, or whether the page resets it."
		return nil, e.With("checked", after.Checked).With("surface_id", res.SurfaceID)
	}
	return withFallback(res, noteChanged(map[string]any{"surface_id": res.SurfaceID, "checked": want, "changed": true, "x": p.x, "y": p.y, "window_id": res.InputRootID},
		acted.Changed, p.acted.Changed, receiptChange(rc))), nil
}

type selectArgs struct {
	actArgs
	Values []string `json:"values" jsonschema:"option values or visible labels to choose; several for a multiple select, [] deselects all"`
}

func (a *selectArgs) validate() error {
	if a.Values == nil {
		return errs.BadArg("values", "is required: the values or labels of the options to choose")
	}
	return a.actArgs.validate()
}

func selectOption(ctx context.Context, c *Call, a *selectArgs) (any, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	acted, err := c.Session.Pages.Act(ctx, f, a.locator(), page.Action{
		Checks: page.Checks{Visible: true, Enabled: true}, Name: "select", Args: map[string]any{"values": a.Values},
	}, a.timeout())
	if err != nil {
		return nil, err
	}
	var out struct {
		Before []string `json:"before"`
		Values []string `json:"values"`
		Labels []string `json:"labels"`
		Wanted []string `json:"wanted"`
	}
	if err := json.Unmarshal(acted.Out, &out); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a selection")
	}
	if !sameSet(out.Values, out.Wanted) {
		e := errs.New(errs.TypeNoEffect, "the select holds %v, not %v: the page reset the choice", out.Values, out.Wanted)
		return nil, e.With("values", out.Values).With("wanted", out.Wanted).With("surface_id", res.SurfaceID)
	}
	return withFallback(res, noteChanged(map[string]any{"surface_id": res.SurfaceID, "values": out.Values, "labels": out.Labels,
		"changed": !sameSet(out.Before, out.Values), "waited_ms": waitedMS(acted)}, acted.Changed)), nil
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, s := range a {
		seen[s]++
	}
	for _, s := range b {
		if seen[s] == 0 {
			return false
		}
		seen[s]--
	}
	return true
}

// ---- files ----

type filesArgs struct {
	actArgs
	Paths []string `json:"paths" jsonschema:"absolute paths of existing files"`
}

func (a *filesArgs) validate() error {
	if a.Paths == nil {
		return errs.BadArg("paths", "is required: absolute paths of files ([] to empty a file input)")
	}
	if len(a.Paths) > maxFiles {
		return errs.BadArg("paths", "at most %d files, not %d", maxFiles, len(a.Paths))
	}
	for i, p := range a.Paths {
		if !filepath.IsAbs(p) {
			return errs.New(errs.AbsolutePathRequired, "paths[%d]: %q is not an absolute path", i, p).With("field", "paths["+itoa(i)+"]")
		}
	}
	return a.actArgs.validate()
}

// statFiles checks that every path names a regular file no larger than
// limit, and returns their sizes.
func statFiles(paths []string, limit int64) ([]int64, error) {
	sizes := make([]int64, len(paths))
	for i, p := range paths {
		field := "paths[" + itoa(i) + "]"
		st, err := os.Stat(p)
		if err != nil {
			if os.IsNotExist(err) {
				return nil, errs.New(errs.FileNotFound, "%s: %s does not exist", field, p).With("field", field)
			}
			return nil, errs.BadArg(field, "%v", err)
		}
		if !st.Mode().IsRegular() {
			return nil, errs.BadArg(field, "%s is not a regular file", p)
		}
		if st.Size() > limit {
			return nil, errs.BadArg(field, "%s has %d bytes; the limit is %d", p, st.Size(), limit)
		}
		sizes[i] = st.Size()
	}
	return sizes, nil
}

func setFiles(ctx context.Context, c *Call, a *filesArgs) (any, error) {
	paths, err := readablePaths(ctx, c, a.Paths)
	if err != nil {
		return nil, err
	}
	a.Paths = paths
	if _, err := statFiles(a.Paths, maxSetFileBytes); err != nil {
		return nil, err
	}
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	files, err := c.Session.Pages.SetFiles(ctx, f, a.locator(), a.Paths, a.timeout())
	if err != nil {
		return nil, err
	}
	return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "files": files, "count": len(files)}), nil
}

func dropFile(ctx context.Context, c *Call, a *filesArgs) (any, error) {
	if len(a.Paths) == 0 {
		return nil, errs.BadArg("paths", "name at least one file to drop")
	}
	paths, err := readablePaths(ctx, c, a.Paths)
	if err != nil {
		return nil, err
	}
	a.Paths = paths
	sizes, err := statFiles(a.Paths, maxDropFileBytes)
	if err != nil {
		return nil, err
	}
	var total int64
	for _, n := range sizes {
		total += n
	}
	if total > maxDropTotalBytes {
		return nil, errs.BadArg("paths", "the files have %d bytes together; the limit of a drop is %d", total, maxDropTotalBytes)
	}
	files := make([]page.DropFile, len(a.Paths))
	for i, p := range a.Paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, errs.BadArg("paths["+itoa(i)+"]", "%v", err)
		}
		var mod time.Time
		if st, err := os.Stat(p); err == nil {
			mod = st.ModTime()
		}
		files[i] = page.DropFile{Name: filepath.Base(p), Type: mime.TypeByExtension(filepath.Ext(p)), Data: b, Modified: mod}
	}
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	d, err := c.Session.Pages.DropFiles(ctx, f, a.locator(), files, a.timeout())
	if err != nil {
		return nil, err
	}
	if !d.Accepted {
		e := errs.New(errs.TypeNoEffect, "the element did not accept the drop (its dragover was not cancelled), so nothing was dropped")
		e.Hint = "The page takes no drops there. Target its drop zone (the element whose dragover handler calls preventDefault), or use electron_set_files for a file input."
		return nil, e.With("surface_id", res.SurfaceID)
	}
	return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "dropped": d.Dropped, "default_prevented": d.DefaultPrevented, "files": d.Files}), nil
}

// ---- drag ----

type dragArgs struct {
	actArgs
	TargetRef      int    `json:"targetRef,omitempty" jsonschema:"the element to drop onto: a ref"`
	TargetSelector string `json:"targetSelector,omitempty" jsonschema:"the element to drop onto: a CSS selector"`
	Steps          int    `json:"steps,omitempty" jsonschema:"moves from source to target; default: enough that no move skips more than a quarter of the smaller element (at least 10), max 100"`
	Expect         string `json:"expect,omitempty" jsonschema:"auto (default), reorder or drop: reorder checks that the source ends where the target item was; drop never checks an order; auto checks it for two children of one list (or when the page moved the parent's children)"`
}

func (a *dragArgs) target() page.Locator {
	return page.Locator{Ref: a.TargetRef, Selector: a.TargetSelector, AllowChanged: a.AllowChanged}
}

func (a *dragArgs) validate() error {
	switch {
	case a.TargetRef < 0:
		return errs.BadArg("targetRef", "must be a positive integer, not %d", a.TargetRef)
	case a.TargetRef > 0 && a.TargetSelector != "":
		return errs.BadArg("targetRef", "pass targetRef or targetSelector, not both")
	case a.TargetRef == 0 && strings.TrimSpace(a.TargetSelector) == "":
		return errs.BadArg("targetSelector", "name the element to drop onto: pass targetRef or targetSelector")
	case a.Steps < 0 || a.Steps > maxDragSteps:
		return errs.BadArg("steps", "must be between 1 and %d", maxDragSteps)
	}
	switch a.Expect {
	case "", "auto", "reorder", "drop":
	default:
		return errs.BadArg("expect", "must be auto, reorder or drop, not %q", a.Expect)
	}
	return a.actArgs.validate()
}

// dragSettle bounds the wait, after the drop, for a list's order to settle
// (a framework may re-render it a frame or two later).
const dragSettle = time.Second

// drag plays a drag with real input (input.PlayDrag: the page's own
// dragstart decides between an HTML drag and a pointer drag) while the page
// watches it (dragWatch), then checks the effect: for a drag within a
// list, the source must end where the target item was.
func drag(ctx context.Context, c *Call, a *dragArgs) (any, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	src, dst := a.locator(), a.target()
	expect := a.Expect
	if expect == "" {
		expect = "auto"
	}
	p, err := pointAt(ctx, c, res, f, src, page.Action{Checks: page.PointerChecks(), Arm: "pointerdown", Name: "dragWatch", To: &dst, Early: true,
		Args: map[string]any{"expect": expect}}, a.timeout())
	if err != nil {
		return nil, err
	}
	from := input.Point{X: p.x, Y: p.y}
	to := input.Point{X: p.acted.ToX + (p.x - p.acted.X), Y: p.acted.ToY + (p.y - p.acted.Y)}
	steps := a.Steps
	if steps == 0 {
		steps = input.DragSteps(from, to, dragSpan(p.acted, from, to))
	}
	out, err := input.PlayDrag(ctx, res.InputRoot, input.DragPlan{From: from, To: to, Steps: steps, Started: func() (input.DragStart, error) {
		r, err := c.Session.Pages.DragReport(ctx, f, true)
		switch {
		case err != nil:
			return input.NoDragStart, err
		case r.StartSeen && !r.Started:
			return input.DragStartCancelled, nil
		case r.Started:
			return input.DragStarted, nil
		}
		return input.NoDragStart, nil
	}})
	if err != nil {
		return nil, err
	}
	if _, err := verifyReceived(ctx, c, res, f, p.x, p.y, "press that starts the drag"); err != nil {
		return nil, err
	}
	r, err := c.Session.Pages.DragSettled(ctx, f, dragSettle)
	if err != nil {
		return nil, err
	}
	ok := noteChanged(map[string]any{"surface_id": res.SurfaceID, "mode": out.Mode, "from": map[string]float64{"x": from.X, "y": from.Y},
		"to": map[string]float64{"x": to.X, "y": to.Y}, "steps": steps, "window_id": res.InputRootID}, p.acted.Changed)
	if out.Mode == input.ModeHTML5 {
		ok["trusted"] = r.Trusted
	}
	if !r.Watching {
		// The drag navigated the document: nothing is left to ask.
		if out.Mode == input.ModePointer || out.Handed {
			ok["note"] = "the document was replaced during the drag"
			return withFallback(res, ok), nil
		}
		e := errs.New(errs.TypeNoEffect, "the HTML drag did not drop: the document was replaced before the drag started")
		return nil, e.With("surface_id", res.SurfaceID)
	}
	if o := r.Order; o != nil {
		ok["index"], ok["order"] = o.Index, o.Order
		if o.Reorder {
			return checkOrder(res, out, o, ok)
		}
		ok["reordered"] = o.Moved
	}
	if r.SourceMoved && r.Source != nil {
		// The page moved the source (into another list, say): the drag did
		// something, whatever its drop events said. It must have gone
		// beside the target (into its parent) or into it.
		if !r.Source.BesideTarget && !r.Source.InsideTarget {
			e := errs.New(errs.DragMisplaced, "the %s drag moved the item to %s (index %d), neither beside the target (in its parent) nor into it", out.Mode, r.Source.Parent, r.Source.Index)
			return nil, e.With("source", r.Source).With("mode", out.Mode).With("surface_id", res.SurfaceID)
		}
		ok["source_moved"], ok["source"] = true, r.Source
		return withFallback(res, ok), nil
	}
	if out.Mode == input.ModeHTML5 {
		if why := html5Refusal(out, r); why != "" {
			e := errs.New(errs.TypeNoEffect, "the HTML drag did not drop: %s", why)
			e.Hint = "The page refused this drag. Check the source and the target (the target's dragover handler must call preventDefault), or try another target."
			return nil, e.With("surface_id", res.SurfaceID)
		}
		ok["dropped"], ok["drop_prevented"] = true, r.DropPrevented
	}
	return withFallback(res, ok), nil
}

// dragSpan is the smaller extent of the source and the target along the
// drag's main axis (0 when a box is unknown).
func dragSpan(acted *page.Acted, from, to input.Point) float64 {
	if acted.Box == nil || acted.ToBox == nil {
		return 0
	}
	dx, dy := to.X-from.X, to.Y-from.Y
	if dx*dx > dy*dy {
		return min(acted.Box.Width, acted.ToBox.Width)
	}
	return min(acted.Box.Height, acted.ToBox.Height)
}

// html5Refusal says why an HTML drag that is not a reorder did not drop,
// or "" when it did.
func html5Refusal(out input.DragOutcome, r *page.DragReport) string {
	switch {
	case out.Refused:
		return "the page cancelled dragstart on the source"
	case !out.Handed:
		return "no drag started from the source (dragstart did not fire)"
	case !r.Accepted:
		return "the target did not accept the drop (its dragover was not cancelled)"
	case !r.Dropped:
		return "the browser did not drop on the target"
	}
	return ""
}

// checkOrder answers a drag within a list from the order it left: ok when
// the source is where the target item was, else DRAG_NO_EFFECT (the order
// did not change; TYPE_NO_EFFECT when the page cancelled dragstart) or
// DRAG_MISPLACED, with the order.
func checkOrder(res *surface.Resolution, out input.DragOutcome, o *page.DragOrder, ok map[string]any) (any, error) {
	if o.InPlace {
		ok["reordered"] = true
		return withFallback(res, ok), nil
	}
	var e *errs.Error
	switch {
	case !o.Moved && out.Refused:
		e = errs.New(errs.TypeNoEffect, "the HTML drag did not drop: the page cancelled dragstart on the source; the list kept its order")
		e.Hint = "The page refused to drag this item (its dragstart handler cancelled it). Check whether it can be dragged (a handle, a disabled item)."
	case !o.Moved:
		e = errs.New(errs.DragNoEffect, "the %s drag ended but the list kept its order: %s is still at index %d, not at %d (where %s was)", out.Mode, strconv.Quote(o.Item), o.Index, o.Target, strconv.Quote(o.AtTarget))
	case o.Index < 0:
		e = errs.New(errs.DragMisplaced, "the %s drag reordered the list but %s left it (or cannot be told apart from another item)", out.Mode, strconv.Quote(o.Item))
	default:
		e = errs.New(errs.DragMisplaced, "the %s drag moved %s to index %d, not to %d where the target was (%s is there now)", out.Mode, strconv.Quote(o.Item), o.Index, o.Target, strconv.Quote(o.AtTarget))
	}
	return nil, e.With("order", o.Order).With("before", o.Before).With("index", o.Index).With("target_index", o.Target).
		With("from_index", o.From).With("mode", out.Mode).With("surface_id", res.SurfaceID)
}

// ---- scroll ----

type scrollArgs struct {
	optElementArgs
	Dx float64 `json:"dx,omitempty" jsonschema:"wheel delta to the right in CSS pixels (negative: left)"`
	Dy float64 `json:"dy,omitempty" jsonschema:"wheel delta down in CSS pixels (negative: up)"`
}

func (a *scrollArgs) validate() error {
	if !a.has() && a.Dx == 0 && a.Dy == 0 {
		return errs.BadArg("dy", "pass dx/dy to turn the wheel, or ref/selector to scroll an element into view")
	}
	const limit = 1e6
	if a.Dx > limit || a.Dx < -limit || a.Dy > limit || a.Dy < -limit {
		return errs.BadArg("dy", "wheel deltas must be within ±%g", limit)
	}
	return a.optElementArgs.validate()
}

func scroll(ctx context.Context, c *Call, a *scrollArgs) (any, error) {
	if a.Dx == 0 && a.Dy == 0 {
		return scrollIntoView(ctx, c, &scrollIntoViewArgs{Common: a.Common, Ref: a.Ref, Selector: a.Selector, TimeoutMs: a.TimeoutMs, AllowChanged: a.AllowChanged})
	}
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	var x, y float64
	var before json.RawMessage
	var changed []page.RefChange
	if a.has() {
		checks := page.PointerChecks()
		checks.Enabled, checks.Stable = false, false
		p, err := pointAt(ctx, c, res, f, a.locator(), page.Action{Checks: checks, Name: "scrollState"}, a.timeout())
		if err != nil {
			return nil, err
		}
		x, y, before, changed = p.x, p.y, p.acted.Out, p.acted.Changed
	} else {
		cx, cy, sc, err := c.Session.Pages.ViewportCenter(ctx, f)
		if err != nil {
			return nil, err
		}
		ox, oy, err := res.Offset(ctx)
		if err != nil {
			return nil, err
		}
		x, y, before = cx+ox, cy+oy, sc
	}
	if err := input.Wheel(ctx, res.InputRoot, x, y, a.Dx, a.Dy); err != nil {
		return nil, err
	}
	after, err := c.Session.Pages.ScrollSettled(ctx, f, time.Second)
	if err != nil {
		return nil, err
	}
	return withFallback(res, noteChanged(map[string]any{"surface_id": res.SurfaceID, "x": x, "y": y, "before": before, "after": after,
		"scrolled": string(before) != string(after), "window_id": res.InputRootID}, changed)), nil
}

// scrollIntoViewArgs name an element that may not be rendered yet.
type scrollIntoViewArgs struct {
	Common
	Ref          int    `json:"ref,omitempty" jsonschema:"a ref from electron_snapshot or electron_find of the active surface"`
	Selector     string `json:"selector,omitempty" jsonschema:"a CSS selector in the active surface's document"`
	Role         string `json:"role,omitempty" jsonschema:"ARIA role of the element to bring into view (with or without a name)"`
	Name         string `json:"name,omitempty" jsonschema:"its exact accessible name"`
	NameContains string `json:"name_contains,omitempty" jsonschema:"a case-insensitive part of its accessible name"`
	ListRef      int    `json:"listRef,omitempty" jsonschema:"the virtualized list to scroll (a ref); default: every virtualized list of the surface"`
	ListSelector string `json:"listSelector,omitempty" jsonschema:"the virtualized list to scroll (a CSS selector)"`
	TimeoutMs    int    `json:"timeoutMs,omitempty" jsonschema:"default 5000 (15000 when a list must be scrolled), max 30000"`
	AllowChanged bool   `json:"allowChanged,omitempty" jsonschema:"use the ref's element even when it now shows another role or name than you last saw (else REF_STALE); the result's ref_changed reports the change"`
}

// seekDefault is how long a list is scrolled when timeoutMs is not given.
const seekDefault = 15 * time.Second

func (a *scrollIntoViewArgs) query() bool {
	return a.Role != "" || a.Name != "" || a.NameContains != ""
}

func (a *scrollIntoViewArgs) validate() error {
	if _, err := page.CheckTimeout("timeoutMs", a.TimeoutMs); err != nil {
		return err
	}
	if a.Ref < 0 || a.ListRef < 0 {
		return errs.BadArg("ref", "refs are positive integers")
	}
	if a.Ref > 0 && (a.Selector != "" || a.query()) {
		return errs.BadArg("ref", "pass ref, selector, or role/name: one of them")
	}
	if a.Selector != "" && a.query() {
		return errs.BadArg("selector", "pass selector or role/name, not both")
	}
	if a.Ref == 0 && strings.TrimSpace(a.Selector) == "" && !a.query() {
		return errs.BadArg("selector", "pass a ref, a selector, or a role and/or name")
	}
	if a.ListRef > 0 && a.ListSelector != "" {
		return errs.BadArg("listRef", "pass listRef or listSelector, not both")
	}
	return nil
}

func scrollIntoView(ctx context.Context, c *Call, a *scrollIntoViewArgs) (any, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	timeout, _ := page.CheckTimeout("timeoutMs", a.TimeoutMs)
	loc := page.Locator{Ref: a.Ref, Selector: a.Selector, AllowChanged: a.AllowChanged}
	var found *page.Seeked
	if a.Ref == 0 {
		// A selector that matches something is waited for as before; one
		// that matches nothing, or a role/name, may lie in a virtualized
		// list that has not rendered it.
		seek := a.query()
		if !seek {
			ok, err := c.Session.Pages.Exists(ctx, f, loc)
			if err != nil {
				return nil, err
			}
			seek = !ok
		}
		if seek {
			limit := timeout
			if a.TimeoutMs == 0 {
				limit = seekDefault
			}
			found, err = c.Session.Pages.Seek(ctx, f, page.SeekQuery{Selector: a.Selector, Role: a.Role, Name: a.Name, NameContains: a.NameContains,
				List: page.Locator{Ref: a.ListRef, Selector: a.ListSelector}}, limit)
			if err != nil {
				return nil, err
			}
			loc = page.Locator{Ref: found.Ref}
		}
	}
	acted, err := c.Session.Pages.Act(ctx, f, loc, page.Action{Checks: page.Checks{Visible: true, Scroll: true, Point: true}}, timeout)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"surface_id": res.SurfaceID, "in_view": true, "bbox": acted.Box, "waited_ms": waitedMS(acted)}
	if found != nil {
		out["ref"], out["role"], out["name"], out["scrolled_pages"] = found.Ref, found.Role, found.Name, found.Steps
	}
	return withFallback(res, noteChanged(out, acted.Changed)), nil
}
