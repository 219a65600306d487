package cdp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Options configure a connection; the zero value (or nil) means defaults.
type Options struct {
	// CallTimeout bounds each call unless its context ends sooner.
	// Default 30s.
	CallTimeout time.Duration
	// ReadLimit is the largest message accepted. Default 64 MiB (the
	// library's 32 KiB default breaks on screenshots and AX trees).
	ReadLimit int64
	// OnEvent, when set, sees every decoded event on the reader goroutine,
	// in order. It must not block or call the connection synchronously,
	// and it should cost O(1): every reply waits behind it (queue the
	// event and do the work elsewhere).
	OnEvent func(ev Event)
	// SubscriptionQueue bounds the events queued for one subscriber that
	// has not taken them yet; past it new events are dropped and counted
	// (Stats). Default 1024.
	SubscriptionQueue int
	// SubscriptionQueueBytes bounds the same queue in bytes. Default 16 MiB.
	SubscriptionQueueBytes int
	// Header is sent with the WebSocket handshake (a remote endpoint's
	// auth token, ADR-027). It is never logged and never in an error.
	Header http.Header
}

// Stats are a connection's counters.
type Stats struct {
	// DroppedEvents is how many events subscribers' full queues let go.
	// Replies are never dropped.
	DroppedEvents int64
}

// Event is one event frame.
type Event struct {
	SessionID string
	Method    string
	Params    json.RawMessage
}

func (o *Options) withDefaults() Options {
	var out Options
	if o != nil {
		out = *o
	}
	if out.CallTimeout <= 0 {
		out.CallTimeout = 30 * time.Second
	}
	if out.ReadLimit <= 0 {
		out.ReadLimit = 64 << 20
	}
	if out.SubscriptionQueue <= 0 {
		out.SubscriptionQueue = defaultSubscriptionQueue
	}
	if out.SubscriptionQueueBytes <= 0 {
		out.SubscriptionQueueBytes = defaultSubscriptionQueueBytes
	}
	return out
}

type reply struct {
	result json.RawMessage
	err    error
}

type subKey struct{ session, method string }

// Conn is one WebSocket connection to a DevTools endpoint. It is safe for
// concurrent use.
type Conn struct {
	url  string
	opts Options
	ws   *websocket.Conn

	nextID  atomic.Int64
	dropped atomic.Int64

	mu      sync.Mutex
	pending map[int64]pendingCall
	subs    map[subKey]map[*subscription]struct{}
	views   map[string]*Conn // flattened sessions bound as connections (Attach), by session id
	closed  bool
	err     error // why the connection ended

	// A view (see Attach) is a flattened session on root's socket: its
	// calls carry sid, and it sees only that session's events.
	root *Conn
	sid  string

	done      chan struct{}
	readerEnd chan struct{}
}

// Dial connects to a DevTools WebSocket URL (a browser, page or iframe
// target). It sends no Origin header, which Chromium would refuse.
func Dial(ctx context.Context, url string, opts *Options) (*Conn, error) {
	o := opts.withDefaults()
	h := http.Header{}
	if o.Header != nil {
		h = o.Header.Clone()
	}
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, errs.Wrap(errs.CDPDisconnected, err, "connecting to "+url)
	}
	ws.SetReadLimit(o.ReadLimit)
	c := &Conn{
		url:       url,
		opts:      o,
		ws:        ws,
		pending:   map[int64]pendingCall{},
		subs:      map[subKey]map[*subscription]struct{}{},
		done:      make(chan struct{}),
		readerEnd: make(chan struct{}),
	}
	go c.read()
	return c, nil
}

// URL returns the endpoint the connection was dialled to.
func (c *Conn) URL() string { return c.url }

// Done is closed when the connection has ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Stats returns the connection's counters.
func (c *Conn) Stats() Stats {
	if c.root != nil {
		return c.root.Stats()
	}
	return Stats{DroppedEvents: c.dropped.Load()}
}

// Err returns why the connection ended, or nil while it is open.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close closes the socket and waits for the reader to end. Pending calls
// fail with CDP_DISCONNECTED.
func (c *Conn) Close() error {
	if c.root != nil {
		c.root.closeView(c, errs.New(errs.CDPDisconnected, "session closed by us"), true)
		return nil
	}
	c.shutdown(errs.New(errs.CDPDisconnected, "connection closed by us"))
	_ = c.ws.Close(websocket.StatusNormalClosure, "")
	<-c.readerEnd
	return nil
}

func (c *Conn) shutdown(why error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.err = why
	pending := c.pending
	c.pending = nil
	subs := c.subs
	c.subs = nil
	views := c.views
	c.views = nil
	c.mu.Unlock()
	for _, pc := range pending {
		pc.ch <- reply{err: why}
	}
	for _, v := range views {
		v.endView(why)
	}
	for _, set := range subs {
		for s := range set {
			s.close()
		}
	}
	close(c.done)
}

func (c *Conn) read() {
	defer close(c.readerEnd)
	var buf bytes.Buffer // reused: each frame then costs one exact-size copy
	for {
		b, err := c.readFrame(&buf)
		if err != nil {
			c.shutdown(errs.Wrap(errs.CDPDisconnected, err, "DevTools socket "+c.url+" closed"))
			_ = c.ws.CloseNow()
			return
		}
		f, err := DecodeFrame(b)
		if err != nil {
			continue // nothing we can route
		}
		if f.ID > 0 && f.Method == "" {
			c.deliverReply(f)
			continue
		}
		c.deliverEvent(f)
	}
}

// readFrame reads one message into buf and returns a copy of it that the
// caller owns (decoded frames keep sub-slices of it).
func (c *Conn) readFrame(buf *bytes.Buffer) ([]byte, error) {
	_, r, err := c.ws.Reader(context.Background())
	if err != nil {
		return nil, err
	}
	buf.Reset()
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	b := bytes.Clone(buf.Bytes())
	if buf.Cap() > 1<<20 {
		*buf = bytes.Buffer{} // do not hold a screenshot's buffer
	}
	return b, nil
}

func (c *Conn) deliverReply(f Frame) {
	c.mu.Lock()
	pc, ok := c.pending[f.ID]
	if ok {
		delete(c.pending, f.ID)
	}
	c.mu.Unlock()
	if !ok {
		return // a call that timed out
	}
	ch := pc.ch
	if f.Error != nil {
		ch <- reply{err: f.Error}
		if f.Error.Code == codeNoSession && pc.sid != "" {
			// The browser no longer knows the view's session (it went
			// without a detachedFromTarget this connection saw): the view
			// ends, so its owner attaches again instead of calling a dead
			// session for ever.
			c.mu.Lock()
			v := c.views[pc.sid]
			c.mu.Unlock()
			if v != nil {
				c.closeView(v, errs.New(errs.CDPDisconnected, "the target's session is gone: %s", f.Error.Message), false)
			}
		}
		return
	}
	ch <- reply{result: f.Result}
}

// codeNoSession is the JSON-RPC error code Chromium answers a call on a
// session it does not know ("Session with given id not found.").
const codeNoSession = -32001

func (c *Conn) deliverEvent(f Frame) {
	if c.opts.OnEvent != nil {
		c.opts.OnEvent(Event{SessionID: f.SessionID, Method: f.Method, Params: f.Params})
	}
	if f.SessionID != "" || f.Method == "Target.detachedFromTarget" {
		c.routeToView(f)
	}
	c.mu.Lock()
	set := c.subs[subKey{f.SessionID, f.Method}]
	targets := make([]*subscription, 0, len(set))
	for s := range set {
		targets = append(targets, s)
	}
	c.mu.Unlock()
	for _, s := range targets {
		s.push(jsonv2.Value(f.Params))
	}
}

// Call runs a method on the browser-level (or target-level) root session.
// params may be nil, a json.RawMessage, or any value cdproto can encode;
// result may be nil, a *json.RawMessage, or a pointer to decode into.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	return c.call(ctx, "", method, params, result)
}

// Subscribe implements cdproto's cdp.Session for the root session.
func (c *Conn) Subscribe(method string) (<-chan jsonv2.Value, func()) {
	return c.subscribe("", method)
}

// Session returns a handle for a flattened child session on this socket.
func (c *Conn) Session(id string) *Session { return &Session{c: c, id: id} }

type outFrame struct {
	ID        int64           `json:"id"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params,omitempty"`
}

func encodeParams(params any) (json.RawMessage, error) {
	switch p := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return p, nil
	case []byte:
		return json.RawMessage(p), nil
	}
	b, err := jsonv2.Marshal(params)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(b, []byte("{}")) || bytes.Equal(b, []byte("null")) {
		return nil, nil
	}
	return b, nil
}

func (c *Conn) call(ctx context.Context, sessionID, method string, params, result any) error {
	p, err := c.start(ctx, sessionID, method, params)
	if err != nil {
		return err
	}
	return p.Wait(ctx, result)
}

// Pending is a call that has been written to the socket and whose reply
// has not been taken yet. Wait takes it; a Pending that is never waited
// for is forgotten when its reply comes.
type Pending struct {
	c      *Conn
	id     int64
	method string
	ch     chan reply
}

// Start writes a call on the root session and returns without waiting for
// its reply. Calls started one after another on one connection reach the
// browser in that order, so a caller can pipeline commands whose effects
// the browser applies in order (input events) and pay one round trip for
// all of them.
func (c *Conn) Start(ctx context.Context, method string, params any) (*Pending, error) {
	return c.start(ctx, "", method, params)
}

// sendObserverKey carries a send observer in a context (WithSendObserver).
type sendObserverKey struct{}

// WithSendObserver returns a context whose calls report their method to
// observe just before they are written: a test sees which code path sent
// what (TestClickRefWalk), with no state of the package's own.
func WithSendObserver(ctx context.Context, observe func(method string)) context.Context {
	return context.WithValue(ctx, sendObserverKey{}, observe)
}

func (c *Conn) start(ctx context.Context, sessionID, method string, params any) (*Pending, error) {
	if c.root != nil {
		c.mu.Lock()
		closed, why := c.closed, c.err
		c.mu.Unlock()
		if closed {
			return nil, why
		}
		if sessionID == "" {
			sessionID = c.sid
		}
		return c.root.start(ctx, sessionID, method, params)
	}
	if observe, ok := ctx.Value(sendObserverKey{}).(func(string)); ok {
		observe(method)
	}
	p, err := encodeParams(params)
	if err != nil {
		return nil, errs.BadArg("params", "cannot encode %s params: %v", method, err)
	}
	id := c.nextID.Add(1)
	b, err := json.Marshal(outFrame{ID: id, SessionID: sessionID, Method: method, Params: p})
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "encoding "+method)
	}
	pc := &Pending{c: c, id: id, method: method, ch: make(chan reply, 1)}
	c.mu.Lock()
	if c.closed {
		why := c.err
		c.mu.Unlock()
		return nil, why
	}
	c.pending[id] = pendingCall{ch: pc.ch, sid: sessionID}
	c.mu.Unlock()
	if err := c.write(ctx, b); err != nil {
		pc.forget()
		if ctx.Err() != nil {
			return nil, errs.FromContext(ctx, errs.CDPTimeout, method+" got no reply before the deadline")
		}
		return nil, errs.Wrap(errs.CDPDisconnected, err, "sending "+method)
	}
	return pc, nil
}

// write sends one frame. The caller's context does not bound it: the
// WebSocket library closes the whole connection when a write's context ends
// mid-write, and the socket is every caller's, so a caller that gives up
// (a dialog opened, an agent cancelled) would end the window for all. A
// write is bounded by CallTimeout instead; one blocked that long means the
// socket is wedged, and closing it is then right.
func (c *Conn) write(ctx context.Context, b []byte) error {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.opts.CallTimeout)
	defer cancel()
	return c.ws.Write(wctx, websocket.MessageText, b)
}

func (p *Pending) forget() {
	p.c.mu.Lock()
	if p.c.pending != nil {
		delete(p.c.pending, p.id)
	}
	p.c.mu.Unlock()
}

// Wait waits for the call's reply (up to the connection's call timeout)
// and decodes its result into result, as Call does.
func (p *Pending) Wait(ctx context.Context, result any) error {
	timer := time.NewTimer(p.c.opts.CallTimeout)
	defer timer.Stop()
	select {
	case r := <-p.ch:
		if r.err != nil {
			return r.err
		}
		return decodeResult(p.method, r.result, result)
	case <-ctx.Done():
		p.forget()
		return errs.FromContext(ctx, errs.CDPTimeout, p.method+" got no reply before the deadline")
	case <-timer.C:
		p.forget()
		return errs.New(errs.CDPTimeout, "%s got no reply in %s", p.method, p.c.opts.CallTimeout)
	}
}

func decodeResult(method string, raw json.RawMessage, result any) error {
	switch r := result.(type) {
	case nil:
		return nil
	case *json.RawMessage:
		*r = raw
		return nil
	}
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	if err := jsonv2.Unmarshal(raw, result); err != nil {
		return errs.Wrap(errs.Internal, err, fmt.Sprintf("decoding the result of %s", method))
	}
	return nil
}

func (c *Conn) subscribe(session, method string) (<-chan jsonv2.Value, func()) {
	if c.root != nil {
		c.mu.Lock()
		closed := c.closed
		c.mu.Unlock()
		if closed {
			s := newSubscription(1, 1, nil)
			s.close()
			return s.out, func() {}
		}
		if session == "" {
			session = c.sid
		}
		return c.root.subscribe(session, method)
	}
	s := newSubscription(c.opts.SubscriptionQueue, c.opts.SubscriptionQueueBytes, func() { c.dropped.Add(1) })
	k := subKey{session, method}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		s.close()
		return s.out, func() {}
	}
	set := c.subs[k]
	if set == nil {
		set = map[*subscription]struct{}{}
		c.subs[k] = set
	}
	set[s] = struct{}{}
	c.mu.Unlock()
	var once sync.Once
	return s.out, func() {
		once.Do(func() {
			c.mu.Lock()
			if c.subs != nil {
				delete(c.subs[k], s)
				if len(c.subs[k]) == 0 {
					delete(c.subs, k)
				}
			}
			c.mu.Unlock()
			s.close()
		})
	}
}

// Session is a flattened child session on a connection. It implements
// cdproto's cdp.Session.
type Session struct {
	c  *Conn
	id string
}

// ID returns the session id.
func (s *Session) ID() string { return s.id }

// Conn returns the connection that carries the session.
func (s *Session) Conn() *Conn { return s.c }

// Call runs a method on the session.
func (s *Session) Call(ctx context.Context, method string, params, result any) error {
	return s.c.call(ctx, s.id, method, params, result)
}

// Start writes a call on the session without waiting for its reply (see
// Conn.Start).
func (s *Session) Start(ctx context.Context, method string, params any) (*Pending, error) {
	return s.c.start(ctx, s.id, method, params)
}

// Subscribe buffers the session's events of one method until cancelled.
func (s *Session) Subscribe(method string) (<-chan jsonv2.Value, func()) {
	return s.c.subscribe(s.id, method)
}
