package input

import (
	"context"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestParseChord(t *testing.T) {
	cases := []struct {
		in   string
		goos string // "" = linux
		want Chord
		str  string // String() of the result; "" = skip
		err  string // substring of the error; "" = no error
	}{
		{in: "Control+Shift+P", want: Chord{ModCtrl | ModShift, "p"}, str: "Control+Shift+P"},
		{in: "Control+Shift+p", want: Chord{ModCtrl | ModShift, "p"}, str: "Control+Shift+P"},
		{in: "Meta+K", want: Chord{ModMeta, "k"}, str: "Meta+K"},
		{in: "Meta+k", want: Chord{ModMeta, "k"}},
		{in: "Alt+ArrowLeft", want: Chord{ModAlt, "ArrowLeft"}, str: "Alt+ArrowLeft"},
		{in: "Enter", want: Chord{0, "Enter"}, str: "Enter"},
		{in: "a", want: Chord{0, "a"}, str: "a"},
		{in: "A", want: Chord{0, "A"}, str: "A"},
		{in: "Shift+Tab", want: Chord{ModShift, "Tab"}, str: "Shift+Tab"},
		{in: "Control++", want: Chord{ModCtrl, "+"}, str: "Control++"},
		{in: "+", want: Chord{0, "+"}, str: "+"},
		{in: "Shift++", want: Chord{ModShift, "+"}},
		{in: "ControlOrMeta+S", goos: "darwin", want: Chord{ModMeta, "s"}, str: "Meta+S"},
		{in: "ControlOrMeta+s", goos: "linux", want: Chord{ModCtrl, "s"}, str: "Control+S"},
		{in: "ControlOrMeta+s", goos: "windows", want: Chord{ModCtrl, "s"}},
		{in: "CmdOrCtrl+Z", goos: "darwin", want: Chord{ModMeta, "z"}},
		{in: "CommandOrControl+Z", want: Chord{ModCtrl, "z"}},
		{in: "ctrl+c", want: Chord{ModCtrl, "c"}, str: "Control+C"},
		{in: "Shift+A", want: Chord{ModShift, "a"}, str: "Shift+A"},
		{in: "Control+!", want: Chord{ModCtrl, "!"}, str: "Control+!"},
		{in: "CTRL+ALT+DELETE", want: Chord{ModCtrl | ModAlt, "Delete"}, str: "Control+Alt+Delete"},
		{in: "Cmd+Shift+4", want: Chord{ModMeta | ModShift, "4"}, str: "Shift+Meta+4"},
		{in: "Command+Q", want: Chord{ModMeta, "q"}},
		{in: "Option+F", want: Chord{ModAlt, "f"}},
		{in: "Esc", want: Chord{0, "Escape"}, str: "Escape"},
		{in: "escape", want: Chord{0, "Escape"}},
		{in: "Return", want: Chord{0, "Enter"}},
		{in: "Space", want: Chord{0, " "}, str: "Space"},
		{in: " ", want: Chord{0, " "}, str: "Space"},
		{in: "Control+Space", want: Chord{ModCtrl, " "}, str: "Control+Space"},
		{in: "Del", want: Chord{0, "Delete"}},
		{in: "Up", want: Chord{0, "ArrowUp"}},
		{in: "Down", want: Chord{0, "ArrowDown"}},
		{in: "Shift+Left", want: Chord{ModShift, "ArrowLeft"}},
		{in: "Right", want: Chord{0, "ArrowRight"}},
		{in: "PgUp", want: Chord{0, "PageUp"}},
		{in: "PgDn", want: Chord{0, "PageDown"}},
		{in: "pagedown", want: Chord{0, "PageDown"}},
		{in: "F5", want: Chord{0, "F5"}},
		{in: "f12", want: Chord{0, "F12"}},
		{in: "Control+F4", want: Chord{ModCtrl, "F4"}},
		{in: "Shift+1", want: Chord{ModShift, "1"}},
		{in: "!", want: Chord{0, "!"}},
		{in: "Control+KeyA", want: Chord{ModCtrl, "a"}, str: "Control+A"},
		{in: "Digit7", want: Chord{0, "7"}},
		{in: "Control+Minus", want: Chord{ModCtrl, "-"}},
		{in: "Control+Equal", want: Chord{ModCtrl, "="}},
		{in: "Numpad5", want: Chord{0, "Numpad5"}},
		{in: "NumpadEnter", want: Chord{0, "NumpadEnter"}},
		{in: "Shift", want: Chord{0, "Shift"}, str: "Shift"},
		{in: "Shift+Shift", want: Chord{0, "Shift"}},
		{in: "Control+Shift", want: Chord{ModCtrl, "Shift"}, str: "Control+Shift"},
		{in: "Shift+ShiftRight", want: Chord{0, "ShiftRight"}},
		{in: "Ctrl", want: Chord{0, "Control"}},
		{in: "ControlOrMeta", goos: "darwin", want: Chord{0, "Meta"}},
		{in: " Control + Shift + P ", want: Chord{ModCtrl | ModShift, "p"}},
		{in: "Alt+Backspace", want: Chord{ModAlt, "Backspace"}},
		{in: "\n", want: Chord{0, "Enter"}},

		{in: "", err: "empty"},
		{in: "Control+", err: "names no key"},
		{in: "Control+Shift+", err: "names no key"},
		{in: "++", err: "modifier is missing"},
		{in: "+a", err: "modifier is missing"},
		{in: "Hyper+A", err: `unknown modifier "Hyper"`},
		{in: "a+b", err: "is a key, not a modifier"},
		{in: "Control++Shift+a", err: "empty part"},
		{in: "Control+NoSuchKey", err: `unknown key "NoSuchKey"`},
		{in: "é", err: "no key on a US keyboard"},
		{in: "Control+€", err: "no key on a US keyboard"},
		{in: "Enterr", err: "unknown key"},
		{in: "F13", err: "unknown key"},
		{in: "Key1", err: "unknown key"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			goos := tc.goos
			if goos == "" {
				goos = "linux"
			}
			got, err := ParseChordFor(tc.in, goos)
			if tc.err != "" {
				if err == nil {
					t.Fatalf("ParseChordFor(%q) = %+v, want an error with %q", tc.in, got, tc.err)
				}
				e := errs.As(err)
				if e == nil || e.Code != errs.BadArgument || e.Details["field"] != "key" {
					t.Fatalf("error %v is not BAD_ARGUMENT on field key", err)
				}
				if !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %q does not say %q", err, tc.err)
				}
				if !strings.Contains(e.Hint, "Control++") {
					t.Fatalf("hint %q does not list the valid forms", e.Hint)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseChordFor(%q): %v", tc.in, err)
			}
			if got != tc.want {
				t.Fatalf("ParseChordFor(%q) = %#v, want %#v", tc.in, got, tc.want)
			}
			if tc.str != "" && got.String() != tc.str {
				t.Fatalf("String() = %q, want %q", got.String(), tc.str)
			}
			back, err := ParseChordFor(got.String(), goos)
			if err != nil || back != got {
				t.Fatalf("round trip of %q: %+v, %v", got.String(), back, err)
			}
		})
	}
}

func TestParseChordUsesRuntimeOS(t *testing.T) {
	c, err := ParseChord("ControlOrMeta+S")
	if err != nil {
		t.Fatal(err)
	}
	if c.Modifiers != ModCtrl && c.Modifiers != ModMeta {
		t.Fatalf("ControlOrMeta resolved to %d", c.Modifiers)
	}
}

func TestLookup(t *testing.T) {
	cases := []struct {
		in   string
		want KeyDef
	}{
		{"a", KeyDef{"a", "KeyA", 65, "a", 0, "A"}},
		{"A", KeyDef{"A", "KeyA", 65, "A", 0, ""}},
		{"z", KeyDef{"z", "KeyZ", 90, "z", 0, "Z"}},
		{"1", KeyDef{"1", "Digit1", 49, "1", 0, "!"}},
		{"!", KeyDef{"!", "Digit1", 49, "!", 0, ""}},
		{"0", KeyDef{"0", "Digit0", 48, "0", 0, ")"}},
		{")", KeyDef{")", "Digit0", 48, ")", 0, ""}},
		{"-", KeyDef{"-", "Minus", 189, "-", 0, "_"}},
		{"_", KeyDef{"_", "Minus", 189, "_", 0, ""}},
		{"=", KeyDef{"=", "Equal", 187, "=", 0, "+"}},
		{"+", KeyDef{"+", "Equal", 187, "+", 0, ""}},
		{"/", KeyDef{"/", "Slash", 191, "/", 0, "?"}},
		{"?", KeyDef{"?", "Slash", 191, "?", 0, ""}},
		{"'", KeyDef{"'", "Quote", 222, "'", 0, "\""}},
		{"\"", KeyDef{"\"", "Quote", 222, "\"", 0, ""}},
		{"`", KeyDef{"`", "Backquote", 192, "`", 0, "~"}},
		{"\\", KeyDef{"\\", "Backslash", 220, "\\", 0, "|"}},
		{" ", KeyDef{" ", "Space", 32, " ", 0, ""}},
		{"Space", KeyDef{" ", "Space", 32, " ", 0, ""}},
		{"Enter", KeyDef{"Enter", "Enter", 13, "\r", 0, ""}},
		{"Return", KeyDef{"Enter", "Enter", 13, "\r", 0, ""}},
		{"Tab", KeyDef{"Tab", "Tab", 9, "", 0, ""}},
		{"Backspace", KeyDef{"Backspace", "Backspace", 8, "", 0, ""}},
		{"Delete", KeyDef{"Delete", "Delete", 46, "", 0, ""}},
		{"Escape", KeyDef{"Escape", "Escape", 27, "", 0, ""}},
		{"ArrowLeft", KeyDef{"ArrowLeft", "ArrowLeft", 37, "", 0, ""}},
		{"arrowdown", KeyDef{"ArrowDown", "ArrowDown", 40, "", 0, ""}},
		{"Home", KeyDef{"Home", "Home", 36, "", 0, ""}},
		{"End", KeyDef{"End", "End", 35, "", 0, ""}},
		{"PageUp", KeyDef{"PageUp", "PageUp", 33, "", 0, ""}},
		{"PageDown", KeyDef{"PageDown", "PageDown", 34, "", 0, ""}},
		{"Insert", KeyDef{"Insert", "Insert", 45, "", 0, ""}},
		{"F1", KeyDef{"F1", "F1", 112, "", 0, ""}},
		{"F12", KeyDef{"F12", "F12", 123, "", 0, ""}},
		{"Shift", KeyDef{"Shift", "ShiftLeft", 16, "", LocationLeft, ""}},
		{"Control", KeyDef{"Control", "ControlLeft", 17, "", LocationLeft, ""}},
		{"Ctrl", KeyDef{"Control", "ControlLeft", 17, "", LocationLeft, ""}},
		{"Alt", KeyDef{"Alt", "AltLeft", 18, "", LocationLeft, ""}},
		{"Option", KeyDef{"Alt", "AltLeft", 18, "", LocationLeft, ""}},
		{"Meta", KeyDef{"Meta", "MetaLeft", 91, "", LocationLeft, ""}},
		{"Cmd", KeyDef{"Meta", "MetaLeft", 91, "", LocationLeft, ""}},
		{"ShiftRight", KeyDef{"Shift", "ShiftRight", 16, "", LocationRight, ""}},
		{"Numpad7", KeyDef{"7", "Numpad7", 103, "7", LocationNumpad, ""}},
		{"NumpadEnter", KeyDef{"Enter", "NumpadEnter", 13, "\r", LocationNumpad, ""}},
		{"KeyQ", KeyDef{"q", "KeyQ", 81, "q", 0, "Q"}},
		{"Digit9", KeyDef{"9", "Digit9", 57, "9", 0, "("}},
	}
	for _, tc := range cases {
		got, ok := Lookup(tc.in)
		if !ok || got != tc.want {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v", tc.in, got, ok, tc.want)
		}
	}
	for _, bad := range []string{"", "é", "NoSuchKey", "F0", "Numpad", "KeyAA", "Digit10", "😀"} {
		if d, ok := Lookup(bad); ok {
			t.Errorf("Lookup(%q) = %+v, want not found", bad, d)
		}
	}
}

// TestKeymapConsistent checks the tables against each other.
func TestKeymapConsistent(t *testing.T) {
	folded := map[string]string{}
	codes := map[string]string{}
	for name, d := range keymap() {
		if d.Key == "" || d.Code == "" || d.KeyCode <= 0 {
			t.Errorf("%q: incomplete %+v", name, d)
		}
		if len(name) > 1 {
			if other, dup := folded[asciiLower(name)]; dup {
				t.Errorf("%q and %q differ only in case", name, other)
			}
			folded[asciiLower(name)] = name
		}
		if other, dup := codes[d.Code]; dup {
			t.Errorf("code %s is on %q and %q", d.Code, name, other)
		}
		codes[d.Code] = name
		if name != d.Key && name != d.Code {
			t.Errorf("%q is neither the key %q nor the code %q", name, d.Key, d.Code)
		}
		if d.ShiftKey != "" {
			if shiftedBase()[d.ShiftKey] != name {
				t.Errorf("%q shifts to %q, which shiftedBase maps to %q", name, d.ShiftKey, shiftedBase()[d.ShiftKey])
			}
		}
		if len([]rune(d.Text)) > 1 {
			t.Errorf("%q types %q, more than one character", name, d.Text)
		}
	}
	for shifted, base := range shiftedBase() {
		d, ok := keymap()[base]
		if !ok || d.ShiftKey != shifted {
			t.Errorf("shiftedBase()[%q] = %q, whose ShiftKey is %q", shifted, base, d.ShiftKey)
		}
		if _, clash := keymap()[shifted]; clash {
			t.Errorf("%q is both a key and a shifted character", shifted)
		}
	}
	for alias, name := range aliases() {
		if asciiLower(alias) != alias {
			t.Errorf("alias %q is not lower-case", alias)
		}
		if _, _, ok := resolve(name); !ok {
			t.Errorf("alias %q names %q, which is not a key", alias, name)
		}
	}
	// Every printable ASCII character has a key.
	for r := rune(0x20); r < 0x7f; r++ {
		if _, ok := typedKey(string(r)); !ok {
			t.Errorf("%q has no key", r)
		}
	}
}

func FuzzParseChord(f *testing.F) {
	for _, s := range []string{
		"Control+Shift+P", "Meta+K", "Alt+ArrowLeft", "Enter", "a", "A", "Shift+Tab",
		"Control++", "ControlOrMeta+S", "Ctrl+Esc", "+", "++", "Control+", " ", "Space",
		"Shift+Shift", "Numpad1", "KeyA", "é", "Control+Alt+Shift+Meta+F12", "a+b", "\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, goos := range []string{"linux", "darwin"} {
			c, err := ParseChordFor(s, goos)
			if err != nil {
				e := errs.As(err)
				if e == nil || e.Code != errs.BadArgument || e.Details["field"] != "key" {
					t.Fatalf("ParseChordFor(%q): error %v is not BAD_ARGUMENT on key", s, err)
				}
				continue
			}
			if c.Modifiers&^modAll != 0 {
				t.Fatalf("ParseChordFor(%q): modifiers %d", s, c.Modifiers)
			}
			if _, _, ok := resolve(c.Key); !ok {
				t.Fatalf("ParseChordFor(%q): key %q is not canonical", s, c.Key)
			}
			if modifierKeyBit(keymap()[c.Key].Key)&c.Modifiers != 0 {
				t.Fatalf("ParseChordFor(%q) = %+v holds its own key as a modifier", s, c)
			}
			back, err := ParseChordFor(c.String(), goos)
			if err != nil || back != c {
				t.Fatalf("ParseChordFor(%q) = %+v; String %q parses to %+v, %v", s, c, c.String(), back, err)
			}
			// Every parsed chord dispatches: one down and one up per key.
			rec := &recorder{}
			if err := PressChord(context.Background(), rec, c); err != nil {
				t.Fatalf("PressChord(%+v): %v", c, err)
			}
			keys := 1
			for m := c.Modifiers; m != 0; m &= m - 1 {
				keys++
			}
			if len(rec.calls) != 2*keys {
				t.Fatalf("PressChord(%+v) sent %d events, want %d", c, len(rec.calls), 2*keys)
			}
		}
	})
}

// TestParseModifiers: a click's modifier list accepts exactly the modifier
// names a key chord accepts, with the same bits.
func TestParseModifiers(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, name := range []string{"Control", "ctrl", "Shift", "Alt", "Option", "opt", "Meta", "Cmd",
			"Command", "super", "OS", "ControlOrMeta", "CmdOrCtrl", "CommandOrControl", "CtrlOrCmd", " shift "} {
			got, err := ParseModifiers([]string{name}, goos)
			if err != nil {
				t.Errorf("%s: ParseModifiers(%q): %v", goos, name, err)
				continue
			}
			c, err := ParseChordFor(name+"+a", goos)
			if err != nil {
				t.Fatalf("%s: ParseChordFor(%q+a): %v", goos, name, err)
			}
			if got != c.Modifiers {
				t.Errorf("%s: ParseModifiers(%q) = %d, chord has %d", goos, name, got, c.Modifiers)
			}
		}
		m, err := ParseModifiers([]string{"ControlOrMeta", "Shift", "alt"}, goos)
		want := ModShift | ModAlt | ModCtrl
		if goos == "darwin" {
			want = ModShift | ModAlt | ModMeta
		}
		if err != nil || m != want {
			t.Errorf("%s: mask %d %v, want %d", goos, m, err, want)
		}
	}
	if m, err := ParseModifiers(nil, "linux"); m != 0 || err != nil {
		t.Errorf("none: %d %v", m, err)
	}
	for _, bad := range []string{"", "Hyper", "a", "Enter", "Control+Shift"} {
		_, err := ParseModifiers([]string{"Shift", bad}, "linux")
		if e := errs.As(err); e == nil || e.Code != errs.BadArgument || e.Details["field"] != "modifiers" {
			t.Errorf("ParseModifiers(%q) = %v, want BAD_ARGUMENT on modifiers", bad, err)
		}
	}
}
