package relay

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// The holes of issue 27 (relay half), each against a Chromium of its own
// (a case that gets through may end it) with the fixture app's page in it.

// startHostileWith is startHostile with relay options.
func startHostileWith(t *testing.T, path string, opts Options) *hostile {
	t.Helper()
	chromiumtest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b := chromiumtest.Start(ctx, t)
	u := fixtureSrv.get(t).URL("a.test", path)
	h := &hostile{b: b, pageU: u, page: openPageIn(t, b, u)}
	opts.Upstream = endpointOf(b)
	h.r = startRelayWith(t, opts, nil)
	return h
}

// refusedNaming is refused, and the refusal names want.
func refusedNaming(t *testing.T, h *hostile, c *rawClient, sid, method string, params any, want ...string) {
	t.Helper()
	_, err := c.callErr(sid, method, params)
	if err == nil {
		t.Errorf("%s on session %q succeeded, want the relay's refusal", method, sid)
		return
	}
	for _, w := range append([]string{"relay:"}, want...) {
		if !strings.Contains(err.Message, w) {
			t.Errorf("%s on session %q: %q, want it to name %q", method, sid, err.Message, w)
		}
	}
	h.assertAlive(t, method)
}

// evalString evaluates expr on a session and returns its string value.
func evalString(t *testing.T, c *rawClient, sid, expr string) string {
	t.Helper()
	res := decode[struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
	}](t, c.call(sid, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}))
	s, _ := res.Result.Value.(string)
	return s
}

// pageURLs lists the browser's page targets' URLs, straight from it.
func pageURLs(t *testing.T, h *hostile) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ts, err := h.b.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, x := range ts {
		if x.Type == "page" {
			out = append(out, x.URL)
		}
	}
	return out
}

// chromePages are the browser's chrome: and devtools: pages (Chromium
// 156 headless has chrome://new-tab-page-third-party/ of its own).
func chromePages(t *testing.T, h *hostile) []string {
	t.Helper()
	var out []string
	for _, u := range pageURLs(t, h) {
		if strings.HasPrefix(strings.ToLower(u), "chrome") || strings.HasPrefix(u, "devtools") {
			out = append(out, u)
		}
	}
	return out
}

// startupPage is the new tab page Chromium 156 headless opens by itself at
// start, sometimes seconds later on a loaded machine (a -race run): after
// the test took its list of pages before. It is not a page a client
// opened.
const startupPage = "chrome://new-tab-page-third-party/"

// noChromePage fails when a chrome: or devtools: page not in before is
// open (Chromium's own startup page aside).
func noChromePage(t *testing.T, h *hostile, after string, before []string) {
	t.Helper()
	for _, u := range chromePages(t, h) {
		if !contains(before, u) && u != startupPage {
			t.Errorf("after %s the browser has %s open", after, u)
		}
	}
}

// Hole 1: Target.exposeDevToolsProtocol gave a page a browser-level CDP
// channel (window.cdp), from which page script could send Browser.close.
func TestExposeDevToolsProtocolRefused(t *testing.T) {
	h := startHostile(t, "/second.html")
	c := dialRaw(t, h.r.WSURL())
	refusedNaming(t, h, c, "", "Target.exposeDevToolsProtocol", map[string]any{"targetId": h.page, "bindingName": "cdp"},
		"Target.exposeDevToolsProtocol", "--relay-allow Target.exposeDevToolsProtocol")
	sid, _ := autoAttach(t, c, h.page)
	if got := evalString(t, c, sid, "typeof window.cdp"); got != "undefined" {
		t.Errorf("after the refusal the page has window.cdp (%s)", got)
	}
	// The session path and the page tunnel refuse it too.
	refusedNaming(t, h, c, sid, "Target.exposeDevToolsProtocol", map[string]any{"targetId": h.page, "bindingName": "cdp"}, "--relay-allow")
	tc := dialRaw(t, h.tunnelURL())
	refusedNaming(t, h, tc, "", "Target.exposeDevToolsProtocol", map[string]any{"targetId": h.page, "bindingName": "cdp"}, "--relay-allow")
}

// Default deny: a method no mainstream client sends is refused, naming
// itself and the switch; the operator's switch lets it through.
func TestDefaultDenyAndRelayAllow(t *testing.T) {
	h := startHostile(t, "/second.html")
	c := dialRaw(t, h.r.WSURL())
	refusedNaming(t, h, c, "", "SystemInfo.getProcessInfo", nil, "SystemInfo.getProcessInfo", "--relay-allow SystemInfo.getProcessInfo", "browser socket")
	sid, _ := autoAttach(t, c, h.page)
	refusedNaming(t, h, c, sid, "Extensions.loadUnpacked", map[string]string{"path": "/tmp"}, "--relay-allow Extensions.loadUnpacked", "session socket")
	refusedNaming(t, h, c, sid, "Tethering.bind", map[string]int{"port": 9}, "--relay-allow Tethering.bind")
	tc := dialRaw(t, h.tunnelURL())
	refusedNaming(t, h, tc, "", "Tethering.bind", map[string]int{"port": 9}, "page socket")
}

func TestRelayAllowLetsAMethodThrough(t *testing.T) {
	h := startHostileWith(t, "/second.html", Options{Allow: []string{"SystemInfo.getProcessInfo", "Schema.*"}})
	c := dialRaw(t, h.r.WSURL())
	if _, err := c.callErr("", "SystemInfo.getProcessInfo", nil); err != nil && strings.Contains(err.Message, "relay:") {
		t.Errorf("with --relay-allow SystemInfo.getProcessInfo: %s", err.Message)
	}
	if _, err := c.callErr("", "Schema.getDomains", nil); err != nil && strings.Contains(err.Message, "relay:") {
		t.Errorf("with --relay-allow Schema.*: %s", err.Message)
	}
	refusedNaming(t, h, c, "", "SystemInfo.getInfo", nil, "--relay-allow SystemInfo.getInfo")
}

// Hole 2: /json/new with "%zz" in the query: Go's unescape failed, the
// guard judged the raw string, and Chromium unescaped the rest leniently
// and opened chrome://settings.
func TestJSONNewUndecodableRefused(t *testing.T) {
	h := startHostile(t, "/second.html")
	before := chromePages(t, h)
	for _, q := range []string{
		"chrome%3A%2F%2Fsettings%2F%zz", "chrome%3A%2F%2Fsettings%2F%", "%zzchrome://settings", "chrome%3A%2F%2Fsettings%2F%2",
	} {
		code, body := httpGet(t, http.MethodPut, h.r.HTTPURL()+"/json/new?"+q)
		if code != http.StatusBadRequest {
			t.Errorf("/json/new?%s: %d %s, want 400", q, code, body)
		}
	}
	for _, q := range []string{
		"chrome%3A%2F%2Fsettings%2F", "%E2%80%8Bchrome://settings", "chrome%00://settings", "%C2%A0chrome://settings",
		"%EF%BB%BFchrome://settings", "blob:chrome://settings/x", "filesystem%3Achrome%3A//settings/temporary/x", "file:///etc/passwd",
	} {
		code, body := httpGet(t, http.MethodPut, h.r.HTTPURL()+"/json/new?"+q)
		if code != http.StatusForbidden {
			t.Errorf("/json/new?%s: %d %s, want 403", q, code, body)
		}
	}
	noChromePage(t, h, "/json/new", before)
	h.assertAlive(t, "/json/new")
	// What decodes to an ordinary URL still opens.
	if code, body := httpGet(t, http.MethodPut, h.r.HTTPURL()+"/json/new?"+url.QueryEscape(h.pageU)); code != http.StatusOK {
		t.Errorf("/json/new of an escaped http URL: %d %s", code, body)
	}
}

// Hole 3: Page.crash on the app's page killed its renderer.
func TestPageCrashRefusedOnAppPage(t *testing.T) {
	h := startHostile(t, "/second.html")
	c := dialRaw(t, h.r.WSURL())
	sid, _ := autoAttach(t, c, h.page)
	refusedNaming(t, h, c, sid, "Page.crash", nil, "--relay-allow Page.crash")
	tc := dialRaw(t, h.tunnelURL())
	refusedNaming(t, h, tc, "", "Page.crash", nil, "Page.crash")
	if got := evalString(t, c, sid, "'alive:' + document.readyState"); !strings.HasPrefix(got, "alive:") {
		t.Errorf("the app's page after the refused crashes: %q", got)
	}
}

// Hole 5: client B disposed of a browser context client A created (and
// saw it in Target.getBrowserContexts).
func TestBrowserContextsOwnedPerClient(t *testing.T) {
	h := startHostile(t, "/second.html")
	a := dialRaw(t, h.r.WSURL())
	b := dialRaw(t, h.r.WSURL())
	ctxID := decode[map[string]string](t, a.call("", "Target.createBrowserContext", nil))["browserContextId"]
	if ctxID == "" {
		t.Fatal("no browserContextId")
	}
	pageA := decode[map[string]string](t, a.call("", "Target.createTarget", map[string]any{"url": "about:blank", "browserContextId": ctxID}))["targetId"]
	ids := func(c *rawClient) []string {
		return decode[struct {
			IDs []string `json:"browserContextIds"`
		}](t, c.call("", "Target.getBrowserContexts", nil)).IDs
	}
	if got := ids(a); !contains(got, ctxID) {
		t.Errorf("A's getBrowserContexts %v lacks its own %s", got, ctxID)
	}
	if got := ids(b); contains(got, ctxID) {
		t.Errorf("B's getBrowserContexts %v shows A's context %s", got, ctxID)
	}
	refusedNaming(t, h, b, "", "Target.disposeBrowserContext", map[string]string{"browserContextId": ctxID}, "this client created")
	refusedNaming(t, h, b, "", "Target.createTarget", map[string]any{"url": "about:blank", "browserContextId": ctxID}, "another client")
	refusedNaming(t, h, b, "", "Storage.getCookies", map[string]any{"browserContextId": ctxID}, "another client")
	found := false
	for _, u := range pageURLs(t, h) {
		found = found || u == "about:blank"
	}
	if !found {
		t.Fatalf("A's page %s in its context is gone after B's refused dispose", pageA)
	}
	// B's own context is B's.
	own := decode[map[string]string](t, b.call("", "Target.createBrowserContext", nil))["browserContextId"]
	b.call("", "Target.disposeBrowserContext", map[string]string{"browserContextId": own})
	if n := h.r.Stats().BrowserContexts; n != 1 {
		t.Errorf("Stats().BrowserContexts = %d after B disposed its own, want 1 (A's)", n)
	}
	a.call("", "Target.disposeBrowserContext", map[string]string{"browserContextId": ctxID})
	if n := h.r.Stats().BrowserContexts; n != 0 {
		t.Errorf("Stats().BrowserContexts = %d after both disposed, want 0", n)
	}
}

// Page.crash stays allowed on a target the client created.
func TestPageCrashAllowedOnOwnTarget(t *testing.T) {
	h := startHostile(t, "/second.html")
	c := dialRaw(t, h.r.WSURL())
	c.call("", "Target.setAutoAttach", map[string]any{"autoAttach": true, "flatten": true, "waitForDebuggerOnStart": false})
	id := decode[map[string]string](t, c.call("", "Target.createTarget", map[string]any{"url": "about:blank"}))["targetId"]
	_, at := c.waitFor(attachedTo(id, ""), "the new target attached")
	var p struct {
		SessionID string `json:"sessionId"`
	}
	_ = json.Unmarshal(at.Params, &p)
	c.send(p.SessionID, "Page.crash", nil)
	c.waitFor(isEvent("Inspector.targetCrashed", p.SessionID), "the client's own page to crash")
	for _, f := range c.snapshot() {
		if f.Error != nil && strings.Contains(f.Error.Message, "relay:") {
			t.Errorf("refused: %s", f.Error.Message)
		}
	}
	h.assertAlive(t, "Page.crash of the client's own page")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Hole 6: Browser.setDownloadBehavior {behavior:"allow", downloadPath:
// any folder} let a download write anywhere on the host. The relay points
// it at its own downloads folder.
func TestDownloadsOnlyIntoRelayFolder(t *testing.T) {
	dl := t.TempDir()
	h := startHostileWith(t, "/actions.html", Options{DownloadDir: dl})
	elsewhere := t.TempDir()
	c := dialRaw(t, h.r.WSURL())
	c.call("", "Browser.setDownloadBehavior", map[string]any{"behavior": "allow", "downloadPath": elsewhere, "eventsEnabled": true})
	sid, _ := autoAttach(t, c, h.page)
	c.call(sid, "Runtime.evaluate", map[string]any{"expression": "document.getElementById('download').click()", "userGesture": true})
	c.waitFor(func(f rawFrame) bool {
		if f.Method != "Browser.downloadProgress" {
			return false
		}
		var p struct {
			State string `json:"state"`
		}
		_ = json.Unmarshal(f.Params, &p)
		return p.State == "completed" || p.State == "canceled"
	}, "the download to end")
	if ents, _ := os.ReadDir(elsewhere); len(ents) > 0 {
		t.Errorf("the download went to the client's folder %s: %v", elsewhere, ents)
	}
	b, err := os.ReadFile(filepath.Join(dl, fixture.DownloadName))
	if err != nil || string(b) != fixture.DownloadBody {
		ents, _ := os.ReadDir(dl)
		t.Errorf("the download is not in the relay's folder %s (%v; it has %v)", dl, err, ents)
	}
	// A folder inside the relay's is honoured.
	inside := filepath.Join(dl, "mine")
	if err := os.Mkdir(inside, 0o700); err != nil {
		t.Fatal(err)
	}
	c.call("", "Browser.setDownloadBehavior", map[string]any{"behavior": "allow", "downloadPath": inside, "eventsEnabled": true})
	n := c.count(func(f rawFrame) bool { return f.Method == "Browser.downloadProgress" })
	c.call(sid, "Runtime.evaluate", map[string]any{"expression": "document.getElementById('download').click()", "userGesture": true})
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(filepath.Join(inside, fixture.DownloadName)); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(inside, fixture.DownloadName)); err != nil {
		t.Errorf("a folder inside the relay's was not used: %v (progress events %d)", err, n)
	}
	refusedNaming(t, h, c, sid, "Page.setDownloadBehavior", map[string]any{"behavior": "allow", "downloadPath": elsewhere}, "--relay-allow Page.setDownloadBehavior")
}

// Hole 7: Page.navigate to file:///any/file, then reading innerText, read
// any host file. file: opens only under the operator's file roots, by the
// files package's one check.
func TestFileURLsOnlyUnderRoots(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "ok.html"), []byte("<title>ok</title>in the root"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	roots := files.New(files.Config{Artifacts: filepath.Join(t.TempDir(), "artifacts"), Extra: []string{root}})
	h := startHostileWith(t, "/second.html", Options{Files: roots})
	c := dialRaw(t, h.r.WSURL())
	sid, _ := autoAttach(t, c, h.page)
	for _, u := range []string{"file://" + outside, "FILE:" + outside, " file:///etc/passwd", "file://localhost/etc/passwd", "view-source:file:///etc/passwd",
		"file:///" + root + "/../" + filepath.Base(filepath.Dir(outside)) + "/secret.txt", "filesystem:file:///etc/passwd", `file:\\\etc\passwd`} {
		refusedNaming(t, h, c, sid, "Page.navigate", map[string]string{"url": u}, "file")
		refusedNaming(t, h, c, "", "Target.createTarget", map[string]string{"url": u}, "file")
	}
	if code, body := httpGet(t, http.MethodPut, h.r.HTTPURL()+"/json/new?file://"+outside); code != http.StatusForbidden {
		t.Errorf("/json/new of a file outside the roots: %d %s, want 403", code, body)
	}
	tc := dialRaw(t, h.tunnelURL())
	refusedNaming(t, h, tc, "", "Page.navigate", map[string]string{"url": "file://" + outside}, "file")
	for _, u := range pageURLs(t, h) {
		if strings.HasPrefix(u, "file:") {
			t.Errorf("a file page is open: %s", u)
		}
	}
	// Under the roots it opens.
	if _, err := c.callErr(sid, "Page.navigate", map[string]string{"url": "file://" + filepath.Join(root, "ok.html")}); err != nil {
		t.Errorf("Page.navigate to a file under the roots: %s", err.Message)
	}
}

// Without roots (Options.Files nil), no file: URL opens.
func TestFileURLsRefusedWithoutRoots(t *testing.T) {
	f := filepath.Join(t.TempDir(), "ok.html")
	if err := os.WriteFile(f, []byte("ok"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := startHostile(t, "/second.html")
	c := dialRaw(t, h.r.WSURL())
	refusedNaming(t, h, c, "", "Target.createTarget", map[string]string{"url": "file://" + f}, "file roots")
	sid, _ := autoAttach(t, c, h.page)
	refusedNaming(t, h, c, sid, "Page.navigate", map[string]string{"url": "file://" + f}, "file roots")
}

// Hole 8: URL variants the old guard did not normalize: a NUL or zero-width
// space after "chrome", a no-break space or BOM before it, blob: and
// filesystem: around it.
func TestURLVariantsRefused(t *testing.T) {
	h := startHostile(t, "/second.html")
	before := chromePages(t, h)
	c := dialRaw(t, h.r.WSURL())
	sid, _ := autoAttach(t, c, h.page)
	for _, u := range []string{
		"chrome\x00://settings", "chrome\u200b://settings", "\u00a0chrome://settings", "\ufeffchrome://settings",
		"blob:chrome://settings/x", "filesystem:chrome://settings/temporary/x", "BLOB:chrome://quit", "\x01 chrome:\t//settings ",
	} {
		refusedNaming(t, h, c, sid, "Page.navigate", map[string]string{"url": u}, "refused")
		refusedNaming(t, h, c, "", "Target.createTarget", map[string]string{"url": u}, "refused")
	}
	noChromePage(t, h, "the URL variants", before)
}

// TestRecordedMethodsAllowed: every method the compat suites sent
// (testdata/compat-methods.txt, recorded as allow.go says) is on the
// allowlist of the socket kind it came on.
func TestRecordedMethodsAllowed(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "compat-methods.txt"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]sockKind{"browser": sockBrowser, "page": sockPage, "session": sockSession}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, method, _ := strings.Cut(line, " ")
		k, ok := kinds[kind]
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		n++
		if !allowed(k, method) {
			t.Errorf("%s on a %s socket was recorded from the compat suites but is not allowed", method, kind)
		}
	}
	if n < 50 {
		t.Errorf("only %d recorded methods", n)
	}
}

// DOM.setFileInputFiles (and a drag event's data.files) hand the page host
// files: only from under the operator's file roots, the path absolute and
// its symlinks resolved; --relay-allow DOM.setFileInputFiles lifts it.
func TestSetFileInputFilesOnlyUnderRoots(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	inRoot := filepath.Join(root, "up.txt")
	secret := filepath.Join(outside, "secret.txt")
	for p, body := range map[string]string{inRoot: "in the root", secret: "outside"} {
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(root, "link.txt")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	roots := files.New(files.Config{Artifacts: filepath.Join(t.TempDir(), "artifacts"), Extra: []string{root}})
	h := startHostileWith(t, "/second.html", Options{Files: roots})
	c := dialRaw(t, h.r.WSURL())
	sid, _ := autoAttach(t, c, h.page)
	input := func() string {
		res := decode[struct {
			Result struct {
				ObjectID string `json:"objectId"`
			} `json:"result"`
		}](t, c.call(sid, "Runtime.evaluate", map[string]any{"expression": `(() => { const i = document.createElement('input'); i.type = 'file'; i.multiple = true; document.body.append(i); return i; })()`}))
		return res.Result.ObjectID
	}
	names := func(obj string) string {
		res := decode[struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}](t, c.call(sid, "Runtime.callFunctionOn", map[string]any{"objectId": obj, "functionDeclaration": "function() { return [...this.files].map(f => f.name).join(',') }", "returnByValue": true}))
		return res.Result.Value
	}
	obj := input()
	for _, bad := range [][]string{{"/etc/passwd"}, {link}, {inRoot, secret}, {"up.txt"}, {root + "/../" + filepath.Base(outside) + "/secret.txt"}} {
		refusedNaming(t, h, c, sid, "DOM.setFileInputFiles", map[string]any{"objectId": obj, "files": bad}, "DOM.setFileInputFiles", "--relay-allow DOM.setFileInputFiles")
	}
	for _, odd := range []any{map[string]any{"objectId": obj, "files": "/etc/passwd"}, map[string]any{"objectId": obj, "files": []any{1}}, []any{"x"},
		json.RawMessage(`{"objectId":"` + obj + `","files":["` + inRoot + `"],"FILES":["/etc/passwd"]}`)} {
		refusedNaming(t, h, c, sid, "DOM.setFileInputFiles", odd, "DOM.setFileInputFiles")
	}
	refusedNaming(t, h, c, sid, "Input.dispatchDragEvent", map[string]any{"type": "drop", "x": 1, "y": 1, "data": map[string]any{"items": []any{}, "files": []string{"/etc/passwd"}, "dragOperationsMask": 1}},
		"Input.dispatchDragEvent", "--relay-allow Input.dispatchDragEvent")
	refusedNaming(t, h, c, sid, "Network.loadNetworkResource", map[string]any{"url": "file:///etc/passwd", "options": map[string]any{"disableCache": true, "includeCredentials": false}}, "file")
	tc := dialRaw(t, h.tunnelURL())
	refusedNaming(t, h, tc, "", "DOM.setFileInputFiles", map[string]any{"objectId": obj, "files": []string{"/etc/passwd"}}, "DOM.setFileInputFiles")
	if got := names(obj); got != "" {
		t.Fatalf("a refused file reached the page: %q", got)
	}
	if _, err := c.callErr(sid, "DOM.setFileInputFiles", map[string]any{"objectId": obj, "files": []string{inRoot}}); err != nil {
		t.Fatalf("a file under the roots: %s", err.Message)
	}
	if got := names(obj); got != "up.txt" {
		t.Fatalf("the file under the roots: %q", got)
	}

}

// Without roots no file goes to a page; the operator's switch lifts the
// rule.
func TestSetFileInputFilesWithoutRootsAndRelayAllow(t *testing.T) {
	f := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("no roots", func(t *testing.T) {
		h := startHostile(t, "/second.html")
		c := dialRaw(t, h.r.WSURL())
		sid, _ := autoAttach(t, c, h.page)
		refusedNaming(t, h, c, sid, "DOM.setFileInputFiles", map[string]any{"objectId": "1", "files": []string{f}}, "has none", "--relay-allow DOM.setFileInputFiles")
	})
	t.Run("relay-allow", func(t *testing.T) {
		h := startHostileWith(t, "/second.html", Options{Allow: []string{"DOM.setFileInputFiles"}})
		c := dialRaw(t, h.r.WSURL())
		sid, _ := autoAttach(t, c, h.page)
		res := decode[struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}](t, c.call(sid, "Runtime.evaluate", map[string]any{"expression": `document.body.append(Object.assign(document.createElement('input'), {type: 'file', id: 'f'})); 'ok'`, "returnByValue": true}))
		if res.Result.Value != "ok" {
			t.Fatalf("input: %v", res)
		}
		doc := decode[struct {
			Root struct {
				NodeID int `json:"nodeId"`
			} `json:"root"`
		}](t, c.call(sid, "DOM.getDocument", nil))
		q := decode[struct {
			NodeID int `json:"nodeId"`
		}](t, c.call(sid, "DOM.querySelector", map[string]any{"nodeId": doc.Root.NodeID, "selector": "#f"}))
		if _, err := c.callErr(sid, "DOM.setFileInputFiles", map[string]any{"nodeId": q.NodeID, "files": []string{f}}); err != nil {
			t.Fatalf("with --relay-allow DOM.setFileInputFiles: %s", err.Message)
		}
		if got := evalString(t, c, sid, `document.getElementById('f').files[0]?.name || ''`); got != "secret.txt" {
			t.Fatalf("allowed by the operator: %q", got)
		}
	})
}
