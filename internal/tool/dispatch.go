package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
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

// gate names what a tool needs from the operator's flags.
type gate int

const (
	gateNone gate = iota
	// gateEvalRenderer and gateEvalMain: the tool is absent unless the
	// operator allows that eval.
	gateEvalRenderer
	gateEvalMain
	// gateMainCode: the tool runs fixed code of ours that wraps the app's
	// main-process handlers; it is listed (its group names the flag) and
	// answers EVAL_REQUIRED without --allow-eval=main.
	gateMainCode
)

// Call is what a handler gets besides its arguments.
type Call struct {
	Server   *Server
	Session  *session.Session // nil for tools that need none
	progress func(msg string, done, total float64)
	sid      string
	// surface, when set, is the surface the call acts in instead of the
	// active one: the surface that issued the ref it was given (routeRef).
	surface string
	group   sync.WaitGroup // what the handler started with Go
	// step and steps count the progress a call reports with Step.
	step, steps float64
	secrets     secretArgs // arguments the call found to be secrets (secrets.go)
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

// Progress reports progress of a long operation to the client, if it asked.
func (c *Call) Progress(msg string, done, total float64) {
	if c.progress != nil {
		c.progress(msg, done, total)
	}
}

// Steps says how many progress steps the call will report with Step.
func (c *Call) Steps(total int) { c.step, c.steps = 0, float64(total) }

// Step reports the next of the call's progress steps ("3 of 5"); the last
// step a call reports is its total.
func (c *Call) Step(msg string) {
	c.step++
	if c.step > c.steps {
		c.steps = c.step
	}
	c.Progress(msg, c.step, c.steps)
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
	s := &Server{cfg: cfg, started: time.Now(), sessions: session.NewManager()}
	s.owners.Shared = cfg.ShareSessions
	s.sdkLog = cfg.Logger
	s.log = slog.New(slog.NewMultiHandler(cfg.Logger.Handler(), mcpwire.ClientLog(&s.mcps)))
	s.cfg.Logger = s.log
	s.life, s.cancel = context.WithCancel(context.Background())
	sel, err := newSelection(cfg.ToolProfile, cfg.With)
	if err != nil {
		cfg.Logger.Error("tool selection refused; offering the essential profile", "err", err)
		sel.profile = "essential"
	}
	s.sel = sel
	s.files = newFileRoots(cfg)
	return s
}

// registry is every tool the configuration allows, by name and in
// registration order. It is built on first use ([Server.tools]), not in
// [New]: building it runs each tool's generic registration, which is most
// of New's time, and a host starting the server waits for the initialize
// reply, which needs no tool (ADR-026, issue 11's cold start).
type registry struct {
	once  sync.Once
	defs  map[string]*def
	order []string
}

// tools is the registry, built by the first caller; concurrent first
// callers wait for that one.
func (s *Server) tools() *registry {
	s.reg.once.Do(func() {
		s.reg.defs = map[string]*def{}
		for _, group := range []func(*Server){registerCatalog, registerLifecycle, registerWindows, registerSurfaces, registerObserve, registerInteract, registerFillForm, registerWaits, registerDialogs, registerConsole, registerNetwork, registerScreenshot, registerRelay, registerTrace, registerVisual, registerA11y, registerStorage, registerWindowOps, registerEmulation, registerClock, registerProduction, registerElectronDeep, registerElectronInstrument, registerDownloads} {
			group(s)
		}
	})
	return &s.reg
}

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
	raw, err := normalizeArgs(raw, reflect.TypeOf(into))
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err = dec.Decode(into)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := jsonPath(reflect.TypeOf(into), te.Field)
		if field == "" {
			field = "arguments"
		}
		return errs.BadArg(field, "expected %s, got a JSON %s", jsonKind(te.Type), te.Value)
	}
	if name, ok := errs.UnknownJSONField(err); ok {
		// The closest parameter of the tool (didyoumean.go), so the
		// agent's next call is right.
		if guess, ok := closestParam(name, paramNames(reflect.TypeOf(into))); ok {
			return errs.BadArg(name, "is not a parameter of this tool; did you mean %s?", guess).With("did_you_mean", guess)
		}
		return errs.BadArg(name, "is not a parameter of this tool; check the tool's input schema")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return errs.BadArg("arguments", "invalid JSON at offset %d: %v", se.Offset, err)
	}
	return errs.BadArg("arguments", "%v", err)
}

// normalizeArgs takes what agents commonly send for what a parameter
// means (otherSpellings, numericRefs) before the strict decode, and
// refuses an overlong selector (argguard.go) on the same decoding;
// anything else is left for the decoder to judge (and did-you-mean to
// answer). With the strict decode, the arguments are decoded twice, and
// the dispatcher and ref routing read the typed input only.
func normalizeArgs(raw json.RawMessage, t reflect.Type) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw, nil
	}
	if len(raw) > maxSelectorLen {
		if err := checkSelectorLengths(m); err != nil {
			return nil, err
		}
	}
	renamed := otherSpellings(m, t)
	refs := numericRefs(m)
	if !renamed && !refs {
		return raw, nil
	}
	out, err := json.Marshal(m)
	if err != nil {
		return raw, nil
	}
	return out, nil
}

// otherSpellings renames an argument spelled as results spell the same
// field (surface_id, window_id, target_id) to the parameter it names
// (surfaceId…): the one parameter whose name is the same case- and
// separator-insensitively, when that parameter is not given too. It says
// whether it renamed any.
func otherSpellings(m map[string]json.RawMessage, t reflect.Type) bool {
	var byKey map[string]string // param key → parameter, built on first need
	changed := false
	for k, v := range m {
		if !strings.ContainsAny(k, "_-") {
			continue
		}
		if byKey == nil {
			byKey = map[string]string{}
			for _, p := range paramNames(t) {
				if !strings.Contains(p, ".") {
					byKey[paramKey(p)] = p
				}
			}
		}
		p, ok := byKey[paramKey(k)]
		if !ok || p == k {
			continue
		}
		if _, given := m[p]; given {
			continue
		}
		delete(m, k)
		m[p] = v
		changed = true
	}
	return changed
}

// numericRefs turns a ref given as a string of digits ("3", as agents often
// copy it from "[3]" lines) into the number it names, and says whether it
// turned any.
func numericRefs(m map[string]json.RawMessage) bool {
	changed := false
	for _, k := range []string{"ref", "targetRef"} { // the parameters that take a ref
		v, ok := m[k]
		if !ok || len(v) == 0 || v[0] != '"' {
			continue
		}
		var str string
		if json.Unmarshal(v, &str) != nil {
			continue
		}
		str = strings.TrimSpace(str)
		if n, err := strconv.Atoi(str); err == nil && n > 0 && strconv.Itoa(n) == str {
			m[k] = json.RawMessage(str)
			changed = true
		}
	}
	return changed
}

// jsonPath turns the decoder's path of a field (which names embedded Go
// structs: "actArgs.elementArgs.ref") into the parameter's JSON path
// ("ref").
func jsonPath(t reflect.Type, goPath string) string {
	var out []string
	for _, seg := range strings.Split(goPath, ".") {
		for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct {
			out = append(out, seg)
			t = nil
			continue
		}
		if f, ok := jsonField(t, seg); ok {
			out = append(out, seg)
			t = f.Type
			continue
		}
		if f, ok := t.FieldByName(seg); ok && f.Anonymous {
			t = f.Type // an embedded struct: no segment of its own
			continue
		}
		out = append(out, seg)
		t = nil
	}
	return strings.Join(out, ".")
}

// jsonField finds the field whose JSON name is name, in t or the structs it
// embeds.
func jsonField(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == name || (tag == "" && !f.Anonymous && f.Name == name) {
			return f, true
		}
		if f.Anonymous && tag == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				if g, ok := jsonField(et, name); ok {
					return g, true
				}
			}
		}
	}
	return reflect.StructField{}, false
}

// jsonKind names a Go type as the JSON it takes.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return t.Kind().String()
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

// Dispatch runs one tool call and returns its envelope. It never panics and
// never returns a protocol error: every failure is an envelope with a code.
// Each call is logged at debug level (name, outcome, time; never its
// arguments or result), an internal failure at warn; while a trace records,
// the dispatch observer (trace.go) sees it too.
func (s *Server) Dispatch(ctx context.Context, name string, raw json.RawMessage, progress func(msg string, done, total float64)) (res Result) {
	start := time.Now()
	if tc := s.traceCall(ctx, name, raw, start); tc != nil {
		if tc.veto != nil {
			return *tc.veto
		}
		defer func() { tc.done(res) }()
	}
	res = s.dispatch(ctx, name, raw, progress)
	level := slog.LevelDebug
	if res.Code == errs.Internal {
		level = slog.LevelWarn
	}
	s.log.Log(ctx, level, "tool call", "tool", name, "ok", !res.IsError, "code", string(res.Code), "elapsed_ms", time.Since(start).Milliseconds())
	return res
}

func (s *Server) dispatch(ctx context.Context, name string, raw json.RawMessage, progress func(msg string, done, total float64)) Result {
	start := time.Now()
	d, ok := s.tools().defs[name]
	if !ok {
		return s.failureEnvelope(errs.BadArg("name", "no tool %q; known tools: %s", name, strings.Join(s.enabledNames(), ", ")), start, "")
	}
	if !s.sel.enabled(d.Def) {
		return s.failureEnvelope(s.sel.notEnabled(d.Def), start, "")
	}
	// The operator's gates go first: a call the flags refuse says so
	// before any argument is judged.
	if err := s.gateFlags(d.Def); err != nil {
		return s.failureEnvelope(err, start, "")
	}
	args, err := d.decode(raw)
	if err != nil {
		return s.failureEnvelope(err, start, "")
	}
	if err := s.gateArgs(d.Def, args); err != nil {
		return s.failureEnvelope(err, start, "")
	}
	// An action's "then" (then.go): checked now, run after the action
	// inside its admission.
	then, err := thenOf(args)
	if err != nil {
		return s.failureEnvelope(err, start, "")
	}
	c := &Call{Server: s, progress: progress}
	// The backstop: the call's context ends after OperationTimeout, when
	// the client cancels, or when the server closes.
	ctx, cancel := context.WithTimeout(ctx, s.cfg.OperationTimeout)
	defer cancel()
	defer context.AfterFunc(s.life, cancel)()
	s.callsMu.RLock()
	if s.closed {
		s.callsMu.RUnlock()
		return s.failureEnvelope(errs.New(errs.NotRunning, "the server is shutting down"), start, "")
	}
	s.calls.Add(1)
	s.callsMu.RUnlock()
	started := false
	defer func() {
		if !started {
			s.calls.Done()
		}
	}()
	var hold *session.Hold // the call's admission to its session
	if d.Session {
		sid := ""
		if hs, ok := args.(hasSession); ok {
			sid = hs.sessionID()
		}
		sess, err := s.resolveSession(ctx, sid)
		if err != nil {
			return s.failureEnvelope(err, start, sid)
		}
		c.Session, c.sid = sess, sess.ID
		if err := crashBlocks(sess, d.Def); err != nil {
			return s.failureEnvelope(err, start, sess.ID)
		}
		if err := dialogBlocks(sess, d.Def); err != nil {
			return s.failureEnvelope(err, start, sess.ID)
		}
		// Reads and waits share the session, actions go one at a time in
		// order, lifecycle calls go alone (classes.go, docs/adr/018).
		h, err := sess.Acquire(ctx, name, d.Class.admission())
		if err != nil {
			return s.failureEnvelope(err, start, sess.ID)
		}
		hold = h
		// A JavaScript dialog stops its page: fail now, not at the backstop.
		if err := dialogBlocks(sess, d.Def); err != nil {
			hold.Release()
			return s.failureEnvelope(err, start, sess.ID)
		}
	}
	if c.Session != nil {
		if err := c.routeRef(args); err != nil {
			hold.Release()
			return s.failureEnvelope(err, start, c.sid)
		}
	}
	var dialogErr, hangErr <-chan error
	activeBefore := ""
	if c.Session != nil {
		activeBefore = c.Session.Surfaces.Active()
		if c.surface != "" {
			activeBefore = c.surface
		}
		var stopWatch, stopHang func()
		dialogErr, stopWatch = dialogDuring(ctx, c.Session, d.Def)
		defer stopWatch()
		// A renderer stuck in a script: PAGE_UNRESPONSIVE, not the
		// backstop (hung.go). The probe goes out before the handler's
		// commands.
		hangErr, stopHang = hangDuring(ctx, c.Session, d.Def)
		defer stopHang()
	}
	type outcome struct {
		v    any
		then *thenResult
		err  error
	}
	ch := make(chan outcome, 1)
	// The handler runs in a goroutine of the server's (calls) on a context
	// that ends with the backstop's. It holds the session admission and
	// releases it when it returns, after it has cancelled and joined what it started
	// (Call.Go): when the backstop gives up on it, it still releases the
	// lock at its next blocking step, as every handler's work is bounded by
	// its context (docs/adr: ownership of goroutines and sessions).
	hctx, hcancel := context.WithCancel(ctx)
	started = true
	go func() {
		defer s.calls.Done()
		var o outcome
		func() {
			defer func() {
				if r := recover(); r != nil {
					s.cfg.Logger.Error("tool panicked", "tool", name, "panic", r, "stack", string(debug.Stack()))
					o = outcome{err: errs.New(errs.Internal, "%s failed unexpectedly: %v", name, r)}
				}
			}()
			o.v, o.err = d.run(hctx, c, args)
			if o.err == nil && then != nil {
				o.then, o.err = runThen(hctx, c, name, then, o.v)
			}
		}()
		hcancel()
		c.group.Wait()
		if hold != nil {
			hold.Release()
		}
		ch <- o
	}()
	var o outcome
	select {
	case o = <-ch:
	case err := <-dialogErr:
		// The handler's context ends now; it releases the lock when it
		// returns.
		hcancel()
		o.err = err
	case err := <-hangErr:
		hcancel()
		o.err = err
	case <-ctx.Done():
		// The caller gets the backstop's answer now; the handler sees its
		// context end and releases the lock when it returns.
		if hold != nil {
			hold.GaveUp()
		}
		o.err = errs.New(errs.OperationTimeout, "%s did not finish within %s", name, s.cfg.OperationTimeout)
		switch {
		case s.life.Err() != nil:
			o.err = errs.New(errs.OperationTimeout, "%s was cancelled: the server is shutting down", name)
		case ctx.Err() == context.Canceled:
			o.err = errs.New(errs.OperationTimeout, "%s was cancelled by the client", name)
		}
	}
	if o.err != nil {
		o.err = surfaceGone(c.Session, activeBefore, o.err)
		if c.Session != nil {
			c.Session.SetLastError(fmt.Sprintf("%s: %v", name, o.err))
		}
		return c.secrets.mark(s.failureEnvelope(o.err, start, c.sid))
	}
	var also []envField
	if o.then != nil {
		also = append(also, envField{"then", o.then})
	}
	env, err := successEnvelope(o.v, start, c.sid, also...)
	if err != nil {
		return s.failureEnvelope(err, start, c.sid)
	}
	return c.secrets.mark(env)
}

// crashBlocks answers APP_CRASHED for every call on a session whose app's
// main process ended on its own, except the calls declared to run after a
// crash (they clean up or read what happened).
func crashBlocks(sess *session.Session, d Def) error {
	if d.Effects.AfterCrash || d.Effects.EndsSession {
		return nil
	}
	return sess.CrashedError()
}

// surfaceGone turns a disconnect, a timeout, an internal failure or a
// refused evaluation of a call whose
// surface went away meanwhile (its window navigated, the frame was removed)
// into SURFACE_CLOSED: the app is healthy, the frame is gone.
func surfaceGone(sess *session.Session, surfaceID string, err error) error {
	if sess == nil || surfaceID == "" {
		return err
	}
	switch errs.CodeOf(err) {
	case errs.CDPDisconnected, errs.Internal, errs.EvalRuntimeError, errs.CDPTimeout, errs.PageNavigating:
		// What a call sees when its frame goes under it: "Inspected target
		// navigated or closed", "Execution context was destroyed", a socket
		// that closed.
	default:
		return err
	}
	if alive, _ := sess.Alive(); !alive {
		return err
	}
	// The frame tree can lag a moment behind a navigation that has already
	// cut the call off: look again briefly before calling it a failure.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	for i := 0; !sess.Surfaces.Gone(ctx, surfaceID); i++ {
		if i == 3 {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(250 * time.Millisecond):
		}
	}
	e := errs.Wrap(errs.SurfaceClosed, err, "surface "+surfaceID+" went away during the call (its window navigated or the frame was removed)").With("surfaceId", surfaceID)
	e.Hint = "The selected frame is gone; the app is fine. Call electron_surfaces_list and electron_switch_surface (or electron_switch_window) to pick a live surface, then call again."
	return e
}
