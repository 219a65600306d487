//lint:file-ignore SA1019 MCP log notifications are served during the logging deprecation window (SEP-2577); issue 19 asks for them

package mcpwire

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ClientLog is a slog.Handler that sends each record to every connected
// MCP client of servers as a notifications/message (a record of a tool call
// only to the client that made it: WithCaller). The SDK sends a client nothing
// until it has set a level (logging/setLevel) and then only records at or
// above it, so the level is each client's choice; the operator's
// --log-level governs stderr only. Records carry what the server logs at
// any level: never page content or secrets at info and above.
type clientLog struct {
	servers *Servers
	attrs   []slog.Attr
	groups  []string
}

// Servers are the MCP servers a tool server built, whose sessions get
// log notifications.
// The list is copied on write: every logged call reads it, without a lock
// (docs/adr/028).
type Servers struct {
	mu   sync.Mutex // writers
	list atomic.Pointer[[]*mcp.Server]
}

// Add makes s one of the servers whose clients get log notifications.
func (m *Servers) Add(s *mcp.Server) {
	m.mu.Lock()
	var list []*mcp.Server
	if p := m.list.Load(); p != nil {
		list = append(list, *p...)
	}
	list = append(list, s)
	m.list.Store(&list)
	m.mu.Unlock()
}

func (m *Servers) sessions() []*mcp.ServerSession {
	var list []*mcp.Server
	if p := m.list.Load(); p != nil {
		list = *p
	}
	var out []*mcp.ServerSession
	for _, s := range list {
		for ss := range s.Sessions() {
			out = append(out, ss)
		}
	}
	return out
}

// callerKey holds the MCP session of the tool call a context belongs to.
type callerKey struct{}

// WithCaller returns ctx naming the MCP session whose tool call it serves:
// ClientLog sends that call's records to it alone.
func WithCaller(ctx context.Context, ss *mcp.ServerSession) context.Context {
	return context.WithValue(ctx, callerKey{}, ss)
}

// ClientLog is the slog handler that logs to the clients of servers.
func ClientLog(servers *Servers) slog.Handler { return &clientLog{servers: servers} }

func (h *clientLog) Enabled(context.Context, slog.Level) bool { return true }

func (h *clientLog) Handle(ctx context.Context, r slog.Record) error {
	sessions := h.servers.sessions()
	if len(sessions) == 0 {
		return nil
	}
	data := map[string]any{"msg": r.Message}
	put := func(a slog.Attr) {
		key := a.Key
		for i := len(h.groups) - 1; i >= 0; i-- {
			key = h.groups[i] + "." + key
		}
		data[key] = a.Value.Resolve().Any()
	}
	for _, a := range h.attrs {
		put(a)
	}
	r.Attrs(func(a slog.Attr) bool { put(a); return true })
	params := &mcp.LoggingMessageParams{Level: mcpLevel(r.Level), Logger: "understudy", Data: data}
	// A record of a tool call goes to the client that made the call, with
	// the call's context: a client of protocol 2026-07-28 or later sets the
	// level per request (_meta), an older one with logging/setLevel.
	if ss, ok := ctx.Value(callerKey{}).(*mcp.ServerSession); ok {
		_ = ss.Log(context.WithoutCancel(ctx), params)
		return nil
	}
	for _, ss := range sessions {
		_ = ss.Log(context.Background(), params) // a client that went away is not the log's problem
	}
	return nil
}

func (h *clientLog) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(append([]slog.Attr(nil), h.attrs...), attrs...)
	return &c
}

func (h *clientLog) WithGroup(name string) slog.Handler {
	c := *h
	c.groups = append(append([]string(nil), h.groups...), name)
	return &c
}

// mcpLevel names a slog level as MCP's syslog-style levels do.
func mcpLevel(l slog.Level) mcp.LoggingLevel {
	switch {
	case l >= slog.LevelError:
		return "error"
	case l >= slog.LevelWarn:
		return "warning"
	case l >= slog.LevelInfo:
		return "info"
	}
	return "debug"
}
