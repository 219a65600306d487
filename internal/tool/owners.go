package tool

import (
	"context"
	"sync"
)

// Over streamable HTTP several MCP clients can share one server. A session
// belongs to the MCP session (the transport's session id) that launched or
// attached it: other clients neither see nor drive it, unless the operator
// started the server with --share-sessions (Config.ShareSessions). On stdio
// and in process there is one client, whose owner id is "".

// ownerKey is the context key of the calling MCP session's id.
type ownerKey struct{}

// WithOwner returns ctx naming the MCP session a call comes from.
func WithOwner(ctx context.Context, owner string) context.Context {
	return context.WithValue(ctx, ownerKey{}, owner)
}

func ownerOf(ctx context.Context) string {
	o, _ := ctx.Value(ownerKey{}).(string)
	return o
}

// owners maps session ids to the MCP session that made them.
// Calls read it on every dispatch, so it is a sync.Map: no lock is shared
// by calls on different sessions (docs/adr/028). Rule (docs/adr/008): an
// entry goes with its session (dropSession).
type owners struct {
	m sync.Map // session id → owner
}

func (o *owners) set(sessionID, owner string) { o.m.Store(sessionID, owner) }

func (o *owners) of(sessionID string) string {
	v, _ := o.m.Load(sessionID)
	s, _ := v.(string)
	return s
}
