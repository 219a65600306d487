package session

import (
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Owners says which client made each session. Over streamable HTTP several
// MCP clients can share one server: a session belongs to the client (the
// transport's session id) that launched or attached it, and other clients
// neither see nor drive it unless the operator shares sessions (Shared).
// On stdio and in process there is one client, whose owner id is "".
//
// Calls read it on every dispatch, so it is a sync.Map: no lock is shared
// by calls on different sessions (docs/adr/028). Rule (docs/adr/008): an
// entry goes with its session (Drop).
type Owners struct {
	Shared bool     // --share-sessions: every client sees every session
	m      sync.Map // session id → owner
}

// Set records who made a session.
func (o *Owners) Set(sessionID, owner string) { o.m.Store(sessionID, owner) }

// Of is who made a session ("" when unknown).
func (o *Owners) Of(sessionID string) string {
	v, _ := o.m.Load(sessionID)
	s, _ := v.(string)
	return s
}

// Drop forgets a session's owner.
func (o *Owners) Drop(sessionID string) { o.m.Delete(sessionID) }

// Sees says whether owner may see and drive the session.
func (o *Owners) Sees(owner, sessionID string) bool { return o.Shared || o.Of(sessionID) == owner }

// Visible returns the sessions of m that owner may see, oldest first.
func (o *Owners) Visible(m *Manager, owner string) []*Session {
	all := m.List()
	if o.Shared {
		return all
	}
	out := all[:0:0]
	for _, x := range all {
		if o.Of(x.ID) == owner {
			out = append(out, x)
		}
	}
	return out
}

// Resolve finds the session a call of owner means among those it may see:
// the one named, or the only one.
func (o *Owners) Resolve(m *Manager, owner, id string) (*Session, error) {
	if id != "" {
		// The call path: one lock-free lookup.
		if x, ok := m.Get(id); ok && o.Sees(owner, id) {
			return x, nil
		}
	}
	vis := o.Visible(m, owner)
	if id != "" {
		for _, x := range vis {
			if x.ID == id {
				return x, nil
			}
		}
		if len(vis) == 0 {
			return nil, errs.New(errs.NotRunning, "no session %q: no session of yours is open", id)
		}
		return nil, errs.New(errs.NotRunning, "no session %q; your open sessions: %s", id, IDs(vis)).With("sessionId", id)
	}
	switch len(vis) {
	case 0:
		return nil, errs.New(errs.NotRunning, "no session is open")
	case 1:
		return vis[0], nil
	}
	return nil, errs.BadArg("sessionId", "%d sessions are open (%s); pass sessionId to say which", len(vis), IDs(vis))
}

// IDs lists the sessions' ids, sorted, comma-separated.
func IDs(list []*Session) string {
	ids := make([]string, 0, len(list))
	for _, x := range list {
		ids = append(ids, x.ID)
	}
	sort.Strings(ids)
	return strings.Join(ids, ", ")
}

// Foreign are the loopback ports and browser sockets of the apps other
// clients' sessions own, which do not exist for owner (unless Shared): the
// DevTools and inspector ports of apps they launched, and what extra adds
// for each of their sessions (the relays they opened). An app another
// client attached to is the user's, not theirs, and stays visible.
func (o *Owners) Foreign(m *Manager, owner string, extra func(x *Session, ports map[int]bool, sockets map[string]bool)) (ports map[int]bool, sockets map[string]bool) {
	ports, sockets = map[int]bool{}, map[string]bool{}
	if o.Shared {
		return ports, sockets
	}
	for _, x := range m.List() {
		if o.Of(x.ID) == owner {
			continue
		}
		if extra != nil {
			extra(x, ports, sockets)
		}
		if x.Mode != Launched && x.Mode != DevLaunch {
			continue
		}
		if x.Endpoint.Port != 0 {
			ports[x.Endpoint.Port] = true
		}
		AddPort(ports, x.Endpoint.HTTPURL)
		AddPort(ports, x.Endpoint.BrowserWSURL)
		AddPort(ports, x.InspectorURL)
		if x.Endpoint.BrowserWSURL != "" {
			sockets[x.Endpoint.BrowserWSURL] = true
		}
	}
	return ports, sockets
}

// AddPort adds the explicit port of a URL to ports.
func AddPort(ports map[int]bool, raw string) {
	if p := PortOfURL(raw); p > 0 {
		ports[p] = true
	}
}

// PortOfURL is the explicit port of a URL, or 0.
func PortOfURL(raw string) int {
	if u, err := url.Parse(raw); err == nil {
		if p, err := strconv.Atoi(u.Port()); err == nil && p > 0 {
			return p
		}
	}
	return 0
}
