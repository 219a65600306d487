package cdp

import (
	"context"
	"encoding/json"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// pendingCall is one call waiting for its reply, and the session it was
// sent on (so that closing a view fails its calls at once).
type pendingCall struct {
	ch  chan reply
	sid string
}

// detachTimeout bounds the Target.detachFromTarget a closing view sends.
const detachTimeout = 2 * time.Second

// Attach attaches to a target over this connection (a browser socket) with
// Target.attachToTarget {flatten: true} and returns a connection bound to
// the new session (docs/adr/025): its calls carry the session id, its
// OnEvent and subscriptions see only that session's events, which arrive
// with an empty SessionID as on a target's own socket, and its Done closes
// when the session is detached, the target goes, or this connection ends.
// Closing it detaches the session and leaves this connection open. The
// view shares this connection's reader, call timeout and queues.
func (c *Conn) Attach(ctx context.Context, targetID string, onEvent func(Event)) (*Conn, error) {
	if c.root != nil {
		return c.root.Attach(ctx, targetID, onEvent)
	}
	var out struct {
		SessionID string `json:"sessionId"`
	}
	if err := c.Call(ctx, "Target.attachToTarget", map[string]any{"targetId": targetID, "flatten": true}, &out); err != nil {
		return nil, err
	}
	if out.SessionID == "" {
		return nil, errs.New(errs.CDPDisconnected, "Target.attachToTarget %s gave no session id", targetID)
	}
	o := c.opts
	o.OnEvent = onEvent
	v := &Conn{url: c.url, opts: o, done: make(chan struct{}), readerEnd: make(chan struct{}), root: c, sid: out.SessionID}
	close(v.readerEnd)
	c.mu.Lock()
	if c.closed {
		why := c.err
		c.mu.Unlock()
		return nil, why
	}
	if c.views == nil {
		c.views = map[string]*Conn{}
	}
	c.views[v.sid] = v
	c.mu.Unlock()
	return v, nil
}

// SessionID returns the flattened session a view (see Attach) is bound
// to, or "" for a connection of its own.
func (c *Conn) SessionID() string { return c.sid }

// Views counts the views attached to this connection and not closed.
func (c *Conn) Views() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.views)
}

// routeToView hands a session's event to its view, with the session id
// taken off, and ends a view whose session the browser detached. It runs
// on the reader goroutine.
func (c *Conn) routeToView(f Frame) {
	if f.SessionID == "" { // Target.detachedFromTarget on the browser session
		var m struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(f.Params, &m) == nil && m.SessionID != "" {
			c.mu.Lock()
			v := c.views[m.SessionID]
			c.mu.Unlock()
			if v != nil {
				c.closeView(v, errs.New(errs.CDPDisconnected, "the target's session was detached"), false)
			}
		}
		return
	}
	c.mu.Lock()
	v := c.views[f.SessionID]
	c.mu.Unlock()
	if v != nil && v.opts.OnEvent != nil {
		v.opts.OnEvent(Event{Method: f.Method, Params: f.Params})
	}
}

// closeView ends a view: its pending calls fail with why, its
// subscriptions close, its Done closes. With detach it also detaches the
// session (best effort, bounded).
func (c *Conn) closeView(v *Conn, why error, detach bool) {
	c.mu.Lock()
	if c.views[v.sid] == v {
		delete(c.views, v.sid)
	}
	var calls []pendingCall
	for id, pc := range c.pending {
		if pc.sid == v.sid {
			calls = append(calls, pc)
			delete(c.pending, id)
		}
	}
	var subs []*subscription
	for k, set := range c.subs {
		if k.session == v.sid {
			for s := range set {
				subs = append(subs, s)
			}
			delete(c.subs, k)
		}
	}
	rootClosed := c.closed
	c.mu.Unlock()
	if !v.endView(why) {
		return
	}
	for _, pc := range calls {
		pc.ch <- reply{err: why}
	}
	for _, s := range subs {
		s.close()
	}
	if detach && !rootClosed {
		ctx, cancel := context.WithTimeout(context.Background(), detachTimeout)
		defer cancel()
		_ = c.Call(ctx, "Target.detachFromTarget", map[string]any{"sessionId": v.sid}, nil)
	}
}

// endView marks a view ended; it reports whether it was open.
func (v *Conn) endView(why error) bool {
	v.mu.Lock()
	if v.closed {
		v.mu.Unlock()
		return false
	}
	v.closed = true
	v.err = why
	v.mu.Unlock()
	close(v.done)
	return true
}
