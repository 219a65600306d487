package network

import "sync"

// Inbox limits (ADR-014, ADR-033): the reader only queues; past these
// the newest events are dropped and counted.
const (
	maxInboxEvents = 8192
	maxInboxBytes  = 16 << 20
)

// rawEvent is a Network.* event as the reader got it; the worker decodes it.
type rawEvent struct {
	target string
	method string
	params []byte
}

// inbox is the bounded queue between the socket readers and the decoder.
type inbox struct {
	mu      sync.Mutex
	q       []rawEvent
	bytes   int
	dropped int64
	wake    chan struct{}
	// decode serializes decoding (the worker and a reader's drain), so
	// events are applied in the order they were queued.
	decode sync.Mutex
}

func newInbox() *inbox { return &inbox{wake: make(chan struct{}, 1)} }

// put queues an event, or drops it when the inbox is full. O(1); it runs
// on a socket's reader.
func (b *inbox) put(ev rawEvent) {
	b.mu.Lock()
	if len(b.q) >= maxInboxEvents || b.bytes+len(ev.params) > maxInboxBytes {
		b.dropped++
		b.mu.Unlock()
		return
	}
	b.q = append(b.q, ev)
	b.bytes += len(ev.params)
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// take returns what is queued and empties the inbox. b.decode is held.
func (b *inbox) take(spare []rawEvent) []rawEvent {
	b.mu.Lock()
	defer b.mu.Unlock()
	q := b.q
	b.q, b.bytes = spare[:0], 0
	return q
}

func (b *inbox) stats() (queued int, dropped int64) {
	if b == nil {
		return 0, 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.q), b.dropped
}

// decodeWorker decodes queued events until the Network closes.
func (n *Network) decodeWorker() {
	for {
		select {
		case <-n.life.Done():
			return
		case <-n.in.wake:
		}
		n.drain()
	}
}

// drain decodes every queued event now: the worker's loop, and readers
// of the ring that must see what came before their call.
func (n *Network) drain() {
	if n.in == nil { // a Network built by a test without New
		return
	}
	n.in.decode.Lock()
	defer n.in.decode.Unlock()
	for {
		batch := n.in.take(n.spare)
		if len(batch) == 0 {
			n.spare = batch
			return
		}
		for i := range batch {
			ev := &batch[i]
			n.onNetwork(ev.target, ev.method, ev.params)
			*ev = rawEvent{} // let the params go
		}
		n.spare = batch
	}
}
