//lint:file-ignore SA1019 MCP client roots are what issue 12 asks files to be checked against; deprecated in protocol 2026-07-28 (SEP-2577) but served through the deprecation window, and older clients rely on them.

package mcpwire

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxClientSessions bounds the roots cache; past it the cache starts over
// (entries are only caches: the next file tool call asks the client again).
const maxClientSessions = 64

// RootsCache keeps each MCP session's roots until the client says
// they changed (notifications/roots/list_changed).
type RootsCache struct {
	mu sync.Mutex
	m  map[*mcp.ServerSession]*ClientRoots
}

// Of is the roots of an MCP session, asked for on first use.
func (c *RootsCache) Of(ss *mcp.ServerSession) *ClientRoots {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cr, ok := c.m[ss]; ok {
		return cr
	}
	if c.m == nil || len(c.m) >= maxClientSessions {
		c.m = map[*mcp.ServerSession]*ClientRoots{}
	}
	cr := &ClientRoots{}
	if p := ss.InitializeParams(); p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 != nil {
		cr.supported = true
	}
	c.m[ss] = cr
	return cr
}

// Forget marks a session's roots as changed: they are asked for again.
func (c *RootsCache) Forget(ss *mcp.ServerSession) {
	c.mu.Lock()
	cr := c.m[ss]
	c.mu.Unlock()
	if cr != nil {
		cr.mu.Lock()
		cr.valid = false
		cr.mu.Unlock()
	}
}

// ClientRoots is one MCP session's roots (a files.ClientRoots). They are asked for with a
// roots/list input request on the first file tool call and again after
// the client says they changed: the go-sdk turns that into a roots/list
// request for clients before protocol 2026-07-28, and newer clients answer
// it in their retry of the call (multi round-trip, SEP-2322).
type ClientRoots struct {
	supported bool // the client declared the roots capability
	mu        sync.Mutex
	valid     bool
	paths     []string
}

// Needed reports whether the client's roots must be asked for first.
func (c *ClientRoots) Needed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.supported && !c.valid
}

// Answer takes the client's answer to our input request (nil: it gave
// none; the call then goes on without client roots rather than asking
// again and again).
func (c *ClientRoots) Answer(res *mcp.ListRootsResult) {
	var paths []string
	if res != nil {
		for _, r := range res.Roots {
			if p, ok := rootPath(r.URI); ok {
				paths = append(paths, p)
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.paths, c.valid = paths, true
}

// Roots implements files.ClientRoots.
func (c *ClientRoots) Roots(context.Context) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.paths, nil
}

// rootPath turns a file:// root URI into a local folder path.
func rootPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || !strings.EqualFold(u.Scheme, "file") || (u.Host != "" && !strings.EqualFold(u.Host, "localhost")) {
		return "", false
	}
	p := filepath.FromSlash(u.Path)
	if !filepath.IsAbs(p) || strings.ContainsRune(p, 0) {
		return "", false
	}
	return filepath.Clean(p), true
}
