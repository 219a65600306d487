package tool

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/mcpwire"
)

const instructions = `understudy drives Electron apps and Chromium over the DevTools protocol.
Start with electron_launch (executablePath, or main for a dev launch) or electron_attach (port or cdpUrl).
An app has windows (electron_windows_list) and renderer surfaces: pages, webview guests, iframes
(electron_surfaces_list); every renderer tool acts on the active surface (electron_switch_surface).
Every response is {ok, …, _meta}; failures carry code, hint and what to do next.
` + hostParamsInstructions

// MCP returns an MCP server exposing every registered tool through Dispatch.
func (s *Server) MCP() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "understudy", Version: s.cfg.Version}, &mcp.ServerOptions{
		Instructions: instructions, // with hostParamsInstructions (docs/adr/030)
		Logger:       s.sdkLog,
		// The client's roots are asked for again after it says they changed.
		//lint:ignore SA1019 roots are still served during their deprecation window (docs/files.md)
		RootsListChangedHandler: func(_ context.Context, req *mcp.RootsListChangedRequest) { s.clients.Forget(req.Session) },
		Capabilities:            mcpwire.ServerCapabilities(),
	})
	mcpwire.RegisterOnFirstUse(srv, func() { s.addTools(srv) })
	s.answerToolsNotEnabled(srv)
	s.mcps.Add(srv)
	return srv
}

// answerToolsNotEnabled makes tools/call of a tool that exists but is off
// in this profile or group answer as every tool failure does (a result
// with TOOL_NOT_ENABLED naming the flag that enables it), where go-sdk
// would answer a JSON-RPC "unknown tool" error that leaves an agent no
// way on. A name no tool has stays go-sdk's error.
func (s *Server) answerToolsNotEnabled(srv *mcp.Server) {
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
					if d, known := s.tools().defs[r.Params.Name]; known && !s.sel.enabled(d.Def) {
						return s.mcpHandler(r.Params.Name)(ctx, r)
					}
				}
			}
			return next(ctx, method, req)
		}
	})
}

// addTools registers every enabled tool with srv (--tool-profile, --with),
// sorted by name, each with its title and annotations from its Def;
// [mcpwire.RegisterOnFirstUse] says when.
func (s *Server) addTools(srv *mcp.Server) {
	enabled := s.enabledNames()
	on := make(map[string]bool, len(enabled))
	for _, name := range enabled {
		on[name] = true
	}
	// A registered tool that is off: descriptions do not point to it.
	off := func(name string) bool { _, ok := s.tools().defs[name]; return ok && !on[name] }
	var unusable []string // parameters this server refuses whatever their value
	if !s.cfg.AllowSecrets {
		unusable = append(unusable, "reveal")
	}
	for _, name := range enabled {
		d := s.tools().defs[name]
		// The host view (hostview.go, docs/adr/030): a short description,
		// the input schema without repeated prose, no outputSchema.
		t := &mcp.Tool{Name: d.Name, Description: hostDescription(d.Def, off), InputSchema: hostInputSchema(d.inputSchema(), unusable...)}
		if s.cfg.OutputSchemas {
			// The operator asked for them (--output-schemas): the full
			// result schema, which every tool test validates results
			// against.
			if out := d.outputSchema(); out != nil {
				t.OutputSchema = out
			}
		}
		// The title goes on the tool (MCP 2025-06-18), not again in the
		// annotations: every character here is in the host's context
		// (docs/adr/022).
		a := d.annotations()
		t.Title, a.Title = a.Title, ""
		t.Annotations = a
		srv.AddTool(t, s.mcpHandler(d.Name))
	}
}

func (s *Server) mcpHandler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, ask := s.withClientRoots(ctx, name, req)
		if ask != nil { // the client's roots are asked for first; the call comes again
			return ask, nil
		}
		if req.Session != nil {
			ctx = WithOwner(ctx, req.Session.ID())
			ctx = mcpwire.WithCaller(ctx, req.Session)
		}
		res := s.Dispatch(ctx, name, req.Params.Arguments, mcpwire.Progress(ctx, req))
		content := s.textContent(name, res)
		if img := s.inlineImage(name, req.Params.Arguments, res); img != nil {
			content = append(content, img)
		}
		return &mcp.CallToolResult{
			Content:           content,
			StructuredContent: json.RawMessage(res.JSON),
			IsError:           res.IsError,
		}, nil
	}
}

// textContent is the text of a call's answer (mcpwire.TextContent): the
// envelope's JSON, or the text for the agent to read that it holds (the
// TextBody its Def names; or an action's then.diff) followed by the
// envelope without it.
func (s *Server) textContent(name string, res Result) []mcp.Content {
	d, ok := s.tools().defs[name]
	if !ok {
		return []mcp.Content{&mcp.TextContent{Text: string(res.JSON)}}
	}
	return mcpwire.TextContent(res.JSON, res.IsError, d.TextBody)
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
	return mcpwire.StreamableHTTP(s.MCP(), MCPPath, opts.Token)
}
