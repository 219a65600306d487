package consolelog

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/understudy-dev/understudy/internal/capture"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/target"
)

const (
	// MaxEntries bounds a log's ring (the oldest go first).
	MaxEntries = 2000
	// MaxText bounds one entry's text, in bytes.
	MaxText = 2000

	// maxInbox bounds the events received and not yet decoded; past it the
	// oldest undecoded one is let go (and counted in dropped).
	maxInbox = 1000
	// maxInboxBytes bounds their bytes the same way.
	maxInboxBytes = 4 << 20
	// batch and floodPause pace decoding under a flood: at most batch
	// events per pause (1,000 a second).
	batch      = 25
	floodPause = 25 * time.Millisecond
)

// Entry is one message, exception or crash. Count > 1 when the same
// message (type, text, source and window) came that many times in a row.
type Entry struct {
	Seq   int64  `json:"seq"`
	Type  string `json:"type"`
	Text  string `json:"text"`
	Count int64  `json:"count,omitempty"`
	// Source is where it came from: console (the page's console API),
	// exception, crash, or for Chromium's own log entries their source
	// (network, javascript, security, deprecation, violation,
	// intervention, …).
	Source    string `json:"source,omitempty"`
	SurfaceID string `json:"surface_id,omitempty"`
	TargetID  string `json:"target_id"`
	URL       string `json:"url,omitempty"`
	Line      int    `json:"line,omitempty"`
	At        string `json:"at"`
}

// Options configure [New].
type Options struct {
	// Surfaces names the surface of each entry (nil: none is named).
	Surfaces *surface.Registry
	// Next gives seq numbers (a session's, shared with its network
	// records); nil counts in the log.
	Next func() int64
	// Spawn runs the worker in a group its caller owns and joins (a
	// session's Go), and reports whether it did; nil or false leaves the
	// queued events for the next read.
	Spawn func(func(ctx context.Context)) bool
}

// rawEvent is an event as the socket's reader handed it over.
type rawEvent struct {
	s  *target.Socket
	ev target.Event
	at time.Time
}

// Log is a session's console log. It is safe for concurrent use.
//
// Under a flood the socket readers must not wait for it (a reply behind
// the events would wait too), so OnEvent only queues the raw event in a
// bounded inbox (O(1), no decoding) and a worker goroutine, started when
// there is work and ended when there is none, decodes into a ring of
// entries. Consecutive identical messages collapse into one entry with a
// count; what the inbox or the ring lets go is counted in dropped.
type Log struct {
	surfaces *surface.Registry
	next     func() int64
	spawn    func(func(ctx context.Context)) bool

	drainMu sync.Mutex // one drain at a time, so entries keep their order

	inMu       sync.Mutex
	inbox      []rawEvent // FIFO; inbox[0] is the oldest
	inboxBytes int
	inDropped  int64
	working    bool

	mu      sync.Mutex
	seq     int64
	ring    []Entry // at most MaxEntries, oldest at head
	head    int
	dropped int64
}

// New returns an empty log. Make it hear a pool's sockets with
// Pool.Listen(l.OnEvent).
func New(o Options) *Log {
	return &Log{surfaces: o.Surfaces, next: o.Next, spawn: o.Spawn}
}

// ClipText bounds a text to MaxText bytes on a rune boundary.
func ClipText(s string) string {
	if len(s) <= MaxText {
		return s
	}
	cut := MaxText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// OnEvent runs on a socket's reader goroutine: it only queues, in O(1),
// the events that are console messages, exceptions or log entries of the
// socket's own target.
func (l *Log) OnEvent(s *target.Socket, ev target.Event) {
	switch {
	case ev.SessionID != "":
		return
	case ev.Method == "Runtime.consoleAPICalled", ev.Method == "Runtime.exceptionThrown", ev.Method == "Log.entryAdded":
	default:
		return
	}
	l.inMu.Lock()
	l.inbox = append(l.inbox, rawEvent{s: s, ev: ev, at: time.Now()})
	l.inboxBytes += len(ev.Params)
	for len(l.inbox) > 1 && (len(l.inbox) > maxInbox || l.inboxBytes > maxInboxBytes) {
		l.inboxBytes -= len(l.inbox[0].ev.Params)
		l.inbox[0] = rawEvent{}
		l.inbox = l.inbox[1:]
		l.inDropped++
	}
	start := !l.working
	l.working = true
	l.inMu.Unlock()
	if start && (l.spawn == nil || !l.spawn(l.work)) {
		// No worker (the session is closing, or a bare log): the inbox
		// waits for the next read.
		l.inMu.Lock()
		l.working = false
		l.inMu.Unlock()
	}
}

// work decodes the inbox until it is empty, then ends. While events keep
// coming faster than one batch (a flood), it pauses between batches so the
// socket readers keep the CPU: the inbox then lets the oldest go, counted.
func (l *Log) work(ctx context.Context) {
	for l.drain(batch) {
		select {
		case <-ctx.Done():
			l.inMu.Lock()
			l.working = false
			l.inMu.Unlock()
			return
		case <-time.After(floodPause):
		}
	}
}

// drain decodes up to n queued events (all when n <= 0) into the ring and
// reports whether more remain; when none remain the worker is marked ended.
func (l *Log) drain(n int) bool {
	l.drainMu.Lock()
	defer l.drainMu.Unlock()
	l.inMu.Lock()
	k := len(l.inbox)
	if n > 0 && k > n {
		k = n
	}
	taken := append([]rawEvent(nil), l.inbox[:k]...)
	clear(l.inbox[:k])
	l.inbox = l.inbox[k:]
	if len(l.inbox) == 0 {
		l.inbox = nil // let the backing array go
	}
	for _, r := range taken {
		l.inboxBytes -= len(r.ev.Params)
	}
	lost := l.inDropped
	l.inDropped = 0
	more := len(l.inbox) > 0
	if !more && n > 0 {
		l.working = false
	}
	l.inMu.Unlock()
	entries := make([]Entry, 0, len(taken))
	for _, r := range taken {
		if e, ok := l.decode(r); ok {
			entries = append(entries, e)
		}
	}
	l.mu.Lock()
	l.dropped += lost
	for _, e := range entries {
		l.add(e)
	}
	l.mu.Unlock()
	return more
}

// decode turns one raw event into an entry (ok false: nothing to record).
func (l *Log) decode(r rawEvent) (Entry, bool) {
	m, ok := capture.DecodeConsole(r.ev)
	if !ok {
		return Entry{}, false
	}
	e := Entry{Type: m.Type, Text: ClipText(m.Text), Source: m.Source, URL: m.URL, Line: m.Line,
		At: r.at.UTC().Format(time.RFC3339Nano)}
	if r.s == nil { // a test's event: no socket, no target
		return e, true
	}
	e.TargetID = r.s.TargetID()
	if m.ContextID != 0 && l.surfaces != nil {
		e.SurfaceID, _ = l.surfaces.SurfaceOfContext(r.s, m.ContextID)
	}
	return e, true
}

// add appends an entry to the ring, or counts it on the newest entry when
// it repeats that one. l.mu is held.
func (l *Log) add(e Entry) {
	if n := len(l.ring); n > 0 {
		last := &l.ring[(l.head+n-1)%n]
		if last.Type == e.Type && last.Text == e.Text && last.TargetID == e.TargetID &&
			last.SurfaceID == e.SurfaceID && last.URL == e.URL && last.Line == e.Line && last.Source == e.Source {
			last.Count = max(last.Count, 1) + 1
			last.At = e.At
			last.Seq = l.nextSeq() // still the newest: a reader polling with since sees the new count
			return
		}
	}
	e.Seq = l.nextSeq()
	if len(l.ring) < MaxEntries {
		l.ring = append(l.ring, e)
		return
	}
	l.ring[l.head] = e
	l.head = (l.head + 1) % len(l.ring)
	l.dropped++
}

// nextSeq returns the next seq. l.mu is held.
func (l *Log) nextSeq() int64 {
	if l.next != nil {
		return l.next()
	}
	l.seq++
	return l.seq
}

// NoteCrash records a renderer crash (Target.targetCrashed) as an error
// entry of source "crash" on the crashed target's root surface.
func (l *Log) NoteCrash(ch target.Change) {
	status := ch.Status
	if status == "" {
		status = "crashed"
	}
	e := Entry{Type: "error", Source: "crash", TargetID: ch.Target.ID, URL: ch.Target.URL,
		Text: fmt.Sprintf("the renderer of %s ended (%s, code %d); its surfaces are closed until it loads a page again", ch.Target.ID, status, ch.ErrorCode),
		At:   time.Now().UTC().Format(time.RFC3339Nano)}
	if l.surfaces != nil {
		e.SurfaceID, _ = l.surfaces.SurfaceOf(ch.Target.ID)
	}
	l.drainMu.Lock()
	defer l.drainMu.Unlock()
	l.mu.Lock()
	l.add(e)
	l.mu.Unlock()
}

// entries returns the ring's entries, oldest first. l.mu is held.
func (l *Log) entries() []Entry {
	out := make([]Entry, 0, len(l.ring))
	out = append(out, l.ring[l.head:]...)
	return append(out, l.ring[:l.head]...)
}

// Entries returns every entry, oldest first, after decoding what came
// before the call.
func (l *Log) Entries() []Entry {
	l.drain(0)
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.entries()
}

// Query selects entries for [Log.Read]; its zero value selects all.
type Query struct {
	// Type keeps only entries of this type ("" all).
	Type string
	// Match keeps only entries whose text it matches (nil all).
	Match *regexp.Regexp
	// Since keeps only entries whose seq is greater.
	Since int64
	// Limit keeps the newest Limit of them (0 all).
	Limit int
}

// Page is what [Log.Read] found.
type Page struct {
	// Entries are oldest first; never nil.
	Entries []Entry
	// NextSince is the seq of the newest entry returned, or the query's
	// Since when none was: the Since of the next read.
	NextSince int64
	// Dropped counts the entries let go (the ring's oldest, and under a
	// flood the events that came faster than they were decoded).
	Dropped int64
}

// Read returns the entries q selects, after decoding what came before the
// call, so a read sees every event its sockets delivered before it.
func (l *Log) Read(q Query) Page {
	l.drain(0)
	l.mu.Lock()
	defer l.mu.Unlock()
	picked := []Entry{}
	for _, e := range l.entries() {
		if e.Seq > q.Since && (q.Type == "" || e.Type == q.Type) && (q.Match == nil || q.Match.MatchString(e.Text)) {
			picked = append(picked, e)
		}
	}
	if q.Limit > 0 && len(picked) > q.Limit {
		picked = picked[len(picked)-q.Limit:]
	}
	next := q.Since
	if len(picked) > 0 {
		next = picked[len(picked)-1].Seq
	}
	return Page{Entries: picked, NextSince: next, Dropped: l.dropped}
}
