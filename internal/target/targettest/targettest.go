package targettest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"
)

// Target is one fake target as /json/list shows it.
type Target struct {
	ID       string
	Type     string
	URL      string
	Title    string
	ParentID string
}

// Frame is one frame of a target's frame tree (the root is the target).
type Frame struct {
	ID       string
	URL      string
	Children []Frame
}

// Browser is the fake endpoint. Its methods are safe for concurrent use.
type Browser struct {
	tb  testing.TB
	srv *httptest.Server

	mu       sync.Mutex
	targets  []Target // /json/list order
	trees    map[string]Frame
	nextCtx  int64
	browsers map[*websocket.Conn]bool
	pages    map[string]map[*websocket.Conn]bool
	calls    map[string]int
	dials    map[string]int
	closed   map[string]int
	conns    sync.WaitGroup
}

// New starts a fake endpoint, closed in tb.Cleanup.
func New(tb testing.TB) *Browser {
	b := &Browser{
		tb:       tb,
		trees:    map[string]Frame{},
		browsers: map[*websocket.Conn]bool{},
		pages:    map[string]map[*websocket.Conn]bool{},
		calls:    map[string]int{},
		dials:    map[string]int{},
		closed:   map[string]int{},
	}
	b.srv = httptest.NewServer(http.HandlerFunc(b.serve))
	tb.Cleanup(b.Close)
	return b
}

// Close stops the server and closes every socket.
func (b *Browser) Close() {
	b.mu.Lock()
	var all []*websocket.Conn
	for c := range b.browsers {
		all = append(all, c)
	}
	for _, set := range b.pages {
		for c := range set {
			all = append(all, c)
		}
	}
	b.mu.Unlock()
	for _, c := range all {
		_ = c.CloseNow()
	}
	b.srv.Close()
	b.conns.Wait()
}

// HTTPURL is the endpoint's http://127.0.0.1:PORT.
func (b *Browser) HTTPURL() string { return b.srv.URL }

func (b *Browser) wsURL(path string) string {
	return "ws" + strings.TrimPrefix(b.srv.URL, "http") + path
}

// SetTargets replaces the target list (in /json/list order: newest first).
// Targets without a tree get a one-frame tree.
func (b *Browser) SetTargets(ts ...Target) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.targets = append([]Target(nil), ts...)
	for _, t := range ts {
		if _, ok := b.trees[t.ID]; !ok {
			b.trees[t.ID] = Frame{ID: t.ID, URL: t.URL}
		}
	}
}

// SetTree sets the frame tree a target reports; its root id must be the
// target id.
func (b *Browser) SetTree(targetID string, root Frame) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.trees[targetID] = root
}

// Calls returns how many calls of method the target sockets of targetID
// received ("" for every target).
func (b *Browser) Calls(targetID, method string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if targetID == "" {
		n := 0
		for k, v := range b.calls {
			if strings.HasSuffix(k, " "+method) {
				n += v
			}
		}
		return n
	}
	return b.calls[targetID+" "+method]
}

// Dials returns how many sockets were opened to a target.
func (b *Browser) Dials(targetID string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dials[targetID]
}

// Closed returns how many sockets of a target have ended.
func (b *Browser) Closed(targetID string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed[targetID]
}

// EmitBrowser sends an event on every browser socket.
func (b *Browser) EmitBrowser(ctx context.Context, method string, params any) {
	b.mu.Lock()
	var cs []*websocket.Conn
	for c := range b.browsers {
		cs = append(cs, c)
	}
	b.mu.Unlock()
	for _, c := range cs {
		b.write(ctx, c, map[string]any{"method": method, "params": params})
	}
}

// Emit sends an event on every socket of a target.
func (b *Browser) Emit(ctx context.Context, targetID, method string, params any) {
	b.mu.Lock()
	var cs []*websocket.Conn
	for c := range b.pages[targetID] {
		cs = append(cs, c)
	}
	b.mu.Unlock()
	for _, c := range cs {
		b.write(ctx, c, map[string]any{"method": method, "params": params})
	}
}

// TargetInfo is the TargetInfo of t as Target.* events carry it.
func TargetInfo(t Target) map[string]any {
	m := map[string]any{"targetId": t.ID, "type": t.Type, "url": t.URL, "title": t.Title, "attached": false, "canAccessOpener": false}
	if t.ParentID != "" {
		m["parentFrameId"] = t.ParentID
	}
	return m
}

func (b *Browser) write(ctx context.Context, c *websocket.Conn, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		b.tb.Errorf("targettest: %v", err)
		return
	}
	_ = c.Write(ctx, websocket.MessageText, data)
}

func (b *Browser) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/json/version":
		writeJSON(w, map[string]string{"Browser": "Fake/1.0", "webSocketDebuggerUrl": b.wsURL("/devtools/browser/fake")})
	case r.URL.Path == "/json/list" || r.URL.Path == "/json":
		b.mu.Lock()
		list := make([]map[string]string, 0, len(b.targets)+1)
		for _, t := range b.targets {
			e := map[string]string{"id": t.ID, "type": t.Type, "url": t.URL, "title": t.Title,
				"webSocketDebuggerUrl": b.wsURL("/devtools/page/" + t.ID)}
			if t.ParentID != "" {
				e["parentId"] = t.ParentID
			}
			list = append(list, e)
		}
		// Chromium lists targets the pool must leave out.
		list = append(list, map[string]string{"id": "UI", "type": "browser_ui", "url": "chrome://omnibox-popup.top-chrome/",
			"webSocketDebuggerUrl": b.wsURL("/devtools/page/UI")})
		b.mu.Unlock()
		writeJSON(w, list)
	case strings.HasPrefix(r.URL.Path, "/devtools/browser/"):
		b.socket(w, r, "")
	case strings.HasPrefix(r.URL.Path, "/devtools/page/"):
		b.socket(w, r, strings.TrimPrefix(r.URL.Path, "/devtools/page/"))
	default:
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

type frame struct {
	ID     int64           `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func (b *Browser) socket(w http.ResponseWriter, r *http.Request, targetID string) {
	if targetID != "" {
		// Counted before the handshake completes, so a client that has
		// dialled sees its dial counted.
		b.mu.Lock()
		b.dials[targetID]++
		b.mu.Unlock()
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	b.conns.Add(1)
	defer b.conns.Done()
	c.SetReadLimit(16 << 20)
	b.mu.Lock()
	if targetID == "" {
		b.browsers[c] = true
	} else {
		if b.pages[targetID] == nil {
			b.pages[targetID] = map[*websocket.Conn]bool{}
		}
		b.pages[targetID][c] = true
	}
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.browsers, c)
		if targetID != "" {
			delete(b.pages[targetID], c)
			b.closed[targetID]++
		}
		b.mu.Unlock()
		_ = c.CloseNow()
	}()
	ctx := r.Context()
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		var f frame
		if json.Unmarshal(data, &f) != nil {
			continue
		}
		b.mu.Lock()
		b.calls[targetID+" "+f.Method]++
		b.mu.Unlock()
		result := b.answer(ctx, c, targetID, f)
		b.write(ctx, c, map[string]any{"id": f.ID, "result": result})
	}
}

// answer returns the result of one call, after sending the events the call
// produces before its reply (as Chromium does for Runtime.enable).
func (b *Browser) answer(ctx context.Context, c *websocket.Conn, targetID string, f frame) any {
	switch f.Method {
	case "Runtime.enable":
		b.mu.Lock()
		var frames []Frame
		var walk func(Frame)
		walk = func(fr Frame) {
			frames = append(frames, fr)
			for _, k := range fr.Children {
				walk(k)
			}
		}
		walk(b.trees[targetID])
		ids := make([]int64, len(frames))
		for i := range frames {
			b.nextCtx++
			ids[i] = b.nextCtx
		}
		b.mu.Unlock()
		for i, fr := range frames {
			b.write(ctx, c, map[string]any{"method": "Runtime.executionContextCreated", "params": map[string]any{
				"context": map[string]any{"id": ids[i], "origin": origin(fr.URL), "name": "",
					"auxData": map[string]any{"isDefault": true, "type": "default", "frameId": fr.ID}}}})
		}
	case "Page.getFrameTree":
		b.mu.Lock()
		root := b.trees[targetID]
		parent := ""
		for _, t := range b.targets {
			if t.ID == targetID {
				parent = t.ParentID
			}
		}
		b.mu.Unlock()
		return map[string]any{"frameTree": treeJSON(root, parent)}
	case "DOM.getFrameOwner":
		return map[string]any{"backendNodeId": 42}
	case "DOM.getBoxModel":
		q := []float64{10, 20, 110, 20, 110, 70, 10, 70}
		return map[string]any{"model": map[string]any{"content": q, "padding": q, "border": q, "margin": q, "width": 100, "height": 50}}
	case "Runtime.evaluate":
		return map[string]any{"result": map[string]any{"type": "undefined"}}
	}
	return map[string]any{}
}

func treeJSON(f Frame, parent string) map[string]any {
	fr := map[string]any{"id": f.ID, "loaderId": "L" + f.ID, "url": f.URL, "securityOrigin": origin(f.URL), "mimeType": "text/html"}
	if parent != "" {
		fr["parentId"] = parent
	}
	out := map[string]any{"frame": fr}
	if len(f.Children) > 0 {
		kids := make([]map[string]any, 0, len(f.Children))
		for _, k := range f.Children {
			kids = append(kids, treeJSON(k, f.ID))
		}
		out["childFrames"] = kids
	}
	return out
}

// origin returns scheme://host[:port] of an http(s) URL, else "null".
func origin(u string) string {
	for _, s := range []string{"http://", "https://"} {
		if rest, ok := strings.CutPrefix(u, s); ok {
			if i := strings.IndexAny(rest, "/?#"); i >= 0 {
				rest = rest[:i]
			}
			return s + rest
		}
	}
	return "null"
}
