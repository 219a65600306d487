package relay

import (
	"sync"
	"sync/atomic"
)

// outQueue holds the messages waiting to be written to one client. It has
// two lanes: prio (replies and every event that must not be dropped, in the
// order they came) and bulk (high-volume events that may be dropped, see
// droppable). The writer always empties prio first, so a reply never waits
// behind a flood of network or console events; events within a lane keep
// their order.
//
// Limits, over both lanes: at soft messages or more (or a quarter of
// maxBytes queued), a droppable event is dropped and counted; past hard
// messages, or past maxBytes, push reports an overflow and the client must
// be disconnected.
//
// It is safe for concurrent use: upstream readers and the client's owner
// push, the client's writer pops.
type outQueue struct {
	soft, hard int
	maxBytes   int
	drops      *atomic.Uint64 // the relay's counter, or nil

	mu      sync.Mutex
	prio    fifo
	bulk    fifo
	bytes   int
	dropped uint64
	over    bool // an overflow happened; nothing more is queued
	ready   chan struct{}
}

func newOutQueue(soft, hard, maxBytes int, drops *atomic.Uint64) *outQueue {
	return &outQueue{soft: soft, hard: hard, maxBytes: maxBytes, drops: drops, ready: make(chan struct{}, 1)}
}

// push queues b. It returns false when the queue overflowed (now or
// before): the message is not queued and the client is too slow to keep.
func (q *outQueue) push(b []byte, canDrop bool) bool {
	q.mu.Lock()
	if q.over {
		q.mu.Unlock()
		return false
	}
	n := q.prio.len() + q.bulk.len()
	if canDrop && (n >= q.soft || q.bytes+len(b) > q.maxBytes/4) {
		q.dropped++
		q.mu.Unlock()
		if q.drops != nil {
			q.drops.Add(1)
		}
		return true
	}
	if n >= q.hard || q.bytes+len(b) > q.maxBytes {
		q.over = true
		q.mu.Unlock()
		return false
	}
	if canDrop {
		q.bulk.push(b)
	} else {
		q.prio.push(b)
	}
	q.bytes += len(b)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
	return true
}

// pop returns the next message, prio lane first, or nil when both are empty.
func (q *outQueue) pop() []byte {
	q.mu.Lock()
	defer q.mu.Unlock()
	b := q.prio.pop()
	if b == nil {
		b = q.bulk.pop()
	}
	q.bytes -= len(b)
	return b
}

// stats returns how many messages are queued and how many were dropped.
func (q *outQueue) stats() (queued int, dropped uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.prio.len() + q.bulk.len(), q.dropped
}

// fifo is a slice-backed queue of messages.
type fifo struct {
	items [][]byte
	head  int
}

func (f *fifo) len() int { return len(f.items) - f.head }

func (f *fifo) push(b []byte) {
	if f.head > 0 && f.head == len(f.items) {
		f.items, f.head = f.items[:0], 0
	} else if f.head >= 1024 && f.head*2 >= len(f.items) {
		n := copy(f.items, f.items[f.head:])
		clear(f.items[n:])
		f.items, f.head = f.items[:n], 0
	}
	f.items = append(f.items, b)
}

func (f *fifo) pop() []byte {
	if f.head == len(f.items) {
		return nil
	}
	b := f.items[f.head]
	f.items[f.head] = nil
	f.head++
	return b
}
