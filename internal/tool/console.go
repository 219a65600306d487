package tool

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	capt "github.com/understudy-dev/understudy/internal/capture"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/target"
)

// Console messages and uncaught exceptions of every socket a session has
// (pages, webview guests, out-of-process frames) are kept in a bounded
// buffer per session; electron_console_logs reads it.

const (
	// maxConsoleEntries bounds a session's buffer (the oldest go first).
	maxConsoleEntries = 2000
	// maxConsoleText bounds one entry's text, in bytes.
	maxConsoleText = 2000
	// maxConsoleMatch bounds the match pattern.
	maxConsoleMatch = 500
)

func registerConsole(s *Server) {
	define(s, Def{
		Name: "electron_console_logs", Title: "Read console messages", Profiles: "D", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Page: pageFree, AfterCrash: true},
		Short:   "Console messages and uncaught exceptions of every window and frame, oldest first.",
		Desc:    "Read the console messages (console.log, info, warn, error, debug, …), uncaught exceptions (type exception) and Chromium's own log entries (failed resource loads, security and deprecation reports: type is their level, source says network, security, …) of the app's windows, webview guests and frames, oldest first, each with seq, type, text, source, surface_id (where known), target_id (the page, webview or out-of-process frame it came from), url and line. type, match (a regular expression over the text), since (the next_since of an earlier call) and limit (default 200, max 1000) filter. Capture starts when the session opens, for every window and frame and for those that appear later; understudy keeps the newest 2000 per session; the same message repeated in a row is one entry with count; dropped says how many were let go (older ones, and under a flood messages that came faster than they could be read).",
	}, consoleLogs)
}

// consoleEntry is one message or exception. Count > 1 when the same message
// (type, text, source and window) came that many times in a row.
type consoleEntry struct {
	Seq   int64  `json:"seq"`
	Type  string `json:"type"`
	Text  string `json:"text"`
	Count int64  `json:"count,omitempty"`
	// Source is where it came from: console (the page's console API),
	// exception, or for Chromium's own log entries their source (network,
	// javascript, security, deprecation, violation, intervention, …).
	Source    string `json:"source,omitempty"`
	SurfaceID string `json:"surface_id,omitempty"`
	TargetID  string `json:"target_id"`
	URL       string `json:"url,omitempty"`
	Line      int    `json:"line,omitempty"`
	At        string `json:"at"`
}

const (
	// maxConsoleInbox bounds the events received and not yet decoded; past
	// it the oldest undecoded one is let go (and counted in dropped).
	maxConsoleInbox = 1000
	// maxConsoleInboxBytes bounds their bytes the same way.
	maxConsoleInboxBytes = 4 << 20
	// consoleBatch and consoleFloodPause pace decoding under a flood: at
	// most consoleBatch events per pause (1,000 a second).
	consoleBatch      = 25
	consoleFloodPause = 25 * time.Millisecond
)

// rawConsoleEvent is an event as the socket's reader handed it over.
type rawConsoleEvent struct {
	s  *target.Socket
	ev target.Event
	at time.Time
}

// consoleLog is a session's console buffer. It is safe for concurrent use.
//
// Under a flood the socket readers must not wait for it (a reply behind
// the events would wait too), so onEvent only queues the raw event in a
// bounded inbox (O(1), no decoding) and a worker goroutine, started when
// there is work and ended when there is none, decodes into a ring of
// entries. Consecutive identical messages collapse into one entry with a
// count; what the inbox or the ring lets go is counted in dropped.
type consoleLog struct {
	surfaces *surface.Registry
	// next gives seq numbers (the session's, shared with network records);
	// nil counts in seq.
	next func() int64
	// spawn runs the worker in the session's group (session.Go), so closing
	// the session ends and joins it.
	spawn func(func(ctx context.Context)) bool

	drainMu sync.Mutex // one drain at a time, so entries keep their order

	inMu       sync.Mutex
	inbox      []rawConsoleEvent // FIFO; inbox[0] is the oldest
	inboxBytes int
	inDropped  int64
	working    bool

	mu      sync.Mutex
	seq     int64
	ring    []consoleEntry // at most maxConsoleEntries, oldest at head
	head    int
	dropped int64
}

// consoleOf returns the session's console buffer, installing it (a listener
// on every socket of the session's pool) on first use; openSession calls it.
func consoleOf(sess *session.Session) *consoleLog {
	return listenerOf(sess, func() *consoleLog {
		return &consoleLog{surfaces: sess.Surfaces, spawn: sess.Go, next: sess.NextSeq}
	})
}

// clipText bounds a text to maxConsoleText bytes on a rune boundary.
func clipText(s string) string {
	if len(s) <= maxConsoleText {
		return s
	}
	cut := maxConsoleText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// onEvent runs on a socket's reader goroutine: it only queues, in O(1).
func (l *consoleLog) OnEvent(s *target.Socket, ev target.Event) {
	switch {
	case ev.SessionID != "":
		return
	case ev.Method == "Runtime.consoleAPICalled", ev.Method == "Runtime.exceptionThrown", ev.Method == "Log.entryAdded":
	default:
		return
	}
	l.inMu.Lock()
	l.inbox = append(l.inbox, rawConsoleEvent{s: s, ev: ev, at: time.Now()})
	l.inboxBytes += len(ev.Params)
	for len(l.inbox) > 1 && (len(l.inbox) > maxConsoleInbox || l.inboxBytes > maxConsoleInboxBytes) {
		l.inboxBytes -= len(l.inbox[0].ev.Params)
		l.inbox[0] = rawConsoleEvent{}
		l.inbox = l.inbox[1:]
		l.inDropped++
	}
	start := !l.working
	l.working = true
	l.inMu.Unlock()
	if start && (l.spawn == nil || !l.spawn(l.work)) {
		// No worker (the session is closing, or a bare log in a test):
		// the inbox waits for an explicit drain.
		l.inMu.Lock()
		l.working = false
		l.inMu.Unlock()
	}
}

// work decodes the inbox until it is empty, then ends. While events keep
// coming faster than one batch (a flood), it pauses between batches so the
// socket readers keep the CPU: the inbox then lets the oldest go, counted.
func (l *consoleLog) work(ctx context.Context) {
	for l.drain(consoleBatch) {
		select {
		case <-ctx.Done():
			l.inMu.Lock()
			l.working = false
			l.inMu.Unlock()
			return
		case <-time.After(consoleFloodPause):
		}
	}
}

// drain decodes up to n queued events (all when n <= 0) into the ring and
// reports whether more remain; when none remain the worker is marked ended.
func (l *consoleLog) drain(n int) bool {
	l.drainMu.Lock()
	defer l.drainMu.Unlock()
	l.inMu.Lock()
	k := len(l.inbox)
	if n > 0 && k > n {
		k = n
	}
	batch := append([]rawConsoleEvent(nil), l.inbox[:k]...)
	clear(l.inbox[:k])
	l.inbox = l.inbox[k:]
	if len(l.inbox) == 0 {
		l.inbox = nil // let the backing array go
	}
	for _, r := range batch {
		l.inboxBytes -= len(r.ev.Params)
	}
	lost := l.inDropped
	l.inDropped = 0
	more := len(l.inbox) > 0
	if !more && n > 0 {
		l.working = false
	}
	l.inMu.Unlock()
	entries := make([]consoleEntry, 0, len(batch))
	for _, r := range batch {
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

// decode turns one raw event into an entry (ok false: nothing to record;
// a bare return says so).
func (l *consoleLog) decode(r rawConsoleEvent) (e consoleEntry, ok bool) {
	s := r.s
	m, ok := capt.DecodeConsole(r.ev)
	if !ok {
		return e, false
	}
	e = consoleEntry{Type: m.Type, Text: m.Text, Source: m.Source, URL: m.URL, Line: m.Line}
	contextID := m.ContextID
	e.Text = clipText(e.Text)
	e.TargetID = s.TargetID()
	e.At = r.at.UTC().Format(time.RFC3339Nano)
	if contextID != 0 && l.surfaces != nil {
		e.SurfaceID, _ = l.surfaces.SurfaceOfContext(s, contextID)
	}
	return e, true
}

// add appends an entry to the ring, or counts it on the newest entry when
// it repeats that one. l.mu is held.
func (l *consoleLog) add(e consoleEntry) {
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
	if len(l.ring) < maxConsoleEntries {
		l.ring = append(l.ring, e)
		return
	}
	l.ring[l.head] = e
	l.head = (l.head + 1) % len(l.ring)
	l.dropped++
}

// nextSeq returns the next seq. l.mu is held.
func (l *consoleLog) nextSeq() int64 {
	if l.next != nil {
		return l.next()
	}
	l.seq++
	return l.seq
}

// noteCrash records a renderer crash (Target.targetCrashed) as an error
// entry of source "crash" on the crashed target's root surface.
func (l *consoleLog) noteCrash(ch target.Change) {
	status := ch.Status
	if status == "" {
		status = "crashed"
	}
	e := consoleEntry{Type: "error", Source: "crash", TargetID: ch.Target.ID, URL: ch.Target.URL,
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
func (l *consoleLog) entries() []consoleEntry {
	out := make([]consoleEntry, 0, len(l.ring))
	out = append(out, l.ring[l.head:]...)
	return append(out, l.ring[:l.head]...)
}

type consoleArgs struct {
	Common
	Type  string `json:"type,omitempty" jsonschema:"only this type: log, info, warning (or warn), error, debug, … or exception"`
	Match string `json:"match,omitempty" jsonschema:"only entries whose text this regular expression matches (RE2 syntax, at most 500 characters)"`
	Since int64  `json:"since,omitempty" jsonschema:"only entries whose seq is greater (next_since of an earlier call)"`
	Limit int    `json:"limit,omitempty" jsonschema:"entries to return, the newest; default 200, max 1000"`
}

func (a *consoleArgs) validate() error {
	switch {
	case len(a.Match) > maxConsoleMatch:
		return errs.BadArg("match", "the pattern is %d characters; at most %d", len(a.Match), maxConsoleMatch)
	case a.Since < 0:
		return errs.BadArg("since", "must be 0 or a seq from an earlier answer")
	case a.Limit < 0 || a.Limit > 1000:
		return errs.BadArg("limit", "must be between 1 and 1000 (default 200)")
	}
	if _, err := regexp.Compile(a.Match); err != nil {
		return errs.BadArg("match", "not a regular expression (RE2 syntax): %v", err)
	}
	return nil
}

// consoleResult is electron_console_logs's result.
type consoleResult struct {
	Entries   []consoleEntry `json:"entries"`
	NextSince int64          `json:"next_since" jsonschema:"pass as since to get only newer entries"`
	Dropped   int64          `json:"dropped" jsonschema:"entries dropped because the log was full"`
}

func consoleLogs(_ context.Context, c *Call, a *consoleArgs) (*consoleResult, error) {
	l := consoleOf(c.Session)
	re := regexp.MustCompile(a.Match) // validated
	typ := a.Type
	if typ == "warn" {
		typ = "warning"
	}
	limit := a.Limit
	if limit == 0 {
		limit = 200
	}
	l.drain(0) // what came before this call is in the answer
	l.mu.Lock()
	defer l.mu.Unlock()
	var picked []consoleEntry
	for _, e := range l.entries() {
		if e.Seq > a.Since && (typ == "" || e.Type == typ) && (a.Match == "" || re.MatchString(e.Text)) {
			picked = append(picked, e)
		}
	}
	if len(picked) > limit {
		picked = picked[len(picked)-limit:]
	}
	next := a.Since
	if len(picked) > 0 {
		next = picked[len(picked)-1].Seq
	}
	if picked == nil {
		picked = []consoleEntry{}
	}
	return &consoleResult{Entries: picked, NextSince: next, Dropped: l.dropped}, nil
}

// Capture starts with the session: every renderer target (window roots,
// webview guests, out-of-process frames) that exists when the session opens
// or appears later gets its socket opened and Runtime, Page and Log enabled
// at once, so console messages, Chromium's own log entries ("Failed to load
// resource"), exceptions and dialogs are recorded before any tool has acted
// in that window.

// captureEnableTimeout bounds the enabling of one target (a page stopped by
// a dialog answers nothing).
const captureEnableTimeout = 10 * time.Second

// capture enables every renderer target of a session as it appears. Its
// goroutines belong to it: close cancels and waits for them.
type capture struct {
	sess   *session.Session
	follow *target.Follower

	mu      sync.Mutex
	started map[string]bool // targets being enabled or enabled (pruned when they go)
	logs    *capt.LogSwitch // Log.enable once per socket
}

// startCapture hangs the capture on the session (once). openSession calls
// it after the session's listeners are in place.
func startCapture(sess *session.Session) {
	_, _ = session.Attach(sess, func(life context.Context) (*capture, func() error, error) {
		c := &capture{sess: sess, started: map[string]bool{}, logs: capt.NewLogSwitch(), follow: target.NewFollower(life)}
		c.follow.Watch(sess.Pool, func(ch target.Change) {
			switch {
			case !target.IsRenderer(ch.Target.Type):
			case ch.Kind == target.Destroyed:
				c.mu.Lock()
				delete(c.started, ch.Target.ID)
				c.mu.Unlock()
			case ch.Kind == target.Crashed:
				consoleOf(sess).noteCrash(ch)
			default:
				// A target is often announced before /json/list has its
				// socket URL: a later change retries a failed start.
				c.enable(ch.Target.ID)
			}
		})
		// The targets the pool already knows (it listed them when it
		// opened); any it learns of later reach the watcher above.
		for _, info := range sess.Pool.Live() {
			if target.IsRenderer(info.Type) {
				c.enable(info.ID)
			}
		}
		return c, c.follow.Close, nil
	})
}

// enable opens and enables one target in the background, unless that is
// under way or done.
func (c *capture) enable(targetID string) {
	c.mu.Lock()
	if c.started[targetID] {
		c.mu.Unlock()
		return
	}
	c.started[targetID] = true
	c.mu.Unlock()
	c.follow.Go(func() {
		if !c.enableNow(targetID) {
			c.mu.Lock()
			delete(c.started, targetID)
			c.mu.Unlock()
		}
	})
}

// enableNow enables Page, Runtime and Log on a target's socket, retrying
// for a while when the target has no socket URL yet.
func (c *capture) enableNow(targetID string) bool {
	ctx, cancel := context.WithTimeout(c.follow.Life(), captureEnableTimeout)
	defer cancel()
	for {
		err := c.sess.Surfaces.Enable(ctx, targetID)
		if err == nil {
			break
		}
		if errs.CodeOf(err) == errs.SurfaceClosed || errs.CodeOf(err) == errs.SurfaceNotFound {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(100 * time.Millisecond):
		}
	}
	conn, err := c.sess.Pool.Conn(ctx, targetID)
	if err != nil {
		return false
	}
	if c.logs.Enable(ctx, conn) != nil {
		return false
	}
	return true
}
