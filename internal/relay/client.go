package relay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
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

	kids     map[string]*session // relay sessions attached under this one
	autoKids map[string]*session // by target id: those auto-attach made
	pending  map[string]bool     // target ids auto-attach is dialling
	auto     *autoCfg           // browser and tab sessions: auto-attach settings
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
		env envelope
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

	ctx    context.Context
	cancel context.CancelFunc
	inbox  chan any
	wg     sync.WaitGroup

	stopOnce sync.Once
	stopC    chan struct{}
	stopWhy  closeInfo
	drainC   chan struct{} // closed to make the writer finish what is queued and end
	writerC  chan struct{} // closed when the writer ends

	// owned by run
	targets   map[string]*target
	sessions  map[string]*session
	children  map[string]*childSess
	created   map[string]bool
	waiters   map[string][]func(ok bool)
	held      map[string]bool
	deadlines []deadline
	timer     *time.Timer
}

func newClient(r *Relay, ws *websocket.Conn, root *upstream) *client {
	ctx, cancel := context.WithCancel(r.ctx)
	c := &client{
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
		waiters:  map[string][]func(bool){},
		held:     map[string]bool{},
	}
	rs := c.newSession("", kindBrowser, r.browserID, nil)
	rs.up = root
	return c
}

// load fills the client's target table from the hub's snapshot.
func (c *client) load(snap hubSnapshot) {
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
	_ = c.ws.CloseNow()
	for _, s := range c.sessions {
		if s.up != nil {
			s.detached.Store(true)
			s.up.closeNow()
		}
	}
	c.timer.Stop()
	c.wg.Wait()
	_, dropped := c.out.stats()
	c.r.log.Info("relay: client disconnected", "client", c.id, "code", int(ci.code), "reason", ci.reason, "dropped_events", dropped)
}

// readClient is the copier from the client socket to the owner.
func (c *client) readClient() {
	defer c.wg.Done()
	for {
		_, b, err := c.ws.Read(c.ctx)
		if err != nil {
			c.stop(closeInfo{})
			return
		}
		env, perr := scanEnvelope(b)
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
			case <-c.ctx.Done():
				return
			}
			continue
		}
		if err := c.ws.Write(c.ctx, websocket.MessageText, b); err != nil {
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
	for {
		_, b, err := s.up.ws.Read(c.ctx)
		if err != nil {
			c.post(upClosed{s: s})
			return
		}
		env, err := scanEnvelope(b)
		if err != nil || s.up.deliver(&env, b) || s.detached.Load() {
			continue
		}
		switch env.method {
		case "Target.attachedToTarget":
			var p struct {
				SessionID  string `json:"sessionId"`
				TargetInfo struct {
					TargetID string `json:"targetId"`
				} `json:"targetInfo"`
			}
			if json.Unmarshal(env.params, &p) == nil && p.SessionID != "" {
				if !c.post(childAttached{owner: s, parent: env.sessionID, id: p.SessionID, targetID: p.TargetInfo.TargetID}) {
					return
				}
			}
		case "Target.detachedFromTarget":
			var p struct {
				SessionID string `json:"sessionId"`
			}
			if json.Unmarshal(env.params, &p) == nil && p.SessionID != "" {
				if !c.post(childDetached{owner: s, id: p.SessionID}) {
					return
				}
			}
		}
		if !env.hasSID && s.id != "" {
			b = withSession(b, s.id)
		}
		if !c.out.push(b, !env.hasID && droppable(env.method)) {
			c.tooSlow()
			return
		}
	}
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
	for _, s := range c.sortedSessions() {
		if s.id != "" && s.parent != nil && s.parent.id == "" {
			c.detach(s, true)
		}
	}
	for _, s := range c.sortedSessions() {
		if s.id != "" {
			c.detach(s, true)
		}
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
		if errors.Is(f.err, errBadJSON) {
			code = codeParseError
		}
		c.replyErr(env.sessionID, env.id, code, f.err.Error())
		return
	}
	if !env.hasID {
		c.replyErr(env.sessionID, 0, codeInvalidRequest, errBadID.Error())
		return
	}
	if env.method == "" {
		c.replyErr(env.sessionID, env.id, codeInvalidRequest, errBadMethod.Error())
		return
	}
	if s, ok := c.sessions[env.sessionID]; ok {
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
	if ch, ok := c.children[env.sessionID]; ok {
		c.forward(ch.owner, f.b) // a real child session: as it came
		return
	}
	c.replyErr(env.sessionID, env.id, codeNoSession, "Session with given id not found.")
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
func (c *client) forwardOwn(s *session, b []byte, env *envelope) {
	c.forward(s, withoutSession(b, env))
}

// relayCall runs a command of the client as the relay's own call on the
// session's socket and hands the outcome to done on the owner.
func (c *client) relayCall(s *session, method string, params []byte, done func(json.RawMessage, error)) {
	up := s.up
	var p any
	if len(params) > 0 {
		p = json.RawMessage(params)
	}
	c.goTask(func(ctx context.Context) func() {
		ctx, cancel := context.WithTimeout(ctx, c.r.callTimeout)
		defer cancel()
		res, err := up.call(ctx, "", method, p)
		return func() { done(res, err) }
	})
}

func (c *client) replyCallErr(sid string, id int64, err error) {
	var ce *cdpError
	if errors.As(err, &ce) {
		c.replyErr(sid, id, ce.Code, ce.Message)
		return
	}
	c.replyErr(sid, id, codeServerError, "relay: "+err.Error())
}

func (c *client) mayClose(targetID string) bool {
	if c.r.opts.AllowBrowserClose || c.created[targetID] {
		return true
	}
	for _, t := range c.targets {
		if t.tabID == targetID {
			return c.created[t.info.TargetID]
		}
	}
	return false
}

func (c *client) browserCommand(s *session, b []byte, env *envelope) {
	sid, id := s.id, env.id
	switch env.method {
	case "Browser.getVersion":
		c.reply(sid, id, json.RawMessage(c.r.version))
	case "Browser.close":
		if c.r.opts.AllowBrowserClose {
			c.forwardOwn(s, b, env)
			return
		}
		c.reply(sid, id, nil)
		c.stop(closeInfo{code: websocket.StatusNormalClosure, reason: "relay: Browser.close closed this connection only", drain: true})
	case "Browser.crash", "Browser.crashGpuProcess":
		if c.r.opts.AllowBrowserClose {
			c.forwardOwn(s, b, env)
			return
		}
		c.replyErr(sid, id, codeServerError, "relay: "+env.method+" is not allowed (the relay runs without --allow-browser-close)")
	case "Browser.setDownloadBehavior":
		c.relayCall(s, env.method, env.params, func(_ json.RawMessage, err error) {
			if err != nil {
				c.r.log.Debug("relay: upstream refused Browser.setDownloadBehavior", "err", err)
			}
			c.reply(sid, id, nil) // answered even when the upstream (Electron) refuses
		})
	case "Runtime.runIfWaitingForDebugger":
		c.reply(sid, id, nil)
	case "Target.attachToBrowserTarget":
		c.attachToBrowserTarget(s, id)
	default:
		if !c.targetCommand(s, b, env) {
			c.forwardOwn(s, b, env)
		}
	}
}

func (c *client) pageCommand(s *session, b []byte, env *envelope) {
	sid, id := s.id, env.id
	switch env.method {
	case "Runtime.runIfWaitingForDebugger":
		c.reply(sid, id, nil) // the relay's targets never wait for a debugger
	case "Page.close":
		if !c.mayClose(s.targetID) {
			c.replyErr(sid, id, codeServerError, "relay: Page.close is allowed only on targets this client created")
			return
		}
		c.forwardOwn(s, b, env)
	case "Target.getTargetInfo":
		var p struct {
			TargetID string `json:"targetId"`
		}
		_ = decodeParams(env.params, &p)
		if p.TargetID == "" {
			p.TargetID = s.targetID
		}
		c.getTargetInfo(sid, id, p.TargetID)
	case "Target.setAutoAttach", "Target.attachToTarget", "Target.detachFromTarget", "Target.attachToBrowserTarget":
		c.forwardOwn(s, b, env) // page-level: the target socket's own child sessions
	default:
		if !c.targetCommand(s, b, env) {
			c.forwardOwn(s, b, env)
		}
	}
}

// targetCommand handles the Target commands that browser and page
// sessions share. It reports false for commands it leaves to the caller.
func (c *client) targetCommand(s *session, b []byte, env *envelope) bool {
	sid, id := s.id, env.id
	switch env.method {
	case "Target.setAutoAttach":
		c.setAutoAttach(s, id, env.params)
	case "Target.setDiscoverTargets":
		c.setDiscoverTargets(s, id, env.params)
	case "Target.getTargets":
		var p struct {
			Filter targetFilter `json:"filter"`
		}
		if err := decodeParams(env.params, &p); err != nil {
			c.replyErr(sid, id, codeInvalidParams, "Invalid parameters: "+err.Error())
			return true
		}
		c.reply(sid, id, map[string]any{"targetInfos": c.listTargets(p.Filter)})
	case "Target.getTargetInfo":
		var p struct {
			TargetID string `json:"targetId"`
		}
		_ = decodeParams(env.params, &p)
		if p.TargetID == "" {
			c.reply(sid, id, map[string]any{"targetInfo": c.r.browserInfo()})
			return true
		}
		c.getTargetInfo(sid, id, p.TargetID)
	case "Target.attachToTarget":
		c.attachToTarget(s, id, env.params)
	case "Target.detachFromTarget":
		c.detachFromTarget(s, id, env.params)
	case "Target.createTarget":
		c.createTarget(s, id, env.params)
	case "Target.closeTarget":
		var p struct {
			TargetID string `json:"targetId"`
		}
		_ = decodeParams(env.params, &p)
		if !c.mayClose(p.TargetID) {
			c.replyErr(sid, id, codeServerError, "relay: Target.closeTarget is allowed only on targets this client created")
			return true
		}
		c.forwardOwn(s, b, env)
	default:
		return false
	}
	return true
}

func (c *client) tabCommand(s *session, env *envelope) {
	sid, id := s.id, env.id
	switch env.method {
	case "Target.setAutoAttach":
		var p struct {
			AutoAttach bool  `json:"autoAttach"`
			Flatten    *bool `json:"flatten"`
		}
		if err := decodeParams(env.params, &p); err != nil {
			c.replyErr(sid, id, codeInvalidParams, "Invalid parameters: "+err.Error())
			return
		}
		if !p.AutoAttach {
			s.auto = nil
			c.reply(sid, id, nil)
			return
		}
		s.auto = &autoCfg{}
		if _, ok := s.autoKids[s.targetID]; ok || s.pending[s.targetID] {
			c.reply(sid, id, nil)
			return
		}
		s.pending[s.targetID] = true
		c.attachPage(s, s.targetID, true, func(*session, error) {
			delete(s.pending, s.targetID)
			c.reply(sid, id, nil)
			c.checkWaiters(s.targetID)
		})
	case "Runtime.runIfWaitingForDebugger":
		c.reply(sid, id, nil)
	case "Target.getTargetInfo":
		if t := c.targets[s.targetID]; t != nil {
			c.reply(sid, id, map[string]any{"targetInfo": t.tabView(true)})
			return
		}
		c.replyErr(sid, id, codeInvalidParams, "No target with given id found")
	case "Target.detachFromTarget":
		c.detachFromTarget(s, id, env.params)
	default:
		c.replyErr(sid, id, codeMethodNotFound, "'"+env.method+"' wasn't found")
	}
}

func (c *client) attachedTo(targetID string) bool {
	for _, s := range c.sessions {
		if s.targetID == targetID && (s.kind == kindPage || s.kind == kindTab) {
			return true
		}
	}
	for _, ch := range c.children {
		if ch.targetID == targetID {
			return true
		}
	}
	return false
}

func (c *client) orderedTargets() []*target {
	out := make([]*target, 0, len(c.targets))
	for _, t := range c.targets {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

func (c *client) listTargets(f targetFilter) []targetInfo {
	out := []targetInfo{}
	for _, t := range c.orderedTargets() {
		if t.pageLike() && f.allows("tab") {
			out = append(out, t.tabView(c.attachedTo(t.tabID)))
		}
		v := t.view(c.attachedTo(t.info.TargetID))
		if f.allows(v.Type) {
			out = append(out, v)
		}
	}
	return out
}

func (c *client) getTargetInfo(sid string, id int64, targetID string) {
	if targetID == c.r.browserID {
		c.reply(sid, id, map[string]any{"targetInfo": c.r.browserInfo()})
		return
	}
	if t := c.targets[targetID]; t != nil {
		c.reply(sid, id, map[string]any{"targetInfo": t.view(c.attachedTo(targetID))})
		return
	}
	for _, t := range c.targets {
		if t.tabID == targetID {
			c.reply(sid, id, map[string]any{"targetInfo": t.tabView(c.attachedTo(targetID))})
			return
		}
	}
	c.replyErr(sid, id, codeInvalidParams, "No target with given id found")
}

func (c *client) setDiscoverTargets(s *session, id int64, params []byte) {
	var p struct {
		Discover bool         `json:"discover"`
		Filter   targetFilter `json:"filter"`
	}
	if err := decodeParams(params, &p); err != nil {
		c.replyErr(s.id, id, codeInvalidParams, "Invalid parameters: "+err.Error())
		return
	}
	if !p.Discover {
		s.discover = false
		c.reply(s.id, id, nil)
		return
	}
	was := s.discover
	s.discover, s.dfilter = true, p.Filter
	if !was {
		for _, t := range c.orderedTargets() {
			c.discoverEvent(s, t, "Target.targetCreated")
		}
	}
	c.reply(s.id, id, nil)
}

// discoverEvent tells a discovering session about a target (and the tab
// above it, when its filter admits tabs).
func (c *client) discoverEvent(s *session, t *target, method string) {
	if t.pageLike() && s.dfilter.allows("tab") {
		c.event(s.id, method, map[string]any{"targetInfo": t.tabView(c.attachedTo(t.tabID))})
	}
	v := t.view(c.attachedTo(t.info.TargetID))
	if s.dfilter.allows(v.Type) {
		c.event(s.id, method, map[string]any{"targetInfo": v})
	}
}

func (c *client) setAutoAttach(s *session, id int64, params []byte) {
	var p struct {
		AutoAttach             bool         `json:"autoAttach"`
		WaitForDebuggerOnStart bool         `json:"waitForDebuggerOnStart"`
		Flatten                *bool        `json:"flatten"`
		Filter                 targetFilter `json:"filter"`
	}
	if err := decodeParams(params, &p); err != nil {
		c.replyErr(s.id, id, codeInvalidParams, "Invalid parameters: "+err.Error())
		return
	}
	if p.Flatten == nil || !*p.Flatten {
		c.replyErr(s.id, id, codeServerError, "Only flatten protocol is supported with browser level auto-attach")
		return
	}
	if !p.AutoAttach {
		s.auto = nil
		c.reply(s.id, id, nil)
		return
	}
	s.auto = &autoCfg{tabs: p.Filter != nil && p.Filter.allows("tab"), filter: p.Filter}
	// Like Chromium: one Target.attachedToTarget per target, then the reply.
	var ts []*target
	for _, t := range c.orderedTargets() {
		if c.autoWants(s, t) && !c.held[t.info.TargetID] {
			ts = append(ts, t)
		}
	}
	left := len(ts)
	if left == 0 {
		c.reply(s.id, id, nil)
		return
	}
	for _, t := range ts {
		c.autoAttachTarget(s, t, func() {
			left--
			if left == 0 {
				c.reply(s.id, id, nil)
			}
		})
	}
}

// autoWants reports whether browser session s auto-attaches t now.
func (c *client) autoWants(s *session, t *target) bool {
	if s.auto == nil || s.gone || !t.pageLike() || t.info.URL == "" {
		return false
	}
	tid := t.info.TargetID
	if _, ok := s.autoKids[tid]; ok || s.pending[tid] {
		return false
	}
	if s.auto.tabs {
		return true
	}
	return s.auto.filter.allows("page")
}

// autoAttachTarget attaches t to browser session s, as a tab target or a
// page, and calls done on the owner when the client has been told.
func (c *client) autoAttachTarget(s *session, t *target, done func()) {
	tid := t.info.TargetID
	if s.auto.tabs {
		ts := c.newSession(newSessionID(), kindTab, tid, s)
		s.autoKids[tid] = ts
		c.event(s.id, "Target.attachedToTarget", map[string]any{
			"sessionId": ts.id, "targetInfo": t.tabView(true), "waitingForDebugger": false})
		done()
		return
	}
	s.pending[tid] = true
	c.attachPage(s, tid, true, func(*session, error) {
		delete(s.pending, tid)
		done()
		c.checkWaiters(tid)
	})
}

// attachPage dials the target's own socket for the client and makes a
// session for it under parent; then it tells the client
// (Target.attachedToTarget on the parent session) and calls done. done gets
// an error when the target or the parent went away meanwhile, or the dial
// failed.
func (c *client) attachPage(parent *session, targetID string, auto bool, done func(*session, error)) {
	url := c.r.targetWSURL(targetID)
	c.goTask(func(ctx context.Context) func() {
		dctx, cancel := context.WithTimeout(ctx, c.r.callTimeout)
		up, err := dialUpstream(dctx, url)
		cancel()
		return func() {
			if err != nil {
				c.r.log.Debug("relay: dial target failed", "client", c.id, "target", targetID, "err", err)
				done(nil, err)
				return
			}
			t := c.targets[targetID]
			if t == nil || parent.gone {
				up.closeNow()
				done(nil, errTargetGone)
				return
			}
			ps := c.newSession(newSessionID(), kindPage, targetID, parent)
			ps.up = up
			if auto {
				parent.autoKids[targetID] = ps
			}
			c.event(parent.id, "Target.attachedToTarget", map[string]any{
				"sessionId": ps.id, "targetInfo": t.view(true), "waitingForDebugger": false})
			c.startReader(ps)
			done(ps, nil)
		}
	})
}

var errTargetGone = errors.New("target closed")

func (c *client) attachToTarget(s *session, id int64, params []byte) {
	var p struct {
		TargetID string `json:"targetId"`
		Flatten  *bool  `json:"flatten"`
	}
	if err := decodeParams(params, &p); err != nil || p.TargetID == "" {
		c.replyErr(s.id, id, codeInvalidParams, "Invalid parameters: targetId: string value expected")
		return
	}
	if p.Flatten == nil || !*p.Flatten {
		c.replyErr(s.id, id, codeServerError, "relay: only flatten sessions are supported; pass flatten:true")
		return
	}
	if p.TargetID == c.r.browserID {
		c.attachToBrowserTarget(s, id)
		return
	}
	c.whenKnown(p.TargetID, func(ok bool) {
		if !ok || s.gone {
			c.replyErr(s.id, id, codeInvalidParams, "No target with given id found")
			return
		}
		c.attachPage(s, p.TargetID, false, func(ps *session, err error) {
			if err != nil {
				c.replyErr(s.id, id, codeServerError, "relay: attaching to "+p.TargetID+": "+err.Error())
				return
			}
			c.reply(s.id, id, map[string]string{"sessionId": ps.id})
		})
	})
}

func (c *client) attachToBrowserTarget(s *session, id int64) {
	url := c.r.upstreamWS
	c.goTask(func(ctx context.Context) func() {
		dctx, cancel := context.WithTimeout(ctx, c.r.callTimeout)
		up, err := dialUpstream(dctx, url)
		cancel()
		return func() {
			if err != nil {
				c.replyErr(s.id, id, codeServerError, "relay: "+err.Error())
				return
			}
			if s.gone {
				up.closeNow()
				return
			}
			bs := c.newSession(newSessionID(), kindBrowser, c.r.browserID, s)
			bs.up = up
			c.event(s.id, "Target.attachedToTarget", map[string]any{
				"sessionId": bs.id, "targetInfo": c.r.browserInfo(), "waitingForDebugger": false})
			c.startReader(bs)
			c.reply(s.id, id, map[string]string{"sessionId": bs.id})
		}
	})
}

func (c *client) detachFromTarget(s *session, id int64, params []byte) {
	var p struct {
		SessionID string `json:"sessionId"`
		TargetID  string `json:"targetId"`
	}
	_ = decodeParams(params, &p)
	if p.SessionID == "" && p.TargetID != "" {
		for _, k := range sortedKids(s) {
			if k.targetID == p.TargetID {
				p.SessionID = k.id
				break
			}
		}
	}
	if ts, ok := c.sessions[p.SessionID]; ok && p.SessionID != "" {
		c.detach(ts, true)
		c.reply(s.id, id, nil)
		return
	}
	if ch, ok := c.children[p.SessionID]; ok {
		// A real child session: its own socket detaches it and reports it.
		parent := ch.parent
		if parent == ch.owner.id {
			parent = ""
		}
		up := ch.owner.up
		c.goTask(func(ctx context.Context) func() {
			ctx, cancel := context.WithTimeout(ctx, c.r.callTimeout)
			defer cancel()
			_, _ = up.call(ctx, parent, "Target.detachFromTarget", map[string]string{"sessionId": p.SessionID})
			return func() { c.reply(s.id, id, nil) }
		})
		return
	}
	c.reply(s.id, id, nil) // a stale session: nothing to do, as Chromium answers
}

func (c *client) createTarget(s *session, id int64, params []byte) {
	sid := s.id
	c.relayCall(s, "Target.createTarget", params, func(res json.RawMessage, err error) {
		if err != nil {
			c.replyCallErr(sid, id, err)
			return
		}
		var r struct {
			TargetID string `json:"targetId"`
		}
		if json.Unmarshal(res, &r) != nil || r.TargetID == "" {
			c.replyErr(sid, id, codeServerError, "relay: Target.createTarget gave no targetId")
			return
		}
		c.created[r.TargetID] = true
		// Like Chromium: a client that auto-attaches sees the new target
		// attached before the reply (Playwright looks it up right away).
		c.whenReady(r.TargetID, func(bool) { c.reply(sid, id, res) })
	})
}

// whenKnown calls fn(true) once the target is in the client's table, or
// fn(false) if it does not show up within targetWait.
func (c *client) whenKnown(targetID string, fn func(ok bool)) {
	if c.targets[targetID] != nil {
		fn(true)
		return
	}
	c.wait(targetID, fn)
}

// whenReady is whenKnown, and also waits for the auto-attaches of the
// target that are under way.
func (c *client) whenReady(targetID string, fn func(ok bool)) {
	if c.ready(targetID) {
		fn(true)
		return
	}
	c.wait(targetID, fn)
}

func (c *client) wait(targetID string, fn func(bool)) {
	called := false
	once := func(ok bool) {
		if !called {
			called = true
			fn(ok)
		}
	}
	c.waiters[targetID] = append(c.waiters[targetID], once)
	c.after(c.r.targetWait, func() {
		once(c.targets[targetID] != nil)
	})
}

func (c *client) ready(targetID string) bool {
	t := c.targets[targetID]
	if t == nil {
		return false
	}
	for _, s := range c.sessions {
		if s.pending[targetID] {
			return false
		}
		if s.kind == kindBrowser && c.autoWants(s, t) && !c.held[targetID] {
			return false // mail about it is being handled; attach will start
		}
	}
	return true
}

func (c *client) checkWaiters(targetID string) {
	ws := c.waiters[targetID]
	if len(ws) == 0 || !c.ready(targetID) {
		return
	}
	delete(c.waiters, targetID)
	for _, fn := range ws {
		fn(true)
	}
}

// after runs fn on the owner once d has passed.
func (c *client) after(d time.Duration, fn func()) {
	at := time.Now().Add(d)
	c.deadlines = append(c.deadlines, deadline{at: at, fn: fn})
	c.resetTimer()
}

func (c *client) resetTimer() {
	if len(c.deadlines) == 0 {
		c.timer.Stop()
		return
	}
	next := c.deadlines[0].at
	for _, d := range c.deadlines[1:] {
		if d.at.Before(next) {
			next = d.at
		}
	}
	c.timer.Reset(max(time.Until(next), 0))
}

func (c *client) runDeadlines() {
	now := time.Now()
	var due []deadline
	kept := c.deadlines[:0]
	for _, d := range c.deadlines {
		if !d.at.After(now) {
			due = append(due, d)
		} else {
			kept = append(kept, d)
		}
	}
	c.deadlines = kept
	for _, d := range due {
		d.fn()
	}
	c.resetTimer()
}

// handleMail applies what the hub said about targets.
func (c *client) handleMail() {
	items, overflow := c.mail.take()
	if overflow {
		c.stop(closeInfo{code: websocket.StatusPolicyViolation, reason: "relay: client fell behind on target events"})
		return
	}
	for _, m := range items {
		switch m := m.(type) {
		case mailTarget:
			c.onTarget(m)
		case mailTargetGone:
			c.onTargetGone(m.id)
		case mailTargetCrashed:
			for _, s := range c.sortedSessions() {
				if s.discover {
					c.send(eventMessage("Target.targetCrashed", m.params, s.id))
				}
			}
		case mailUpstreamGone:
			c.upstreamGone()
			return
		}
	}
}

func (c *client) onTarget(m mailTarget) {
	tid := m.t.info.TargetID
	t := c.targets[tid]
	if t == nil {
		t = &target{}
		c.targets[tid] = t
	}
	*t = m.t
	method := "Target.targetInfoChanged"
	if m.created {
		method = "Target.targetCreated"
	}
	if op := t.info.OpenerID; op != "" && c.created[op] {
		c.created[tid] = true // a popup of the client's own page is the client's too
	}
	for _, s := range c.sortedSessions() {
		if s.discover {
			c.discoverEvent(s, t, method)
		}
	}
	if t.pageLike() {
		c.autoAttachNew(t)
	}
	c.checkWaiters(tid)
}

// autoAttachNew attaches a new (or newly page-like) target to every session
// that auto-attaches. A target without a URL yet (a popup before its first
// commit) waits for one, at most NewTargetURLWait.
func (c *client) autoAttachNew(t *target) {
	tid := t.info.TargetID
	if t.info.URL == "" {
		if !c.held[tid] {
			c.held[tid] = true
			c.after(c.r.urlWait, func() {
				if c.held[tid] {
					delete(c.held, tid)
					if t := c.targets[tid]; t != nil {
						if t.info.URL == "" {
							t.info.URL = "about:blank"
						}
						c.autoAttachNew(t)
					}
				}
			})
		}
		return
	}
	delete(c.held, tid)
	for _, s := range c.sortedSessions() {
		if s.kind == kindBrowser && c.autoWants(s, t) {
			c.autoAttachTarget(s, t, func() {})
		}
	}
}

func (c *client) onTargetGone(tid string) {
	t := c.targets[tid]
	if t == nil {
		return
	}
	// Page sessions first (they sit under tab sessions), then the tabs.
	for _, s := range c.sortedSessions() {
		if s.targetID == tid && s.kind == kindPage {
			c.detach(s, true)
		}
	}
	for _, s := range c.sortedSessions() {
		if s.targetID == tid && s.kind == kindTab {
			c.detach(s, true)
		}
	}
	delete(c.targets, tid)
	delete(c.held, tid)
	for _, s := range c.sortedSessions() {
		if !s.discover {
			continue
		}
		if s.dfilter.allows(t.view(false).Type) {
			c.event(s.id, "Target.targetDestroyed", map[string]string{"targetId": tid})
		}
		if t.pageLike() && s.dfilter.allows("tab") {
			c.event(s.id, "Target.targetDestroyed", map[string]string{"targetId": t.tabID})
		}
	}
	if ws := c.waiters[tid]; len(ws) > 0 {
		delete(c.waiters, tid)
		for _, fn := range ws {
			fn(false)
		}
	}
}

func sortTargets(ts []target) {
	sort.Slice(ts, func(i, j int) bool { return ts[i].seq < ts[j].seq })
}
