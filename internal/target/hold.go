package target

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"
)

// holdTimeout bounds how long one new target waits for the hold functions
// (ADR-033): past it the target runs whatever they did not finish.
const holdTimeout = 5 * time.Second

type holder struct {
	fn func(ctx context.Context, t Info)
}

// Hold registers fn to run for every window root (page, webview) that is
// created after Hold returns, before the target runs anything — before a
// popup's first navigation request. While at least one hold is registered
// the pool auto-attaches to new targets on the browser socket
// (Target.setAutoAttach with waitForDebuggerOnStart and flatten); a new
// target waits until every fn has returned (each bounded by holdTimeout
// through its ctx), and is then resumed (Runtime.runIfWaitingForDebugger)
// and detached, so the pool keeps one socket per target (ADR-003): fn
// typically opens it with [Pool.Conn] and enables a domain there. fn runs
// in a goroutine the pool owns. Targets that existed before are not held.
// remove unregisters fn; with the last hold gone auto-attach ends.
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
			}
		})
	}, nil
}

func (p *Pool) setAutoAttach(ctx context.Context, on bool) error {
	return p.browser.Call(ctx, "Target.setAutoAttach", map[string]any{
		"autoAttach": on, "waitForDebuggerOnStart": on, "flatten": true,
		"filter": []map[string]any{{"type": TypePage}, {"type": TypeWebview}, {"exclude": true}},
	}, nil)
}

// onAttached runs on the browser socket's reader: a target auto-attached
// while a hold is registered. It only starts the goroutine that holds,
// resumes and detaches it.
func (p *Pool) onAttached(params []byte) {
	var m struct {
		SessionID          string        `json:"sessionId"`
		TargetInfo         cdpTargetInfo `json:"targetInfo"`
		WaitingForDebugger bool          `json:"waitingForDebugger"`
	}
	if json.Unmarshal(params, &m) != nil || m.SessionID == "" {
		return
	}
	if !m.WaitingForDebugger {
		// Not one the hold paused: a session someone attached on purpose
		// (a flat-mode view, ADR-025, sees its own attachedToTarget here),
		// which must not be detached.
		return
	}
	if IsRenderer(m.TargetInfo.Type) {
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
	p.held++
	p.wg.Go(func() {
		defer func() {
			p.mu.Lock()
			p.held--
			p.mu.Unlock()
		}()
		if m.WaitingForDebugger && IsRenderer(info.Type) {
			ctx, cancel := context.WithTimeout(p.life, holdTimeout)
			var wg sync.WaitGroup
			for _, h := range hs {
				wg.Go(func() { h.fn(ctx, info) })
			}
			wg.Wait()
			cancel()
		}
		// Resume and let go, even when the pool is closing.
		ctx, cancel := context.WithTimeout(context.Background(), p.opts.CallTimeout)
		defer cancel()
		if m.WaitingForDebugger {
			_ = p.browser.Session(m.SessionID).Call(ctx, "Runtime.runIfWaitingForDebugger", nil, nil)
		}
		_ = p.browser.Call(ctx, "Target.detachFromTarget", map[string]any{"sessionId": m.SessionID}, nil)
	})
}
