package act

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/page"
)

// Inserted is what putting text into an editor or terminal did, as read
// back from it.
type Inserted struct {
	Editor       string  `json:"editor,omitempty" jsonschema:"monaco, codemirror, quill, prosemirror, lexical, ace, xterm, or plain"`
	Path         string  `json:"path,omitempty" jsonschema:"how the text went in: paste, insertText or key (Backspace)"`
	Typed        *int    `json:"typed,omitempty" jsonschema:"characters sent"`
	Replaced     *bool   `json:"replaced,omitempty"`
	Text         *string `json:"text,omitempty" jsonschema:"the editor's text read back (clipped at 2000 characters)"`
	Mode         string  `json:"mode,omitempty" jsonschema:"the editor's input mode (Monaco: editcontext or textarea)"`
	Match        string  `json:"match,omitempty" jsonschema:"exact, partial or ignoring white space"`
	Verified     string  `json:"verified,omitempty" jsonschema:"as match; delivered for a terminal"`
	ReadFrom     string  `json:"read_from,omitempty" jsonschema:"model: the text was read through the editor's own model (Monaco, CodeMirror, Ace, ProseMirror, Lexical); drawn: from what it draws"`
	CheckedLines int     `json:"checked_lines,omitempty" jsonschema:"partial: the drawn lines compared"`
	Echoed       *bool   `json:"echoed,omitempty" jsonschema:"a terminal's screen changed"`
	WindowID     string  `json:"window_id,omitempty"`
	Note         string  `json:"note,omitempty"`
}

// maxObserved bounds the editor text an answer carries.
const maxObserved = 2000

// intoEditor puts text into the editor loc names, of the given kind
// ("" for a plain field or editing host, else a page.Editor* kind):
// replacing everything (replace) or at the end of the document. A terminal
// gets the text as a paste on its input element, with no click and no key;
// the others are clicked into like a user, given Control/Meta+A or
// Control/Meta+End, and get the text as a paste (insertText where a paste
// is not handled and insertText is exact: plain fields and editing hosts,
// CodeMirror, Quill, ProseMirror). The result is read back and compared.
func (t Target) intoEditor(ctx context.Context, loc page.Locator, kind, text string, replace bool, timeout time.Duration) (*Inserted, error) {
	res, f := t.Res, t.Frame
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if kind == page.EditorXterm {
		return t.intoTerminal(ctx, loc, text, replace)
	}
	p, err := t.At(ctx, loc, page.Action{Checks: page.PointerChecks(), Arm: "mousedown"}, timeout)
	if err != nil {
		return nil, err
	}
	if err := t.Press(ctx, p, input.ClickOptions{}); err != nil {
		return nil, err
	}
	if _, err := t.Received(ctx, p.X, p.Y, "click"); err != nil {
		return nil, err
	}
	st, err := t.Pages.EditorState(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	if (kind == "" && st.FocusKind == "") || (kind != "" && !st.Focused) {
		e := errs.New(errs.TypeNoEffect, "clicking the element gave the focus to nothing that takes text, so nothing was typed")
		e.Hint = "Target the editor itself (its editable area, or the element a click on which puts the caret in it); electron_focused_element shows what has the focus."
		return nil, e.With("surface_id", res.SurfaceID).With("editor", kind)
	}
	selectAll, end := input.EditorChords()
	move := end
	if replace {
		move = selectAll
	}
	if err := input.PressChord(ctx, res.InputRoot, move); err != nil {
		return nil, err
	}
	before, err := t.Pages.SettledEditor(ctx, f, loc)
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
		pasted, err := t.Pages.EditorPaste(ctx, f, loc, text)
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
	for settle := time.Now().Add(page.EditorSettle); ; {
		if after, err = t.Pages.SettledEditor(ctx, f, loc); err != nil {
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
	typed, observed := len([]rune(text)), errs.ClipRunes(v.Observed, maxObserved)
	out := &Inserted{Editor: editor, Path: path, Typed: &typed, Replaced: &replace,
		Text: &observed, WindowID: res.InputRootID, Mode: before.Mode}
	if kind != "" && after.Text.Readable {
		out.ReadFrom = "drawn"
		if after.Text.Model {
			out.ReadFrom = "model"
		}
	}
	switch {
	case v.Verified == "exact":
		out.Match, out.Verified = "exact", "exact"
	case v.Verified == "partial":
		out.Match, out.Verified, out.CheckedLines = "partial", "partial", v.CheckedLines
		out.Note = "the editor draws only the lines in view: the " + strconv.Itoa(v.CheckedLines) + " drawn lines that end the text equal it; the lines out of view were not read"
	case after.Text.Drawn && page.CollapseSpace(v.Observed) == page.CollapseSpace(page.ExpectedWhole(&before.Text, text, replace)):
		// An element not known as an editor, read from what it draws: its
		// spacing may be its own.
		out.Match, out.Verified = "ignoring white space", "ignoring white space"
	case text != "" && reflect.DeepEqual(before.Text, after.Text):
		e := errs.New(errs.TypeNoEffect, "the %s editor's text did not change after the %s: nothing was inserted", editor, page.InsertPathName(path))
		e.Hint = "The editor took nothing (it may be read-only, or busy). Nothing was inserted, so the same call is safe once it takes text; check electron_get_state or electron_focused_element."
		return nil, e.With("surface_id", res.SurfaceID).With("editor", editor).With("path", path).With("observed", errs.ClipRunes(v.Observed, maxObserved))
	default:
		e := errs.New(errs.TypeMismatch, "after the %s the %s editor does not hold the text as given: %s", page.InsertPathName(path), editor, v.Mismatch)
		if out.ReadFrom == "drawn" && (kind == page.EditorQuill || kind == page.EditorProseMirror || kind == page.EditorLexical) {
			// A rich-text editor read from its blocks: what it draws
			// beside the text (handles, widgets) reads as text too.
			e.Hint = "The text was read from what the editor draws (the page exposes no model of it), which may include the editor's own decorations (block handles, widgets): compare details.observed with the text before undoing anything; if only such additions differ, the text is in."
		}
		return nil, e.With("surface_id", res.SurfaceID).With("editor", editor).With("path", path).With("read_from", out.ReadFrom).With("observed", errs.ClipRunes(v.Observed, maxObserved))
	}
	return out, nil
}

// intoTerminal sends text to a terminal (xterm.js) as a paste on its
// input element: the terminal hands it to the application as one piece
// (line breaks become carriage returns, as Enter sends; bracketed when the
// application asked for it). No click (it could reach the application as
// mouse input) and no key goes out.
func (t Target) intoTerminal(ctx context.Context, loc page.Locator, text string, replace bool) (*Inserted, error) {
	res, f := t.Res, t.Frame
	if replace {
		return nil, errs.BadArg("replace", "a terminal has no text to replace: what it is sent goes to the application; send the text without replace")
	}
	if text == "" {
		return nil, errs.BadArg("text", "a terminal cannot be cleared or sent nothing; pass the text to send")
	}
	focused, err := t.Pages.EditorFocus(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	if !focused {
		e := errs.New(errs.TypeNoEffect, "the terminal's input element did not take the focus, so nothing was sent")
		e.Hint = "The terminal may be disabled or covered; check electron_focused_element."
		return nil, e.With("surface_id", res.SurfaceID).With("editor", page.EditorXterm)
	}
	before, err := t.Pages.EditorState(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	pasted, err := t.Pages.EditorPaste(ctx, f, loc, text)
	if err != nil {
		return nil, err
	}
	if !pasted.Handled {
		e := errs.New(errs.TypeNoEffect, "the terminal did not take the paste (on %s), so nothing was sent", pasted.Target)
		e.Hint = "The terminal ignored a paste event (its input may be disabled). Check electron_focused_element; nothing was sent, so sending again is safe once it takes input."
		return nil, e.With("surface_id", res.SurfaceID).With("editor", page.EditorXterm)
	}
	after, err := t.Pages.EditorState(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	echoed := before.Screen != nil && after.Screen != nil && *before.Screen != *after.Screen
	typed := len([]rune(text))
	return &Inserted{Editor: page.EditorXterm, Path: "paste", Typed: &typed,
		Verified: "delivered", Echoed: &echoed, WindowID: res.InputRootID,
		Note: "the terminal's paste handler took the text and handed it to the application (line breaks as carriage returns); what the application received is not readable from the page, and changed/echoed say whether the screen changed within two frames"}, nil
}
