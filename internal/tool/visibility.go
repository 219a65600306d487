package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/session"
)

// dropSession forgets a session that has ended (stop, detach, kill).
func (s *Server) dropSession(id string) {
	s.sessions.Remove(id)
	s.owners.Drop(id)
}

// visible returns the open sessions the caller may see, oldest first.
func (s *Server) visible(ctx context.Context) []*session.Session {
	return s.owners.Visible(s.sessions, ownerOf(ctx))
}

// resolveSession finds the session a call means among those the caller may
// see: the one named, or the only one.
func (s *Server) resolveSession(ctx context.Context, id string) (*session.Session, error) {
	return s.owners.Resolve(s.sessions, ownerOf(ctx), id)
}

// foreignApps are the loopback ports and browser sockets of the apps other
// MCP clients' sessions own, which do not exist for the caller (unless
// --share-sessions), with the relays they opened (session.Owners.Foreign).
// electron_discover_running leaves them out and electron_attach answers as
// if nothing listened there.
func (s *Server) foreignApps(ctx context.Context) (ports map[int]bool, sockets map[string]bool) {
	return s.owners.Foreign(s.sessions, ownerOf(ctx), func(x *session.Session, ports map[int]bool, sockets map[string]bool) {
		if r, ok := session.Extra(x, relayKey); ok {
			session.AddPort(ports, r.HTTPURL())
			sockets[r.WSURL()] = true
		}
	})
}

// notForeign refuses an endpoint the caller resolved when another client's
// session owns the app behind it, with the answer a closed port gets, so
// that neither the app nor the session is revealed.
func (s *Server) notForeign(ctx context.Context, ep browser.Endpoint) error {
	ports, sockets := s.foreignApps(ctx)
	if ports[ep.Port] || sockets[ep.BrowserWSURL] {
		return errs.New(errs.NotRunning, "no DevTools endpoint at %s", ep.HTTPURL).With("endpoint", ep.HTTPURL)
	}
	return nil
}
