package relay

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// The bridge (Options.Flat) makes an upstream that offers one browser
// WebSocket and nothing else — a Selenium Grid session's se:cdp, a tunnel
// that forwards the browser socket only — look like Chromium's DevTools
// endpoint to the rest of the relay, which then runs unchanged:
//
//   - /devtools/browser/<id> is a socket of its own to the upstream URL,
//     its bytes passed as they are;
//   - /devtools/page/<target> is a socket of its own to the upstream URL
//     with one flattened session on the target (Target.attachToTarget
//     {flatten:true}); the bridge stamps that session's id on what the
//     relay sends without one and takes it off what comes back, so the
//     socket reads as the target's own. Child sessions (OOPIFs the client
//     auto-attaches) keep their ids, as on a target socket. Closing it
//     ends the upstream socket, which is what makes the browser release
//     what the client held there, as with a target socket;
//   - /json/version, /json/list, /json/new, /json/activate, /json/close
//     are answered with Browser.getVersion, Target.getTargets,
//     createTarget, activateTarget and closeTarget on a control socket.
//
// So every client keeps upstream sockets of its own (ADR-017), one per
// session it has on a target. The bridge is not on any network: the relay
// reaches it through an in-memory listener (memListener), so nothing but
// the relay can use it, and its handlers run under the relay's guard.

// bridgeHost is the host name the relay uses for the bridge; the
// in-memory dialler ignores it.
const bridgeHost = "understudy-bridge.invalid"

type bridge struct {
	upURL  string      // the upstream browser socket
	header http.Header // sent with every upstream handshake; never logged
	id     string      // the browser id the bridge names
	wait   time.Duration

	ln   *memListener
	srv  *http.Server
	ctl  *upstream
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup // the server, the control reader, every socket pair

	mu     sync.Mutex
	closed bool // no socket pair starts once set (wg.Add only under mu)

	version map[string]any // /json/version, built at start
}

// startBridge dials the control socket, reads the browser's version and
// starts serving. Close it with close.
func startBridge(ctx context.Context, upURL string, header http.Header, wait time.Duration) (*bridge, error) {
	b := &bridge{upURL: upURL, header: header, id: newUUID(), wait: wait, ln: newMemListener()}
	b.ctx, b.stop = context.WithCancel(context.Background())
	dctx, cancel := context.WithTimeout(ctx, wait)
	ctl, err := b.dial(dctx)
	cancel()
	if err != nil {
		b.stop()
		return nil, errs.Wrap(errs.CDPDisconnected, err, "relay: connecting to the upstream browser socket")
	}
	b.ctl = ctl
	b.wg.Add(1)
	go func() { defer b.wg.Done(); b.readControl() }()
	cctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	raw, err := ctl.call(cctx, "", "Browser.getVersion", nil)
	if err != nil {
		b.close()
		return nil, errs.Wrap(errs.CDPDisconnected, err, "relay: Browser.getVersion on the upstream browser socket")
	}
	var v struct {
		ProtocolVersion string `json:"protocolVersion"`
		Product         string `json:"product"`
		Revision        string `json:"revision"`
		UserAgent       string `json:"userAgent"`
		JSVersion       string `json:"jsVersion"`
	}
	_ = json.Unmarshal(raw, &v)
	b.version = map[string]any{
		"Browser": v.Product, "Protocol-Version": v.ProtocolVersion, "User-Agent": v.UserAgent,
		"V8-Version": v.JSVersion, "WebKit-Version": "537.36 (" + v.Revision + ")",
		"webSocketDebuggerUrl": "ws://" + bridgeHost + "/devtools/browser/" + b.id,
	}
	b.srv = &http.Server{Handler: http.HandlerFunc(b.serve), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return b.ctx }}
	b.wg.Add(1)
	go func() { defer b.wg.Done(); _ = b.srv.Serve(b.ln) }()
	return b, nil
}

// httpURL is the bridge's DevTools HTTP endpoint, for the relay's
// Options.Upstream.
func (b *bridge) httpURL() string { return "http://" + bridgeHost }

// transport reaches the bridge (and nothing else).
func (b *bridge) transport() *http.Transport {
	return &http.Transport{Proxy: nil, DisableKeepAlives: true,
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return b.ln.dial(ctx) }}
}

// close ends every socket of the bridge and waits for its goroutines.
func (b *bridge) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.stop()
	if b.srv != nil {
		_ = b.srv.Close()
	}
	_ = b.ln.Close()
	if b.ctl != nil {
		b.ctl.closeNow()
	}
	b.wg.Wait()
}

// dial opens a socket to the upstream browser URL, with the operator's
// headers.
func (b *bridge) dial(ctx context.Context) (*upstream, error) {
	h := http.Header{}
	if b.header != nil {
		h = b.header.Clone()
	}
	ws, _, err := websocket.Dial(ctx, b.upURL, &websocket.DialOptions{HTTPHeader: h, CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(upstreamReadLimit)
	return &upstream{ws: ws, url: b.upURL, pending: map[int64]chan callResult{}}, nil
}

// readControl reads the control socket: replies to the bridge's calls.
func (b *bridge) readControl() {
	defer b.ctl.failPending()
	for {
		_, msg, err := b.ctl.ws.Read(b.ctx)
		if err != nil {
			return
		}
		if env, err := cdp.ScanEnvelope(msg); err == nil {
			b.ctl.deliver(&env, msg)
		}
	}
}

func (b *bridge) serve(w http.ResponseWriter, req *http.Request) {
	p := req.URL.Path
	ctx, cancel := context.WithTimeout(req.Context(), b.wait)
	defer cancel()
	switch {
	case p == "/json/version":
		writeJSON(w, b.version)
	case p == "/json/list":
		b.serveList(ctx, w)
	case p == "/json/new":
		u, _ := url.QueryUnescape(req.URL.RawQuery)
		if u == "" {
			u = "about:blank"
		}
		raw, err := b.ctl.call(ctx, "", "Target.createTarget", map[string]any{"url": u})
		var out struct {
			TargetID string `json:"targetId"`
		}
		if err == nil {
			err = json.Unmarshal(raw, &out)
		}
		if err != nil {
			http.Error(w, "Could not create a target: "+err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, b.listEntry(targetInfo{TargetID: out.TargetID, Type: "page", URL: u}))
	case strings.HasPrefix(p, "/json/activate/"), strings.HasPrefix(p, "/json/close/"):
		method, done := "Target.activateTarget", "Target activated"
		if strings.HasPrefix(p, "/json/close/") {
			method, done = "Target.closeTarget", "Target is closing"
		}
		id := p[strings.LastIndexByte(p, '/')+1:]
		if _, err := b.ctl.call(ctx, "", method, map[string]any{"targetId": id}); err != nil {
			http.Error(w, "No such target id: "+id, http.StatusNotFound)
			return
		}
		_, _ = w.Write([]byte(done))
	case p == "/devtools/browser/"+b.id:
		b.servePair(w, req, "")
	case strings.HasPrefix(p, "/devtools/page/"):
		b.servePair(w, req, strings.TrimPrefix(p, "/devtools/page/"))
	default:
		http.Error(w, "relay: not offered by a one-socket upstream", http.StatusNotFound)
	}
}

// listEntry is one /json/list entry, as Chromium writes it.
func (b *bridge) listEntry(t targetInfo) map[string]any {
	e := map[string]any{"id": t.TargetID, "type": t.Type, "title": t.Title, "url": t.URL, "description": "",
		"webSocketDebuggerUrl": "ws://" + bridgeHost + "/devtools/page/" + t.TargetID}
	if t.ParentFrameID != "" {
		e["parentId"] = t.ParentFrameID
	}
	return e
}

func (b *bridge) serveList(ctx context.Context, w http.ResponseWriter) {
	raw, err := b.ctl.call(ctx, "", "Target.getTargets", nil)
	var out struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}
	if err == nil {
		err = json.Unmarshal(raw, &out)
	}
	if err != nil {
		http.Error(w, "relay: Target.getTargets: "+err.Error(), http.StatusBadGateway)
		return
	}
	list := make([]map[string]any, 0, len(out.TargetInfos))
	for i := len(out.TargetInfos) - 1; i >= 0; i-- { // /json/list is newest first
		if t := out.TargetInfos[i]; t.Type != "browser" && t.Type != "tab" {
			list = append(list, b.listEntry(t))
		}
	}
	writeJSON(w, list)
}

// servePair serves one socket: the browser's (target "") or a target's
// (a flattened session on a socket of its own).
func (b *bridge) servePair(w http.ResponseWriter, req *http.Request, target string) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		http.Error(w, "relay: shutting down", http.StatusServiceUnavailable)
		return
	}
	b.wg.Add(1)
	b.mu.Unlock()
	defer b.wg.Done()
	dctx, cancel := context.WithTimeout(req.Context(), b.wait)
	up, err := b.dial(dctx)
	var sid string
	if err == nil && target != "" {
		sid, err = attachFlat(dctx, up, target)
	}
	cancel()
	if err != nil {
		if up != nil {
			up.closeNow()
		}
		http.Error(w, "relay: no such target, or the upstream does not answer: "+err.Error(), http.StatusNotFound)
		return
	}
	down, ok := acceptClient(w, req, up)
	if !ok {
		return
	}
	ctx, stop := context.WithCancel(b.ctx)
	defer stop()
	errc := make(chan error, 2)
	go func() { errc <- bridgeDown(ctx, down, up.ws, sid) }()
	go func() { errc <- bridgeUp(ctx, up.ws, down, sid) }()
	first := <-errc
	code, reason := websocket.StatusNormalClosure, ""
	var ce websocket.CloseError
	if errors.As(first, &ce) && ce.Code != websocket.StatusNoStatusRcvd && ce.Code != websocket.StatusAbnormalClosure {
		code, reason = ce.Code, ce.Reason
	}
	closeGracefully(down, code, reason, time.Second)
	stop()
	up.closeNow()
	<-errc
}

// attachFlat attaches a flattened session to target on a fresh socket and
// returns its id. Nothing else is on the socket yet, so what comes before
// the reply is not the client's.
func attachFlat(ctx context.Context, up *upstream, target string) (string, error) {
	const id = -1
	b, _ := json.Marshal(map[string]any{"id": id, "method": "Target.attachToTarget",
		"params": map[string]any{"targetId": target, "flatten": true}})
	if err := up.write(ctx, b); err != nil {
		return "", err
	}
	for {
		_, msg, err := up.ws.Read(ctx)
		if err != nil {
			return "", err
		}
		env, err := cdp.ScanEnvelope(msg)
		if err != nil || !env.IsReply() || env.ID != id {
			continue
		}
		var r struct {
			Result struct {
				SessionID string `json:"sessionId"`
			} `json:"result"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(msg, &r); err != nil {
			return "", err
		}
		if r.Error != nil || r.Result.SessionID == "" {
			why := "no session id"
			if r.Error != nil {
				why = r.Error.Message
			}
			return "", errors.New("Target.attachToTarget: " + why)
		}
		return r.Result.SessionID, nil
	}
}

// bridgeDown copies the relay's frames upstream; on a target socket a frame
// without a sessionId is the target's own and gets the session's.
func bridgeDown(ctx context.Context, down, up *websocket.Conn, sid string) error {
	for {
		typ, msg, err := down.Read(ctx)
		if err != nil {
			return err
		}
		if sid != "" && typ == websocket.MessageText {
			if env, err := cdp.ScanEnvelope(msg); err == nil && !env.HasSessionID {
				msg = withSession(msg, sid)
			}
		}
		if err := up.Write(ctx, typ, msg); err != nil {
			return err
		}
	}
}

// errSessionDetached ends a target socket whose session the browser
// detached (the target went): Chromium closes a target's socket then.
var errSessionDetached = errors.New("relay: the target's session was detached")

// bridgeUp copies the browser's frames to the relay; on a target socket the
// session's frames lose its id, and the socket's own browser-level events
// (only the session's detach can come) are not passed on.
func bridgeUp(ctx context.Context, up, down *websocket.Conn, sid string) error {
	for {
		typ, msg, err := up.Read(ctx)
		if err != nil {
			return err
		}
		if sid != "" && typ == websocket.MessageText {
			env, err := cdp.ScanEnvelope(msg)
			switch {
			case err != nil:
			case env.HasSessionID && env.SessionID == sid:
				msg = withoutSession(msg, &env)
			case !env.HasSessionID && env.Method != "":
				var d struct {
					SessionID string `json:"sessionId"`
				}
				if env.Method == "Target.detachedFromTarget" && json.Unmarshal(env.Params, &d) == nil && d.SessionID == sid {
					return errSessionDetached
				}
				continue
			}
		}
		if err := down.Write(ctx, typ, msg); err != nil {
			return err
		}
	}
}

// memListener is a net.Listener in memory: the relay reaches the bridge
// through it, and nothing else can.
type memListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newMemListener() *memListener {
	return &memListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *memListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *memListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *memListener) Addr() net.Addr { return memAddr{} }

// dial connects to the listener.
func (l *memListener) dial(ctx context.Context) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
	case <-ctx.Done():
	}
	_ = client.Close()
	_ = server.Close()
	return nil, net.ErrClosed
}

type memAddr struct{}

func (memAddr) Network() string { return "memory" }
func (memAddr) String() string  { return bridgeHost }
