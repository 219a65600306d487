package surface_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
	"github.com/understudy-dev/understudy/internal/leakcheck"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/target"
)

// browser is shared by the package's real-browser tests and benchmarks.
var browser *chromiumtest.Browser

func TestMain(m *testing.M) {
	os.Exit(leakcheck.Main(func() int { return chromiumtest.Main(m, &browser) }))
}

// app is the fixture app open in a real browser, with a pool and a registry
// on it.
type app struct {
	srv   *fixture.Server
	pool  *target.Pool
	reg   *surface.Registry
	pages []string // target ids of the pages the test opened
}

// openApp serves the fixture, opens paths as pages and builds a registry on
// endpoint (the browser's, or a proxy's in front of it; "": the browser
// socket alone, in flat mode).
func openApp(ctx context.Context, tb testing.TB, srv *fixture.Server, httpURL string, paths ...string) *app {
	tb.Helper()
	a := &app{srv: srv}
	for _, p := range paths {
		id, err := browser.NewPage(ctx, srv.URL(fixture.HostA, p))
		if err != nil {
			tb.Fatal(err)
		}
		a.pages = append(a.pages, id)
		tb.Cleanup(func() { _ = browser.ClosePage(context.Background(), id) })
	}
	opts := target.Options{HTTPURL: httpURL}
	if httpURL == "" { // flat (ADR-025): the browser socket alone, no HTTP
		opts = target.Options{BrowserWSURL: browser.WSURL, Flat: true}
	}
	pool, err := target.Open(ctx, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = pool.Close() })
	reg, err := surface.New(surface.Options{SessionID: "s1", Pool: pool})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(reg.Close)
	a.pool, a.reg = pool, reg
	return a
}

// waitList lists until cond holds of the listing (the browser loads frames
// on its own schedule), or fails the test at the deadline.
func waitList(ctx context.Context, tb testing.TB, reg *surface.Registry, what string, cond func([]surface.Descriptor) bool) []surface.Descriptor {
	tb.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		ds, err := reg.List(ctx)
		if err == nil && cond(ds) {
			return ds
		}
		if time.Now().After(deadline) {
			tb.Fatalf("waiting for %s: last listing %v, err %v", what, dump(ds), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func dump(ds []surface.Descriptor) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "\n  %s kind=%s parent=%s rel=%s caps=%+v url=%s", d.ID, d.Kind, d.ParentID, d.OriginRelation, d.Capabilities, d.URL)
	}
	return b.String()
}

// byPath finds the live surface whose URL is on host with path p.
func byPath(ds []surface.Descriptor, host, p string) (surface.Descriptor, bool) {
	for _, d := range ds {
		if strings.Contains(d.URL, "://"+host+":") && strings.HasSuffix(strings.SplitN(d.URL, "?", 2)[0], p) {
			return d, true
		}
	}
	return surface.Descriptor{}, false
}

// ready reports whether every (host, path) is listed with a document.
func ready(want ...[2]string) func([]surface.Descriptor) bool {
	return func(ds []surface.Descriptor) bool {
		for _, w := range want {
			d, ok := byPath(ds, w[0], w[1])
			if !ok || !d.Capabilities.RendererEval {
				return false
			}
		}
		return true
	}
}

// eval runs expression in the resolved surface and decodes its value.
func eval(ctx context.Context, res *surface.Resolution, expression string, out any) error {
	p := map[string]any{"expression": expression, "returnByValue": true, "awaitPromise": true}
	if res.ContextID != 0 {
		p["contextId"] = res.ContextID
	}
	var r cdp.Evaluated
	if err := res.Eval.Call(ctx, "Runtime.evaluate", p, &r); err != nil {
		return err
	}
	if text, threw := r.Threw(); threw {
		return fmt.Errorf("%s threw: %s", expression, text)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}

func evalIn(ctx context.Context, tb testing.TB, reg *surface.Registry, id, expression string, out any) {
	tb.Helper()
	res, err := reg.ResolveID(ctx, id)
	if err != nil {
		tb.Fatalf("resolve %s: %v", id, err)
	}
	if err := eval(ctx, res, expression, out); err != nil {
		tb.Fatalf("eval in %s: %v", id, err)
	}
}

type recorded struct {
	Type   string `json:"type"`
	Target string `json:"target"`
	Key    string `json:"key"`
	Value  string `json:"value"`
}

func events(ctx context.Context, tb testing.TB, reg *surface.Registry, id string) []recorded {
	tb.Helper()
	var evs []recorded
	evalIn(ctx, tb, reg, id, "window.__events", &evs)
	return evs
}

func clearEvents(ctx context.Context, tb testing.TB, reg *surface.Registry, id string) {
	tb.Helper()
	// A frame that has just navigated is listed with its context (and
	// its title) before its script has run: wait for the fixture's
	// recorder.
	waitFor(tb, "the event recorder in "+id, func() bool {
		res, err := reg.ResolveID(ctx, id)
		var typ string
		return err == nil && eval(ctx, res, "typeof window.__events", &typ) == nil && typ == "object"
	})
	evalIn(ctx, tb, reg, id, "window.__events.length = 0", nil)
}

func has(evs []recorded, typ, tgt string) bool {
	return slices.ContainsFunc(evs, func(e recorded) bool { return e.Type == typ && e.Target == tgt })
}

// clickButton clicks the center of #btn of surface id, aiming from inside
// the frame and dispatching on the input root. The window goes to the front
// first: headless Chromium renders only the front tab, and without its
// compositor frames the browser neither hit-tests into OOPIFs (the click
// stays on the <iframe>) nor answers input to a background tab soon.
func clickButton(ctx context.Context, tb testing.TB, reg *surface.Registry, id string) {
	tb.Helper()
	res, err := reg.ResolveID(ctx, id)
	if err != nil {
		tb.Fatalf("resolve %s: %v", id, err)
	}
	toFront(ctx, tb, res)
	// Two animation frames of the frame itself: an OOPIF that has just
	// become visible has then submitted the frames the browser hit-tests.
	if err := eval(ctx, res, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`, nil); err != nil {
		tb.Fatal(err)
	}
	var pt [2]float64
	if err := eval(ctx, res, `(() => { const e = document.getElementById('btn'); e.scrollIntoView({block: 'center'});
		const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, &pt); err != nil {
		tb.Fatal(err)
	}
	if err := clickPoint(ctx, res, pt[0], pt[1]); err != nil {
		tb.Fatalf("click in %s: %v", id, err)
	}
}

// toFront brings the surface's window to the front and waits for two
// animation frames of it, so the browser has fresh hit-test data.
func toFront(ctx context.Context, tb testing.TB, res *surface.Resolution) {
	tb.Helper()
	var visible string
	if err := res.InputRoot.Call(ctx, "Page.bringToFront", nil, nil); err != nil {
		tb.Fatal(err)
	}
	root := &surface.Resolution{Eval: res.InputRoot}
	if err := eval(ctx, root, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(document.visibilityState))))`, &visible); err != nil {
		tb.Fatal(err)
	}
	if visible != "visible" {
		tb.Fatalf("window %s is %s after Page.bringToFront", res.InputRootID, visible)
	}
}

// dispatchClick clicks at (x, y) of the input root's viewport.
func dispatchClick(ctx context.Context, tb testing.TB, res *surface.Resolution, x, y float64) {
	tb.Helper()
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		p := map[string]any{"type": typ, "x": x, "y": y, "button": "left", "clickCount": 1}
		if err := res.InputRoot.Call(ctx, "Input.dispatchMouseEvent", p, nil); err != nil {
			tb.Fatal(err)
		}
	}
}

// pressKey types one character with key events on the input root.
func pressKey(ctx context.Context, tb testing.TB, res *surface.Resolution, ch string) {
	tb.Helper()
	code := "Key" + strings.ToUpper(ch)
	vk := int(strings.ToUpper(ch)[0])
	for _, p := range []map[string]any{
		{"type": "keyDown", "key": ch, "code": code, "text": ch, "windowsVirtualKeyCode": vk},
		{"type": "keyUp", "key": ch, "code": code, "windowsVirtualKeyCode": vk},
	} {
		if err := res.InputRoot.Call(ctx, "Input.dispatchKeyEvent", p, nil); err != nil {
			tb.Fatal(err)
		}
	}
}

func wantCode(tb testing.TB, err error, code errs.Code) {
	tb.Helper()
	if errs.CodeOf(err) != code {
		tb.Fatalf("got %v, want %s", err, code)
	}
}

// TestSurfacesOnChromium is the proof scenario of ADR-029 on a real
// Chromium: in-process frames two deep, an OOPIF inside an OOPIF, a second
// window and a webview guest (through the Electron-shaped proxy).
func TestSurfacesOnChromium(t *testing.T) { surfacesOnChromium(t, false) }

// TestSurfacesOnChromiumFlat runs the same scenario with the pool in flat
// mode (ADR-025): only the browser WebSocket, no /json request, every
// target a flattened session on that one socket. The webview guest needs
// the Electron-shaped HTTP proxy, so it is left out.
func TestSurfacesOnChromiumFlat(t *testing.T) { surfacesOnChromium(t, true) }

// browserAndFixture makes sure the shared browser runs and serves the
// fixture for one test; ctx ends after 2 minutes, or with the test.
func browserAndFixture(t *testing.T) (context.Context, *fixture.Server) {
	t.Helper()
	chromiumtest.Require(t)
	if browser == nil {
		t.Fatal("chromiumtest: no shared browser")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	srv, err := fixture.Serve(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return ctx, srv
}

func surfacesOnChromium(t *testing.T, flat bool) {
	ctx, srv := browserAndFixture(t)
	endpoint, webview := "", false
	if !flat {
		endpoint, webview = proxyEndpoint(ctx, t, srv)
	}
	paths := []string{"/index.html", "/second.html"}
	if webview {
		paths = append(paths, "/webview-host.html", "/guest.html")
	}
	a := openApp(ctx, t, srv, endpoint, paths...)
	reg := a.reg
	A, B, C := fixture.HostA, fixture.HostB, fixture.HostC
	want := [][2]string{{A, "/index.html"}, {A, "/same1.html"}, {A, "/same2.html"}, {A, "/covered.html"},
		{A, "/removable.html"}, {B, "/cross1.html"}, {C, "/cross2.html"}, {A, "/second.html"}}
	if webview {
		want = append(want, [2]string{A, "/webview-host.html"}, [2]string{A, "/guest.html"})
	}
	ds := waitList(ctx, t, reg, "every fixture surface", ready(want...))
	t.Logf("listing:%s", dump(ds))
	id := map[string]string{} // short name → surface id
	for _, w := range want {
		d, _ := byPath(ds, w[0], w[1])
		id[strings.TrimSuffix(strings.TrimPrefix(w[1], "/"), ".html")] = d.ID
	}

	t.Run("discovery and parent-first order", func(t *testing.T) {
		pos := map[string]int{}
		for i, d := range ds {
			pos[d.ID] = i
			if !strings.HasPrefix(d.ID, "s1-surface-") {
				t.Errorf("id %q is not <session>-surface-<n>", d.ID)
			}
			if d.ParentID != "" {
				if _, ok := pos[d.ParentID]; !ok {
					t.Errorf("%s is listed before its parent %s", d.ID, d.ParentID)
				}
			}
		}
		// The top page's subtree in this order: in-process children in
		// document order, then the OOPIF chain.
		seq := []string{"index", "same1", "same2", "covered", "removable", "cross1", "cross2"}
		for i := 1; i < len(seq); i++ {
			if pos[id[seq[i-1]]] >= pos[id[seq[i]]] {
				t.Errorf("%s listed before %s:%s", seq[i], seq[i-1], dump(ds))
			}
		}
		if pos[id["cross2"]] >= pos[id["second"]] {
			t.Errorf("the second window comes before the first one's subtree ends:%s", dump(ds))
		}
		byID := map[string]surface.Descriptor{}
		for _, d := range ds {
			byID[d.ID] = d
		}
		parents := map[string]string{"same1": "index", "same2": "same1", "covered": "index",
			"removable": "index", "cross1": "index", "cross2": "cross1", "second": "", "index": ""}
		if webview {
			parents["guest"] = "webview-host"
			parents["webview-host"] = ""
		}
		for k, p := range parents {
			if got := byID[id[k]].ParentID; got != id[p] {
				t.Errorf("%s: parent %q, want %q (%s)", k, got, id[p], p)
			}
		}
	})

	t.Run("kinds and origin relations", func(t *testing.T) {
		byID := map[string]surface.Descriptor{}
		for _, d := range ds {
			byID[d.ID] = d
		}
		cases := map[string][2]string{
			"index": {surface.KindOther, ""}, "second": {surface.KindOther, ""},
			"same1": {surface.KindFrame, surface.SameOrigin}, "same2": {surface.KindFrame, surface.SameOrigin},
			"covered": {surface.KindFrame, surface.SameOrigin}, "removable": {surface.KindFrame, surface.SameOrigin},
			"cross1": {surface.KindFrame, surface.CrossOrigin}, "cross2": {surface.KindFrame, surface.CrossOrigin},
		}
		if webview {
			cases["webview-host"] = [2]string{surface.KindOther, ""}
			cases["guest"] = [2]string{surface.KindWebview, surface.SameOrigin}
		}
		for k, w := range cases {
			d := byID[id[k]]
			if d.Kind != w[0] || d.OriginRelation != w[1] {
				t.Errorf("%s: kind %q relation %q, want %q %q", k, d.Kind, d.OriginRelation, w[0], w[1])
			}
			if !d.Capabilities.Snapshot || !d.Capabilities.Interaction || !d.Capabilities.RendererEval {
				t.Errorf("%s: capabilities %+v", k, d.Capabilities)
			}
		}
	})

	t.Run("one Page.getFrameTree per target per listing", func(t *testing.T) {
		before := reg.CallCount("Page.getFrameTree")
		ds, err := reg.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		targets := 0
		for _, d := range ds {
			if _, ok := a.pool.Known(d.FrameID); ok {
				targets++
			}
		}
		infos, err := a.pool.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := reg.CallCount("Page.getFrameTree") - before; got != int64(targets) || targets != len(infos) {
			t.Errorf("%d Page.getFrameTree calls for %d targets (%d in /json/list)", got, targets, len(infos))
		}
	})

	evalCases := map[string]string{"same2": "Same 2", "cross2": "Cross 2", "same1": "Same 1", "cross1": "Cross 1", "index": "Top"}
	if webview {
		evalCases["guest"] = "Guest"
	}
	t.Run("eval", func(t *testing.T) {
		for k, title := range evalCases {
			var got string
			evalIn(ctx, t, reg, id[k], "document.title", &got)
			if got != title {
				t.Errorf("%s: document.title %q, want %q", k, got, title)
			}
		}
	})

	t.Run("resolve costs no CDP call", func(t *testing.T) {
		if _, err := reg.Select(id["cross2"]); err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Resolve(ctx); err != nil {
			t.Fatal(err)
		}
		before := reg.CallCount("")
		for _, k := range []string{"same2", "cross2", "index"} {
			if _, err := reg.ResolveID(ctx, id[k]); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := reg.Resolve(ctx); err != nil {
			t.Fatal(err)
		}
		if got := reg.CallCount("") - before; got != 0 {
			t.Errorf("resolving made %d CDP calls", got)
		}
	})

	t.Run("clicks land in the right frame", func(t *testing.T) {
		for _, k := range slices.Sorted(maps.Keys(evalCases)) {
			clearEvents(ctx, t, reg, id[k])
		}
		for _, k := range slices.Sorted(maps.Keys(evalCases)) {
			clickButton(ctx, t, reg, id[k])
		}
		for _, k := range slices.Sorted(maps.Keys(evalCases)) {
			evs := events(ctx, t, reg, id[k])
			if !has(evs, "click", "btn") {
				t.Errorf("%s: no click on #btn; events %+v; the top page's %+v", k, evs, events(ctx, t, reg, id["index"]))
			}
			if n := len(slices.DeleteFunc(slices.Clone(evs), func(e recorded) bool { return e.Type != "click" })); n != 1 {
				t.Errorf("%s: %d clicks, want 1: %+v", k, n, evs)
			}
		}
	})

	t.Run("other offset sums miss", func(t *testing.T) {
		// The sum that lands (above) adds one owner content box per target
		// boundary. Each alternative below misses the button.
		center := func(k string) (*surface.Resolution, [2]float64) {
			res, err := reg.ResolveID(ctx, id[k])
			if err != nil {
				t.Fatal(err)
			}
			toFront(ctx, t, res)
			var pt [2]float64
			if err := eval(ctx, res, `(() => { const r = document.getElementById('btn').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, &pt); err != nil {
				t.Fatal(err)
			}
			return res, pt
		}
		offset := func(k string) (x, y float64) {
			res, err := reg.ResolveID(ctx, id[k])
			if err != nil {
				t.Fatal(err)
			}
			if x, y, err = res.Offset(ctx); err != nil {
				t.Fatal(err)
			}
			return x, y
		}
		const edge = 6 + 9 // fixture.css: iframe border + padding
		same2, p2 := center("same2")
		o2x, o2y := offset("same2")
		o1x, o1y := offset("same1")
		cross2, pc := center("cross2")
		ocx, ocy := offset("cross2")
		misses := []struct {
			name string
			res  *surface.Resolution
			k    string
			x, y float64
		}{
			{"same2: no offset", same2, "same2", p2[0], p2[1]},
			{"same2: in-process ancestors summed too", same2, "same2", p2[0] + o2x + o1x, p2[1] + o2y + o1y},
			{"cross2: border boxes instead of content boxes", cross2, "cross2", pc[0] + ocx - 2*edge, pc[1] + ocy - 2*edge},
		}
		for _, m := range misses {
			clearEvents(ctx, t, reg, id[m.k])
			dispatchClick(ctx, t, m.res, m.x, m.y)
			if evs := events(ctx, t, reg, id[m.k]); has(evs, "click", "btn") {
				t.Errorf("%s: hit the button too; the test cannot tell the sums apart", m.name)
			}
		}
	})

	t.Run("an overlay intercepts a click aimed at a covered frame", func(t *testing.T) {
		clearEvents(ctx, t, reg, id["covered"])
		clearEvents(ctx, t, reg, id["index"])
		clickButton(ctx, t, reg, id["covered"])
		if evs := events(ctx, t, reg, id["covered"]); len(evs) != 0 {
			t.Errorf("the covered frame got %+v", evs)
		}
		if evs := events(ctx, t, reg, id["index"]); !has(evs, "click", "overlay") {
			t.Errorf("the top page did not get the click on #overlay: %+v", evs)
		}
	})

	t.Run("a key press reaches an input focused in a frame", func(t *testing.T) {
		for _, k := range []string{"same2", "cross2"} {
			res, err := reg.ResolveID(ctx, id[k])
			if err != nil {
				t.Fatal(err)
			}
			if err := eval(ctx, res, "document.getElementById('inp').value = ''; window.__events.length = 0; document.getElementById('inp').focus()", nil); err != nil {
				t.Fatal(err)
			}
			if err := res.FocusFrame(ctx); err != nil {
				t.Fatal(err)
			}
			pressKey(ctx, t, res, "q")
			var v string
			if err := eval(ctx, res, "document.getElementById('inp').value", &v); err != nil {
				t.Fatal(err)
			}
			evs := events(ctx, t, reg, id[k])
			if v != "q" || !slices.ContainsFunc(evs, func(e recorded) bool { return e.Type == "keydown" && e.Target == "inp" && e.Key == "q" }) {
				t.Errorf("%s: value %q, events %+v", k, v, evs)
			}
		}
	})

	if webview {
		t.Run("selecting the webview selects its window", func(t *testing.T) {
			d, err := reg.Select(id["guest"])
			if err != nil {
				t.Fatal(err)
			}
			if !d.Active || reg.ActiveWindow() != d.FrameID {
				t.Errorf("active window %q, want the guest %q (%+v)", reg.ActiveWindow(), d.FrameID, d)
			}
			res, err := reg.Resolve(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if res.InputRootID != d.FrameID || !res.IsInputRoot() {
				t.Errorf("guest input root %q", res.InputRootID)
			}
			// A frame of the top page selects the top page as window.
			if _, err := reg.Select(id["cross2"]); err != nil {
				t.Fatal(err)
			}
			if w := reg.ActiveWindow(); w != a.pages[0] {
				t.Errorf("active window %q, want the top page %q", w, a.pages[0])
			}
			d, err = reg.SelectWindow(a.pages[0])
			if err != nil || d.ID != id["index"] {
				t.Errorf("SelectWindow(top) = %+v, %v", d, err)
			}
		})
	}

	t.Run("ids survive navigation and process moves", func(t *testing.T) {
		top := id["index"]
		nav := func(frame, host, p string) {
			evalIn(ctx, t, reg, top, fmt.Sprintf("navigateFrame(%q, fixtureURL(%q, %q))", frame, host, p), nil)
		}
		nav("same1", A, "/covered.html?moved=1")
		nav("cross1", B, "/cross1.html?moved=1")
		ds := waitList(ctx, t, reg, "navigated frames", func(ds []surface.Descriptor) bool {
			d1, ok1 := byPath(ds, A, "/covered.html")
			d2, ok2 := byPath(ds, B, "/cross1.html")
			return ok1 && ok2 && strings.Contains(d1.URL, "moved=1") && strings.Contains(d2.URL, "moved=1") &&
				d1.Capabilities.RendererEval && d2.Capabilities.RendererEval
		})
		for _, d := range ds {
			if strings.Contains(d.URL, "moved=1") && d.ID != id["same1"] && d.ID != id["cross1"] {
				t.Errorf("navigated frame %s has a new id %s:%s", d.URL, d.ID, dump(ds))
			}
		}
		var title string
		evalIn(ctx, t, reg, id["same1"], "document.title", &title)
		if title != "Covered" {
			t.Errorf("same1 after navigation: title %q", title)
		}
		// same2 went away with same1's old document.
		if _, err := reg.Select(id["same2"]); errs.CodeOf(err) != errs.SurfaceClosed {
			t.Errorf("same2 after its parent navigated: %v", err)
		}

		// In-process → OOPIF → in-process: the same frame, the same id.
		nav("same1", B, "/cross1.html?oopif=1")
		ds = waitList(ctx, t, reg, "same1 as an OOPIF", func(ds []surface.Descriptor) bool {
			for _, d := range ds {
				if d.ID == id["same1"] && strings.Contains(d.URL, "oopif=1") && d.Capabilities.RendererEval {
					return true
				}
			}
			return false
		})
		if _, ok := a.pool.Known(frameOf(ds, id["same1"])); !ok {
			t.Errorf("same1 on b.test is not a target:%s", dump(ds))
		}
		evalIn(ctx, t, reg, id["same1"], "document.title", &title)
		if title != "Cross 1" {
			t.Errorf("same1 as OOPIF: title %q", title)
		}
		clearEvents(ctx, t, reg, id["same1"])
		clickButton(ctx, t, reg, id["same1"])
		if evs := events(ctx, t, reg, id["same1"]); !has(evs, "click", "btn") {
			t.Errorf("same1 as OOPIF: click missed: %+v", evs)
		}
		nav("same1", A, "/same1.html?back=1")
		waitList(ctx, t, reg, "same1 in process again", func(ds []surface.Descriptor) bool {
			for _, d := range ds {
				if d.ID == id["same1"] && strings.Contains(d.URL, "back=1") && d.Capabilities.RendererEval {
					_, isTarget := a.pool.Known(d.FrameID)
					return !isTarget
				}
			}
			return false
		})
		evalIn(ctx, t, reg, id["same1"], "document.title", &title)
		if title != "Same 1" {
			t.Errorf("same1 back in process: title %q", title)
		}
	})

	t.Run("a removed frame is SURFACE_CLOSED", func(t *testing.T) {
		if _, err := reg.Select(id["removable"]); err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Resolve(ctx); err != nil {
			t.Fatal(err)
		}
		evalIn(ctx, t, reg, id["index"], "removeFrame('removable')", nil)
		// Page.frameDetached makes it a tombstone before any listing.
		waitFor(t, "the removable frame's tombstone", func() bool {
			_, err := reg.ResolveID(ctx, id["removable"])
			return errs.CodeOf(err) == errs.SurfaceClosed
		})
		_, err := reg.Resolve(ctx)
		wantCode(t, err, errs.SurfaceClosed)
		_, err = reg.Select(id["removable"])
		wantCode(t, err, errs.SurfaceClosed)
		ds, err := reg.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(ds, func(d surface.Descriptor) bool { return d.ID == id["removable"] }) {
			t.Errorf("the removed frame is still listed")
		}
		// Still closed until another surface is selected.
		_, err = reg.Resolve(ctx)
		wantCode(t, err, errs.SurfaceClosed)
		if _, err := reg.Select(id["index"]); err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Resolve(ctx); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("an unknown id is SURFACE_NOT_FOUND", func(t *testing.T) {
		_, err := reg.Select("s1-surface-9999")
		wantCode(t, err, errs.SurfaceNotFound)
		_, err = reg.ResolveID(ctx, "nope")
		wantCode(t, err, errs.SurfaceNotFound)
	})

	t.Run("a closed root window falls back to a live root", func(t *testing.T) {
		if _, err := reg.Select(id["second"]); err != nil {
			t.Fatal(err)
		}
		if err := browser.ClosePage(ctx, a.pages[1]); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the second window's tombstone", func() bool {
			_, err := reg.ResolveID(ctx, id["second"])
			return errs.CodeOf(err) == errs.SurfaceClosed
		})
		res, err := reg.Resolve(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Fallback == nil || res.Fallback.From != id["second"] || res.Fallback.To != res.SurfaceID {
			t.Fatalf("no fallback reported: %+v", res.Fallback)
		}
		if reg.Active() != res.SurfaceID || reg.ActiveWindow() != res.InputRootID {
			t.Errorf("active %s / window %s after fallback to %s", reg.Active(), reg.ActiveWindow(), res.SurfaceID)
		}
	})
}

func frameOf(ds []surface.Descriptor, id string) string {
	for _, d := range ds {
		if d.ID == id {
			return d.FrameID
		}
	}
	return ""
}

// clickPoint clicks with the left button at (x, y) in the surface's own
// viewport: the point plus Resolution.Offset, dispatched on the input root
// so the embedding page hit-tests it. It is the minimal click that proves
// the geometry (internal/input owns real input). Headless Chromium renders
// only the front tab, so bring the window to the front first.
func clickPoint(ctx context.Context, res *surface.Resolution, x, y float64) error {
	ox, oy, err := res.Offset(ctx)
	if err != nil {
		return err
	}
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		p := map[string]any{"type": typ, "x": x + ox, "y": y + oy}
		if typ != "mouseMoved" {
			p["button"] = "left"
			p["clickCount"] = 1
		}
		if err := res.InputRoot.Call(ctx, "Input.dispatchMouseEvent", p, nil); err != nil {
			return err
		}
	}
	return nil
}
