package tool

import (
	"context"
	"sort"
	"strings"
	"sync"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/session"
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
type owners struct {
	mu sync.Mutex
	m  map[string]string
}

func (o *owners) set(sessionID, owner string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m == nil {
		o.m = map[string]string{}
	}
	o.m[sessionID] = owner
}

// dropSession forgets a session that has ended (stop, detach, kill).
func (s *Server) dropSession(id string) {
	s.sessions.Remove(id)
	s.owners.mu.Lock()
	delete(s.owners.m, id)
	s.owners.mu.Unlock()
}

// visible returns the open sessions the caller may see, oldest first.
func (s *Server) visible(ctx context.Context) []*session.Session {
	all := s.sessions.List()
	s.owners.mu.Lock()
	defer s.owners.mu.Unlock()
	if s.cfg.ShareSessions {
		return all
	}
	me := ownerOf(ctx)
	out := all[:0:0]
	for _, x := range all {
		if s.owners.m[x.ID] == me {
			out = append(out, x)
		}
	}
	return out
}

// resolveSession finds the session a call means among those the caller may
// see: the one named, or the only one.
func (s *Server) resolveSession(ctx context.Context, id string) (*session.Session, error) {
	vis := s.visible(ctx)
	if id != "" {
		for _, x := range vis {
			if x.ID == id {
				return x, nil
			}
		}
		if len(vis) == 0 {
			return nil, errs.New(errs.NotRunning, "no session %q: no session of yours is open", id)
		}
		return nil, errs.New(errs.NotRunning, "no session %q; your open sessions: %s", id, idsOf(vis)).With("sessionId", id)
	}
	switch len(vis) {
	case 0:
		return nil, errs.New(errs.NotRunning, "no session is open")
	case 1:
		return vis[0], nil
	}
	return nil, errs.BadArg("sessionId", "%d sessions are open (%s); pass sessionId to say which", len(vis), idsOf(vis))
}

func idsOf(list []*session.Session) string {
	ids := make([]string, 0, len(list))
	for _, x := range list {
		ids = append(ids, x.ID)
	}
	sort.Strings(ids)
	return strings.Join(ids, ", ")
}
