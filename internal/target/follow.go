package target

import (
	"context"
	"sync"
)

// Follower owns the goroutines a component starts for targets as the pool
// reports them (ADR-005): [Follower.Go] starts one unless the follower is
// closed, and [Follower.Close] stops following the pool, cancels
// [Follower.Life] and waits for every one of them.
type Follower struct {
	life    context.Context
	cancel  context.CancelFunc
	unwatch func()

	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup
}

// NewFollower returns a follower living until life ends or Close. Start
// following with [Follower.Watch] once whatever its function reaches is
// in place.
func NewFollower(life context.Context) *Follower {
	f := &Follower{unwatch: func() {}}
	f.life, f.cancel = context.WithCancel(life)
	return f
}

// Watch sends every later change of the pool's target set to fn (see
// [Pool.Watch]) until Close. Call it once.
func (f *Follower) Watch(p *Pool, fn func(Change)) {
	rm := p.Watch(fn)
	f.mu.Lock()
	f.unwatch = rm
	closed := f.closed
	f.mu.Unlock()
	if closed {
		rm()
	}
}

// Life ends on Close (or when the life NewFollower was given ends).
func (f *Follower) Life() context.Context { return f.life }

// Go runs fn in a goroutine the follower owns, unless it is closed; it
// reports whether fn was started.
func (f *Follower) Go(fn func()) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	f.wg.Go(fn)
	return true
}

// Close stops following the pool, cancels Life and waits for the
// goroutines started with Go.
func (f *Follower) Close() error {
	f.mu.Lock()
	f.closed = true
	unwatch := f.unwatch
	f.mu.Unlock()
	unwatch()
	f.cancel()
	f.wg.Wait()
	return nil
}
