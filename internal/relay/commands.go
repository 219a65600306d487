package relay

import (
	"context"
	"encoding/json"
	"errors"
	"sort"

	"github.com/understudy-dev/understudy/internal/cdp"
)

// The commands a client's sessions send that the relay answers itself, in
// whole or in part: the browser-level protocol (Browser.*, Target.*) on
// browser sessions, the few page-session commands it must see
// (Runtime.enable, Runtime.runIfWaitingForDebugger, Target.getTargetInfo),
// and the tab sessions it makes up for Puppeteer. Everything else is
// forwarded (client.go). Every command has passed guardCommand (guard.go)
// first. All of it runs on the client's owner goroutine.

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
	var ce *cdp.ProtocolError
	if errors.As(err, &ce) {
		c.replyErr(sid, id, int(ce.Code), ce.Message)
		return
	}
	c.replyErr(sid, id, codeServerError, "relay: "+err.Error())
}

// mayClose reports whether the client may close a target (a page, or the
// tab above one): one it created (Target.createTarget, /json/new does not
// count), a popup of those, or a popup the app opened while the client was
// connected (a target with an opener that appeared after the client
// connected). The app's other windows, those that were there before the
// client came and those without an opener (windows the app's main process
// opens), are protected (docs/adr/028).
func (c *client) mayClose(targetID string) bool {
	if c.r.opts.AllowBrowserClose {
		return true
	}
	t := c.targetOrTab(targetID)
	if t == nil {
		return c.created[targetID]
	}
	tid := t.info.TargetID
	return c.created[tid] || (t.seq > c.baseSeq && t.info.OpenerID != "" && t.pageLike())
}

func (c *client) browserCommand(s *session, b []byte, env *cdp.Envelope) {
	sid, id := s.id, env.ID
	switch env.Method {
	case "Browser.getVersion":
		c.reply(sid, id, json.RawMessage(c.r.version))
	case "Browser.setDownloadBehavior":
		c.setDownloadBehavior(s, id, env.Params)
	case "Target.createBrowserContext":
		c.createBrowserContext(s, id, env.Params)
	case "Target.disposeBrowserContext": // guardCommand has checked it is the client's
		c.disposeBrowserContext(s, id, env.Params)
	case "Target.getBrowserContexts":
		c.getBrowserContexts(s, id, env.Params)
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

func (c *client) pageCommand(s *session, b []byte, env *cdp.Envelope) {
	sid, id := s.id, env.ID
	switch env.Method {
	case "Runtime.runIfWaitingForDebugger":
		c.reply(sid, id, nil) // the relay's targets never wait for a debugger
	case "Runtime.enable":
		s.rtEnable.Store(env.ID)
		c.forwardOwn(s, b, env)
	case "Target.getTargetInfo":
		var p struct {
			TargetID string `json:"targetId"`
		}
		_ = decodeParams(env.Params, &p)
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
func (c *client) targetCommand(s *session, b []byte, env *cdp.Envelope) bool {
	sid, id := s.id, env.ID
	switch env.Method {
	case "Target.setAutoAttach":
		c.setAutoAttach(s, id, env.Params)
	case "Target.setDiscoverTargets":
		c.setDiscoverTargets(s, id, env.Params)
	case "Target.getTargets":
		var p struct {
			Filter targetFilter `json:"filter"`
		}
		if err := decodeParams(env.Params, &p); err != nil {
			c.replyErr(sid, id, codeInvalidParams, "Invalid parameters: "+err.Error())
			return true
		}
		c.reply(sid, id, map[string]any{"targetInfos": c.listTargets(p.Filter)})
	case "Target.getTargetInfo":
		var p struct {
			TargetID string `json:"targetId"`
		}
		_ = decodeParams(env.Params, &p)
		if p.TargetID == "" {
			c.reply(sid, id, map[string]any{"targetInfo": c.r.browserInfo()})
			return true
		}
		c.getTargetInfo(sid, id, p.TargetID)
	case "Target.attachToTarget":
		c.attachToTarget(s, id, env.Params)
	case "Target.detachFromTarget":
		c.detachFromTarget(s, id, env.Params)
	case "Target.createTarget":
		c.createTarget(s, id, env.Params)
	case "Target.closeTarget": // guardCommand has checked the client may
		c.forwardOwn(s, b, env)
	default:
		return false
	}
	return true
}

func (c *client) tabCommand(s *session, env *cdp.Envelope) {
	sid, id := s.id, env.ID
	switch env.Method {
	case "Target.setAutoAttach":
		var p struct {
			AutoAttach bool  `json:"autoAttach"`
			Flatten    *bool `json:"flatten"`
		}
		if err := decodeParams(env.Params, &p); err != nil {
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
		c.detachFromTarget(s, id, env.Params)
	default:
		c.replyErr(sid, id, codeMethodNotFound, "'"+env.Method+"' wasn't found")
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
	if t := c.targetOrTab(targetID); t != nil {
		info := t.view(c.attachedTo(targetID))
		if t.info.TargetID != targetID { // the id is the tab's
			info = t.tabView(c.attachedTo(targetID))
		}
		c.reply(sid, id, map[string]any{"targetInfo": info})
		return
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
		up, err := dialUpstream(dctx, c.r.wsClient, url)
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
