//lint:file-ignore SA1019 MCP client roots are what issue 12 asks files to be checked against; deprecated in protocol 2026-07-28 (SEP-2577) but served through the deprecation window, and older clients rely on them.

package tool

import (
	"context"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/files"
)

// rootsInputID names our roots/list input request in a multi round-trip
// tool call.
const rootsInputID = "understudy/roots"

// withClientRoots gives a file tool's call the client's roots, or returns
// the input request that asks the client for them first.
func (s *Server) withClientRoots(ctx context.Context, name string, req *mcp.CallToolRequest) (context.Context, *mcp.CallToolResult) {
	d, ok := s.tools().defs[name]
	if req.Session == nil || !ok || !d.Effects.usesFiles() {
		return ctx, nil
	}
	cr := s.clients.Of(req.Session)
	if resp, ok := req.Params.InputResponses[rootsInputID]; ok {
		lr, _ := resp.(*mcp.ListRootsResult)
		cr.Answer(lr)
	}
	if cr.Needed() {
		return ctx, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{rootsInputID: &mcp.ListRootsParams{}}}
	}
	return files.WithClient(ctx, cr), nil
}

func newFileRoots(cfg Config) *files.Roots {
	wd, _ := os.Getwd()
	art := cfg.ArtifactsDir
	if art == "" {
		art = files.DefaultArtifacts()
	}
	return files.New(files.Config{WorkDir: wd, AppRoot: cfg.AppRoot, Artifacts: art, Extra: cfg.FileRoots, AllowAny: cfg.AllowAnyFile})
}
