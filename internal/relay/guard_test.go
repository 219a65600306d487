package relay

import (
	"context"
	"errors"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// hostile is one browser of its own (a case that gets through ends it, and
// must not end the shared one), a page of the fixture app in it and a relay
// in front.
type hostile struct {
	b     *chromiumtest.Browser
	r     *Relay
	page  string
	pageU string
}

func startHostile(t *testing.T, path string) *hostile {
	t.Helper()
	chromiumtest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b := chromiumtest.Start(ctx, t)
	u := fixtureSrv.get(t).URL("a.test", path)
	h := &hostile{b: b, pageU: u, page: openPageIn(t, b, u)}
	h.r = startRelay(t, endpointOf(b))
	return h
}

func (h *hostile) tunnelURL() string {
	return strings.Replace(h.r.WSURL(), "/devtools/browser/"+h.r.testBrowserID(), "/devtools/page/"+h.page, 1)
}

// assertAlive checks, for 0.8 s, that the browser answers and still has
// the app's page: a Browser.close or crash that got through ends it within
// that time.
func (h *hostile) assertAlive(t *testing.T, after string) {
	t.Helper()
	for i := 0; i < 4; i++ {
		time.Sleep(200 * time.Millisecond)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ts, err := h.b.List(ctx)
		cancel()
		if err != nil {
			t.Fatalf("after %s the browser does not answer: %v", after, err)
		}
		found := false
		for _, x := range ts {
			found = found || x.ID == h.page
		}
		if !found {
			t.Fatalf("after %s the app's page is gone", after)
		}
	}
}

// refused sends a command that must get a CDP error and leave the browser
// running.
func refused(t *testing.T, h *hostile, c *rawClient, sid, method string, params any) {
	t.Helper()
	if _, err := c.callErr(sid, method, params); err == nil {
		t.Errorf("%s on session %q succeeded, want an error", method, sid)
	} else if !strings.Contains(err.Message, "relay:") {
		t.Errorf("%s on session %q: %q, want the relay's refusal", method, sid, err.Message)
	}
	h.assertAlive(t, method)
}

// closesOnlyMe sends Browser.close, which must be answered and close this
// connection only, normally.
func closesOnlyMe(t *testing.T, h *hostile, c *rawClient, sid string) {
	t.Helper()
	id := c.send(sid, "Browser.close", nil)
	err := c.waitClosed()
	if c.index(func(f rawFrame) bool { return f.ID == id && f.Method == "" && f.Error == nil }) < 0 {
		t.Error("Browser.close was not answered before the connection closed")
	}
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusNormalClosure {
		t.Errorf("after Browser.close: %v, want a normal close", err)
	}
	h.assertAlive(t, "Browser.close")
	// The relay still serves others.
	c2 := dialRaw(t, h.r.WSURL())
	if v := decode[map[string]string](t, c2.call("", "Browser.getVersion", nil)); v["product"] == "" {
		t.Error("the relay does not answer after a client's Browser.close")
	}
}

// TestDestructiveMethodsOnEveryPath sends Browser.crash, crashGpuProcess
// and close on every kind of session and socket a relay client can have;
// the browser must outlive all of them.
func TestDestructiveMethodsOnEveryPath(t *testing.T) {
	crashes := []string{"Browser.crash", "Browser.crashGpuProcess"}
	h := startHostile(t, "/second.html") // one browser: none of this may end it
	t.Run("browser socket", func(t *testing.T) {
		c := dialRaw(t, h.r.WSURL())
		for _, m := range crashes {
			refused(t, h, c, "", m, nil)
		}
		closesOnlyMe(t, h, c, "")
	})
	t.Run("flat page session", func(t *testing.T) {
		c := dialRaw(t, h.r.WSURL())
		sid := decode[map[string]string](t, c.call("", "Target.attachToTarget", map[string]any{"targetId": h.page, "flatten": true}))["sessionId"]
		for _, m := range crashes {
			refused(t, h, c, sid, m, nil)
		}
		closesOnlyMe(t, h, c, sid)
	})
	t.Run("page tunnel", func(t *testing.T) {
		c := dialRaw(t, h.tunnelURL())
		for _, m := range crashes {
			refused(t, h, c, "", m, nil)
		}
		refused(t, h, c, "", "Page.close", nil)
		refused(t, h, c, "", "Target.closeTarget", map[string]string{"targetId": h.page})
		closesOnlyMe(t, h, c, "")
	})
	t.Run("child OOPIF session", func(t *testing.T) {
		frames := openPageIn(t, h.b, fixtureSrv.get(t).URL("a.test", "/index.html"))
		c := dialRaw(t, h.r.WSURL())
		sid := decode[map[string]string](t, c.call("", "Target.attachToTarget", map[string]any{"targetId": frames, "flatten": true}))["sessionId"]
		c.call(sid, "Target.setAutoAttach", map[string]any{"autoAttach": true, "waitForDebuggerOnStart": false, "flatten": true})
		_, f := c.waitFor(func(f rawFrame) bool { return f.Method == "Target.attachedToTarget" && f.SessionID == sid }, "the OOPIF child")
		child := decode[attachedEvent](t, f.Params).SessionID
		for _, m := range crashes {
			refused(t, h, c, child, m, nil)
		}
		refused(t, h, c, child, "Page.close", nil)
		refused(t, h, c, child, "Target.closeTarget", map[string]string{"targetId": h.page})
		closesOnlyMe(t, h, c, child)
	})
	t.Run("browser session on a page socket", func(t *testing.T) {
		// Target.attachToBrowserTarget on a page session is the page
		// socket's own: Chromium makes a real browser session there, which
		// the relay sees as a child session.
		c := dialRaw(t, h.r.WSURL())
		sid, _ := autoAttach(t, c, h.page)
		res, err := c.callErr(sid, "Target.attachToBrowserTarget", nil)
		if err != nil {
			// Chromium 156 refuses it ("Not allowed"): the path does not
			// exist there. The refusal must be Chromium's, and leave the
			// browser and this client's page session working.
			h.assertAlive(t, "a refused attachToBrowserTarget on a page session")
			if _, err := c.callErr(sid, "Runtime.evaluate", map[string]any{"expression": "1"}); err != nil {
				t.Fatalf("the page session stopped working after the refusal: %s", err.Message)
			}
			t.Logf("this Chromium refuses a browser session on a page socket (%s); the crash guard on it is not reachable here", err.Message)
			return
		}
		bs := decode[map[string]string](t, res)["sessionId"]
		for _, m := range crashes {
			refused(t, h, c, bs, m, nil)
		}
		refused(t, h, c, bs, "Target.closeTarget", map[string]string{"targetId": h.page})
		closesOnlyMe(t, h, c, bs)
	})
	t.Run("non-flat message", func(t *testing.T) {
		// A non-flat session would wrap commands in a string the guard
		// cannot read: refused on every path.
		c := dialRaw(t, h.r.WSURL())
		sid, _ := autoAttach(t, c, h.page)
		msg := map[string]any{"sessionId": "x", "message": `{"id":1,"method":"Browser.close"}`}
		refused(t, h, c, "", "Target.sendMessageToTarget", msg)
		refused(t, h, c, sid, "Target.sendMessageToTarget", msg)
		tc := dialRaw(t, h.tunnelURL())
		if res, err := tc.callErr("", "Target.attachToTarget", map[string]any{"targetId": h.page, "flatten": false}); err == nil {
			msg["sessionId"] = decode[map[string]string](t, res)["sessionId"]
		}
		refused(t, h, tc, "", "Target.sendMessageToTarget", msg)
	})
}

// TestAllowBrowserCloseLetsCloseThrough: with the operator's flag,
// Browser.close on a page session reaches the browser.
func TestAllowBrowserCloseLetsCloseThrough(t *testing.T) {
	h := startHostile(t, "/second.html")
	r := startRelayWith(t, Options{Upstream: endpointOf(h.b), AllowBrowserClose: true}, nil)
	c := dialRaw(t, r.WSURL())
	sid := decode[map[string]string](t, c.call("", "Target.attachToTarget", map[string]any{"targetId": h.page, "flatten": true}))["sessionId"]
	c.send(sid, "Browser.close", nil)
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, h.b.HTTPURL+"/json/version", nil)
		resp, err := http.DefaultClient.Do(req)
		cancel()
		if err != nil {
			return // the browser is gone, as the operator allowed
		}
		resp.Body.Close()
		if time.Now().After(deadline) {
			t.Fatal("Browser.close with AllowBrowserClose did not close the browser")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestBrowserActingURLsRefusedOnEveryPath: chrome://quit and its kin,
// through Target.createTarget, Page.navigate and /json/new on every path,
// never reach the browser.
func TestBrowserActingURLsRefusedOnEveryPath(t *testing.T) {
	h := startHostile(t, "/second.html")
	c := dialRaw(t, h.r.WSURL())
	sid := decode[map[string]string](t, c.call("", "Target.attachToTarget", map[string]any{"targetId": h.page, "flatten": true}))["sessionId"]
	for _, u := range []string{"chrome://quit/", "about:quit", " CHROME://restart", "chrome://crash", "chrome://kill", "chrome://inducebrowsercrashforrealz", "view-source:chrome://quit"} {
		refused(t, h, c, "", "Target.createTarget", map[string]string{"url": u})
		refused(t, h, c, sid, "Target.createTarget", map[string]string{"url": u})
		refused(t, h, c, sid, "Page.navigate", map[string]string{"url": u})
	}
	tc := dialRaw(t, h.tunnelURL())
	refused(t, h, tc, "", "Page.navigate", map[string]string{"url": "chrome://quit"})
	refused(t, h, tc, "", "Target.createTarget", map[string]string{"url": "chrome://quit"})
	if code, body := httpGet(t, http.MethodPut, h.r.HTTPURL()+"/json/new?chrome://quit/"); code != http.StatusForbidden {
		t.Errorf("/json/new?chrome://quit/: %d %s, want 403", code, body)
	}
	if code, body := httpGet(t, http.MethodPut, h.r.HTTPURL()+"/json/new?chrome%3A%2F%2Fquit%2F"); code != http.StatusForbidden {
		t.Errorf("/json/new of an escaped chrome://quit: %d %s, want 403", code, body)
	}
	h.assertAlive(t, "/json/new")
	// Chromium unescapes member names (measured: "p\u0061rams" is its
	// params), so a name spelled with an escape is the member it spells.
	for i, frame := range []struct {
		c   *rawClient
		raw string
	}{
		{c, `{"id":9001,"method":"Page.navigate","p\u0061rams":{"url":"chrome://quit"},"sessionId":"` + sid + `"}`},
		{c, `{"id":9002,"method":"Target.createTarget","\u0070arams":{"url":"chrome://quit"}}`},
		{tc, `{"id":9003,"method":"Page.navigate","par\u0061ms":{"url":"chrome://crash"}}`},
		{tc, `{"id":9004,"p\u0061rams":{},"params":{"url":"chrome://quit"},"method":"Page.navigate"}`},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
		if err := frame.c.ws.Write(ctx, websocket.MessageText, []byte(frame.raw)); err != nil {
			cancel()
			t.Fatalf("write %s: %v", frame.raw, err)
		}
		cancel()
		id := int64(9001 + i)
		_, f := frame.c.waitFor(func(f rawFrame) bool { return f.ID == id && f.Method == "" }, "the reply to "+frame.raw)
		if f.Error == nil {
			t.Errorf("%s succeeded, want an error", frame.raw)
		}
		h.assertAlive(t, frame.raw)
	}
	// Browser.close spelled with an escape is Browser.close: on a tunnel it
	// closes that tunnel only (the relay's answer), never the browser.
	ctc := dialRaw(t, h.tunnelURL())
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	if err := ctc.ws.Write(ctx, websocket.MessageText, []byte(`{"id":9005,"m\u0065thod":"Browser.close"}`)); err != nil {
		cancel()
		t.Fatal(err)
	}
	cancel()
	if err := ctc.waitClosed(); err == nil {
		t.Error("the tunnel stayed open after an escaped Browser.close")
	}
	h.assertAlive(t, "an escaped Browser.close on a tunnel")
	// Ordinary pages still open.
	res := c.call("", "Target.createTarget", map[string]string{"url": "about:blank"})
	if decode[map[string]string](t, res)["targetId"] == "" {
		t.Errorf("createTarget about:blank: %s", res)
	}
}

// TestHostilePlaywrightSession: Playwright's
// page.context().newCDPSession(page).send('Browser.close') (and crash,
// chrome://quit, Page.close) through the relay leave the app running.
func TestHostilePlaywrightSession(t *testing.T) {
	node := requireNode(t)
	h := startHostile(t, "/second.html")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "hostile.mjs")
	cmd.Dir = compatDir
	cmd.Env = compatEnv(h.r, fixtureSrv.get(t), h.pageU)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "DONE") {
		t.Fatalf("hostile.mjs: %v\n%s", err, out)
	}
	t.Logf("hostile.mjs:\n%s", out)
	h.assertAlive(t, "Playwright's Browser.close on a page session")
}

// TestHostilePuppeteer: Puppeteer on every socket kind a relay client can
// have (its own Connection on the browser socket, page.createCDPSession()
// as a flat page session, a Connection on the page tunnel) sends
// Browser.crash*, chrome://quit|crash|restart|kill through createTarget and
// Page.navigate, Page.close and Target.closeTarget of the app's page, then
// Browser.close: every one is refused or closes only that connection, and
// the browser process and the app's page stay alive after each kind.
func TestHostilePuppeteer(t *testing.T) {
	node := requireNode(t)
	h := startHostile(t, "/second.html") // one browser: none of this may end it
	for _, kind := range []string{"browser", "session", "tunnel"} {
		t.Run(kind, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, "hostile_puppeteer.mjs", kind)
			cmd.Dir = compatDir
			cmd.Env = compatEnv(h.r, fixtureSrv.get(t), h.pageU)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "DONE") {
				t.Fatalf("hostile_puppeteer.mjs %s: %v\n%s", kind, err, out)
			}
			t.Logf("hostile_puppeteer.mjs %s:\n%s", kind, out)
			h.assertAlive(t, "Puppeteer's hostile commands on the "+kind+" socket")
			if !browser.PIDAlive(h.b.PID) {
				t.Fatalf("the browser process %d is gone after the %s case", h.b.PID, kind)
			}
		})
	}
}

// TestRefusalsNeverHang: every command the relay refuses, sent by
// Playwright and by Puppeteer through their ordinary API where they have
// one (page.close(), page.goto) and through their CDP sessions otherwise,
// ends in an error or a close within a bound (compat/refusals.mjs), and
// the app's page survives each. chromedp: TestChromedpRefusalsNeverHang.
func TestRefusalsNeverHang(t *testing.T) {
	node := requireNode(t)
	for _, client := range []string{"playwright", "puppeteer"} {
		t.Run(client, func(t *testing.T) {
			h := startHostile(t, "/second.html")
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, "refusals.mjs", client)
			cmd.Dir = compatDir
			cmd.Env = compatEnv(h.r, fixtureSrv.get(t), h.pageU)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "DONE") {
				t.Fatalf("refusals.mjs %s: %v\n%s", client, err, out)
			}
			t.Logf("refusals.mjs %s:\n%s", client, out)
			h.assertAlive(t, client+"'s refused commands")
		})
	}
}

// TestTracingStartWithoutHostFiles: Tracing.start as Playwright and
// Puppeteer send it passes; a Perfetto config (which can name an output
// file) or the system backend is refused on every socket kind unless the
// operator allows the method, and params the guard cannot read are refused.
func TestTracingStartWithoutHostFiles(t *testing.T) {
	for _, kind := range []sockKind{sockBrowser, sockSession} {
		pol := guardPolicy{kind: kind}
		for _, ok := range []string{
			`{"transferMode":"ReturnAsStream","categories":"-*,devtools.timeline"}`,
			`{"transferMode":"ReturnAsStream","traceConfig":{"includedCategories":["devtools.timeline"]}}`,
			`{"tracingBackend":"chrome","perfettoConfig":""}`,
			``,
		} {
			if r := guardCommand("Tracing.start", []byte(ok), pol); r.v != pass {
				t.Errorf("%v: Tracing.start %s refused: %s", kind, ok, r.msg)
			}
		}
		for _, bad := range []string{
			`{"perfettoConfig":"CgQIgIAE"}`,
			`{"PerfettoConfig":"CgQIgIAE"}`,
			`{"tracingBackend":"system"}`,
			`{"perfettoConfig":"CgQIgIAE"`,
		} {
			r := guardCommand("Tracing.start", []byte(bad), pol)
			if r.v != refuse || !strings.Contains(r.msg, "Tracing.start") {
				t.Errorf("%v: Tracing.start %s = %+v, want a refusal naming the method", kind, bad, r)
			}
		}
		pol.allow = map[string]bool{"Tracing.start": true}
		if r := guardCommand("Tracing.start", []byte(`{"perfettoConfig":"CgQIgIAE"}`), pol); r.v != pass {
			t.Errorf("%v: --relay-allow Tracing.start still refused: %s", kind, r.msg)
		}
	}
}
