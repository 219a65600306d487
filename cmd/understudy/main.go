// Command understudy serves MCP tools that drive Electron apps and Chromium
// over the Chrome DevTools Protocol, and runs the demo, the doctor, headless
// replays of promoted specs and the CDP relay. Run `understudy --help`.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/tool"
	"github.com/understudy-dev/understudy/internal/urlpolicy"
)

// version and commit are stamped at build time with -ldflags
// "-X main.version=… -X main.commit=…", which tools/release computes for
// make build and make release alike (version from server.json, commit from
// git; go run ./tools/release -print-ldflags). Without them (go install,
// go build) both come from the binary's build information; see
// appVersion and versionLine.
var (
	version = ""
	commit  = ""
)

// appVersion is the version this binary reports: the stamped one, else the
// module version Go recorded (v0.2.0 from go install …@v0.2.0, a
// pseudo-version in a checkout), else "dev".
func appVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return strings.TrimPrefix(bi.Main.Version, "v")
	}
	return "dev"
}

const usage = `understudy — drive Electron apps and Chromium from AI agents (MCP) and scripts (CDP).

Usage:
  understudy [mcp] [flags]     serve MCP on stdio (the default), or on --http
  understudy demo [--browser PATH]
                               launch Chromium on the embedded demo app and walk a tour
  understudy doctor [--json]   check this machine: browser, display, eval policy, paths
  understudy relay --attach http://127.0.0.1:9222 [--port N] [--token T]
  understudy relay --launch /path/to/app [--port N] [--token T]
  understudy relay --grid http://HOST:4444 [--capabilities JSON|@file] [--allow-remote HOST]
                               serve a CDP endpoint that Playwright, Puppeteer and
                               chromedp can connect to, in front of an app (or of a
                               Selenium Grid session, deleted when the relay exits)
  understudy production validate [--json] [--checks ID,ID] PATH
                               check a packaged app on disk (fuses, app.asar, integrity,
                               versions, webPreferences); exit 0 pass, 1 fail, 2 bad input
  understudy replay SPEC [--json] [--confirm] [MCP flags]
                               run a replay spec (trace_promote) headless; exit 0 pass,
                               1 a step differed, 2 bad spec, 3 no launch, 64 usage
  understudy --version         version, commit, Go version
  understudy COMMAND --help    help of a command, on stdout

MCP flags:
  --allow-eval[=main|renderer]  expose eval tools (both kinds when no value is given);
                                without it electron_eval_* do not exist
  --tool-profile P              the core tools offered: essential, testing, debug or
                                full (default full; docs/adr/022, docs/tools.md)
  --with G1,G2                  also offer capability groups (repeatable): network,
                                storage, clock, a11y, visual, trace, ipc, native-ui,
                                production, or all; --plugin G is the same
  --allow-secrets               let calls ask reveal:true to see cookie values, secret
                                headers and body fields (default: always [redacted])
  --axe-core FILE               axe-core's axe.min.js, run by a11y_audit (--with a11y):
                                npm install axe-core, then node_modules/axe-core/axe.min.js;
                                never looked up by itself (docs/evidence.md)
  --redact-header NAME          one more header network outputs redact (repeatable)
  --redact-body-key KEY         one more body field key network outputs redact (repeatable)
  --allow-remote HOST[:PORT],…  endpoints off loopback a grid (electron_launch {grid}), its
                                se:cdp URL (the address the grid advertises) or a remote
                                CDP endpoint may name; without it only loopback is dialled
  --remote-header "Name: value" a header for grids and remote endpoints (repeatable; an
                                auth token: never logged, never in results; no CR/LF)
  --allow-auto-connect          let electron_attach {autoConnect:true} connect to the
                                user's own running Chrome (docs/scale-out.md)
  --output-schemas              publish each tool's full result schema (outputSchema) in
                                tools/list, for clients that validate results; off by
                                default: it triples the manifest (docs/adr/030)
  --app-root DIR                refuse to launch anything outside DIR (and any switch
                                or env name that is not on the allowlists in
                                docs/security.md)
  --allow-env N1,N2             with --app-root: env names a launch may set beyond the
                                allowlist (never NODE_OPTIONS, LD_*, ...)
  --allowed-origins O1;O2       origins electron_navigate may open (default any);
                                scheme://host[:port], ; or , separated
  --blocked-origins O1;O2       origins electron_navigate refuses (wins over allowed);
                                not a sandbox: links, redirects and scripts still go anywhere
  --operation-timeout-ms N      per-call backstop (default 120000); a call past it
                                returns OPERATION_TIMEOUT and the session stays usable
  --http 127.0.0.1:PORT         serve streamable HTTP on loopback instead of stdio, at
                                http://127.0.0.1:PORT/mcp (every other path is 404); each
                                client sees and drives only the sessions it opened
  --token T                     with --http: require Authorization: Bearer T
  --share-sessions              with --http: every client sees and drives every session
  --log-level debug|info|warn|error
                                diagnostics on stderr (default warn); stdout carries
                                only MCP messages; MCP clients also get them as log
                                notifications at the level they set (logging/setLevel)
  --log-file FILE               append diagnostics to FILE instead of stderr
  --file-root DIR               also read and write files under DIR (repeatable); files
                                are allowed only under the MCP client's roots, the
                                working directory, --app-root, the artifacts folder
                                and these (docs in README: "Files")
  --artifacts-dir DIR           where screenshots go without a folder, and relative
                                output paths (default: <user cache>/understudy/artifacts)
  --allow-any-file              read and write files anywhere (as stagewright does)
  --config FILE                 read settings from a JSON file whose keys are these
                                flags' names: {"app-root": "/apps", "file-root": ["/a"]}
  --version                     print version, commit and Go version

Every flag can also be set in the environment: UNDERSTUDY_ + its name in capitals
with _ for - (UNDERSTUDY_APP_ROOT, UNDERSTUDY_ALLOW_EVAL=main, UNDERSTUDY_CONFIG).
Precedence: command line, then environment, then config file. understudy doctor
prints every setting and where it came from. Other variables: UNDERSTUDY_CHROMIUM
(the browser doctor and electron_launch {} use), ELECTRON_PATH (dev launches).

Add it to an MCP host:
  Claude Code:  claude mcp add understudy -- understudy
  Cursor / any JSON config:
    {"mcpServers": {"understudy": {"command": "understudy", "args": []}}}

Then ask the agent to call electron_launch with executablePath of your app (or
/usr/lib/chromium/chromium), electron_surfaces_list, electron_snapshot, electron_click…
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "mcp"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "mcp":
		return runMCP(args, stdin, stdout, stderr)
	case "demo":
		return runDemo(args, stdout, stderr)
	case "doctor":
		return runDoctor(args, stdout, stderr)
	case "relay":
		return runRelay(args, stdout, stderr)
	case "production":
		return runProduction(args, stdout, stderr)
	case "replay":
		return runReplay(args, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, versionLine())
		return 0
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "understudy: unknown command %q (commands: mcp, demo, doctor, relay, production, replay, version; understudy --help lists them)\n", cmd)
	return 2
}

// evalFlag is --allow-eval with an optional value.
type evalFlag struct{ main, renderer bool }

// String is the value as --allow-eval takes it ("" when off), so doctor
// prints what is in force.
func (e *evalFlag) String() string {
	switch {
	case e.main && e.renderer:
		return "true"
	case e.main:
		return "main"
	case e.renderer:
		return "renderer"
	}
	return ""
}
func (e *evalFlag) IsBoolFlag() bool {
	return true
}
func (e *evalFlag) Set(v string) error {
	switch v {
	case "true", "both", "all":
		e.main, e.renderer = true, true
	case "false":
		e.main, e.renderer = false, false
	case "main":
		e.main = true
	case "renderer":
		e.renderer = true
	default:
		return fmt.Errorf("--allow-eval takes no value (main and renderer), main, renderer, true or false, not %q", v)
	}
	return nil
}

type mcpFlags struct {
	eval      evalFlag
	appRoot   string
	allowEnv  listFlag // --allow-env
	allowed   []string // --allowed-origins
	blocked   []string // --blocked-origins
	opTimeout int
	http      string
	token     string
	share     bool
	logLevel  string
	logFile   string
	version   bool
	config    string
	files     fileFlags
	profile   string
	with      listFlag  // --with and --plugin
	settings  *settings // where each value came from (doctor prints it)

	allowSecrets bool
	axeCore      string
	redactH      listFlag
	redactK      listFlag

	allowRemote      listFlag
	remoteHeaders    headerFlag
	allowAutoConnect bool
	outputSchemas    bool
	remote           browser.RemoteAllow // parsed allowRemote
	remoteHeader     http.Header         // parsed remoteHeaders
}

// mcpFlagSet defines the MCP server's flags on a new flag set; the origin
// lists are parsed from allowed and blocked after parsing.
func mcpFlagSet() (fs *flag.FlagSet, f *mcpFlags, allowed, blocked *string) {
	fs = flag.NewFlagSet("understudy", flag.ContinueOnError)
	f = &mcpFlags{}
	allowed, blocked = new(string), new(string)
	fs.StringVar(&f.config, "config", "", "read settings from this JSON file (keys are flag names)")
	fs.Var(&f.eval, "allow-eval", "expose eval tools: main, renderer, or both")
	fs.StringVar(&f.profile, "tool-profile", tool.DefaultProfile, "core tools: essential, testing, debug or full")
	fs.Var(&f.with, "with", "capability groups to offer (comma-separated, repeatable, or all)")
	fs.Var(&f.with, "plugin", "the same as --with (stagewright's name)")
	fs.BoolVar(&f.allowSecrets, "allow-secrets", false, "let calls ask reveal:true for secret values")
	fs.StringVar(&f.appRoot, "app-root", "", "refuse launches outside this folder")
	fs.Var(&f.allowEnv, "allow-env", "with --app-root: environment names a launch may set beyond the allowlist (comma-separated, repeatable)")
	fs.IntVar(&f.opTimeout, "operation-timeout-ms", 120000, "per-call backstop in ms")
	fs.StringVar(allowed, "allowed-origins", "", "origins electron_navigate may open, separated by ; or , (default: any)")
	fs.StringVar(blocked, "blocked-origins", "", "origins electron_navigate refuses, separated by ; or , (wins over --allowed-origins)")
	fs.StringVar(&f.http, "http", "", "serve streamable HTTP on this loopback address")
	fs.StringVar(&f.token, "token", "", "with --http: require Authorization: Bearer <token>")
	fs.BoolVar(&f.share, "share-sessions", false, "with --http: every client sees every session")
	fs.StringVar(&f.logLevel, "log-level", "warn", "debug, info, warn or error")
	fs.StringVar(&f.logFile, "log-file", "", "append diagnostics to this file instead of stderr")
	fs.BoolVar(&f.version, "version", false, "print the version")
	fs.StringVar(&f.axeCore, "axe-core", "", "axe-core's axe.min.js for a11y_audit (npm install axe-core; never looked up by itself)")
	fs.Var(&f.redactH, "redact-header", "one more header network outputs redact (repeatable)")
	fs.Var(&f.redactK, "redact-body-key", "one more body field key network outputs redact (repeatable)")
	fs.Var(&f.allowRemote, "allow-remote", "hosts off loopback (HOST or HOST:PORT, comma-separated, repeatable) a grid, its se:cdp or a remote endpoint may name")
	fs.Var(&f.remoteHeaders, "remote-header", "a \"Name: value\" header sent to grids and remote endpoints (repeatable; never logged)")
	fs.BoolVar(&f.allowAutoConnect, "allow-auto-connect", false, "let electron_attach {autoConnect:true} connect to the user's own running Chrome")
	fs.BoolVar(&f.outputSchemas, "output-schemas", false, "publish every tool's full result schema as its outputSchema in tools/list")
	f.files.register(fs)
	return fs, f, allowed, blocked
}

// parseMCPFlags reads the MCP server's settings from the command line, the
// environment (UNDERSTUDY_*) and the config file, in that order of
// precedence. --help prints the usage on stdout (exit 0); a bad value is
// named on stderr (exit 2).
func parseMCPFlags(args []string, stdout, stderr io.Writer, getenv func(string) string) (*mcpFlags, int, bool) {
	fs, f, allowed, blocked := mcpFlagSet()
	st, err := parseLayered(fs, args, "UNDERSTUDY_", getenv)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return nil, 0, false
		}
		fmt.Fprintln(stderr, "understudy:", err)
		return nil, 2, false
	}
	f.settings = st
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "understudy: unexpected argument %q (see --help)\n", fs.Arg(0))
		return nil, 2, false
	}
	if err := f.check(*allowed, *blocked); err != nil {
		fmt.Fprintln(stderr, "understudy:", err)
		return nil, 2, false
	}
	return f, 0, true
}

// check validates the parsed values and derives the origin lists.
func (f *mcpFlags) check(allowed, blocked string) error {
	if f.http == "" && (f.token != "" || f.share) {
		return errors.New("--token and --share-sessions go with --http")
	}
	var err error
	if f.allowed, err = urlpolicy.ParseOrigins(allowed); err != nil {
		return f.settings.blame("allowed-origins", fmt.Errorf("--allowed-origins: %w", err))
	}
	if f.blocked, err = urlpolicy.ParseOrigins(blocked); err != nil {
		return f.settings.blame("blocked-origins", fmt.Errorf("--blocked-origins: %w", err))
	}
	if f.opTimeout < 1000 || f.opTimeout > 3600000 {
		return f.settings.blame("operation-timeout-ms", errors.New("--operation-timeout-ms must be between 1000 and 3600000"))
	}
	if _, err := parseLogLevel(f.logLevel); err != nil {
		return f.settings.blame("log-level", err)
	}
	if f.remote, err = browser.ParseRemoteAllow(f.allowRemote); err != nil {
		return f.settings.blame("allow-remote", fmt.Errorf("--allow-remote: %w", err))
	}
	if f.remoteHeader, err = parseRemoteHeaders(f.remoteHeaders); err != nil {
		return err
	}
	if err := tool.ValidateSelection(f.profile, f.with); err != nil {
		return err
	}
	return f.files.check()
}

// parseLogLevel accepts debug, info, warn (or warning) and error.
func parseLogLevel(level string) (slog.Level, error) {
	switch strings.ToLower(level) {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("--log-level takes debug, info, warn or error, not %q", level)
}

// newLogger writes diagnostics at level and above to w (stderr or
// --log-file); level has been checked by parseLogLevel.
func newLogger(level string, w io.Writer) *slog.Logger {
	l, err := parseLogLevel(level)
	if err != nil {
		l = slog.LevelWarn
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l}))
}

// versionLine is what --version prints: the version, the commit it was
// built from and the Go that built it.
func versionLine() string {
	rev, modified := "unknown", ""
	goVersion := runtime.Version()
	if commit != "" {
		rev = commit
	} else if bi, ok := debug.ReadBuildInfo(); ok {
		for _, kv := range bi.Settings {
			switch kv.Key {
			case "vcs.revision":
				rev = kv.Value
			case "vcs.modified":
				if kv.Value == "true" {
					modified = "+dirty"
				}
			}
		}
	}
	if r, dirty, ok := strings.Cut(rev, "+"); ok { // a stamped commit of a modified tree: SHA+dirty
		rev, modified = r, "+"+dirty
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return fmt.Sprintf("understudy %s (commit %s%s, %s, %s/%s)", appVersion(), rev, modified, goVersion, runtime.GOOS, runtime.GOARCH)
}

func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, code, ok := parseMCPFlags(args, stdout, stderr, os.Getenv)
	if !ok {
		return code
	}
	if f.version {
		fmt.Fprintln(stdout, versionLine())
		return 0
	}
	logOut := stderr
	if f.logFile != "" {
		lf, err := os.OpenFile(f.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintln(stderr, "understudy: --log-file:", err)
			return 2
		}
		defer lf.Close()
		logOut = lf
	}
	logger := newLogger(f.logLevel, logOut)
	ctx, installed, stopSignals := signalContext()
	defer stopSignals()
	cfg := f.toolConfig(logger)
	cfg.Launchable = installed
	srv := tool.New(cfg)
	defer srv.Close() // kills what we launched; leaves attached apps alone

	if f.http != "" {
		return serveHTTP(ctx, srv.HTTPHandler(tool.HTTPOptions{Token: f.token}), f.http, logger, stderr)
	}
	m := srv.MCP()
	// Malformed lines are answered, never fatal; a cancelled call gets no reply.
	t := tool.SilenceCancelled(tool.RPCCodes(stdioTransport(stdin, stdout, logger)))
	if err := m.Run(ctx, t); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "EOF") {
		logger.Error("mcp server stopped", "err", err)
		return 1
	}
	return 0
}

// signalContext is a context that ends at the first SIGINT or SIGTERM; a
// second one gets the default action (as with signal.NotifyContext). The
// handler is installed on a goroutine of its own: installing it starts the
// runtime's signal thread, about a millisecond that a host would otherwise
// wait for before the initialize reply (issue 11). installed is closed
// once the handler is in place; the server holds launches until then
// (tool.Config.Launchable). stop ends the context and waits for the
// goroutine.
func signalContext() (ctx context.Context, installed <-chan struct{}, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(sigs)
		close(ready)
		select {
		case <-sigs:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, ready, func() { cancel(); <-done }
}

// toolConfig is the server's configuration from the MCP flags (understudy
// mcp and understudy replay).
func (f *mcpFlags) toolConfig(logger *slog.Logger) tool.Config {
	return tool.Config{
		FileRoots: f.files.roots, ArtifactsDir: f.files.artifacts, AllowAnyFile: f.files.allowAny,
		Version: appVersion(), AllowEvalMain: f.eval.main, AllowEvalRenderer: f.eval.renderer,
		AppRoot: f.appRoot, AllowEnv: f.allowEnv, AllowedOrigins: f.allowed, BlockedOrigins: f.blocked, OperationTimeout: time.Duration(f.opTimeout) * time.Millisecond, Logger: logger,
		ShareSessions: f.share, ToolProfile: f.profile, With: f.with,
		AllowSecrets:  f.allowSecrets,
		RedactHeaders: f.redactH, RedactBodyKeys: f.redactK,
		AxeCore:     f.axeCore,
		AllowRemote: f.remote, RemoteHeaders: f.remoteHeader, AllowAutoConnect: f.allowAutoConnect,
		OutputSchemas: f.outputSchemas,
	}
}

// serveHTTP serves streamable HTTP MCP on a loopback address, refusing
// non-loopback Host headers (DNS rebinding) and foreign browser Origins.
func serveHTTP(ctx context.Context, h http.Handler, addr string, logger *slog.Logger, stderr io.Writer) int {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || !browser.IsLoopbackHost(host) {
		fmt.Fprintf(stderr, "understudy: --http must be a loopback address such as 127.0.0.1:8931, not %q\n", addr)
		return 2
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(stderr, "understudy:", err)
		return 1
	}
	hs := &http.Server{Handler: LoopbackOnly(h), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "understudy: MCP over streamable HTTP at http://%s%s\n", ln.Addr(), tool.MCPPath)
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Error("http server stopped", "err", err)
		return 1
	}
	return 0
}

// LoopbackOnly refuses requests whose Host is not a loopback name and
// requests from a browser page of another origin.
func LoopbackOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if !browser.IsLoopbackHost(host) {
			http.Error(w, "understudy: Host must be localhost, 127.0.0.1 or [::1]", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !loopbackOrigin(o) {
			http.Error(w, "understudy: cross-origin requests are refused", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func loopbackOrigin(o string) bool {
	for _, p := range []string{"http://", "https://"} {
		if rest, ok := strings.CutPrefix(o, p); ok {
			h := rest
			if hh, _, err := net.SplitHostPort(rest); err == nil {
				h = hh
			}
			return browser.IsLoopbackHost(h)
		}
	}
	return false
}

const doctorUsage = `understudy doctor — check this machine and print the server's settings.

  understudy doctor [--json] [--browser PATH] [--config FILE]

Checks the browser (the one electron_launch {} would use), the display, the eval policy and
the file roots, then prints every MCP server setting with where it came from (flag, env,
file or default) as understudy mcp would read it from the environment and --config.
Exit 0 when healthy, 1 when a check failed, 2 on bad flags.

Flags:
  --json           print one JSON object
  --browser PATH   the Chromium to check (default: $UNDERSTUDY_CHROMIUM, then the usual places)
  --config FILE    the config file to read (default: $UNDERSTUDY_CONFIG)
`

func runDoctor(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	browserPath := fs.String("browser", "", "the Chromium to check (default: found on this machine)")
	config := fs.String("config", "", "the config file to read")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, doctorUsage)
			return 0
		}
		if err == nil {
			err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
		}
		fmt.Fprintf(stderr, "understudy doctor: %v (see --help)\n", err)
		return 2
	}
	// The settings the MCP server would run with here, read as understudy
	// mcp reads them; the report is electron_doctor's, from a server with
	// that configuration (one code path for both).
	var cfgArgs []string
	if *config != "" {
		cfgArgs = []string{"--config", *config}
	}
	mfs, mf, allowed, blocked := mcpFlagSet()
	st, err := parseLayered(mfs, cfgArgs, "UNDERSTUDY_", os.Getenv)
	if err == nil {
		mf.settings = st
		err = mf.check(*allowed, *blocked)
	}
	cfg := tool.Config{Version: appVersion()} // settings that do not parse: the defaults, and the settings check fails
	if err == nil {
		cfg = mf.toolConfig(nil)
	}
	if *browserPath != "" {
		cfg.BrowserPath = *browserPath
	}
	srv := tool.New(cfg)
	defer srv.Close()
	rep := srv.Doctor(context.Background())
	settingsCheck := tool.Check{Name: "settings", OK: err == nil, Detail: "flags, UNDERSTUDY_* variables and the config file agree"}
	if err != nil {
		settingsCheck.Detail = err.Error()
		settingsCheck.Fix = "correct the named variable or config key (understudy --help lists them)"
		rep.OK = false
	}
	rep.Checks = append(rep.Checks, settingsCheck)
	if *asJSON {
		b, _ := json.MarshalIndent(struct {
			tool.DoctorReport
			Settings *settings `json:"settings,omitempty"`
		}{rep, st}, "", "  ")
		fmt.Fprintln(stdout, string(b))
	} else {
		for _, c := range rep.Checks {
			mark := "ok  "
			if !c.OK {
				mark = "FAIL"
			}
			fmt.Fprintf(stdout, "%s %-12s %s\n", mark, c.Name, c.Detail)
			if c.Fix != "" {
				fmt.Fprintf(stdout, "     %-12s fix: %s\n", "", c.Fix)
			}
		}
		if st != nil {
			fmt.Fprintln(stdout, "\nsettings (value, from):")
			if st.ConfigFile != "" {
				fmt.Fprintf(stdout, "  config file %s\n", st.ConfigFile)
			}
			names := make([]string, 0, len(st.Value))
			for n := range st.Value {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				fmt.Fprintf(stdout, "  --%-22s %-28q %s\n", n, st.Value[n], st.Source[n])
			}
		}
	}
	if !rep.OK {
		return 1
	}
	return 0
}
