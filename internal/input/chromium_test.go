//go:build linux

package input_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	cdproto "github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/input"
)

const chromiumPath = "/usr/lib/chromium/chromium"

// browser is a headless Chromium started for a test.
type browser struct {
	httpBase string // http://127.0.0.1:PORT
}

var devtoolsLine = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

// startChromium launches Chromium in its own process group and kills the
// group at cleanup.
func startChromium(tb testing.TB) *browser {
	tb.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		switch {
		case testing.Short():
			tb.Skipf("no Chromium at %s (short mode)", chromiumPath)
		case os.Getenv("CI") == "true":
			tb.Fatalf("no Chromium at %s: %v", chromiumPath, err)
		default:
			tb.Skipf("no Chromium at %s (CI is not true, so skipped): %v", chromiumPath, err)
		}
	}
	// Chromium's own temporary files go under dir too: after SIGKILL it
	// cannot remove them, and the test's cleanup then does.
	dir := tb.TempDir()
	profile, tmp := dir+"/profile", dir+"/tmp"
	for _, d := range []string{profile, tmp} {
		if err := os.Mkdir(d, 0o700); err != nil {
			tb.Fatal(err)
		}
	}
	cmd := exec.Command(chromiumPath,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+profile, "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
		"--window-size=1280,900", "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("starting Chromium: %v", err)
	}
	var tailMu sync.Mutex
	var tail []string
	found := make(chan string, 1)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if m := devtoolsLine.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
			tailMu.Lock()
			tail = append(tail, line)
			if len(tail) > 20 {
				tail = tail[1:]
			}
			tailMu.Unlock()
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	tb.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		<-drained
	})
	select {
	case ws := <-found:
		u, err := url.Parse(ws)
		if err != nil {
			tb.Fatalf("DevTools URL %q: %v", ws, err)
		}
		return &browser{httpBase: "http://" + u.Host}
	case <-drained:
	case <-time.After(30 * time.Second):
	}
	tailMu.Lock()
	defer tailMu.Unlock()
	tb.Fatalf("Chromium printed no DevTools URL; stderr tail:\n%s", strings.Join(tail, "\n"))
	return nil
}

// pageConn opens a new page target, dials it and loads html into it.
func (b *browser) pageConn(tb testing.TB, html string) *cdp.Conn {
	tb.Helper()
	req, err := http.NewRequest(http.MethodPut, b.httpBase+"/json/new?about:blank", nil)
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("/json/new: %v", err)
	}
	var target struct {
		ID  string `json:"id"`
		WS  string `json:"webSocketDebuggerUrl"`
		Typ string `json:"type"`
	}
	err = json.NewDecoder(resp.Body).Decode(&target)
	resp.Body.Close()
	if err != nil || target.WS == "" {
		tb.Fatalf("/json/new answered %+v, %v", target, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := cdp.Dial(ctx, target.WS, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		conn.Close()
		if r, err := http.Get(b.httpBase + "/json/close/" + target.ID); err == nil {
			r.Body.Close()
		}
	})
	if _, err := cdproto.Call(ctx, conn, emulation.SetFocusEmulationEnabled,
		emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		tb.Fatal(err)
	}
	dataURL := "data:text/html;base64," + base64.StdEncoding.EncodeToString([]byte(html))
	if _, err := cdproto.Call(ctx, conn, page.Navigate, page.NavigateParams{URL: dataURL}); err != nil {
		tb.Fatal(err)
	}
	waitFor(tb, conn, `document.readyState === "complete" && window.__ready === true`)
	return conn
}

// eval evaluates expr in the page and decodes its value into a T.
func eval[T any](tb testing.TB, s cdproto.Session, expr string) T {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cdproto.Call(ctx, s, runtime.Evaluate, runtime.EvaluateParams{
		Expression: expr, ReturnByValue: new(true), AwaitPromise: new(true),
	})
	if err != nil {
		tb.Fatalf("evaluating %s: %v", expr, err)
	}
	if res.ExceptionDetails != nil {
		desc := res.ExceptionDetails.Text
		if res.ExceptionDetails.Exception != nil {
			desc += " " + res.ExceptionDetails.Exception.Description
		}
		tb.Fatalf("evaluating %s: %s", expr, desc)
	}
	var v T
	if res.Result != nil && len(res.Result.Value) > 0 {
		if err := jsonv2.Unmarshal(res.Result.Value, &v); err != nil {
			tb.Fatalf("decoding the value of %s (%s): %v", expr, res.Result.Value, err)
		}
	}
	return v
}

// waitFor polls a boolean expression until it holds (10 s).
func waitFor(tb testing.TB, s cdproto.Session, expr string) {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !eval[bool](tb, s, "!!("+expr+")") {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out waiting for %s", expr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func ctx10(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

const testPage = `<!doctype html>
<html><head><style>
body { margin: 0; font: 16px sans-serif; }
#btn { position: absolute; left: 100px; top: 300px; width: 120px; height: 40px; }
#scroller { position: absolute; left: 400px; top: 300px; width: 200px; height: 150px; overflow: auto; }
#drag { position: absolute; left: 700px; top: 300px; width: 60px; height: 60px; background: teal; }
</style></head><body>
<form id="f">
  <input id="a" autocomplete="off">
  <input id="b" autocomplete="off">
  <textarea id="t"></textarea>
  <button id="submit" type="submit">Go</button>
</form>
<button id="btn">Click me</button>
<div id="scroller"><div style="width: 3000px; height: 3000px"></div></div>
<div id="drag"></div>
<ul id="dnd"><li id="dnd-a" draggable="true">A</li><li id="dnd-b">B</li></ul>
<script>
window.__keys = [];
window.__mouse = [];
window.__submits = 0;
for (const type of ["keydown", "keyup"]) {
  document.addEventListener(type, e => window.__keys.push({type, key: e.key, code: e.code,
    keyCode: e.keyCode, ctrlKey: e.ctrlKey, shiftKey: e.shiftKey, metaKey: e.metaKey,
    altKey: e.altKey, location: e.location, target: e.target.id || e.target.tagName}), true);
}
// Chromium's browser shortcuts act on key events the page leaves unhandled
// (Alt+ArrowLeft goes back, F5 reloads); a test that must stay on the page
// sets __preventKeys.
document.addEventListener("keydown", e => { if (window.__preventKeys) e.preventDefault(); });
document.getElementById("f").addEventListener("submit", e => { e.preventDefault(); window.__submits++; });
const btn = document.getElementById("btn");
window.__order = [];
for (const type of ["mouseover", "mousemove", "mousedown", "mouseup", "click"]) {
  btn.addEventListener(type, () => window.__order.push(type));
}
for (const type of ["mousedown", "mouseup", "click", "dblclick", "auxclick", "contextmenu"]) {
  btn.addEventListener(type, e => {
    window.__mouse.push({type, button: e.button, detail: e.detail, shiftKey: e.shiftKey});
    if (type === "contextmenu") e.preventDefault();
  });
}
const drag = document.getElementById("drag");
let grab = null;
window.__dragMoves = 0;
drag.addEventListener("mousedown", e => {
  const r = drag.getBoundingClientRect();
  grab = {dx: e.clientX - r.left, dy: e.clientY - r.top};
});
document.addEventListener("mousemove", e => {
  if (!grab || e.buttons !== 1) return;
  window.__dragMoves++;
  drag.style.left = (e.clientX - grab.dx) + "px";
  drag.style.top = (e.clientY - grab.dy) + "px";
});
document.addEventListener("mouseup", () => { grab = null; });
window.__dnd = [];
for (const type of ["dragstart", "dragenter", "dragover", "drop", "dragend"]) {
  document.getElementById("dnd").addEventListener(type, e => {
    window.__dnd.push(type + " " + e.target.id + " " + e.isTrusted);
    if (type === "dragstart") {
      if (window.__refuseDrag) e.preventDefault();
      e.dataTransfer.setData("text/plain", "payload");
    }
    if (type === "dragover" && e.target.id === "dnd-b") e.preventDefault();
    if (type === "drop") { e.preventDefault(); window.__dropped = e.dataTransfer.getData("text/plain"); }
  });
}
window.__center = id => {
  const r = document.getElementById(id).getBoundingClientRect();
  return {x: r.left + r.width / 2, y: r.top + r.height / 2};
};
window.__ready = true;
</script></body></html>`

type keyRec struct {
	Type     string `json:"type"`
	Key      string `json:"key"`
	Code     string `json:"code"`
	KeyCode  int    `json:"keyCode"`
	CtrlKey  bool   `json:"ctrlKey"`
	ShiftKey bool   `json:"shiftKey"`
	MetaKey  bool   `json:"metaKey"`
	AltKey   bool   `json:"altKey"`
	Location int    `json:"location"`
	Target   string `json:"target"`
}

type mouseRec struct {
	Type     string `json:"type"`
	Button   int    `json:"button"`
	Detail   int    `json:"detail"`
	ShiftKey bool   `json:"shiftKey"`
}

func center(t testing.TB, s cdproto.Session, id string) input.Point {
	return eval[input.Point](t, s, fmt.Sprintf("(c => ({X: c.x, Y: c.y}))(window.__center(%q))", id))
}

func focus(t *testing.T, s cdproto.Session, id string) {
	t.Helper()
	eval[any](t, s, fmt.Sprintf("document.getElementById(%q).focus(); window.__keys.length = 0", id))
	if got := eval[string](t, s, "document.activeElement.id"); got != id {
		t.Fatalf("focus went to %q, not %q", got, id)
	}
}

func press(t *testing.T, s cdproto.Session, chord string) {
	t.Helper()
	c, err := input.ParseChordFor(chord, "linux")
	if err != nil {
		t.Fatal(err)
	}
	if err := input.PressChord(ctx10(t), s, c); err != nil {
		t.Fatalf("PressChord(%s): %v", chord, err)
	}
}

func keydowns(t *testing.T, s cdproto.Session) []keyRec {
	var out []keyRec
	for _, k := range eval[[]keyRec](t, s, "window.__keys") {
		if k.Type == "keydown" {
			out = append(out, k)
		}
	}
	return out
}

func TestChromium(t *testing.T) {
	b := startChromium(t)

	t.Run("TypeText", func(t *testing.T) {
		s := b.pageConn(t, testPage)
		focus(t, s, "a")
		const text = "Hello, World! é"
		if err := input.TypeText(ctx10(t), s, text); err != nil {
			t.Fatal(err)
		}
		if got := eval[string](t, s, `document.getElementById("a").value`); got != text {
			t.Fatalf("value %q, want %q", got, text)
		}
		downs := keydowns(t, s)
		if len(downs) != len("Hello, World! ") { // é comes by insertText, with no key event
			t.Fatalf("%d keydowns: %+v", len(downs), downs)
		}
		if h := downs[0]; h.Key != "H" || h.Code != "KeyH" || h.KeyCode != 72 || !h.ShiftKey {
			t.Fatalf("H arrived as %+v", h)
		}
		if e := downs[1]; e.Key != "e" || e.ShiftKey {
			t.Fatalf("e arrived as %+v", e)
		}
		if bang := downs[12]; bang.Key != "!" || bang.Code != "Digit1" || !bang.ShiftKey {
			t.Fatalf("! arrived as %+v", bang)
		}

		focus(t, s, "t")
		if err := input.TypeText(ctx10(t), s, "line 1\nline 2 😀 中文"); err != nil {
			t.Fatal(err)
		}
		if got := eval[string](t, s, `document.getElementById("t").value`); got != "line 1\nline 2 😀 中文" {
			t.Fatalf("textarea value %q", got)
		}
	})

	t.Run("Chords", func(t *testing.T) {
		s := b.pageConn(t, testPage)
		focus(t, s, "a")
		eval[any](t, s, "window.__preventKeys = true")
		press(t, s, "Control+Shift+P")
		press(t, s, "Meta+K")
		press(t, s, "Alt+ArrowLeft")
		press(t, s, "Control++")
		press(t, s, "F5")
		downs := keydowns(t, s)
		want := []keyRec{
			{Type: "keydown", Key: "Control", Code: "ControlLeft", KeyCode: 17, CtrlKey: true, Location: 1, Target: "a"},
			{Type: "keydown", Key: "Shift", Code: "ShiftLeft", KeyCode: 16, CtrlKey: true, ShiftKey: true, Location: 1, Target: "a"},
			{Type: "keydown", Key: "P", Code: "KeyP", KeyCode: 80, CtrlKey: true, ShiftKey: true, Target: "a"},
			{Type: "keydown", Key: "Meta", Code: "MetaLeft", KeyCode: 91, MetaKey: true, Location: 1, Target: "a"},
			{Type: "keydown", Key: "k", Code: "KeyK", KeyCode: 75, MetaKey: true, Target: "a"},
			{Type: "keydown", Key: "Alt", Code: "AltLeft", KeyCode: 18, AltKey: true, Location: 1, Target: "a"},
			{Type: "keydown", Key: "ArrowLeft", Code: "ArrowLeft", KeyCode: 37, AltKey: true, Target: "a"},
			{Type: "keydown", Key: "Control", Code: "ControlLeft", KeyCode: 17, CtrlKey: true, Location: 1, Target: "a"},
			{Type: "keydown", Key: "+", Code: "Equal", KeyCode: 187, CtrlKey: true, ShiftKey: true, Target: "a"},
			{Type: "keydown", Key: "F5", Code: "F5", KeyCode: 116, Target: "a"},
		}
		if !slices.Equal(downs, want) {
			t.Fatalf("keydowns:\n%+v\nwant:\n%+v", downs, want)
		}
		ups := eval[[]keyRec](t, s, `window.__keys.filter(k => k.type === "keyup")`)
		if len(ups) != len(want) {
			t.Fatalf("%d keyups for %d keydowns", len(ups), len(want))
		}
		if u := ups[2]; u.Key != "Control" || u.CtrlKey || u.ShiftKey { // Ctrl+Shift+P: P, Shift, Control
			t.Fatalf("last keyup of Control+Shift+P: %+v", u)
		}
		if got := eval[string](t, s, `document.getElementById("a").value`); got != "" {
			t.Fatalf("chords typed %q", got)
		}
	})

	t.Run("EditingKeys", func(t *testing.T) {
		s := b.pageConn(t, testPage)
		focus(t, s, "a")
		if err := input.TypeText(ctx10(t), s, "abcd"); err != nil {
			t.Fatal(err)
		}
		press(t, s, "Backspace")
		if got := eval[string](t, s, `document.getElementById("a").value`); got != "abc" {
			t.Fatalf("after Backspace: %q", got)
		}
		press(t, s, "ArrowLeft")
		press(t, s, "ArrowLeft")
		press(t, s, "Delete")
		if got := eval[string](t, s, `document.getElementById("a").value`); got != "ac" {
			t.Fatalf("after ArrowLeft ArrowLeft Delete: %q", got)
		}
		press(t, s, "Home")
		press(t, s, "A")
		press(t, s, "Shift+1")
		if got := eval[string](t, s, `document.getElementById("a").value`); got != "A!ac" {
			t.Fatalf("after Home A Shift+1: %q", got)
		}
		press(t, s, "Control+a")
		press(t, s, "Backspace")
		if got := eval[string](t, s, `document.getElementById("a").value`); got != "" {
			t.Fatalf("after Control+a Backspace: %q", got)
		}
	})

	t.Run("ShiftTab", func(t *testing.T) {
		s := b.pageConn(t, testPage)
		focus(t, s, "b")
		press(t, s, "Shift+Tab")
		if got := eval[string](t, s, "document.activeElement.id"); got != "a" {
			t.Fatalf("Shift+Tab from b focused %q, want a", got)
		}
		press(t, s, "Tab")
		press(t, s, "Tab")
		if got := eval[string](t, s, "document.activeElement.id"); got != "t" {
			t.Fatalf("Tab Tab from a focused %q, want t", got)
		}
	})

	t.Run("EnterSubmits", func(t *testing.T) {
		s := b.pageConn(t, testPage)
		focus(t, s, "a")
		if err := input.TypeText(ctx10(t), s, "x"); err != nil {
			t.Fatal(err)
		}
		press(t, s, "Enter")
		waitFor(t, s, "window.__submits === 1")
		// Typing "\n" in an input is Enter too.
		if err := input.TypeText(ctx10(t), s, "\n"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, s, "window.__submits === 2")
		// In a textarea Enter is a new line, not a submit.
		focus(t, s, "t")
		press(t, s, "Enter")
		if got := eval[string](t, s, `document.getElementById("t").value`); got != "\n" {
			t.Fatalf("textarea after Enter: %q", got)
		}
		if n := eval[int](t, s, "window.__submits"); n != 2 {
			t.Fatalf("%d submits", n)
		}
	})

	t.Run("Click", func(t *testing.T) {
		s := b.pageConn(t, testPage)
		p := center(t, s, "btn")
		reset := func() { eval[any](t, s, "window.__mouse.length = 0") }
		got := func() []mouseRec { return eval[[]mouseRec](t, s, "window.__mouse") }

		if err := input.Click(ctx10(t), s, p.X, p.Y, input.ClickOptions{}); err != nil {
			t.Fatal(err)
		}
		want := []mouseRec{{"mousedown", 0, 1, false}, {"mouseup", 0, 1, false}, {"click", 0, 1, false}}
		if g := got(); !slices.Equal(g, want) {
			t.Fatalf("left click: %+v, want %+v", g, want)
		}

		reset()
		if err := input.Click(ctx10(t), s, p.X, p.Y, input.ClickOptions{ClickCount: 2, Modifiers: input.ModShift}); err != nil {
			t.Fatal(err)
		}
		want = []mouseRec{
			{"mousedown", 0, 1, true}, {"mouseup", 0, 1, true}, {"click", 0, 1, true},
			{"mousedown", 0, 2, true}, {"mouseup", 0, 2, true}, {"click", 0, 2, true},
			{"dblclick", 0, 2, true},
		}
		if g := got(); !slices.Equal(g, want) {
			t.Fatalf("double click: %+v, want %+v", g, want)
		}

		reset()
		if err := input.Click(ctx10(t), s, p.X, p.Y, input.ClickOptions{Button: "right"}); err != nil {
			t.Fatal(err)
		}
		g := got()
		types := make([]string, len(g))
		for i, m := range g {
			types[i] = m.Type
			if m.Button != 2 {
				t.Fatalf("right click arrived with button %d: %+v", m.Button, g)
			}
		}
		if !slices.Contains(types, "contextmenu") || !slices.Contains(types, "auxclick") || slices.Contains(types, "click") {
			t.Fatalf("right click events %v", types)
		}

		reset()
		if err := input.Click(ctx10(t), s, p.X, p.Y, input.ClickOptions{Button: "middle"}); err != nil {
			t.Fatal(err)
		}
		g = got()
		if len(g) == 0 || g[0].Type != "mousedown" || g[0].Button != 1 || g[len(g)-1].Type != "auxclick" {
			t.Fatalf("middle click events %+v", g)
		}

		// The move of a click is pipelined with the press and release
		// (dispatchInOrder): the page still sees it first, and a click in
		// place sends no move at all.
		if err := input.Move(ctx10(t), s, 1, 1, 0); err != nil {
			t.Fatal(err)
		}
		eval[any](t, s, "window.__order.length = 0")
		if err := input.Click(ctx10(t), s, p.X, p.Y, input.ClickOptions{}); err != nil {
			t.Fatal(err)
		}
		if g := eval[[]string](t, s, "window.__order"); !slices.Equal(g, []string{"mouseover", "mousemove", "mousedown", "mouseup", "click"}) {
			t.Fatalf("a click from elsewhere: %v, want mouseover mousemove mousedown mouseup click", g)
		}
		eval[any](t, s, "window.__order.length = 0")
		if err := input.ClickInPlace(ctx10(t), s, p.X, p.Y, input.ClickOptions{}); err != nil {
			t.Fatal(err)
		}
		if g := eval[[]string](t, s, "window.__order"); !slices.Equal(g, []string{"mousedown", "mouseup", "click"}) {
			t.Fatalf("a click in place: %v, want mousedown mouseup click", g)
		}

		// A click beside the button does not reach it.
		reset()
		if err := input.Click(ctx10(t), s, p.X, p.Y+60, input.ClickOptions{}); err != nil {
			t.Fatal(err)
		}
		if g := got(); len(g) != 0 {
			t.Fatalf("a click beside the button reached it: %+v", g)
		}
	})

	t.Run("HTML5Drag", func(t *testing.T) {
		s := b.pageConn(t, testPage)
		from, to := center(t, s, "dnd-a"), center(t, s, "dnd-b")
		started, err := input.HTML5Drag(ctx10(t), s, from, to, nil)
		if err != nil || !started {
			t.Fatalf("drag: started %v, %v", started, err)
		}
		got := eval[[]string](t, s, "window.__dnd.filter(x => !x.startsWith('dragover'))")
		want := []string{"dragstart dnd-a true", "dragenter dnd-b true", "drop dnd-b true", "dragend dnd-a true"}
		if !slices.Equal(got, want) || eval[string](t, s, "window.__dropped") != "payload" {
			t.Fatalf("drag events %v (want %v), dropped %q", got, want, eval[string](t, s, "window.__dropped"))
		}

		// The page cancels dragstart: Chromium hands nothing over (the wait
		// ends after its bound, as no startedYet says sooner), no error, and
		// the button is released (a click afterwards is a plain click).
		eval[any](t, s, "window.__refuseDrag = true; window.__dnd.length = 0; window.__mouse.length = 0")
		t0 := time.Now()
		started, err = input.HTML5Drag(ctx10(t), s, from, to, nil)
		if err != nil || started || time.Since(t0) < time.Second {
			t.Fatalf("refused drag: started %v after %v, %v", started, time.Since(t0), err)
		}
		if g := eval[[]string](t, s, "window.__dnd"); !slices.Equal(g, []string{"dragstart dnd-a true"}) {
			t.Fatalf("refused drag events %v", g)
		}
		p := center(t, s, "btn")
		if err := input.Click(ctx10(t), s, p.X, p.Y, input.ClickOptions{}); err != nil {
			t.Fatal(err)
		}
		if g := eval[[]mouseRec](t, s, "window.__mouse"); len(g) != 3 || g[2].Type != "click" {
			t.Fatalf("a click after a refused drag: %+v", g)
		}
	})

	t.Run("Wheel", func(t *testing.T) {
		s := b.pageConn(t, testPage)
		p := center(t, s, "scroller")
		if err := input.Wheel(ctx10(t), s, p.X, p.Y, 0, 300); err != nil {
			t.Fatal(err)
		}
		waitFor(t, s, `document.getElementById("scroller").scrollTop >= 300`)
		if err := input.Wheel(ctx10(t), s, p.X, p.Y, 120, 0); err != nil {
			t.Fatal(err)
		}
		waitFor(t, s, `document.getElementById("scroller").scrollLeft >= 120`)
		if y := eval[float64](t, s, "window.scrollY"); y != 0 {
			t.Fatalf("the page scrolled too: scrollY %v", y)
		}
	})

	t.Run("PlayDrag", func(t *testing.T) {
		// An HTML drag: the page's dragstart makes it one; dragover comes
		// at every step, and the drop on the target.
		s := b.pageConn(t, testPage)
		eval[any](t, s, "window.__refuseDrag = false; window.__dnd.length = 0")
		from, to := center(t, s, "dnd-a"), center(t, s, "dnd-b")
		out, err := input.PlayDrag(ctx10(t), s, input.DragPlan{From: from, To: to, Steps: 5})
		if err != nil || out.Mode != input.ModeHTML5 || !out.Handed {
			t.Fatalf("html drag: %+v, %v", out, err)
		}
		got := eval[[]string](t, s, "window.__dnd")
		if len(got) < 5 || got[0] != "dragstart dnd-a true" || got[len(got)-2] != "drop dnd-b true" || got[len(got)-1] != "dragend dnd-a true" ||
			eval[int](t, s, "window.__dnd.filter(x => x.startsWith('dragover')).length") < 5 || eval[string](t, s, "window.__dropped") != "payload" {
			t.Fatalf("html drag events %v", got)
		}
		// A pointer drag: nothing draggable under the press.
		from = center(t, s, "drag")
		to = input.Point{X: from.X + 120, Y: from.Y + 90}
		eval[any](t, s, "window.__dragMoves = 0")
		out, err = input.PlayDrag(ctx10(t), s, input.DragPlan{From: from, To: to, Steps: 6})
		if err != nil || out.Mode != input.ModePointer {
			t.Fatalf("pointer drag: %+v, %v", out, err)
		}
		if got := center(t, s, "drag"); got != to {
			t.Fatalf("element centre %+v after the drag, want %+v", got, to)
		}
		// Every held step reaches the page (the two moves past the
		// threshold go together and may be coalesced into one).
		if n := eval[int](t, s, "window.__dragMoves"); n < 7 || n > 8 {
			t.Fatalf("%d mousemoves with the button held, want the 6 steps and the 1 or 2 past the threshold", n)
		}
	})

	t.Run("Drag", func(t *testing.T) {
		s := b.pageConn(t, testPage)
		from := center(t, s, "drag")
		to := input.Point{X: from.X + 200, Y: from.Y + 150}
		if err := input.Drag(ctx10(t), s, from, to, 5); err != nil {
			t.Fatal(err)
		}
		got := center(t, s, "drag")
		if got != to {
			t.Fatalf("element centre %+v after the drag, want %+v", got, to)
		}
		if n := eval[int](t, s, "window.__dragMoves"); n != 5 {
			t.Fatalf("%d mousemoves with the button held, want 5", n)
		}
		// The button is up: moving further does not drag.
		if err := input.Move(ctx10(t), s, to.X+50, to.Y+50, 0); err != nil {
			t.Fatal(err)
		}
		if got := center(t, s, "drag"); got != to {
			t.Fatalf("element followed a move after the release: %+v", got)
		}
	})
}

func BenchmarkClick(b *testing.B) {
	br := startChromium(b)
	s := br.pageConn(b, testPage)
	p := center(b, s, "btn")
	ctx := context.Background()
	eval[any](b, s, "window.__mouse.length = 0")
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if err := input.Click(ctx, s, p.X, p.Y, input.ClickOptions{}); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "median-µs/click")
	clicks := eval[int](b, s, `window.__mouse.filter(m => m.type === "click").length`)
	if clicks != len(times) {
		b.Fatalf("%d clicks arrived for %d dispatched", clicks, len(times))
	}
}

// BenchmarkTypeText: input.TypeText of 100 characters (letters, digits,
// spaces, punctuation and one character with no key) into a text field;
// the field must hold exactly the text afterwards.
func BenchmarkTypeText(b *testing.B) {
	br := startChromium(b)
	s := br.pageConn(b, testPage)
	ctx := context.Background()
	text := strings.Repeat("Hello, world 42! ", 5) + "abcdefghijklmn" + "ü"
	text = text[:len(text)-len("ü")-(len([]rune(text))-100)] + "ü"
	times := make([]time.Duration, 0, b.N)
	for b.Loop() {
		eval[any](b, s, `(() => { const t = document.getElementById("t"); t.value = ""; t.focus(); return true })()`)
		start := time.Now()
		if err := input.TypeText(ctx, s, text); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		if got := eval[string](b, s, `document.getElementById("t").value`); got != text {
			b.Fatalf("the field holds %q, want %q", got, text)
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median/100-chars")
}
