package relay

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// These tests speak raw CDP to a relay in front of the shared Chromium and
// check the protocol-level promises of the relay.

func httpGet(tb testing.TB, method, url string) (int, []byte) {
	tb.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

type listEntry struct {
	ID                   string `json:"id"`
	Type                 string `json:"type"`
	URL                  string `json:"url"`
	WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	DevtoolsFrontendURL  string `json:"devtoolsFrontendUrl"`
}

func TestHTTPEndpoints(t *testing.T) {
	b := needBrowser(t)
	url := fixtureSrv.get(t).URL("a.test", "/index.html")
	id := openPage(t, url)
	r := startRelay(t, endpointOf(b))

	for _, p := range []string{"/json/version", "/json/version/"} {
		code, body := httpGet(t, http.MethodGet, r.HTTPURL()+p)
		if code != 200 {
			t.Fatalf("%s: %d %s", p, code, body)
		}
		v := decode[map[string]any](t, body)
		if v["webSocketDebuggerUrl"] != r.WSURL() {
			t.Errorf("%s: webSocketDebuggerUrl = %v, want %s", p, v["webSocketDebuggerUrl"], r.WSURL())
		}
		if !strings.HasPrefix(v["Browser"].(string), "Chrome/") {
			t.Errorf("%s: Browser = %v", p, v["Browser"])
		}
	}
	for _, p := range []string{"/json/list", "/json", "/json/list/"} {
		code, body := httpGet(t, http.MethodGet, r.HTTPURL()+p)
		if code != 200 {
			t.Fatalf("%s: %d", p, code)
		}
		found := false
		for _, e := range decode[[]listEntry](t, body) {
			if e.Type == "browser_ui" || e.DevtoolsFrontendURL != "" {
				t.Errorf("%s lists %+v", p, e)
			}
			if !strings.HasPrefix(e.WebSocketDebuggerURL, "ws://"+strings.TrimPrefix(r.HTTPURL(), "http://")+"/devtools/page/") {
				t.Errorf("%s: socket of %s is %s, not the relay's", p, e.ID, e.WebSocketDebuggerURL)
			}
			if e.ID == id {
				found = e.URL == url && e.Type == "page"
			}
		}
		if !found {
			t.Errorf("%s does not list %s at %s: %s", p, id, url, body)
		}
	}

	if code, _ := httpGet(t, http.MethodGet, r.HTTPURL()+"/json/new?about:blank"); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /json/new: %d, want 405", code)
	}
	code, body := httpGet(t, http.MethodPut, r.HTTPURL()+"/json/new?about:blank")
	if code != 200 {
		t.Fatalf("PUT /json/new: %d %s", code, body)
	}
	created := decode[listEntry](t, body)
	if !strings.Contains(created.WebSocketDebuggerURL, strings.TrimPrefix(r.HTTPURL(), "http://")) {
		t.Errorf("/json/new socket %s is not the relay's", created.WebSocketDebuggerURL)
	}
	if code, _ := httpGet(t, http.MethodGet, r.HTTPURL()+"/json/activate/"+id); code != 200 {
		t.Errorf("/json/activate: %d", code)
	}
	if code, _ := httpGet(t, http.MethodGet, r.HTTPURL()+"/json/close/"+id); code != http.StatusForbidden {
		t.Errorf("/json/close of a target the relay did not open: %d, want 403", code)
	}
	if code, body := httpGet(t, http.MethodGet, r.HTTPURL()+"/json/close/"+created.ID); code != 200 {
		t.Errorf("/json/close of a target opened through the relay: %d %s", code, body)
	}
	if code, _ := httpGet(t, http.MethodGet, r.HTTPURL()+"/devtools/browser/not-the-id"); code != http.StatusNotFound {
		t.Errorf("a wrong browser id: %d, want 404", code)
	}
}

// autoAttach sends the root Target.setAutoAttach as Playwright does and
// returns the session the relay made for targetID, checking that the
// attach event came before the reply.
// rawOnPage opens the fixture's a.test page at path, starts a relay in front
// of the shared browser and returns the page's target id, a raw client of
// the relay and the client's session on the page (Target.setAutoAttach).
func rawOnPage(t *testing.T, path string) (id string, c *rawClient, sid string) {
	t.Helper()
	b := needBrowser(t)
	id = openPage(t, fixtureSrv.get(t).URL("a.test", path))
	c = dialRaw(t, startRelay(t, endpointOf(b)).WSURL())
	sid, _ = autoAttach(t, c, id)
	return id, c, sid
}

func autoAttach(t *testing.T, c *rawClient, targetID string) (string, targetInfo) {
	t.Helper()
	id := c.send("", "Target.setAutoAttach", map[string]any{"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true})
	ri, _ := c.waitFor(func(f rawFrame) bool { return f.ID == id && f.SessionID == "" }, "the setAutoAttach reply")
	ai, f := c.waitFor(attachedTo(targetID, ""), "Target.attachedToTarget of "+targetID)
	if ai > ri {
		t.Errorf("Target.attachedToTarget (frame %d) came after the setAutoAttach reply (frame %d)", ai, ri)
	}
	a := decode[attachedEvent](t, f.Params)
	return a.SessionID, a.TargetInfo
}

func TestAutoAttachThenRuntimeEnable(t *testing.T) {
	b := needBrowser(t)
	url := fixtureSrv.get(t).URL("a.test", "/index.html")
	id := openPage(t, url)
	r := startRelay(t, endpointOf(b))
	c := dialRaw(t, r.WSURL())

	v := decode[map[string]string](t, c.call("", "Browser.getVersion", nil))
	if !strings.HasPrefix(v["product"], "Chrome/") {
		t.Errorf("Browser.getVersion: %v", v)
	}
	sid, info := autoAttach(t, c, id)
	if info.URL != url || info.Type != "page" || info.BrowserContextID == "" || !info.Attached {
		t.Errorf("attached target info: %+v", info)
	}
	_, f := c.waitFor(attachedTo(id, ""), "attach")
	if decode[attachedEvent](t, f.Params).WaitingForDebugger {
		t.Error("waitingForDebugger is true for a running page")
	}
	if n := c.count(attachedTo(id, "")); n != 1 {
		t.Errorf("%d attach events for one page", n)
	}
	for _, e := range c.snapshot() {
		if e.Method == "Target.attachedToTarget" {
			ti := decode[attachedEvent](t, e.Params).TargetInfo
			if ti.URL == "" || ti.Type != "page" {
				t.Errorf("attached a target without a URL, or not a page: %+v", ti)
			}
		}
	}

	// A fresh socket per client: Runtime.enable brings the contexts, the
	// main frame's default one first, before the reply.
	rid := c.send(sid, "Runtime.enable", nil)
	ri, _ := c.waitFor(func(f rawFrame) bool { return f.ID == rid && f.SessionID == sid }, "Runtime.enable reply")
	first := c.index(isEvent("Runtime.executionContextCreated", sid))
	if first < 0 || first > ri {
		t.Fatalf("no executionContextCreated before the Runtime.enable reply")
	}
	ctx := decode[struct {
		Context struct {
			AuxData struct {
				FrameID   string `json:"frameId"`
				IsDefault bool   `json:"isDefault"`
			} `json:"auxData"`
		} `json:"context"`
	}](t, c.snapshot()[first].Params)
	if ctx.Context.AuxData.FrameID != id || !ctx.Context.AuxData.IsDefault {
		t.Errorf("first context %+v, want the main frame's default", ctx.Context.AuxData)
	}
	if n := c.count(isEvent("Runtime.executionContextCreated", sid)); n < 5 {
		t.Errorf("%d contexts; the page has five same-process frames", n)
	}
	res := c.call(sid, "Runtime.evaluate", map[string]any{"expression": "document.title", "returnByValue": true})
	if !strings.Contains(string(res), `"Top"`) {
		t.Errorf("evaluate: %s", res)
	}
	// The relay answers for its targets, which never wait for a debugger.
	c.call(sid, "Runtime.runIfWaitingForDebugger", nil)

	// A second client gets its own session and its own contexts.
	c2 := dialRaw(t, r.WSURL())
	sid2, _ := autoAttach(t, c2, id)
	if sid2 == sid {
		t.Error("two clients got the same session id")
	}
	c2.call(sid2, "Runtime.enable", nil)
	if c2.count(isEvent("Runtime.executionContextCreated", sid2)) == 0 {
		t.Error("the second client's Runtime.enable brought no contexts")
	}
}

func TestIsolationAndRelease(t *testing.T) {
	b := needBrowser(t)
	url := fixtureSrv.get(t).URL("a.test", "/second.html")
	id := openPage(t, url)
	r := startRelay(t, endpointOf(b))
	a := dialRaw(t, r.WSURL())
	bc := dialRaw(t, r.WSURL())
	sa, _ := autoAttach(t, a, id)
	sb, _ := autoAttach(t, bc, id)

	eval := func(c *rawClient, sid, expr string, await bool) string {
		t.Helper()
		res := c.call(sid, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": await})
		v := decode[struct {
			Result struct {
				Value any `json:"value"`
			} `json:"result"`
		}](t, res)
		s, _ := v.Result.Value.(string)
		return s
	}

	// A intercepts and watches the network; B only evaluates.
	a.call(sa, "Network.enable", nil)
	a.call(sa, "Fetch.enable", map[string]any{"patterns": []map[string]string{{"urlPattern": "*echo?x=iso*"}}})
	bc.call(sb, "Runtime.enable", nil)
	eval(bc, sb, "window.__iso = fetch('/echo?x=iso1').then(r => r.json()).then(j => j.x); 'started'", false)
	_, paused := a.waitFor(isEvent("Fetch.requestPaused", sa), "A's Fetch.requestPaused")
	if got := eval(bc, sb, "document.title", false); got != "Second" {
		t.Errorf("B's evaluate while A holds a request: %q", got)
	}
	req := decode[struct {
		RequestID string `json:"requestId"`
	}](t, paused.Params)
	a.call(sa, "Fetch.continueRequest", map[string]string{"requestId": req.RequestID})
	if got := eval(bc, sb, "window.__iso", true); got != "iso1" {
		t.Errorf("B's fetch after A continued it: %q", got)
	}
	if a.count(isEvent("Network.requestWillBeSent", sa)) == 0 {
		t.Error("A saw no Network events")
	}
	for _, f := range bc.snapshot() {
		if strings.HasPrefix(f.Method, "Network.") || strings.HasPrefix(f.Method, "Fetch.") {
			t.Fatalf("B, which enabled neither, got %s", f.Method)
		}
	}

	// A pauses in the debugger: B gets no Debugger events and is answered.
	a.call(sa, "Fetch.disable", nil)
	a.call(sa, "Debugger.enable", nil)
	a.send(sa, "Runtime.evaluate", map[string]any{"expression": "debugger; 1"})
	a.waitFor(isEvent("Debugger.paused", sa), "A's Debugger.paused")
	if got := eval(bc, sb, "document.title", false); got != "Second" {
		t.Errorf("B's evaluate while A is paused: %q", got)
	}
	// A goes without resuming: the relay closes A's socket, the browser
	// resumes, and B's timers run again.
	a.close()
	if got := eval(bc, sb, "new Promise(r => setTimeout(() => r('ticked'), 10))", true); got != "ticked" {
		t.Errorf("after A left: %q", got)
	}

	// A new client holds a request and leaves without answering: the
	// request goes on.
	a2 := dialRaw(t, r.WSURL())
	sa2, _ := autoAttach(t, a2, id)
	a2.call(sa2, "Fetch.enable", map[string]any{"patterns": []map[string]string{{"urlPattern": "*echo?x=rel*"}}})
	eval(bc, sb, "window.__rel = fetch('/echo?x=rel1').then(r => r.json()).then(j => j.x); 'started'", false)
	a2.waitFor(isEvent("Fetch.requestPaused", sa2), "A2's Fetch.requestPaused")
	a2.close()
	if got := eval(bc, sb, "window.__rel", true); got != "rel1" {
		t.Errorf("the request A2 held, after A2 left: %q", got)
	}
	for _, f := range bc.snapshot() {
		if strings.HasPrefix(f.Method, "Debugger.") || strings.HasPrefix(f.Method, "Fetch.") {
			t.Fatalf("B got %s", f.Method)
		}
	}
}

func TestCreateCloseAndDiscover(t *testing.T) {
	id, c, sid := rawOnPage(t, "/second.html")

	// Discovery: one targetCreated per target, before the reply.
	did := c.send("", "Target.setDiscoverTargets", map[string]bool{"discover": true})
	di, _ := c.waitFor(func(f rawFrame) bool { return f.ID == did }, "setDiscoverTargets reply")
	ci, _ := c.waitFor(func(f rawFrame) bool {
		return f.Method == "Target.targetCreated" && strings.Contains(string(f.Params), id)
	}, "targetCreated of the page")
	if ci > di {
		t.Error("targetCreated came after the setDiscoverTargets reply")
	}
	for _, f := range c.snapshot() {
		if f.Method == "Target.targetCreated" && (strings.Contains(string(f.Params), `"browser_ui"`) || strings.Contains(string(f.Params), `"tab"`)) {
			t.Errorf("discovery shows %s", f.Params)
		}
	}

	// createTarget: attached before the reply (Playwright looks the page
	// up as soon as the reply comes).
	url := fixtureSrv.get(t).URL("a.test", "/second.html?created=1")
	cid := c.send("", "Target.createTarget", map[string]string{"url": url})
	ri, reply := c.waitFor(func(f rawFrame) bool { return f.ID == cid && f.SessionID == "" }, "createTarget reply")
	if reply.Error != nil {
		t.Fatalf("createTarget: %+v", reply.Error)
	}
	newID := decode[map[string]string](t, reply.Result)["targetId"]
	ai, af := c.waitFor(attachedTo(newID, ""), "attach of the new target")
	if ai > ri {
		t.Error("the new target was attached after the createTarget reply")
	}
	newSID := decode[attachedEvent](t, af.Params).SessionID
	c.waitFor(func(f rawFrame) bool {
		return f.Method == "Target.targetCreated" && strings.Contains(string(f.Params), newID)
	}, "targetCreated of the new target")

	// Only targets this client created may be closed.
	if _, err := c.callErr("", "Target.closeTarget", map[string]string{"targetId": id}); err == nil {
		t.Error("closeTarget of a target another party opened was allowed")
	}
	if _, err := c.callErr(sid, "Page.close", nil); err == nil {
		t.Error("Page.close of a target another party opened was allowed")
	}
	c.call("", "Target.closeTarget", map[string]string{"targetId": newID})
	c.waitFor(func(f rawFrame) bool {
		return f.Method == "Target.detachedFromTarget" && f.SessionID == "" && strings.Contains(string(f.Params), newSID)
	}, "detachedFromTarget of the closed target")
	c.waitFor(func(f rawFrame) bool {
		return f.Method == "Target.targetDestroyed" && strings.Contains(string(f.Params), newID)
	}, "targetDestroyed of the closed target")
	if _, err := c.callErr(newSID, "Runtime.evaluate", map[string]string{"expression": "1"}); err == nil || err.Code != codeNoSession {
		t.Errorf("a command on the detached session: %+v", err)
	}
	if code, _ := httpGet(t, http.MethodGet, needBrowser(t).HTTPURL+"/json/version"); code != 200 {
		t.Fatal("the browser is gone")
	}
}

func TestTargetInfoDetachAndBrowserClose(t *testing.T) {
	b := needBrowser(t)
	url := fixtureSrv.get(t).URL("a.test", "/second.html")
	id := openPage(t, url)
	r := startRelay(t, endpointOf(b))
	c := dialRaw(t, r.WSURL())

	bi := decode[struct {
		TargetInfo targetInfo `json:"targetInfo"`
	}](t, c.call("", "Target.getTargetInfo", nil)).TargetInfo
	if bi.Type != "browser" || bi.TargetID != r.testBrowserID() {
		t.Errorf("getTargetInfo without targetId: %+v", bi)
	}
	pi := decode[struct {
		TargetInfo targetInfo `json:"targetInfo"`
	}](t, c.call("", "Target.getTargetInfo", map[string]string{"targetId": id})).TargetInfo
	if pi.URL != url || pi.Type != "page" || pi.Attached {
		t.Errorf("getTargetInfo of the page: %+v", pi)
	}
	if _, err := c.callErr("", "Target.getTargetInfo", map[string]string{"targetId": "NOPE"}); err == nil {
		t.Error("getTargetInfo of an unknown target succeeded")
	}
	infos := decode[struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}](t, c.call("", "Target.getTargets", nil)).TargetInfos
	seen := false
	for _, ti := range infos {
		if hiddenType(ti.Type) {
			t.Errorf("getTargets shows %+v", ti)
		}
		seen = seen || ti.TargetID == id
	}
	if !seen {
		t.Error("getTargets misses the page")
	}

	// attachToTarget: the event first, then the reply with the same session.
	aid := c.send("", "Target.attachToTarget", map[string]any{"targetId": id, "flatten": true})
	ri, reply := c.waitFor(func(f rawFrame) bool { return f.ID == aid }, "attachToTarget reply")
	ai, af := c.waitFor(attachedTo(id, ""), "attach event")
	sid := decode[map[string]string](t, reply.Result)["sessionId"]
	if ai > ri || decode[attachedEvent](t, af.Params).SessionID != sid {
		t.Errorf("attachToTarget: event %d reply %d, sessions %s / %s", ai, ri, af.Params, reply.Result)
	}
	pi = decode[struct {
		TargetInfo targetInfo `json:"targetInfo"`
	}](t, c.call(sid, "Target.getTargetInfo", nil)).TargetInfo
	if pi.TargetID != id || !pi.Attached {
		t.Errorf("getTargetInfo on the page session: %+v", pi)
	}

	// A browser session, as Playwright's newCDPSession makes.
	bs := decode[map[string]string](t, c.call("", "Target.attachToBrowserTarget", nil))["sessionId"]
	if v := decode[map[string]string](t, c.call(bs, "Browser.getVersion", nil)); v["product"] == "" {
		t.Error("Browser.getVersion on a browser session")
	}
	s2 := decode[map[string]string](t, c.call(bs, "Target.attachToTarget", map[string]any{"targetId": id, "flatten": true}))["sessionId"]
	c.waitFor(attachedTo(id, bs), "the attach event on the browser session")
	c.call(s2, "Runtime.evaluate", map[string]string{"expression": "1"})

	// Detach: the event, then the reply; a stale session is a no-op.
	c.call("", "Target.detachFromTarget", map[string]string{"sessionId": sid})
	c.waitFor(func(f rawFrame) bool {
		return f.Method == "Target.detachedFromTarget" && strings.Contains(string(f.Params), sid)
	}, "detachedFromTarget")
	c.call("", "Target.detachFromTarget", map[string]string{"sessionId": sid})
	c.call("", "Target.detachFromTarget", map[string]string{"sessionId": "0123456789ABCDEF0123456789ABCDEF"})

	// Destructive commands: Browser.crash refused; Browser.close closes
	// only this connection.
	if _, err := c.callErr("", "Browser.crash", nil); err == nil {
		t.Error("Browser.crash was allowed")
	}
	c.call("", "Browser.close", nil)
	err := c.waitClosed()
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusNormalClosure {
		t.Errorf("after Browser.close: %v, want a normal close", err)
	}
	c2 := dialRaw(t, r.WSURL())
	if decode[map[string]string](t, c2.call("", "Browser.getVersion", nil))["product"] == "" {
		t.Error("the relay does not answer after a client's Browser.close")
	}
	if code, _ := httpGet(t, http.MethodGet, b.HTTPURL+"/json/version"); code != 200 {
		t.Fatal("Browser.close through the relay closed the browser")
	}
}

func TestNestedOOPIFChildSessions(t *testing.T) {
	_, c, sid := rawOnPage(t, "/index.html")
	waitLoaded(t, c, sid)

	childOf := func(parent, host string) attachedEvent {
		t.Helper()
		c.call(parent, "Target.setAutoAttach", map[string]any{"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true})
		// Chromium attaches a frame's child with an empty URL; the parent
		// has one cross-site frame here, so the first is the one.
		_, f := c.waitFor(func(f rawFrame) bool {
			return f.Method == "Target.attachedToTarget" && f.SessionID == parent
		}, "the "+host+" frame attached on "+parent)
		a := decode[attachedEvent](t, f.Params)
		if a.TargetInfo.Type != "iframe" {
			t.Errorf("child %+v", a.TargetInfo)
		}
		c.call(a.SessionID, "Runtime.runIfWaitingForDebugger", nil)
		res := c.call(a.SessionID, "Runtime.evaluate", map[string]any{"expression": "location.host", "returnByValue": true})
		if !strings.Contains(string(res), host) {
			t.Errorf("the child of %s is at %s, want %s", parent, res, host)
		}
		return a
	}
	b1 := childOf(sid, "b.test")
	c2 := childOf(b1.SessionID, "c.example")
	waitLoaded(t, c, c2.SessionID)
	res := c.call(c2.SessionID, "Runtime.evaluate", map[string]any{"expression": "document.querySelector('#btn').textContent", "returnByValue": true})
	if !strings.Contains(string(res), "Click cross2") {
		t.Errorf("evaluate in the nested frame: %s", res)
	}

	// Detaching the page detaches its children first, innermost first.
	c.call("", "Target.detachFromTarget", map[string]string{"sessionId": sid})
	detached := func(s, on string) int {
		i, _ := c.waitFor(func(f rawFrame) bool {
			return f.Method == "Target.detachedFromTarget" && f.SessionID == on && strings.Contains(string(f.Params), s)
		}, "detach of "+s)
		return i
	}
	i2, i1, i0 := detached(c2.SessionID, b1.SessionID), detached(b1.SessionID, sid), detached(sid, "")
	if !(i2 < i1 && i1 < i0) {
		t.Errorf("detach order %d %d %d, want innermost first", i2, i1, i0)
	}
	if _, err := c.callErr(c2.SessionID, "Runtime.evaluate", map[string]string{"expression": "1"}); err == nil {
		t.Error("the nested session still answers after its page detached")
	}
}

// TestPopupAttachesWithItsURL also checks the close rule (docs/adr/028): a
// popup the app opened while a client was connected is that client's to
// close; for a client that connected later it is the app's: its close is
// refused, and ends only that client's view of it.
func TestPopupAttachesWithItsURL(t *testing.T) {
	b := needBrowser(t)
	id := openPage(t, fixtureSrv.get(t).URL("a.test", "/actions.html"))
	r := startRelay(t, endpointOf(b))
	c := dialRaw(t, r.WSURL())
	sid, _ := autoAttach(t, c, id)
	waitLoaded(t, c, sid)
	c.call(sid, "Runtime.evaluate", map[string]any{"expression": "document.getElementById('popup-link').click()", "userGesture": true})
	_, f := c.waitFor(func(f rawFrame) bool {
		return f.Method == "Target.attachedToTarget" && f.SessionID == "" && strings.Contains(string(f.Params), `"openerId":"`+id)
	}, "the popup's attach")
	a := decode[attachedEvent](t, f.Params)
	if a.TargetInfo.URL != fixtureSrv.get(t).URL("a.test", "/second.html") {
		t.Errorf("popup attached with url %q", a.TargetInfo.URL)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = needBrowser(t).ClosePage(ctx, a.TargetInfo.TargetID)
	})
	pop := a.TargetInfo.TargetID
	// A client that connects now finds the popup part of the app.
	late := dialRaw(t, r.WSURL())
	lsid, _ := autoAttach(t, late, pop)
	late.call("", "Target.setDiscoverTargets", map[string]any{"discover": true})
	if _, err := late.callErr("", "Target.closeTarget", map[string]string{"targetId": pop}); err == nil {
		t.Fatal("a client closed a popup that opened before it connected")
	}
	late.waitFor(func(f rawFrame) bool {
		return f.Method == "Target.detachedFromTarget" && f.SessionID == "" && strings.Contains(string(f.Params), lsid)
	}, "the late client's session on the popup to detach")
	late.waitFor(func(f rawFrame) bool {
		return f.Method == "Target.targetDestroyed" && strings.Contains(string(f.Params), pop)
	}, "targetDestroyed of the popup, for the late client")
	if got := r.Stats().ClosedViews; got != 1 {
		t.Errorf("Stats().ClosedViews = %d, want 1", got)
	}
	infos := string(late.call("", "Target.getTargets", nil))
	if strings.Contains(infos, pop) {
		t.Error("the late client still lists the popup it closed for itself")
	}
	if code, body := httpGet(t, http.MethodGet, r.HTTPURL()+"/json/list"); code != 200 || !strings.Contains(string(body), pop) {
		t.Fatal("the popup is gone: the late client's refused close closed it")
	}
	// The first client was connected when the app opened it: it may close it.
	c.call("", "Target.closeTarget", map[string]string{"targetId": pop})
	c.waitFor(func(f rawFrame) bool {
		return f.Method == "Target.detachedFromTarget" && f.SessionID == "" && strings.Contains(string(f.Params), pop)
	}, "the popup's detach after the first client closed it")
	deadline := time.Now().Add(waitTimeout)
	for r.Stats().ClosedViews != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("Stats().ClosedViews = %d after the popup went, want 0", r.Stats().ClosedViews)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The app's own page stays protected for both.
	if _, err := c.callErr("", "Target.closeTarget", map[string]string{"targetId": id}); err == nil {
		t.Error("the client closed the app's own page")
	}
}

// waitLoaded waits until the document of a page session (with its frames)
// has loaded.
func waitLoaded(t *testing.T, c *rawClient, sid string) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		res := c.call(sid, "Runtime.evaluate", map[string]any{"expression": "document.readyState", "returnByValue": true})
		if strings.Contains(string(res), `"complete"`) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the page did not load")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestWebviewGuestIsAPage(t *testing.T) {
	b := needBrowser(t)
	srv := fixtureSrv.get(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	proxy, err := fixture.StartElectronProxy(ctx, b.HTTPURL, fixture.ProxyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = proxy.Close() })
	openPage(t, srv.URL("a.test", "/webview-host.html"))
	guestURL := srv.URL("a.test", "/guest.html")
	guest := openPage(t, guestURL)
	r := startRelay(t, browser.Endpoint{HTTPURL: proxy.HTTPURL()})

	// The proxy shows the guest as a webview...
	_, body := httpGet(t, http.MethodGet, proxy.HTTPURL()+"/json/list")
	if !strings.Contains(string(body), `"webview"`) {
		t.Fatalf("the proxy shows no webview: %s", body)
	}
	// ...and the relay as a page, everywhere.
	_, body = httpGet(t, http.MethodGet, r.HTTPURL()+"/json/list")
	for _, e := range decode[[]listEntry](t, body) {
		if e.ID == guest && e.Type != "page" {
			t.Errorf("/json/list: guest is %q", e.Type)
		}
	}
	c := dialRaw(t, r.WSURL())
	if v := decode[map[string]string](t, c.call("", "Browser.getVersion", nil)); !strings.HasPrefix(v["product"], "Electron/") {
		t.Errorf("Browser.getVersion through the proxy: %v", v)
	}
	sid, info := autoAttach(t, c, guest)
	if info.Type != "page" || info.URL != guestURL {
		t.Errorf("guest attached as %+v", info)
	}
	res := c.call(sid, "Runtime.evaluate", map[string]any{"expression": "document.title", "returnByValue": true})
	if !strings.Contains(string(res), `"Guest"`) {
		t.Errorf("evaluate in the guest: %s", res)
	}
	for _, ti := range decode[struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}](t, c.call("", "Target.getTargets", nil)).TargetInfos {
		if ti.Type == "webview" {
			t.Errorf("getTargets shows a webview: %+v", ti)
		}
	}
}

func TestTargetSocketTunnel(t *testing.T) {
	b := needBrowser(t)
	id := openPage(t, fixtureSrv.get(t).URL("a.test", "/second.html"))
	r := startRelay(t, endpointOf(b))
	c := dialRaw(t, strings.Replace(r.WSURL(), "/devtools/browser/"+r.testBrowserID(), "/devtools/page/"+id, 1))
	res := c.call("", "Runtime.evaluate", map[string]any{"expression": "document.title", "returnByValue": true})
	if !strings.Contains(string(res), `"Second"`) {
		t.Errorf("evaluate on the target socket: %s", res)
	}
	for _, m := range []string{"Page.close", "Target.closeTarget"} {
		if _, err := c.callErr("", m, map[string]string{"targetId": id}); err == nil {
			t.Errorf("%s passed through the target socket", m)
		}
	}
	if code, _ := httpGet(t, http.MethodGet, b.HTTPURL+"/json/list"); code != 200 {
		t.Fatal("browser gone")
	}
}

func TestUpstreamLossDetachesAndCloses(t *testing.T) {
	chromiumtest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	own := chromiumtest.Start(ctx, t)
	url := fixtureSrv.get(t).URL("a.test", "/second.html")
	id, err := own.NewPage(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := own.WaitList(ctx, func(ts []chromiumtest.Target) bool {
		for _, x := range ts {
			if x.ID == id && x.URL == url {
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatal(err)
	}
	r := startRelay(t, endpointOf(own))
	c1 := dialRaw(t, r.WSURL())
	c2 := dialRaw(t, r.WSURL())
	s1, _ := autoAttach(t, c1, id)
	s2, _ := autoAttach(t, c2, id)
	if err := own.Stop(); err != nil {
		t.Logf("stop: %v", err)
	}
	for _, x := range []struct {
		c   *rawClient
		sid string
	}{{c1, s1}, {c2, s2}} {
		x.c.waitFor(func(f rawFrame) bool {
			return f.Method == "Target.detachedFromTarget" && f.SessionID == "" && strings.Contains(string(f.Params), x.sid)
		}, "the detach after the browser died")
		err := x.c.waitClosed()
		var ce websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.StatusInternalError {
			t.Errorf("close after the browser died: %v, want status 1011", err)
		}
	}
	select {
	case <-r.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the relay did not stop after its upstream died")
	}
	if r.Err() == nil {
		t.Error("Err is nil after the upstream died")
	}
}

func TestDownloadBehaviorAnsweredWhenUpstreamRefuses(t *testing.T) {
	r := startRelay(t, startFake(t).endpoint())
	c := dialRaw(t, r.WSURL())
	if _, err := c.callErr("", "Browser.setDownloadBehavior", map[string]any{"behavior": "allowAndName", "downloadPath": t.TempDir(), "eventsEnabled": true}); err != nil {
		t.Errorf("Browser.setDownloadBehavior: %+v, want {} even though the upstream refused", err)
	}
}
