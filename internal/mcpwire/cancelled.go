package mcpwire

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SilenceCancelled wraps an MCP transport so that a request the client
// cancelled (notifications/cancelled) gets no reply, as the MCP
// specification asks of the receiver. go-sdk cancels the handler's context
// on the notification but still writes the handler's response; Dispatch
// ends the handler's work at once (the session is released when the
// handler returns), and this drops the response it leaves behind.
//
// It remembers only requests in flight: an id is noted when its request is
// read and forgotten when its response is written or dropped, so a cancel
// for a request already answered (the reply crossed the notification) is
// ignored and nothing grows.
func SilenceCancelled(t mcp.Transport) mcp.Transport {
	return wrapTransport(t, func(c mcp.Connection) mcp.Connection {
		return &silenceConn{Connection: c, inFlight: map[any]bool{}}
	})
}

// wrapTransport is t with each connection it opens wrapped; what t says of
// protocol versions it still says.
func wrapTransport(t mcp.Transport, wrap func(mcp.Connection) mcp.Connection) mcp.Transport {
	w := wrappedTransport{t, wrap}
	if pvs, ok := t.(mcp.ProtocolVersionSupporter); ok {
		return &wrappedVersioned{w, pvs}
	}
	return &w
}

type wrappedTransport struct {
	inner mcp.Transport
	wrap  func(mcp.Connection) mcp.Connection
}

type wrappedVersioned struct {
	wrappedTransport
	pvs mcp.ProtocolVersionSupporter
}

func (w *wrappedVersioned) SupportsProtocolVersion(v string) bool {
	return w.pvs.SupportsProtocolVersion(v)
}

func (w *wrappedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := w.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return w.wrap(c), nil
}

// silenceConn is one connection: inFlight maps the raw id of each request
// read and not yet answered to whether the client cancelled it.
type silenceConn struct {
	mcp.Connection
	mu       sync.Mutex
	inFlight map[any]bool
}

// IDKey makes an id comparable whatever JSON number type it came as.
func IDKey(id jsonrpc.ID) any {
	switch v := id.Raw().(type) {
	case float64:
		return int64(v)
	case int:
		return int64(v)
	default:
		return v
	}
}

func (c *silenceConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		return msg, err
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return msg, nil
	}
	switch {
	case req.IsCall():
		c.mu.Lock()
		c.inFlight[IDKey(req.ID)] = false
		c.mu.Unlock()
	case req.Method == "notifications/cancelled":
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
				c.mu.Lock()
				if _, open := c.inFlight[IDKey(id)]; open {
					c.inFlight[IDKey(id)] = true
				}
				c.mu.Unlock()
			}
		}
	}
	return msg, nil
}

func (c *silenceConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID.IsValid() {
		k := IDKey(resp.ID)
		c.mu.Lock()
		cancelled := c.inFlight[k]
		delete(c.inFlight, k)
		c.mu.Unlock()
		if cancelled {
			return nil // the client gave up on it: no reply
		}
	}
	return c.Connection.Write(ctx, msg)
}
