package tool

import (
	"context"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/session"
)

// dropSession forgets a session that has ended (stop, detach, kill).
func (s *Server) dropSession(id string) {
	s.sessions.Remove(id)
	s.owners.m.Delete(id)
}

// visible returns the open sessions the caller may see, oldest first.
func (s *Server) visible(ctx context.Context) []*session.Session {
	all := s.sessions.List()
	if s.cfg.ShareSessions {
		return all
	}
	me := ownerOf(ctx)
	out := all[:0:0]
	for _, x := range all {
		if s.owners.of(x.ID) == me {
			out = append(out, x)
		}
	}
	return out
}

// resolveSession finds the session a call means among those the caller may
// see: the one named, or the only one.
func (s *Server) resolveSession(ctx context.Context, id string) (*session.Session, error) {
	if id != "" {
		// The call path: one lock-free lookup.
		if x, ok := s.sessions.Get(id); ok && (s.cfg.ShareSessions || s.owners.of(id) == ownerOf(ctx)) {
			return x, nil
		}
	}
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

// foreignApps are the loopback ports and browser sockets of the apps other
// MCP clients' sessions own, which do not exist for the caller (unless
// --share-sessions): the DevTools and inspector ports of apps they launched
// and the relays they opened. electron_discover_running leaves them out and
// electron_attach answers as if nothing listened there. An app another
// client attached to is the user's, not theirs, and stays visible.
func (s *Server) foreignApps(ctx context.Context) (ports map[int]bool, sockets map[string]bool) {
	ports, sockets = map[int]bool{}, map[string]bool{}
	if s.cfg.ShareSessions {
		return ports, sockets
	}
	me := ownerOf(ctx)
	for _, x := range s.sessions.List() {
		if s.owners.of(x.ID) == me {
			continue
		}
		if r, ok := session.Extra(x, relayKey); ok {
			addPort(ports, r.HTTPURL())
			sockets[r.WSURL()] = true
		}
		if x.Mode != session.Launched && x.Mode != session.DevLaunch {
			continue
		}
		if x.Endpoint.Port != 0 {
			ports[x.Endpoint.Port] = true
		}
		addPort(ports, x.Endpoint.HTTPURL)
		addPort(ports, x.Endpoint.BrowserWSURL)
		addPort(ports, x.InspectorURL)
		if x.Endpoint.BrowserWSURL != "" {
			sockets[x.Endpoint.BrowserWSURL] = true
		}
	}
	return ports, sockets
}

func addPort(ports map[int]bool, raw string) {
	if p := portOfURL(raw); p > 0 {
		ports[p] = true
	}
}

// portOfURL is the explicit port of a URL, or 0.
func portOfURL(raw string) int {
	if u, err := url.Parse(raw); err == nil {
		if p, err := strconv.Atoi(u.Port()); err == nil && p > 0 {
			return p
		}
	}
	return 0
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
