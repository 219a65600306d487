package relay

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/coder/websocket"
)

// Attaching targets to a client: browser-level auto-attach (pages directly,
// or tab targets above them), dialling a target's own socket for a session,
// commands that wait for a new target to show up or be attached, the owner's
// timers, and what the hub's mail about targets changes. All of it runs on
// the client's owner goroutine.

// setAutoAttach handles Target.setAutoAttach on a browser session: it
// attaches every page (or, when the filter admits tabs, a tab target above
// each page) that the session has not attached yet, and replies once the
// client has been told about all of them, as Chromium does.
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
		up, err := dialUpstream(dctx, c.r.wsClient, url)
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
	if c.hidden[tid] {
		return // the client closed its view of this window
	}
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
	if c.hidden[tid] {
		delete(c.hidden, tid)
		c.r.stats.closedViews.Add(-1)
	}
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
	delete(c.created, tid) // bounded state: the target is gone (docs/adr/008)
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
