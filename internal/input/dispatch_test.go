package input

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"

	"github.com/understudy-dev/understudy/internal/errs"
)

// call is one recorded CDP call with its params as they go on the wire.
type call struct {
	method string
	params map[string]any
}

// recorder is a cdp.Session that records calls; failAt > 0 makes the
// failAt-th call (1-based) and every later one fail.
type recorder struct {
	mu     sync.Mutex
	calls  []call
	failAt int
}

func (r *recorder) Call(ctx context.Context, method string, params, result any) error {
	b, err := jsonv2.Marshal(params)
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, call{method, m})
	if r.failAt > 0 && len(r.calls) >= r.failAt {
		return errs.New(errs.CDPDisconnected, "test failure")
	}
	return nil
}

func (r *recorder) Subscribe(string) (<-chan jsonv2.Value, func()) {
	ch := make(chan jsonv2.Value)
	return ch, func() {}
}

// summary is a short form of a key event: type key code modifiers [text].
func (c call) summary() string {
	p := c.params
	switch c.method {
	case "Input.dispatchKeyEvent":
		s := fmt.Sprintf("%v %v %v %v", p["type"], p["key"], p["code"], num(p["modifiers"]))
		if t, ok := p["text"]; ok {
			s += fmt.Sprintf(" %q", t)
		}
		return s
	case "Input.dispatchMouseEvent":
		return fmt.Sprintf("%v %v,%v %v b%v n%v m%v", p["type"], p["x"], p["y"], p["button"],
			num(p["buttons"]), num(p["clickCount"]), num(p["modifiers"]))
	case "Input.insertText":
		return fmt.Sprintf("insertText %q", p["text"])
	}
	return c.method
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

func summaries(r *recorder) []string {
	out := make([]string, len(r.calls))
	for i, c := range r.calls {
		out[i] = c.summary()
	}
	return out
}

func checkSeq(t *testing.T, r *recorder, want ...string) {
	t.Helper()
	got := summaries(r)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func mustChord(t *testing.T, s string) Chord {
	t.Helper()
	c, err := ParseChordFor(s, "linux")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPressChordEvents(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		chord string
		want  []string
	}{
		{"Control+Shift+P", []string{
			"rawKeyDown Control ControlLeft 2",
			"rawKeyDown Shift ShiftLeft 10",
			"rawKeyDown P KeyP 10",
			"keyUp P KeyP 10",
			"keyUp Shift ShiftLeft 2",
			"keyUp Control ControlLeft 0",
		}},
		{"Meta+K", []string{
			"rawKeyDown Meta MetaLeft 4",
			"rawKeyDown k KeyK 4",
			"keyUp k KeyK 4",
			"keyUp Meta MetaLeft 0",
		}},
		{"a", []string{`keyDown a KeyA 0 "a"`, "keyUp a KeyA 0"}},
		{"A", []string{`keyDown A KeyA 8 "A"`, "keyUp A KeyA 8"}},
		{"Shift+a", []string{
			"rawKeyDown Shift ShiftLeft 8",
			`keyDown A KeyA 8 "A"`,
			"keyUp A KeyA 8",
			"keyUp Shift ShiftLeft 0",
		}},
		{"Shift+1", []string{
			"rawKeyDown Shift ShiftLeft 8",
			`keyDown ! Digit1 8 "!"`,
			"keyUp ! Digit1 8",
			"keyUp Shift ShiftLeft 0",
		}},
		{"Control+A", []string{
			"rawKeyDown Control ControlLeft 2",
			"rawKeyDown a KeyA 2",
			"keyUp a KeyA 2",
			"keyUp Control ControlLeft 0",
		}},
		{"Enter", []string{`keyDown Enter Enter 0 "\r"`, "keyUp Enter Enter 0"}},
		{"Shift+Tab", []string{
			"rawKeyDown Shift ShiftLeft 8",
			"rawKeyDown Tab Tab 8",
			"keyUp Tab Tab 8",
			"keyUp Shift ShiftLeft 0",
		}},
		{"Control++", []string{
			"rawKeyDown Control ControlLeft 2",
			"rawKeyDown + Equal 10",
			"keyUp + Equal 10",
			"keyUp Control ControlLeft 0",
		}},
		{"Control+!", []string{
			"rawKeyDown Control ControlLeft 2",
			"rawKeyDown ! Digit1 10",
			"keyUp ! Digit1 10",
			"keyUp Control ControlLeft 0",
		}},
		{"Alt+ArrowLeft", []string{
			"rawKeyDown Alt AltLeft 1",
			"rawKeyDown ArrowLeft ArrowLeft 1",
			"keyUp ArrowLeft ArrowLeft 1",
			"keyUp Alt AltLeft 0",
		}},
		{"Shift", []string{"rawKeyDown Shift ShiftLeft 8", "keyUp Shift ShiftLeft 0"}},
		{"Control+Shift", []string{
			"rawKeyDown Control ControlLeft 2",
			"rawKeyDown Shift ShiftLeft 10",
			"keyUp Shift ShiftLeft 2",
			"keyUp Control ControlLeft 0",
		}},
		{"Space", []string{`keyDown   Space 0 " "`, "keyUp   Space 0"}},
		{"Backspace", []string{"rawKeyDown Backspace Backspace 0", "keyUp Backspace Backspace 0"}},
	}
	for _, tc := range cases {
		t.Run(tc.chord, func(t *testing.T) {
			r := &recorder{}
			if err := PressChord(ctx, r, mustChord(t, tc.chord)); err != nil {
				t.Fatal(err)
			}
			checkSeq(t, r, tc.want...)
		})
	}
}

func TestKeyEventWireFields(t *testing.T) {
	r := &recorder{}
	if err := PressChord(context.Background(), r, mustChord(t, "Control+Numpad1")); err != nil {
		t.Fatal(err)
	}
	mod, key := r.calls[0].params, r.calls[1].params
	want := map[string]any{
		"type": "rawKeyDown", "key": "1", "code": "Numpad1", "windowsVirtualKeyCode": 97.0,
		"nativeVirtualKeyCode": 97.0, "location": 3.0, "autoRepeat": false, "isKeypad": true,
		"modifiers": 2.0,
	}
	for k, v := range want {
		if key[k] != v {
			t.Errorf("%s = %v, want %v (all: %v)", k, key[k], v, key)
		}
	}
	if mod["location"] != 1.0 || mod["autoRepeat"] != false || mod["windowsVirtualKeyCode"] != 17.0 {
		t.Errorf("modifier event %v", mod)
	}
	r = &recorder{}
	if err := TypeText(context.Background(), r, "q"); err != nil {
		t.Fatal(err)
	}
	if p := r.calls[0].params; p["text"] != "q" || p["unmodifiedText"] != "q" || p["type"] != "keyDown" {
		t.Errorf("typed q: %v", p)
	}
}

func TestKeyDownUp(t *testing.T) {
	ctx := context.Background()
	r := &recorder{}
	c := mustChord(t, "Control+Shift+p")
	if err := KeyDown(ctx, r, c); err != nil {
		t.Fatal(err)
	}
	if err := KeyUp(ctx, r, c); err != nil {
		t.Fatal(err)
	}
	all := &recorder{}
	if err := PressChord(ctx, all, c); err != nil {
		t.Fatal(err)
	}
	checkSeq(t, r, summaries(all)...)
}

func TestKeyDownFailureReleases(t *testing.T) {
	r := &recorder{failAt: 3} // the P keyDown fails
	err := KeyDown(context.Background(), r, mustChord(t, "Control+Shift+P"))
	if errs.CodeOf(err) != errs.CDPDisconnected {
		t.Fatalf("err = %v", err)
	}
	got := summaries(r)
	want := []string{
		"rawKeyDown Control ControlLeft 2",
		"rawKeyDown Shift ShiftLeft 10",
		"rawKeyDown P KeyP 10",
		"keyUp Shift ShiftLeft 2",
		"keyUp Control ControlLeft 0",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("events %q, want %q", got, want)
	}
}

func TestChordValidation(t *testing.T) {
	ctx := context.Background()
	for _, c := range []Chord{{}, {Modifiers: 16, Key: "a"}, {Modifiers: -1, Key: "a"}, {Key: "Nope"}} {
		err := PressChord(ctx, &recorder{}, c)
		if e := errs.As(err); e == nil || e.Code != errs.BadArgument {
			t.Errorf("PressChord(%+v) = %v, want BAD_ARGUMENT", c, err)
		}
	}
	// A spelling that is not canonical still works.
	r := &recorder{}
	if err := PressChord(ctx, r, Chord{Key: "Esc"}); err != nil {
		t.Fatal(err)
	}
	checkSeq(t, r, "rawKeyDown Escape Escape 0", "keyUp Escape Escape 0")
	r = &recorder{}
	if err := PressChord(ctx, r, Chord{Modifiers: ModMeta, Key: "K"}); err != nil {
		t.Fatal(err)
	}
	checkSeq(t, r, "rawKeyDown Meta MetaLeft 4", "rawKeyDown k KeyK 4", "keyUp k KeyK 4", "keyUp Meta MetaLeft 0")
}

func TestTypeTextEvents(t *testing.T) {
	r := &recorder{}
	if err := TypeText(context.Background(), r, "Hi!\n é😀中x\r\n\t"); err != nil {
		t.Fatal(err)
	}
	// Each stroke or insertion, then a page turn (Runtime.evaluate): the
	// page runs what it scheduled before the next key.
	const turn = "Runtime.evaluate"
	checkSeq(t, r,
		`keyDown H KeyH 8 "H"`, "keyUp H KeyH 8", turn,
		`keyDown i KeyI 0 "i"`, "keyUp i KeyI 0", turn,
		`keyDown ! Digit1 8 "!"`, "keyUp ! Digit1 8", turn,
		`keyDown Enter Enter 0 "\r"`, "keyUp Enter Enter 0", turn,
		`keyDown   Space 0 " "`, "keyUp   Space 0", turn,
		`insertText "é😀中"`, turn,
		`keyDown x KeyX 0 "x"`, "keyUp x KeyX 0", turn,
		`keyDown Enter Enter 0 "\r"`, "keyUp Enter Enter 0", turn,
		"rawKeyDown Tab Tab 0", "keyUp Tab Tab 0", turn,
	)
	if err := TypeText(context.Background(), &recorder{}, "bad \xff"); errs.CodeOf(err) != errs.BadArgument {
		t.Fatalf("invalid UTF-8: %v", err)
	}
	r = &recorder{}
	if err := TypeText(context.Background(), r, ""); err != nil || len(r.calls) != 0 {
		t.Fatalf("empty text: %v, %d calls", err, len(r.calls))
	}
	r = &recorder{}
	if err := TypeText(context.Background(), r, "ünïcödé"); err != nil {
		t.Fatal(err)
	}
	checkSeq(t, r, `insertText "ü"`, turn, `keyDown n KeyN 0 "n"`, "keyUp n KeyN 0", turn,
		`insertText "ï"`, turn, `keyDown c KeyC 0 "c"`, "keyUp c KeyC 0", turn,
		`insertText "ö"`, turn, `keyDown d KeyD 0 "d"`, "keyUp d KeyD 0", turn, `insertText "é"`, turn)
}

func TestClickEvents(t *testing.T) {
	ctx := context.Background()
	r := &recorder{}
	if err := Click(ctx, r, 10, 20.5, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	checkSeq(t, r,
		"mouseMoved 10,20.5 none b0 n0 m0",
		"mousePressed 10,20.5 left b1 n1 m0",
		"mouseReleased 10,20.5 left b0 n1 m0",
	)
	r = &recorder{}
	if err := Click(ctx, r, 1, 2, ClickOptions{Button: "right", ClickCount: 2, Modifiers: ModShift}); err != nil {
		t.Fatal(err)
	}
	checkSeq(t, r,
		"mouseMoved 1,2 none b0 n0 m8",
		"mousePressed 1,2 right b2 n1 m8",
		"mouseReleased 1,2 right b0 n1 m8",
		"mousePressed 1,2 right b2 n2 m8",
		"mouseReleased 1,2 right b0 n2 m8",
	)
	r = &recorder{}
	if err := MouseDown(ctx, r, 3, 4, ClickOptions{Button: "Middle"}); err != nil {
		t.Fatal(err)
	}
	if err := MouseUp(ctx, r, 5, 6, ClickOptions{Button: "middle"}); err != nil {
		t.Fatal(err)
	}
	if err := Move(ctx, r, 7, 8, ModAlt); err != nil {
		t.Fatal(err)
	}
	checkSeq(t, r,
		"mousePressed 3,4 middle b4 n1 m0",
		"mouseReleased 5,6 middle b0 n1 m0",
		"mouseMoved 7,8 none b0 n0 m1",
	)
}

func TestMouseValidation(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name  string
		field string
		run   func(r *recorder) error
	}{
		{"button", "button", func(r *recorder) error { return Click(ctx, r, 1, 1, ClickOptions{Button: "back"}) }},
		{"clickCount 4", "clickCount", func(r *recorder) error { return Click(ctx, r, 1, 1, ClickOptions{ClickCount: 4}) }},
		{"clickCount -1", "clickCount", func(r *recorder) error { return Click(ctx, r, 1, 1, ClickOptions{ClickCount: -1}) }},
		{"modifiers", "modifiers", func(r *recorder) error { return Click(ctx, r, 1, 1, ClickOptions{Modifiers: 32}) }},
		{"NaN", "x", func(r *recorder) error { return Click(ctx, r, math.NaN(), 1, ClickOptions{}) }},
		{"Inf move", "x", func(r *recorder) error { return Move(ctx, r, 1, math.Inf(1), 0) }},
		{"move modifiers", "modifiers", func(r *recorder) error { return Move(ctx, r, 1, 1, -2) }},
		{"down button", "button", func(r *recorder) error { return MouseDown(ctx, r, 1, 1, ClickOptions{Button: "x"}) }},
		{"up button", "button", func(r *recorder) error { return MouseUp(ctx, r, 1, 1, ClickOptions{Button: "x"}) }},
		{"wheel delta", "dx", func(r *recorder) error { return Wheel(ctx, r, 1, 1, math.NaN(), 0) }},
		{"wheel point", "x", func(r *recorder) error { return Wheel(ctx, r, math.Inf(-1), 1, 0, 1) }},
		{"drag steps", "steps", func(r *recorder) error { return Drag(ctx, r, Point{}, Point{1, 1}, -1) }},
		{"drag steps max", "steps", func(r *recorder) error { return Drag(ctx, r, Point{}, Point{1, 1}, 1001) }},
		{"drag from", "from", func(r *recorder) error { return Drag(ctx, r, Point{math.NaN(), 0}, Point{1, 1}, 1) }},
		{"drag to", "to", func(r *recorder) error { return Drag(ctx, r, Point{}, Point{1, math.NaN()}, 1) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{}
			err := tc.run(r)
			e := errs.As(err)
			if e == nil || e.Code != errs.BadArgument || e.Details["field"] != tc.field {
				t.Fatalf("err = %v, want BAD_ARGUMENT on %s", err, tc.field)
			}
			if len(r.calls) != 0 {
				t.Fatalf("sent %d events before validating", len(r.calls))
			}
		})
	}
}

func TestWheelSendsZeroDeltas(t *testing.T) {
	r := &recorder{}
	if err := Wheel(context.Background(), r, 5, 6, 0, 120); err != nil {
		t.Fatal(err)
	}
	p := r.calls[0].params
	if r.calls[0].method != "Input.dispatchMouseEvent" || p["type"] != "mouseWheel" ||
		p["deltaX"] != 0.0 || p["deltaY"] != 120.0 || p["x"] != 5.0 || p["y"] != 6.0 {
		t.Fatalf("wheel call %s %v", r.calls[0].method, p)
	}
	if _, ok := p["deltaX"]; !ok {
		t.Fatal("deltaX omitted")
	}
}

func TestDragEvents(t *testing.T) {
	r := &recorder{}
	if err := Drag(context.Background(), r, Point{10, 10}, Point{50, 30}, 4); err != nil {
		t.Fatal(err)
	}
	checkSeq(t, r,
		"mouseMoved 10,10 none b0 n0 m0",
		"mousePressed 10,10 left b1 n1 m0",
		"mouseMoved 20,15 left b1 n0 m0",
		"mouseMoved 30,20 left b1 n0 m0",
		"mouseMoved 40,25 left b1 n0 m0",
		"mouseMoved 50,30 left b1 n0 m0",
		"mouseReleased 50,30 left b0 n1 m0",
	)
	r = &recorder{}
	if err := Drag(context.Background(), r, Point{0, 0}, Point{100, 0}, 0); err != nil {
		t.Fatal(err)
	}
	if len(r.calls) != 3+DefaultDragSteps {
		t.Fatalf("default steps: %d calls", len(r.calls))
	}
}

func TestDragFailureReleases(t *testing.T) {
	r := &recorder{failAt: 4} // the second move fails
	err := Drag(context.Background(), r, Point{0, 0}, Point{40, 0}, 4)
	if errs.CodeOf(err) != errs.CDPDisconnected {
		t.Fatalf("err = %v", err)
	}
	last := r.calls[len(r.calls)-1].summary()
	if last != "mouseReleased 10,0 left b0 n1 m0" {
		t.Fatalf("last event %q, want a release at the last point reached", last)
	}
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := ctxSession{}
	if err := Click(ctx, s, 1, 1, ClickOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Click: %v", err)
	}
	if err := TypeText(ctx, s, "é"); !errors.Is(err, context.Canceled) {
		t.Fatalf("TypeText: %v", err)
	}
}

// ctxSession fails every call whose context has ended.
type ctxSession struct{}

func (ctxSession) Call(ctx context.Context, _ string, _, _ any) error { return ctx.Err() }
func (ctxSession) Subscribe(string) (<-chan jsonv2.Value, func()) {
	return make(chan jsonv2.Value), func() {}
}

// stuckTurns is a page that never answers a page turn (busy in a script).
type stuckTurns struct{ recorder }

func (r *stuckTurns) Call(ctx context.Context, method string, params, result any) error {
	if method == "Runtime.evaluate" {
		r.mu.Lock()
		r.calls = append(r.calls, call{method, nil})
		r.mu.Unlock()
		<-ctx.Done()
		return ctx.Err()
	}
	return r.recorder.Call(ctx, method, params, result)
}

// TestTypeTextPageThatDoesNotTurn: a page that does not answer the turn
// costs one pageTurnTimeout; the rest of the keys go without waiting.
func TestTypeTextPageThatDoesNotTurn(t *testing.T) {
	r := &stuckTurns{}
	start := time.Now()
	if err := TypeText(context.Background(), r, "abc"); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 3*pageTurnTimeout {
		t.Fatalf("typing took %v", took)
	}
	checkSeq(t, &r.recorder, `keyDown a KeyA 0 "a"`, "keyUp a KeyA 0", "Runtime.evaluate",
		`keyDown b KeyB 0 "b"`, "keyUp b KeyB 0", `keyDown c KeyC 0 "c"`, "keyUp c KeyC 0")
}
