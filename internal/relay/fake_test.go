package relay

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/browser"
)

// fakeUpstream is a tiny DevTools endpoint for tests that need no browser:
// one page target, PAGE1, whose socket answers every command with {} and
// also understands Fake.flood {n, size, method}: it sends n events of that
// method, each with size bytes of padding, then one Page.frameNavigated
// event, then the reply.
type fakeUpstream struct {
	srv    *httptest.Server
	wg     sync.WaitGroup
	floods atomic.Int32 // Fake.flood commands answered
	// onFrame, when set before the first connection, sees every frame
	// the fake reads, with the path of its socket.
	onFrame func(path string, b []byte)
}

func startFake(tb testing.TB) *fakeUpstream {
	tb.Helper()
	f := &fakeUpstream{}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	tb.Cleanup(func() {
		f.srv.CloseClientConnections()
		f.srv.Close()
		f.wg.Wait()
	})
	return f
}

func (f *fakeUpstream) endpoint() browser.Endpoint {
	return browser.Endpoint{HTTPURL: f.srv.URL}
}

func (f *fakeUpstream) serve(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	switch {
	case r.URL.Path == "/json/version":
		writeJSON(w, map[string]string{"Browser": "Fake/1.0", "Protocol-Version": "1.3",
			"webSocketDebuggerUrl": "ws://" + host + "/devtools/browser/fake"})
	case r.URL.Path == "/json/list":
		writeJSON(w, []map[string]string{{"id": "PAGE1", "type": "page", "url": "http://fake.test/",
			"webSocketDebuggerUrl": "ws://" + host + "/devtools/page/PAGE1"}})
	case r.URL.Path == "/devtools/browser/fake":
		f.socket(w, r, f.browserCommand)
	case strings.HasPrefix(r.URL.Path, "/devtools/page/"):
		f.socket(w, r, f.pageCommand)
	default:
		http.NotFound(w, r)
	}
}

type fakeCmd struct {
	ID     int64           `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func (f *fakeUpstream) socket(w http.ResponseWriter, r *http.Request, handle func(context.Context, *websocket.Conn, fakeCmd) error) {
	f.wg.Add(1)
	defer f.wg.Done()
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer ws.CloseNow()
	ws.SetReadLimit(64 << 20)
	ctx := context.Background()
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			return
		}
		if f.onFrame != nil {
			f.onFrame(r.URL.Path, b)
		}
		var c fakeCmd
		if json.Unmarshal(b, &c) != nil {
			continue
		}
		if handle(ctx, ws, c) != nil {
			return
		}
	}
}

func fakeSend(ctx context.Context, ws *websocket.Conn, v any) error {
	b, _ := json.Marshal(v)
	return ws.Write(ctx, websocket.MessageText, b)
}

func (f *fakeUpstream) browserCommand(ctx context.Context, ws *websocket.Conn, c fakeCmd) error {
	var result any = struct{}{}
	switch c.Method {
	case "Browser.getVersion":
		result = map[string]string{"protocolVersion": "1.3", "product": "Fake/1.0", "userAgent": "Fake", "jsVersion": "0"}
	case "Browser.setDownloadBehavior": // as Electron answers it
		return fakeSend(ctx, ws, map[string]any{"id": c.ID, "error": map[string]any{"code": -32000, "message": "Browser context management is not supported."}})
	case "Target.setDiscoverTargets":
		if err := fakeSend(ctx, ws, map[string]any{"method": "Target.targetCreated", "params": map[string]any{
			"targetInfo": map[string]any{"targetId": "PAGE1", "type": "page", "title": "Fake", "url": "http://fake.test/",
				"attached": false, "canAccessOpener": false, "browserContextId": "CTX1"}}}); err != nil {
			return err
		}
	}
	return fakeSend(ctx, ws, map[string]any{"id": c.ID, "result": result})
}

func (f *fakeUpstream) pageCommand(ctx context.Context, ws *websocket.Conn, c fakeCmd) error {
	if c.Method == "Fake.flood" {
		var p struct {
			N      int    `json:"n"`
			Size   int    `json:"size"`
			Method string `json:"method"`
		}
		_ = json.Unmarshal(c.Params, &p)
		pad := strings.Repeat("x", p.Size)
		for i := 0; i < p.N; i++ {
			if err := fakeSend(ctx, ws, map[string]any{"method": p.Method, "params": map[string]any{"i": i, "pad": pad}}); err != nil {
				return err
			}
		}
		if err := fakeSend(ctx, ws, map[string]any{"method": "Page.frameNavigated", "params": map[string]any{"frame": map[string]string{"id": "PAGE1"}}}); err != nil {
			return err
		}
		defer f.floods.Add(1)
	}
	return fakeSend(ctx, ws, map[string]any{"id": c.ID, "result": struct{}{}})
}
