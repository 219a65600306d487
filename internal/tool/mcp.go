package tool

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const instructions = `understudy drives Electron apps and Chromium over the DevTools protocol.
Start with electron_launch (executablePath, or main for a dev launch) or electron_attach (port or cdpUrl).
An app has windows (electron_windows_list) and renderer surfaces: pages, webview guests, iframes
(electron_surfaces_list); every renderer tool acts on the active surface (electron_switch_surface).
Every response is {ok, …, _meta}; failures carry code, hint and what to do next.`

// MCP returns an MCP server exposing every registered tool through Dispatch.
func (s *Server) MCP() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "understudy", Version: s.cfg.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       s.sdkLog,
		// The client's roots are asked for again after it says they changed.
		//lint:ignore SA1019 roots are still served during their deprecation window (docs/files.md)
		RootsListChangedHandler: func(_ context.Context, req *mcp.RootsListChangedRequest) { s.clients.forget(req.Session) },
	})
	for _, name := range s.order {
		d := s.defs[name]
		t := &mcp.Tool{Name: d.name, Description: d.desc, InputSchema: d.inputSchema()}
		if out := d.outputSchema(); out != nil {
			t.OutputSchema = out
		}
		srv.AddTool(t, s.mcpHandler(d.name))
	}
	s.mcps.add(srv)
	return srv
}

func (s *Server) mcpHandler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, ask := s.withClientRoots(ctx, name, req)
		if ask != nil { // the client's roots are asked for first; the call comes again
			return ask, nil
		}
		var progress func(string, float64, float64)
		if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
			progress = func(msg string, done, total float64) {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: tok, Message: msg, Progress: done, Total: total,
				})
			}
		}
		if req.Session != nil {
			ctx = WithOwner(ctx, req.Session.ID())
			ctx = context.WithValue(ctx, callerKey{}, req.Session)
		}
		res := s.Dispatch(ctx, name, req.Params.Arguments, progress)
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(res.JSON)}},
			StructuredContent: json.RawMessage(res.JSON),
			IsError:           res.IsError,
		}, nil
	}
}

// MCPPath is the one URL path the streamable HTTP transport serves.
const MCPPath = "/mcp"

// HTTPOptions configure [Server.HTTPHandler].
type HTTPOptions struct {
	// Token, when set, must come with every request as
	// "Authorization: Bearer <token>".
	Token string
}

// HTTPHandler serves MCP over streamable HTTP at [MCPPath] (any other path
// is 404). Each client's MCP session owns the sessions it opens (see
// Config.ShareSessions). Host and Origin checks are the caller's (the
// listener decides what is loopback).
func (s *Server) HTTPHandler(opts HTTPOptions) http.Handler {
	m := s.MCP()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return m }, nil)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != MCPPath {
			http.Error(w, "understudy: MCP is served at "+MCPPath, http.StatusNotFound)
			return
		}
		if opts.Token != "" && !bearerOK(r.Header.Get("Authorization"), opts.Token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="understudy"`)
			http.Error(w, "understudy: a token is required (Authorization: Bearer <token>)", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// bearerOK compares an Authorization header with the token in constant
// time.
func bearerOK(header, token string) bool {
	const prefix = "Bearer "
	if len(header) <= len(prefix) || !strings.EqualFold(header[:len(prefix)], prefix) {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(header[len(prefix):])))
	want := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1
}
