// Command understudy serves MCP tools that drive Electron apps and Chromium
// over the Chrome DevTools Protocol, and runs the demo, the doctor and the
// CDP relay. Run `understudy --help`.
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
	"strings"
	"syscall"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/tool"
	"github.com/understudy-dev/understudy/internal/urlpolicy"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

const usage = `understudy — drive Electron apps and Chromium from AI agents (MCP) and scripts (CDP).

Usage:
  understudy [mcp] [flags]     serve MCP on stdio (the default), or on --http
  understudy demo [--browser PATH]
                               launch Chromium on the embedded demo app and walk a tour
  understudy doctor [--json]   check this machine: browser, display, eval policy, paths
  understudy relay --attach http://127.0.0.1:9222 [--port N] [--token T]
  understudy relay --launch /path/to/app [--port N] [--token T]
                               serve a CDP endpoint that Playwright, Puppeteer and
                               chromedp can connect to, in front of an app
  understudy production validate [--json] [--checks ID,ID] PATH
                               check a packaged app on disk (fuses, app.asar, integrity,
                               versions, webPreferences); exit 0 pass, 1 fail, 2 bad input
  understudy --version

MCP flags:
  --allow-eval[=main|renderer]  expose eval tools (both kinds when no value is given);
                                without it electron_eval_* do not exist
  --app-root DIR                refuse to launch anything outside DIR (and any switch
                                that is not on the allowlist in docs/security.md)
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
  --log-level debug|info|warn   diagnostics on stderr (default warn); stdout carries
                                only MCP messages
  --file-root DIR               also read and write files under DIR (repeatable); files
                                are allowed only under the MCP client's roots, the
                                working directory, --app-root, the artifacts folder
                                and these (docs in README: "Files")
  --artifacts-dir DIR           where screenshots go without a folder, and relative
                                output paths (default: <user cache>/understudy/artifacts)
  --allow-any-file              read and write files anywhere (as stagewright does)

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
	case "version":
		fmt.Fprintln(stdout, "understudy", version)
		return 0
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "understudy: unknown command %q\n\n%s", cmd, usage)
	return 2
}

// evalFlag is --allow-eval with an optional value.
type evalFlag struct{ main, renderer bool }

func (e *evalFlag) String() string { return "" }
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
		return fmt.Errorf("--allow-eval takes main or renderer (or no value for both), not %q", v)
	}
	return nil
}

type mcpFlags struct {
	eval      evalFlag
	appRoot   string
	allowed   []string // --allowed-origins
	blocked   []string // --blocked-origins
	opTimeout int
	http      string
	token     string
	share     bool
	logLevel  string
	version   bool
	files     fileFlags
}

func parseMCPFlags(args []string, stderr io.Writer) (*mcpFlags, int, bool) {
	fs := flag.NewFlagSet("understudy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	f := &mcpFlags{}
	fs.Var(&f.eval, "allow-eval", "expose eval tools: main, renderer, or both")
	fs.StringVar(&f.appRoot, "app-root", "", "refuse launches outside this folder")
	fs.IntVar(&f.opTimeout, "operation-timeout-ms", 120000, "per-call backstop in ms")
	var allowed, blocked string
	fs.StringVar(&allowed, "allowed-origins", "", "origins electron_navigate may open, separated by ; or , (default: any)")
	fs.StringVar(&blocked, "blocked-origins", "", "origins electron_navigate refuses, separated by ; or , (wins over --allowed-origins)")
	fs.StringVar(&f.http, "http", "", "serve streamable HTTP on this loopback address")
	fs.StringVar(&f.token, "token", "", "with --http: require Authorization: Bearer <token>")
	fs.BoolVar(&f.share, "share-sessions", false, "with --http: every client sees every session")
	fs.StringVar(&f.logLevel, "log-level", "warn", "debug, info, warn or error")
	fs.BoolVar(&f.version, "version", false, "print the version")
	f.files.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0, false
		}
		return nil, 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "understudy: unexpected argument %q\n", fs.Arg(0))
		return nil, 2, false
	}
	if f.http == "" && (f.token != "" || f.share) {
		fmt.Fprintln(stderr, "understudy: --token and --share-sessions go with --http")
		return nil, 2, false
	}
	var err error
	if f.allowed, err = urlpolicy.ParseOrigins(allowed); err != nil {
		fmt.Fprintln(stderr, "understudy: --allowed-origins:", err)
		return nil, 2, false
	}
	if f.blocked, err = urlpolicy.ParseOrigins(blocked); err != nil {
		fmt.Fprintln(stderr, "understudy: --blocked-origins:", err)
		return nil, 2, false
	}
	if f.opTimeout < 1000 || f.opTimeout > 3600000 {
		fmt.Fprintln(stderr, "understudy: --operation-timeout-ms must be between 1000 and 3600000")
		return nil, 2, false
	}
	if err := f.files.check(); err != nil {
		fmt.Fprintln(stderr, "understudy:", err)
		return nil, 2, false
	}
	return f, 0, true
}

func newLogger(level string, stderr io.Writer) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelWarn
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: l}))
}

func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, code, ok := parseMCPFlags(args, stderr)
	if !ok {
		return code
	}
	if f.version {
		fmt.Fprintln(stdout, "understudy", version)
		return 0
	}
	logger := newLogger(f.logLevel, stderr)
	srv := tool.New(tool.Config{
		FileRoots: f.files.roots, ArtifactsDir: f.files.artifacts, AllowAnyFile: f.files.allowAny,
		Version: version, AllowEvalMain: f.eval.main, AllowEvalRenderer: f.eval.renderer,
		AppRoot: f.appRoot, AllowedOrigins: f.allowed, BlockedOrigins: f.blocked, OperationTimeout: time.Duration(f.opTimeout) * time.Millisecond, Logger: logger,
		ShareSessions: f.share,
	})
	defer srv.Close() // kills what we launched; leaves attached apps alone

	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	if f.http != "" {
		return serveHTTP(ctx, srv.HTTPHandler(tool.HTTPOptions{Token: f.token}), f.http, logger, stderr)
	}
	m := srv.MCP()
	// Malformed lines are answered, never fatal; a cancelled call gets no reply.
	t := tool.SilenceCancelled(stdioTransport(stdin, stdout, logger))
	if err := m.Run(ctx, t); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "EOF") {
		logger.Error("mcp server stopped", "err", err)
		return 1
	}
	return 0
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

func runDoctor(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	browserPath := fs.String("browser", "", "the Chromium to check (default: found on this machine)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	srv := tool.New(tool.Config{Version: version, BrowserPath: *browserPath})
	rep := srv.Doctor(context.Background())
	if *asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
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
	}
	if !rep.OK {
		return 1
	}
	return 0
}
