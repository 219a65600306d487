package tool

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The input tests of issue 28 (points 6 and 8) on real libraries: the
// effect is read through the library's own API.

// TestKeyboardTypeChoosesInCombobox: react-select clears its input when
// Enter chooses an option. Typing "gra\n" chose "grape": the field is
// empty again, yet the keys had their effect, which the answer must
// accept (never TYPE_NO_EFFECT) and describe.
func TestKeyboardTypeChoosesInCombobox(t *testing.T) {
	e := componentsEnv(t, "select.html")
	r := e.ok("electron_keyboard_type", map[string]any{"selector": "#fruit-input", "text": "gra\n"})
	if got := e.eval("window.chosen()"); got != "grape" {
		t.Fatalf("the app chose %v (answer %v)", got, r)
	}
	if eff, _ := r["effect"].(string); !strings.Contains(eff, "Grape") {
		t.Fatalf("the answer does not say what the keys did: %v", r)
	}
}

// TestKeyboardTypeChoosesInTagInput (point 6, a second library of the
// kind): downshift's useCombobox with useMultipleSelection clears its input
// as Enter chooses a fruit and shows the fruit as a tag. Each choice is
// the keys' effect (never TYPE_NO_EFFECT), named in the answer; the app's
// own list says what was chosen.
func TestKeyboardTypeChoosesInTagInput(t *testing.T) {
	e := componentsEnv(t, "downshift.html")
	for i, c := range []struct{ keys, want, shown string }{
		{"gra\n", "Grape", "Grape"},
		{"ban\n", "Grape,Banana", "Banana"},
	} {
		r := e.ok("electron_keyboard_type", map[string]any{"selector": "#tags-input", "text": c.keys})
		if got := strings.Join(strs(e.eval("window.chosen()")), ","); got != c.want {
			t.Fatalf("round %d: the app chose %s (answer %v)", i, got, r)
		}
		if got := e.evalString("document.getElementById('tags-input').value"); got != "" {
			t.Fatalf("round %d: the input holds %q; the page should have cleared it", i, got)
		}
		if eff, _ := r["effect"].(string); !strings.Contains(eff, c.shown) {
			t.Fatalf("round %d: the answer does not say what the keys did: %v", i, r)
		}
	}
}

// TestTypeIntoLexical: electron_type and electron_clear_input on a Lexical
// editor (a contenteditable whose text only Lexical may change) go the
// editor's way, and Lexical's own state says what it holds.
func TestTypeIntoLexical(t *testing.T) {
	e := componentsEnv(t, "lexical.html")
	for _, page := range []string{"lexical.html", "lexical.html?unmarked=1"} {
		t.Run(page, func(t *testing.T) {
			e := e.on(t)
			e.openComponent(page)
			typeClearLexical(t, e)
		})
	}
}

// typeClearLexical types twice and clears, checking Lexical's own text.
func typeClearLexical(t *testing.T, e *env) {
	r := e.ok("electron_type", map[string]any{"selector": "#editor", "text": "Hello Lexical"})
	if got := e.eval("window.editorText()"); got != "Hello Lexical" {
		t.Fatalf("Lexical holds %q (answer %v)", got, r)
	}
	r = e.ok("electron_type", map[string]any{"selector": "#editor", "text": "Second text"})
	if got := e.eval("window.editorText()"); got != "Second text" {
		t.Fatalf("Lexical holds %q after a second type (answer %v)", got, r)
	}
	r = e.ok("electron_clear_input", map[string]any{"selector": "#editor"})
	if got := e.eval("window.editorText()"); got != "" {
		t.Fatalf("Lexical holds %q after clear (answer %v)", got, r)
	}
	// Several lines: Lexical holds them as typed (paragraphs, which its
	// text joins with a blank line, or line breaks), and the answer says so.
	r = e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": "one\ntwo\nthree", "replace": true})
	if got := strings.ReplaceAll(e.evalString("window.editorText()"), "\n\n", "\n"); got != "one\ntwo\nthree" || r["match"] != "exact" {
		t.Fatalf("three lines: Lexical holds %q (answer %v)", got, r)
	}
}

// TestTypeIntoAce: Ace draws line numbers in a gutter beside the text. The
// text must be read back through the editor (never the gutter's numbers),
// and it must hold exactly what was typed.
func TestTypeIntoAce(t *testing.T) {
	e := componentsEnv(t, "ace.html")
	for _, text := range []string{editorCode, longCode()} {
		r := e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": text, "replace": true})
		if got := e.evalString("window.aceEditor.getValue()"); got != text {
			t.Fatalf("Ace holds\n%q\nwant\n%q\n(answer %v)", got, text, r)
		}
		if r["verified"] != "exact" || r["editor"] != "ace" || r["read_from"] != "model" {
			t.Fatalf("answer: %v", r)
		}
	}
	r := e.ok("electron_type", map[string]any{"selector": "#editor", "text": "x = 1"})
	if got := e.evalString("window.aceEditor.getValue()"); got != "x = 1" || r["verified"] != "exact" {
		t.Fatalf("electron_type: Ace holds %q (answer %v)", got, r)
	}
	e.ok("electron_clear_input", map[string]any{"selector": "#editor"})
	if got := e.evalString("window.aceEditor.getValue()"); got != "" {
		t.Fatalf("electron_clear_input: Ace holds %q", got)
	}
}

// TestSetValue (issue 28, point 7): range, date, time and color inputs
// get their value whole, read back from the input and seen by the page's
// own input and change listeners; rc-slider's ARIA slider is moved with
// its keys until the app's own value is the one asked for.
func TestSetValue(t *testing.T) {
	e := componentsEnv(t, "slider.html")
	for _, c := range []struct{ sel, value, want string }{
		{"#level", "75", "75"},
		{"#day", "2026-12-07", "2026-12-07"},
		{"#alarm", "07:30", "07:30"},
		{"#tint", "#33AA99", "#33aa99"},
	} {
		r := e.ok("electron_set_value", map[string]any{"selector": c.sel, "value": c.value})
		if r["value"] != c.want || r["altered"] != nil {
			t.Fatalf("%s: answer %v", c.sel, r)
		}
		id := c.sel[1:]
		if got := e.evalString("window.__seen['" + id + ":input'] + '|' + window.__seen['" + id + ":change']"); got != c.want+"|"+c.want {
			t.Fatalf("%s: the page saw %s", c.sel, got)
		}
	}
	// A range snaps to its step: said, not hidden.
	r := e.ok("electron_set_value", map[string]any{"selector": "#coarse", "value": "37"})
	if r["value"] != "40" || r["altered"] != true {
		t.Fatalf("stepped range: %v", r)
	}
	e.fails("electron_set_value", map[string]any{"selector": "#day", "value": "7 Dec"}, "BAD_ARGUMENT")
	e.fails("electron_set_value", map[string]any{"selector": "#name", "value": "x"}, "BAD_ARGUMENT")

	// The ARIA slider: by keys, both ways and to its ends.
	for _, want := range []int{75, 60, 100, 0, 42} {
		r := e.ok("electron_set_value", map[string]any{"selector": "#volume [role=slider]", "value": strconv.Itoa(want)})
		if got := num(e.eval("window.volume()")); got != want || r["value"] != strconv.Itoa(want) {
			t.Fatalf("slider to %d: the app holds %d (answer %v)", want, got, r)
		}
	}
	// A value between the steps of a slider: the message names the nearest.
	x := e.fails("electron_set_value", map[string]any{"selector": "#stepped [role=slider]", "value": "33"}, "TYPE_MISMATCH")
	if msg, _ := x["error"].(string); !strings.Contains(msg, "30") || !strings.Contains(msg, "35") {
		t.Fatalf("stepped slider: %v", x)
	}
	e.ok("electron_set_value", map[string]any{"selector": "#stepped [role=slider]", "value": "55"})
	if got := num(e.eval("window.steps()")); got != 55 {
		t.Fatalf("stepped slider: the app holds %d", got)
	}
}

// TestTypeOnValueControlNamesSetValue: electron_type on a range input or
// an ARIA slider is BAD_ARGUMENT that says what the element is and names
// the tool that sets it.
func TestTypeOnValueControlNamesSetValue(t *testing.T) {
	e := componentsEnv(t, "slider.html")
	for _, sel := range []string{"#level", "#volume [role=slider]"} {
		x := e.fails("electron_type", map[string]any{"selector": sel, "text": "75"}, "BAD_ARGUMENT")
		if msg, _ := x["error"].(string); !strings.Contains(msg, "electron_set_value") || strings.Contains(msg, "target an input") {
			t.Fatalf("%s: %v", sel, x)
		}
	}
}

// TestWebComponentFields (issue 28, point 5): @vscode-elements/elements
// set roles, names and values through their hosts, shadow trees and
// slots. The snapshot shows what Chromium's accessibility tree shows (the
// select's chosen text as the combobox's value, the tab panel's body) and
// names a field by its host's aria-label, which Chromium puts on the host
// instead.
func TestWebComponentFields(t *testing.T) {
	e := componentsEnv(t, "vscode.html")
	text := e.ok("electron_snapshot", map[string]any{"format": "text"})["snapshot_text"].(string)
	for _, want := range []string{
		`combobox "Color theme" value="High contrast"`,
		`tabpanel "Second"`,
		`Body of the second tab`,
		`textbox "Release notes" value="Fixed the build"`,
		`textbox "Owner" value="Ada"`,
		`checkbox "Word wrap" checked`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the snapshot lacks %s:\n%s", want, text)
		}
	}
	// The names act: a ref found by the host's label types into the field.
	f := e.ok("electron_find", map[string]any{"role": "textbox", "name_exact": "Release notes"})
	e.ok("electron_type", map[string]any{"ref": firstRef(t, f), "text": "Shipped"})
	if got := e.evalString("document.getElementById('notes').value"); got != "Shipped" {
		t.Fatalf("vscode-textarea holds %q", got)
	}
}

// TestVirtualListExtents (issue 28, point 9 and the count of point 1): a
// TanStack Virtual list has no ARIA counts at all; the snapshot still says
// what is known (how many rows it renders, about how many its scroll
// height holds). AG Grid's grid counts each drawn row once, although it
// draws one per column section.
func TestVirtualListExtents(t *testing.T) {
	e := componentsEnv(t, "tanstack.html")
	text := e.ok("electron_snapshot", map[string]any{"format": "text"})["snapshot_text"].(string)
	m := regexp.MustCompile(`generic rows≈(\d+) rendered=(\d+)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no extent in the snapshot:\n%s", text)
	}
	drawn := num(e.eval("document.querySelectorAll('#inner .row').length"))
	if m[1] != "10000" || m[2] != strconv.Itoa(drawn) {
		t.Fatalf("extent %s rows, %s rendered; the list holds 10000 and draws %d", m[1], m[2], drawn)
	}
	e.openComponent("aggrid.html")
	text = e.ok("electron_snapshot", map[string]any{"format": "text"})["snapshot_text"].(string)
	m = regexp.MustCompile(`grid rows=(\d+) rendered=(\d+)`).FindStringSubmatch(text)
	drawn = num(e.eval("new Set([...document.querySelectorAll('[role=row][aria-rowindex]')].filter(r => r.getClientRects().length).map(r => r.getAttribute('aria-rowindex'))).size"))
	if m == nil || m[1] != "2001" || m[2] != strconv.Itoa(drawn) || drawn < 10 {
		t.Fatalf("grid extent %v; the grid draws %d rows (header included)", m, drawn)
	}
}

// TestRichTextThroughTheModel (issue 28, point 4): ProseMirror and Lexical
// are read back through their own model (ProseMirror's document, found
// from its editable element; Lexical's state, from its root element), one
// line a block, as the text was typed. With ?chrome=1 each paragraph is
// drawn with a handle ("¶ ") that is in the DOM but not in the model: read
// from the DOM the text would differ; read from the model it is exact.
// With the model hidden, the answer falls back to the drawn blocks and
// says so.
func TestRichTextThroughTheModel(t *testing.T) {
	e := componentsEnv(t, "prosemirror.html")
	for _, c := range []struct {
		page, editor, sel, hide, show string
	}{
		{"prosemirror.html", "prosemirror", ".ProseMirror",
			"window.__desc = view.dom.pmViewDesc; delete view.dom.pmViewDesc; true",
			"view.dom.pmViewDesc = window.__desc; true"},
		{"lexical.html", "lexical", "#editor",
			// Lexical needs the editor on its root element itself (its
			// events find it there): hidden from the reader only, found
			// by its name on the stack.
			"window.__own = editor.getEditorState; editor.getEditorState = function () { return /lexicalText/.test(new Error().stack) ? null : window.__own.call(editor); }; true",
			"editor.getEditorState = window.__own; true"},
	} {
		for _, chrome := range []bool{false, true} {
			page := c.page
			if chrome {
				page += "?chrome=1"
			}
			t.Run(page, func(t *testing.T) {
				e := e.on(t)
				e.openComponent(page)
				// The library's own text, one line a block (Lexical's root
				// text joins blocks with a blank line).
				own := func() string {
					return strings.ReplaceAll(e.evalString("window.editorText()"), "\n\n", "\n")
				}
				text := "one\ntwo\nthree"
				r := e.ok("electron_type_into_editor", map[string]any{"selector": c.sel, "text": text, "replace": true})
				wantEditor(t, r, c.editor, "paste", own(), text)
				if r["verified"] != "exact" || r["read_from"] != "model" {
					t.Fatalf("three lines: %v", r)
				}
				drawn := e.evalString("document.querySelector('" + c.sel + "').textContent")
				if chrome != strings.Contains(drawn, "\u00b6 one") {
					t.Fatalf("the page draws %q", drawn)
				}
				r = e.ok("electron_type_into_editor", map[string]any{"selector": c.sel, "text": "\nfour"})
				wantEditor(t, r, c.editor, "paste", own(), text+"\nfour")
				if r["verified"] != "exact" || r["read_from"] != "model" {
					t.Fatalf("appended: %v", r)
				}
				r = e.ok("electron_type", map[string]any{"selector": c.sel, "text": "Hello " + c.editor})
				if got := own(); got != "Hello "+c.editor || r["read_from"] != "model" {
					t.Fatalf("electron_type: the editor holds %q (answer %v)", got, r)
				}
				e.ok("electron_clear_input", map[string]any{"selector": c.sel})
				if got := own(); got != "" {
					t.Fatalf("electron_clear_input: the editor holds %q", got)
				}

				// The model hidden: the drawn blocks are read, and the
				// answer says so. Where the page draws chrome in its
				// blocks, they differ from the text, and the answer says
				// that too (a mismatch with what was read) instead of ok.
				e.eval(c.hide)
				var m map[string]any
				if chrome {
					m = e.fails("electron_type_into_editor", map[string]any{"selector": c.sel, "text": "five\nsix", "replace": true}, "TYPE_MISMATCH")
				} else {
					m = e.ok("electron_type_into_editor", map[string]any{"selector": c.sel, "text": "five\nsix", "replace": true})
				}
				e.eval(c.show)
				if got := own(); got != "five\nsix" {
					t.Fatalf("model hidden: the editor holds %q (answer %v)", got, m)
				}
				if !chrome && (m["read_from"] != "drawn" || m["verified"] != "exact") {
					t.Fatalf("model hidden: %v", m)
				}
				if chrome {
					if obs, _ := details(m)["observed"].(string); !strings.Contains(obs, "\u00b6") || details(m)["read_from"] != "drawn" || strings.Contains(m["hint"].(string), "Control/Meta+Z") {
						t.Fatalf("model hidden, chrome drawn: %v", m)
					}
				}
			})
		}
	}
}

// TestFluentControlsByInternals (points 5 and 7, a second library of each
// kind): Fluent UI web components 3 set role and state only through
// ElementInternals. The slider is found by role and name, moved with its
// keys to a value (its own value property says so, and the app saw a
// change), the checkbox and the switch are checked: each read back
// through the element's own properties.
func TestFluentControlsByInternals(t *testing.T) {
	e := componentsEnv(t, "fluent.html")
	f := e.ok("electron_find", map[string]any{"role": "slider", "name_exact": "Volume"})
	for _, want := range []int{75, 60, 100, 0, 42} {
		r := e.ok("electron_set_value", map[string]any{"ref": firstRef(t, f), "value": strconv.Itoa(want)})
		if got := e.evalString("document.getElementById('volume').value"); got != strconv.Itoa(want) || r["value"] != strconv.Itoa(want) {
			t.Fatalf("slider to %d: the element holds %s (answer %v)", want, got, r)
		}
	}
	if got := e.evalString("window.__changes.filter(c => c.startsWith('volume:')).pop()"); got != "volume:42:" {
		t.Fatalf("the app saw %q last", got)
	}
	e.ok("electron_set_value", map[string]any{"selector": "#stepped", "value": "55"})
	if got := e.evalString("document.getElementById('stepped').value"); got != "55" {
		t.Fatalf("stepped slider holds %s", got)
	}
	x := e.fails("electron_set_value", map[string]any{"selector": "#stepped", "value": "33"}, "TYPE_MISMATCH")
	if msg, _ := x["error"].(string); !strings.Contains(msg, "30") || !strings.Contains(msg, "35") {
		t.Fatalf("stepped slider between steps: %v", x)
	}
	for _, c := range []struct{ find map[string]any }{
		{map[string]any{"role": "checkbox", "name_exact": "I agree"}},
		{map[string]any{"role": "switch", "name_exact": "Dark mode"}},
	} {
		ref := firstRef(t, e.ok("electron_find", c.find))
		r := e.ok("electron_check", map[string]any{"ref": ref})
		id := map[string]string{"checkbox": "agree", "switch": "dark"}[c.find["role"].(string)]
		if e.eval("document.getElementById('"+id+"').checked") != true {
			t.Fatalf("%s: not checked (answer %v)", id, r)
		}
	}
}

// TestKeyboardTypeOpensADialog: with each stroke waiting for a page turn
// (ADR-042), a key whose handler opens an alert still answers at once,
// naming the dialog; the keys after it are not typed into a page that
// waits for an answer.
func TestKeyboardTypeOpensADialog(t *testing.T) {
	e := componentsEnv(t, "downshift.html")
	e.eval("document.getElementById('tags-input').addEventListener('keydown', (ev) => { if (ev.key === 'b') alert('b pressed'); }); true")
	t0 := time.Now()
	r := e.ok("electron_keyboard_type", map[string]any{"selector": "#tags-input", "text": "abcdef"})
	if d, _ := r["dialog_opened"].(map[string]any); d["type"] != "alert" || d["message"] != "b pressed" || time.Since(t0) > 3*time.Second {
		t.Fatalf("answer after %v: %v", time.Since(t0), r)
	}
	e.ok("electron_dialog_handler", map[string]any{"action": "accept", "oneShot": true})
	if got := e.evalString("document.getElementById('tags-input').value"); !strings.HasPrefix(got, "ab") || strings.Contains(got, "f") {
		t.Fatalf("the input holds %q", got)
	}
}
