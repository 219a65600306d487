package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/relay"
)

const relayUsage = `understudy relay — a CDP endpoint that Playwright, Puppeteer and chromedp can share.

  understudy relay --attach http://127.0.0.1:9222 [--port N] [--token T]
  understudy relay --launch /path/to/app [--port N] [--token T] [-- app args…]

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
	if _, err := parseLayered(fs, args, "UNDERSTUDY_RELAY_", os.Getenv); err != nil {
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
	if (*attach == "") == (*launch == "") {
		fmt.Fprintln(stderr, "understudy relay: pass exactly one of --attach URL or --launch PATH (see --help)")
		return 2
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintln(stderr, "understudy relay: --port must be 0–65535")
		return 2
	}
	listen := *addr
	if listen == "" {
		listen = net.JoinHostPort("127.0.0.1", strconv.Itoa(*port))
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	var ep browser.Endpoint
	var proc *browser.Process
	if *attach != "" {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		e, _, err := browser.Resolve(rctx, "", 0, *attach)
		cancel()
		if err != nil {
			return relayFail(stderr, err)
		}
		ep = e
	} else {
		p, err := browser.Launch(ctx, browser.LaunchOptions{ExecutablePath: *launch, Args: fs.Args(), Stderr: stderr})
		if err != nil {
			return relayFail(stderr, err)
		}
		proc, ep = p, p.Endpoint
		defer func() { _ = p.Kill() }()
	}
	r, err := relay.New(relay.Options{Upstream: ep, Addr: listen, Token: *token, AllowBrowserClose: *allowClose,
		Logger: newLogger("warn", stderr)})
	if err != nil {
		return relayFail(stderr, err)
	}
	if err := r.Start(ctx); err != nil {
		return relayFail(stderr, err)
	}
	defer r.Close()
	fmt.Fprintf(stdout, "relaying %s\n  http: %s\n  ws:   %s\n", ep.HTTPURL, r.HTTPURL(), r.WSURL())
	var procDone <-chan struct{}
	if proc != nil {
		procDone = proc.Done()
	}
	select {
	case <-ctx.Done():
	case <-r.Done():
		fmt.Fprintln(stderr, "understudy relay: the upstream app went away:", r.Err())
		return 1
	case <-procDone:
		fmt.Fprintln(stderr, "understudy relay: the launched app exited")
		return 1
	}
	return 0
}

func relayFail(stderr io.Writer, err error) int {
	msg := err.Error()
	if e := errs.As(err); e != nil {
		entry, _ := errs.Lookup(e.Code)
		msg = fmt.Sprintf("%s: %s\n  hint: %s", e.Code, e.Message, entry.Hint)
	}
	fmt.Fprintln(stderr, "understudy relay:", msg)
	return 1
}
