package relay

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/cdp"
)

// upstreamReadLimit is the largest message read from the browser: full AX
// trees, screenshots and response bodies are large.
const upstreamReadLimit = 256 << 20

// upstream is one WebSocket to the browser: a browser endpoint or one
// target's own endpoint. Exactly one goroutine reads it (the client's
// readUpstream, the hub's readMonitor, or a tunnel's copier); writes may
// come from any goroutine (coder/websocket serialises them).
//
// It is not internal/cdp's Conn, on purpose (docs/adr/017): the relay
// forwards its clients' frames as the bytes they are, in both directions,
// and finds their routing with cdp.ScanEnvelope alone; the socket's reader is
// where the client's bounded queue pushes back, and it starts only once the
// relay's session for the socket exists. Its own few calls (Browser.getVersion,
// Target.setDiscoverTargets, commands it answers for a client) share the id
// space with the client's and use negative ids; their errors are
// cdp.ProtocolError, as everywhere else.
//
// The relay's own calls on an upstream use negative ids, which no client
// uses (clients count up from 1), so their replies are told apart without a
// table of client ids.
type upstream struct {
	ws  *websocket.Conn
	url string

	lastID atomic.Int32

	mu      sync.Mutex
	pending map[int64]chan callResult
	closed  bool
}

type callResult struct {
	result json.RawMessage
	err    error
}

// dialUpstream opens a socket to a DevTools WebSocket URL with client (nil:
// the default; a flat upstream's bridge has its own). It sends no Origin
// header (Chromium refuses one unless told otherwise).
func dialUpstream(ctx context.Context, client *http.Client, url string) (*upstream, error) {
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{
		HTTPClient:      client,
		HTTPHeader:      http.Header{},
		CompressionMode: websocket.CompressionDisabled,
	})
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(upstreamReadLimit)
	return &upstream{ws: ws, url: url, pending: map[int64]chan callResult{}}, nil
}

// write sends one message as given.
func (u *upstream) write(ctx context.Context, b []byte) error {
	return u.ws.Write(ctx, websocket.MessageText, b)
}

// call sends a command of the relay's own on this socket (on the child
// session sid, or on the socket's own session when sid is empty) and waits
// for its reply. The reply reaches it through deliver, called by the
// socket's reader.
func (u *upstream) call(ctx context.Context, sid, method string, params any) (json.RawMessage, error) {
	id := -int64(u.lastID.Add(1))
	type cmd struct {
		ID        int64  `json:"id"`
		Method    string `json:"method"`
		Params    any    `json:"params,omitempty"`
		SessionID string `json:"sessionId,omitempty"`
	}
	b, err := json.Marshal(cmd{ID: id, Method: method, Params: params, SessionID: sid})
	if err != nil {
		return nil, err
	}
	ch := make(chan callResult, 1)
	u.mu.Lock()
	if u.closed {
		u.mu.Unlock()
		return nil, errUpstreamClosed
	}
	u.pending[id] = ch
	u.mu.Unlock()
	forget := func() {
		u.mu.Lock()
		delete(u.pending, id)
		u.mu.Unlock()
	}
	if err := u.write(ctx, b); err != nil {
		forget()
		return nil, err
	}
	select {
	case r := <-ch:
		return r.result, r.err
	case <-ctx.Done():
		forget()
		return nil, ctx.Err()
	}
}

var errUpstreamClosed = errors.New("relay: upstream socket closed")

// deliver hands the reply of one of the relay's own calls to its caller. It
// reports false when env is not such a reply.
func (u *upstream) deliver(env *cdp.Envelope, b []byte) bool {
	if !env.IsReply() || env.ID >= 0 {
		return false
	}
	u.mu.Lock()
	ch, ok := u.pending[env.ID]
	delete(u.pending, env.ID)
	u.mu.Unlock()
	if !ok {
		return true // a call that gave up; nothing else wants it
	}
	var r struct {
		Result json.RawMessage    `json:"result"`
		Error  *cdp.ProtocolError `json:"error"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		ch <- callResult{err: err}
	} else if r.Error != nil {
		ch <- callResult{err: r.Error}
	} else {
		ch <- callResult{result: r.Result}
	}
	return true
}

// failPending ends every waiting call once the socket is gone.
func (u *upstream) failPending() {
	u.mu.Lock()
	u.closed = true
	pending := u.pending
	u.pending = map[int64]chan callResult{}
	u.mu.Unlock()
	for _, ch := range pending {
		ch <- callResult{err: errUpstreamClosed}
	}
}

// closeNow drops the socket without a close handshake. The browser ends the
// DevTools session of the socket either way, which is what releases the
// state a client held there (debugger pauses, interception, emulation).
func (u *upstream) closeNow() { _ = u.ws.CloseNow() }

// closeGracefully sends a close frame and waits a short time for the reply.
func closeGracefully(ws *websocket.Conn, code websocket.StatusCode, reason string, wait time.Duration) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = ws.Close(code, reason)
	}()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		_ = ws.CloseNow()
		<-done
	}
}
