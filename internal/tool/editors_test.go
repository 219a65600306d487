package tool

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture/components"
)

// The editor tests put text into real editors (monaco-editor, CodeMirror 6,
// xterm.js, Quill; see internal/fixture/components) and check what the
// editor holds through its own API, never through the tool's answer.

// editorCode has braces, brackets, quotes and indentation: typed key by
// key, an editor's typing rules would re-indent it and close brackets.
const editorCode = "function f(a) {\n    if (a) {\n        return [a, \"x\", {k: '}'}];\n    }\n}"

// longCode is 60 lines, more than an editor of the fixture shows at once.
func longCode() string {
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		if i > 1 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "    line(%d, {x: [%d]});", i, i*i)
	}
	return b.String()
}

// componentsEnv is an env whose fixture also serves the real components,
// on the given page, once its library is up.
func componentsEnv(t *testing.T, page string) *env {
	t.Helper()
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.app.Mount(components.Prefix, components.Handler(components.Require(t)))
	e.launch(components.Prefix + "pages/" + page)
	e.readyPage()
	return e
}

// readyPage waits (60 s at most) until the page's library is up.
func (e *env) readyPage() {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for e.eval("window.__ready === true") != true {
		if time.Now().After(deadline) {
			e.t.Fatal("the component page did not get ready")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (e *env) openComponent(page string) {
	e.t.Helper()
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", components.Prefix+"pages/"+page)})
	e.readyPage()
}

// wantEditor checks the tool's answer names the editor and the path, and
// the editor's own value.
func wantEditor(t *testing.T, r map[string]any, editor, path, got, want string) {
	t.Helper()
	if got != want {
		t.Fatalf("the editor holds\n%q\nwant\n%q\n(answer %v)", got, want, r)
	}
	if r["editor"] != editor || r["path"] != path {
		t.Fatalf("answer names editor %v path %v, want %s %s: %v", r["editor"], r["path"], editor, path, r)
	}
	meta, _ := r["_meta"].(map[string]any)
	t.Logf("%s: %d chars, verified %v, checked_lines %v, %v ms", editor, len(want), r["verified"], r["checked_lines"], meta["elapsed_ms"])
}

func TestTypeIntoMonaco(t *testing.T) {
	e := componentsEnv(t, "monaco.html")
	for _, mode := range []string{"editcontext", "textarea"} {
		t.Run(mode, func(t *testing.T) {
			e := e.on(t)
			if mode == "textarea" {
				e.openComponent("monaco.html?editContext=false")
			}
			value := func() string { return e.evalString("editor.getValue()") }
			if mode == "editcontext" && e.eval("!!document.querySelector('.monaco-editor .native-edit-context')") != true {
				t.Fatal("the page does not run Monaco in EditContext mode")
			}
			// Appended to the initial value, as a paste: no re-indenting,
			// no closing bracket added.
			initial := value()
			r := e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": editorCode})
			wantEditor(t, r, "monaco", "paste", value(), initial+editorCode)
			if r["match"] != "exact" || r["verified"] != "exact" {
				t.Fatalf("a short text drawn whole: %v", r)
			}
			r = e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": editorCode, "replace": true})
			wantEditor(t, r, "monaco", "paste", value(), editorCode)

			// 60 lines: Monaco draws only those in view, but its model (the
			// page's monaco.editor) holds them all: read there, exact.
			long := longCode()
			r = e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": long, "replace": true})
			wantEditor(t, r, "monaco", "paste", value(), long)
			if r["verified"] != "exact" || r["read_from"] != "model" {
				t.Fatalf("60 lines through the model: %v", r)
			}
			// Without a model the page exposes, the drawn lines are read: the
			// answer says how much it checked, and never denies text that
			// landed.
			e.eval("window.__monaco = window.monaco; window.monaco = undefined; true")
			r = e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": long, "replace": true})
			e.eval("window.monaco = window.__monaco; true")
			wantEditor(t, r, "monaco", "paste", value(), long)
			if r["verified"] != "partial" || num(r["checked_lines"]) < 10 || r["read_from"] != "drawn" {
				t.Fatalf("60 lines, drawn lines only: %v", r)
			}
			r = e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": "\nend();"})
			wantEditor(t, r, "monaco", "paste", value(), long+"\nend();")

			// Tabs (drawn as spaces, or as marks with renderWhitespace) and
			// wrapped lines are read back as the text they draw.
			tabs := "\tif (x) {\n\t\ty( 1,  2);\n\t}"
			r = e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": tabs, "replace": true})
			wantEditor(t, r, "monaco", "paste", value(), tabs)
			if r["verified"] != "exact" {
				t.Fatalf("tabs: %v", r)
			}
			e.eval("editor.updateOptions({renderWhitespace: 'all', wordWrap: 'on'}); true")
			wrapped := "const s = '" + strings.Repeat("abcde fghij", 25) + "';\n\tz( 1 );"
			r = e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": wrapped, "replace": true})
			e.eval("editor.updateOptions({renderWhitespace: 'selection', wordWrap: 'off'}); true")
			wantEditor(t, r, "monaco", "paste", value(), wrapped)
			if r["verified"] != "exact" {
				t.Fatalf("wrapped, white space drawn: %v", r)
			}

			// A read-only editor takes nothing: no effect, not a mismatch.
			e.eval("editor.updateOptions({readOnly: true}); true")
			e.fails("electron_type_into_editor", map[string]any{"selector": "#editor", "text": "nope"}, "TYPE_NO_EFFECT")
			e.eval("editor.updateOptions({readOnly: false}); true")
			if v := value(); v != wrapped {
				t.Fatalf("read-only editor changed: %q", v)
			}

			// electron_type replaces, through the same paste, on the
			// editor's own input element (0 px wide in EditContext mode).
			input := ".monaco-editor textarea.inputarea"
			if mode == "editcontext" {
				input = ".monaco-editor .native-edit-context"
			}
			r = e.ok("electron_type", map[string]any{"selector": input, "text": editorCode})
			wantEditor(t, r, "monaco", "paste", value(), editorCode)
			e.ok("electron_clear_input", map[string]any{"selector": "#editor"})
			if v := value(); v != "" {
				t.Fatalf("cleared: %q", v)
			}

			// The ref find hands out for the editor's text box acts on the
			// editor, though its input element is 0 px wide.
			f := e.ok("electron_find", map[string]any{"role": "textbox", "limit": 1})
			matches, _ := f["matches"].([]any)
			if len(matches) != 1 {
				t.Fatalf("no text box found: %v", f)
			}
			ref := num(matches[0].(map[string]any)["ref"])
			r = e.ok("electron_type_into_editor", map[string]any{"ref": ref, "text": editorCode, "timeoutMs": 2000})
			wantEditor(t, r, "monaco", "paste", value(), editorCode)

			// An editor that changes the text after the paste: the answer
			// is a mismatch carrying what the editor holds, and its hint
			// does not send the agent to type it again.
			e.eval("window.__tamper = editor.onDidPaste(() => editor.trigger('test', 'type', {text: '!'})); true")
			m := e.fails("electron_type_into_editor", map[string]any{"selector": "#editor", "text": "abc", "replace": true}, "TYPE_MISMATCH")
			e.eval("window.__tamper.dispose(); true")
			if v := value(); v != "abc!" {
				t.Fatalf("the tampering editor holds %q", v)
			}
			if obs, _ := details(m)["observed"].(string); !strings.Contains(obs, "abc!") || strings.Contains(m["hint"].(string), "keyboard_type") {
				t.Fatalf("mismatch answer: %v", m)
			}
		})
	}
}

func TestTypeIntoCodeMirror(t *testing.T) {
	e := componentsEnv(t, "codemirror.html")
	value := func() string { return e.evalString("cm.state.doc.toString()") }
	initial := value()
	r := e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": editorCode})
	wantEditor(t, r, "codemirror", "paste", value(), initial+editorCode)
	if r["match"] != "exact" {
		t.Fatalf("match %v", r)
	}
	r = e.ok("electron_type_into_editor", map[string]any{"selector": ".cm-content", "text": editorCode, "replace": true})
	wantEditor(t, r, "codemirror", "paste", value(), editorCode)
	long := longCode()
	r = e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": long, "replace": true})
	wantEditor(t, r, "codemirror", "paste", value(), long)
	if r["verified"] != "exact" && r["verified"] != "partial" {
		t.Fatalf("60 lines: %v", r)
	}
	// 2,000 lines: CodeMirror draws a window of them with gaps; its view's
	// state (the content element's cmView) holds all, read exactly.
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "row %d;\n", i)
	}
	huge := b.String() + "done();"
	r = e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": huge, "replace": true})
	wantEditor(t, r, "codemirror", "paste", value(), huge)
	if r["verified"] != "exact" || r["read_from"] != "model" {
		t.Fatalf("2,000 lines through the model: %v %v", r["verified"], r["read_from"])
	}
	r = e.ok("electron_type", map[string]any{"selector": ".cm-content", "text": editorCode})
	wantEditor(t, r, "codemirror", "paste", value(), editorCode)
	e.ok("electron_clear_input", map[string]any{"selector": "#editor"})
	if v := value(); v != "" {
		t.Fatalf("cleared: %q", v)
	}
}

func TestTypeIntoTerminal(t *testing.T) {
	e := componentsEnv(t, "xterm.html")
	received := func() string { return e.evalString("window.__received") }
	r := e.ok("electron_type_into_editor", map[string]any{"selector": "#terminal", "text": "echo 'hi {there}'"})
	wantEditor(t, r, "xterm", "paste", received(), "echo 'hi {there}'")
	if r["verified"] != "delivered" || r["echoed"] != true {
		t.Fatalf("answer %v", r)
	}
	// Line breaks go as Enter sends them (carriage returns); nothing else.
	e.eval("window.__received = ''")
	r = e.ok("electron_type_into_editor", map[string]any{"selector": "#terminal", "text": "ls\npwd\n"})
	wantEditor(t, r, "xterm", "paste", received(), "ls\rpwd\r")
	// electron_type on the terminal's own (hidden) input element.
	e.eval("window.__received = ''")
	r = e.ok("electron_type", map[string]any{"selector": ".xterm-helper-textarea", "text": "whoami"})
	wantEditor(t, r, "xterm", "paste", received(), "whoami")
	if r["changed"] != true {
		t.Fatalf("the terminal echoed, so changed: %v", r)
	}
	// A terminal has nothing to replace: refused, and nothing is sent.
	e.eval("window.__received = ''")
	e.fails("electron_type_into_editor", map[string]any{"selector": "#terminal", "text": "x", "replace": true}, "BAD_ARGUMENT")
	if got := received(); got != "" {
		t.Fatalf("a refused call sent %q", got)
	}
}

func TestTypeIntoQuill(t *testing.T) {
	e := componentsEnv(t, "quill.html")
	value := func() string { return e.evalString("quill.getText()") }
	r := e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": editorCode})
	wantEditor(t, r, "quill", "paste", value(), editorCode+"\n")
	if r["match"] != "exact" {
		t.Fatalf("match %v", r)
	}
	r = e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": "\nmore"})
	wantEditor(t, r, "quill", "paste", value(), editorCode+"\nmore\n")
	r = e.ok("electron_type", map[string]any{"selector": ".ql-editor", "text": "one\n\ntwo"})
	wantEditor(t, r, "quill", "paste", value(), "one\n\ntwo\n")
	e.ok("electron_clear_input", map[string]any{"selector": ".ql-editor"})
	if v := value(); v != "\n" {
		t.Fatalf("cleared: %q", v)
	}
}
