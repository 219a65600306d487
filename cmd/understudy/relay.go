package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/relay"
)

const relayUsage = `understudy relay — a CDP endpoint that Playwright, Puppeteer and chromedp can share.

  understudy relay --attach http://127.0.0.1:9222 [--port N] [--token T]
  understudy relay --launch /path/to/app [--port N] [--token T] [-- app args…]
  understudy relay --grid http://HOST:4444 [--capabilities JSON|@file] [--allow-remote HOST] [--port N]

With --grid the relay creates a session on a Selenium Grid 4, relays its se:cdp endpoint and
deletes the session when it exits (SIGINT, SIGTERM, or the session going away). The se:cdp URL
names the address the grid advertises (off loopback even for a grid on this machine), so
--allow-remote must name it; a grid URL off loopback needs it too. For example:
  understudy relay --grid http://127.0.0.1:4444 --allow-remote 192.0.2.2 \
    --capabilities '{"browserName":"chrome","goog:chromeOptions":{"binary":"/opt/MyApp/myapp","args":["--headless=new"]}}'

The relay is default-deny: it passes the CDP methods Playwright, Puppeteer and chromedp send
and refuses the rest with an error naming the method; --relay-allow METHOD lets one through.
file: URLs open only under the file roots (--file-root, --artifacts-dir, the working folder),
and only files under them reach a page's file input (DOM.setFileInputFiles);
downloads go to <artifacts-dir>/relay-downloads whatever folder a client names.

Each client gets its own sessions and upstream sockets, so one script's Runtime.enable,
interception or emulation never changes what another sees. Browser.close from a client closes
only that client's connection. The relay binds 127.0.0.1; binding another address (--addr)
requires --token. Connect with:
  Playwright:  chromium.connectOverCDP('http://127.0.0.1:PORT')
  Puppeteer:   puppeteer.connect({browserURL: 'http://127.0.0.1:PORT'})
  chromedp:    remote.NewAllocator(ctx, "ws://127.0.0.1:PORT/devtools/browser/…")  (chromedp/remote, v0.23+)
See docs/relay.md.

Flags:
`

func runRelay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("relay", flag.ContinueOnError)
	fs.String("config", "", "read settings from this JSON file (keys are flag names)")
	attach := fs.String("attach", "", "the app's DevTools endpoint (http://127.0.0.1:PORT or ws://…), loopback only")
	launch := fs.String("launch", "", "start this executable (an Electron app or Chromium) and relay it")
	port := fs.Int("port", 0, "port to listen on (default: a free one)")
	addr := fs.String("addr", "", "full listen address (default 127.0.0.1:PORT); a non-loopback address needs --token")
	token := fs.String("token", "", "require this token (?token= or Authorization: Bearer)")
	allowClose := fs.Bool("allow-browser-close", false, "let clients close the browser and targets they did not create")
	gridURL := fs.String("grid", "", "create a session on this Selenium Grid 4 (http://HOST:4444) and relay its se:cdp endpoint")
	capsFlag := fs.String("capabilities", "", "with --grid: the session's W3C capabilities as JSON, or @FILE (default {\"browserName\":\"chrome\"})")
	logLevel := fs.String("log-level", "warn", "debug, info, warn or error; at debug the launched app's own output (Chromium's log lines) is copied too")
	logFile := fs.String("log-file", "", "append diagnostics to this file instead of stderr")
	var allowRemote, relayAllow listFlag
	var remoteHeaders headerFlag
	var ff fileFlags
	ff.register(fs)
	fs.Var(&relayAllow, "relay-allow", "let clients send this CDP method, which the relay refuses by default: Domain.method, or Domain.* (repeatable, comma-separated; see docs/relay.md, Default deny)")
	fs.Var(&allowRemote, "allow-remote", "hosts off loopback (HOST or HOST:PORT, comma-separated, repeatable) the grid and its se:cdp may name")
	fs.Var(&remoteHeaders, "remote-header", "a \"Name: value\" header sent to the grid and its se:cdp (repeatable; never logged)")
	st, err := parseLayered(fs, args, "UNDERSTUDY_RELAY_", os.Getenv)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, relayUsage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			fmt.Fprintln(stdout, "\nEvery flag can be set as UNDERSTUDY_RELAY_<NAME> (UNDERSTUDY_RELAY_TOKEN) or in --config; the command line wins.")
			return 0
		}
		fmt.Fprintln(stderr, "understudy relay:", err)
		return 2
	}
	if n := btoi(*attach != "") + btoi(*launch != "") + btoi(*gridURL != ""); n != 1 {
		fmt.Fprintln(stderr, "understudy relay: pass exactly one of --attach URL, --launch PATH or --grid URL (see --help)")
		return 2
	}
	if err := ff.check(); err != nil {
		fmt.Fprintln(stderr, "understudy relay:", err)
		return 2
	}
	for _, m := range relayAllow {
		if !validRelayAllow(m) {
			fmt.Fprintf(stderr, "understudy relay: --relay-allow %q is not a CDP method (Domain.method, or Domain.* for a domain)\n", m)
			return 2
		}
	}
	if *capsFlag != "" && *gridURL == "" {
		fmt.Fprintln(stderr, "understudy relay: --capabilities goes with --grid URL")
		return 2
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintln(stderr, "understudy relay: --port must be 0–65535")
		return 2
	}
	level, err := parseLogLevel(*logLevel)
	if err != nil {
		fmt.Fprintln(stderr, "understudy relay:", st.blame("log-level", err))
		return 2
	}
	logOut := stderr
	if *logFile != "" {
		lf, err := os.OpenFile(*logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintln(stderr, "understudy relay: --log-file:", err)
			return 2
		}
		defer lf.Close()
		logOut = lf
	}
	// The launched app's output (Chromium's dbus and GPU ERROR lines, about
	// thirty at start) is a diagnostic for debugging only, as with
	// electron_launch: kept for launch errors, copied to the log at debug.
	var appOut io.Writer
	if level <= slog.LevelDebug {
		appOut = logOut
	}
	listen := *addr
	if listen == "" {
		listen = net.JoinHostPort("127.0.0.1", strconv.Itoa(*port))
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	var ep browser.Endpoint
	var proc *browser.Process
	var header http.Header
	var gs *relayGrid
	switch {
	case *gridURL != "":
		g, code := startRelayGrid(ctx, *gridURL, *capsFlag, allowRemote, remoteHeaders, stderr)
		if g == nil {
			return code
		}
		gs, header = g, g.header
		defer g.end(stderr)
		ep = browser.Endpoint{BrowserWSURL: g.session.CDPURL}
	case *attach != "":
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		e, _, err := browser.Resolve(rctx, "", 0, *attach)
		cancel()
		if err != nil {
			return relayFail(stderr, err, *attach)
		}
		ep = e
	default:
		p, err := browser.Launch(ctx, browser.LaunchOptions{ExecutablePath: *launch, Args: fs.Args(), Stderr: appOut})
		if err != nil {
			return relayFail(stderr, err, "")
		}
		proc, ep = p, p.Endpoint
		defer func() { _ = p.Kill() }()
	}
	wd, _ := os.Getwd()
	art := ff.artifacts
	if art == "" {
		art = files.DefaultArtifacts()
	}
	roots := files.New(files.Config{WorkDir: wd, Artifacts: art, Extra: ff.roots, AllowAny: ff.allowAny})
	r, err := relay.New(relay.Options{Upstream: ep, Addr: listen, Token: *token, AllowBrowserClose: *allowClose,
		Flat: gs != nil, Header: header, Logger: newLogger(*logLevel, logOut), Allow: relayAllow, Files: roots})
	if err != nil {
		return relayFail(stderr, err, "")
	}
	if err := r.Start(ctx); err != nil {
		return relayFail(stderr, err, "")
	}
	defer r.Close()
	what := ep.HTTPURL
	if gs != nil {
		what = "grid session " + gs.session.ID + " (" + browser.RedactURL(gs.session.CDPURL) + ")"
	}
	fmt.Fprintf(stdout, "relaying %s\n  http: %s\n  ws:   %s\n  downloads: %s\n", what, r.HTTPURL(), r.WSURL(), r.DownloadDir())
	var procDone <-chan struct{}
	if proc != nil {
		procDone = proc.Done()
	}
	select {
	case <-ctx.Done():
	case <-r.Done():
		if gs != nil {
			fmt.Fprintln(stderr, "understudy relay: the grid session went away:", r.Err())
			return 1
		}
		fmt.Fprintln(stderr, "understudy relay: the upstream app went away:", r.Err())
		return 1
	case <-procDone:
		fmt.Fprintln(stderr, "understudy relay: the launched app exited")
		return 1
	}
	return 0
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// relayFlagOf names the relay's flag that fed a field of the shared
// attach and launch code (whose errors name the tool's fields).
var relayFlagOf = map[string]string{
	"cdpUrl": "--attach", "host": "--attach", "port": "--attach", "endpoint": "--attach",
	"executablePath": "--launch", "electronPath": "--launch", "args": "arguments after --",
}

// relayFail says on stderr why the relay could not start, in the command
// line's words: a field is named by its flag, and the registry's hints,
// written for agents ("call electron_launch", "call again"), are left out.
// Nothing at the --attach address gets how to start the app so that
// something is. Bad input exits 2 (usage), anything else 1.
func relayFail(stderr io.Writer, err error, attach string) int {
	e := errs.As(err)
	if e == nil {
		fmt.Fprintln(stderr, "understudy relay:", err)
		return 1
	}
	msg := e.Message
	if f, _ := e.Details["field"].(string); f != "" {
		if fl, ok := relayFlagOf[f]; ok {
			msg = fl + strings.TrimPrefix(msg, f)
			if !strings.HasPrefix(msg, fl) {
				msg = fl + ": " + msg
			}
		}
	}
	switch e.Code {
	case errs.BadArgument, errs.AbsolutePathRequired, errs.FileNotFound:
		fmt.Fprintf(stderr, "understudy relay: %s (see --help)\n", msg)
		return 2
	case errs.NotRunning:
		if attach != "" {
			port := "PORT"
			if u, err := url.Parse(attach); err == nil && u.Port() != "" {
				port = u.Port()
			}
			fmt.Fprintf(stderr, "understudy relay: nothing answers at %s (%s)\n"+
				"  start the app with --remote-debugging-port=%s (and --remote-debugging-address=127.0.0.1), then run this again;\n"+
				"  or let the relay start it: understudy relay --launch /path/to/app\n", attach, msg, port)
			return 1
		}
	}
	fmt.Fprintf(stderr, "understudy relay: %s: %s\n", e.Code, msg)
	return 1
}

// validRelayAllow reports whether s names a CDP method (Domain.method) or a
// domain (Domain.*).
func validRelayAllow(s string) bool {
	domain, method, ok := strings.Cut(s, ".")
	if !ok || !identifier(domain) {
		return false
	}
	return method == "*" || identifier(method)
}

func identifier(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
