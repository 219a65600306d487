package tool

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"reflect"
	"runtime/debug"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/mcpwire"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/trace"
)

// Config is the operator's configuration of the server; zero values mean
// defaults.
type Config struct {
	Version string
	// FileRoots (--file-root), ArtifactsDir (--artifacts-dir; default
	// files.DefaultArtifacts) and AllowAnyFile (--allow-any-file) say where
	// tools may read and write files, with the working directory, AppRoot
	// and the MCP client's roots (internal/files).
	FileRoots    []string
	ArtifactsDir string
	AllowAnyFile bool
	// AllowEvalMain and AllowEvalRenderer expose the eval tools. Both are off
	// by default: the tools are then absent, not merely refused.
	AllowEvalMain     bool
	AllowEvalRenderer bool
	// AllowSecrets (--allow-secrets) lets a call ask reveal:true for secret values.
	AllowSecrets bool
	// AppRoot, when set, confines launch paths to this folder, and a
	// launch's env to an allowlist of names.
	AppRoot string
	// AllowEnv (--allow-env) names environment variables a launch may set
	// beyond the app-root allowlist.
	AllowEnv []string
	// AllowedOrigins and BlockedOrigins (normalized origins, see
	// urlpolicy.Origins) limit what electron_navigate opens. Default: any.
	AllowedOrigins, BlockedOrigins []string
	// OperationTimeout is the per-call backstop. Default 120s.
	OperationTimeout time.Duration
	// Logger receives diagnostics (never page content at info level).
	// Default: discard.
	Logger *slog.Logger
	// BrowserPath is the Chromium used by doctor when no app is named.
	BrowserPath string
	// ShareSessions lets every MCP client see and drive every session.
	// Off, a session belongs to the MCP session that opened it (HTTP
	// clients see only their own).
	ShareSessions bool
	// ToolProfile (--tool-profile: essential, testing, debug or full) and
	// With (--with: capability group names, or "all") select the tools
	// the server offers (docs/adr/022). An empty ToolProfile offers every
	// tool, groups included (an embedder's and the tests' default); the
	// command line passes DefaultProfile.
	ToolProfile string
	With        []string
	// RedactHeaders and RedactBodyKeys add to the headers and body field
	// keys network outputs redact (--redact-header, --redact-body-key).
	RedactHeaders, RedactBodyKeys []string
	// AxeCore (--axe-core, UNDERSTUDY_AXE_CORE) is the path of axe-core's
	// axe.min.js that a11y_audit runs; never found by itself.
	AxeCore string
	// AllowRemote (--allow-remote) lists the hosts off loopback that a
	// grid, a grid's se:cdp and a remote endpoint may name (ADR-027).
	AllowRemote browser.RemoteAllow
	// RemoteHeaders (--remote-header) go with every request to a grid and
	// every handshake with a remote endpoint; never logged nor returned.
	RemoteHeaders http.Header
	// AllowAutoConnect (--allow-auto-connect) lets electron_attach
	// {autoConnect: true} reach the user's own Chrome.
	AllowAutoConnect bool
	// OutputSchemas (--output-schemas) publishes every tool's full result
	// schema as its MCP outputSchema; off, tools/list carries none
	// (docs/adr/030).
	OutputSchemas bool
	// Launchable, when set, holds every launch until it is closed. The
	// command closes it once its SIGINT/SIGTERM handler is installed,
	// which it does beside startup rather than before it (issue 11): no
	// app is started that a signal arriving before the handler could
	// leave running.
	Launchable <-chan struct{}
}

// Server holds the tools, the sessions and the configuration.
type Server struct {
	cfg      Config
	started  time.Time
	files    *files.Roots       // where tools may read and write files
	clients  mcpwire.RootsCache // the MCP clients' roots
	sessions *session.Manager
	reg      registry // the tools; read it through s.tools()
	owners   session.Owners
	sel      selection // the tools the operator enabled (catalog.go)
	// log is cfg.Logger plus the MCP clients (mcpwire.ClientLog); sdkLog, given to
	// the SDK, is cfg.Logger alone so that a failed notification is never
	// logged back to the clients.
	log, sdkLog *slog.Logger
	mcps        mcpwire.Servers
	tracing     trace.Live // trace_start..trace_stop (trace.go)
	axeEng      axeEngine  // a11y_audit's engine, loaded at first use (a11y.go)

	// life ends when the server closes: every call's context ends with it.
	life   context.Context
	cancel context.CancelFunc
	// calls is every handler goroutine (see Dispatch); Close waits for it.
	// callsMu: calls take its read side (no call waits for another),
	// Close the write side (docs/adr/028).
	callsMu sync.RWMutex
	closed  bool
	calls   sync.WaitGroup
}

// Call is what a handler gets besides its arguments.
type Call struct {
	Server           *Server
	Session          *session.Session // nil for tools that need none
	mcpwire.Reporter                  // the call's progress, if the client asked for it
	sid              string
	// surface, when set, is the surface the call acts in instead of the
	// active one: the surface that issued the ref it was given (routeRef).
	surface string
	group   sync.WaitGroup // what the handler started with Go
	secrets secretArgs     // arguments the call found to be secrets (secrets.go)
}

// Go runs f beside the handler, on the handler's context: the dispatcher
// cancels that context when the handler returns and waits for f before it
// releases the session lock, so nothing a call starts outlives it. A panic in f is logged, never a crash of the server.
func (c *Call) Go(f func()) {
	c.group.Go(func() {
		defer func() {
			if r := recover(); r != nil {
				c.Server.cfg.Logger.Error("goroutine of a tool call panicked", "panic", r, "stack", string(debug.Stack()))
			}
		}()
		f()
	})
}

// SetSessionID names the session in the response's _meta (launch and attach
// create one).
func (c *Call) SetSessionID(id string) { c.sid = id }

// Common is embedded in every tool's arguments.
type Common struct {
	SessionID string `json:"sessionId,omitempty" jsonschema:"the session to act on; omit when exactly one is open"`
}

func (c Common) sessionID() string { return c.SessionID }

type hasSession interface{ sessionID() string }

type validator interface{ validate() error }

// checker is a domain option that checks itself (ADR-045).
type checker interface{ Check() error }

// registry is every tool the configuration allows, by name and in
// registration order. It is built on first use ([Server.tools]), not in
// [New]: building it runs each tool's generic registration, which is most
// of New's time, and a host starting the server waits for the initialize
// reply, which needs no tool (ADR-026, issue 11's cold start).
type registry struct {
	// groups register the tools; New lists them (dispatch.go).
	groups []func(*Server)
	once   sync.Once
	defs   map[string]*def
	order  []string
}

// Names lists the registered tools in registration order.
func (s *Server) Names() []string { return append([]string(nil), s.tools().order...) }

// Sessions gives access to the session manager (status, shutdown).
func (s *Server) Sessions() *session.Manager { return s.sessions }

// Close ends every call in flight and every session (launched apps are
// killed, attached ones left), and waits for the calls' goroutines.
func (s *Server) Close() {
	s.callsMu.Lock()
	s.closed = true
	s.callsMu.Unlock()
	s.cancel()
	s.sessions.Close()
	s.calls.Wait()
	// A trace still recording stays as a killed server leaves it (no
	// footer), with every step that was queued written.
	if rec := s.tracing.Take(); rec != nil {
		rec.Abort()
	}
}

// def is a registered tool: its Def and what add derived from its types.
type def struct {
	Def
	schema func() *jsonschema.Schema // inferred from In on first use
	// result is the schema of the tool's result type (Out), inferred on
	// first use; nil while the tool returns an untyped result (see
	// untypedResults).
	result func() *jsonschema.Schema
	// in and out are the argument (In) and result (Out) types.
	in, out reflect.Type
	// opt: in is withSession(T) and the handler gets the T (defineOpt).
	opt    bool
	decode func(json.RawMessage) (any, error)
	run    func(ctx context.Context, c *Call, args any) (any, error)
}

// tools is the registry, built by the first caller; concurrent first
// callers wait for that one.
func (s *Server) tools() *registry {
	s.reg.once.Do(func() {
		s.reg.defs = map[string]*def{}
		for _, group := range s.reg.groups {
			group(s)
		}
	})
	return &s.reg
}

// secretArg marks the argument name of this call as a secret.
func (c *Call) secretArg(name string) {
	c.secrets.mu.Lock()
	defer c.secrets.mu.Unlock()
	for _, n := range c.secrets.names {
		if n == name {
			return
		}
	}
	c.secrets.names = append(c.secrets.names, name)
}
