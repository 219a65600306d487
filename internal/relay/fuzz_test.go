package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/urlpolicy"
)

// upstreamRecord keeps every frame the fake upstream read.
type upstreamRecord struct {
	mu     sync.Mutex
	frames [][]byte
	paths  []string
}

func (u *upstreamRecord) add(path string, b []byte) {
	u.mu.Lock()
	u.frames = append(u.frames, append([]byte(nil), b...))
	u.paths = append(u.paths, path)
	u.mu.Unlock()
}

// neverUpstream is what the relay must keep from the browser whatever a
// client sends (no target was created by a client here, so no close is
// allowed either).
var neverUpstream = map[string]bool{
	"Browser.close": true, "Browser.crash": true, "Browser.crashGpuProcess": true,
	"Target.sendMessageToTarget": true, "Target.closeTarget": true, "Page.close": true,
	"Page.crash": true, "Target.exposeDevToolsProtocol": true, "Target.disposeBrowserContext": true,
}

// check fails the test when any frame that reached the upstream is one the
// guard refuses. Frames are read as Chromium reads them: member names are
// exact (encoding/json's case-insensitive field matching is not used), and
// every member of a repeated name counts.
func (u *upstreamRecord) check(t *testing.T, from *int, downloads string) {
	t.Helper()
	u.mu.Lock()
	frames := u.frames[*from:]
	paths := u.paths[*from:]
	*from = len(u.frames) // a failure is reported once
	u.mu.Unlock()
	for i, b := range frames {
		members, ok := objectMembers(b)
		if !ok {
			continue // Chromium answers a parse error
		}
		for _, m := range members["method"] {
			var method string
			if json.Unmarshal(m, &method) != nil {
				continue
			}
			if neverUpstream[method] {
				t.Fatalf("%s reached the upstream on %s: %s", method, paths[i], b)
			}
			// Default deny: nothing off the allowlists reaches the browser.
			if !allowed(sockBrowser, method) && !allowed(sockSession, method) {
				t.Fatalf("%s, on no allowlist, reached the upstream on %s: %s", method, paths[i], b)
			}
			switch method {
			case "DOM.setFileInputFiles", "Input.dispatchDragEvent":
				// This relay has no file roots: no host file may reach a page.
				for _, p := range members["params"] {
					if files := filesOf(p, method == "Input.dispatchDragEvent"); len(files) > 0 {
						t.Fatalf("%s with files %q reached the upstream on %s: %s", method, files, paths[i], b)
					}
				}
			case "Target.createTarget", "Page.navigate", "Network.loadNetworkResource":
				for _, p := range members["params"] {
					params, ok := objectMembers(p)
					if !ok {
						continue
					}
					for _, raw := range params["url"] {
						var u string
						if json.Unmarshal(raw, &u) == nil {
							if _, why := urlpolicy.Opened(u); why != "" || strings.Contains(strings.ToLower(u), "file:") {
								t.Fatalf("%s to %q reached the upstream on %s: %s", method, u, paths[i], b)
							}
						}
					}
				}
			case "Browser.setDownloadBehavior", "Page.setDownloadBehavior":
				for _, p := range members["params"] {
					params, ok := objectMembers(p)
					if !ok {
						continue
					}
					for _, raw := range params["downloadPath"] {
						var dir string
						if json.Unmarshal(raw, &dir) == nil && !within(filepath.Clean(dir), downloads) {
							t.Fatalf("%s into %q, outside the relay's folder %s, reached the upstream on %s: %s", method, dir, downloads, paths[i], b)
						}
					}
				}
			}
		}
	}
}

// filesOf reads, as Chromium does (exact names, every repeat), the paths
// of a params object's files member (inData: of its data member's).
func filesOf(params json.RawMessage, inData bool) []string {
	m, ok := objectMembers(params)
	if !ok {
		return nil
	}
	if inData {
		var out []string
		for _, d := range m["data"] {
			out = append(out, filesOf(d, false)...)
		}
		return out
	}
	var out []string
	for _, raw := range m["files"] {
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			continue
		}
		for _, e := range list {
			var p string
			if json.Unmarshal(e, &p) == nil {
				out = append(out, p)
			} else {
				out = append(out, string(e)) // not a string: Chromium refuses it, but say so
			}
		}
	}
	return out
}

// objectMembers reads a JSON object's members by their exact names, every
// value of a repeated name kept.
func objectMembers(b []byte) (map[string][]json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	out := map[string][]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out[key] = append(out[key], v)
	}
	return out, true
}

// FuzzRelayRouter sends one arbitrary frame (a method, params and
// sessionId, or any bytes) through the relay's command router, on the
// browser socket, a flat page session or the page tunnel, against a fake
// upstream that records what reaches it. The relay must not panic, must
// keep serving, and no refused command (Browser.close/crash*,
// sendMessageToTarget, closes of targets the client did not create,
// browser-acting URLs) may reach the upstream, as Chromium would read it.
func FuzzRelayRouter(f *testing.F) {
	fake := startFake(f)
	rec := &upstreamRecord{}
	fake.onFrame = rec.add
	r := startRelay(f, fake.endpoint())
	dl := r.DownloadDir()
	tunnel := strings.Replace(r.WSURL(), "/devtools/browser/"+r.testBrowserID(), "/devtools/page/PAGE1", 1)
	for _, s := range []struct {
		method string
		params string
	}{
		{"Browser.close", ``},
		{"Browser.crash", `{}`},
		{"Browser.crashGpuProcess", `{}`},
		{"Target.createTarget", `{"url":"chrome://quit/"}`},
		{"Target.createTarget", `{"url":"chrome://quit/","URL":"about:blank"}`},
		{"Target.createTarget", `{"Url":"about:blank","url":"CHROME://RESTART"}`},
		{"Page.navigate", `{"url":"chrome://crash"}`},
		{"Page.navigate", `{"url":" chrome://kill"}`},
		{"Page.navigate", `{"url":"about:blank","url":"chrome://quit"}`},
		{"Page.close", `{}`},
		{"Target.closeTarget", `{"targetId":"PAGE1"}`},
		{"Target.closeTarget", `{"targetId":"PAGE1","TargetId":"x"}`},
		{"Target.sendMessageToTarget", `{"message":"{\"id\":1,\"method\":\"Browser.close\"}"}`},
		{"Target.attachToTarget", `{"targetId":"PAGE1","flatten":true}`},
		{"Runtime.evaluate", `{"expression":"1"}`},
		{"Target.exposeDevToolsProtocol", `{"targetId":"PAGE1","bindingName":"cdp"}`},
		{"Page.crash", `{}`},
		{"Target.disposeBrowserContext", `{"browserContextId":"CTX"}`},
		{"Browser.setDownloadBehavior", `{"behavior":"allow","downloadPath":"/tmp"}`},
		{"Browser.setDownloadBehavior", `{"behavior":"allow","downloadPath":"/tmp","DownloadPath":"/x"}`},
		{"Page.setDownloadBehavior", `{"behavior":"allow","downloadPath":"/tmp"}`},
		{"Page.navigate", `{"url":"chrome\u0000://settings"}`},
		{"Page.navigate", `{"url":"chrome\u200b://settings"}`},
		{"Page.navigate", `{"url":"\u00a0chrome://settings"}`},
		{"Page.navigate", `{"url":"\ufeffchrome://settings"}`},
		{"Page.navigate", `{"url":"blob:chrome://settings/x"}`},
		{"Target.createTarget", `{"url":"filesystem:chrome://settings/temporary/x"}`},
		{"Page.navigate", `{"url":"file:///etc/passwd"}`},
		{"DOM.setFileInputFiles", `{"files":["/etc/passwd"],"objectId":"1"}`},
		{"DOM.setFileInputFiles", `{"files":[],"FILES":["/etc/passwd"]}`},
		{"DOM.setFileInputFiles", `{"files":null,"files":["/etc/passwd"]}`},
		{"Input.dispatchDragEvent", `{"type":"drop","x":1,"y":1,"data":{"items":[],"files":["/etc/passwd"],"dragOperationsMask":1}}`},
		{"Input.dispatchDragEvent", `{"type":"drop","x":1,"y":1,"data":null,"data":{"files":["/etc/passwd"]}}`},
		{"Network.loadNetworkResource", `{"url":"file:///etc/passwd","options":{"disableCache":true,"includeCredentials":false}}`},
		{"SystemInfo.getProcessInfo", `{}`},
		{"Tethering.bind", `{"port":9}`},
	} {
		for kind := range uint8(3) {
			f.Add(kind, s.method, []byte(s.params), "", false)
		}
	}
	f.Add(uint8(0), "", []byte(`{"id":1,"method":"Browser.close","method":"Runtime.enable"}`), "", true)
	f.Add(uint8(1), "", []byte(`{"id":1,"method":"Browser.cl\u006fse"}`), "", true)
	f.Add(uint8(2), "", []byte(`[{"id":1,"method":"Browser.close"}]`), "", true)
	// Chromium unescapes member names: "p\u0061rams" is its params.
	f.Add(uint8(2), "", []byte(`{"id":1,"method":"Page.navigate","p\u0061rams":{"url":"chrome://quit"}}`), "", true)
	f.Add(uint8(0), "", []byte(`{"id":1,"method":"Target.createTarget","\u0070arams":{"url":"chrome://crash"}}`), "", true)
	f.Add(uint8(8), "Browser.close", []byte(`{}`), "nope", false)
	seen := 0
	f.Fuzz(func(t *testing.T, kind uint8, method string, params []byte, sid string, raw bool) {
		url := r.WSURL()
		if kind%3 == 2 {
			url = tunnel
		}
		c := dialRaw(t, url)
		pingSID := ""
		if kind%3 == 1 {
			at := c.call("", "Target.attachToTarget", map[string]any{"targetId": "PAGE1", "flatten": true})
			pingSID = decode[map[string]string](t, at)["sessionId"]
			if kind&8 == 0 {
				sid = pingSID
			}
		}
		var frame []byte
		if raw {
			frame = params
		} else {
			var b bytes.Buffer
			m, _ := json.Marshal(method)
			b.WriteString(`{"id":4242,"method":`)
			b.Write(m)
			if len(params) > 0 && json.Valid(params) {
				b.WriteString(`,"params":`)
				b.Write(params)
			}
			if sid != "" {
				s, _ := json.Marshal(sid)
				b.WriteString(`,"sessionId":`)
				b.Write(s)
			}
			b.WriteString("}")
			frame = b.Bytes()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if c.ws.Write(ctx, websocket.MessageText, frame) != nil {
			return
		}
		// A ping after it on the same socket: once it is answered, the
		// frame has reached the upstream if it was going to (one socket,
		// in order). A closed connection ends the wait.
		ping := []byte(`{"id":9090909,"method":"Fuzz.ping"`)
		if pingSID != "" {
			ping = append(ping, `,"sessionId":"`+pingSID+`"`...)
		}
		ping = append(ping, '}')
		if c.ws.Write(ctx, websocket.MessageText, ping) == nil {
			for ctx.Err() == nil {
				if c.index(func(f rawFrame) bool { return f.ID == 9090909 && f.Method == "" }) >= 0 {
					break
				}
				c.mu.Lock()
				closed := c.closeErr != nil
				c.mu.Unlock()
				if closed {
					break
				}
				time.Sleep(time.Millisecond)
			}
		}
		rec.check(t, &seen, dl)
		// The relay still serves.
		c2 := dialRaw(t, r.WSURL())
		if v := decode[map[string]string](t, c2.call("", "Browser.getVersion", nil)); v["product"] == "" {
			t.Fatal("the relay stopped answering")
		}
		if r.Err() != nil {
			t.Fatalf("the relay failed: %v", r.Err())
		}
	})
}

// chromiumUnescape decodes as Chromium's UnescapeBinaryURLComponent does
// for /json/new: every "%" with two hex digits after it, once; any other
// "%" stays as it is.
func chromiumUnescape(q string) string {
	var b []byte
	for i := 0; i < len(q); i++ {
		if q[i] == '%' && i+2 < len(q) && isHex(q[i+1]) && isHex(q[i+2]) {
			b = append(b, unhex(q[i+1])<<4|unhex(q[i+2]))
			i += 2
			continue
		}
		b = append(b, q[i])
	}
	return string(b)
}

// FuzzJSONNewQuery: what /json/new accepts decodes to what Chromium will
// open, and what Chromium would decode otherwise than strictly is refused.
func FuzzJSONNewQuery(f *testing.F) {
	for _, s := range []string{"chrome%3A%2F%2Fsettings%2F%zz", "%zz", "%", "%2", "a%41b", "http://a.test/?x=%25zz", "+%2B", "%E2%80%8Bchrome://x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		got, ok := unescapeQuery(q)
		if !ok {
			if chromiumUnescape(q) == got {
				return
			}
			for i := 0; i < len(q); i++ {
				if q[i] == '%' && (i+2 >= len(q) || !isHex(q[i+1]) || !isHex(q[i+2])) {
					return // refused for a "%" Chromium leaves alone: right
				}
			}
			t.Fatalf("unescapeQuery(%q) refused a query whose every %% decodes", q)
		}
		if want := chromiumUnescape(q); got != want {
			t.Fatalf("unescapeQuery(%q) = %q, Chromium opens %q", q, got, want)
		}
	})
}
