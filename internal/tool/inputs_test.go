package tool

import (
	"strings"
	"testing"
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
		if r["verified"] != "exact" || r["editor"] != "ace" {
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
