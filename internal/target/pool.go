package target

import (
	"cmp"
	"context"
	"encoding/json"
	"html"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// The renderer target types the pool keeps. Every other type (browser_ui,
// service_worker, shared_worker, worker, node, tab, …) is left out.
const (
	TypePage    = "page"
	TypeWebview = "webview"
	TypeIframe  = "iframe"
)

// IsRenderer reports whether typ is a renderer target type the pool keeps.
func IsRenderer(typ string) bool {
	return typ == TypePage || typ == TypeWebview || typ == TypeIframe
}

// IsWindow reports whether typ is a window root: a page or a webview guest.
func IsWindow(typ string) bool { return typ == TypePage || typ == TypeWebview }

// Info describes one renderer target. ParentID names the parent *frame*
// (equal to the parent target's id when the parent frame is a target root).
// WSURL is known once the target has been seen in /json/list.
type Info struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Title    string `json:"title"`
	URL      string `json:"url"`
	ParentID string `json:"parentId,omitempty"`
	OpenerID string `json:"openerId,omitempty"`
	WSURL    string `json:"webSocketDebuggerUrl,omitempty"`
}

// ChangeKind says what happened to a target.
type ChangeKind int

// The kinds of [Change].
const (
	Created ChangeKind = iota + 1
	Destroyed
	InfoChanged
	// Crashed: the target's renderer process crashed or was killed
	// (Target.targetCrashed); the target itself may stay listed.
	Crashed
)

func (k ChangeKind) String() string {
	switch k {
	case Created:
		return "created"
	case Destroyed:
		return "destroyed"
	case InfoChanged:
		return "info-changed"
	case Crashed:
		return "crashed"
	}
	return "unknown"
}

// Change is one change of the target set, as the pool saw it.
type Change struct {
	Kind   ChangeKind
	Target Info
	// Status and ErrorCode say how a renderer ended (Crashed only):
	// Chromium's termination status (crashed, killed, oom, …) and exit code.
	Status    string
	ErrorCode int
}

// Options configure [Open].
type Options struct {
	// HTTPURL is the DevTools HTTP endpoint, http://HOST:PORT (required
	// unless Flat; loopback only). /json/list is read there.
	HTTPURL string
	// BrowserWSURL is the browser socket. Default: webSocketDebuggerUrl
	// of HTTPURL/json/version. Required with Flat.
	BrowserWSURL string
	// Flat makes the pool use the browser socket alone (ADR-025): no HTTP
	// request is ever made, targets are listed with Target.getTargets, and
	// a target's connection is a flattened session on the browser socket
	// (Target.attachToTarget {flatten: true}, cdp.Conn.Attach) instead of
	// a socket of its own. For endpoints that offer one browser WebSocket:
	// a Selenium Grid session's se:cdp, Chrome's auto-connect, tunnels.
	Flat bool
	// Header goes with every WebSocket handshake of the pool (a remote
	// endpoint's auth token, ADR-027); never logged.
	Header http.Header
	// CallTimeout bounds each CDP call and each dial. Default 30s.
	CallTimeout time.Duration
	// OnChange, when set, sees every change of the target set, in order,
	// from the pool's own goroutine with no lock held. It may call the
	// pool; it should return soon, as later changes wait for it.
	OnChange func(Change)
}

// Pool holds the browser socket and one lazily opened socket per renderer
// target. It is safe for concurrent use.
type Pool struct {
	opts    Options
	browser *cdp.Conn
	life    context.Context // ends on Close: aborts dials in flight
	cancel  context.CancelFunc

	mu         sync.Mutex
	entries    map[string]*entry // live targets, and the newest destroyed ones (maxDestroyed)
	destroyed  int               // entries of destroyed targets
	seq        uint64
	destroyGen uint64
	listing    map[uint64]int // destroyGen at the start of each listing in flight → count
	sockets    map[string]*Socket
	watchers   []*watcher
	holders    []*holder                // Hold registrations (ADR-033)
	held       map[string]chan struct{} // new targets being held now → closed when let go
	closed     bool

	holdMu sync.Mutex // one auto-attach change at a time

	listeners atomic.Pointer[[]*listener]

	qmu   sync.Mutex
	tasks []task
	wake  chan struct{}
	quit  chan struct{}

	wg sync.WaitGroup // the dispatcher and every dial
}

type entry struct {
	info        Info
	listed      bool   // seen in /json/list at least once: its type is the listed one
	seen        uint64 // first-seen number: the listing order, stable while the entry lives
	destroyedAt uint64 // destroyGen when it was destroyed; 0 while alive
}

// maxDestroyed bounds the entries of destroyed targets the pool keeps (so
// that a late event or a listing in flight does not bring one back, and a
// gone target reads as SURFACE_CLOSED rather than SURFACE_NOT_FOUND). Past
// it the oldest go, down to half of it, except those a listing in flight
// may still report.
const maxDestroyed = 128

type listener struct {
	fn func(*Socket, cdp.Event)
}

type watcher struct {
	fn func(Change)
}

// task is one job of the dispatcher: a change to announce or a socket to
// close, in the order they happened.
type task struct {
	change *Change
	close  *Socket
}

// Socket is the pooled connection of one target. It is created before its
// dial starts, so a listener can tell sockets apart from their first event.
type Socket struct {
	targetID string
	ready    chan struct{} // closed when the dial has finished
	conn     *cdp.Conn     // set before ready is closed, nil on error
	err      error
	gone     chan struct{}
	goneOnce sync.Once

	childAttach bool // Target.setAutoAttach to its OOPIFs is on (a hold, ADR-033); under Pool.mu
}

func newSocket(id string) *Socket {
	return &Socket{targetID: id, ready: make(chan struct{}), gone: make(chan struct{})}
}

// TargetID returns the id of the socket's target (its root frame id).
func (s *Socket) TargetID() string { return s.targetID }

// Conn returns the connection, or nil while the socket is still dialling
// or when its dial failed. Sockets returned by [Pool.Socket] always have
// one.
func (s *Socket) Conn() *cdp.Conn {
	select {
	case <-s.ready:
		return s.conn
	default:
		return nil
	}
}

// Gone is closed when the pool drops the socket: its target was destroyed,
// its connection ended, or the pool closed.
func (s *Socket) Gone() <-chan struct{} { return s.gone }

func (s *Socket) markGone() { s.goneOnce.Do(func() { close(s.gone) }) }

// dead reports whether a finished dial failed or its connection ended.
func (s *Socket) dead() bool {
	select {
	case <-s.ready:
	default:
		return false // still dialling: share it
	}
	if s.err != nil || s.conn == nil {
		return true
	}
	select {
	case <-s.conn.Done():
		return true
	default:
		return false
	}
}

// Open dials the browser socket and starts target discovery
// (Target.setDiscoverTargets). Close the pool when done.
func Open(ctx context.Context, opts Options) (*Pool, error) {
	if opts.Flat && opts.BrowserWSURL == "" {
		return nil, errs.BadArg("BrowserWSURL", "the browser WebSocket is required in flat mode")
	}
	if opts.HTTPURL == "" && !opts.Flat {
		return nil, errs.BadArg("HTTPURL", "the DevTools HTTP endpoint is required")
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 30 * time.Second
	}
	if opts.BrowserWSURL == "" {
		v, err := browser.GetVersion(ctx, browser.Endpoint{HTTPURL: opts.HTTPURL})
		if err != nil {
			return nil, err
		}
		if v.WebSocketDebuggerURL == "" {
			return nil, errs.New(errs.CDPDisconnected, "%s/json/version names no browser socket", opts.HTTPURL)
		}
		opts.BrowserWSURL = v.WebSocketDebuggerURL
	}
	p := &Pool{
		opts:    opts,
		entries: map[string]*entry{},
		listing: map[uint64]int{},
		sockets: map[string]*Socket{},
		held:    map[string]chan struct{}{},
		wake:    make(chan struct{}, 1),
		quit:    make(chan struct{}),
	}
	p.life, p.cancel = context.WithCancel(context.Background())
	if opts.OnChange != nil {
		p.watchers = []*watcher{{fn: opts.OnChange}}
	}
	p.wg.Add(1)
	go p.run()
	c, err := cdp.Dial(ctx, opts.BrowserWSURL, &cdp.Options{CallTimeout: opts.CallTimeout, OnEvent: p.onBrowserEvent, Header: opts.Header})
	if err != nil {
		p.cancel()
		close(p.quit)
		p.wg.Wait()
		return nil, err
	}
	p.browser = c
	// Number the targets that exist already in /json/list order reversed
	// (oldest first) before discovery reports them in an order of its own.
	if _, err := p.List(ctx); err != nil {
		_ = p.Close()
		return nil, err
	}
	if err := c.Call(ctx, "Target.setDiscoverTargets", map[string]any{"discover": true}, nil); err != nil {
		_ = p.Close()
		return nil, err
	}
	return p, nil
}

// Browser returns the browser-level connection.
func (p *Pool) Browser() *cdp.Conn { return p.browser }

// Flat reports whether the pool runs on the browser socket alone
// (Options.Flat).
func (p *Pool) Flat() bool { return p.opts.Flat }

// Listen registers fn for every event of every pooled target socket. fn runs
// on that socket's reader goroutine, in order: it must not block and must
// not wait for a call on that socket. A socket dialled after Listen returns
// delivers all of its events to fn. After remove returns, fn may still be
// running once for an event in flight, and then is not called again.
func (p *Pool) Listen(fn func(s *Socket, ev cdp.Event)) (remove func()) {
	l := &listener{fn: fn}
	p.mu.Lock()
	var next []*listener
	if cur := p.listeners.Load(); cur != nil {
		next = slices.Clone(*cur)
	}
	next = append(next, l)
	p.listeners.Store(&next)
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			cur := p.listeners.Load()
			if cur == nil {
				return
			}
			next := slices.DeleteFunc(slices.Clone(*cur), func(x *listener) bool { return x == l })
			p.listeners.Store(&next)
		})
	}
}

// Watch registers fn for every later change of the target set. It runs
// like [Options.OnChange].
func (p *Pool) Watch(fn func(Change)) (remove func()) {
	w := &watcher{fn: fn}
	p.mu.Lock()
	p.watchers = append(p.watchers, w)
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			p.watchers = slices.DeleteFunc(slices.Clone(p.watchers), func(x *watcher) bool { return x == w })
			p.mu.Unlock()
		})
	}
}

func (p *Pool) fanout(s *Socket, ev cdp.Event) {
	ls := p.listeners.Load()
	if ls == nil {
		return
	}
	for _, l := range *ls {
		l.fn(s, ev)
	}
}

// cdpTargetInfo is the part of Target.TargetInfo the pool reads.
type cdpTargetInfo struct {
	TargetID      string `json:"targetId"`
	Type          string `json:"type"`
	Title         string `json:"title"`
	URL           string `json:"url"`
	ParentID      string `json:"parentId"`
	ParentFrameID string `json:"parentFrameId"`
	OpenerID      string `json:"openerId"`
}

// onBrowserEvent runs on the browser socket's reader goroutine.
func (p *Pool) onBrowserEvent(ev cdp.Event) {
	if ev.SessionID != "" {
		return
	}
	switch ev.Method {
	case "Target.attachedToTarget":
		p.onAttached(ev.Params)
	case "Target.targetCreated", "Target.targetInfoChanged":
		var m struct {
			TargetInfo cdpTargetInfo `json:"targetInfo"`
		}
		if json.Unmarshal(ev.Params, &m) != nil || m.TargetInfo.TargetID == "" {
			return
		}
		p.upsert(m.TargetInfo)
	case "Target.targetDestroyed":
		var m struct {
			TargetID string `json:"targetId"`
		}
		if json.Unmarshal(ev.Params, &m) != nil || m.TargetID == "" {
			return
		}
		p.destroy(m.TargetID)
	case "Target.targetCrashed":
		var m struct {
			TargetID  string `json:"targetId"`
			Status    string `json:"status"`
			ErrorCode int    `json:"errorCode"`
		}
		if json.Unmarshal(ev.Params, &m) != nil || m.TargetID == "" {
			return
		}
		p.crashed(m.TargetID, m.Status, m.ErrorCode)
	}
}

// crashed reports a renderer crash of a known target to the watchers.
func (p *Pool) crashed(id, status string, code int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.entries[id]
	if p.closed || e == nil || e.destroyedAt != 0 {
		return
	}
	p.enqueueLocked(task{change: &Change{Kind: Crashed, Target: e.info, Status: status, ErrorCode: code}})
}

func (p *Pool) upsert(ti cdpTargetInfo) {
	parent := ti.ParentID
	if parent == "" {
		parent = ti.ParentFrameID
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	e := p.entries[ti.TargetID]
	if e == nil && !IsRenderer(ti.Type) {
		return
	}
	e, kind := p.revive(ti.TargetID, e)
	old := e.info
	// The listed type wins: an Electron host names a guest "webview" in
	// /json/list, and its events need not.
	if !e.listed && ti.Type != "" {
		e.info.Type = ti.Type
	}
	e.info.Title = ti.Title
	e.info.URL = ti.URL
	if parent != "" {
		e.info.ParentID = parent
	}
	if ti.OpenerID != "" {
		e.info.OpenerID = ti.OpenerID
	}
	if kind == InfoChanged && old == e.info {
		return
	}
	p.enqueueLocked(task{change: &Change{Kind: kind, Target: e.info}})
}

func (p *Pool) destroy(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	e := p.entries[id]
	if e == nil || e.destroyedAt != 0 {
		return
	}
	p.destroyGen++
	e.destroyedAt = p.destroyGen
	p.destroyed++
	p.pruneLocked()
	if s := p.sockets[id]; s != nil {
		delete(p.sockets, id)
		s.markGone()
		select {
		case <-s.ready:
			p.enqueueLocked(task{close: s})
		default:
			// Still dialling: the dial sees it was dropped and closes it.
		}
	}
	p.enqueueLocked(task{change: &Change{Kind: Destroyed, Target: e.info}})
}

// revive returns the entry of a target that is reported alive (e, or a new
// one) and whether that is news (Created: new, or destroyed before) or an
// InfoChanged, and marks it seen. Callers hold p.mu.
func (p *Pool) revive(id string, e *entry) (*entry, ChangeKind) {
	kind := InfoChanged
	if e == nil {
		e = &entry{info: Info{ID: id}}
		p.entries[id] = e
		kind = Created
	} else if e.destroyedAt != 0 {
		e.destroyedAt = 0
		p.destroyed--
		kind = Created
	}
	if e.seen == 0 {
		p.seq++
		e.seen = p.seq
	}
	return e, kind
}

// pruneLocked forgets the oldest destroyed targets once more than
// maxDestroyed are kept, down to half of that. An entry destroyed after a
// listing in flight started stays: that listing may still report it, and
// its destroyedAt is what tells the listing to leave it out. Callers hold
// p.mu.
func (p *Pool) pruneLocked() {
	if p.destroyed <= maxDestroyed {
		return
	}
	oldest := p.destroyGen // entries destroyed after this stay
	for gen := range p.listing {
		oldest = min(oldest, gen)
	}
	var gone []*entry
	for _, e := range p.entries {
		if e.destroyedAt != 0 && e.destroyedAt <= oldest {
			gone = append(gone, e)
		}
	}
	slices.SortFunc(gone, func(a, b *entry) int { return compareUint(a.destroyedAt, b.destroyedAt) })
	for _, e := range gone[:max(0, min(len(gone), p.destroyed-maxDestroyed/2))] {
		delete(p.entries, e.info.ID)
		p.destroyed--
	}
}

// PoolStats counts what a pool keeps, for tests that prove it bounded.
type PoolStats struct {
	Targets   int // live renderer targets known
	Destroyed int // destroyed targets still remembered (at most about maxDestroyed)
	Sockets   int // open or dialling sockets
	Listeners int // Listen registrations
	Watchers  int // Watch registrations (OnChange included)
	Holds     int // Hold registrations
	Held      int // new targets waiting for the hold functions now
	// ChildAttach counts the sockets with auto-attach to their OOPIFs on
	// (while a hold is registered, ADR-033).
	ChildAttach int
}

// Stats counts what the pool keeps now.
func (p *Pool) Stats() PoolStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := PoolStats{Targets: len(p.entries) - p.destroyed, Destroyed: p.destroyed, Sockets: len(p.sockets), Watchers: len(p.watchers),
		Holds: len(p.holders), Held: len(p.held)}
	if ls := p.listeners.Load(); ls != nil {
		st.Listeners = len(*ls)
	}
	for _, s := range p.sockets {
		if s.childAttach {
			st.ChildAttach++
		}
	}
	return st
}

// enqueueLocked queues a task for the dispatcher. Callers hold p.mu, so
// tasks queue in the order the pool saw what they report.
func (p *Pool) enqueueLocked(t task) {
	p.qmu.Lock()
	p.tasks = append(p.tasks, t)
	p.qmu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// run is the dispatcher: it announces changes and closes dropped sockets,
// off every lock and off every reader goroutine.
func (p *Pool) run() {
	defer p.wg.Done()
	for {
		p.qmu.Lock()
		tasks := p.tasks
		p.tasks = nil
		p.qmu.Unlock()
		for i, t := range tasks {
			select {
			case <-p.quit:
				p.requeue(tasks[i:]) // Close closes the sockets left
				return
			default:
			}
			p.do(t)
		}
		if len(tasks) > 0 {
			continue
		}
		select {
		case <-p.wake:
		case <-p.quit:
			return
		}
	}
}

func (p *Pool) requeue(ts []task) {
	p.qmu.Lock()
	p.tasks = append(ts, p.tasks...)
	p.qmu.Unlock()
}

func (p *Pool) do(t task) {
	if t.close != nil {
		if t.close.conn != nil { // queued only once ready
			_ = t.close.conn.Close()
		}
	}
	if t.change != nil {
		p.mu.Lock()
		ws := slices.Clone(p.watchers)
		p.mu.Unlock()
		for _, w := range ws {
			w.fn(*t.change)
		}
	}
}

// List reads /json/list and returns its renderer targets (page, webview,
// iframe) in first-seen order: the pool numbers each target id when it first
// sees it (from an event or a listing; within one listing oldest first, as
// /json/list lists newest first) and keeps that number while it remembers
// the target (alive, and for a while after it is destroyed).
func (p *Pool) List(ctx context.Context) ([]Info, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errClosed()
	}
	gen := p.destroyGen
	p.listing[gen]++
	p.mu.Unlock()
	var ts []browser.Target
	var raw map[string]string
	var err error
	if p.opts.Flat {
		ts, raw, err = p.protocolTargets(ctx)
	} else {
		ts, err = browser.ListTargets(ctx, browser.Endpoint{HTTPURL: p.opts.HTTPURL})
		if err == nil && escapedTitles(ts) {
			raw = p.rawTitles(ctx) // a CDP call: not under p.mu
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.listing[gen]--; p.listing[gen] == 0 {
		delete(p.listing, gen)
	}
	if err != nil {
		return nil, err
	}
	out := make([]Info, 0, len(ts))
	for i := len(ts) - 1; i >= 0; i-- {
		t := ts[i]
		if !IsRenderer(t.Type) || t.ID == "" {
			continue
		}
		e := p.entries[t.ID]
		if e != nil && e.destroyedAt > gen {
			continue // destroyed while the listing was on its way
		}
		e, kind := p.revive(t.ID, e)
		old := e.info
		e.listed = true
		e.info.Type = t.Type
		e.info.Title = titleOf(t.ID, t.Title, raw)
		e.info.URL = t.URL
		if t.ParentID != "" || !p.opts.Flat {
			// Flat: a webview guest's parent is not in TargetInfo; keep
			// one an event named.
			e.info.ParentID = t.ParentID
		}
		e.info.WSURL = t.WebSocketDebuggerURL
		if kind == Created || old != e.info {
			p.enqueueLocked(task{change: &Change{Kind: kind, Target: e.info}})
		}
		out = append(out, e.info)
	}
	slices.SortStableFunc(out, func(a, b Info) int {
		return compareUint(p.entries[a.ID].seen, p.entries[b.ID].seen)
	})
	return out, nil
}

// protocolTargets lists the targets with Target.getTargets on the browser
// socket, as /json/list would (newest first), for flat mode: the parent is
// TargetInfo's parentFrameId (an OOPIF's; a webview guest names none), and
// titles are the raw ones.
func (p *Pool) protocolTargets(ctx context.Context) ([]browser.Target, map[string]string, error) {
	var out struct {
		TargetInfos []cdpTargetInfo `json:"targetInfos"`
	}
	if err := p.browser.Call(ctx, "Target.getTargets", nil, &out); err != nil {
		return nil, nil, err
	}
	ts := make([]browser.Target, 0, len(out.TargetInfos))
	raw := make(map[string]string, len(out.TargetInfos))
	for i := len(out.TargetInfos) - 1; i >= 0; i-- { // getTargets lists oldest first
		ti := out.TargetInfos[i]
		ts = append(ts, browser.Target{ID: ti.TargetID, Type: ti.Type, Title: ti.Title, URL: ti.URL,
			ParentID: cmp.Or(ti.ParentID, ti.ParentFrameID)})
		raw[ti.TargetID] = ti.Title
	}
	return ts, raw, nil
}

// rawTitles returns the titles the protocol reports (Target.getTargets), by
// target id, or nil when the call fails. /json/list escapes titles for HTML
// (a window titled "Tom & Jerry" is listed as "Tom &amp; Jerry").
func (p *Pool) rawTitles(ctx context.Context) map[string]string {
	if p.browser == nil {
		return nil
	}
	var out struct {
		TargetInfos []cdpTargetInfo `json:"targetInfos"`
	}
	if err := p.browser.Call(ctx, "Target.getTargets", nil, &out); err != nil {
		return nil
	}
	m := make(map[string]string, len(out.TargetInfos))
	for _, ti := range out.TargetInfos {
		m[ti.TargetID] = ti.Title
	}
	return m
}

// escapedTitles reports whether a /json/list title may differ from the raw
// one: its HTML escaping always writes an '&', so a listing without one
// holds the raw titles and needs no Target.getTargets round trip.
func escapedTitles(ts []browser.Target) bool {
	for _, t := range ts {
		if strings.IndexByte(t.Title, '&') >= 0 {
			return true
		}
	}
	return false
}

// titleOf is a target's raw title: the protocol's, else the /json/list one
// unescaped (the exact inverse of the HTML escaping applied there).
func titleOf(id, listed string, raw map[string]string) string {
	if t, ok := raw[id]; ok {
		return t
	}
	return html.UnescapeString(listed)
}

func compareUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Windows returns the window roots, page and webview targets, of a fresh
// listing in first-seen order.
func (p *Pool) Windows(ctx context.Context) ([]Info, error) {
	all, err := p.List(ctx)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(i Info) bool { return !IsWindow(i.Type) }), nil
}

// Known returns what the pool knows of a live target, without I/O.
func (p *Pool) Known(id string) (Info, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.entries[id]
	if e == nil || e.destroyedAt != 0 {
		return Info{}, false
	}
	return e.info, true
}

// Live returns what the pool knows of its live targets, in first-seen
// order, without I/O. Paired with [Pool.Watch] registered first, it misses
// no target: one the pool has not recorded yet is announced to the watcher.
func (p *Pool) Live() []Info {
	// An entry's info and seen change under p.mu (upsert, revive): both
	// are read under it too (the race detector saw Live read an info
	// that a browser event was writing).
	p.mu.Lock()
	defer p.mu.Unlock()
	es := make([]*entry, 0, len(p.entries))
	for _, e := range p.entries {
		if e.destroyedAt == 0 {
			es = append(es, e)
		}
	}
	slices.SortFunc(es, func(a, b *entry) int { return compareUint(a.seen, b.seen) })
	out := make([]Info, len(es))
	for i, e := range es {
		out[i] = e.info
	}
	return out
}

// Conn returns the connection of a target's socket; see [Pool.Socket].
func (p *Pool) Conn(ctx context.Context, targetID string) (*cdp.Conn, error) {
	s, err := p.Socket(ctx, targetID)
	if err != nil {
		return nil, err
	}
	return s.conn, nil
}

// Socket returns the socket of a target, dialling it from its
// webSocketDebuggerUrl on first use (reading /json/list if the pool has not
// listed the target yet). Concurrent callers for one id share one dial; the
// dial itself belongs to the pool, so a caller whose ctx ends stops waiting
// without failing the others. A socket whose connection has ended is
// replaced by a new one on the next call. A target that is gone is
// SURFACE_CLOSED; one never seen is SURFACE_NOT_FOUND.
func (p *Pool) Socket(ctx context.Context, targetID string) (*Socket, error) {
	for attempt := 0; ; attempt++ {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, errClosed()
		}
		s := p.sockets[targetID]
		if s != nil && s.dead() {
			delete(p.sockets, targetID)
			s.markGone()
			p.enqueueLocked(task{close: s})
			s = nil
		}
		if s == nil {
			e := p.entries[targetID]
			alive := e != nil && e.destroyedAt == 0
			var wsURL string
			if alive {
				wsURL = cmp.Or(e.info.WSURL, p.derivedWSURLLocked(targetID))
			}
			if !alive || (wsURL == "" && !p.opts.Flat) {
				p.mu.Unlock()
				if attempt == 0 {
					if _, err := p.List(ctx); err != nil {
						return nil, err
					}
					continue
				}
				switch {
				case e == nil:
					return nil, errs.New(errs.SurfaceNotFound, "no target %s", targetID)
				case !alive:
					return nil, errs.New(errs.SurfaceClosed, "target %s is gone", targetID)
				}
				return nil, errs.New(errs.CDPDisconnected, "target %s has no webSocketDebuggerUrl", targetID)
			}
			s = newSocket(targetID)
			p.sockets[targetID] = s
			p.wg.Add(1)
			go p.dial(s, wsURL)
		}
		p.mu.Unlock()
		select {
		case <-s.ready:
			if s.err != nil {
				return nil, s.err
			}
			return s, nil
		case <-ctx.Done():
			return nil, errs.FromContext(ctx, errs.CDPTimeout, "connecting to target "+targetID)
		}
	}
}

// derivedWSURLLocked is target id's socket address made from a listed
// target's: Chromium (and Electron, and a proxy in front of either) serve
// every target at …/devtools/page/ID, the address /json/list names. It
// saves a listing, and /json/list does not answer at all while a new OOPIF
// waits for the debugger (a hold, ADR-033; measured on Chromium 156).
// "" when no listed address ends with its target's id. Callers hold p.mu.
func (p *Pool) derivedWSURLLocked(id string) string {
	if p.opts.Flat {
		return ""
	}
	for oid, e := range p.entries {
		if u := e.info.WSURL; u != "" && strings.HasSuffix(u, "/devtools/page/"+oid) {
			return strings.TrimSuffix(u, oid) + id
		}
	}
	return ""
}

// dial opens one socket. It belongs to the pool (wg), not to the caller
// that asked first.
func (p *Pool) dial(s *Socket, url string) {
	defer p.wg.Done()
	ctx, cancel := context.WithTimeout(p.life, p.opts.CallTimeout)
	defer cancel()
	var c *cdp.Conn
	var err error
	onEvent := func(ev cdp.Event) {
		if ev.SessionID == "" && ev.Method == "Target.attachedToTarget" {
			p.onChildAttached(s, ev.Params) // an OOPIF a hold paused
		}
		p.fanout(s, ev)
	}
	if p.opts.Flat {
		c, err = p.browser.Attach(ctx, s.targetID, onEvent)
	} else {
		c, err = cdp.Dial(ctx, url, &cdp.Options{
			CallTimeout: p.opts.CallTimeout,
			OnEvent:     onEvent,
			Header:      p.opts.Header,
		})
	}
	var stale *cdp.Conn
	p.mu.Lock()
	if err == nil && (p.closed || p.sockets[s.targetID] != s) {
		stale, c = c, nil
		err = errs.New(errs.SurfaceClosed, "target %s went away while connecting", s.targetID)
	}
	if err != nil && p.sockets[s.targetID] == s {
		delete(p.sockets, s.targetID)
	}
	s.conn, s.err = c, err
	close(s.ready) // under p.mu: destroy and Close see a consistent socket
	if err == nil && len(p.holders) > 0 {
		// A socket opened while a hold is registered holds its target's
		// new OOPIFs too (ADR-033).
		p.wg.Go(func() {
			ctx, cancel := context.WithTimeout(p.life, holdTimeout)
			defer cancel()
			p.childAttach(ctx, s.targetID)
		})
	}
	p.mu.Unlock()
	if err != nil {
		s.markGone()
	}
	if stale != nil {
		_ = stale.Close()
	}
}

// Close closes every target socket and the browser socket and waits for the
// pool's goroutines. It never closes the browser itself.
func (p *Pool) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	socks := make([]*Socket, 0, len(p.sockets))
	for _, s := range p.sockets {
		socks = append(socks, s)
	}
	clear(p.sockets)
	p.mu.Unlock()
	p.cancel()
	if p.browser != nil {
		_ = p.browser.Close()
	}
	close(p.quit)
	p.wg.Wait()
	p.qmu.Lock()
	left := p.tasks
	p.tasks = nil
	p.qmu.Unlock()
	for _, t := range left {
		if t.close != nil {
			socks = append(socks, t.close)
		}
	}
	for _, s := range socks {
		s.markGone()
		<-s.ready // every dial has ended (wg)
		if s.conn != nil {
			_ = s.conn.Close()
		}
	}
	return nil
}

func errClosed() error { return errs.New(errs.CDPDisconnected, "the target pool is closed") }
