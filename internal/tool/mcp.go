package tool

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

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
		Capabilities:            serverCapabilities(),
	})
	addToolsOnFirstUse(srv, func() { s.addTools(srv) })
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
// [addToolsOnFirstUse] says when.
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

// serverCapabilities is what initialize answers: logging (go-sdk's
// default) and tools. The tools are stated here because they are not yet
// registered when initialize is answered (see [addToolsOnFirstUse]), so
// go-sdk cannot infer them. listChanged is false: the tool list is fixed
// for the server's life (flags decide it at startup), and a true value
// would make go-sdk announce a change when the tools are registered.
func serverCapabilities() *mcp.ServerCapabilities {
	//lint:ignore SA1019 logging is served during its deprecation window (SEP-2577)
	return &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}, Tools: &mcp.ToolCapabilities{}}
}

// addToolsOnFirstUse runs register once, before srv handles its first
// request or notification other than initialize and ping (ADR-026).
//
// go-sdk's AddTool parses every schema back into Go twice (a check for
// "type":"object" and one for x-mcp-header annotations), each parse with a
// fresh 32 KB decoder buffer; for ~60 tools that was most of the time from
// spawn to the initialize reply. Deferring it to the first request that can
// need a tool takes it off the path a host waits on at startup and leaves
// every tool registered before tools/list, tools/call or anything else is
// answered: sync.Once makes concurrent first requests wait for the one
// registration. Our schemas carry no x-mcp-header, so the streamable HTTP
// transport's header check, which looks tools up before this middleware
// runs, has nothing to check either way.
func addToolsOnFirstUse(srv *mcp.Server, register func()) {
	var once sync.Once
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "initialize" && method != "ping" {
				once.Do(register)
			}
			return next(ctx, method, req)
		}
	})
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
			ctx = mcpwire.WithCaller(ctx, req.Session)
		}
		res := s.Dispatch(ctx, name, req.Params.Arguments, progress)
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

// textContent is the text of a call's answer: the envelope's JSON, or,
// when the answer holds text for the agent to read (the TextBody its Def
// names: a text snapshot; or an action's then.diff), that text as it is
// (verbatim, with no JSON escaping) followed by the envelope without it.
// structuredContent keeps the whole envelope.
func (s *Server) textContent(name string, res Result) []mcp.Content {
	whole := []mcp.Content{&mcp.TextContent{Text: string(res.JSON)}}
	d, ok := s.tools().defs[name]
	if !ok || res.IsError {
		return whole
	}
	var env map[string]json.RawMessage
	if json.Unmarshal(res.JSON, &env) != nil {
		return whole
	}
	body := ""
	if d.TextBody != "" && json.Unmarshal(env[d.TextBody], &body) == nil && body != "" {
		delete(env, d.TextBody)
	} else if raw, ok := env["then"]; ok {
		var then map[string]json.RawMessage
		if json.Unmarshal(raw, &then) != nil || json.Unmarshal(then["diff"], &body) != nil || body == "" {
			return whole
		}
		delete(then, "diff")
		b, err := json.Marshal(then)
		if err != nil {
			return whole
		}
		env["then"] = b
	}
	if body == "" {
		return whole
	}
	rest, err := json.Marshal(env)
	if err != nil {
		return whole
	}
	return []mcp.Content{&mcp.TextContent{Text: body}, &mcp.TextContent{Text: string(rest)}}
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
	wire := mcpwire.HTTP(h) // depth guard, JSON-RPC codes, no reply to a cancelled call
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != MCPPath {
			http.Error(w, "understudy: MCP is served at "+MCPPath, http.StatusNotFound)
			return
		}
		if auth := r.Header.Get("Authorization"); opts.Token != "" && !bearerOK(auth, opts.Token) {
			// No credentials and wrong ones are told apart (RFC 6750):
			// the second is a client configured with another token.
			if auth == "" {
				w.Header().Set("WWW-Authenticate", `Bearer realm="understudy"`)
				http.Error(w, "understudy: a token is required (Authorization: Bearer <token>, the server's --token)", http.StatusUnauthorized)
				return
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="understudy", error="invalid_token"`)
			http.Error(w, "understudy: the Authorization header does not carry the server's token (send Authorization: Bearer <the --token value>)", http.StatusUnauthorized)
			return
		}
		wire.ServeHTTP(w, r)
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
