package mcpwire

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServerCapabilities is what initialize answers: logging (go-sdk's
// default) and tools. The tools are stated here because they are not yet
// registered when initialize is answered (see [RegisterOnFirstUse]), so
// go-sdk cannot infer them. listChanged is false: the tool list is fixed
// for the server's life (flags decide it at startup), and a true value
// would make go-sdk announce a change when the tools are registered.
func ServerCapabilities() *mcp.ServerCapabilities {
	//lint:ignore SA1019 logging is served during its deprecation window (SEP-2577)
	return &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}, Tools: &mcp.ToolCapabilities{}}
}

// RegisterOnFirstUse runs register once, before srv handles its first
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
func RegisterOnFirstUse(srv *mcp.Server, register func()) {
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

// TextContent is the text of a call's answer: env, the envelope's JSON,
// as it is; or, when the envelope holds text for the agent to read (the
// string field body names, e.g. a text snapshot; else the diff in the
// dispatcher's then), that text as it is (verbatim, with no JSON
// escaping) followed by the envelope without it. A failure (isError) is
// always the envelope as it is. structuredContent keeps the whole
// envelope.
func TextContent(env json.RawMessage, isError bool, body string) []mcp.Content {
	whole := []mcp.Content{&mcp.TextContent{Text: string(env)}}
	if isError {
		return whole
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(env, &fields) != nil {
		return whole
	}
	text := ""
	if body != "" && json.Unmarshal(fields[body], &text) == nil && text != "" {
		delete(fields, body)
	} else if raw, ok := fields["then"]; ok {
		var then map[string]json.RawMessage
		if json.Unmarshal(raw, &then) != nil || json.Unmarshal(then["diff"], &text) != nil || text == "" {
			return whole
		}
		delete(then, "diff")
		b, err := json.Marshal(then)
		if err != nil {
			return whole
		}
		fields["then"] = b
	}
	if text == "" {
		return whole
	}
	rest, err := json.Marshal(fields)
	if err != nil {
		return whole
	}
	return []mcp.Content{&mcp.TextContent{Text: text}, &mcp.TextContent{Text: string(rest)}}
}

// RequireBearer serves next only the requests that carry token as
// "Authorization: Bearer <token>" (compared in constant time); an empty
// token lets every request through. Others are answered 401 with a
// WWW-Authenticate challenge, and no credentials and wrong ones are told
// apart (RFC 6750): the second is a client configured with another token.
func RequireBearer(token string, next http.Handler) http.Handler {
	if token == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if auth := r.Header.Get("Authorization"); !bearerOK(auth, token) {
			if auth == "" {
				w.Header().Set("WWW-Authenticate", `Bearer realm="understudy"`)
				http.Error(w, "understudy: a token is required (Authorization: Bearer <token>, the server's --token)", http.StatusUnauthorized)
				return
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="understudy", error="invalid_token"`)
			http.Error(w, "understudy: the Authorization header does not carry the server's token (send Authorization: Bearer <the --token value>)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
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

// StreamableHTTP serves srv over streamable HTTP at path alone (any other
// path is 404), behind the depth guard, the JSON-RPC codes, no reply to a
// cancelled call and, when token is set, the bearer check. Host and
// Origin checks are the caller's (the listener decides what is loopback).
func StreamableHTTP(srv *mcp.Server, path, token string) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	wire := RequireBearer(token, HTTP(h))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			http.Error(w, "understudy: MCP is served at "+path, http.StatusNotFound)
			return
		}
		wire.ServeHTTP(w, r)
	})
}

// Progress is the progress reporter of a tools/call that asked for
// progress (a progress token), else nil.
func Progress(ctx context.Context, req *mcp.CallToolRequest) func(msg string, done, total float64) {
	tok := req.Params.GetProgressToken()
	if tok == nil || req.Session == nil {
		return nil
	}
	return func(msg string, done, total float64) {
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: tok, Message: msg, Progress: done, Total: total,
		})
	}
}

// Reporter reports a call's progress to the client that asked for it
// (Progress): a message with how much is done of how much, or numbered
// steps ("3 of 5").
type Reporter struct {
	report      func(msg string, done, total float64)
	step, steps float64
}

// NewReporter reports through report (nil: the client did not ask).
func NewReporter(report func(msg string, done, total float64)) Reporter {
	return Reporter{report: report}
}

// Progress reports progress of a long operation, if the client asked.
func (r *Reporter) Progress(msg string, done, total float64) {
	if r.report != nil {
		r.report(msg, done, total)
	}
}

// Steps says how many progress steps the call will report with Step.
func (r *Reporter) Steps(total int) { r.step, r.steps = 0, float64(total) }

// Step reports the next of the call's progress steps; the last step a
// call reports is its total.
func (r *Reporter) Step(msg string) {
	r.step++
	if r.step > r.steps {
		r.steps = r.step
	}
	r.Progress(msg, r.step, r.steps)
}
