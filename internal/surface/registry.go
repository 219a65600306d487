package surface

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/target"
)

// The surface kinds CDP can prove (ADR-029): page targets are "other",
// webview targets "webview", OOPIF targets and in-process frames "frame".
const (
	KindOther   = "other"
	KindWebview = "webview"
	KindFrame   = "frame"
)

// The origin relations of a frame to its parent.
const (
	SameOrigin  = "same-origin"
	CrossOrigin = "cross-origin"
	Opaque      = "opaque"
)

// Capabilities say what can be done in a surface now. A frame with no
// document (no default execution context) yet can do nothing; a frame with
// no input root above it cannot take pointer or key input.
type Capabilities struct {
	Snapshot     bool `json:"snapshot"`
	Interaction  bool `json:"interaction"`
	RendererEval bool `json:"rendererEval"`
}

// Descriptor is one live surface as agents see it. ParentID is the parent's
// surface id ("" for a root); OriginRelation is "" for roots.
type Descriptor struct {
	ID             string       `json:"id"`
	Kind           string       `json:"kind"`
	ParentID       string       `json:"parentId,omitempty"`
	Title          string       `json:"title"`
	URL            string       `json:"url"`
	Active         bool         `json:"active"`
	Capabilities   Capabilities `json:"capabilities"`
	OriginRelation string       `json:"originRelation,omitempty"`
	// Unresponsive: the surface's renderer did not describe its frames
	// within a few seconds at the last listing (a script that does not
	// return, docs/adr/041); what is shown of it is what was known before.
	Unresponsive bool `json:"unresponsive,omitempty"`

	// FrameID is the CDP frame id behind the surface (for a target, its
	// target id). It is for the session's own bookkeeping (window entries
	// name their surface), never shown to agents as an id.
	FrameID string `json:"-"`
}

// Options configure [New].
type Options struct {
	// SessionID prefixes every surface id (required).
	SessionID string
	// Pool is the session's target pool (required). The registry does not
	// own it: closing the registry leaves the pool open.
	Pool *target.Pool
	// ContextWait bounds how long resolving waits for a frame's default
	// execution context (after a navigation, or while a frame moves to
	// another process) when the caller's context allows. Default 5s.
	ContextWait time.Duration
}

// Registry maps the frames of one session to surface ids and resolves them.
// It is safe for concurrent use. It never holds its lock across a CDP call.
type Registry struct {
	sessionID   string
	pool        *target.Pool
	contextWait time.Duration
	unlisten    func()
	unwatch     func()

	mu           sync.Mutex
	n            int
	epoch        uint64 // bumped by every event that changes a node
	byFrame      map[string]*node
	byID         map[string]*node
	order        []*node // the last listing, parent-first
	states       map[*target.Socket]*sockState
	current      map[string]*sockState // target id → its current socket's state
	active       *node
	activeWindow string
	changed      chan struct{} // closed and replaced on every change
	onClosed     func(surfaceID string)

	calls sync.Map // method → *atomic.Int64
}

// maxTombstones bounds the records of closed surfaces the registry keeps
// whole (so that a frame id that reappears, such as a frame moving between
// processes, revives its surface id). Past it the oldest closed records go,
// down to half of it; their ids stay answerable as SURFACE_CLOSED, because
// surface ids are numbered and never reused: an id the registry issued and
// holds no record of is closed (see [Registry.issuedLocked]).
const maxTombstones = 128

// node is the record of one frame id. A live node lives while its frame
// does; a closed one (a tombstone) until maxTombstones newer ones push it
// out.
type node struct {
	id      string // <sessionId>-surface-<n>
	frameID string
	kind    string

	isTarget   bool   // the frame is a target's root frame
	targetType string // page, webview, iframe; "" for in-process frames
	host       string // the target whose socket hosts the frame
	parent     string // parent frame id; "" for none

	title, url, origin string
	live               bool
	// crashed says why the surface's renderer went (a crash): it stays a
	// tombstone, whatever listings say, until a new document loads in it.
	crashed string
	// unresponsive: its target did not answer the last listing in time.
	unresponsive bool
	touched      uint64 // epoch of the last event that changed it

	// From the last listing.
	rank         int // targets: listing order; in-process frames: tree order
	listedAsRoot bool

	// The frame's offset in its window's viewport at the last pointer
	// action (Resolution.SteadyOffset).
	offX, offY float64
	offSeen    bool
}

// sockState is what the registry tracks on one target socket.
type sockState struct {
	sock     *target.Socket
	enableMu sync.Mutex
	enabled  atomic.Bool
	contexts map[int64]string // context id → frame id (default main worlds only)
	defaults map[string]int64 // frame id → its default main-world context
}

// New builds a registry on a pool and starts following its events. Call
// Close when the session ends.
func New(opts Options) (*Registry, error) {
	if opts.SessionID == "" {
		return nil, errs.BadArg("SessionID", "a session id is required")
	}
	if opts.Pool == nil {
		return nil, errs.BadArg("Pool", "a target pool is required")
	}
	if opts.ContextWait <= 0 {
		opts.ContextWait = 5 * time.Second
	}
	r := &Registry{
		sessionID:   opts.SessionID,
		pool:        opts.Pool,
		contextWait: opts.ContextWait,
		byFrame:     map[string]*node{},
		byID:        map[string]*node{},
		states:      map[*target.Socket]*sockState{},
		current:     map[string]*sockState{},
		changed:     make(chan struct{}),
	}
	// Listen before any socket is asked for, so no event is missed.
	r.unlisten = opts.Pool.Listen(r.onSocketEvent)
	r.unwatch = opts.Pool.Watch(r.onTargetChange)
	return r, nil
}

// OnClosed sets fn to be told the id of every surface that becomes a
// tombstone (the session drops its per-surface state with it). fn runs with
// the registry's lock held, on whatever goroutine saw the surface go: it
// must not block and must not call the registry.
func (r *Registry) OnClosed(fn func(surfaceID string)) {
	r.mu.Lock()
	r.onClosed = fn
	r.mu.Unlock()
}

// Stats counts what the registry keeps, for tests that prove it bounded.
type Stats struct {
	Nodes      int // frame records, live and closed
	Live       int // live surfaces
	Tombstones int // closed surfaces kept whole (at most maxTombstones)
	Sockets    int // sockets with tracked state
	Contexts   int // tracked execution contexts over all sockets
	Defaults   int // frames with a known default context over all sockets
}

// Stats counts what the registry keeps now.
func (r *Registry) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := Stats{Nodes: len(r.byFrame), Sockets: len(r.states)}
	for _, n := range r.byFrame {
		if n.live {
			st.Live++
		} else {
			st.Tombstones++
		}
	}
	for _, ss := range r.states {
		st.Contexts += len(ss.contexts)
		st.Defaults += len(ss.defaults)
	}
	return st
}

// closedErr is SURFACE_CLOSED for a tombstone, with why when its renderer
// crashed.
func closedErr(n *node) *errs.Error {
	if n.crashed != "" {
		return errs.New(errs.SurfaceClosed, "surface %s is closed: %s", n.id, n.crashed).With("surfaceId", n.id).With("reason", n.crashed)
	}
	return errs.New(errs.SurfaceClosed, "surface %s is closed", n.id).With("surfaceId", n.id)
}

// closeLocked makes n a tombstone: its frame is gone. Callers hold r.mu.
func (r *Registry) closeLocked(n *node) {
	if !n.live {
		return
	}
	n.live = false
	r.touchLocked(n)
	if r.onClosed != nil {
		r.onClosed(n.id)
	}
}

// pruneLocked forgets the oldest tombstones once there are more than
// maxTombstones, down to half of that. The selected surface's record stays
// (the fallback from a closed window needs it). Callers hold r.mu.
func (r *Registry) pruneLocked() {
	var dead []*node
	for _, n := range r.byFrame {
		if !n.live && n != r.active {
			dead = append(dead, n)
		}
	}
	if len(dead) <= maxTombstones {
		return
	}
	slices.SortFunc(dead, func(a, b *node) int { return cmp.Compare(a.touched, b.touched) })
	for _, n := range dead[:len(dead)-maxTombstones/2] {
		delete(r.byFrame, n.frameID)
		delete(r.byID, n.id)
	}
}

// issuedLocked reports whether id is a surface id this registry issued:
// ids are "<sessionId>-surface-<n>" numbered from 1 and never reused, so
// every n up to the last one issued was. Callers hold r.mu.
func (r *Registry) issuedLocked(id string) bool {
	rest, ok := strings.CutPrefix(id, r.sessionID+"-surface-")
	if !ok {
		return false
	}
	n, err := strconv.Atoi(rest)
	return err == nil && n >= 1 && n <= r.n && strconv.Itoa(n) == rest
}

// unknownLocked is the error for an id with no record: SURFACE_CLOSED for
// one the registry issued (its tombstone was pruned), else
// SURFACE_NOT_FOUND. Callers hold r.mu.
func (r *Registry) unknownLocked(id string) error {
	if r.issuedLocked(id) {
		return errs.New(errs.SurfaceClosed, "surface %s is closed", id).With("surfaceId", id)
	}
	return errs.New(errs.SurfaceNotFound, "no surface %q in this session", id).With("surfaceId", id)
}

// Close stops following the pool. It does not close the pool.
func (r *Registry) Close() {
	r.unlisten()
	r.unwatch()
}

// CallCount returns how many CDP calls of method the registry and its
// resolutions have made ("" counts every method). Tests use it to prove the
// costs ADR-029 sets.
func (r *Registry) CallCount(method string) int64 {
	var total int64
	r.calls.Range(func(k, v any) bool {
		if method == "" || k.(string) == method {
			total += v.(*atomic.Int64).Load()
		}
		return true
	})
	return total
}

func (r *Registry) call(ctx context.Context, c *cdp.Conn, method string, params, result any) error {
	r.count(method)
	return c.Call(ctx, method, params, result)
}

// start sends a call without waiting for its reply (cdp.Conn.Start), so
// that calls sent one after another share one round trip; counted as
// call counts.
func (r *Registry) start(ctx context.Context, c *cdp.Conn, method string) (*cdp.Pending, error) {
	r.count(method)
	return c.Start(ctx, method, nil)
}

func (r *Registry) count(method string) {
	v, ok := r.calls.Load(method)
	if !ok {
		v, _ = r.calls.LoadOrStore(method, new(atomic.Int64))
	}
	v.(*atomic.Int64).Add(1)
}

// bumpLocked wakes every resolver waiting for a change. Callers hold r.mu.
func (r *Registry) bumpLocked() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// touchLocked marks n as changed by an event. Callers hold r.mu.
func (r *Registry) touchLocked(n *node) {
	r.epoch++
	n.touched = r.epoch
}

// nodeLocked returns the record of a frame id, creating it (and its surface
// id) on first sight. Callers hold r.mu.
func (r *Registry) nodeLocked(frameID string) *node {
	if n := r.byFrame[frameID]; n != nil {
		return n
	}
	r.n++
	n := &node{id: fmt.Sprintf("%s-surface-%d", r.sessionID, r.n), frameID: frameID, kind: KindFrame}
	r.byFrame[frameID] = n
	r.byID[n.id] = n
	return n
}

func kindOf(targetType string) string {
	switch targetType {
	case target.TypePage:
		return KindOther
	case target.TypeWebview:
		return KindWebview
	}
	return KindFrame
}

// setTargetLocked records what the pool knows of a target.
func setTargetLocked(n *node, info target.Info) {
	n.isTarget = true
	n.targetType = info.Type
	n.kind = kindOf(info.Type)
	n.host = info.ID
	n.parent = info.ParentID
	n.title = info.Title
	if info.URL != "" {
		n.url = info.URL
	}
}

// onTargetChange runs on the pool's dispatcher goroutine.
func (r *Registry) onTargetChange(ch target.Change) {
	if !target.IsRenderer(ch.Target.Type) {
		return
	}
	id := ch.Target.ID
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ch.Kind {
	case target.Created, target.InfoChanged:
		n := r.nodeLocked(id)
		info := ch.Target
		moved := !n.isTarget || n.host != id
		structural := moved || !n.live || n.parent != info.ParentID || n.targetType != info.Type
		setTargetLocked(n, info)
		n.live = n.crashed == ""
		if moved {
			n.origin = "" // the URL's origin until a frame tree says
		}
		if structural {
			r.touchLocked(n)
		}
	case target.Crashed:
		why := "its renderer crashed"
		if ch.Status != "" {
			why = fmt.Sprintf("its renderer ended (%s, code %d)", ch.Status, ch.ErrorCode)
		}
		for _, n := range r.byFrame {
			if n.host == id && n.live {
				n.crashed = why
				r.closeLocked(n)
			}
		}
		r.pruneLocked()
	case target.Destroyed:
		delete(r.current, id)
		for sock := range r.states {
			if sock.TargetID() == id {
				delete(r.states, sock) // every socket the target had
			}
		}
		for _, n := range r.byFrame {
			// A frame that has moved into another target's process since
			// is not gone.
			if n.host == id && n.live {
				r.closeLocked(n)
			}
		}
		r.pruneLocked()
	}
	r.bumpLocked()
}

// The event shapes the registry reads.
type (
	contextCreated struct {
		Context struct {
			ID      int64 `json:"id"`
			AuxData struct {
				IsDefault bool   `json:"isDefault"`
				FrameID   string `json:"frameId"`
			} `json:"auxData"`
		} `json:"context"`
	}
	contextDestroyed struct {
		ExecutionContextID int64 `json:"executionContextId"`
	}
	frameAttached struct {
		FrameID       string `json:"frameId"`
		ParentFrameID string `json:"parentFrameId"`
	}
	frameDetached struct {
		FrameID string `json:"frameId"`
		Reason  string `json:"reason"`
	}
	frameNavigated struct {
		Frame cdpFrame `json:"frame"`
	}
	cdpFrame struct {
		ID             string `json:"id"`
		ParentID       string `json:"parentId"`
		URL            string `json:"url"`
		URLFragment    string `json:"urlFragment"`
		SecurityOrigin string `json:"securityOrigin"`
	}
	frameTree struct {
		Frame       cdpFrame    `json:"frame"`
		ChildFrames []frameTree `json:"childFrames"`
	}
)

// onSocketEvent runs on a target socket's reader goroutine: it only updates
// state under r.mu and never calls CDP.
func (r *Registry) onSocketEvent(s *target.Socket, ev cdp.Event) {
	if ev.SessionID != "" {
		return
	}
	switch ev.Method {
	case "Runtime.executionContextCreated", "Runtime.executionContextDestroyed",
		"Runtime.executionContextsCleared", "Page.frameAttached", "Page.frameDetached",
		"Page.frameNavigated":
	default:
		return
	}
	select {
	case <-s.Gone():
		return // a late event of a dropped socket
	default:
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.stateLocked(s)
	host := s.TargetID()
	switch ev.Method {
	case "Runtime.executionContextCreated":
		var m contextCreated
		if unmarshal(ev.Params, &m) != nil || !m.Context.AuxData.IsDefault || m.Context.AuxData.FrameID == "" {
			return
		}
		st.contexts[m.Context.ID] = m.Context.AuxData.FrameID
		st.defaults[m.Context.AuxData.FrameID] = m.Context.ID
	case "Runtime.executionContextDestroyed":
		var m contextDestroyed
		if unmarshal(ev.Params, &m) != nil {
			return
		}
		if f, ok := st.contexts[m.ExecutionContextID]; ok {
			delete(st.contexts, m.ExecutionContextID)
			if st.defaults[f] == m.ExecutionContextID {
				delete(st.defaults, f)
			}
		}
	case "Runtime.executionContextsCleared":
		clear(st.contexts)
		clear(st.defaults)
	case "Page.frameAttached":
		var m frameAttached
		if unmarshal(ev.Params, &m) != nil || m.FrameID == "" || m.FrameID == host {
			return
		}
		n := r.nodeLocked(m.FrameID)
		r.hostInProcessLocked(n, host, m.ParentFrameID)
	case "Page.frameNavigated":
		var m frameNavigated
		if unmarshal(ev.Params, &m) != nil || m.Frame.ID == "" {
			return
		}
		var n *node
		if m.Frame.ID == host {
			// The target's own root: only its description changes (the
			// pool and listings own a target's structure) — unless its
			// renderer had crashed: a new document is a new renderer.
			if n = r.byFrame[host]; n == nil {
				return
			}
			if n.crashed != "" {
				n.crashed, n.live = "", true
				r.touchLocked(n)
			}
		} else {
			n = r.nodeLocked(m.Frame.ID)
			r.hostInProcessLocked(n, host, m.Frame.ParentID)
		}
		n.url = m.Frame.URL + m.Frame.URLFragment
		n.origin = m.Frame.SecurityOrigin
		// A new document in the frame: the in-process frames of the old
		// one are gone, and Chromium does not always say so with
		// Page.frameDetached (a main-frame navigation does not).
		r.closeInProcessBelowLocked(n.frameID, host)
		r.pruneLocked()
	case "Page.frameDetached":
		var m frameDetached
		if unmarshal(ev.Params, &m) != nil || m.Reason == "swap" {
			return // a swap moves the frame to or from an OOPIF: same surface
		}
		if n := r.byFrame[m.FrameID]; n != nil && n.host == host && n.live {
			r.closeLocked(n)
			r.pruneLocked()
		}
	}
	r.bumpLocked()
}

// closeInProcessBelowLocked makes tombstones of the live in-process frames
// hosted by host whose parent chain reaches frameID. Callers hold r.mu.
func (r *Registry) closeInProcessBelowLocked(frameID, host string) {
	for _, n := range r.byFrame {
		if !n.live || n.isTarget || n.host != host || n.frameID == frameID {
			continue
		}
		for cur, steps := n, 0; cur != nil && steps <= len(r.byFrame); steps++ {
			if cur.parent == frameID {
				r.closeLocked(n)
				break
			}
			if cur.parent == "" || cur.parent == cur.frameID {
				break
			}
			cur = r.byFrame[cur.parent]
		}
	}
}

// hostInProcessLocked records that frame n lives in host's process. Only a
// change of structure counts as a touch (see buildLocked).
func (r *Registry) hostInProcessLocked(n *node, host, parent string) {
	if parent == "" {
		parent = n.parent
	}
	if n.live && !n.isTarget && n.host == host && n.parent == parent {
		return
	}
	n.isTarget = false
	n.targetType = ""
	n.kind = KindFrame
	n.host = host
	n.parent = parent
	n.live = true
	r.touchLocked(n)
}

// stateLocked returns the state of a socket, creating it on first sight.
func (r *Registry) stateLocked(s *target.Socket) *sockState {
	st := r.states[s]
	if st == nil {
		st = &sockState{sock: s, contexts: map[int64]string{}, defaults: map[string]int64{}}
		r.states[s] = st
	}
	return st
}

// ensure returns the enabled state of a target's current socket, dialling
// and enabling (Runtime.enable, Page.enable) once per socket.
func (r *Registry) ensure(ctx context.Context, targetID string) (*sockState, error) {
	s, err := r.pool.Socket(ctx, targetID)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	st := r.stateLocked(s)
	if old := r.current[targetID]; old != nil && old != st {
		delete(r.states, old.sock)
	}
	r.current[targetID] = st
	r.mu.Unlock()
	if st.enabled.Load() {
		return st, nil
	}
	st.enableMu.Lock()
	defer st.enableMu.Unlock()
	if st.enabled.Load() {
		return st, nil
	}
	c := s.Conn()
	// Runtime.enable reports every existing context before it replies, and
	// the listener was in place before the socket was dialled. Both are
	// sent at once: the target handles them in order, and they cost one
	// round trip (a socket through a Selenium Grid's proxy, flat mode, pays
	// dearly for each).
	pageOn, err := r.start(ctx, c, "Page.enable")
	if err != nil {
		return nil, err
	}
	runtimeOn, err := r.start(ctx, c, "Runtime.enable")
	if err != nil {
		return nil, err
	}
	if err := pageOn.Wait(ctx, nil); err != nil {
		return nil, err
	}
	if err := runtimeOn.Wait(ctx, nil); err != nil {
		return nil, err
	}
	st.enabled.Store(true)
	r.mu.Lock()
	r.bumpLocked()
	r.mu.Unlock()
	return st, nil
}

// Enable opens a target's socket and enables the domains the registry
// follows there (Page, Runtime), once per socket, so its events (frames,
// contexts, console, dialogs) flow before any tool acts there.
func (r *Registry) Enable(ctx context.Context, targetID string) error {
	_, err := r.ensure(ctx, targetID)
	return err
}

// usable reports whether a socket state can serve calls now without I/O.
func (st *sockState) usable() bool {
	if st == nil || !st.enabled.Load() {
		return false
	}
	select {
	case <-st.sock.Gone():
		return false
	default:
	}
	c := st.sock.Conn()
	if c == nil {
		return false
	}
	select {
	case <-c.Done():
		return false
	default:
		return true
	}
}

// listed is what one target contributed to a listing.
type listed struct {
	info  target.Info
	tree  *frameTree // nil when the target could not be read
	err   error
	slow  bool   // no answer within listWait: a renderer stuck in a script
	epoch uint64 // r.epoch just before the tree was asked for
}

// listWait bounds how long a listing waits for one target's frame tree: a
// renderer stuck in a script answers none, and the listing goes on without
// it (Descriptor.Unresponsive) rather than failing at the backstop.
const listWait = 5 * time.Second

// List discovers the surfaces and returns the live ones parent-first: each
// page root in first-seen order followed by its subtree (in-process children
// in frame-tree order, then OOPIF and webview children in first-seen
// order); nodes whose parent is missing or in a cycle are listed as roots.
// It costs one /json/list, one Page.getFrameTree per renderer target, and
// a dial plus Page.enable and Runtime.enable for each new socket. Frames the
// listing misses become tombstones.
func (r *Registry) List(ctx context.Context) ([]Descriptor, error) {
	r.mu.Lock()
	start := r.epoch
	r.mu.Unlock()
	infos, err := r.pool.List(ctx)
	if err != nil {
		return nil, err
	}
	results := make([]listed, len(infos))
	var wg sync.WaitGroup
	for i, info := range infos {
		results[i].info = info
		wg.Go(func() {
			tctx, cancel := context.WithTimeout(ctx, listWait)
			defer cancel()
			st, err := r.ensure(tctx, info.ID)
			if err == nil {
				var t struct {
					FrameTree frameTree `json:"frameTree"`
				}
				r.mu.Lock()
				results[i].epoch = r.epoch
				r.mu.Unlock()
				if err = r.call(tctx, st.sock.Conn(), "Page.getFrameTree", nil, &t); err == nil {
					results[i].tree = &t.FrameTree
				}
			}
			results[i].err = err
			results[i].slow = err != nil && ctx.Err() == nil && tctx.Err() != nil
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, res := range results {
		if res.err != nil && !res.slow {
			if _, alive := r.pool.Known(res.info.ID); alive {
				if errs.CodeOf(res.err) != errs.CDPDisconnected && errs.CodeOf(res.err) != errs.SurfaceClosed {
					return nil, res.err
				}
			}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buildLocked(results, start)
	out := make([]Descriptor, 0, len(r.order))
	for _, n := range r.order {
		out = append(out, r.describeLocked(n))
	}
	return out, nil
}

// buildLocked merges a listing into the records and computes the order.
func (r *Registry) buildLocked(results []listed, start uint64) {
	seen := map[*node]bool{}
	asTarget := map[*node]bool{}
	keepHosts := map[string]bool{} // targets that could not be read: keep their frames
	// apply merges what a listing read into a node: the description (url,
	// origin, title) always; the structure (hosting, parent, liveness) only
	// when no event changed it after the read it comes from (/json/list for
	// a target, its owner's frame tree for an in-process frame) was sent,
	// as such events are newer than what the listing read.
	apply := func(n *node, read uint64, structure, description func()) {
		seen[n] = true
		if n.touched <= read {
			structure()
			n.live = n.crashed == ""
		}
		description()
	}
	for i, res := range results {
		n := r.nodeLocked(res.info.ID)
		asTarget[n] = true
		n.rank = i
		n.unresponsive = res.slow
		apply(n, start, func() { setTargetLocked(n, res.info) }, func() {
			n.title = res.info.Title
			n.url = res.info.URL
			if res.tree != nil {
				if u := res.tree.Frame.URL; u != "" {
					n.url = u + res.tree.Frame.URLFragment
				}
				n.origin = res.tree.Frame.SecurityOrigin
			}
		})
		if res.tree == nil {
			if res.err != nil {
				keepHosts[res.info.ID] = true
			}
			continue
		}
		idx := 0
		var walk func(parent string, kids []frameTree)
		walk = func(parent string, kids []frameTree) {
			for _, k := range kids {
				c := r.nodeLocked(k.Frame.ID)
				if asTarget[c] {
					continue // listed as a target this time: the target wins
				}
				idx++
				c.rank = idx
				apply(c, res.epoch, func() {
					c.isTarget, c.targetType, c.kind = false, "", KindFrame
					c.host = res.info.ID
					c.parent = cmp.Or(k.Frame.ParentID, parent)
				}, func() {
					c.title = ""
					c.url = k.Frame.URL + k.Frame.URLFragment
					c.origin = k.Frame.SecurityOrigin
				})
				walk(k.Frame.ID, k.ChildFrames)
			}
		}
		walk(res.info.ID, res.tree.ChildFrames)
	}
	for _, n := range r.byFrame {
		if seen[n] || !n.live {
			continue
		}
		switch {
		case keepHosts[n.host]:
			seen[n] = true
		case n.touched > start:
			seen[n] = true // born or revived by an event the listing predates
		default:
			r.closeLocked(n) // at the latest now: the listing missed it
		}
	}
	r.pruneLocked()
	r.orderLocked(seen, asTarget)
	if r.active == nil {
		for _, n := range r.order {
			if n.isTarget && target.IsWindow(n.targetType) {
				r.selectLocked(n)
				break
			}
		}
	}
	r.bumpLocked()
}

// orderLocked computes the parent-first order of the live nodes in seen.
func (r *Registry) orderLocked(seen, asTarget map[*node]bool) {
	live := make([]*node, 0, len(seen))
	for n := range seen {
		if n.live {
			live = append(live, n)
		}
	}
	// Targets first (by first-seen rank), then in-process frames by tree
	// position: the order children and fallback roots are taken in.
	slices.SortFunc(live, func(a, b *node) int {
		if c := cmpBool(asTarget[a], asTarget[b]); c != 0 {
			return c
		}
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	isLive := make(map[string]*node, len(live))
	for _, n := range live {
		isLive[n.frameID] = n
	}
	children := map[*node][]*node{}
	var roots []*node
	for _, n := range live {
		n.listedAsRoot = false
		if p := isLive[n.parent]; n.parent != "" && p != nil && p != n {
			children[p] = append(children[p], n)
			continue
		}
		roots = append(roots, n)
	}
	// In-process children before target children, each by rank.
	for _, kids := range children {
		slices.SortStableFunc(kids, func(a, b *node) int {
			if c := cmpBool(!a.isTarget, !b.isTarget); c != 0 {
				return c
			}
			return cmp.Compare(a.rank, b.rank)
		})
	}
	order := make([]*node, 0, len(live))
	visited := make(map[*node]bool, len(live))
	var walk func(n *node)
	walk = func(n *node) {
		if visited[n] {
			return
		}
		visited[n] = true
		order = append(order, n)
		for _, k := range children[n] {
			walk(k)
		}
	}
	for _, n := range roots {
		n.listedAsRoot = true
		walk(n)
	}
	// What is left hangs off a cycle: break each at its first node.
	for _, n := range live {
		if !visited[n] {
			n.listedAsRoot = true
			walk(n)
		}
	}
	r.order = order
}

// cmpBool orders true before false.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

// parentLocked returns the live parent a descriptor names, or nil.
func (r *Registry) parentLocked(n *node) *node {
	if n.listedAsRoot || n.parent == "" {
		return nil
	}
	p := r.byFrame[n.parent]
	if p == nil || !p.live || p == n {
		return nil
	}
	return p
}

func (r *Registry) describeLocked(n *node) Descriptor {
	d := Descriptor{
		ID:      n.id,
		Kind:    n.kind,
		Title:   n.title,
		URL:     n.url,
		Active:  n == r.active,
		FrameID: n.frameID,

		Unresponsive: n.unresponsive,
	}
	if p := r.parentLocked(n); p != nil {
		d.ParentID = p.id
		d.OriginRelation = originRelation(originOf(n), originOf(p))
	}
	if r.hasDocumentLocked(n) {
		d.Capabilities.Snapshot = true
		d.Capabilities.RendererEval = true
		d.Capabilities.Interaction = r.inputRootLocked(n) != nil
	}
	return d
}

// hasDocumentLocked reports whether the frame's default main world is known.
func (r *Registry) hasDocumentLocked(n *node) bool {
	st := r.current[n.host]
	if st == nil {
		return false
	}
	_, ok := st.defaults[n.frameID]
	return ok
}

// inputRootLocked returns the nearest page or webview target at or above n.
func (r *Registry) inputRootLocked(n *node) *node {
	for cur, steps := n, 0; cur != nil && cur.live && steps <= len(r.byFrame); steps++ {
		if cur.isTarget && target.IsWindow(cur.targetType) {
			return cur
		}
		if cur.parent == "" || cur.parent == cur.frameID {
			return nil
		}
		cur = r.byFrame[cur.parent]
	}
	return nil
}

// originOf is a frame's security origin: the one the frame tree reports,
// else the origin of its URL. "" means opaque.
func originOf(n *node) string {
	o := n.origin
	if o == "" || o == "://" {
		o = urlOrigin(n.url)
	}
	if o == "null" || o == "://" {
		return ""
	}
	return o
}

func urlOrigin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "" // about:, data:, javascript: and the like are opaque
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ws", "wss", "ftp", "file":
		return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
	}
	return ""
}

func originRelation(child, parent string) string {
	switch {
	case child == "":
		return Opaque
	case child == parent:
		return SameOrigin
	}
	return CrossOrigin
}

// Select makes a surface the active one, and its input root the active
// window. An id never seen is SURFACE_NOT_FOUND; a tombstone is
// SURFACE_CLOSED.
func (r *Registry) Select(id string) (Descriptor, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.byID[id]
	if n == nil {
		return Descriptor{}, r.unknownLocked(id)
	}
	if !n.live {
		return Descriptor{}, closedErr(n)
	}
	r.selectLocked(n)
	return r.describeLocked(n), nil
}

func (r *Registry) selectLocked(n *node) {
	r.active = n
	if root := r.inputRootLocked(n); root != nil {
		r.activeWindow = root.frameID
	}
}

// SelectWindow selects the root surface of a window: a page or webview
// target id, as the windows list names it.
func (r *Registry) SelectWindow(targetID string) (Descriptor, error) {
	info, known := r.pool.Known(targetID)
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.byFrame[targetID]
	if n == nil && known && target.IsWindow(info.Type) {
		n = r.nodeLocked(targetID)
		setTargetLocked(n, info)
		n.live = true
		r.touchLocked(n)
	}
	if n == nil {
		return Descriptor{}, errs.New(errs.SurfaceNotFound, "no window %q in this session", targetID).With("windowId", targetID)
	}
	if !n.live {
		return Descriptor{}, errs.New(errs.SurfaceClosed, "window %s is closed", targetID).With("windowId", targetID)
	}
	if !n.isTarget || !target.IsWindow(n.targetType) {
		return Descriptor{}, errs.New(errs.SurfaceUnsupported, "%s is not a window (a page or webview target)", targetID).With("windowId", targetID)
	}
	r.selectLocked(n)
	return r.describeLocked(n), nil
}

// Active returns the active surface id ("" before any listing or selection).
func (r *Registry) Active() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active == nil {
		return ""
	}
	return r.active.id
}

// HostOf returns the target whose socket hosts a surface's frame: its own
// target for a page, webview or out-of-process frame, the owning target's
// for an in-process frame. "" for a surface it does not know (or "", the
// active surface when none is selected).
func (r *Registry) HostOf(id string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.active
	if id != "" {
		n = r.byID[id]
	}
	if n == nil || !n.live {
		return ""
	}
	return n.host
}

// ActiveWindow returns the target id of the active window: the input root
// of the surface selected last.
func (r *Registry) ActiveWindow() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.activeWindow
}

// SurfaceOf returns the surface id of a frame or target id, if the registry
// has seen it.
func (r *Registry) SurfaceOf(frameID string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.byFrame[frameID]
	if n == nil {
		return "", false
	}
	return n.id, true
}

// WindowOf returns the window root (the nearest page or webview target at or
// above it) of a frame or target id, if the registry knows one.
func (r *Registry) WindowOf(frameID string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.byFrame[frameID]
	if n == nil {
		return "", false
	}
	if root := r.inputRootLocked(n); root != nil {
		return root.frameID, true
	}
	return "", false
}

// SurfaceOfContext returns the surface whose default main-world execution
// context on socket s is contextID (the context of a console message, say),
// if the registry has seen it.
func (r *Registry) SurfaceOfContext(s *target.Socket, contextID int64) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.states[s]
	if st == nil {
		return "", false
	}
	frame, ok := st.contexts[contextID]
	if !ok {
		return "", false
	}
	n := r.byFrame[frame]
	if n == nil {
		return "", false
	}
	return n.id, true
}

// ChildByURL returns the live child surface of parentID whose URL is url,
// when exactly one child matches (two iframes with one URL are ambiguous,
// and then nothing is claimed).
func (r *Registry) ChildByURL(parentID, url string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.byID[parentID]
	if p == nil || url == "" {
		return "", false
	}
	found := ""
	for _, n := range r.byFrame {
		if n.live && n.parent == p.frameID && n.url == url {
			if found != "" {
				return "", false
			}
			found = n.id
		}
	}
	return found, found != ""
}
