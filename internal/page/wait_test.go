package page

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// frameFunc resolves to the tab's main frame, as the surface id.
func (t *tab) frameFunc(id string) FrameFunc {
	return func(context.Context) (Frame, error) { return t.frame(id), nil }
}

func intp(n int) *int { return &n }

func actual[T any](tb testing.TB, r *WaitResult) T {
	tb.Helper()
	var v T
	if err := json.Unmarshal(r.Actual, &v); err != nil {
		tb.Fatalf("actual %s: %v", r.Actual, err)
	}
	return v
}

// mustWait runs a wait and fails the test on an error.
func mustWait(tb testing.TB, s *Store, t *tab, c Condition, timeout time.Duration) *WaitResult {
	tb.Helper()
	r, err := s.Wait(ctxT(tb), t.frameFunc("w"), c, timeout)
	if err != nil {
		tb.Fatalf("wait %+v: %v", c, err)
	}
	return r
}

func textIs(op, v string) *TextMatch { return &TextMatch{Op: op, Value: v} }

// TestWaitOnFixtureTiming waits for what actions.html does late: #late
// appears after 300 ms, #eventually reads "ready" after 1 s.
func TestWaitOnFixtureTiming(t *testing.T) {
	srv := fixtureServer(t)
	s := NewStore()
	tb := openTab(t, srv.URL("a.test", "/actions.html"))
	// Start from a known moment: put the page back to "before" and run the
	// fixture's timers again.
	rearm(t, tb)
	r := mustWait(t, s, tb, Condition{Kind: CondSelector, Locator: Locator{Selector: "#late"}, State: StateVisible}, 5*time.Second)
	if !r.Met || r.Element == nil || r.Element.Ref == 0 || r.Element.Role != "button" || r.Elapsed < 150*time.Millisecond {
		t.Fatalf("wait for #late: %+v", r)
	}
	// The ref it returned works in the other reads.
	st, err := s.GetState(ctxT(t), tb.frame("w"), Locator{Ref: r.Element.Ref})
	if err != nil || !st.Visible {
		t.Fatalf("state of the waited ref: %+v %v", st, err)
	}
	tb.eval(t, `setTimeout(() => { document.getElementById('eventually').textContent = 'ready'; }, 1000)`, nil)
	r = mustWait(t, s, tb, Condition{Kind: CondText, Locator: Locator{Selector: "#eventually"}, Match: textIs(MatchEquals, "ready")}, 5*time.Second)
	if !r.Met || actual[string](t, r) != "ready" || r.Elapsed < 700*time.Millisecond {
		t.Fatalf("expect ready: %+v (%s)", r, r.Actual)
	}
	// Never true: the last value comes back.
	r = mustWait(t, s, tb, Condition{Kind: CondText, Locator: Locator{Selector: "#eventually"}, Match: textIs(MatchEquals, "never")}, 300*time.Millisecond)
	if r.Met || actual[string](t, r) != "ready" || r.Elapsed < 300*time.Millisecond || r.Elapsed > 2*time.Second {
		t.Fatalf("never: %+v (%s)", r, r.Actual)
	}
}

// rearm puts actions.html's timing section back to its first state: #late
// appears 300 ms from now; #eventually reads "waiting" (the test makes it
// "ready" when it needs).
func rearm(tb testing.TB, t *tab) {
	tb.Helper()
	// The page's own timers first, so that none fires after this.
	t.waitTrue(tb, `document.getElementById('eventually').textContent === 'ready' && !!document.getElementById('late')`)
	t.eval(tb, `(() => {
		const old = document.getElementById('late'); if (old) old.remove();
		document.getElementById('eventually').textContent = 'waiting';
		setTimeout(() => { const b = document.createElement('button'); b.id = 'late'; b.textContent = 'Late button';
			document.getElementById('late-slot').appendChild(b); }, 300);
	})()`, nil)
}

const waitPage = `<!doctype html><title>Waits</title>
<button id="b" disabled>Go</button>
<div id="h">Hide me</div><div id="gone">Gone soon</div>
<input id="i" value="start"><p id="p">Hello   <b>World</b></p>
<div id="host"></div><input id="ctl">
<script>
document.getElementById('ctl').addEventListener('input', (e) => { e.target.value = ''; });
setTimeout(() => { document.getElementById('b').disabled = false; }, 200);
setTimeout(() => { document.getElementById('h').style.display = 'none'; }, 250);
setTimeout(() => { document.getElementById('gone').remove(); }, 300);
setTimeout(() => { document.getElementById('i').value = 'typed by script'; }, 350);
</script>`

func TestWaitConditions(t *testing.T) {
	fixtureServer(t)
	s := NewStore()
	tb := openTab(t, dataURL(waitPage))

	t.Run("selector states", func(t *testing.T) {
		r := mustWait(t, s, tb, Condition{Kind: CondSelector, Locator: Locator{Selector: "#h"}, State: StateHidden}, 5*time.Second)
		if !r.Met || r.Element != nil {
			t.Fatalf("hidden: %+v", r)
		}
		r = mustWait(t, s, tb, Condition{Kind: CondSelector, Locator: Locator{Selector: "#gone"}, State: StateDetached}, 5*time.Second)
		if !r.Met || string(r.Actual) != `{"attached":false,"visible":false}` {
			t.Fatalf("detached: %+v %s", r, r.Actual)
		}
		r = mustWait(t, s, tb, Condition{Kind: CondSelector, Locator: Locator{Selector: "#h"}, State: StateAttached}, 0)
		if !r.Met {
			t.Fatalf("attached: %+v", r)
		}
		r = mustWait(t, s, tb, Condition{Kind: CondSelector, Locator: Locator{Selector: "#nothing"}, State: StateVisible}, 200*time.Millisecond)
		if r.Met || r.Found || string(r.Actual) != `{"attached":false,"visible":false}` {
			t.Fatalf("never visible: %+v %s", r, r.Actual)
		}
	})

	t.Run("state composite", func(t *testing.T) {
		r := mustWait(t, s, tb, Condition{Kind: CondState, Locator: Locator{Selector: "#b"},
			Want: map[string]any{"visible": true, "enabled": true, "focused": false}}, 5*time.Second)
		if !r.Met || r.Element == nil || r.Element.Role != "button" {
			t.Fatalf("enabled: %+v", r)
		}
		r = mustWait(t, s, tb, Condition{Kind: CondState, Locator: Locator{Selector: "#b"}, Want: map[string]any{"focused": true}}, 150*time.Millisecond)
		st := actual[map[string]any](t, r)
		if r.Met || st["enabled"] != true || st["focused"] != false || st["visible"] != true {
			t.Fatalf("focused never: %+v %s", r, r.Actual)
		}
	})

	t.Run("value and text", func(t *testing.T) {
		r := mustWait(t, s, tb, Condition{Kind: CondValue, Locator: Locator{Selector: "#i"}, Match: textIs(MatchContains, "by script")}, 5*time.Second)
		if !r.Met || actual[string](t, r) != "typed by script" {
			t.Fatalf("value: %+v %s", r, r.Actual)
		}
		// A controlled input rejects what is typed: the check after the
		// input event runs once the page's listeners have.
		tb.eval(t, `setTimeout(() => { const c = document.getElementById('ctl'); c.value = 'typed'; c.dispatchEvent(new Event('input', {bubbles: true})); }, 50)`, nil)
		r = mustWait(t, s, tb, Condition{Kind: CondValue, Locator: Locator{Selector: "#ctl"}, Match: textIs(MatchEquals, "typed")}, 400*time.Millisecond)
		if r.Met || actual[string](t, r) != "" {
			t.Fatalf("controlled: %+v %s", r, r.Actual)
		}
		// Text is compared with whitespace collapsed.
		r = mustWait(t, s, tb, Condition{Kind: CondText, Locator: Locator{Selector: "#p"}, Match: textIs(MatchEquals, "Hello World")}, 0)
		if !r.Met {
			t.Fatalf("collapsed text: %+v %s", r, r.Actual)
		}
		r = mustWait(t, s, tb, Condition{Kind: CondText, Locator: Locator{Selector: "#p"}, Match: &TextMatch{Op: MatchRegex, Value: `^hello\s+world$`, Flags: "i"}}, 0)
		if !r.Met {
			t.Fatalf("regex: %+v", r)
		}
		r = mustWait(t, s, tb, Condition{Kind: CondText, Match: textIs(MatchNotContains, "Hello")}, 0)
		if r.Met || !strings.Contains(actual[string](t, r), "Hello World") {
			t.Fatalf("document text: %+v %s", r, r.Actual)
		}
		_, err := s.Wait(ctxT(t), tb.frameFunc("w"), Condition{Kind: CondText, Locator: Locator{Selector: "#p"}, Match: &TextMatch{Op: MatchRegex, Value: "(", Field: "regex"}}, 0)
		if e := wantCode(t, err, errs.BadArgument); e.Details["field"] != "regex" {
			t.Fatalf("bad regex field: %v", e)
		}
		_, err = s.Wait(ctxT(t), tb.frameFunc("w"), Condition{Kind: CondText, Locator: Locator{Selector: "p["}, Match: textIs(MatchEquals, "x")}, 0)
		if e := wantCode(t, err, errs.BadArgument); e.Details["field"] != "selector" {
			t.Fatalf("bad selector field: %v", e)
		}
	})

	t.Run("url", func(t *testing.T) {
		r := mustWait(t, s, tb, Condition{Kind: CondURL, Match: textIs(MatchContains, "data:text/html")}, 0)
		if !r.Met {
			t.Fatalf("url: %+v %s", r, r.Actual)
		}
		r = mustWait(t, s, tb, Condition{Kind: CondURL, Match: &TextMatch{Op: MatchRegex, Value: "^https:"}}, 0)
		if r.Met || !strings.HasPrefix(actual[string](t, r), "data:") {
			t.Fatalf("url regex: %+v", r)
		}
	})

	t.Run("dead ref", func(t *testing.T) {
		tb.eval(t, `document.getElementById('host').innerHTML = '<button id="x">X</button>'`, nil)
		list, err := s.ElementsList(ctxT(t), tb.frame("w"), "#x", 1)
		if err != nil || len(list.Items) != 1 {
			t.Fatalf("list: %+v %v", list, err)
		}
		ref := list.Items[0].Ref
		tb.eval(t, `setTimeout(() => document.getElementById('x').remove(), 100)`, nil)
		r := mustWait(t, s, tb, Condition{Kind: CondSelector, Locator: Locator{Ref: ref}, State: StateDetached}, 5*time.Second)
		if !r.Met {
			t.Fatalf("ref detached: %+v", r)
		}
		_, err = s.Wait(ctxT(t), tb.frameFunc("w"), Condition{Kind: CondText, Locator: Locator{Ref: ref}, Match: textIs(MatchEquals, "X")}, time.Second)
		wantCode(t, err, errs.RefNotFound)
		// A look-alike is offered in place of the dead ref.
		tb.eval(t, `document.getElementById('host').innerHTML = '<button id="x2">X</button>'`, nil)
		_, err = s.Wait(ctxT(t), tb.frameFunc("w"), Condition{Kind: CondState, Locator: Locator{Ref: ref}, Want: map[string]any{"enabled": true}}, time.Second)
		if e := wantCode(t, err, errs.RefNotFound); len(e.SimilarRefs) == 0 {
			t.Fatalf("no similar refs: %v", e)
		}
		_, err = s.Wait(ctxT(t), tb.frameFunc("w"), Condition{Kind: CondSelector, Locator: Locator{Ref: 999999}}, time.Second)
		wantCode(t, err, errs.RefNotFound)
		r = mustWait(t, s, tb, Condition{Kind: CondVisible, Locator: Locator{Ref: ref}, Visible: false}, 0)
		if !r.Met {
			t.Fatalf("a gone element is not visible: %+v", r)
		}
	})

	t.Run("check once", func(t *testing.T) {
		start := time.Now()
		r := mustWait(t, s, tb, Condition{Kind: CondText, Locator: Locator{Selector: "#p"}, Match: textIs(MatchEquals, "nope")}, 0)
		if r.Met || time.Since(start) > time.Second {
			t.Fatalf("check once: %+v in %s", r, time.Since(start))
		}
	})
}

func TestWaitCount(t *testing.T) {
	srv := fixtureServer(t)
	s := NewStore()
	tb := openTab(t, srv.URL("a.test", "/large.html"))
	r := mustWait(t, s, tb, Condition{Kind: CondCount, Selector: "tr[id^=row-]", Equals: intp(300)}, 0)
	if !r.Met || actual[int](t, r) != 300 {
		t.Fatalf("rows: %+v %s", r, r.Actual)
	}
	r = mustWait(t, s, tb, Condition{Kind: CondCount, Role: "button", Name: "Edit", Min: intp(300), Max: intp(300)}, 0)
	if !r.Met {
		t.Fatalf("Edit buttons: %+v %s", r, r.Actual)
	}
	r = mustWait(t, s, tb, Condition{Kind: CondCount, Role: "link", NameContains: "sign", Equals: intp(1)}, 0)
	if !r.Met {
		t.Fatalf("links with sign: %+v %s", r, r.Actual)
	}
	tb.eval(t, `setTimeout(() => document.getElementById('row-1').remove(), 150)`, nil)
	r = mustWait(t, s, tb, Condition{Kind: CondCount, Selector: "tr[id^=row-]", Max: intp(299)}, 5*time.Second)
	if !r.Met || actual[int](t, r) != 299 {
		t.Fatalf("after removal: %+v %s", r, r.Actual)
	}
}

const eventPage = `<!doctype html><title>Events</title><button id="b">B</button><input id="i">`

func TestWaitEvent(t *testing.T) {
	fixtureServer(t)
	s := NewStore()
	tb := openTab(t, dataURL(eventPage))
	// The page fires the events on a timer, again and again: the wait
	// catches the first one after it starts, however late it starts.
	tb.eval(t, `window.__clicks = setInterval(() => document.getElementById('b').click(), 150)`, nil)
	r := mustWait(t, s, tb, Condition{Kind: CondEvent, Locator: Locator{Selector: "#b"}, Event: "click"}, 5*time.Second)
	tb.eval(t, `clearInterval(window.__clicks)`, nil)
	var ev struct {
		Type   string `json:"type"`
		Target struct {
			Ref  int    `json:"ref"`
			Role string `json:"role"`
			Tag  string `json:"tag"`
		} `json:"target"`
		Button *int   `json:"button"`
		Detail any    `json:"detail"`
		Value  string `json:"value"`
	}
	if err := json.Unmarshal(r.Event, &ev); err != nil || !r.Met || ev.Type != "click" || ev.Target.Role != "button" || ev.Target.Ref == 0 || ev.Button == nil {
		t.Fatalf("click: %+v %s %v", r, r.Event, err)
	}
	// The typed summary (what electron_wait_for_event returns) says the same.
	if e, err := r.EventSeen(); err != nil || e == nil || e.Type != "click" || e.Target == nil || e.Target.Role != "button" || e.Target.Ref != ev.Target.Ref || e.Button == nil || *e.Button != *ev.Button {
		t.Fatalf("typed click summary: %+v %v", e, err)
	}
	// On the window, a custom event with a detail; the wait is cut into
	// calls of 100 ms and the listener stays armed between them.
	tb.eval(t, `window.__ready = setInterval(() => document.dispatchEvent(new CustomEvent('app-ready', {detail: {n: 7}})), 350)`, nil)
	r, err := s.wait(ctxT(t), tb.frameFunc("w"), Condition{Kind: CondEvent, Event: "app-ready"}, 5*time.Second, 100*time.Millisecond)
	tb.eval(t, `clearInterval(window.__ready)`, nil)
	if err != nil || !r.Met {
		t.Fatalf("custom event: %+v %v", r, err)
	}
	ev.Detail = nil
	_ = json.Unmarshal(r.Event, &ev)
	if ev.Type != "app-ready" || ev.Detail != `{"n":7}` {
		t.Fatalf("custom event summary: %s", r.Event)
	}
	if e, err := r.EventSeen(); err != nil || e == nil || string(e.Detail) != `"{\"n\":7}"` || e.Target == nil || e.Target.Tag != "#document" {
		t.Fatalf("typed custom event summary: %+v %v", e, err)
	}
	// Nothing fires.
	r = mustWait(t, s, tb, Condition{Kind: CondEvent, Event: "never-fires"}, 150*time.Millisecond)
	if r.Met || len(r.Event) > 0 && string(r.Event) != "null" {
		t.Fatalf("no event: %+v", r)
	}
	if e, err := r.EventSeen(); e != nil || err != nil {
		t.Fatalf("no event, typed: %+v %v", e, err)
	}
	_, err = s.Wait(ctxT(t), tb.frameFunc("w"), Condition{Kind: CondEvent, Locator: Locator{Selector: "#none"}, Event: "click"}, 100*time.Millisecond)
	wantCode(t, err, errs.SelectorNoMatch)
}

// TestWaitAcrossNavigation: the document is replaced during the wait; the
// wait carries on in the new one.
func TestWaitAcrossNavigation(t *testing.T) {
	srv := fixtureServer(t)
	s := NewStore()
	tb := openTab(t, dataURL(`<!doctype html><title>Before</title><p>before</p>`))
	// The navigation starts once the wait runs: a timer set before the
	// wait could fire before its first check on a loaded machine (CI saw
	// Navigations 0), and the wait would then only ever see the new page.
	type waited struct {
		r   *WaitResult
		err error
	}
	done := make(chan waited, 1)
	go func() {
		r, err := s.Wait(ctxT(t), tb.frameFunc("w"), Condition{Kind: CondSelector, Locator: Locator{Selector: "#late"}, State: StateVisible}, 10*time.Second)
		done <- waited{r, err}
	}()
	time.Sleep(500 * time.Millisecond)
	tb.eval(t, `location.href = `+jsonQuote(srv.URL("a.test", "/actions.html")), nil)
	w := <-done
	if w.err != nil || !w.r.Met || w.r.Navigations < 1 {
		t.Fatalf("across navigation: %+v %v", w.r, w.err)
	}
	r := mustWait(t, s, tb, Condition{Kind: CondURL, Match: textIs(MatchContains, "/actions.html")}, 0)
	if !r.Met {
		t.Fatalf("url after navigation: %+v", r)
	}
}

// TestWaitSlices: a wait longer than one renderer call is several calls.
func TestWaitSlices(t *testing.T) {
	srv := fixtureServer(t)
	s := NewStore()
	tb := openTab(t, srv.URL("a.test", "/actions.html"))
	rearm(t, tb)
	tb.eval(t, `setTimeout(() => { document.getElementById('eventually').textContent = 'ready'; }, 1000)`, nil)
	r, err := s.wait(ctxT(t), tb.frameFunc("w"), Condition{Kind: CondText, Locator: Locator{Selector: "#eventually"}, Match: textIs(MatchEquals, "ready")}, 5*time.Second, 150*time.Millisecond)
	if err != nil || !r.Met {
		t.Fatalf("sliced: %+v %v", r, err)
	}
	start := time.Now()
	r, err = s.wait(ctxT(t), tb.frameFunc("w"), Condition{Kind: CondText, Locator: Locator{Selector: "#eventually"}, Match: textIs(MatchEquals, "never")}, 500*time.Millisecond, 150*time.Millisecond)
	if err != nil || r.Met || time.Since(start) < 450*time.Millisecond || time.Since(start) > 3*time.Second {
		t.Fatalf("sliced timeout: %+v %v in %s", r, err, time.Since(start))
	}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestConditionCheck(t *testing.T) {
	sel := Locator{Selector: "#x"}
	long := strings.Repeat("a", MaxRegexSource+1)
	cases := []struct {
		c     Condition
		field string // "" means valid
	}{
		{Condition{Kind: CondSelector, Locator: sel}, ""},
		{Condition{Kind: CondSelector, Locator: sel, State: "gone"}, "state"},
		{Condition{Kind: CondSelector}, "selector"},
		{Condition{Kind: CondSelector, Locator: Locator{Ref: 3, Selector: "#x"}}, "ref"},
		{Condition{Kind: CondState, Locator: sel}, "state"},
		{Condition{Kind: CondState, Locator: sel, Want: map[string]any{"visible": true, "checked": "mixed", "expanded": nil}}, ""},
		{Condition{Kind: CondState, Locator: sel, Want: map[string]any{"shiny": true}}, "state.shiny"},
		{Condition{Kind: CondState, Locator: sel, Want: map[string]any{"visible": "mixed"}}, "state.visible"},
		{Condition{Kind: CondState, Locator: sel, Want: map[string]any{"visible": 1.0}}, "state.visible"},
		{Condition{Kind: CondText, Match: textIs(MatchEquals, "")}, ""},
		{Condition{Kind: CondText, Locator: sel}, "equals"},
		{Condition{Kind: CondText, Locator: sel, Match: &TextMatch{Op: MatchRegex, Value: long, Field: "regex"}}, "regex"},
		{Condition{Kind: CondText, Locator: sel, Match: &TextMatch{Op: MatchRegex, Value: "a", Flags: "g"}}, "flags"},
		{Condition{Kind: CondText, Locator: sel, Match: &TextMatch{Op: MatchRegex, Value: "a", Flags: "ii"}}, "flags"},
		{Condition{Kind: CondText, Locator: sel, Match: &TextMatch{Op: MatchRegex, Value: "a", Flags: "imsu"}}, ""},
		{Condition{Kind: CondText, Locator: sel, Match: &TextMatch{Op: MatchEquals, Value: "a", Flags: "i"}}, "flags"},
		{Condition{Kind: CondText, Locator: sel, Match: &TextMatch{Op: "like"}}, "match"},
		{Condition{Kind: CondValue, Match: textIs(MatchEquals, "")}, "selector"},
		{Condition{Kind: CondURL, Match: textIs(MatchEquals, "x")}, "contains"},
		{Condition{Kind: CondURL}, "contains"},
		{Condition{Kind: CondCount, Selector: "tr", Equals: intp(3)}, ""},
		{Condition{Kind: CondCount, Selector: "tr"}, "equals"},
		{Condition{Kind: CondCount, Selector: "tr", Role: "row", Equals: intp(3)}, "selector"},
		{Condition{Kind: CondCount, Equals: intp(3)}, "selector"},
		{Condition{Kind: CondCount, Selector: "tr", Name: "x", Equals: intp(3)}, "name"},
		{Condition{Kind: CondCount, Role: "row", Name: "x", NameContains: "y", Equals: intp(3)}, "name"},
		{Condition{Kind: CondCount, Selector: "tr", Equals: intp(3), Min: intp(1)}, "equals"},
		{Condition{Kind: CondCount, Selector: "tr", Min: intp(3), Max: intp(1)}, "min"},
		{Condition{Kind: CondCount, Selector: "tr", Min: intp(-1)}, "min"},
		{Condition{Kind: CondEvent, Event: "click"}, ""},
		{Condition{Kind: CondEvent, Event: "click me"}, "eventName"},
		{Condition{Kind: CondEvent}, "eventName"},
		{Condition{Kind: "other"}, "condition"},
	}
	for _, tc := range cases {
		err := tc.c.Check()
		if tc.field == "" {
			if err != nil {
				t.Errorf("%+v: %v", tc.c, err)
			}
			continue
		}
		e := errs.As(err)
		if e == nil || e.Code != errs.BadArgument || e.Details["field"] != tc.field {
			t.Errorf("%+v: want BAD_ARGUMENT on %s, got %v", tc.c, tc.field, err)
		}
	}
	s := NewStore()
	if _, err := s.Wait(t.Context(), nil, Condition{Kind: CondSelector, Locator: sel}, MaxWaitTimeout+time.Millisecond); errs.CodeOf(err) != errs.BadArgument {
		t.Fatalf("timeout above the limit: %v", err)
	}
}

// TestWaitKeepsTimeBehindAnotherWindow: a window behind another runs its
// timers about once a second; the Go side keeps the wait's time anyway and
// still reports the last value.
func TestWaitKeepsTimeBehindAnotherWindow(t *testing.T) {
	srv := fixtureServer(t)
	s := NewStore()
	back := openTab(t, srv.URL("a.test", "/actions.html"))
	openTab(t, srv.URL("a.test", "/second.html"))
	var vis string
	back.eval(t, `document.visibilityState`, &vis)
	t.Logf("visibility of the window behind: %s", vis)
	start := time.Now()
	r := mustWait(t, s, back, Condition{Kind: CondText, Locator: Locator{Selector: "h1"}, Match: textIs(MatchEquals, "never")}, 300*time.Millisecond)
	if took := time.Since(start); r.Met || actual[string](t, r) != "Actions" || took < 300*time.Millisecond || took > 900*time.Millisecond {
		t.Fatalf("wait behind another window: %+v %s in %s", r, r.Actual, took)
	}
	// A change still shows at once: a mutation wakes the check.
	back.eval(t, `setTimeout(() => { document.querySelector('h1').textContent = 'Changed'; }, 100)`, nil)
	r = mustWait(t, s, back, Condition{Kind: CondText, Locator: Locator{Selector: "h1"}, Match: textIs(MatchEquals, "Changed")}, 5*time.Second)
	if !r.Met {
		t.Fatalf("change behind another window: %+v", r)
	}
}
