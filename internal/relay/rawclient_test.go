package relay

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// rawClient is a minimal CDP client for the tests: it keeps every frame it
// receives, in order, so tests can check what came before what.
type rawClient struct {
	tb testing.TB
	ws *websocket.Conn

	mu       sync.Mutex
	frames   []rawFrame
	changed  chan struct{} // closed and replaced on each new frame
	nextID   int64
	closeErr error
	done     chan struct{}
}

type rawFrame struct {
	ID        int64           `json:"id"`
	Method    string          `json:"method"`
	SessionID string          `json:"sessionId"`
	Params    json.RawMessage `json:"params"`
	Result    json.RawMessage `json:"result"`
	Error     *rpcError       `json:"error"`
	raw       []byte
}

const waitTimeout = 20 * time.Second

func dialRaw(tb testing.TB, url string) *rawClient {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{}})
	if err != nil {
		tb.Fatalf("dial %s: %v", url, err)
	}
	ws.SetReadLimit(256 << 20)
	c := &rawClient{tb: tb, ws: ws, changed: make(chan struct{}), done: make(chan struct{})}
	go c.read()
	tb.Cleanup(c.close)
	return c
}

func (c *rawClient) read() {
	defer close(c.done)
	for {
		_, b, err := c.ws.Read(context.Background())
		c.mu.Lock()
		if err != nil {
			c.closeErr = err
			close(c.changed)
			c.changed = make(chan struct{})
			c.mu.Unlock()
			return
		}
		var f rawFrame
		if json.Unmarshal(b, &f) == nil {
			f.raw = b
			c.frames = append(c.frames, f)
		}
		close(c.changed)
		c.changed = make(chan struct{})
		c.mu.Unlock()
	}
}

func (c *rawClient) close() {
	_ = c.ws.CloseNow()
	<-c.done
}

// send writes a command and returns its id.
func (c *rawClient) send(sid, method string, params any) int64 {
	c.tb.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if sid != "" {
		msg["sessionId"] = sid
	}
	b, _ := json.Marshal(msg)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		c.tb.Fatalf("send %s: %v", method, err)
	}
	return id
}

// call sends a command and waits for its reply; an error reply fails the
// test.
func (c *rawClient) call(sid, method string, params any) json.RawMessage {
	c.tb.Helper()
	res, err := c.callErr(sid, method, params)
	if err != nil {
		c.tb.Fatalf("%s: %s (%d)", method, err.Message, err.Code)
	}
	return res
}

func (c *rawClient) callErr(sid, method string, params any) (json.RawMessage, *rpcError) {
	c.tb.Helper()
	id := c.send(sid, method, params)
	_, f := c.waitFor(func(f rawFrame) bool { return f.ID == id && f.Method == "" && f.SessionID == sid }, "the reply to "+method)
	return f.Result, f.Error
}

// waitFor returns the first frame (and its index) for which pred holds,
// waiting for it if needed.
func (c *rawClient) waitFor(pred func(rawFrame) bool, what string) (int, rawFrame) {
	c.tb.Helper()
	deadline := time.NewTimer(waitTimeout)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		for i, f := range c.frames {
			if pred(f) {
				c.mu.Unlock()
				return i, f
			}
		}
		ch, err := c.changed, c.closeErr
		c.mu.Unlock()
		if err != nil {
			c.tb.Fatalf("waiting for %s: the connection closed: %v", what, err)
		}
		select {
		case <-ch:
		case <-deadline.C:
			c.dump()
			c.tb.Fatalf("timed out waiting for %s", what)
		}
	}
}

// index returns the index of the first frame for which pred holds, or -1.
func (c *rawClient) index(pred func(rawFrame) bool) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, f := range c.frames {
		if pred(f) {
			return i
		}
	}
	return -1
}

func (c *rawClient) snapshot() []rawFrame {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]rawFrame(nil), c.frames...)
}

func (c *rawClient) count(pred func(rawFrame) bool) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, f := range c.frames {
		if pred(f) {
			n++
		}
	}
	return n
}

// waitClosed waits for the connection to end and returns why.
func (c *rawClient) waitClosed() error {
	c.tb.Helper()
	select {
	case <-c.done:
	case <-time.After(waitTimeout):
		c.tb.Fatal("timed out waiting for the relay to close the connection")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closeErr
}

func isEvent(method, sid string) func(rawFrame) bool {
	return func(f rawFrame) bool { return f.Method == method && f.SessionID == sid }
}

// attachedEvent is the params of Target.attachedToTarget.
type attachedEvent struct {
	SessionID          string     `json:"sessionId"`
	TargetInfo         targetInfo `json:"targetInfo"`
	WaitingForDebugger bool       `json:"waitingForDebugger"`
}

func attachedTo(targetID, sid string) func(rawFrame) bool {
	return func(f rawFrame) bool {
		if f.Method != "Target.attachedToTarget" || f.SessionID != sid {
			return false
		}
		var a attachedEvent
		return json.Unmarshal(f.Params, &a) == nil && a.TargetInfo.TargetID == targetID
	}
}

func decode[T any](tb testing.TB, raw json.RawMessage) T {
	tb.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		tb.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

// dump logs every frame (for debugging a failing test).
func (c *rawClient) dump() {
	for i, f := range c.snapshot() {
		s := string(f.raw)
		if len(s) > 300 {
			s = s[:300]
		}
		c.tb.Logf("%3d %s", i, s)
	}
}
