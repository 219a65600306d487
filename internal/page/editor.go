package page

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Editor kinds [Store.EditorState] recognises from the DOM.
const (
	EditorMonaco      = "monaco"
	EditorCodeMirror  = "codemirror"
	EditorXterm       = "xterm"
	EditorQuill       = "quill"
	EditorProseMirror = "prosemirror"
	EditorLexical     = "lexical"
	EditorAce         = "ace"
	// EditorEditable is what Fill answers for an editing host no editor
	// kind names that did not take a scripted edit (it owns its DOM, as
	// Slate, Draft.js or an unmarked Lexical do): type there as a user.
	EditorEditable = "editable"
)

// EditorText is what an editor shows of its text.
type EditorText struct {
	// Readable: the text can be read from the DOM at all (a terminal's
	// screen is the application's output, not what it was sent).
	Readable bool `json:"readable"`
	// Whole is the full text of a plain field or editing host, or what
	// an element not known as an editor draws.
	Whole *string `json:"whole"`
	// Drawn: Whole is drawn text (innerText), not a field's value; its
	// spacing may differ from the text's.
	Drawn bool `json:"drawn"`
	// Lines are the drawn lines, in order (an editor that virtualizes
	// draws only some).
	Lines []string `json:"lines"`
	// AtStart: Lines begin with the document's first line; AtEnd: they end
	// with its last; Contiguous: no line is missing between them.
	AtStart    bool `json:"at_start"`
	AtEnd      bool `json:"at_end"`
	Contiguous bool `json:"contiguous"`
	// Model: the text was read through the editor's own model (its
	// document or state, issue 28 point 4), not from what it draws.
	Model bool `json:"model"`
	// Caret is the index in Lines of the caret's line, when the editor
	// draws its caret in the lines (Monaco); -1 or absent otherwise.
	Caret *int `json:"caret"`
}

// complete says the whole text is known.
func (t *EditorText) complete() bool {
	return t.Whole != nil || (t.Readable && t.AtStart && t.AtEnd && t.Contiguous)
}

// EditorState is the editor a locator names and what it shows.
type EditorState struct {
	// Kind is one of the Editor* constants, or "" for a plain field or
	// editing host (or an element that takes no text).
	Kind string `json:"kind"`
	// Mode is Monaco's input mode: "editcontext" or "textarea".
	Mode    string `json:"mode"`
	Focused bool   `json:"focused"`
	// FocusKind is what the focused element takes text as: "value",
	// "editable" or "".
	FocusKind string     `json:"focus_kind"`
	Text      EditorText `json:"text"`
	// Screen is a terminal's drawn rows (to see an echo).
	Screen *string `json:"screen"`
}

// EditorKind waits until the element is visible (an editor's hidden input
// counts as its visible part) and names the editor it belongs to.
func (s *Store) EditorKind(ctx context.Context, f Frame, l Locator, timeout time.Duration) (kind, mode string, err error) {
	acted, err := s.Act(ctx, f, l, Action{Checks: Checks{Visible: true}, Name: "editor"}, timeout)
	if err != nil {
		return "", "", err
	}
	var out struct{ Kind, Mode string }
	if err := decode(acted.Out, &out); err != nil {
		return "", "", errs.Wrap(errs.Internal, err, "decoding an editor kind")
	}
	return out.Kind, out.Mode, nil
}

// EditorState reads the editor a locator names, after it has drawn (two
// animation frames).
func (s *Store) EditorState(ctx context.Context, f Frame, l Locator) (*EditorState, error) {
	if err := l.Check(); err != nil {
		return nil, err
	}
	sf, args, err := s.lockLocated(f, l)
	if err != nil {
		return nil, err
	}
	defer sf.mu.Unlock()
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	r, err := s.callAwait(cctx, f, sf, "editorState", args)
	if err != nil {
		return nil, err
	}
	if r.E != nil {
		return nil, sf.toError(f, r.E)
	}
	var st EditorState
	if err := decode(r.R, &st); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding an editor state")
	}
	return &st, nil
}

// Pasted is what [Store.EditorPaste] did.
type Pasted struct {
	Kind string `json:"kind"`
	// Handled: the editor's paste handler took the event (cancelled it
	// or stopped it before it reached the window).
	Handled   bool   `json:"handled"`
	Prevented bool   `json:"prevented"`
	Target    string `json:"target"`
}

// EditorPaste dispatches a paste of text (text/plain) on the editor's
// focused element (its input element, focused first, when the focus is
// elsewhere).
func (s *Store) EditorPaste(ctx context.Context, f Frame, l Locator, text string) (*Pasted, error) {
	return readAs[Pasted](ctx, s, f, l, "editorPaste", map[string]any{"text": text})
}

// EditorFocus focuses the editor's input element without a click.
func (s *Store) EditorFocus(ctx context.Context, f Frame, l Locator) (bool, error) {
	out, err := readAs[struct {
		Focused bool `json:"focused"`
	}](ctx, s, f, l, "editorFocus", nil)
	if err != nil {
		return false, err
	}
	return out.Focused, nil
}

// Verdict is how an editor's text after an insertion compares with what
// it should hold.
type Verdict struct {
	// Verified is "exact" (the whole text was read and equals what it
	// should be), "partial" (the editor draws only part of it; the part
	// drawn equals what it should be: CheckedLines lines) or "" (a
	// mismatch, or nothing readable).
	Verified string
	// CheckedLines is how many lines were compared.
	CheckedLines int
	// Mismatch describes the first difference (empty when none).
	Mismatch string
	// Observed is the text read (the drawn lines).
	Observed string
}

func splitLines(s string) []string { return strings.Split(s, "\n") }

// normalizeText makes line breaks \n.
func normalizeText(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// VerifyInsertion compares an editor's text after text was inserted —
// replacing everything (replace) or at the end of the document — with
// before and after as read. A whole-text read must equal exactly; a
// window of drawn lines must match the lines it shows of the expected
// document, aligned at the document's end (or at the caret, which ends the
// insertion, where the editor draws it).
func VerifyInsertion(before, after *EditorText, text string, replace bool) Verdict {
	text = normalizeText(text)
	// The expected document: whole (full) or only its last lines.
	var want []string
	full := false
	switch {
	case replace:
		want, full = splitLines(text), true
	case before.Whole != nil:
		want, full = splitLines(normalizeText(*before.Whole)+text), true
	case before.complete():
		want, full = splitLines(strings.Join(before.Lines, "\n")+text), true
	default:
		bl := upToCaret(before)
		if before.Readable && endKnown(before) && before.Contiguous && len(bl) > 0 {
			want = splitLines(strings.Join(bl, "\n") + text)
		} else {
			// Only the text's lines after its first are known to end the
			// document.
			want = splitLines(text)[1:]
		}
	}
	if after.Whole != nil {
		got := normalizeText(*after.Whole)
		v := Verdict{Observed: got, CheckedLines: len(splitLines(got))}
		if full {
			if got == strings.Join(want, "\n") {
				v.Verified = "exact"
			} else {
				v.Mismatch = firstDifference(splitLines(got), want, 0)
			}
			return v
		}
		return compareTail(splitLines(got), want, true)
	}
	if !after.Readable {
		return Verdict{Mismatch: "the editor's text cannot be read"}
	}
	lines := upToCaret(after)
	extra := len(after.Lines) - len(lines) // drawn lines after the caret
	if extra > 0 {
		return Verdict{Observed: strings.Join(after.Lines, "\n"), CheckedLines: len(after.Lines),
			Mismatch: strconv.Itoa(extra) + " line(s) follow the end of the inserted text: " + strconv.Quote(clipText(after.Lines[len(lines)], 80))}
	}
	if !endKnown(after) || !after.Contiguous {
		return Verdict{Observed: strings.Join(after.Lines, "\n"), Mismatch: "the editor does not show the end of its text, where the insertion ended"}
	}
	if full && after.AtStart {
		v := Verdict{Observed: strings.Join(lines, "\n"), CheckedLines: len(lines)}
		if v.Mismatch = firstDifference(lines, want, 0); v.Mismatch == "" {
			v.Verified = "exact"
		}
		return v
	}
	return compareTail(lines, want, full)
}

// endKnown says the read lines end where the document ends, or where the
// caret is (which ends an insertion).
func endKnown(t *EditorText) bool {
	return t.AtEnd || (t.Caret != nil && *t.Caret >= 0)
}

// upToCaret are the drawn lines up to the caret's line (all when the
// editor does not draw its caret among them).
func upToCaret(t *EditorText) []string {
	if t.Caret != nil && *t.Caret >= 0 && *t.Caret < len(t.Lines) {
		return t.Lines[:*t.Caret+1]
	}
	return t.Lines
}

// compareTail compares the last lines of got (the document's last lines)
// with want's last lines; full says want is the whole document, so got
// having more lines than want is a difference.
func compareTail(got, want []string, full bool) Verdict {
	v := Verdict{Observed: strings.Join(got, "\n")}
	n := min(len(got), len(want))
	for i := 1; i <= n; i++ {
		if !sameLine(got[len(got)-i], want[len(want)-i]) {
			v.CheckedLines = i
			v.Mismatch = "line " + strconv.Itoa(i) + " from the end reads " + strconv.Quote(clipText(got[len(got)-i], 80)) + ", want " + strconv.Quote(clipText(want[len(want)-i], 80))
			return v
		}
	}
	v.CheckedLines = n
	if full && len(got) > len(want) {
		v.Mismatch = "the editor holds more lines than it should (" + strconv.Itoa(len(got)) + " drawn, want " + strconv.Itoa(len(want)) + ")"
		return v
	}
	if n == 0 {
		v.Mismatch = "no line of the inserted text could be read"
		return v
	}
	v.Verified = "partial"
	return v
}

// sameLine compares a drawn line with the line it should be: equal, or
// equal with the line's tabs drawn as spaces to the next tab stop (of 2, 4
// or 8 columns), as code editors draw them.
func sameLine(got, want string) bool {
	if got == want {
		return true
	}
	if !strings.Contains(want, "\t") {
		return false
	}
	for _, n := range []int{4, 2, 8} {
		if expandTabs(want, n) == got {
			return true
		}
	}
	return false
}

func expandTabs(s string, n int) string {
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			w := n - col%n
			b.WriteString(strings.Repeat(" ", w))
			col += w
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// firstDifference describes where got and want first differ; offset is
// the line number of got[0] minus one.
func firstDifference(got, want []string, offset int) string {
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			return "line " + strconv.Itoa(offset+i+1) + " is missing; want " + strconv.Quote(clipText(want[i], 80))
		case i >= len(want):
			return "line " + strconv.Itoa(offset+i+1) + " should not be there: " + strconv.Quote(clipText(got[i], 80))
		case !sameLine(got[i], want[i]):
			return "line " + strconv.Itoa(offset+i+1) + " reads " + strconv.Quote(clipText(got[i], 80)) + ", want " + strconv.Quote(clipText(want[i], 80))
		}
	}
	return ""
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
