// Package input sends real mouse and keyboard events over CDP's Input domain
// and parses key chords. [ParseChord] reads chords such as
// "Control+Shift+P", "Meta+K", "Control++" or "ControlOrMeta+S" into a
// [Chord]; [Lookup] is the US keyboard layout (DOM key and code, Windows
// virtual key code, text, location, the Shift variant). [PressChord],
// [KeyDown]/[KeyUp] and [TypeText] dispatch Input.dispatchKeyEvent (and
// Input.insertText for characters no US key types); [Click], [Move],
// [MouseDown]/[MouseUp], [Wheel] and [Drag] dispatch Input.dispatchMouseEvent;
// [PlayDrag] plays a drag whose kind the page decides (an HTML drag through
// Input.setInterceptDrags and Input.dispatchDragEvent when the page starts
// one, else mouse moves), in paced steps ([DragSteps]).
// Every function takes cdproto's cdp.Session, which must be the input root of
// the surface (the page or webview target that hit-tests the point);
// coordinates are CSS pixels in that target's viewport, already offset by the
// caller for frames. The package keeps no state between calls: a caller that
// holds keys or buttons across calls releases them itself. Bad arguments are
// BAD_ARGUMENT errors that name the field.
package input
