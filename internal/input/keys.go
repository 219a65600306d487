package input

import (
	"runtime"
	"strings"
	"sync"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Modifier bits, as CDP's Input domain wants them in its modifiers field.
const (
	ModAlt   = 1
	ModCtrl  = 2
	ModMeta  = 4
	ModShift = 8

	modAll = ModAlt | ModCtrl | ModMeta | ModShift
)

// DOM KeyboardEvent.location values.
const (
	LocationStandard = 0
	LocationLeft     = 1
	LocationRight    = 2
	LocationNumpad   = 3
)

// KeyDef is one key of the US keyboard layout.
type KeyDef struct {
	Key      string // DOM KeyboardEvent.key, such as "a", "!", "Enter"
	Code     string // DOM KeyboardEvent.code, such as "KeyA", "Digit1", "Enter"
	KeyCode  int    // windowsVirtualKeyCode (also sent as nativeVirtualKeyCode)
	Text     string // text the key produces without modifiers; "" for none
	Location int    // DOM KeyboardEvent.location
	ShiftKey string // the key (and text) with Shift held, such as "!" for "1"; "" when Shift changes nothing
}

// keymap is the US layout, keyed by key name: the DOM key value for keys of
// the main block, the DOM code for keys whose key value is taken by another
// key (the numeric keypad, the right-hand modifiers). Characters typed with
// Shift are not keys of their own; see shiftedBase. Read-only.
var keymap = sync.OnceValue(func() map[string]KeyDef {
	return map[string]KeyDef{
		"a": {"a", "KeyA", 65, "a", 0, "A"},
		"b": {"b", "KeyB", 66, "b", 0, "B"},
		"c": {"c", "KeyC", 67, "c", 0, "C"},
		"d": {"d", "KeyD", 68, "d", 0, "D"},
		"e": {"e", "KeyE", 69, "e", 0, "E"},
		"f": {"f", "KeyF", 70, "f", 0, "F"},
		"g": {"g", "KeyG", 71, "g", 0, "G"},
		"h": {"h", "KeyH", 72, "h", 0, "H"},
		"i": {"i", "KeyI", 73, "i", 0, "I"},
		"j": {"j", "KeyJ", 74, "j", 0, "J"},
		"k": {"k", "KeyK", 75, "k", 0, "K"},
		"l": {"l", "KeyL", 76, "l", 0, "L"},
		"m": {"m", "KeyM", 77, "m", 0, "M"},
		"n": {"n", "KeyN", 78, "n", 0, "N"},
		"o": {"o", "KeyO", 79, "o", 0, "O"},
		"p": {"p", "KeyP", 80, "p", 0, "P"},
		"q": {"q", "KeyQ", 81, "q", 0, "Q"},
		"r": {"r", "KeyR", 82, "r", 0, "R"},
		"s": {"s", "KeyS", 83, "s", 0, "S"},
		"t": {"t", "KeyT", 84, "t", 0, "T"},
		"u": {"u", "KeyU", 85, "u", 0, "U"},
		"v": {"v", "KeyV", 86, "v", 0, "V"},
		"w": {"w", "KeyW", 87, "w", 0, "W"},
		"x": {"x", "KeyX", 88, "x", 0, "X"},
		"y": {"y", "KeyY", 89, "y", 0, "Y"},
		"z": {"z", "KeyZ", 90, "z", 0, "Z"},

		"0": {"0", "Digit0", 48, "0", 0, ")"},
		"1": {"1", "Digit1", 49, "1", 0, "!"},
		"2": {"2", "Digit2", 50, "2", 0, "@"},
		"3": {"3", "Digit3", 51, "3", 0, "#"},
		"4": {"4", "Digit4", 52, "4", 0, "$"},
		"5": {"5", "Digit5", 53, "5", 0, "%"},
		"6": {"6", "Digit6", 54, "6", 0, "^"},
		"7": {"7", "Digit7", 55, "7", 0, "&"},
		"8": {"8", "Digit8", 56, "8", 0, "*"},
		"9": {"9", "Digit9", 57, "9", 0, "("},

		"`":  {"`", "Backquote", 192, "`", 0, "~"},
		"-":  {"-", "Minus", 189, "-", 0, "_"},
		"=":  {"=", "Equal", 187, "=", 0, "+"},
		"[":  {"[", "BracketLeft", 219, "[", 0, "{"},
		"]":  {"]", "BracketRight", 221, "]", 0, "}"},
		"\\": {"\\", "Backslash", 220, "\\", 0, "|"},
		";":  {";", "Semicolon", 186, ";", 0, ":"},
		"'":  {"'", "Quote", 222, "'", 0, "\""},
		",":  {",", "Comma", 188, ",", 0, "<"},
		".":  {".", "Period", 190, ".", 0, ">"},
		"/":  {"/", "Slash", 191, "/", 0, "?"},
		" ":  {" ", "Space", 32, " ", 0, ""},

		"Enter":       {"Enter", "Enter", 13, "\r", 0, ""},
		"Tab":         {"Tab", "Tab", 9, "", 0, ""},
		"Backspace":   {"Backspace", "Backspace", 8, "", 0, ""},
		"Delete":      {"Delete", "Delete", 46, "", 0, ""},
		"Escape":      {"Escape", "Escape", 27, "", 0, ""},
		"Insert":      {"Insert", "Insert", 45, "", 0, ""},
		"ArrowLeft":   {"ArrowLeft", "ArrowLeft", 37, "", 0, ""},
		"ArrowUp":     {"ArrowUp", "ArrowUp", 38, "", 0, ""},
		"ArrowRight":  {"ArrowRight", "ArrowRight", 39, "", 0, ""},
		"ArrowDown":   {"ArrowDown", "ArrowDown", 40, "", 0, ""},
		"Home":        {"Home", "Home", 36, "", 0, ""},
		"End":         {"End", "End", 35, "", 0, ""},
		"PageUp":      {"PageUp", "PageUp", 33, "", 0, ""},
		"PageDown":    {"PageDown", "PageDown", 34, "", 0, ""},
		"CapsLock":    {"CapsLock", "CapsLock", 20, "", 0, ""},
		"NumLock":     {"NumLock", "NumLock", 144, "", 0, ""},
		"ScrollLock":  {"ScrollLock", "ScrollLock", 145, "", 0, ""},
		"Pause":       {"Pause", "Pause", 19, "", 0, ""},
		"PrintScreen": {"PrintScreen", "PrintScreen", 44, "", 0, ""},
		"ContextMenu": {"ContextMenu", "ContextMenu", 93, "", 0, ""},

		"F1":  {"F1", "F1", 112, "", 0, ""},
		"F2":  {"F2", "F2", 113, "", 0, ""},
		"F3":  {"F3", "F3", 114, "", 0, ""},
		"F4":  {"F4", "F4", 115, "", 0, ""},
		"F5":  {"F5", "F5", 116, "", 0, ""},
		"F6":  {"F6", "F6", 117, "", 0, ""},
		"F7":  {"F7", "F7", 118, "", 0, ""},
		"F8":  {"F8", "F8", 119, "", 0, ""},
		"F9":  {"F9", "F9", 120, "", 0, ""},
		"F10": {"F10", "F10", 121, "", 0, ""},
		"F11": {"F11", "F11", 122, "", 0, ""},
		"F12": {"F12", "F12", 123, "", 0, ""},

		"Shift":        {"Shift", "ShiftLeft", 16, "", LocationLeft, ""},
		"Control":      {"Control", "ControlLeft", 17, "", LocationLeft, ""},
		"Alt":          {"Alt", "AltLeft", 18, "", LocationLeft, ""},
		"Meta":         {"Meta", "MetaLeft", 91, "", LocationLeft, ""},
		"ShiftRight":   {"Shift", "ShiftRight", 16, "", LocationRight, ""},
		"ControlRight": {"Control", "ControlRight", 17, "", LocationRight, ""},
		"AltRight":     {"Alt", "AltRight", 18, "", LocationRight, ""},
		"MetaRight":    {"Meta", "MetaRight", 92, "", LocationRight, ""},

		"Numpad0":        {"0", "Numpad0", 96, "0", LocationNumpad, ""},
		"Numpad1":        {"1", "Numpad1", 97, "1", LocationNumpad, ""},
		"Numpad2":        {"2", "Numpad2", 98, "2", LocationNumpad, ""},
		"Numpad3":        {"3", "Numpad3", 99, "3", LocationNumpad, ""},
		"Numpad4":        {"4", "Numpad4", 100, "4", LocationNumpad, ""},
		"Numpad5":        {"5", "Numpad5", 101, "5", LocationNumpad, ""},
		"Numpad6":        {"6", "Numpad6", 102, "6", LocationNumpad, ""},
		"Numpad7":        {"7", "Numpad7", 103, "7", LocationNumpad, ""},
		"Numpad8":        {"8", "Numpad8", 104, "8", LocationNumpad, ""},
		"Numpad9":        {"9", "Numpad9", 105, "9", LocationNumpad, ""},
		"NumpadMultiply": {"*", "NumpadMultiply", 106, "*", LocationNumpad, ""},
		"NumpadAdd":      {"+", "NumpadAdd", 107, "+", LocationNumpad, ""},
		"NumpadSubtract": {"-", "NumpadSubtract", 109, "-", LocationNumpad, ""},
		"NumpadDecimal":  {".", "NumpadDecimal", 110, ".", LocationNumpad, ""},
		"NumpadDivide":   {"/", "NumpadDivide", 111, "/", LocationNumpad, ""},
		"NumpadEnter":    {"Enter", "NumpadEnter", 13, "\r", LocationNumpad, ""},
	}
})

// shiftedBase maps a character typed with Shift on the US layout to the
// name of its key. Read-only.
var shiftedBase = sync.OnceValue(func() map[string]string {
	return map[string]string{
		")": "0", "!": "1", "@": "2", "#": "3", "$": "4",
		"%": "5", "^": "6", "&": "7", "*": "8", "(": "9",
		"~": "`", "_": "-", "+": "=", "{": "[", "}": "]", "|": "\\",
		":": ";", "\"": "'", "<": ",", ">": ".", "?": "/",
		"A": "a", "B": "b", "C": "c", "D": "d", "E": "e", "F": "f", "G": "g",
		"H": "h", "I": "i", "J": "j", "K": "k", "L": "l", "M": "m", "N": "n",
		"O": "o", "P": "p", "Q": "q", "R": "r", "S": "s", "T": "t", "U": "u",
		"V": "v", "W": "w", "X": "x", "Y": "y", "Z": "z",
	}
})

// aliases maps other spellings, lower-cased, to a key name. Multi-character
// key names of keymap also match case-insensitively without an entry here.
// Read-only.
var aliases = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"\r": "Enter", "\n": "Enter", "\t": "Tab",
		"esc": "Escape", "return": "Enter", "space": " ", "spacebar": " ",
		"del": "Delete", "ins": "Insert", "bksp": "Backspace",
		"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight",
		"pgup": "PageUp", "pgdn": "PageDown", "pagedn": "PageDown",
		"ctrl": "Control", "controlleft": "Control", "ctrlleft": "Control", "ctrlright": "ControlRight",
		"shiftleft": "Shift", "altleft": "Alt", "option": "Alt", "opt": "Alt",
		"metaleft": "Meta", "cmd": "Meta", "command": "Meta", "super": "Meta", "os": "Meta",
		"plus": "+", "minus": "-", "equal": "=", "backquote": "`",
		"bracketleft": "[", "bracketright": "]", "backslash": "\\",
		"semicolon": ";", "quote": "'", "comma": ",", "period": ".", "slash": "/",
	}
})

// controlOrMeta is the modifier that OS uses for shortcuts: Meta on macOS,
// Control elsewhere.
func controlOrMeta(goos string) (bit int, key string) {
	if goos == "darwin" {
		return ModMeta, "Meta"
	}
	return ModCtrl, "Control"
}

// modifierBit returns the bit of a modifier token, or 0.
func modifierBit(tok, goos string) int {
	switch asciiLower(tok) {
	case "control", "ctrl":
		return ModCtrl
	case "shift":
		return ModShift
	case "alt", "option", "opt":
		return ModAlt
	case "meta", "cmd", "command", "super", "os":
		return ModMeta
	}
	if isControlOrMeta(tok) {
		bit, _ := controlOrMeta(goos)
		return bit
	}
	return 0
}

// ParseModifiers turns modifier names (as a click's or drag's "modifiers"
// list gives them) into CDP's bit mask, with the names ParseChordFor accepts
// for a chord's modifiers: Control (Ctrl), Shift, Alt (Option, Opt), Meta
// (Cmd, Command, Super, OS) and ControlOrMeta (CmdOrCtrl, CommandOrControl),
// case-insensitive. goos decides ControlOrMeta as in ParseChordFor. An
// unknown name is BAD_ARGUMENT naming the field "modifiers".
func ParseModifiers(names []string, goos string) (int, error) {
	m := 0
	for _, name := range names {
		bit := modifierBit(strings.TrimSpace(name), goos)
		if bit == 0 {
			return 0, errs.BadArg("modifiers", "unknown modifier %q (use Alt, Control, Meta, Shift or ControlOrMeta)", clip(name))
		}
		m |= bit
	}
	return m, nil
}

// isControlOrMeta reports whether tok names the OS's shortcut modifier
// (ControlOrMeta, or Electron's CmdOrCtrl and CommandOrControl).
func isControlOrMeta(tok string) bool {
	switch asciiLower(tok) {
	case "controlormeta", "cmdorctrl", "commandorcontrol", "ctrlorcmd":
		return true
	}
	return false
}

// modifierKeyBit returns the bit a modifier key sets while it is down, or 0
// for other keys.
func modifierKeyBit(key string) int {
	switch key {
	case "Alt":
		return ModAlt
	case "Control":
		return ModCtrl
	case "Meta":
		return ModMeta
	case "Shift":
		return ModShift
	}
	return 0
}

// modifier is a modifier bit with the name of its (left) key.
type modifier struct {
	bit  int
	name string
}

// modifierOrder is the order modifiers are pressed in and written in.
func modifierOrder() [4]modifier {
	return [4]modifier{{ModCtrl, "Control"}, {ModAlt, "Alt"}, {ModShift, "Shift"}, {ModMeta, "Meta"}}
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// canonical returns the keymap or shiftedBase name of a key spelling.
func canonical(name string) (string, bool) {
	if _, ok := keymap()[name]; ok {
		return name, true
	}
	if _, ok := shiftedBase()[name]; ok {
		return name, true
	}
	low := asciiLower(name)
	if n, ok := aliases()[low]; ok {
		return n, true
	}
	if len(name) > 1 {
		for n := range keymap() {
			if len(n) > 1 && asciiLower(n) == low {
				return n, true
			}
		}
		// DOM code names of the printable keys: KeyA..KeyZ, Digit0..Digit9.
		if len(low) == 4 && strings.HasPrefix(low, "key") && 'a' <= low[3] && low[3] <= 'z' {
			return low[3:], true
		}
		if len(low) == 6 && strings.HasPrefix(low, "digit") && '0' <= low[5] && low[5] <= '9' {
			return low[5:], true
		}
	}
	return "", false
}

// resolve returns the definition of a canonical key name and whether the
// US layout needs Shift to produce it.
func resolve(name string) (def KeyDef, needsShift, ok bool) {
	if d, ok := keymap()[name]; ok {
		return d, false, true
	}
	if base, ok := shiftedBase()[name]; ok {
		d := keymap()[base]
		return KeyDef{Key: name, Code: d.Code, KeyCode: d.KeyCode, Text: name, Location: d.Location}, true, true
	}
	return KeyDef{}, false, false
}

// Lookup returns the US-layout definition of a key: a DOM key value ("a",
// "A", "!", "Enter", "ArrowLeft", "F5", "Shift"), a DOM code of a key whose
// value is shared ("Numpad1", "ShiftRight"), a code of a printable key
// ("KeyA", "Digit1", "Minus"), or an alias ("Esc", "Return", "Space", "Del",
// "Up", "PgDn", "Ctrl", "Cmd", "Option"). Multi-character names match
// case-insensitively. A character typed with Shift ("A", "!") has the key
// code of its key and an empty ShiftKey.
func Lookup(key string) (KeyDef, bool) {
	name, ok := canonical(key)
	if !ok {
		return KeyDef{}, false
	}
	d, _, ok := resolve(name)
	return d, ok
}

// Chord is a key with the modifiers held while it is pressed.
type Chord struct {
	// Modifiers is a mask of ModAlt, ModCtrl, ModMeta and ModShift.
	Modifiers int
	// Key is the canonical key name: a name Lookup knows as it is.
	Key string
}

// String returns the chord in the form ParseChord reads back, modifiers in
// the order Control, Alt, Shift, Meta, a letter after modifiers in upper
// case ("Control+Shift+P", "Meta+K", "Control++", "Space").
func (c Chord) String() string {
	var b strings.Builder
	for _, m := range modifierOrder() {
		if c.Modifiers&m.bit != 0 {
			b.WriteString(m.name)
			b.WriteByte('+')
		}
	}
	switch k := c.Key; {
	case k == " ":
		b.WriteString("Space")
	case c.Modifiers != 0 && len(k) == 1 && 'a' <= k[0] && k[0] <= 'z':
		b.WriteByte(k[0] - 'a' + 'A') // "Control+S", which reads back as the same chord
	default:
		b.WriteString(k)
	}
	return b.String()
}

const chordHint = "Write a key with optional modifiers joined by '+': modifiers Control (Ctrl), " +
	"Shift, Alt (Option), Meta (Cmd, Command) and ControlOrMeta (Meta on macOS, Control elsewhere); " +
	"keys as DOM KeyboardEvent.key values on a US layout: a, A, 1, !, Enter, Tab, Escape, Backspace, " +
	"Delete, ArrowLeft, Home, End, PageUp, PageDown, F1-F12, Space, Shift; or codes such as KeyA, " +
	"Digit1, Numpad1. Examples: Control+Shift+P, Meta+K, Alt+ArrowLeft, Shift+Tab, Control++ (the " +
	"plus key). To type text that has no key on a US keyboard, use electron_keyboard_type."

func chordErr(format string, args ...any) error {
	e := errs.BadArg("key", format, args...)
	e.Hint = chordHint
	return e
}

// clip shortens s for an error message.
func clip(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// ParseChord parses a chord such as "Control+Shift+P" for the OS this
// program runs on (which decides what ControlOrMeta means); see
// ParseChordFor.
func ParseChord(s string) (Chord, error) {
	return ParseChordFor(s, runtime.GOOS)
}

// ParseChordFor parses a chord: modifiers, then a key, joined by '+', such
// as "Control+Shift+P", "Meta+K", "Alt+ArrowLeft", "Enter", "a", "A",
// "Shift+Tab", "Control++" (the plus key) or "ControlOrMeta+S". Modifier
// names and multi-character key names are case-insensitive. A single
// character alone is the key that types it ("A" is the A key with Shift);
// after modifiers a letter names its key whatever its case ("Meta+K" and
// "Meta+k" are the same chord, key "k"; "Control+Shift+P" sends key "P").
// Spaces around the parts are ignored. goos decides ControlOrMeta: Meta on
// "darwin", Control elsewhere. Errors are BAD_ARGUMENT naming the field
// "key".
func ParseChordFor(s, goos string) (Chord, error) {
	if s == "" {
		return Chord{}, chordErr("empty key chord")
	}
	var modPart, keyTok string
	switch {
	case s == "+":
		keyTok = "+"
	case strings.HasSuffix(s, "++"):
		modPart, keyTok = s[:len(s)-2], "+"
		if strings.TrimSpace(modPart) == "" {
			return Chord{}, chordErr("%q: a modifier is missing before the plus key", clip(s))
		}
	case strings.HasSuffix(s, "+"):
		return Chord{}, chordErr("%q ends with '+' but names no key (write Control++ for the plus key)", clip(s))
	default:
		if i := strings.LastIndexByte(s, '+'); i >= 0 {
			modPart, keyTok = s[:i], s[i+1:]
			if strings.TrimSpace(modPart) == "" {
				return Chord{}, chordErr("%q: a modifier is missing before '+'", clip(s))
			}
		} else {
			keyTok = s
		}
	}

	mods := 0
	if modPart != "" {
		for tok := range strings.SplitSeq(modPart, "+") {
			t := strings.TrimSpace(tok)
			if t == "" {
				return Chord{}, chordErr("%q has an empty part between '+' signs", clip(s))
			}
			bit := modifierBit(t, goos)
			if bit == 0 {
				if _, ok := canonical(t); ok {
					return Chord{}, chordErr("%q: %q is a key, not a modifier; a chord has one key, last", clip(s), clip(t))
				}
				return Chord{}, chordErr("%q: unknown modifier %q", clip(s), clip(t))
			}
			mods |= bit
		}
	}

	if t := strings.TrimSpace(keyTok); t != "" {
		keyTok = t
	}
	var name string
	if isControlOrMeta(keyTok) {
		_, name = controlOrMeta(goos)
	} else {
		n, ok := canonical(keyTok)
		if !ok {
			if len([]rune(keyTok)) == 1 {
				return Chord{}, chordErr("%q: %q has no key on a US keyboard", clip(s), clip(keyTok))
			}
			return Chord{}, chordErr("%q: unknown key %q", clip(s), clip(keyTok))
		}
		name = n
	}
	// A modifier key pressed as the key is not also held before it.
	mods &^= modifierKeyBit(keymap()[name].Key)
	return Chord{Modifiers: mods, Key: letterKey(name, mods)}, nil
}

// letterKey returns the key of an upper-case letter after modifiers: with
// modifiers a letter names its key, as in Electron accelerators ("Meta+K" is
// Meta and the K key, key "k"; Shift, when held, makes it "K"). Alone, "A"
// is the character, typed with Shift.
func letterKey(name string, mods int) string {
	if mods != 0 && len(name) == 1 && 'A' <= name[0] && name[0] <= 'Z' {
		return shiftedBase()[name]
	}
	return name
}

// EditorChords are the chords that select everything and go to the end
// of a document in an editor, on this machine's platform.
func EditorChords() (selectAll, end Chord) {
	if runtime.GOOS == "darwin" {
		selectAll, _ = ParseChord("Meta+a")
		end, _ = ParseChord("Meta+ArrowDown")
		return
	}
	selectAll, _ = ParseChord("Control+a")
	end, _ = ParseChord("Control+End")
	return
}
