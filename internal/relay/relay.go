package relay

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
)

// Options configure a relay. The zero value of each field means the default
// documented on it.
type Options struct {
	// Upstream is the browser (or Electron app) to relay: its loopback
	// DevTools HTTP endpoint (HTTPURL, required) and its browser WebSocket
	// URL (BrowserWSURL; read from /json/version when empty). An Endpoint
	// from browser.Resolve or a launched browser.Process fits as it is.
	Upstream browser.Endpoint
	// Addr is where the relay listens. Default "127.0.0.1:0" (a free
	// port). An address that is not loopback (":9222", "0.0.0.0:9222",
	// "192.168.1.5:9222") needs Token.
	Addr string
	// Token, when set, is required on every request: ?token=T in the URL or
	// an "Authorization: Bearer T" header. WebSocket URLs the relay hands
	// out carry ?token=T when the request that asked for them did.
	Token string
	// AllowBrowserClose lets clients end the browser and close targets they
	// did not create: Browser.close, Browser.crash, Target.closeTarget,
	// Page.close and /json/close reach the browser, on every path. Default
	// false: a script's Browser.close closes only its own connection.
	// Browser-acting URLs stay refused either way.
	AllowBrowserClose bool
	// AllowHosts are extra Host header names to accept besides localhost
	// and loopback addresses (for example a name in /etc/hosts that points
	// at this machine). Default none.
	AllowHosts []string
	// Logger receives connection-level diagnostics (never one line per
	// message). Default: discard.
	Logger *slog.Logger
	// Flat: Upstream.BrowserWSURL is all the upstream offers (a Selenium
	// Grid session's se:cdp, a tunnel that forwards the browser socket
	// only; it may be off loopback: the caller checks it against the
	// operator's allowlist, ADR-027). There is no HTTP endpoint and no
	// socket per target: the relay reaches each target through a
	// flattened session on an upstream socket of its own (bridge.go), so
	// clients stay isolated as with a DevTools endpoint.
	Flat bool
	// Header goes with every WebSocket handshake to a Flat upstream (a
	// grid's auth token). It is never logged.
	Header http.Header
	// Allow names methods the relay refuses by default that clients may
	// send anyway (`understudy relay --relay-allow METHOD`): a method
	// ("Target.exposeDevToolsProtocol"), or "Domain.*" for a domain. It
	// lifts the allowlist (allow.go) and a method's own rule where it has
	// one (Page.crash, Page.setDownloadBehavior, Browser.setDownloadBehavior's
	// folder, the file roots of DOM.setFileInputFiles and
	// Input.dispatchDragEvent); never the rules of AllowBrowserClose,
	// browser-acting URLs, the file roots of file: URLs or browser contexts.
	// Default none (docs/adr/035).
	Allow []string
	// Files are the operator's file roots: file: URLs a client opens
	// (Page.navigate, Target.createTarget, Network.loadNetworkResource,
	// /json/new) and files it hands a page (DOM.setFileInputFiles,
	// Input.dispatchDragEvent's data.files) must be under them, checked by
	// the one check every tool uses (files.Roots.CheckURL, CheckRead), and
	// downloads go to <ArtifactsDir>/relay-downloads. Nil: every file: URL
	// is refused.
	Files FileRoots
	// DownloadDir is the relay's downloads folder: a client's
	// Browser.setDownloadBehavior that names another folder is pointed at
	// it. Default <Files.ArtifactsDir()>/relay-downloads, or a folder of
	// the relay's own in the system's temporary folder when Files is nil
	// (removed at Close when empty).
	DownloadDir string
	// QueueLimit is the soft limit of messages waiting to be written to one
	// client. Past it, high-volume events (Network.*, Log.*,
	// Runtime.consoleAPICalled) are dropped and counted; a client that is
	// still four times over it is disconnected. Default 10000.
	QueueLimit int
}

// FileRoots is what the relay needs of the operator's file roots;
// *files.Roots is one.
type FileRoots interface {
	CheckURL(ctx context.Context, field, raw string) error
	// CheckRead allows reading the regular file at path (absolute),
	// symlinks resolved, and returns where it really is.
	CheckRead(ctx context.Context, field, path string) (string, error)
	ArtifactsDir() (string, error)
}

// Stats are counters of a running relay.
type Stats struct {
	Clients         int    // browser-socket clients connected now
	DroppedEvents   uint64 // high-volume events dropped for clients that fell behind
	SlowDisconnects uint64 // clients disconnected for falling behind
	// ClosedViews counts the app's windows that clients closed for
	// themselves only (a refused Target.closeTarget or Page.close, see
	// docs/relay.md): each is hidden from that client until the window
	// goes or the client does.
	ClosedViews int
	// BrowserContexts counts the browser contexts clients created that the
	// relay keeps an owner for (docs/adr/035); each goes when its client
	// disposes it or disconnects.
	BrowserContexts int
}

// Relay is a CDP endpoint in front of one browser. Create it with New, run
// it with Start (or Serve) and stop it with Close. Its methods are safe for
// concurrent use.
type Relay struct {
	opts      Options
	log       *slog.Logger
	browserID string // the id in /devtools/browser/<id>
	hardLimit int

	// Tunables with internal defaults; tests shorten some.
	callTimeout time.Duration // dials and the relay's own calls upstream
	targetWait  time.Duration // how long a command waits for a new target to show up
	urlWait     time.Duration // how long a new page may wait for its first URL before it is attached
	queueBytes  int           // bytes queued for one client before it is disconnected

	// Set by Start, then read-only.
	upstreamWS   string // the upstream browser socket URL
	upstreamBase string // ws://host:port of the upstream, for target sockets
	versionJSON  map[string]any
	version      json.RawMessage // the upstream's Browser.getVersion result
	ln           net.Listener
	srv          *http.Server
	hub          *hub
	httpClient   *http.Client
	wsClient     *http.Client // dials upstream sockets; nil: the default
	bridge       *bridge      // Flat: what stands for the upstream's endpoint
	ctx          context.Context
	cancel       context.CancelFunc

	startOnce sync.Once
	startErr  error
	started   atomic.Bool

	wg sync.WaitGroup // hub, monitor reader, HTTP server, supervisor

	connMu  sync.Mutex
	closing bool
	conns   sync.WaitGroup // WebSocket handlers (clients and tunnels)

	httpMu      sync.Mutex
	httpCreated map[string]bool // targets opened with /json/new through the relay

	allow       map[string]bool // Options.Allow
	downloadDir string          // see Options.DownloadDir; created when first needed
	tempDL      bool            // downloadDir is the relay's temporary folder

	// ctxOwners: the browser contexts clients created, by id, and the
	// client that did (its id). Rule (docs/adr/008): an entry goes when
	// its client disposes the context or disconnects (Chromium disposes a
	// client's contexts when its socket closes).
	ctxMu     sync.Mutex
	ctxOwners map[string]uint64

	closeC    chan struct{}
	closeOnce sync.Once
	lostC     chan struct{}
	lostOnce  sync.Once
	done      chan struct{}
	err       error // why the relay ended on its own; read after done

	nextClientID atomic.Uint64
	stats        struct {
		clients         atomic.Int64
		droppedEvents   atomic.Uint64
		slowDisconnects atomic.Uint64
		closedViews     atomic.Int64
	}
}

// Defaults.
const (
	defaultAddr       = "127.0.0.1:0"
	defaultQueueLimit = 10000
	clientReadLimit   = 128 << 20
)

// New checks the options and returns a relay that is not running yet. It
// refuses to listen beyond loopback without a token.
func New(opts Options) (*Relay, error) {
	if opts.Addr == "" {
		opts.Addr = defaultAddr
	}
	if opts.QueueLimit <= 0 {
		opts.QueueLimit = defaultQueueLimit
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	host, port, err := net.SplitHostPort(opts.Addr)
	if err != nil {
		return nil, errs.BadArg("addr", "%q is not host:port (for example 127.0.0.1:0)", opts.Addr)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return nil, errs.BadArg("addr", "%q has no valid port", opts.Addr)
	}
	if !browser.IsLoopbackHost(host) && opts.Token == "" {
		return nil, errs.BadArg("token", "the relay listens on %s, which is not loopback; pass a token (--token) so that "+
			"only clients that know it can drive the app, or listen on 127.0.0.1", opts.Addr)
	}
	if opts.Upstream.HTTPURL == "" && opts.Upstream.BrowserWSURL == "" {
		return nil, errs.BadArg("upstream", "no upstream endpoint; attach to an app first (browser.Resolve) and pass its Endpoint")
	}
	if opts.Flat {
		if u, err := url.Parse(opts.Upstream.BrowserWSURL); err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
			return nil, errs.BadArg("upstream", "a flat upstream is its browser WebSocket (ws:// or wss://), not %q", opts.Upstream.BrowserWSURL)
		}
	} else if opts.Upstream.HTTPURL == "" {
		return nil, errs.BadArg("upstream", "the upstream endpoint needs its HTTP URL (http://127.0.0.1:PORT)")
	}
	r := &Relay{
		opts:        opts,
		log:         opts.Logger,
		browserID:   newUUID(),
		hardLimit:   4 * opts.QueueLimit,
		callTimeout: 30 * time.Second,
		targetWait:  5 * time.Second,
		urlWait:     2 * time.Second,
		queueBytes:  256 << 20,
		httpCreated: map[string]bool{},
		ctxOwners:   map[string]uint64{},
		allow:       setOf(opts.Allow...),
		closeC:      make(chan struct{}),
		lostC:       make(chan struct{}),
		done:        make(chan struct{}),
		httpClient: &http.Client{
			Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
			Timeout:   30 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		},
	}
	if err := r.setDownloadDir(); err != nil {
		return nil, err
	}
	return r, nil
}

// Start connects to the upstream browser, learns its targets, starts
// listening and returns; the relay then runs until Close (or until the
// upstream browser goes away, see Done). ctx bounds the start only.
func (r *Relay) Start(ctx context.Context) error {
	r.startOnce.Do(func() {
		r.startErr = r.start(ctx)
		if r.startErr != nil {
			r.closeOnce.Do(func() { close(r.closeC) })
			close(r.done)
		}
	})
	return r.startErr
}

func (r *Relay) start(ctx context.Context) (err error) {
	select {
	case <-r.closeC:
		return errs.New(errs.NotRunning, "relay: closed before it started")
	default:
	}
	if r.opts.Flat {
		b, berr := startBridge(ctx, r.opts.Upstream.BrowserWSURL, r.opts.Header, r.callTimeout)
		if berr != nil {
			return berr
		}
		r.bridge = b
		defer func() {
			if err != nil {
				b.close()
			}
		}()
		r.opts.Upstream = browser.Endpoint{HTTPURL: b.httpURL()}
		r.httpClient.Transport = b.transport()
		r.wsClient = &http.Client{Transport: b.transport()}
	}
	if err := r.loadVersion(ctx); err != nil {
		return err
	}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	defer func() {
		if err != nil {
			r.cancel()
			r.wg.Wait()
		}
	}()
	dctx, cancel := context.WithTimeout(ctx, r.callTimeout)
	mon, err := dialUpstream(dctx, r.wsClient, r.upstreamWS)
	cancel()
	if err != nil {
		return errs.Wrap(errs.CDPDisconnected, err, "relay: connecting to the upstream browser at "+r.upstreamWS)
	}
	defer func() {
		if err != nil {
			mon.closeNow()
		}
	}()
	r.hub = newHub(r, mon)
	r.wg.Add(2)
	go func() { defer r.wg.Done(); r.hub.run(r.ctx) }()
	go func() { defer r.wg.Done(); r.hub.readMonitor(r.ctx) }()

	cctx, cancel := context.WithTimeout(ctx, r.callTimeout)
	defer cancel()
	v, err := mon.call(cctx, "", "Browser.getVersion", nil)
	if err != nil {
		return errs.Wrap(errs.CDPDisconnected, err, "relay: Browser.getVersion on the upstream browser")
	}
	r.version = v
	if _, err := mon.call(cctx, "", "Target.setDiscoverTargets", map[string]bool{"discover": true}); err != nil {
		return errs.Wrap(errs.CDPDisconnected, err, "relay: Target.setDiscoverTargets on the upstream browser")
	}
	synced := make(chan struct{})
	if !r.hub.send(cctx, hubSync{done: synced}) {
		return errs.New(errs.CDPTimeout, "relay: the target table did not settle in time")
	}
	select {
	case <-synced:
	case <-cctx.Done():
		return errs.New(errs.CDPTimeout, "relay: the target table did not settle in time")
	}

	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", r.opts.Addr)
	if err != nil {
		return errs.Wrap(errs.LaunchFailed, err, "relay: listen on "+r.opts.Addr)
	}
	r.ln = ln
	r.srv = &http.Server{
		Handler:           http.HandlerFunc(r.serveHTTP),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return r.ctx },
		ErrorLog:          slog.NewLogLogger(r.log.Handler(), slog.LevelDebug),
	}
	r.wg.Add(2)
	go func() {
		defer r.wg.Done()
		_ = r.srv.Serve(ln) // http.ErrServerClosed after shutdown
	}()
	go func() { defer r.wg.Done(); r.supervise() }()
	r.started.Store(true)
	r.log.Info("relay: listening", "http", r.HTTPURL(), "ws", r.WSURL(), "upstream", r.upstreamWS)
	return nil
}

// loadVersion reads the upstream's /json/version: the fields the relay
// serves as its own, and the browser socket URL when the options had none.
func (r *Relay) loadVersion(ctx context.Context) error {
	ep := r.opts.Upstream
	body, status, err := r.upstreamHTTP(ctx, http.MethodGet, "/json/version")
	if err != nil {
		return errs.Wrap(errs.NotRunning, err, "relay: no DevTools endpoint at "+ep.HTTPURL)
	}
	if status != http.StatusOK {
		return errs.New(errs.NotRunning, "relay: %s/json/version answered HTTP %d", ep.HTTPURL, status)
	}
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		return errs.New(errs.NotRunning, "relay: %s/json/version is not DevTools JSON: %v", ep.HTTPURL, err)
	}
	r.versionJSON = v
	ws := ep.BrowserWSURL
	if ws == "" {
		ws, _ = v["webSocketDebuggerUrl"].(string)
	}
	u, err := url.Parse(ws)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		return errs.New(errs.NotRunning, "relay: the upstream names no browser WebSocket (%q)", ws)
	}
	// Dial what the HTTP endpoint names, not a host the JSON points at.
	hu, err := url.Parse(ep.HTTPURL)
	if err == nil && hu.Host != "" && ep.BrowserWSURL == "" {
		u.Host = hu.Host
	}
	r.upstreamWS = u.String()
	r.upstreamBase = u.Scheme + "://" + u.Host
	return nil
}

// upstreamHTTP does one request to the upstream's HTTP endpoint.
func (r *Relay) upstreamHTTP(ctx context.Context, method, pathQuery string) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(r.opts.Upstream.HTTPURL, "/")+pathQuery, nil)
	if err != nil {
		return nil, 0, err
	}
	resp, err := r.httpClient.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return body, resp.StatusCode, err
}

// supervise waits for Close or for the loss of the upstream browser, then
// shuts everything down.
func (r *Relay) supervise() {
	select {
	case <-r.closeC:
	case <-r.lostC:
		r.err = errs.New(errs.CDPDisconnected, "relay: the upstream browser closed its DevTools connection")
	}
	r.connMu.Lock()
	r.closing = true
	r.connMu.Unlock()
	_ = r.srv.Close() // no new connections
	// After a loss, clients detach their sessions and close on their own;
	// give them a moment to flush, then end whatever is left.
	left := make(chan struct{})
	go func() { r.conns.Wait(); close(left) }()
	t := time.NewTimer(3 * time.Second)
	select {
	case <-left:
	case <-t.C:
	}
	t.Stop()
	r.cancel() // hub, monitor, remaining clients and tunnels
	<-left
	r.hub.mon.closeNow()
	if r.bridge != nil {
		r.bridge.close()
	}
	close(r.done)
}

// upstreamLost is called by the hub when the monitor socket ends. Clients
// have been told; the supervisor shuts down once they have closed.
func (r *Relay) upstreamLost() {
	r.lostOnce.Do(func() { close(r.lostC) })
}

// Serve starts the relay if it is not running and blocks until ctx ends or
// the upstream browser goes away, then closes it. It returns nil when ctx
// ended it, and the reason otherwise.
func (r *Relay) Serve(ctx context.Context) error {
	if err := r.Start(ctx); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
	case <-r.done:
	}
	_ = r.Close()
	return r.Err()
}

// Close stops the relay: it stops listening, closes every client
// connection (with close status 1001) and every upstream socket, and
// returns when all of the relay's goroutines have ended. Closing a relay
// that never started is allowed. It never ends the browser.
func (r *Relay) Close() error {
	r.closeOnce.Do(func() { close(r.closeC) })
	r.startOnce.Do(func() { // never started: nothing to wait for
		r.startErr = errs.New(errs.NotRunning, "relay: closed before it started")
		close(r.done)
	})
	if r.started.Load() {
		// Clients close on ctx; tunnels too. Cancel first so they do not
		// wait for upstream events that will not come.
		r.connMu.Lock()
		r.closing = true
		r.connMu.Unlock()
		r.cancel()
	}
	<-r.done
	r.wg.Wait()
	if r.tempDL {
		// Only when empty: what clients downloaded stays.
		_ = os.Remove(r.downloadDir)
		_ = os.Remove(filepath.Dir(r.downloadDir))
	}
	return nil
}

// Done is closed when the relay has stopped, after Close or after the
// upstream browser went away.
func (r *Relay) Done() <-chan struct{} { return r.done }

// Err returns why the relay stopped on its own (the upstream browser went
// away), or nil.
func (r *Relay) Err() error {
	select {
	case <-r.done:
		return r.err
	default:
		return nil
	}
}

// HTTPURL returns the relay's HTTP endpoint, http://127.0.0.1:PORT: what
// Playwright's connectOverCDP and Puppeteer's browserURL take. With a token
// it carries ?token=T. Empty before Start.
func (r *Relay) HTTPURL() string {
	if r.ln == nil {
		return ""
	}
	return "http://" + r.publicHost() + r.tokenQuery()
}

// WSURL returns the relay's browser WebSocket URL,
// ws://127.0.0.1:PORT/devtools/browser/<id>[?token=T]. Empty before Start.
func (r *Relay) WSURL() string {
	if r.ln == nil {
		return ""
	}
	return "ws://" + r.publicHost() + "/devtools/browser/" + r.browserID + r.tokenQuery()
}

// publicHost is host:port to put in URLs: the listening address, with an
// unspecified IP turned into loopback.
func (r *Relay) publicHost() string {
	addr := r.ln.Addr().(*net.TCPAddr)
	ip, _ := netip.AddrFromSlice(addr.IP)
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsUnspecified() {
		return net.JoinHostPort("127.0.0.1", strconv.Itoa(addr.Port))
	}
	return net.JoinHostPort(ip.String(), strconv.Itoa(addr.Port))
}

func (r *Relay) tokenQuery() string {
	if r.opts.Token == "" {
		return ""
	}
	return "?token=" + url.QueryEscape(r.opts.Token)
}

// Stats returns the relay's counters.
func (r *Relay) Stats() Stats {
	return Stats{
		Clients:         int(r.stats.clients.Load()),
		DroppedEvents:   r.stats.droppedEvents.Load(),
		SlowDisconnects: r.stats.slowDisconnects.Load(),
		ClosedViews:     int(r.stats.closedViews.Load()),
		BrowserContexts: r.ownedContexts(),
	}
}

// targetWSURL is the upstream socket of one target. Chromium (and Electron)
// serve every target, pages, iframes and workers alike, at
// /devtools/page/<id> beside the browser socket.
func (r *Relay) targetWSURL(id string) string {
	return r.upstreamBase + "/devtools/page/" + id
}

// browserInfo is the TargetInfo of the browser the relay shows.
func (r *Relay) browserInfo() targetInfo {
	return targetInfo{TargetID: r.browserID, Type: "browser", Attached: true}
}

// track registers a WebSocket handler so that Close waits for it.
func (r *Relay) track() bool {
	r.connMu.Lock()
	defer r.connMu.Unlock()
	if r.closing {
		return false
	}
	r.conns.Add(1)
	return true
}
