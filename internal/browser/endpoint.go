package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Endpoint is a DevTools HTTP endpoint on loopback.
type Endpoint struct {
	Host         string // host as dialed: an IP literal or "localhost"
	Port         int
	HTTPURL      string // http://HOST:PORT, no trailing slash
	BrowserWSURL string // ws://HOST:PORT/devtools/browser/ID
}

// Version is the answer of /json/version.
type Version struct {
	Browser              string `json:"Browser"`
	ProtocolVersion      string `json:"Protocol-Version"`
	UserAgent            string `json:"User-Agent"`
	V8Version            string `json:"V8-Version"`
	WebKitVersion        string `json:"WebKit-Version"`
	WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
}

// Target is one entry of /json/list. Chromium lists the newest target
// first; type is "page", "iframe", "webview", "service_worker",
// "browser_ui", "node", ...
type Target struct {
	ID                   string `json:"id"`
	Type                 string `json:"type"`
	Title                string `json:"title"`
	URL                  string `json:"url"`
	ParentID             string `json:"parentId,omitempty"`
	WebSocketDebuggerURL string `json:"webSocketDebuggerUrl,omitempty"`
}

// Found is an endpoint that Discover found.
type Found struct {
	Endpoint Endpoint
	Version  Version
	Targets  int // /json/list entries other than browser_ui
}

const (
	// defaultHTTPTimeout bounds one /json request when ctx has no deadline.
	defaultHTTPTimeout = 10 * time.Second
	// maxJSONBody caps what we read of a /json answer.
	maxJSONBody = 16 << 20
	// discoverWorkers bounds concurrent probes in Discover.
	discoverWorkers = 8
	// defaultProbeTimeout is Discover's per-port budget when none is given.
	defaultProbeTimeout = 750 * time.Millisecond
)

// DefaultDiscoverPorts are the ports Discover probes when given none
// (9222–9229).
func DefaultDiscoverPorts() []int {
	return []int{9222, 9223, 9224, 9225, 9226, 9227, 9228, 9229}
}

// notRunningHint tells an agent how to make an app attachable.
const notRunningHint = "Start the app with --remote-debugging-port=PORT (Chromium and Electron both accept it; " +
	"add --remote-debugging-address=127.0.0.1), then attach with that port; or launch it with electron_launch. " +
	"electron_discover_running lists endpoints that are open."

// CheckLoopback returns nil when host names this machine's loopback:
// an address in 127.0.0.0/8, ::1 (bracketed or not, IPv4-mapped too) or
// "localhost". Anything else is BAD_ARGUMENT naming "host". Attach and
// discovery refuse other hosts without ever dialing them.
func CheckLoopback(host string) error {
	return checkLoopback("host", host)
}

func checkLoopback(field, host string) error {
	if IsLoopbackHost(host) {
		return nil
	}
	if host == "" {
		return errs.BadArg(field, "the host is empty; pass 127.0.0.1, ::1 or localhost")
	}
	return errs.BadArg(field, "%q is not a loopback host; attach and discovery are loopback-only "+
		"(127.0.0.0/8, ::1 or localhost)", host)
}

// newEndpoint builds an Endpoint for host:port; browserWS may be empty.
func newEndpoint(host string, port int, browserWS string) Endpoint {
	h := strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return Endpoint{
		Host:         h,
		Port:         port,
		HTTPURL:      "http://" + net.JoinHostPort(h, strconv.Itoa(port)),
		BrowserWSURL: browserWS,
	}
}

// endpointFromWS parses a "DevTools listening on" URL,
// ws://HOST:PORT/devtools/browser/ID. An unspecified host (0.0.0.0, ::)
// becomes 127.0.0.1.
func endpointFromWS(raw string) (Endpoint, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Endpoint{}, err
	}
	if u.Scheme != "ws" && u.Scheme != "wss" {
		return Endpoint{}, fmt.Errorf("scheme %q is not ws", u.Scheme)
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil || port <= 0 || port > 65535 {
		return Endpoint{}, fmt.Errorf("no port in %q", raw)
	}
	host := u.Hostname()
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		u.Host = net.JoinHostPort(host, u.Port())
	}
	return newEndpoint(host, port, u.String()), nil
}

// Resolve turns attach arguments into an endpoint: exactly one of port
// (with host, default 127.0.0.1) or cdpURL (http://, https://, ws:// or
// wss://, its host loopback). It reads /json/version to learn the browser
// WebSocket URL; a ws:// cdpURL naming /devtools/browser/ID is kept as it
// is. Only loopback is ever dialed: a non-loopback host is BAD_ARGUMENT
// naming "host" or "cdpUrl"; no endpoint there is NOT_RUNNING. Bounded by
// ctx, and by 10 s when ctx has no deadline.
func Resolve(ctx context.Context, host string, port int, cdpURL string) (Endpoint, Version, error) {
	var ep Endpoint
	switch {
	case port != 0 && cdpURL != "":
		return Endpoint{}, Version{}, errs.BadArg("cdpUrl", "pass either port or cdpUrl, not both")
	case cdpURL != "":
		if host != "" {
			return Endpoint{}, Version{}, errs.BadArg("host", "host goes with port; a cdpUrl carries its own host")
		}
		u, err := url.Parse(cdpURL)
		if err != nil || u.Host == "" {
			return Endpoint{}, Version{}, errs.BadArg("cdpUrl", "%q is not a URL like http://127.0.0.1:9222 or ws://127.0.0.1:9222/devtools/browser/ID", cdpURL)
		}
		if err := checkLoopback("cdpUrl", u.Hostname()); err != nil {
			return Endpoint{}, Version{}, err
		}
		defPort := 0
		switch u.Scheme {
		case "http", "ws":
			defPort = 80
		case "https", "wss":
			defPort = 443
		default:
			return Endpoint{}, Version{}, errs.BadArg("cdpUrl", "scheme %q is not http, https, ws or wss", u.Scheme)
		}
		p := defPort
		if u.Port() != "" {
			p, err = strconv.Atoi(u.Port())
			if err != nil || p <= 0 || p > 65535 {
				return Endpoint{}, Version{}, errs.BadArg("cdpUrl", "bad port in %q", cdpURL)
			}
		}
		ep = newEndpoint(u.Hostname(), p, "")
		if u.Scheme == "https" || u.Scheme == "wss" {
			ep.HTTPURL = "https://" + net.JoinHostPort(ep.Host, strconv.Itoa(p))
		}
		if (u.Scheme == "ws" || u.Scheme == "wss") && strings.HasPrefix(u.Path, "/devtools/browser/") {
			ep.BrowserWSURL = cdpURL
		}
	case port != 0:
		if port < 0 || port > 65535 {
			return Endpoint{}, Version{}, errs.BadArg("port", "%d is not a TCP port (1–65535)", port)
		}
		if host == "" {
			host = "127.0.0.1"
		}
		if err := CheckLoopback(host); err != nil {
			return Endpoint{}, Version{}, err
		}
		ep = newEndpoint(host, port, "")
	default:
		return Endpoint{}, Version{}, errs.BadArg("port", "pass port (the app's --remote-debugging-port) or cdpUrl")
	}

	v, err := GetVersion(ctx, ep)
	if err != nil {
		return Endpoint{}, Version{}, err
	}
	if ep.BrowserWSURL == "" {
		ws, err := sameAuthority(v.WebSocketDebuggerURL, ep)
		if err != nil {
			return Endpoint{}, Version{}, errs.New(errs.NotRunning,
				"the endpoint at %s names no browser WebSocket in /json/version (%v)", ep.HTTPURL, err).
				With("endpoint", ep.HTTPURL)
		}
		ep.BrowserWSURL = ws
	}
	return ep, v, nil
}

// sameAuthority returns ws with its host:port replaced by the endpoint's
// when it names a non-loopback host, so we never follow an endpoint off
// loopback.
func sameAuthority(ws string, ep Endpoint) (string, error) {
	if ws == "" {
		return "", errors.New("webSocketDebuggerUrl is empty")
	}
	u, err := url.Parse(ws)
	if err != nil {
		return "", err
	}
	if u.Scheme != "ws" && u.Scheme != "wss" {
		return "", fmt.Errorf("scheme %q is not ws", u.Scheme)
	}
	if !IsLoopbackHost(u.Hostname()) {
		u.Host = net.JoinHostPort(ep.Host, strconv.Itoa(ep.Port))
	}
	return u.String(), nil
}

// GetVersion reads /json/version of ep. No endpoint there is NOT_RUNNING;
// one that does not answer in time is CDP_TIMEOUT.
func GetVersion(ctx context.Context, ep Endpoint) (Version, error) {
	var v Version
	if err := getJSON(ctx, ep, "/json/version", &v); err != nil {
		return Version{}, err
	}
	return v, nil
}

// ListTargets reads /json/list of ep (newest target first, as Chromium
// lists them). Errors as GetVersion.
func ListTargets(ctx context.Context, ep Endpoint) ([]Target, error) {
	var ts []Target
	if err := getJSON(ctx, ep, "/json/list", &ts); err != nil {
		return nil, err
	}
	return ts, nil
}

// Discover probes host (default 127.0.0.1; loopback only) on ports
// (default DefaultDiscoverPorts) concurrently, at most 8 at a time, each
// within perPort (default 750 ms), and returns the DevTools endpoints it
// found, by port. A non-loopback host or a bad port is BAD_ARGUMENT. When
// ctx ends, Discover stops probing and returns what it found so far.
func Discover(ctx context.Context, host string, ports []int, perPort time.Duration) ([]Found, error) {
	if host == "" {
		host = "127.0.0.1"
	}
	if err := CheckLoopback(host); err != nil {
		return nil, err
	}
	if len(ports) == 0 {
		ports = DefaultDiscoverPorts()
	}
	for _, p := range ports {
		if p <= 0 || p > 65535 {
			return nil, errs.BadArg("ports", "%d is not a TCP port (1–65535)", p)
		}
	}
	ports = slices.Compact(slices.Sorted(slices.Values(ports)))
	if perPort <= 0 {
		perPort = defaultProbeTimeout
	}

	found := make([]*Found, len(ports))
	sem := make(chan struct{}, discoverWorkers)
	var wg sync.WaitGroup
	for i, port := range ports {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			found[i] = probe(ctx, host, port, perPort)
		})
	}
	wg.Wait()

	var out []Found
	for _, f := range found {
		if f != nil {
			out = append(out, *f)
		}
	}
	return out, nil
}

func probe(ctx context.Context, host string, port int, budget time.Duration) *Found {
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	ep := newEndpoint(host, port, "")
	v, err := GetVersion(ctx, ep)
	if err != nil {
		return nil
	}
	ws, err := sameAuthority(v.WebSocketDebuggerURL, ep)
	if err != nil {
		return nil
	}
	ep.BrowserWSURL = ws
	f := &Found{Endpoint: ep, Version: v}
	if ts, err := ListTargets(ctx, ep); err == nil {
		for _, t := range ts {
			if t.Type != "browser_ui" {
				f.Targets++
			}
		}
	}
	return f
}

// getJSON GETs ep.HTTPURL+path and decodes the JSON answer into v. The
// client dials loopback addresses only, uses no proxy, follows no redirect
// and keeps no connection.
func getJSON(ctx context.Context, ep Endpoint, path string, v any) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultHTTPTimeout)
		defer cancel()
	}
	if ep.HTTPURL == "" {
		return errs.BadArg("endpoint", "the endpoint has no HTTP URL")
	}
	where := ep.HTTPURL + path
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, where, nil)
	if err != nil {
		return errs.BadArg("endpoint", "bad endpoint URL %q: %v", where, err)
	}
	dialer := &net.Dialer{Control: loopbackOnly}
	tr := &http.Transport{
		Proxy:             nil,
		DialContext:       dialer.DialContext,
		DisableKeepAlives: true,
	}
	defer tr.CloseIdleConnections()
	client := &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			return errs.Wrap(errs.CDPTimeout, err, "the DevTools endpoint at "+ep.HTTPURL+" did not answer "+path+" in time").
				With("endpoint", ep.HTTPURL)
		}
		e := errs.Wrap(errs.NotRunning, err, "no DevTools endpoint at "+ep.HTTPURL).With("endpoint", ep.HTTPURL)
		e.Hint = notRunningHint
		return e
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONBody))
	if err != nil {
		return errs.Wrap(errs.CDPDisconnected, err, "reading "+where).With("endpoint", ep.HTTPURL)
	}
	if resp.StatusCode != http.StatusOK {
		e := errs.New(errs.NotRunning, "no DevTools endpoint at %s: GET %s answered HTTP %d",
			ep.HTTPURL, path, resp.StatusCode).With("endpoint", ep.HTTPURL)
		e.Hint = notRunningHint
		return e
	}
	if err := json.Unmarshal(body, v); err != nil {
		e := errs.New(errs.NotRunning, "no DevTools endpoint at %s: %s is not DevTools JSON (%v)",
			ep.HTTPURL, path, err).With("endpoint", ep.HTTPURL)
		e.Hint = notRunningHint
		return e
	}
	return nil
}

// loopbackOnly is a net.Dialer Control func: it refuses any address that is
// not loopback, after name resolution, so "localhost" mapped elsewhere (or
// a hand-built Endpoint) cannot take a request off this machine.
func loopbackOnly(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.Unmap().IsLoopback() {
		return fmt.Errorf("refusing to dial non-loopback address %s", address)
	}
	return nil
}
