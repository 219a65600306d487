package tool

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/understudy-dev/understudy/internal/cdp"
)

// TestConsoleRingCoalescesAndCounts: the ring keeps the newest entries in
// order at O(1) a message, a message repeated in a row is one entry whose
// count (and seq) grows, and the inbox the socket readers fill is bounded
// with what it lets go counted.
func TestConsoleRingCoalescesAndCounts(t *testing.T) {
	l := &consoleLog{}
	l.mu.Lock()
	for i := range maxConsoleEntries + 500 {
		l.add(consoleEntry{Type: "log", Text: "m" + strconv.Itoa(i), TargetID: "T"})
	}
	for range 3 {
		l.add(consoleEntry{Type: "log", Text: "again", TargetID: "T"})
	}
	l.add(consoleEntry{Type: "warning", Text: "again", TargetID: "T"})
	got := l.entries()
	dropped := l.dropped
	l.mu.Unlock()
	if len(got) != maxConsoleEntries || dropped != 502 {
		t.Fatalf("%d entries, dropped %d; want %d and 502", len(got), dropped, maxConsoleEntries)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Seq <= got[i-1].Seq {
			t.Fatalf("entries out of order at %d: %d then %d", i, got[i-1].Seq, got[i].Seq)
		}
	}
	last, again := got[len(got)-1], got[len(got)-2]
	if again.Text != "again" || again.Count != 3 || last.Type != "warning" || last.Count != 0 || got[0].Text != "m502" {
		t.Fatalf("oldest %v, repeated %v, newest %v", got[0], again, last)
	}

	l.working = true // no worker: this checks the bound alone
	for i := range maxConsoleInbox + 250 {
		l.OnEvent(nil, cdp.Event{Method: "Runtime.consoleAPICalled", Params: json.RawMessage(`{"n":` + strconv.Itoa(i) + `}`)})
	}
	l.OnEvent(nil, cdp.Event{Method: "Page.loadEventFired", Params: json.RawMessage(`{}`)})
	if len(l.inbox) != maxConsoleInbox || l.inDropped != 250 || string(l.inbox[0].ev.Params) != `{"n":250}` {
		t.Fatalf("inbox %d (first %s), dropped %d", len(l.inbox), l.inbox[0].ev.Params, l.inDropped)
	}
}
