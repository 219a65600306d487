package relay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/cdp"
)

// A client is one connection to the relay's browser endpoint. Its owner
// goroutine (run) holds every piece of the client's routing state: its
// sessions, the real child sessions of its target sockets, its replica of
// the hub's target table, pending attaches and timers. Other goroutines
// reach it only through inbox (and the hub through mail):
//
//   - readClient: the client socket → inbox (parses the envelope off the
//     owner's goroutine);
//   - writeClient: out → the client socket;
//   - readUpstream, one per upstream socket: the browser → out, telling the
//     owner about child sessions first;
//   - tasks (goTask): dials and the relay's own calls; they return a
//     closure that the owner runs.
//
// All of them are counted in wg and joined before run returns.

// sessKind is what a relay-made session stands for.
type sessKind int

const (
	kindBrowser sessKind = iota // the root session, or Target.attachToBrowserTarget
	kindTab                     // a tab target the relay shows above a page
	kindPage                    // a target with its own upstream socket
)

// session is a session the relay made for the client. Real child sessions
// (OOPIFs and workers auto-attached on a target socket) are childSess.
type session struct {
	id       string
	kind     sessKind
	targetID string
	parent   *session  // nil for browser sessions
	up       *upstream // browser and page sessions
	gone     bool

	detached atomic.Bool // read by the socket's reader: drop what is still in flight
	// rtEnable is the id of the client's Runtime.enable in flight on this
	// page session (0: none); set by the owner, read by the reader, which
	// puts the main frame's default context first among the contexts
	// Chromium reports before the reply.
	rtEnable atomic.Int64

	kids     map[string]*session // relay sessions attached under this one
	autoKids map[string]*session // by target id: those auto-attach made
	pending  map[string]bool     // target ids auto-attach is dialling
	auto     *autoCfg            // browser and tab sessions: auto-attach settings
	discover bool
	dfilter  targetFilter

	children []string // page sessions: ids of real child sessions, in attach order
}

type autoCfg struct {
	tabs   bool // attach tab targets rather than pages (the filter admits tabs)
	filter targetFilter
}

type childSess struct {
	id       string
	parent   string // the session the attach event came on
	targetID string
	owner    *session
}

// inbox messages.
type (
	clientFrame struct {
		b   []byte
		env cdp.Envelope
		err error
	}
	childAttached struct {
		owner    *session
		parent   string
		id       string
		targetID string
	}
	childDetached struct {
		owner *session
		id    string
	}
	upClosed struct{ s *session }
)

// closeInfo is how the client's socket is to be closed.
type closeInfo struct {
	code   websocket.StatusCode
	reason string
	drain  bool // write what is queued first
}

type deadline struct {
	at time.Time
	fn func()
}

type client struct {
	r    *Relay
	id   uint64
	ws   *websocket.Conn
	out  *outQueue
	mail *mailbox

	// ctx is the client's life: tasks and upstream readers end with it, and
	// so does the client when the relay shuts down. ioCtx bounds the client
	// socket's reader and writer; it ends only in teardown, after the close
	// frame, so that a shutting-down relay can still say why.
	ctx      context.Context
	cancel   context.CancelFunc
	ioCtx    context.Context
	ioCancel context.CancelFunc
	inbox    chan any
	wg       sync.WaitGroup

	stopOnce sync.Once
	stopC    chan struct{}
	stopWhy  closeInfo
	drainC   chan struct{} // closed to make the writer finish what is queued and end
	writerC  chan struct{} // closed when the writer ends

	// owned by run
	targets  map[string]*target
	sessions map[string]*session
	children map[string]*childSess
	created  map[string]bool
	// baseSeq is the hub's creation order when the client connected:
	// targets with a higher seq appeared while it was connected.
	baseSeq uint64
	// hidden holds the app's windows this client closed for itself only
	// (docs/adr/028): not listed, not attached, no events. Rule
	// (docs/adr/008): an entry goes when the target is destroyed, and all
	// go with the client; counted in Stats().ClosedViews.
	hidden    map[string]bool
	waiters   map[string][]func(ok bool)
	held      map[string]bool
	deadlines []deadline
	timer     *time.Timer
}

func newClient(r *Relay, ws *websocket.Conn, root *upstream) *client {
	ctx, cancel := context.WithCancel(r.ctx)
	ioCtx, ioCancel := context.WithCancel(context.Background())
	c := &client{
		ioCtx:    ioCtx,
		ioCancel: ioCancel,
		r:        r,
		id:       r.nextClientID.Add(1),
		ws:       ws,
		out:      newOutQueue(r.opts.QueueLimit, r.hardLimit, r.queueBytes, &r.stats.droppedEvents),
		mail:     newMailbox(),
		ctx:      ctx,
		cancel:   cancel,
		inbox:    make(chan any, 256),
		stopC:    make(chan struct{}),
		drainC:   make(chan struct{}),
		writerC:  make(chan struct{}),
		targets:  map[string]*target{},
		sessions: map[string]*session{},
		children: map[string]*childSess{},
		created:  map[string]bool{},
		hidden:   map[string]bool{},
		waiters:  map[string][]func(bool){},
		held:     map[string]bool{},
	}
	rs := c.newSession("", kindBrowser, r.browserID, nil)
	rs.up = root
	return c
}

// load fills the client's target table from the hub's snapshot.
func (c *client) load(snap hubSnapshot) {
	c.baseSeq = snap.seq
	for i := range snap.targets {
		t := snap.targets[i]
		c.targets[t.info.TargetID] = &t
	}
}

func (c *client) newSession(id string, kind sessKind, targetID string, parent *session) *session {
	s := &session{id: id, kind: kind, targetID: targetID, parent: parent,
		kids: map[string]*session{}, autoKids: map[string]*session{}, pending: map[string]bool{}}
	c.sessions[id] = s
	if parent != nil {
		parent.kids[id] = s
	}
	return s
}

// stop asks the owner to close the client; the first reason wins.
func (c *client) stop(ci closeInfo) {
	c.stopOnce.Do(func() {
		c.stopWhy = ci
		close(c.stopC)
	})
}

// post hands a message to the owner, unless the client is ending.
func (c *client) post(m any) bool {
	select {
	case c.inbox <- m:
		return true
	case <-c.ctx.Done():
		return false
	}
}

// goTask runs fn on its own goroutine and the closure it returns on the
// owner's.
func (c *client) goTask(fn func(ctx context.Context) func()) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		if apply := fn(c.ctx); apply != nil {
			c.post(apply)
		}
	}()
}

// send queues a message the relay wrote itself. These are never dropped.
func (c *client) send(b []byte) {
	if !c.out.push(b, false) {
		c.tooSlow()
	}
}

func (c *client) tooSlow() {
	q, _ := c.out.stats()
	c.r.stats.slowDisconnects.Add(1)
	c.stop(closeInfo{code: websocket.StatusPolicyViolation,
		reason: fmt.Sprintf("relay: client fell behind (%d messages queued)", q)})
}

func (c *client) reply(sid string, id int64, result any) { c.send(replyResult(id, sid, result)) }

func (c *client) replyErr(sid string, id int64, code int, msg string) {
	c.send(replyError(id, sid, code, msg))
}

func (c *client) event(sid, method string, params any) { c.send(eventMessage(method, params, sid)) }

// run is the owner loop. It returns when the client is gone and every
// goroutine of the client has ended.
func (c *client) run() {
	c.timer = time.NewTimer(time.Hour)
	c.timer.Stop()
	c.startReader(c.sessions[""])
	c.wg.Add(2)
	go c.readClient()
	go c.writeClient()
	for {
		select {
		case m := <-c.inbox:
			c.handle(m)
		case <-c.mail.ready:
			c.handleMail()
		case <-c.timer.C:
			c.runDeadlines()
		case <-c.stopC:
			c.teardown(c.stopWhy)
			return
		case <-c.ctx.Done():
			c.teardown(closeInfo{code: websocket.StatusGoingAway, reason: "relay: shutting down"})
			return
		}
	}
}

func (c *client) teardown(ci closeInfo) {
	if ci.drain {
		// Write what is queued, and nothing that still comes in.
		for _, s := range c.sessions {
			s.detached.Store(true)
		}
		close(c.drainC)
		t := time.NewTimer(2 * time.Second)
		select {
		case <-c.writerC:
		case <-t.C:
		}
		t.Stop()
	}
	if ci.code != 0 {
		closeGracefully(c.ws, ci.code, ci.reason, time.Second)
	}
	c.cancel()
	c.ioCancel()
	_ = c.ws.CloseNow()
	for _, s := range c.sessions {
		if s.up != nil {
			s.detached.Store(true)
			s.up.closeNow()
		}
	}
	c.timer.Stop()
	c.r.dropClientCtxs(c.id)
	c.r.stats.closedViews.Add(-int64(len(c.hidden)))
	c.hidden = nil
	c.wg.Wait()
	_, dropped := c.out.stats()
	c.r.log.Info("relay: client disconnected", "client", c.id, "code", int(ci.code), "reason", ci.reason, "dropped_events", dropped)
}

// readClient is the copier from the client socket to the owner.
func (c *client) readClient() {
	defer c.wg.Done()
	for {
		_, b, err := c.ws.Read(c.ioCtx)
		if err != nil {
			c.stop(closeInfo{})
			return
		}
		env, perr := cdp.ScanEnvelope(b)
		if !c.post(clientFrame{b: b, env: env, err: perr}) {
			return
		}
	}
}

// writeClient is the copier from the queue to the client socket.
func (c *client) writeClient() {
	defer c.wg.Done()
	defer close(c.writerC)
	draining := false
	for {
		b := c.out.pop()
		if b == nil {
			if draining {
				return
			}
			select {
			case <-c.out.ready:
			case <-c.drainC:
				draining = true
			case <-c.ioCtx.Done():
				return
			}
			continue
		}
		if err := c.ws.Write(c.ioCtx, websocket.MessageText, b); err != nil {
			c.stop(closeInfo{})
			return
		}
	}
}

// startReader starts the reader of a session's upstream socket.
func (c *client) startReader(s *session) {
	c.wg.Add(1)
	go c.readUpstream(s)
}

// readUpstream is the copier from one upstream socket to the client's
// queue. Frames of the socket's own session get the relay session's id;
// frames of child sessions keep theirs.
func (c *client) readUpstream(s *session) {
	defer c.wg.Done()
	defer s.up.failPending()
	var held contextBuffer // contexts held until the Runtime.enable reply
	for {
		_, b, err := s.up.ws.Read(c.ctx)
		if err != nil {
			c.post(upClosed{s: s})
			return
		}
		env, err := cdp.ScanEnvelope(b)
		if err != nil || s.up.deliver(&env, b) || s.detached.Load() {
			continue
		}
		switch env.Method {
		case "Target.attachedToTarget":
			var p struct {
				SessionID  string `json:"sessionId"`
				TargetInfo struct {
					TargetID string `json:"targetId"`
				} `json:"targetInfo"`
			}
			if json.Unmarshal(env.Params, &p) == nil && p.SessionID != "" {
				if !c.post(childAttached{owner: s, parent: env.SessionID, id: p.SessionID, targetID: p.TargetInfo.TargetID}) {
					return
				}
			}
		case "Target.detachedFromTarget":
			var p struct {
				SessionID string `json:"sessionId"`
			}
			if json.Unmarshal(env.Params, &p) == nil && p.SessionID != "" {
				if !c.post(childDetached{owner: s, id: p.SessionID}) {
					return
				}
			}
		}
		if !env.HasSessionID && s.id != "" {
			b = withSession(b, s.id)
		}
		if pending := s.rtEnable.Load(); pending != 0 && !env.HasSessionID {
			switch {
			case env.Method == "Runtime.executionContextCreated":
				held.add(b, env.Params, s.targetID)
				continue
			case env.IsReply() && env.ID == pending:
				s.rtEnable.CompareAndSwap(pending, 0)
				if !held.flush(c.out) {
					c.tooSlow()
					return
				}
			case strings.HasPrefix(env.Method, "Runtime.executionContext"):
				if !held.flush(c.out) {
					c.tooSlow()
					return
				}
			}
		}
		if !c.out.push(b, !env.HasID && droppable(env.Method)) {
			c.tooSlow()
			return
		}
	}
}

// contextBuffer holds the Runtime.executionContextCreated events that
// answer a client's Runtime.enable. Chromium lists a page's contexts
// newest first, so the main frame's default context comes last when the
// page has same-process frames; clients (and the relay's promise) want it
// first. flush writes the main frame's default context, then the others
// in the order they came.
type contextBuffer struct {
	main  []byte
	other [][]byte
}

func (h *contextBuffer) add(b, params []byte, mainFrame string) {
	var p struct {
		Context struct {
			AuxData struct {
				FrameID   string `json:"frameId"`
				IsDefault bool   `json:"isDefault"`
			} `json:"auxData"`
		} `json:"context"`
	}
	if h.main == nil && json.Unmarshal(params, &p) == nil &&
		p.Context.AuxData.IsDefault && p.Context.AuxData.FrameID == mainFrame {
		h.main = b
		return
	}
	h.other = append(h.other, b)
}

func (h *contextBuffer) flush(q *outQueue) bool {
	ok := true
	if h.main != nil {
		ok = q.push(h.main, false)
	}
	for _, b := range h.other {
		ok = ok && q.push(b, false)
	}
	h.main, h.other = nil, nil
	return ok
}

func (c *client) handle(m any) {
	switch m := m.(type) {
	case clientFrame:
		c.onFrame(m)
	case childAttached:
		if m.owner.gone {
			return
		}
		parent := m.parent
		if parent == "" {
			parent = m.owner.id
		}
		c.children[m.id] = &childSess{id: m.id, parent: parent, targetID: m.targetID, owner: m.owner}
		m.owner.children = append(m.owner.children, m.id)
	case childDetached:
		c.dropChild(m.owner, m.id)
	case upClosed:
		c.onUpClosed(m.s)
	case func():
		m()
	}
}

func (c *client) dropChild(owner *session, id string) {
	if ch, ok := c.children[id]; ok && ch.owner == owner {
		delete(c.children, id)
	}
	for i, k := range owner.children {
		if k == id {
			owner.children = append(owner.children[:i], owner.children[i+1:]...)
			break
		}
	}
}

func (c *client) onUpClosed(s *session) {
	if s.gone {
		return
	}
	if s.id == "" {
		c.upstreamGone()
		return
	}
	c.detach(s, true)
}

// upstreamGone ends the client after the browser went away: every session
// is detached (with events), then the socket is closed.
func (c *client) upstreamGone() {
	// Every session descends from the root one; detach takes each subtree
	// innermost first.
	for _, k := range sortedKids(c.sessions[""]) {
		c.detach(k, true)
	}
	c.stop(closeInfo{code: websocket.StatusInternalError, reason: "relay: upstream browser closed", drain: true})
}

func (c *client) sortedSessions() []*session {
	out := make([]*session, 0, len(c.sessions))
	for _, s := range c.sessions {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// detach ends a relay session: its socket closes (which is what makes the
// browser drop the client's state there), its real children and the
// sessions attached under it go first, and with emit the client is told
// with Target.detachedFromTarget on the parent session.
func (c *client) detach(s *session, emit bool) {
	if s.gone {
		return
	}
	s.gone = true
	s.detached.Store(true)
	delete(c.sessions, s.id)
	for _, k := range sortedKids(s) {
		c.detach(k, emit)
	}
	if s.up != nil {
		s.up.closeNow()
	}
	for i := len(s.children) - 1; i >= 0; i-- {
		id := s.children[i]
		ch, ok := c.children[id]
		if !ok || ch.owner != s {
			continue
		}
		delete(c.children, id)
		if emit {
			c.event(ch.parent, "Target.detachedFromTarget", map[string]string{"sessionId": id, "targetId": ch.targetID})
		}
	}
	s.children = nil
	parentID := ""
	if p := s.parent; p != nil {
		parentID = p.id
		delete(p.kids, s.id)
		if p.autoKids[s.targetID] == s {
			delete(p.autoKids, s.targetID)
		}
	}
	if emit {
		c.event(parentID, "Target.detachedFromTarget", map[string]string{"sessionId": s.id, "targetId": s.targetID})
	}
}

func sortedKids(s *session) []*session {
	out := make([]*session, 0, len(s.kids))
	for _, k := range s.kids {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// onFrame routes one message from the client.
func (c *client) onFrame(f clientFrame) {
	env := &f.env
	if f.err != nil {
		code := codeInvalidRequest
		if errors.Is(f.err, cdp.ErrEnvelopeJSON) {
			code = codeParseError
		}
		c.replyErr(env.SessionID, env.ID, code, f.err.Error())
		return
	}
	if !env.HasID {
		c.replyErr(env.SessionID, 0, codeInvalidRequest, cdp.ErrEnvelopeID.Error())
		return
	}
	if env.Method == "" {
		c.replyErr(env.SessionID, env.ID, codeInvalidRequest, cdp.ErrEnvelopeMethod.Error())
		return
	}
	if s, ok := c.sessions[env.SessionID]; ok {
		kind := sockSession
		if s.kind == kindBrowser {
			kind = sockBrowser
		}
		if !c.guard(env, s.targetID, kind) {
			return
		}
		switch s.kind {
		case kindBrowser:
			c.browserCommand(s, f.b, env)
		case kindTab:
			c.tabCommand(s, env)
		case kindPage:
			c.pageCommand(s, f.b, env)
		}
		return
	}
	if ch, ok := c.children[env.SessionID]; ok {
		if !c.guard(env, ch.targetID, sockSession) {
			return
		}
		c.forward(ch.owner, f.b) // a real child session: as it came
		return
	}
	c.replyErr(env.SessionID, env.ID, codeNoSession, "Session with given id not found.")
}

// guard applies guardCommand to a command on a session of the client whose
// target is ownTarget (the browser's id on browser sessions). It reports
// whether the command may go on; when not, it has answered it.
func (c *client) guard(env *cdp.Envelope, ownTarget string, kind sockKind) bool {
	if ownTarget == c.r.browserID {
		ownTarget = ""
	}
	r := guardCommand(env.Method, env.Params, guardPolicy{allowClose: c.r.opts.AllowBrowserClose, mayClose: c.mayClose,
		ownTarget: ownTarget, kind: kind, allow: c.r.allow, fileURL: c.r.fileURL(), filePath: c.r.filePath(),
		ctxOf: func(id string) ctxOwner { return c.r.ctxOf(c.id, id) }})
	switch r.v {
	case closeConn:
		c.reply(env.SessionID, env.ID, nil)
		c.stop(closeInfo{code: websocket.StatusNormalClosure, reason: "relay: " + env.Method + " closed this connection only", drain: true})
		return false
	case refuse:
		c.replyErr(env.SessionID, env.ID, codeServerError, r.msg)
		for _, id := range r.closeView {
			c.closeView(id)
		}
		return false
	}
	return true
}

// forward writes b to the session's upstream socket.
func (c *client) forward(s *session, b []byte) {
	if err := s.up.write(c.ctx, b); err != nil && c.ctx.Err() == nil {
		c.r.log.Debug("relay: write to upstream failed", "client", c.id, "err", err)
		s.up.closeNow() // its reader reports the close and the session detaches
	}
}

// forwardOwn forwards a command of a relay session to that session's socket,
// where the session is the socket's own: the sessionId goes.
func (c *client) forwardOwn(s *session, b []byte, env *cdp.Envelope) {
	c.forward(s, withoutSession(b, env))
}

// closeView ends a client's view of a window it may not close (a refused
// Target.closeTarget, docs/adr/028): its sessions on the
// window are detached, discovering sessions get Target.targetDestroyed,
// and the window stays hidden from the client until it goes. Clients wait
// for the close they asked for (Playwright's page.close() ignores the
// error and waits for the detach); the app's window stays open. id may be
// a page or the tab the relay shows above one; other targets are left as
// they are.
func (c *client) closeView(id string) {
	t := c.targetOrTab(id)
	if t == nil || !t.pageLike() {
		return
	}
	tid := t.info.TargetID
	// Counted before onTargetGone queues the client's targetDestroyed, so
	// a client that saw the event also sees the count.
	c.r.stats.closedViews.Add(1)
	c.onTargetGone(tid)
	c.hidden[tid] = true
}

// targetOrTab is the client's target with id, or the page below the tab
// the relay shows with that id; nil when neither is known.
func (c *client) targetOrTab(id string) *target {
	if t := c.targets[id]; t != nil {
		return t
	}
	for _, t := range c.targets {
		if t.tabID == id {
			return t
		}
	}
	return nil
}
