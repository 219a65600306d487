package act

import (
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
)

// ClickArgs are how a click presses: the button, how many times, the
// modifiers held, and whether the actionability checks are skipped.
type ClickArgs struct {
	Button     string   `json:"button,omitempty" jsonschema:"left (default), right or middle"`
	ClickCount int      `json:"clickCount,omitempty" jsonschema:"1 (default) to 3; 2 is a double click"`
	Modifiers  []string `json:"modifiers,omitempty" jsonschema:"held during the click: Alt, Control, Meta, Shift"`
	Force      bool     `json:"force,omitempty" jsonschema:"skip the actionability checks (the browser still decides what the click hits)"`
}

// Check refuses a count, button or modifier a click cannot press.
func (a *ClickArgs) Check() error {
	if a.ClickCount < 0 || a.ClickCount > 3 {
		return errs.BadArg("clickCount", "must be 1, 2 or 3")
	}
	switch strings.ToLower(a.Button) {
	case "", "left", "right", "middle":
	default:
		return errs.BadArg("button", "must be left, right or middle")
	}
	_, err := a.Options()
	return err
}

// Options are the input.ClickOptions the arguments ask for; the modifiers
// are those of the machine's platform (Meta is Command on a Mac).
func (a *ClickArgs) Options() (input.ClickOptions, error) {
	mods, err := ModifierMask(a.Modifiers)
	return input.ClickOptions{Button: a.Button, ClickCount: a.ClickCount, Modifiers: mods}, err
}

// ModifierMask turns modifier names into CDP's bit mask with the same
// names and platform rules as chords (input.ParseModifiers).
func ModifierMask(mods []string) (int, error) {
	return input.ParseModifiers(mods, runtime.GOOS)
}

// KeyArgs is a key or chord to press.
type KeyArgs struct {
	Key string `json:"key" jsonschema:"a key or chord: Enter, a, Control+Shift+P, Meta+K, Shift+Tab"`
}

// Check refuses a key or chord that cannot be pressed.
func (a *KeyArgs) Check() error {
	_, err := input.ParseChord(a.Key)
	return err
}

// maxSequence bounds a sequence's keys.
const maxSequence = 200

// SequenceArgs are keys or chords to press in order, delay apart.
type SequenceArgs struct {
	Keys    []string `json:"keys" jsonschema:"keys or chords pressed in order, e.g. [\"Control+A\", \"Backspace\", \"Enter\"]"`
	DelayMs int      `json:"delayMs,omitempty" jsonschema:"pause between keys in ms; default 0, max 1000"`
}

// Check refuses an empty or overlong sequence, a key that cannot be
// pressed (naming it keys[i]) and a delay out of range.
func (a *SequenceArgs) Check() error {
	if len(a.Keys) == 0 || len(a.Keys) > maxSequence {
		return errs.BadArg("keys", "pass 1 to %d keys", maxSequence)
	}
	if _, err := a.Chords(); err != nil {
		return err
	}
	if a.DelayMs < 0 || a.DelayMs > 1000 {
		return errs.BadArg("delayMs", "must be between 0 and 1000")
	}
	return nil
}

// Chords are the keys parsed, in order.
func (a *SequenceArgs) Chords() ([]input.Chord, error) {
	chords := make([]input.Chord, len(a.Keys))
	for i, k := range a.Keys {
		ch, err := input.ParseChord(k)
		if err != nil {
			if e := errs.As(err); e != nil {
				e.Details["field"] = "keys[" + strconv.Itoa(i) + "]"
				e.Message = "keys[" + strconv.Itoa(i) + "]: " + e.Message
			}
			return nil, err
		}
		chords[i] = ch
	}
	return chords, nil
}

// Delay is the pause between keys.
func (a *SequenceArgs) Delay() time.Duration { return time.Duration(a.DelayMs) * time.Millisecond }

// maxTypeChars bounds the text of the typing actions.
const maxTypeChars = 100000

// checkText refuses a text that is missing or too long.
func checkText(field string, t *string) error {
	if t == nil {
		return errs.BadArg(field, "is required")
	}
	if len(*t) > maxTypeChars {
		return errs.BadArg(field, "at most %d bytes, not %d", maxTypeChars, len(*t))
	}
	return nil
}

// FieldText is the text a field will hold.
type FieldText struct {
	Text *string `json:"text" jsonschema:"the text the field will hold (replaces what it holds)"`
}

// Check refuses a missing or overlong text.
func (a *FieldText) Check() error { return checkText("text", a.Text) }

// KeyText is text to type as key events.
type KeyText struct {
	Text *string `json:"text" jsonschema:"the text to type; \\n presses Enter, \\t Tab"`
}

// Check refuses a missing or overlong text.
func (a *KeyText) Check() error { return checkText("text", a.Text) }

// EditorText is text to put into an editor, at the end or replacing all.
type EditorText struct {
	Text    *string `json:"text" jsonschema:"the text to type; \\n starts a new line"`
	Replace bool    `json:"replace,omitempty" jsonschema:"select everything first, so the text replaces the editor's content"`
}

// Check refuses a missing or overlong text.
func (a *EditorText) Check() error { return checkText("text", a.Text) }

// WheelArgs turn the mouse wheel.
type WheelArgs struct {
	Dx float64 `json:"dx,omitempty" jsonschema:"wheel delta to the right in CSS pixels (negative: left)"`
	Dy float64 `json:"dy,omitempty" jsonschema:"wheel delta down in CSS pixels (negative: up)"`
}

// Check refuses deltas out of range and, with no element named (element
// false), a wheel that turns by nothing.
func (a *WheelArgs) Check(element bool) error {
	if !element && a.Dx == 0 && a.Dy == 0 {
		return errs.BadArg("dy", "pass dx/dy to turn the wheel, or ref/selector to scroll an element into view")
	}
	const limit = 1e6
	if a.Dx > limit || a.Dx < -limit || a.Dy > limit || a.Dy < -limit {
		return errs.BadArg("dy", "wheel deltas must be within ±%g", limit)
	}
	return nil
}
