package tool

import (
	"context"
	"encoding/json"
	"mime"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	cdpproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	cdpinput "github.com/chromedp/cdproto/input"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
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

const actionabilityNote = " Before acting it waits (timeoutMs, default 5000, max 30000) until the element is attached, visible, stable (same box in two animation frames), enabled, scrolled into view and receives the pointer at its centre. Errors: SELECTOR_NO_MATCH / REF_NOT_FOUND (no such element), ELEMENT_NOT_VISIBLE (hidden, moving, or covered — the message names the cover), ELEMENT_DISABLED."

func registerInteract(s *Server) {
	add(s, "electron_click", "Click an element of the active surface (ref or selector) with real mouse events on its window, so the browser's own hit-testing decides what receives it; what covers the element in its own document or its frame in an enclosing one is waited for before anything is sent, and the click is verified to have reached the element (a click taken by something else is an error naming it, never a silent miss). button (left|right|middle), clickCount (2 = double click), modifiers held (Alt, Control, Meta, Shift)."+actionabilityNote+" force:true skips the checks (the browser still hit-tests). A click whose handler opens a JavaScript dialog returns at once with dialog_opened {type, message}: the page waits for the dialog's answer.", true, gateNone, click)
	add(s, "electron_hover", "Move the mouse over an element of the active surface (real mouse events), e.g. to open a hover menu or show a tooltip; verified to reach the element."+actionabilityNote, true, gateNone, hover)
	add(s, "electron_type", "Set the text of a text field, textarea or contenteditable (ref or selector) as a paste would: the value is replaced, then input and change fire (frameworks such as React see it). Returns the value the field holds then (altered:true when the page changed the text, e.g. a mask or maxlength). TYPE_NO_EFFECT when the value did not change (the page rejected or reset it): try electron_keyboard_type. Waits until the element is visible, enabled and editable (timeoutMs).", true, gateNone, typeText)
	add(s, "electron_keyboard_type", "Type text with real key events, one keydown/keyup per character (characters with no US key go in as IME text), into the element given by ref or selector (focused first, caret at the end) or into whatever has the focus. Use it when a page reacts to keys (autocomplete, shortcuts) or rejects electron_type. With a text target, TYPE_NO_EFFECT when its text did not change.", true, gateNone, keyboardType)
	add(s, "electron_type_into_editor", "Type into a rich or code editor (contenteditable, CodeMirror, Monaco…): clicks into it like a user (TYPE_NO_EFFECT when that focuses nothing that takes text), with replace:true selects everything first (Control/Meta+A) so the text replaces it, else puts the caret at the end (Control/Meta+End); inserts the whole text, line breaks included, in one piece as a paste would, so the editor's typing rules (indenting after Enter, closing brackets) do not rewrite it; then reads the element's text: match is \"exact\" when it contains the text as typed, \"ignoring white space\" when only its spacing differs (editors that draw text themselves), and TYPE_NO_EFFECT when it is not there. To go through the editor's typing rules key by key, use electron_keyboard_type.", true, gateNone, typeIntoEditor)
	add(s, "electron_key", "Press a key or chord (Enter, Tab, Escape, ArrowDown, Control+Shift+P, Meta+K, Shift+Tab…) with real key events in the active surface; with ref or selector that element is focused first (waiting until it is visible and enabled), else the surface's frame gets the focus and the key goes to whatever is focused there. A key that opens a JavaScript dialog returns at once with dialog_opened.", true, gateNone, key)
	add(s, "electron_press_sequence", "Press keys one after another (keys: [\"Control+A\", \"Backspace\", \"Enter\"]), each a key or chord as electron_key takes, optionally focusing ref or selector first; delayMs between keys (default 0, max 1000).", true, gateNone, pressSequence)
	add(s, "electron_clear_input", "Empty a text field, textarea or contenteditable (ref or selector); input and change fire. TYPE_NO_EFFECT when the page kept a value.", true, gateNone, clearInput)
	add(s, "electron_check", "Check a checkbox, radio or switch (ref or selector; a label works too): clicks it only when it is not checked, then verifies it is (TYPE_NO_EFFECT when the page undid it)."+actionabilityNote, true, gateNone, checkBox)
	add(s, "electron_uncheck", "Uncheck a checkbox or switch (ref or selector): clicks it only when it is checked, then verifies it is not. A radio cannot be unchecked (check another one of its group)."+actionabilityNote, true, gateNone, uncheckBox)
	add(s, "electron_select_option", "Choose options of a <select> (ref or selector): values[] are matched against option values first, then visible labels (case-insensitive), so [\"b\"] and [\"Banana\"] both work; several values for a multiple select (the others are deselected; [] deselects all). input and change fire; the choice is verified (TYPE_NO_EFFECT when the page reset it). Waits until the select is visible and enabled.", true, gateNone, selectOption)
	add(s, "electron_set_files", "Put files into an <input type=file> (ref or selector; it may be hidden, as styled file inputs are) as if the user chose them: paths[] are absolute paths of existing files (ABSOLUTE_PATH_REQUIRED, FILE_NOT_FOUND); [] empties it. change fires; returns the files the input holds.", true, gateNone, setFiles)
	add(s, "electron_drop_file", "Drop files onto an element (a drop zone) with drag events carrying File objects built from the files' bytes (paths[] absolute; at most 8 MiB each, 16 MiB in all): dragenter, dragover, then drop when the page accepts it. Returns default_prevented (the page handled the drop itself); TYPE_NO_EFFECT when the page did not accept the drop there.", true, gateNone, dropFile)
	add(s, "electron_drag", "Drag an element (ref or selector) onto another (targetRef or targetSelector) in the active surface. Pointer-driven drags (mousedown/mousemove/mouseup, pointer events) get real mouse input with intermediate moves (steps, default 10); HTML drag and drop (draggable elements) is started by real mouse input and dropped through the browser's own drag events, so dragstart, dragover, drop and dragend are trusted and carry the page's DataTransfer. mode in the result says which. TYPE_NO_EFFECT when the page cancelled dragstart or the target did not accept the drop."+actionabilityNote, true, gateNone, drag)
	add(s, "electron_scroll", "Scroll the active surface: with ref or selector and no dx/dy, scroll that element into view; with dx/dy (CSS pixels, positive = down/right), turn the mouse wheel at the element's centre (scrolling whatever scrolls there, e.g. a list) or at the viewport's centre. Returns the scroll positions before and after.", true, gateNone, scroll)
	add(s, "electron_scroll_into_view", "Scroll an element (ref or selector) into view: every scroll container and enclosing frame moves as needed. Waits until it is visible (timeoutMs); returns its box in the viewport.", true, gateNone, scrollIntoView)
}

// actArgs name one element and how long to wait for it.
type actArgs struct {
	elementArgs
	TimeoutMs int `json:"timeoutMs,omitempty" jsonschema:"how long to wait until the element is actionable; default 5000, max 30000"`
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
	Ref       int    `json:"ref,omitempty" jsonschema:"focus this element first (a ref from electron_snapshot or electron_find)"`
	Selector  string `json:"selector,omitempty" jsonschema:"focus this element first (a CSS selector)"`
	TimeoutMs int    `json:"timeoutMs,omitempty" jsonschema:"how long to wait for the element; default 5000, max 30000"`
}

func (a *optElementArgs) has() bool { return a.Ref != 0 || a.Selector != "" }

func (a *optElementArgs) locator() page.Locator {
	return page.Locator{Ref: a.Ref, Selector: a.Selector}
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
	return toFront(ctx, c, res.InputRoot, res.InputRootID)
}

// toFront makes a window the front one, unless it is already.
func toFront(ctx context.Context, c *Call, conn *cdp.Conn, windowID string) error {
	if c.Session.IsFront(windowID) {
		return nil
	}
	if err := conn.Call(ctx, "Page.bringToFront", nil, nil); err != nil {
		return err
	}
	// Two animation frames: the window has painted once it is in front.
	if err := conn.Call(ctx, "Runtime.evaluate", map[string]any{
		"expression":   "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))",
		"awaitPromise": true,
	}, nil); err != nil {
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
		if cover == "" {
			if !covered.IsZero() {
				acted.Waited += time.Since(covered)
			}
			return &pointed{x, y, acted}, nil
		}
		if covered.IsZero() {
			covered = time.Now()
		}
		if !time.Now().Before(deadline) {
			e := errs.New(errs.ElementNotVisible, "the element does not receive the pointer: %s covers its frame at %s in an enclosing document (waited %s)", cover, point(x, y), timeout.Round(time.Millisecond))
			e.Hint = "Something in a page that holds this frame (an overlay, dialog or banner) lies over it. Close it or wait for it to go, or act on it first; force:true clicks anyway and the browser gives the click to what is on top."
			return nil, e.With("covering", cover).With("x", x).With("y", y).With("surface_id", res.SurfaceID)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(min(coverPoll, time.Until(deadline))):
		}
		if acted, err = c.Session.Pages.Act(ctx, f, loc, act, max(0, time.Until(deadline))); err != nil {
			return nil, err
		}
	}
}

// coverPoll is how often a frame covered in an enclosing document is
// looked at again.
const coverPoll = 50 * time.Millisecond

// describeExpr describes the element e for a message: tag#id "label".
const describeExpr = "const n = e.getAttribute('aria-label') || e.getAttribute('title') || (e.innerText || '').trim().slice(0, 40); " +
	"return e.localName + (e.id ? '#' + e.id : '') + (n ? ' \"' + n + '\"' : '');"

// coverAt describes what the window's top document has at a point.
func (c *Call) coverAt(ctx context.Context, res *surface.Resolution, x, y float64) string {
	var out struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	expr := "(() => { const e = document.elementFromPoint(" + ftoa(x) + ", " + ftoa(y) + "); if (!e) return 'nothing'; " + describeExpr + " })()"
	if err := res.InputRoot.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &out); err != nil {
		return "unknown"
	}
	return "at the window's top level: " + out.Result.Value
}

// verifyReceived checks the receipt armed by pointAt: the event must have
// reached the element. what names the action for the message.
func verifyReceived(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, x, y float64, what string) (bool, error) {
	r, err := c.Session.Pages.ActReceived(ctx, f)
	if err != nil {
		return false, err
	}
	if !r.Armed {
		// The document was replaced (the press navigated): nothing is
		// left to ask.
		return false, nil
	}
	if r.Got {
		return true, nil
	}
	var e *errs.Error
	if r.Seen && r.What != nil {
		e = errs.New(errs.ElementNotVisible, "the %s at %s went to %s instead of the element (it moved or something covered it at that moment)", what, point(x, y), r.What.String())
		e.With("covering", r.What)
	} else {
		e = errs.New(errs.ElementNotVisible, "the %s at %s did not reach the element: something in an enclosing frame covers it (%s)", what, point(x, y), c.coverAt(ctx, res, x, y))
	}
	e.Hint = "The browser's hit-testing gave the event to another element. Close or wait for what covers the element (an overlay, dialog or banner), or act on that first."
	return false, e.With("x", x).With("y", y).With("surface_id", res.SurfaceID)
}

func point(x, y float64) string { return "(" + ftoa(x) + ", " + ftoa(y) + ")" }

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

func waitedMS(a *page.Acted) int64 { return a.Waited.Milliseconds() }

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
	evs, stop := res.InputRoot.Subscribe("Page.javascriptDialogOpening")
	defer stop()
	var frameEvs <-chan jsonv2.Value
	if res.Eval != nil && res.Eval != res.InputRoot {
		ch, stopFrame := res.Eval.Subscribe("Page.javascriptDialogOpening")
		defer stopFrame()
		frameEvs = ch
	}
	done := make(chan error, 1)
	c.Go(func() { done <- run() }) // joined by the dispatcher when the call ends
	var raw jsonv2.Value
	select {
	case err := <-done:
		return nil, err
	case raw = <-evs:
	case raw = <-frameEvs:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var ev struct {
		Type          string `json:"type"`
		Message       string `json:"message"`
		URL           string `json:"url"`
		DefaultPrompt string `json:"defaultPrompt"`
	}
	if err := json.Unmarshal([]byte(raw), &ev); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a dialog event")
	}
	return dialogNote(c, &dialogOpened{Type: ev.Type, Message: ev.Message, URL: ev.URL, DefaultPrompt: ev.DefaultPrompt,
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

type clickArgs struct {
	actArgs
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
	return a.actArgs.validate()
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
	p, err := pointAt(ctx, c, res, f, a.locator(), page.Action{Checks: page.PointerChecks(), Force: a.Force, Arm: "mousedown"}, a.timeout())
	if err != nil {
		return nil, err
	}
	opts := input.ClickOptions{Button: a.Button, ClickCount: a.ClickCount, Modifiers: mods}
	out := map[string]any{"surface_id": res.SurfaceID, "clicked": true, "x": p.x, "y": p.y, "window_id": res.InputRootID, "waited_ms": waitedMS(p.acted)}
	dialog, err := watchDialogs(ctx, c, res, func() error { return clickAt(ctx, res, p, opts) })
	if err != nil {
		return nil, err
	}
	if dialog != nil {
		// The page stopped in a handler of this click: it got it.
		out["verified"], out["dialog_opened"] = true, dialog
		return withFallback(res, out), nil
	}
	if out["verified"], err = verifyReceived(ctx, c, res, f, p.x, p.y, "click"); err != nil {
		return nil, err
	}
	return withFallback(res, out), nil
}

// clickAt clicks at the point: when the mouse already rests there on the
// element, the presses go without a move first.
func clickAt(ctx context.Context, res *surface.Resolution, p *pointed, opts input.ClickOptions) error {
	if p.acted.There {
		return input.ClickInPlace(ctx, res.InputRoot, p.x, p.y, opts)
	}
	return input.Click(ctx, res.InputRoot, p.x, p.y, opts)
}

type hoverArgs struct {
	actArgs
	Force bool `json:"force,omitempty" jsonschema:"skip the actionability checks"`
}

func hover(ctx context.Context, c *Call, a *hoverArgs) (any, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	checks := page.PointerChecks()
	checks.Enabled = false // a disabled control still shows its tooltip
	p, err := pointAt(ctx, c, res, f, a.locator(), page.Action{Checks: checks, Force: a.Force, Arm: "mousemove", Early: true}, a.timeout())
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
	return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "hovered": true, "verified": verified, "x": p.x, "y": p.y,
		"window_id": res.InputRootID, "waited_ms": waitedMS(p.acted)}), nil
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

// fillResult is the renderer's answer to fill.
type fillResult struct {
	Before string `json:"before"`
	After  string `json:"after"`
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
	exact := sameText(out.After, text)
	if !exact && out.After == out.Before {
		e := errs.New(errs.TypeNoEffect, "the field still holds %s, not the text set: the page rejected or reset the value", clipQuote(out.After))
		return nil, e.With("before", out.Before).With("after", out.After).With("surface_id", res.SurfaceID)
	}
	r := map[string]any{"surface_id": res.SurfaceID, "value": out.After, "changed": out.Before != out.After, "waited_ms": waitedMS(acted)}
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
	p, err := pointAt(ctx, c, res, f, loc, page.Action{Checks: page.PointerChecks(), Arm: "mousedown"}, a.timeout())
	if err != nil {
		return nil, err
	}
	if err := clickAt(ctx, res, p, input.ClickOptions{}); err != nil {
		return nil, err
	}
	if _, err := verifyReceived(ctx, c, res, f, p.x, p.y, "click"); err != nil {
		return nil, err
	}
	before, err := c.Session.Pages.ActText(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	if before.FocusKind == "" {
		e := errs.New(errs.TypeNoEffect, "clicking the element gave the focus to nothing that takes text, so nothing was typed")
		e.Hint = "Target the editor itself (its editable area, or the element a click on which puts the caret in it); electron_focused_element shows what has the focus."
		return nil, e.With("surface_id", res.SurfaceID)
	}
	selectAll, end := editorChords()
	move := end
	if a.Replace {
		move = selectAll
	}
	if err := input.PressChord(ctx, res.InputRoot, move); err != nil {
		return nil, err
	}
	text := strings.ReplaceAll(*a.Text, "\r\n", "\n")
	if text == "" {
		if a.Replace {
			if err := input.PressChord(ctx, res.InputRoot, input.Chord{Key: "Backspace"}); err != nil {
				return nil, err
			}
		}
	} else if _, err := cdpproto.Call(ctx, res.InputRoot, cdpinput.InsertText, cdpinput.InsertTextParams{Text: text}); err != nil {
		// One insertion, as a paste would: an editor's own typing rules
		// (indenting after Enter, closing brackets) leave it as it is.
		return nil, err
	}
	got, err := c.Session.Pages.ActText(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	match := editorMatch(got.Text, text, a.Replace)
	if match == "" {
		e := errs.New(errs.TypeNoEffect, "the editor's text does not contain what was typed; it reads %s", clipQuote(got.Text))
		e.Hint = "The text did not land in the element. Target the editor's editable area (its contenteditable or text area), check it has the focus (electron_focused_element), or try electron_keyboard_type."
		return nil, e.With("text", got.Text).With("surface_id", res.SurfaceID)
	}
	return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "typed": len([]rune(text)), "replaced": a.Replace, "text": got.Text,
		"match": match, "window_id": res.InputRootID}), nil
}

// editorMatch says how the editor's text shows what was typed: "exact"
// (it contains the text as typed, or is empty after replacing with ""),
// "ignoring white space" (only with runs of white space made one space,
// as editors that draw text their own way may show it), or "" (not at all).
func editorMatch(got, typed string, replace bool) string {
	norm := strings.ReplaceAll(strings.ReplaceAll(got, "\u00a0", " "), "\r\n", "\n")
	if replace && typed == "" {
		if strings.TrimSpace(norm) == "" {
			return "exact"
		}
		return ""
	}
	if strings.Contains(norm, typed) {
		return "exact"
	}
	if strings.Contains(collapseSpace(norm), collapseSpace(typed)) {
		return "ignoring white space"
	}
	return ""
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
	if _, err := focusFor(ctx, c, res, f, &a.optElementArgs, "focus"); err != nil {
		return nil, err
	}
	out := map[string]any{"surface_id": res.SurfaceID, "pressed": chord.String(), "window_id": res.InputRootID}
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
			return nil, ctx.Err()
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
		return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "checked": want, "changed": false}), nil
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
		return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "changed": "unknown", "dialog_opened": dialog}), nil
	}
	if _, err := verifyReceived(ctx, c, res, f, p.x, p.y, "click"); err != nil {
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
	return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "checked": want, "changed": true, "x": p.x, "y": p.y, "window_id": res.InputRootID}), nil
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
	return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "values": out.Values, "labels": out.Labels,
		"changed": !sameSet(out.Before, out.Values), "waited_ms": waitedMS(acted)}), nil
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
	Steps          int    `json:"steps,omitempty" jsonschema:"mouse moves between source and target in a pointer drag; default 10, max 100"`
}

func (a *dragArgs) target() page.Locator {
	return page.Locator{Ref: a.TargetRef, Selector: a.TargetSelector}
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
	return a.actArgs.validate()
}

func drag(ctx context.Context, c *Call, a *dragArgs) (any, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	src, dst := a.locator(), a.target()
	start := time.Now()
	kind, err := c.Session.Pages.Act(ctx, f, src, page.Action{Name: "dragKind"}, a.timeout())
	if err != nil {
		return nil, err
	}
	var k struct {
		HTML5 bool `json:"html5"`
	}
	if err := json.Unmarshal(kind.Out, &k); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a drag kind")
	}
	left := max(0, a.timeout()-time.Since(start))
	if k.HTML5 {
		return html5Drag(ctx, c, res, f, src, dst, left)
	}
	p, err := pointAt(ctx, c, res, f, src, page.Action{Checks: page.PointerChecks(), Arm: "mousedown", To: &dst, Early: true}, left)
	if err != nil {
		return nil, err
	}
	to := input.Point{X: p.acted.ToX + (p.x - p.acted.X), Y: p.acted.ToY + (p.y - p.acted.Y)}
	if err := input.Drag(ctx, res.InputRoot, input.Point{X: p.x, Y: p.y}, to, a.Steps); err != nil {
		return nil, err
	}
	if _, err := verifyReceived(ctx, c, res, f, p.x, p.y, "press that starts the drag"); err != nil {
		return nil, err
	}
	return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "mode": "pointer", "from": map[string]float64{"x": p.x, "y": p.y},
		"to": map[string]float64{"x": to.X, "y": to.Y}, "window_id": res.InputRootID}), nil
}

// html5Drag drags a draggable source onto the target with trusted HTML
// drag and drop events (input.HTML5Drag), watched from the page
// (dragWatch), so the answer says what the page did with it.
func html5Drag(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, src, dst page.Locator, timeout time.Duration) (any, error) {
	p, err := pointAt(ctx, c, res, f, src, page.Action{Checks: page.PointerChecks(), Name: "dragWatch", To: &dst, Early: true}, timeout)
	if err != nil {
		return nil, err
	}
	to := input.Point{X: p.acted.ToX + (p.x - p.acted.X), Y: p.acted.ToY + (p.y - p.acted.Y)}
	startedYet := func() (bool, error) {
		r, err := c.Session.Pages.DragReport(ctx, f, true)
		if err != nil {
			return false, err
		}
		return r.Started, nil
	}
	handed, err := input.HTML5Drag(ctx, res.InputRoot, input.Point{X: p.x, Y: p.y}, to, startedYet)
	if err != nil {
		return nil, err
	}
	r, err := c.Session.Pages.DragReport(ctx, f, false)
	if err != nil {
		return nil, err
	}
	var why string
	switch {
	case !r.Watching:
		// The drop navigated the document: nothing is left to ask.
		if handed {
			return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "mode": "html5", "dropped": true, "note": "the document was replaced after the drop",
				"from": map[string]float64{"x": p.x, "y": p.y}, "to": map[string]float64{"x": to.X, "y": to.Y}}), nil
		}
		why = "the document was replaced before the drag started"
	case r.StartSeen && !r.Started:
		why = "the page cancelled dragstart on the source"
	case !handed:
		why = "no drag started from the source (dragstart did not fire)"
	case !r.Accepted:
		why = "the target did not accept the drop (its dragover was not cancelled)"
	case !r.Dropped:
		why = "the browser did not drop on the target"
	}
	if why != "" {
		e := errs.New(errs.TypeNoEffect, "the HTML drag did not drop: %s", why)
		e.Hint = "The page refused this drag. Check the source and the target (the target's dragover handler must call preventDefault), or try another target."
		return nil, e.With("surface_id", res.SurfaceID)
	}
	return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "mode": "html5", "dropped": true, "drop_prevented": r.DropPrevented, "trusted": r.Trusted,
		"from": map[string]float64{"x": p.x, "y": p.y}, "to": map[string]float64{"x": to.X, "y": to.Y}, "window_id": res.InputRootID}), nil
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
		return scrollIntoView(ctx, c, &actArgs{elementArgs: elementArgs{Common: a.Common, Ref: a.Ref, Selector: a.Selector}, TimeoutMs: a.TimeoutMs})
	}
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	var x, y float64
	var before json.RawMessage
	if a.has() {
		checks := page.PointerChecks()
		checks.Enabled, checks.Stable = false, false
		p, err := pointAt(ctx, c, res, f, a.locator(), page.Action{Checks: checks, Name: "scrollState"}, a.timeout())
		if err != nil {
			return nil, err
		}
		x, y, before = p.x, p.y, p.acted.Out
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
	return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "x": x, "y": y, "before": before, "after": after,
		"scrolled": string(before) != string(after), "window_id": res.InputRootID}), nil
}

func scrollIntoView(ctx context.Context, c *Call, a *actArgs) (any, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	acted, err := c.Session.Pages.Act(ctx, f, a.locator(), page.Action{Checks: page.Checks{Visible: true, Scroll: true, Point: true}}, a.timeout())
	if err != nil {
		return nil, err
	}
	return withFallback(res, map[string]any{"surface_id": res.SurfaceID, "in_view": true, "bbox": acted.Box, "waited_ms": waitedMS(acted)}), nil
}
