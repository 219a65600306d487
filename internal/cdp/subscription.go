package cdp

import (
	"sync"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
)

// subscription buffers events without bound so the reader never waits for a
// slow consumer. Its pump goroutine ends when the subscription closes.
type subscription struct {
	out chan jsonv2.Value

	mu     sync.Mutex
	queue  []jsonv2.Value
	wake   chan struct{}
	closed bool
}

func newSubscription() *subscription {
	s := &subscription{out: make(chan jsonv2.Value), wake: make(chan struct{}, 1)}
	go s.pump()
	return s
}

func (s *subscription) push(v jsonv2.Value) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.queue = append(s.queue, v)
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
			s.mu.Unlock()
			<-s.wake
			continue
		}
		v := s.queue[0]
		s.queue[0] = nil
		s.queue = s.queue[1:]
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
