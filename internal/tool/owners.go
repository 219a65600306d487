package tool

import (
	"context"
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
