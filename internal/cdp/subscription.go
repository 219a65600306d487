package cdp

import (
	"sync"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
)

// Default bounds of one subscription's queue (see Options).
const (
	defaultSubscriptionQueue      = 1024
	defaultSubscriptionQueueBytes = 16 << 20
)

// subscription queues events for one subscriber between the reader and
// the subscriber's channel. The queue is bounded (count and bytes): when it
// is full the reader drops the incoming event (drop newest: what a waiter
// is after is usually the first event after it subscribed, and the events
// already queued stay in order) and counts it, on the subscription and on
// the connection. The reader never waits for a subscriber. Its pump
// goroutine ends when the subscription closes.
type subscription struct {
	out      chan jsonv2.Value
	limit    int
	maxBytes int
	onDrop   func()

	mu      sync.Mutex
	queue   []jsonv2.Value
	bytes   int
	dropped int64
	wake    chan struct{}
	closed  bool
}

func newSubscription(limit, maxBytes int, onDrop func()) *subscription {
	s := &subscription{out: make(chan jsonv2.Value), limit: limit, maxBytes: maxBytes, onDrop: onDrop,
		wake: make(chan struct{}, 1)}
	go s.pump()
	return s
}

// push queues v, or drops and counts it when the queue is full. It never
// blocks beyond the subscription's own short lock.
func (s *subscription) push(v jsonv2.Value) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	if len(s.queue) >= s.limit || (len(s.queue) > 0 && s.bytes+len(v) > s.maxBytes) {
		s.dropped++
		s.mu.Unlock()
		if s.onDrop != nil {
			s.onDrop()
		}
		return
	}
	s.queue = append(s.queue, v)
	s.bytes += len(v)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *subscription) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.queue = nil
	s.bytes = 0
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *subscription) pump() {
	defer close(s.out)
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return
		}
		if len(s.queue) == 0 {
			s.queue = nil // let a flood's backing array go
			s.mu.Unlock()
			<-s.wake
			continue
		}
		v := s.queue[0]
		s.queue[0] = nil
		s.queue = s.queue[1:]
		s.bytes -= len(v)
		s.mu.Unlock()
		// Deliver, but give up when the subscription closes meanwhile.
		for delivered := false; !delivered; {
			select {
			case s.out <- v:
				delivered = true
			case <-s.wake:
				s.mu.Lock()
				closed := s.closed
				s.mu.Unlock()
				if closed {
					return
				}
			}
		}
	}
}
