package consolelog

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/understudy-dev/understudy/internal/target"
)

// TestRingCoalescesAndCounts: the ring keeps the newest entries in order at
// O(1) a message, a message repeated in a row is one entry whose count (and
// seq) grows, and the inbox the socket readers fill is bounded with what it
// lets go counted.
func TestRingCoalescesAndCounts(t *testing.T) {
	l := New(Options{})
	l.mu.Lock()
	for i := range MaxEntries + 500 {
		l.add(Entry{Type: "log", Text: "m" + strconv.Itoa(i), TargetID: "T"})
	}
	for range 3 {
		l.add(Entry{Type: "log", Text: "again", TargetID: "T"})
	}
	l.add(Entry{Type: "warning", Text: "again", TargetID: "T"})
	got := l.entries()
	dropped := l.dropped
	l.mu.Unlock()
	if len(got) != MaxEntries || dropped != 502 {
		t.Fatalf("%d entries, dropped %d; want %d and 502", len(got), dropped, MaxEntries)
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
	for i := range maxInbox + 250 {
		l.OnEvent(nil, target.Event{Method: "Runtime.consoleAPICalled", Params: json.RawMessage(`{"n":` + strconv.Itoa(i) + `}`)})
	}
	l.OnEvent(nil, target.Event{Method: "Page.loadEventFired", Params: json.RawMessage(`{}`)})
	if len(l.inbox) != maxInbox || l.inDropped != 250 || string(l.inbox[0].ev.Params) != `{"n":250}` {
		t.Fatalf("inbox %d (first %s), dropped %d", len(l.inbox), l.inbox[0].ev.Params, l.inDropped)
	}
}

// TestInboxBytesBound: a few huge events let the oldest go by bytes before
// the count bound is reached, and never the newest.
func TestInboxBytesBound(t *testing.T) {
	l := New(Options{})
	l.working = true
	big := json.RawMessage(`{"s":"` + strings.Repeat("x", maxInboxBytes/3) + `"}`)
	for range 5 {
		l.OnEvent(nil, target.Event{Method: "Log.entryAdded", Params: big})
	}
	if len(l.inbox) != 2 || l.inDropped != 3 || l.inboxBytes > maxInboxBytes {
		t.Fatalf("inbox %d (%d bytes), dropped %d", len(l.inbox), l.inboxBytes, l.inDropped)
	}
	huge := json.RawMessage(`{"s":"` + strings.Repeat("x", maxInboxBytes+1) + `"}`)
	l.OnEvent(nil, target.Event{Method: "Log.entryAdded", Params: huge})
	if len(l.inbox) != 1 || l.inDropped != 5 {
		t.Fatalf("one event over the bound: inbox %d, dropped %d", len(l.inbox), l.inDropped)
	}
}

// group is a session's goroutine group as the tests need it: Spawn runs in
// it, close cancels and joins.
type group struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	closed bool
	spawns int
}

func newGroup() *group {
	g := &group{}
	g.ctx, g.cancel = context.WithCancel(context.Background())
	return g
}

func (g *group) spawn(f func(ctx context.Context)) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.spawns++
	g.wg.Go(func() { f(g.ctx) })
	return true
}

func (g *group) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.cancel()
	g.wg.Wait()
}

func consoleEvent(text string) target.Event {
	return target.Event{Method: "Runtime.consoleAPICalled",
		Params: json.RawMessage(`{"type":"log","args":[{"type":"string","value":` + strconv.Quote(text) + `}]}`)}
}

// TestWorkerDecodesInOrderAndEnds: the worker the first event starts
// decodes every queued event in order and ends when the inbox is empty
// (the next event starts another); Read sees what came before it; a
// closed group starts no worker and the inbox waits for the next read.
func TestWorkerDecodesInOrderAndEnds(t *testing.T) {
	g := newGroup()
	l := New(Options{Spawn: g.spawn})
	for i := range 3 * batch {
		l.OnEvent(nil, consoleEvent("m"+strconv.Itoa(i)))
	}
	l.OnEvent(nil, target.Event{Method: "Runtime.consoleAPICalled", SessionID: "child", Params: consoleEvent("child").Params})
	deadline := time.Now().Add(10 * time.Second)
	for {
		l.inMu.Lock()
		idle := !l.working && len(l.inbox) == 0
		l.inMu.Unlock()
		if idle {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the worker did not end")
		}
		time.Sleep(5 * time.Millisecond)
	}
	p := l.Read(Query{})
	if len(p.Entries) != 3*batch || p.Entries[0].Text != "m0" || p.Entries[len(p.Entries)-1].Text != "m"+strconv.Itoa(3*batch-1) || p.Dropped != 0 {
		t.Fatalf("%d entries (first %v), dropped %d", len(p.Entries), p.Entries[0], p.Dropped)
	}
	l.OnEvent(nil, consoleEvent("after"))
	g.close()
	g.mu.Lock()
	spawns := g.spawns
	g.mu.Unlock()
	if spawns < 2 {
		t.Fatalf("%d workers started; want one per busy spell", spawns)
	}
	l.OnEvent(nil, consoleEvent("closed"))
	p = l.Read(Query{Since: p.NextSince})
	if len(p.Entries) != 2 || p.Entries[1].Text != "closed" {
		t.Fatalf("after close: %v", p.Entries)
	}
}

// TestFloodIsPacedAndCounted: events that come faster than the worker's
// pace are let go oldest first and counted in Dropped; what is kept is the
// newest, in order.
func TestFloodIsPacedAndCounted(t *testing.T) {
	g := newGroup()
	defer g.close()
	l := New(Options{Spawn: g.spawn})
	const n = 5 * maxInbox
	for i := range n {
		l.OnEvent(nil, consoleEvent("f"+strconv.Itoa(i)))
	}
	p := l.Read(Query{Limit: MaxEntries})
	if p.Dropped == 0 || int64(len(p.Entries))+p.Dropped != n {
		t.Fatalf("%d entries + %d dropped; want %d", len(p.Entries), p.Dropped, n)
	}
	if last := p.Entries[len(p.Entries)-1].Text; last != "f"+strconv.Itoa(n-1) {
		t.Fatalf("newest kept %q", last)
	}
	for i := 1; i < len(p.Entries); i++ {
		a, _ := strconv.Atoi(strings.TrimPrefix(p.Entries[i-1].Text, "f"))
		b, _ := strconv.Atoi(strings.TrimPrefix(p.Entries[i].Text, "f"))
		if b <= a {
			t.Fatalf("out of order at %d: %q then %q", i, p.Entries[i-1].Text, p.Entries[i].Text)
		}
	}
}

// TestReadFilters: type, match, since and limit select; NextSince is the
// newest seq returned, or since when none is; Entries is never nil.
func TestReadFilters(t *testing.T) {
	var seq int64
	l := New(Options{Next: func() int64 { seq += 10; return seq }})
	for _, e := range []Entry{{Type: "log", Text: "top one"}, {Type: "warning", Text: "from two"}, {Type: "log", Text: "three"}, {Type: "error", Text: "top four"}} {
		l.mu.Lock()
		l.add(e)
		l.mu.Unlock()
	}
	texts := func(p Page) string {
		var s []string
		for _, e := range p.Entries {
			s = append(s, e.Text)
		}
		return strings.Join(s, ",") + " next " + strconv.FormatInt(p.NextSince, 10)
	}
	for _, c := range []struct {
		q    Query
		want string
	}{
		{Query{}, "top one,from two,three,top four next 40"},
		{Query{Type: "log"}, "top one,three next 30"},
		{Query{Match: regexp.MustCompile("^(top|from) ")}, "top one,from two,top four next 40"},
		{Query{Since: 20}, "three,top four next 40"},
		{Query{Limit: 1}, "top four next 40"},
		{Query{Since: 40}, " next 40"},
	} {
		p := l.Read(c.q)
		if got := texts(p); got != c.want || p.Entries == nil {
			t.Errorf("%+v: %q, want %q", c.q, got, c.want)
		}
	}
}

// TestNoteCrash: a crash is an error entry of source crash on its target.
func TestNoteCrash(t *testing.T) {
	l := New(Options{})
	l.NoteCrash(target.Change{Kind: target.Crashed, Target: target.Info{ID: "T1", URL: "https://a.test/"}, ErrorCode: 9})
	got := l.Entries()
	if len(got) != 1 || got[0].Type != "error" || got[0].Source != "crash" || got[0].TargetID != "T1" || got[0].URL != "https://a.test/" ||
		!strings.Contains(got[0].Text, "(crashed, code 9)") {
		t.Fatalf("%+v", got)
	}
}

func TestClipText(t *testing.T) {
	long := strings.Repeat("é", MaxText)
	if c := ClipText(long); len(c) > MaxText+40 || !strings.HasSuffix(c, "… ("+strconv.Itoa(len(long))+" bytes)") || !utf8.ValidString(c) || !strings.HasPrefix(long, c[:strings.Index(c, "…")]) {
		t.Errorf("ClipText: %d bytes, %q…", len(c), c[:20])
	}
	if s := strings.Repeat("a", MaxText); ClipText(s) != s {
		t.Error("ClipText cut a text within the bound")
	}
}
