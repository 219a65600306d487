package network

import "testing"

// TestInboxBoundedDropsCounted: the reader's queue keeps at most
// maxInboxEvents events (and maxInboxBytes), drops the newest past that
// and counts them; what it kept comes out in order.
func TestInboxBoundedDropsCounted(t *testing.T) {
	b := newInbox()
	for i := range maxInboxEvents + 10 {
		b.put(rawEvent{target: "T", method: "Network.loadingFinished", params: []byte{byte(i)}})
	}
	if q, d := b.stats(); q != maxInboxEvents || d != 10 {
		t.Fatalf("queued %d dropped %d", q, d)
	}
	got := b.take(nil)
	for i, ev := range got {
		if ev.params[0] != byte(i) {
			t.Fatalf("event %d out of order", i)
		}
	}
	b.put(rawEvent{params: make([]byte, maxInboxBytes)})
	b.put(rawEvent{params: []byte{1}})
	if q, d := b.stats(); q != 1 || d != 11 {
		t.Fatalf("byte bound: queued %d dropped %d", q, d)
	}
}
