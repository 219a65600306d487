package session

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Class says how a tool call shares its session with the calls in flight
// beside it (docs/adr/018).
type Class int

// The classes.
const (
	// Shared calls (reads and waits) run beside each other and beside one
	// Ordered call; they wait only for an Exclusive one.
	Shared Class = iota
	// Ordered calls (actions) run one at a time, in the order they
	// arrived, beside any number of Shared calls.
	Ordered
	// Exclusive calls (session state: switching surface or window, the
	// dialog policy, the relay, detach and stop) run alone.
	Exclusive
)

func (c Class) String() string {
	switch c {
	case Shared:
		return "shared"
	case Ordered:
		return "ordered"
	case Exclusive:
		return "exclusive"
	}
	return fmt.Sprintf("class(%d)", int(c))
}

// gate is the session's admission of tool calls: any number of Shared
// holders, at most one Ordered holder, and an Exclusive holder only alone.
// Ordered and Exclusive calls queue in arrival order and only the head of
// the queue may enter, so actions keep their order; a queued Exclusive
// call also holds back new Shared ones, so a stream of reads cannot starve
// it. Every wait for entry ends with its context.
type gate struct {
	mu      sync.Mutex
	shared  int
	ordered bool
	excl    bool
	queue   []*waiter        // Ordered and Exclusive calls waiting, in arrival order
	exclQ   int              // Exclusive calls in queue
	holds   map[*Hold]string // who holds what (for the busy message)
	changed chan struct{}    // closed and replaced whenever the state changes
}

type waiter struct{ class Class }

// Hold is one call's admission to its session. Release it exactly once.
type Hold struct {
	s        *Session
	call     string
	class    Class
	since    time.Time
	gaveUpAt time.Time // guarded by the gate's mu
	released bool
}

func (g *gate) init() {
	g.changed = make(chan struct{})
	g.holds = map[*Hold]string{}
}

// broadcastLocked wakes every waiter to look again.
func (g *gate) broadcastLocked() {
	close(g.changed)
	g.changed = make(chan struct{})
}

func (g *gate) canEnterLocked(c Class, w *waiter) bool {
	switch c {
	case Shared:
		return !g.excl && g.exclQ == 0
	case Ordered:
		return len(g.queue) > 0 && g.queue[0] == w && !g.excl && !g.ordered
	case Exclusive:
		return len(g.queue) > 0 && g.queue[0] == w && !g.excl && !g.ordered && g.shared == 0
	}
	return false
}

func (g *gate) dequeueLocked(w *waiter) {
	for i, q := range g.queue {
		if q == w {
			g.queue = append(g.queue[:i], g.queue[i+1:]...)
			if w.class == Exclusive {
				g.exclQ--
			}
			return
		}
	}
}

// Acquire admits the call named call to the session under its class, or
// gives up when ctx ends with OPERATION_TIMEOUT naming the calls in the
// way.
//
// The rule (docs/adr/005, ownership of goroutines and sessions): the
// goroutine that runs a call's handler holds the admission and releases it
// when the handler returns; every handler's work is bounded by its call
// context, which the dispatcher's backstop cancels. So a call the backstop
// gave up on releases at its next blocking step; until then later calls
// wait at most their own deadline here, and never hang.
func (s *Session) Acquire(ctx context.Context, call string, c Class) (*Hold, error) {
	g := &s.gate
	g.mu.Lock()
	var w *waiter
	if c != Shared {
		w = &waiter{class: c}
		g.queue = append(g.queue, w)
		if c == Exclusive {
			g.exclQ++
		}
	}
	for {
		if g.canEnterLocked(c, w) {
			switch c {
			case Shared:
				g.shared++
			case Ordered:
				g.ordered = true
			case Exclusive:
				g.excl = true
			}
			if w != nil {
				g.dequeueLocked(w)
				g.broadcastLocked() // the next in the queue may look now
			}
			h := &Hold{s: s, call: call, class: c, since: time.Now()}
			g.holds[h] = call
			g.mu.Unlock()
			return h, nil
		}
		ch := g.changed
		g.mu.Unlock()
		select {
		case <-ch:
			g.mu.Lock()
		case <-ctx.Done():
			g.mu.Lock()
			if w != nil {
				g.dequeueLocked(w)
				g.broadcastLocked()
			}
			e := g.busyLocked(s.ID, c)
			g.mu.Unlock()
			return nil, e
		}
	}
}

// busyLocked is the answer to a call that waited too long: it names the
// calls in flight, the oldest first.
func (g *gate) busyLocked(id string, c Class) error {
	e := errs.New(errs.OperationTimeout, "waited too long for other calls on session %s to finish", id)
	hs := make([]*Hold, 0, len(g.holds))
	for h := range g.holds {
		// A Shared call waits only for an Exclusive holder (or one queued);
		// name what is actually in its way when that is known.
		if c == Shared && h.class != Exclusive && g.excl {
			continue
		}
		hs = append(hs, h)
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].since.Before(hs[j].since) })
	if len(hs) == 0 {
		if g.exclQ > 0 {
			e.Message += " (a call that changes the session's state is queued before it)"
		}
		return e
	}
	parts := make([]string, 0, len(hs))
	for _, h := range hs {
		p := fmt.Sprintf("%s, running for %s", h.call, time.Since(h.since).Round(time.Millisecond))
		if !h.gaveUpAt.IsZero() {
			p += fmt.Sprintf("; its caller gave up on it %s ago and it ends at its next step", time.Since(h.gaveUpAt).Round(time.Millisecond))
		}
		parts = append(parts, p)
	}
	e.Message += " (" + strings.Join(parts, "; ") + ")"
	e.With("busy_with", hs[0].call)
	return e
}

// GaveUp records that the dispatcher stopped waiting for this call (its
// backstop fired, or its client cancelled): the handler still runs until
// its context's end reaches it, and then releases.
func (h *Hold) GaveUp() {
	g := &h.s.gate
	g.mu.Lock()
	if !h.released {
		h.gaveUpAt = time.Now()
	}
	g.mu.Unlock()
}

// Release ends the call's admission. A second Release does nothing.
func (h *Hold) Release() {
	g := &h.s.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	if h.released {
		return
	}
	h.released = true
	delete(g.holds, h)
	switch h.class {
	case Shared:
		g.shared--
	case Ordered:
		g.ordered = false
	case Exclusive:
		g.excl = false
	}
	g.broadcastLocked()
}

// Busy lists the calls in flight on the session, the oldest first (for
// status and tests).
func (s *Session) Busy() []string {
	g := &s.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	hs := make([]*Hold, 0, len(g.holds))
	for h := range g.holds {
		hs = append(hs, h)
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].since.Before(hs[j].since) })
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.call
	}
	return out
}
