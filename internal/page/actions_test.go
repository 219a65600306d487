package page

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
)

// actionsTab opens actions.html in front (headless Chromium renders, and
// runs animation frames for, the front tab only) with a few more cases.
func actionsTab(t *testing.T) (*Store, *tab, Frame) {
	t.Helper()
	srv := fixtureServer(t)
	tb := openTab(t, srv.URL("a.test", "/actions.html"))
	if err := tb.conn.Call(ctxT(t), "Page.bringToFront", nil, nil); err != nil {
		t.Fatal(err)
	}
	tb.eval(t, `(() => {
		const add = html => { const d = document.createElement('div'); d.innerHTML = html; document.body.prepend(d); };
		add('<button id="aria" aria-disabled="true">Aria disabled</button>');
		add('<div aria-disabled="true"><span id="in-aria" role="button" tabindex="0">In aria</span></div>');
		add('<div style="display:none"><button id="in-none">In none</button></div>');
		add('<button id="vh" style="visibility:hidden">Hidden</button>');
		add('<button id="flat" style="width:0;height:0;padding:0;border:0;overflow:hidden">Flat</button>');
		add('<input id="ro" readonly value="fixed">');
		return true })()`, nil)
	return NewStore(), tb, tb.frame("actions")
}

func TestActChecks(t *testing.T) {
	s, _, f := actionsTab(t)
	ctx := ctxT(t)
	cases := []struct {
		sel    string
		checks Checks
		code   errs.Code
		reason string
		msg    string
	}{
		{"#disabled", PointerChecks(), errs.ElementDisabled, "disabled", "the element is disabled"},
		{"#in-fieldset", PointerChecks(), errs.ElementDisabled, "disabled", "disabled fieldset (fieldset#fs)"},
		{"#aria", PointerChecks(), errs.ElementDisabled, "disabled", `aria-disabled="true"`},
		{"#in-aria", PointerChecks(), errs.ElementDisabled, "disabled", "an ancestor has aria-disabled"},
		{"#in-none", PointerChecks(), errs.ElementNotVisible, "hidden", "not visible"},
		{"#vh", PointerChecks(), errs.ElementNotVisible, "hidden", "not visible"},
		{"#flat", PointerChecks(), errs.ElementNotVisible, "hidden", "not visible"},
		{"#covered-forever", PointerChecks(), errs.ElementNotVisible, "covered", `covered by generic "Blocking banner" (div#blocker)`},
		{"#nothing-here", PointerChecks(), errs.SelectorNoMatch, "missing", "no element matches #nothing-here"},
		{"#ro", Checks{Visible: true, Enabled: true, Editable: true}, errs.ElementDisabled, "readonly", "read-only"},
	}
	for _, c := range cases {
		t.Run(c.sel, func(t *testing.T) {
			t0 := time.Now()
			_, err := s.Act(ctx, f, Locator{Selector: c.sel}, Action{Checks: c.checks}, 150*time.Millisecond)
			e := wantCode(t, err, c.code)
			if e.Details["reason"] != c.reason || !strings.Contains(e.Message, c.msg) {
				t.Fatalf("%s: reason %v, message %q; want %s, %q", c.sel, e.Details["reason"], e.Message, c.reason, c.msg)
			}
			if d := time.Since(t0); d < 150*time.Millisecond {
				t.Fatalf("%s failed after %s, before its timeout: a retryable failure must be waited on", c.sel, d)
			}
		})
	}
	// A covered element's answer names the cover in details too.
	_, err := s.Act(ctx, f, Locator{Selector: "#covered-forever"}, Action{Checks: PointerChecks()}, 0)
	cv, _ := wantCode(t, err, errs.ElementNotVisible).Details["covering"].(*Covering)
	if cv == nil || cv.Name != "Blocking banner" || cv.Selector != "div#blocker" || cv.Ref == 0 {
		t.Fatalf("covering = %+v", cv)
	}
	// Failures that waiting cannot cure come at once.
	for _, c := range []struct {
		l    Locator
		a    Action
		code errs.Code
	}{
		{Locator{Selector: "#btn"}, Action{Checks: Checks{Editable: true}}, errs.BadArgument},
		{Locator{Selector: "#fruit"}, Action{Name: "fill"}, errs.BadArgument},
		{Locator{Selector: "##"}, Action{Checks: PointerChecks()}, errs.BadArgument},
		{Locator{Ref: 999999}, Action{Checks: PointerChecks()}, errs.RefNotFound},
		{Locator{Selector: "#btn"}, Action{Name: "nope"}, errs.BadArgument},
	} {
		t0 := time.Now()
		_, err := s.Act(ctx, f, c.l, c.a, 3*time.Second)
		wantCode(t, err, c.code)
		if time.Since(t0) > time.Second {
			t.Fatalf("%+v %+v: waited %s for a failure that cannot pass", c.l, c.a, time.Since(t0))
		}
	}
	if _, err := s.Act(ctx, f, Locator{Selector: "#btn"}, Action{}, MaxActionTimeout+time.Millisecond); errs.CodeOf(err) != errs.BadArgument {
		t.Fatalf("timeout above the max: %v", err)
	}
}

func TestActWaits(t *testing.T) {
	s, tb, f := actionsTab(t)
	ctx := ctxT(t)
	// A late element, a toast over the target: one call waits them out.
	arm := map[string]string{
		"#later": `setTimeout(() => { const b = document.createElement('button'); b.id = 'later'; b.textContent = 'Later'; document.body.prepend(b) }, 250)`,
		"#btn": `(() => { const t = document.createElement('div'); t.id = 'toast2'; t.textContent = 'Toast';
			t.style.cssText = 'position:fixed;left:0;top:0;right:0;bottom:0;background:#333';
			document.body.appendChild(t); setTimeout(() => t.remove(), 300); return true })()`,
	}
	for _, sel := range []string{"#later", "#btn"} {
		tb.eval(t, arm[sel], nil)
		a, err := s.Act(ctx, f, Locator{Selector: sel}, Action{Checks: PointerChecks()}, 3*time.Second)
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		if a.Waited < 150*time.Millisecond || a.X <= 0 || a.Y <= 0 || a.Box == nil || a.Box.Width <= 0 {
			t.Fatalf("%s: %+v", sel, a)
		}
	}
	// A moving element is not stable until it stops.
	tb.eval(t, `(() => { const b = document.createElement('button'); b.id = 'mover'; b.textContent = 'Mover';
		b.style.cssText = 'position:fixed;left:0;top:300px'; document.body.appendChild(b);
		const an = b.animate([{left: '0px'}, {left: '500px'}], {duration: 800, iterations: Infinity});
		setTimeout(() => an.cancel(), 600);
		return new Promise(r => setTimeout(() => r(true), 100)) })()`, nil)
	_, err := s.Act(ctx, f, Locator{Selector: "#mover"}, Action{Checks: PointerChecks()}, 100*time.Millisecond)
	if e := wantCode(t, err, errs.ElementNotVisible); e.Details["reason"] != "unstable" {
		t.Fatalf("moving: %v", e)
	}
	a, err := s.Act(ctx, f, Locator{Selector: "#mover"}, Action{Checks: PointerChecks()}, 3*time.Second)
	if err != nil || a.X > 60 {
		t.Fatalf("once stopped (back at left 0): %+v %v", a, err)
	}
	// force skips the checks but still gives the point.
	a, err = s.Act(ctx, f, Locator{Selector: "#covered-forever"}, Action{Checks: PointerChecks(), Force: true}, time.Second)
	if err != nil || a.X <= 0 {
		t.Fatalf("force: %+v %v", a, err)
	}
	// timeout 0 looks once.
	t0 := time.Now()
	if _, err := s.Act(ctx, f, Locator{Selector: "#disabled"}, Action{Checks: PointerChecks()}, 0); errs.CodeOf(err) != errs.ElementDisabled || time.Since(t0) > 500*time.Millisecond {
		t.Fatalf("check once: %v after %s", err, time.Since(t0))
	}
}

func TestActEarlyAndPointer(t *testing.T) {
	s, tb, f := actionsTab(t)
	ctx := ctxT(t)
	l := Locator{Selector: "#btn"}
	a, err := s.Act(ctx, f, l, Action{Checks: PointerChecks(), Early: true}, time.Second)
	if err != nil || !a.Early || a.There || a.X <= 0 {
		t.Fatalf("early: %+v %v", a, err)
	}
	// The caller moves the mouse there (a frame passes); the next look
	// completes stability and sees the mouse resting on the element.
	if err := input.Move(ctx, tb.conn, a.X, a.Y, 0); err != nil {
		t.Fatal(err)
	}
	b, err := s.Act(ctx, f, l, Action{Checks: PointerChecks(), Early: true, Arm: "mousedown"}, time.Second)
	if err != nil || b.Early || !b.There || b.X != a.X || b.Y != a.Y {
		t.Fatalf("after the move: %+v %v", b, err)
	}
	if err := input.MouseDown(ctx, tb.conn, b.X, b.Y, input.ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := input.MouseUp(ctx, tb.conn, b.X, b.Y, input.ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := s.ActReceived(ctx, f)
	if err != nil || !r.Armed || !r.Got || !r.Seen {
		t.Fatalf("receipt: %+v %v", r, err)
	}
	var n int
	tb.eval(t, `window.__events.filter(x => x.type === 'click' && x.target === 'btn').length`, &n)
	if n != 1 {
		t.Fatalf("#btn recorded %d clicks", n)
	}
	// Armed on one element, pressed on another: the receipt names it.
	c, err := s.Act(ctx, f, Locator{Selector: "#agree"}, Action{Checks: PointerChecks(), Arm: "mousedown"}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := input.Click(ctx, tb.conn, b.X, b.Y, input.ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err = s.ActReceived(ctx, f)
	if err != nil || !r.Armed || r.Got || !r.Seen || r.What == nil || !strings.Contains(r.What.String(), "Click actions") {
		t.Fatalf("receipt of a press elsewhere: %+v %v (armed on #agree at %.0f,%.0f)", r, err, c.X, c.Y)
	}
	if r, _ = s.ActReceived(ctx, f); r.Armed {
		t.Fatal("a receipt is read once")
	}
	// Leaving the element forgets that the mouse rests there.
	if err := input.Move(ctx, tb.conn, c.X, c.Y, 0); err != nil {
		t.Fatal(err)
	}
	if d, err := s.Act(ctx, f, l, Action{Checks: PointerChecks()}, time.Second); err != nil || d.There {
		t.Fatalf("after leaving: %+v %v", d, err)
	}
}

func TestActActions(t *testing.T) {
	s, tb, f := actionsTab(t)
	ctx := ctxT(t)
	run := func(sel, name string, args map[string]any, out any) error {
		a, err := s.Act(ctx, f, Locator{Selector: sel}, Action{Checks: Checks{Visible: true}, Name: name, Args: args}, time.Second)
		if err != nil {
			return err
		}
		if out != nil {
			return json.Unmarshal(a.Out, out)
		}
		return nil
	}
	var fill struct{ Before, After string }
	if err := run("#text", "fill", map[string]any{"text": "one two"}, &fill); err != nil || fill.After != "one two" {
		t.Fatalf("fill: %+v %v", fill, err)
	}
	if err := run("#controlled", "fill", map[string]any{"text": "abc"}, &fill); err != nil || fill.After != "" {
		t.Fatalf("fill a controlled input: %+v %v", fill, err)
	}
	if err := run("#editor", "fill", map[string]any{"text": "rich"}, &fill); err != nil || strings.TrimSpace(fill.After) != "rich" {
		t.Fatalf("fill an editing host: %+v %v", fill, err)
	}
	var sel struct{ Values, Labels, Wanted []string }
	if err := run("#colors", "select", map[string]any{"values": []string{"green", "bl"}}, &sel); err != nil ||
		strings.Join(sel.Values, ",") != "g,bl" || strings.Join(sel.Labels, ",") != "Green,Blue" {
		t.Fatalf("select: %+v %v", sel, err)
	}
	wantCode(t, run("#text", "select", map[string]any{"values": []string{"x"}}, nil), errs.BadArgument)
	tb.eval(t, `document.querySelector('#fruit option[value=c]').disabled = true`, nil)
	wantCode(t, run("#fruit", "select", map[string]any{"values": []string{"Cherry"}}, nil), errs.ElementDisabled)

	var st CheckState
	if err := run("#size-m", "checked", nil, &st); err != nil || !st.Checked || !st.Radio {
		t.Fatalf("checked: %+v %v", st, err)
	}
	if c, err := s.ActChecked(ctx, f, Locator{Selector: "label:has(#agree)"}); err != nil || c.Checked || c.Radio {
		t.Fatalf("checked through a label: %+v %v", c, err)
	}

	// dragWatch sees what real drag input did (input.HTML5Drag plays it).
	a, err := s.Act(ctx, f, Locator{Selector: "#s-5"}, Action{Checks: Checks{Visible: true, Scroll: true, Point: true}, Name: "dragWatch", To: &Locator{Selector: "#s-1"}}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := s.DragReport(ctx, f, true); err != nil || !r.Watching || r.StartSeen {
		t.Fatalf("report before the drag: %+v %v", r, err)
	}
	if started, err := input.HTML5Drag(ctx, tb.conn, input.Point{X: a.X, Y: a.Y}, input.Point{X: a.ToX, Y: a.ToY}, nil); err != nil || !started {
		t.Fatalf("html5 drag: started %v, %v", started, err)
	}
	r, err := s.DragReport(ctx, f, false)
	if err != nil || !r.Started || !r.Trusted || !r.Accepted || !r.Dropped || !r.DropPrevented || !r.Ended {
		t.Fatalf("drag report: %+v %v", r, err)
	}
	// Two items of one list: the report carries the order the drag left
	// (#s-5 now where #s-1 was).
	if o := r.Order; o == nil || !o.Reorder || !o.InPlace || !o.Moved || o.From != 4 || o.Target != 0 || o.Index != 0 || o.Item != "Echo" ||
		strings.Join(o.Order, ",") != "Echo,Alpha,Bravo,Charlie,Delta" || strings.Join(o.Before, ",") != "Alpha,Bravo,Charlie,Delta,Echo" {
		t.Fatalf("drag order: %+v", r.Order)
	}
	if r, err := s.DragReport(ctx, f, false); err != nil || r.Watching {
		t.Fatalf("the report did not stop the watch: %+v %v", r, err)
	}
	var order string
	tb.eval(t, `[...document.querySelectorAll('#sortable li')].map(l => l.id).join()`, &order)
	if order != "s-5,s-1,s-2,s-3,s-4" {
		t.Fatalf("order after the drag: %s", order)
	}

	d, err := s.DropFiles(ctx, f, Locator{Selector: "#dropzone"}, []DropFile{{Name: "n.txt", Type: "text/plain", Data: []byte("bytes")}}, time.Second)
	if err != nil || !d.Accepted || !d.Dropped || !d.DefaultPrevented || d.Files != 1 {
		t.Fatalf("drop: %+v %v", d, err)
	}
	var names string
	tb.eval(t, `document.getElementById('dropzone-names').textContent`, &names)
	if names != "n.txt" {
		t.Fatalf("dropped names %q", names)
	}

	dir := t.TempDir()
	p := filepath.Join(dir, "up.txt")
	if err := os.WriteFile(p, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	files, err := s.SetFiles(ctx, f, Locator{Selector: "#file"}, []string{p}, time.Second)
	if err != nil || len(files) != 1 || files[0].Name != "up.txt" || files[0].Size != 5 {
		t.Fatalf("set files: %+v %v", files, err)
	}
	tb.eval(t, `document.getElementById('file-names').textContent`, &names)
	if names != "up.txt" {
		t.Fatalf("file names %q", names)
	}
	_, err = s.SetFiles(ctx, f, Locator{Selector: "#text"}, []string{p}, time.Second)
	wantCode(t, err, errs.BadArgument)
	tb.eval(t, `document.getElementById('file').multiple = false`, nil)
	_, err = s.SetFiles(ctx, f, Locator{Selector: "#file"}, []string{p, p}, time.Second)
	wantCode(t, err, errs.BadArgument)

	tb.eval(t, `document.getElementById('scroller').scrollTop = 0`, nil)
	a, err = s.Act(ctx, f, Locator{Selector: "#deep"}, Action{Checks: Checks{Visible: true, Scroll: true, Point: true, Hit: true}, Name: "scrollState"}, time.Second)
	if err != nil || !strings.Contains(string(a.Out), `"selector":"div#scroller"`) {
		t.Fatalf("scroll state: %s %v", a.Out, err)
	}
	var top float64
	tb.eval(t, `document.getElementById('scroller').scrollTop`, &top)
	if top <= 0 {
		t.Fatal("#deep was not scrolled into its scroll box's view")
	}
}

// These need no browser.

func TestCheckTimeout(t *testing.T) {
	for _, c := range []struct {
		ms   int
		want time.Duration
		ok   bool
	}{{0, DefaultActionTimeout, true}, {1, time.Millisecond, true}, {30000, MaxActionTimeout, true}, {30001, 0, false}, {-1, 0, false}} {
		d, err := CheckTimeout("timeoutMs", c.ms)
		if (err == nil) != c.ok || d != c.want {
			t.Errorf("CheckTimeout(%d) = %s, %v", c.ms, d, err)
		}
		if err != nil && errs.As(err).Details["field"] != "timeoutMs" {
			t.Errorf("CheckTimeout(%d): field %v", c.ms, errs.As(err).Details)
		}
	}
}

func TestMissError(t *testing.T) {
	cv := &Covering{Ref: 3, Role: "dialog", Name: "Cookies", Tag: "div", Selector: "div#cookies"}
	for _, c := range []struct {
		w    *wireAct
		code errs.Code
		msg  string
	}{
		{&wireAct{Why: "missing", Message: "no element matches #x"}, errs.SelectorNoMatch, "no element matches #x (waited 1s)"},
		{&wireAct{Why: "disabled", Message: "the element is disabled"}, errs.ElementDisabled, "disabled"},
		{&wireAct{Why: "readonly", Message: "the element is read-only"}, errs.ElementDisabled, "read-only"},
		{&wireAct{Why: "covered", Message: "the element does not receive the pointer", Covering: cv}, errs.ElementNotVisible, `covered by dialog "Cookies" (div#cookies)`},
		{&wireAct{Why: "unstable", Message: "still moving"}, errs.ElementNotVisible, "still moving"},
		{nil, errs.ElementNotVisible, "did not answer"},
	} {
		e := errs.As(missError(c.w, time.Second))
		if e == nil || e.Code != c.code || !strings.Contains(e.Message, c.msg) {
			t.Errorf("%+v → %v; want %s with %q", c.w, e, c.code, c.msg)
		}
	}
	if (&Covering{Tag: "div"}).String() != "div" {
		t.Error("a cover with no role is named by its tag")
	}
}

func TestActExpr(t *testing.T) {
	s := NewStore()
	e := s.actExpr([]byte(`{"op":"act"}`), false)
	if !strings.Contains(e, s.b.key) || strings.Contains(e, "__UNDERSTUDY_KEY__") || !strings.HasPrefix(e, "(function(U){if(!U)return 0;") {
		t.Fatalf("expression: %s", e)
	}
	if i := s.actExpr([]byte(`{}`), true); !strings.HasPrefix(i, s.b.script) {
		t.Fatal("the install expression does not start with the bundle")
	}
}
