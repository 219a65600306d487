package target

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// holdTimeout bounds how long one new target waits for the hold functions
// (ADR-033): past it the target runs whatever they did not finish.
const holdTimeout = 5 * time.Second

type holder struct {
	fn func(ctx context.Context, t Info)
}

// Hold registers fn to run for every renderer target created after Hold
// returns — a window (page, webview) before its first navigation request,
// an OOPIF before its document commits — before the target runs anything.
// While at least one hold is registered the pool auto-attaches to new
// windows on the browser socket and to new OOPIFs on the socket of their
// parent target (Target.setAutoAttach with waitForDebuggerOnStart and
// flatten; the parent's socket is opened if it was not); a new target
// waits until every fn has returned (each bounded by holdTimeout through
// its ctx), and is then resumed (Runtime.runIfWaitingForDebugger) and
// detached, so the pool keeps one socket per target (ADR-003): fn
// typically opens it with [Pool.Conn] and enables a domain there. fn runs
// in a goroutine the pool owns. Targets that existed before are not held.
// remove unregisters fn; with the last hold gone auto-attach ends.
//
// Chromium attaches a window made with Target.createTarget after its first
// document committed: open it at about:blank, wait with [Pool.Settle] and
// navigate it then (ADR-033).
func (p *Pool) Hold(ctx context.Context, fn func(ctx context.Context, t Info)) (remove func(), err error) {
	h := &holder{fn: fn}
	p.holdMu.Lock()
	defer p.holdMu.Unlock()
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errClosed()
	}
	first := len(p.holders) == 0
	p.holders = append(p.holders, h)
	p.mu.Unlock()
	if first {
		if err := p.setAutoAttach(ctx, true); err != nil {
			p.mu.Lock()
			p.holders = slices.DeleteFunc(p.holders, func(x *holder) bool { return x == h })
			p.mu.Unlock()
			return nil, err
		}
		p.childAttachAll(ctx, true)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			p.holdMu.Lock()
			defer p.holdMu.Unlock()
			p.mu.Lock()
			p.holders = slices.DeleteFunc(slices.Clone(p.holders), func(x *holder) bool { return x == h })
			last := len(p.holders) == 0 && !p.closed
			p.mu.Unlock()
			if last {
				ctx, cancel := context.WithTimeout(context.Background(), p.opts.CallTimeout)
				defer cancel()
				_ = p.setAutoAttach(ctx, false)
				p.childAttachAll(ctx, false)
			}
		})
	}, nil
}

func (p *Pool) setAutoAttach(ctx context.Context, on bool) error {
	return p.browser.Call(ctx, "Target.setAutoAttach", autoAttach(on, TypePage, TypeWebview), nil)
}

// setChildAttach switches auto-attach to a target's OOPIFs on its own
// socket (conn).
func setChildAttach(ctx context.Context, conn *cdp.Conn, on bool) error {
	return conn.Call(ctx, "Target.setAutoAttach", autoAttach(on, TypeIframe), nil)
}

// autoAttach is Target.setAutoAttach's params: on, waiting for the
// debugger, for the target types given; or off (Chromium refuses a filter
// then: "Target filter should be empty when disabling auto-attach").
func autoAttach(on bool, types ...string) map[string]any {
	m := map[string]any{"autoAttach": on, "waitForDebuggerOnStart": on, "flatten": true}
	if on {
		f := make([]map[string]any, 0, len(types)+1)
		for _, t := range types {
			f = append(f, map[string]any{"type": t})
		}
		m["filter"] = append(f, map[string]any{"exclude": true})
	}
	return m
}

// childAttachAll switches auto-attach to OOPIFs on: on the socket of every
// live renderer target (opening the ones not open), in parallel and best
// effort (a target without it is still enabled when the watcher reports
// its new OOPIFs); or off on every socket that has it. Callers hold
// p.holdMu.
func (p *Pool) childAttachAll(ctx context.Context, on bool) {
	var ids []string
	p.mu.Lock()
	for id, e := range p.entries {
		if e.destroyedAt == 0 && IsRenderer(e.info.Type) {
			ids = append(ids, id)
		}
	}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { p.childAttachLocked(ctx, id, on) })
	}
	wg.Wait()
}

// childAttach switches auto-attach to OOPIFs on in target id's socket,
// opening it, unless no hold is registered or it is on already.
func (p *Pool) childAttach(ctx context.Context, id string) {
	if _, err := p.Socket(ctx, id); err != nil {
		return
	}
	p.holdMu.Lock()
	defer p.holdMu.Unlock()
	p.mu.Lock()
	on := len(p.holders) > 0
	p.mu.Unlock()
	if on {
		p.childAttachLocked(ctx, id, true)
	}
}

// childAttachLocked switches auto-attach to OOPIFs on target id's socket.
// Switching on opens the socket; switching off touches only an open one.
// Callers hold p.holdMu (which orders every switch).
func (p *Pool) childAttachLocked(ctx context.Context, id string, on bool) {
	var s *Socket
	if on {
		var err error
		if s, err = p.Socket(ctx, id); err != nil {
			return
		}
	} else {
		p.mu.Lock()
		s = p.sockets[id]
		p.mu.Unlock()
		if s == nil || s.Conn() == nil {
			return
		}
	}
	p.mu.Lock()
	same := s.childAttach == on
	p.mu.Unlock()
	if same {
		return
	}
	if setChildAttach(ctx, s.conn, on) != nil {
		return
	}
	p.mu.Lock()
	s.childAttach = on
	p.mu.Unlock()
}

// attached is the part of Target.attachedToTarget the pool reads.
type attached struct {
	SessionID          string        `json:"sessionId"`
	TargetInfo         cdpTargetInfo `json:"targetInfo"`
	WaitingForDebugger bool          `json:"waitingForDebugger"`
}

// onAttached runs on the browser socket's reader: a target auto-attached
// while a hold is registered. It only starts the goroutine that holds,
// resumes and detaches it.
func (p *Pool) onAttached(params []byte) {
	var m attached
	if json.Unmarshal(params, &m) != nil || m.SessionID == "" {
		return
	}
	if !m.WaitingForDebugger {
		// Not one the hold paused: a session someone attached on purpose
		// (a flat-mode view, ADR-025, sees its own attachedToTarget here),
		// which must not be detached.
		return
	}
	p.hold(p.browser, m)
}

// onChildAttached runs on the reader of target s's socket: an OOPIF of s
// auto-attached there (childAttach). Every session on a target's socket is
// one auto-attach made, so one that does not wait (an OOPIF that was
// there before) is let go at once.
func (p *Pool) onChildAttached(s *Socket, params []byte) {
	var m attached
	if json.Unmarshal(params, &m) != nil || m.SessionID == "" {
		return
	}
	conn := s.Conn()
	if conn == nil {
		return
	}
	p.hold(conn, m)
}

// hold starts the goroutine that runs the hold functions for a target
// attached on via's root session and lets it go.
func (p *Pool) hold(via *cdp.Conn, m attached) {
	if IsRenderer(m.TargetInfo.Type) && m.WaitingForDebugger {
		p.upsert(m.TargetInfo) // known before its targetCreated is handled
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return // the browser socket closes: Chromium resumes and detaches it
	}
	hs := slices.Clone(p.holders)
	info := Info{ID: m.TargetInfo.TargetID, Type: m.TargetInfo.Type, URL: m.TargetInfo.URL, OpenerID: m.TargetInfo.OpenerID}
	if e := p.entries[info.ID]; e != nil {
		info = e.info
	}
	sess := via.Session(m.SessionID)
	done := make(chan struct{})
	if m.WaitingForDebugger {
		p.held[info.ID] = done // ADR-008: removed when it is let go, below
	}
	p.wg.Go(func() {
		defer func() {
			p.mu.Lock()
			if p.held[info.ID] == done {
				delete(p.held, info.ID)
			}
			p.mu.Unlock()
			close(done)
		}()
		if m.WaitingForDebugger && IsRenderer(info.Type) {
			ctx, cancel := context.WithTimeout(p.life, holdTimeout)
			var wg sync.WaitGroup
			for _, h := range hs {
				wg.Go(func() { h.fn(ctx, info) })
			}
			if len(hs) > 0 {
				// Its own OOPIFs are held too: the ones its first
				// document makes appear before anyone else sees them.
				wg.Go(func() { p.childAttach(ctx, info.ID) })
			}
			wg.Wait()
			cancel()
		}
		// Resume and let go, even when the pool is closing.
		ctx, cancel := context.WithTimeout(context.Background(), p.opts.CallTimeout)
		defer cancel()
		if m.WaitingForDebugger {
			_ = sess.Call(ctx, "Runtime.runIfWaitingForDebugger", nil, nil)
		}
		_ = via.Call(ctx, "Target.detachFromTarget", map[string]any{"sessionId": m.SessionID}, nil)
	})
}

// Holding reports whether a hold is registered.
func (p *Pool) Holding() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.holders) > 0
}

// Settle waits until target id is not held: its hold functions have run
// and it was resumed. A target no hold paused settles at once. A window
// Target.createTarget made is held (if at all) before that call returns,
// as Chromium reports the attach before the reply.
func (p *Pool) Settle(ctx context.Context, id string) error {
	p.mu.Lock()
	done := p.held[id]
	p.mu.Unlock()
	if done == nil {
		return nil
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return errs.FromContext(ctx, errs.CDPTimeout, "waiting for the new target "+id+" to start")
	}
}
