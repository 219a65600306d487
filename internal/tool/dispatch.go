package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/session"
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
	// AppRoot, when set, confines launch paths to this folder.
	AppRoot string
	// OperationTimeout is the per-call backstop. Default 120s.
	OperationTimeout time.Duration
	// Logger receives diagnostics (never page content at info level).
	// Default: discard.
	Logger *slog.Logger
	// BrowserPath is the Chromium used by doctor when no app is named.
	BrowserPath string
}

// Server holds the tools, the sessions and the configuration.
type Server struct {
	cfg      Config
	started  time.Time
	files    *files.Roots     // where tools may read and write files
	clients  clientRootsCache // the MCP clients' roots
	sessions *session.Manager
	defs     map[string]*def
	order    []string
}

// gate names what a tool needs from the operator's flags.
type gate int

const (
	gateNone gate = iota
	gateEvalRenderer
	gateEvalMain
)

// def is one tool.
type def struct {
	name    string
	desc    string
	session bool // resolves a session and takes its lock
	gate    gate
	schema  *jsonschema.Schema
	decode  func(json.RawMessage) (any, error)
	run     func(ctx context.Context, c *Call, args any) (any, error)
}

// Call is what a handler gets besides its arguments.
type Call struct {
	Server   *Server
	Session  *session.Session // nil for tools that need none
	progress func(msg string, done, total float64)
	sid      string
}

// Progress reports progress of a long operation to the client, if it asked.
func (c *Call) Progress(msg string, done, total float64) {
	if c.progress != nil {
		c.progress(msg, done, total)
	}
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

// New builds the server and registers every tool the configuration allows.
func New(cfg Config) *Server {
	if cfg.OperationTimeout <= 0 {
		cfg.OperationTimeout = 120 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	s := &Server{cfg: cfg, started: time.Now(), sessions: session.NewManager(), defs: map[string]*def{}}
	for _, group := range []func(*Server){registerLifecycle, registerWindows, registerSurfaces, registerObserve, registerInteract, registerWaits, registerDialogs, registerConsole, registerScreenshot, registerRelay} {
		group(s)
	}
	s.files = newFileRoots(cfg)
	return s
}

// add registers a tool whose arguments decode into In.
func add[In any](s *Server, name, desc string, needsSession bool, g gate, run func(ctx context.Context, c *Call, in *In) (any, error)) {
	switch g {
	case gateEvalRenderer:
		if !s.cfg.AllowEvalRenderer {
			return
		}
	case gateEvalMain:
		if !s.cfg.AllowEvalMain {
			return
		}
	}
	schema, err := jsonschema.For[In](&jsonschema.ForOptions{})
	if err != nil {
		panic(fmt.Sprintf("tool %s: schema: %v", name, err))
	}
	d := &def{
		name: name, desc: desc, session: needsSession, gate: g, schema: schema,
		decode: func(raw json.RawMessage) (any, error) {
			in := new(In)
			if err := decodeArgs(raw, in); err != nil {
				return nil, err
			}
			if v, ok := any(in).(validator); ok {
				if err := v.validate(); err != nil {
					return nil, err
				}
			}
			return in, nil
		},
		run: func(ctx context.Context, c *Call, args any) (any, error) { return run(ctx, c, args.(*In)) },
	}
	if _, dup := s.defs[name]; dup {
		panic("tool registered twice: " + name)
	}
	s.defs[name] = d
	s.order = append(s.order, name)
}

var unknownField = regexp.MustCompile(`unknown field "([^"]+)"`)

// decodeArgs decodes strictly and turns every decoding failure into a
// BAD_ARGUMENT that names the field.
func decodeArgs(raw json.RawMessage, into any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	if raw[0] != '{' {
		return errs.BadArg("arguments", "must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(into)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "arguments"
		}
		return errs.BadArg(field, "expected %s, got a JSON %s", te.Type.String(), te.Value)
	}
	if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
		return errs.BadArg(m[1], "is not a parameter of this tool; check the tool's input schema")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return errs.BadArg("arguments", "invalid JSON at offset %d: %v", se.Offset, err)
	}
	return errs.BadArg("arguments", "%v", err)
}

// Names lists the registered tools in registration order.
func (s *Server) Names() []string { return append([]string(nil), s.order...) }

// Sessions gives access to the session manager (status, shutdown).
func (s *Server) Sessions() *session.Manager { return s.sessions }

// Close ends every session: launched apps are killed, attached ones left.
func (s *Server) Close() { s.sessions.Close() }

// Dispatch runs one tool call and returns its envelope. It never panics and
// never returns a protocol error: every failure is an envelope with a code.
func (s *Server) Dispatch(ctx context.Context, name string, raw json.RawMessage, progress func(msg string, done, total float64)) Result {
	start := time.Now()
	d, ok := s.defs[name]
	if !ok {
		return failureEnvelope(errs.BadArg("name", "no tool %q; known tools: %s", name, strings.Join(s.sortedNames(), ", ")), start, "")
	}
	args, err := d.decode(raw)
	if err != nil {
		return failureEnvelope(err, start, "")
	}
	c := &Call{Server: s, progress: progress}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.OperationTimeout)
	defer cancel()
	if d.session {
		sid := ""
		if hs, ok := args.(hasSession); ok {
			sid = hs.sessionID()
		}
		sess, err := s.sessions.Resolve(sid)
		if err != nil {
			return failureEnvelope(err, start, sid)
		}
		c.Session, c.sid = sess, sess.ID
		if err := sess.Lock(ctx); err != nil {
			return failureEnvelope(err, start, sess.ID)
		}
	}
	type outcome struct {
		v   any
		err error
	}
	ch := make(chan outcome, 1)
	go func() {
		defer func() {
			if c.Session != nil {
				c.Session.Unlock()
			}
		}()
		defer func() {
			if r := recover(); r != nil {
				s.cfg.Logger.Error("tool panicked", "tool", name, "panic", r, "stack", string(debug.Stack()))
				ch <- outcome{err: errs.New(errs.Internal, "%s failed unexpectedly: %v", name, r)}
			}
		}()
		v, err := d.run(ctx, c, args)
		ch <- outcome{v, err}
	}()
	var o outcome
	select {
	case o = <-ch:
	case <-ctx.Done():
		// The handler sees the cancelled context and releases the lock when
		// it returns; the caller gets the backstop's answer now.
		o.err = errs.New(errs.OperationTimeout, "%s did not finish within %s", name, s.cfg.OperationTimeout)
		if ctx.Err() == context.Canceled {
			o.err = errs.New(errs.OperationTimeout, "%s was cancelled by the client", name)
		}
	}
	if o.err != nil {
		if c.Session != nil {
			c.Session.SetLastError(fmt.Sprintf("%s: %v", name, o.err))
		}
		return failureEnvelope(o.err, start, c.sid)
	}
	res, err := successEnvelope(o.v, start, c.sid)
	if err != nil {
		return failureEnvelope(err, start, c.sid)
	}
	return res
}

func (s *Server) sortedNames() []string {
	n := s.Names()
	sort.Strings(n)
	return n
}
