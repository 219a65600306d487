package consolelog

import (
	"context"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/capture"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/target"
)

// Capture starts with the session: every renderer target (window roots,
// webview guests, out-of-process frames) that exists when the session opens
// or appears later gets its socket opened and Runtime, Page and Log enabled
// at once, so console messages, Chromium's own log entries ("Failed to load
// resource"), exceptions and dialogs are recorded before any tool has acted
// in that window.

// enableTimeout bounds the enabling of one target (a page stopped by a
// dialog answers nothing).
const enableTimeout = 10 * time.Second

// Capture enables every renderer target of a pool as it appears and notes
// renderer crashes in a Log. Its goroutines belong to it: Close cancels and
// waits for them.
type Capture struct {
	pool     *target.Pool
	surfaces *surface.Registry
	log      *Log
	follow   *target.Follower

	mu      sync.Mutex
	started map[string]bool    // targets being enabled or enabled (pruned when they go)
	logs    *capture.LogSwitch // Log.enable once per socket
}

// StartCapture enables every renderer target pool has and every one it
// learns of later, until life ends or Close; a crash of one is noted in
// log. Start it after the session's listeners are in place (its log's
// among them), so nothing the enabling makes a target send is missed.
func StartCapture(life context.Context, pool *target.Pool, surfaces *surface.Registry, log *Log) *Capture {
	c := &Capture{pool: pool, surfaces: surfaces, log: log, started: map[string]bool{}, logs: capture.NewLogSwitch(), follow: target.NewFollower(life)}
	c.follow.Watch(pool, func(ch target.Change) {
		switch {
		case !target.IsRenderer(ch.Target.Type):
		case ch.Kind == target.Destroyed:
			c.mu.Lock()
			delete(c.started, ch.Target.ID)
			c.mu.Unlock()
		case ch.Kind == target.Crashed:
			c.log.NoteCrash(ch)
		default:
			// A target is often announced before /json/list has its
			// socket URL: a later change retries a failed start.
			c.enable(ch.Target.ID)
		}
	})
	// The targets the pool already knows (it listed them when it opened);
	// any it learns of later reach the watcher above.
	for _, info := range pool.Live() {
		if target.IsRenderer(info.Type) {
			c.enable(info.ID)
		}
	}
	return c
}

// Close stops following the pool, cancels the enabling under way and waits
// for it.
func (c *Capture) Close() error { return c.follow.Close() }

// enable opens and enables one target in the background, unless that is
// under way or done.
func (c *Capture) enable(targetID string) {
	c.mu.Lock()
	if c.started[targetID] {
		c.mu.Unlock()
		return
	}
	c.started[targetID] = true
	c.mu.Unlock()
	c.follow.Go(func() {
		if !c.enableNow(targetID) {
			c.mu.Lock()
			delete(c.started, targetID)
			c.mu.Unlock()
		}
	})
}

// enableNow enables Page, Runtime and Log on a target's socket, retrying
// for a while when the target has no socket URL yet.
func (c *Capture) enableNow(targetID string) bool {
	ctx, cancel := context.WithTimeout(c.follow.Life(), enableTimeout)
	defer cancel()
	for {
		err := c.surfaces.Enable(ctx, targetID)
		if err == nil {
			break
		}
		if errs.CodeOf(err) == errs.SurfaceClosed || errs.CodeOf(err) == errs.SurfaceNotFound {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(100 * time.Millisecond):
		}
	}
	conn, err := c.pool.Conn(ctx, targetID)
	if err != nil {
		return false
	}
	return c.logs.Enable(ctx, conn) == nil
}
