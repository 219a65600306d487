package tool

import (
	"context"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/files"
)

// listRootsTimeout bounds a roots/list request to the client; a client that
// does not answer adds no roots.
const listRootsTimeout = 5 * time.Second

// maxClientSessions bounds the roots cache; past it the cache starts over
// (entries are only caches: the next call asks the client again).
const maxClientSessions = 64

func newFileRoots(cfg Config) *files.Roots {
	wd, _ := os.Getwd()
	art := cfg.ArtifactsDir
	if art == "" {
		art = files.DefaultArtifacts()
	}
	return files.New(files.Config{WorkDir: wd, AppRoot: cfg.AppRoot, Artifacts: art, Extra: cfg.FileRoots, AllowAny: cfg.AllowAnyFile})
}

// clientRootsCache keeps each MCP session's roots until the client says
// they changed (notifications/roots/list_changed).
type clientRootsCache struct {
	mu sync.Mutex
	m  map[*mcp.ServerSession]*clientRoots
}

func (c *clientRootsCache) of(ss *mcp.ServerSession, log *slog.Logger) *clientRoots {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cr, ok := c.m[ss]; ok {
		return cr
	}
	if c.m == nil || len(c.m) >= maxClientSessions {
		c.m = map[*mcp.ServerSession]*clientRoots{}
	}
	cr := &clientRoots{ss: ss, log: log}
	c.m[ss] = cr
	return cr
}

func (c *clientRootsCache) forget(ss *mcp.ServerSession) {
	c.mu.Lock()
	cr := c.m[ss]
	c.mu.Unlock()
	if cr != nil {
		cr.mu.Lock()
		cr.valid = false
		cr.mu.Unlock()
	}
}

// clientRoots is one MCP session's roots, asked for on first use.
type clientRoots struct {
	ss    *mcp.ServerSession
	log   *slog.Logger
	mu    sync.Mutex
	valid bool
	paths []string
}

// Roots implements files.ClientRoots.
func (c *clientRoots) Roots(ctx context.Context) ([]string, error) {
	if p := c.ss.InitializeParams(); p == nil || p.Capabilities == nil || p.Capabilities.RootsV2 == nil {
		return nil, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.valid {
		return c.paths, nil
	}
	ctx, cancel := context.WithTimeout(ctx, listRootsTimeout)
	defer cancel()
	res, err := c.ss.ListRoots(ctx, &mcp.ListRootsParams{})
	if err != nil {
		c.log.Warn("roots/list failed; the client's roots are not allowed", "err", err)
		return nil, err
	}
	var paths []string
	for _, r := range res.Roots {
		if p, ok := rootPath(r.URI); ok {
			paths = append(paths, p)
		}
	}
	c.paths, c.valid = paths, true
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

// readablePaths checks files given to the page against the allowed roots
// and returns where they really are (symbolic links resolved).
func readablePaths(ctx context.Context, c *Call, paths []string) ([]string, error) {
	out := make([]string, len(paths))
	for i, p := range paths {
		real, err := c.Server.files.CheckRead(ctx, "paths["+itoa(i)+"]", p)
		if err != nil {
			return nil, err
		}
		out[i] = real
	}
	return out, nil
}
