package input

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	cdproto "github.com/chromedp/cdproto/cdp"
	cdpinput "github.com/chromedp/cdproto/input"
	cdpruntime "github.com/chromedp/cdproto/runtime"

	"github.com/understudy-dev/understudy/internal/errs"
)

// releaseTimeout bounds the best-effort release of keys and buttons after a
// failed dispatch, so a page is not left with a key or button held.
const releaseTimeout = 2 * time.Second

// releaseCtx is a context for a best-effort release: it outlives a cancelled
// ctx, briefly.
func releaseCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
}

// keyParams is one Input.dispatchKeyEvent for the key d.
func keyParams(typ cdpinput.DispatchKeyEventType, d KeyDef, key, text string, mods int) cdpinput.DispatchKeyEventParams {
	p := cdpinput.DispatchKeyEventParams{
		Type:                  typ,
		Modifiers:             int64(mods),
		Key:                   key,
		Code:                  d.Code,
		WindowsVirtualKeyCode: int64(d.KeyCode),
		NativeVirtualKeyCode:  int64(d.KeyCode),
		Location:              int64(d.Location),
		AutoRepeat:            new(false),
	}
	if text != "" {
		p.Text = text
		p.UnmodifiedText = text
	}
	if d.Location == LocationNumpad {
		p.IsKeypad = new(true)
	}
	return p
}

// stroke is the down and up event of one key of a chord.
type stroke struct {
	down, up cdpinput.DispatchKeyEventParams
}

// strokes returns the events of a chord in press order: each modifier
// (Control, Alt, Shift, Meta) with the mask growing, then the key. Releasing
// runs them backwards.
func strokes(c Chord) ([]stroke, error) {
	if c.Key == "" {
		return nil, chordErr("no key given")
	}
	if c.Modifiers&^modAll != 0 || c.Modifiers < 0 {
		return nil, errs.BadArg("modifiers", "%d is not a mask of Alt=1, Ctrl=2, Meta=4, Shift=8", c.Modifiers)
	}
	// A chord built by hand may use a spelling ParseChord would accept
	// ("Esc", "Meta"+"K"); treat it as ParseChord would.
	name, ok := canonical(c.Key)
	if !ok {
		return nil, chordErr("unknown key %q", clip(c.Key))
	}
	def, needsShift, _ := resolve(letterKey(name, c.Modifiers))
	out := make([]stroke, 0, 5)
	held := 0
	for _, m := range modifierOrder() {
		if c.Modifiers&m.bit == 0 || modifierKeyBit(def.Key) == m.bit {
			continue
		}
		md := keymap()[m.name]
		out = append(out, stroke{
			down: keyParams(cdpinput.DispatchKeyEventTypeRawKeyDown, md, md.Key, "", held|m.bit),
			up:   keyParams(cdpinput.DispatchKeyEventTypeKeyUp, md, md.Key, "", held),
		})
		held |= m.bit
	}
	mods := held
	if needsShift {
		// "A", "!", "Control++": the US layout types these with Shift, so
		// the events say Shift is down, as a real keyboard's would.
		mods |= ModShift
	}
	key, text := def.Key, def.Text
	if mods&ModShift != 0 && def.ShiftKey != "" {
		key = def.ShiftKey
		if text != "" {
			text = def.ShiftKey
		}
	}
	if mods&(ModCtrl|ModAlt|ModMeta) != 0 {
		text = ""
	}
	typ := cdpinput.DispatchKeyEventTypeRawKeyDown
	if text != "" {
		typ = cdpinput.DispatchKeyEventTypeKeyDown
	}
	own := modifierKeyBit(def.Key)
	out = append(out, stroke{
		down: keyParams(typ, def, key, text, mods|own),
		up:   keyParams(cdpinput.DispatchKeyEventTypeKeyUp, def, key, "", mods&^own),
	})
	return out, nil
}

func dispatchKey(ctx context.Context, s cdproto.Session, p cdpinput.DispatchKeyEventParams) error {
	_, err := cdproto.Call(ctx, s, cdpinput.DispatchKeyEvent, p)
	return err
}

// pressDown sends the down events; if one fails it releases those already
// down (best effort) and returns the failure.
func pressDown(ctx context.Context, s cdproto.Session, st []stroke) error {
	for i, k := range st {
		if err := dispatchKey(ctx, s, k.down); err != nil {
			rctx, cancel := releaseCtx(ctx)
			defer cancel()
			_ = releaseUp(rctx, s, st[:i])
			return err
		}
	}
	return nil
}

// releaseUp sends the up events backwards; it tries every key and returns
// the first failure.
func releaseUp(ctx context.Context, s cdproto.Session, st []stroke) error {
	var first error
	for i := len(st) - 1; i >= 0; i-- {
		if err := dispatchKey(ctx, s, st[i].up); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// PressChord presses a chord: a keyDown for each modifier with the modifier
// mask growing, the key's keyDown ("keyDown" with text when the key types
// text and no Control, Alt or Meta is held, else "rawKeyDown"), then keyUp
// events in reverse. Shift changes the key as the US layout does
// ("Shift+a" sends key "A" and types "A"); a character typed with Shift
// ("A", "!", the "+" of "Control++") gets the Shift modifier in its events.
func PressChord(ctx context.Context, s cdproto.Session, c Chord) error {
	st, err := strokes(c)
	if err != nil {
		return err
	}
	if err := pressDown(ctx, s, st); err != nil {
		return err
	}
	return releaseUp(ctx, s, st)
}

// KeyDown presses a chord's modifiers and key and leaves them down (the
// first half of PressChord), for press sequences that hold keys. Release
// them with KeyUp and the same chord. If a key event fails, the keys already
// down are released.
func KeyDown(ctx context.Context, s cdproto.Session, c Chord) error {
	st, err := strokes(c)
	if err != nil {
		return err
	}
	return pressDown(ctx, s, st)
}

// KeyUp releases what KeyDown of the same chord pressed: the key, then the
// modifiers in reverse. It tries every key and returns the first failure.
func KeyUp(ctx context.Context, s cdproto.Session, c Chord) error {
	st, err := strokes(c)
	if err != nil {
		return err
	}
	return releaseUp(ctx, s, st)
}

// typedKey returns the key name that types ch on a US keyboard.
func typedKey(ch string) (string, bool) {
	switch ch {
	case "\n", "\r", "\r\n":
		return "Enter", true
	case "\t":
		return "Tab", true
	}
	if len(ch) != 1 {
		return "", false
	}
	if _, ok := keymap()[ch]; ok {
		return ch, true
	}
	if _, ok := shiftedBase()[ch]; ok {
		return ch, true
	}
	return "", false
}

// typeStroke is the keyDown and keyUp that type one character.
func typeStroke(name string) stroke {
	def, needsShift, _ := resolve(name)
	mods := 0
	if needsShift {
		mods = ModShift
	}
	typ := cdpinput.DispatchKeyEventTypeRawKeyDown
	if def.Text != "" {
		typ = cdpinput.DispatchKeyEventTypeKeyDown
	}
	return stroke{
		down: keyParams(typ, def, def.Key, def.Text, mods),
		up:   keyParams(cdpinput.DispatchKeyEventTypeKeyUp, def, def.Key, "", mods),
	}
}

// TypeText types text into whatever has focus with real key events: for
// each character with a key on a US keyboard a keyDown (with text and
// unmodifiedText) and a keyUp, with the Shift modifier for characters typed
// with Shift; "\n", "\r" and "\r\n" press Enter and "\t" presses Tab. Runs
// of characters with no key ("é", emoji, CJK) go in one Input.insertText
// each, as an IME would send them. Each stroke waits for a page turn
// (pageTurn) before the next, as a typist's pace gives the page. text must
// be valid UTF-8 (BAD_ARGUMENT "text").
func TypeText(ctx context.Context, s cdproto.Session, text string) error {
	if !utf8.ValidString(text) {
		return errs.BadArg("text", "is not valid UTF-8")
	}
	var calls []command
	var pending strings.Builder
	flush := func() {
		if pending.Len() > 0 {
			calls = append(calls, command{cdpinput.CommandInsertText, cdpinput.InsertTextParams{Text: pending.String()}})
			pending.Reset()
		}
	}
	for i := 0; i < len(text); {
		_, size := utf8.DecodeRuneInString(text[i:])
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			size = 2
		}
		ch := text[i : i+size]
		i += size
		name, ok := typedKey(ch)
		if !ok {
			pending.WriteString(ch)
			continue
		}
		flush()
		st := typeStroke(name)
		calls = append(calls, command{cdpinput.CommandDispatchKeyEvent, st.down}, command{cdpinput.CommandDispatchKeyEvent, st.up})
	}
	flush()
	// One stroke (or insertion) at a time, each after the page has run
	// what the last one made it schedule (pageTurn): a page whose input's
	// value follows its state a task later (React with downshift's
	// controlled input) would otherwise see the next key land in the value
	// it is about to replace, as no typist's hands are fast enough to do.
	// After the last, the same wait lets a check that follows read what the
	// keys made of the page. The first time the page does not answer the
	// turn in time, the rest go pipelined, as before.
	turns := true
	for i := 0; i < len(calls); {
		n := 1
		if calls[i].method == cdpinput.CommandDispatchKeyEvent {
			n = 2 // its keyDown and keyUp
		}
		if !turns {
			n = len(calls) - i
		}
		if _, err := callInOrder(ctx, s, calls[i:i+n]); err != nil {
			return err
		}
		i += n
		if turns {
			ok, err := pageTurn(ctx, s)
			if err != nil {
				return err
			}
			turns = ok
		}
	}
	return nil
}

// pageTurnScript resolves once a message posted now is delivered: after
// the tasks the page posted before it (React's scheduler posts its work
// the same way).
const pageTurnScript = `new Promise(function (r) { var c = new MessageChannel(); c.port1.onmessage = function () { r(0); }; c.port2.postMessage(0); })`

// pageTurnTimeout bounds one wait for a page turn: a loaded machine's
// renderer can take a few frames of 100 ms each to deliver it, which must
// not count as a page that does not answer (its keys would go pipelined
// and be lost on the page this pace is for).
const pageTurnTimeout = 500 * time.Millisecond

// pageTurn waits until the page has run the tasks queued before it. false
// when it did not answer within pageTurnTimeout (a page busy in a script,
// or one that replaced MessageChannel); an error only when ctx ended.
func pageTurn(ctx context.Context, s cdproto.Session) (bool, error) {
	tctx, cancel := context.WithTimeout(ctx, pageTurnTimeout)
	defer cancel()
	yes := true
	_, err := cdproto.Call(tctx, s, cdpruntime.Evaluate, cdpruntime.EvaluateParams{Expression: pageTurnScript, AwaitPromise: &yes, Silent: &yes})
	if err != nil {
		if ctx.Err() != nil {
			return false, errs.FromContext(ctx, errs.OperationTimeout, "typing")
		}
		return false, nil
	}
	return true, nil
}

// InsertText inserts text at the focus as one input method commit
// (Input.insertText): plain fields and editing hosts take it as it is,
// with no key events.
func InsertText(ctx context.Context, s cdproto.Session, text string) error {
	_, err := cdproto.Call(ctx, s, cdpinput.InsertText, cdpinput.InsertTextParams{Text: text})
	return err
}
