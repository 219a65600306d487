package tool

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/understudy-dev/understudy/internal/cdp"
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
	add(s, "electron_console_logs", "Read the console messages (console.log, info, warn, error, debug, …), uncaught exceptions (type exception) and Chromium's own log entries (failed resource loads, security and deprecation reports: type is their level, source says network, security, …) of the app's windows, webview guests and frames, oldest first, each with seq, type, text, source, surface_id (where known), target_id (the page, webview or out-of-process frame it came from), url and line. type, match (a regular expression over the text), since (the next_since of an earlier call) and limit (default 200, max 1000) filter. Capture starts when the session opens, for every window and frame and for those that appear later; understudy keeps the newest 2000 per session; dropped says how many older ones were let go.", true, gateNone, consoleLogs)
}

// consoleEntry is one message or exception.
type consoleEntry struct {
	Seq  int64  `json:"seq"`
	Type string `json:"type"`
	Text string `json:"text"`
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

// consoleLog is a session's console buffer. It is safe for concurrent use.
type consoleLog struct {
	surfaces *surface.Registry

	mu      sync.Mutex
	seq     int64
	entries []consoleEntry
	dropped int64
}

// consoleOf returns the session's console buffer, installing it (a listener
// on every socket of the session's pool) on first use; openSession calls it.
func consoleOf(sess *session.Session) *consoleLog {
	return listenerOf(sess, func() *consoleLog { return &consoleLog{surfaces: sess.Surfaces} })
}

// remoteObject is the part of Runtime.RemoteObject a message's text needs.
type remoteObject struct {
	Type                string          `json:"type"`
	Subtype             string          `json:"subtype"`
	Value               json.RawMessage `json:"value"`
	UnserializableValue string          `json:"unserializableValue"`
	Description         string          `json:"description"`
}

// text is how the console shows one argument.
func (o remoteObject) text() string {
	switch {
	case o.Type == "string":
		var s string
		_ = json.Unmarshal(o.Value, &s)
		return s
	case o.Type == "undefined":
		return "undefined"
	case o.UnserializableValue != "":
		return o.UnserializableValue
	case o.Subtype == "null":
		return "null"
	case len(o.Value) > 0 && o.Type != "object" && o.Type != "function":
		return string(o.Value)
	case o.Description != "":
		return o.Description
	}
	return o.Type
}

// consoleText joins a call's arguments as the console shows them, with the
// format directives of a leading string (%s %d %i %f %o %O %c) applied.
func consoleText(args []remoteObject) string {
	if len(args) == 0 {
		return ""
	}
	parts := make([]string, 0, len(args))
	rest := args
	if args[0].Type == "string" && strings.Contains(args[0].text(), "%") {
		format := args[0].text()
		rest = args[1:]
		var b strings.Builder
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c != '%' || i+1 == len(format) {
				b.WriteByte(c)
				continue
			}
			switch d := format[i+1]; d {
			case '%':
				b.WriteByte('%')
				i++
			case 's', 'd', 'i', 'f', 'o', 'O', 'c':
				i++
				if len(rest) == 0 {
					b.WriteByte('%')
					b.WriteByte(d)
					continue
				}
				arg := rest[0]
				rest = rest[1:]
				switch d {
				case 'c': // CSS: not text
				case 'd', 'i':
					if f, err := strconv.ParseFloat(arg.text(), 64); err == nil {
						b.WriteString(strconv.FormatInt(int64(f), 10))
					} else {
						b.WriteString("NaN")
					}
				default:
					b.WriteString(arg.text())
				}
			default:
				b.WriteByte(c)
			}
		}
		parts = append(parts, b.String())
	}
	for _, a := range rest {
		parts = append(parts, a.text())
	}
	return strings.Join(parts, " ")
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

// onEvent runs on a socket's reader goroutine: it only records.
func (l *consoleLog) onEvent(s *target.Socket, ev cdp.Event) {
	if ev.SessionID != "" {
		return
	}
	var e consoleEntry
	var contextID int64
	switch ev.Method {
	case "Runtime.consoleAPICalled":
		var p struct {
			Type               string         `json:"type"`
			Args               []remoteObject `json:"args"`
			ExecutionContextID int64          `json:"executionContextId"`
			StackTrace         *struct {
				CallFrames []struct {
					URL        string `json:"url"`
					LineNumber int    `json:"lineNumber"`
				} `json:"callFrames"`
			} `json:"stackTrace"`
		}
		if json.Unmarshal(ev.Params, &p) != nil {
			return
		}
		e = consoleEntry{Type: p.Type, Text: consoleText(p.Args), Source: "console"}
		if p.StackTrace != nil && len(p.StackTrace.CallFrames) > 0 {
			e.URL, e.Line = p.StackTrace.CallFrames[0].URL, p.StackTrace.CallFrames[0].LineNumber+1
		}
		contextID = p.ExecutionContextID
	case "Runtime.exceptionThrown":
		var p struct {
			ExceptionDetails struct {
				Text               string        `json:"text"`
				URL                string        `json:"url"`
				LineNumber         int           `json:"lineNumber"`
				ExecutionContextID int64         `json:"executionContextId"`
				Exception          *remoteObject `json:"exception"`
			} `json:"exceptionDetails"`
		}
		if json.Unmarshal(ev.Params, &p) != nil {
			return
		}
		d := p.ExceptionDetails
		e = consoleEntry{Type: "exception", Text: d.Text, URL: d.URL, Line: d.LineNumber + 1, Source: "exception"}
		if d.Exception != nil && d.Exception.Description != "" {
			e.Text = d.Exception.Description
		}
		contextID = d.ExecutionContextID
	case "Log.entryAdded":
		// Chromium's own messages: failed loads, CSP and mixed-content
		// reports, deprecations, interventions.
		var p struct {
			Entry struct {
				Source     string `json:"source"`
				Level      string `json:"level"`
				Text       string `json:"text"`
				URL        string `json:"url"`
				LineNumber *int   `json:"lineNumber"`
			} `json:"entry"`
		}
		if json.Unmarshal(ev.Params, &p) != nil {
			return
		}
		typ := p.Entry.Level // verbose, info, warning, error
		if typ == "verbose" {
			typ = "debug"
		}
		e = consoleEntry{Type: typ, Text: p.Entry.Text, URL: p.Entry.URL, Source: p.Entry.Source}
		if p.Entry.LineNumber != nil {
			e.Line = *p.Entry.LineNumber + 1
		}
	default:
		return
	}
	e.Text = clipText(e.Text)
	e.TargetID = s.TargetID()
	e.At = time.Now().UTC().Format(time.RFC3339Nano)
	if contextID != 0 && l.surfaces != nil {
		e.SurfaceID, _ = l.surfaces.SurfaceOfContext(s, contextID)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	e.Seq = l.seq
	l.entries = append(l.entries, e)
	if n := len(l.entries) - maxConsoleEntries; n > 0 {
		l.entries = append(l.entries[:0:0], l.entries[n:]...)
		l.dropped += int64(n)
	}
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

func consoleLogs(_ context.Context, c *Call, a *consoleArgs) (any, error) {
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
	l.mu.Lock()
	defer l.mu.Unlock()
	var picked []consoleEntry
	for _, e := range l.entries {
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
	return map[string]any{"entries": picked, "next_since": next, "dropped": l.dropped}, nil
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
	sess    *session.Session
	life    context.Context
	cancel  context.CancelFunc
	unwatch func()

	mu      sync.Mutex
	closed  bool
	started map[string]bool    // targets being enabled or enabled (pruned when they go)
	logOn   map[*cdp.Conn]bool // sockets with Log enabled (dead ones pruned)
	wg      sync.WaitGroup
}

// startCapture hangs the capture on the session (once). openSession calls
// it after the session's listeners are in place.
func startCapture(sess *session.Session) {
	_, _ = session.Attach(sess, func(life context.Context) (*capture, func() error, error) {
		c := &capture{sess: sess, started: map[string]bool{}, logOn: map[*cdp.Conn]bool{}}
		c.life, c.cancel = context.WithCancel(life)
		c.unwatch = sess.Pool.Watch(func(ch target.Change) {
			switch {
			case !target.IsRenderer(ch.Target.Type):
			case ch.Kind == target.Destroyed:
				c.mu.Lock()
				delete(c.started, ch.Target.ID)
				c.mu.Unlock()
			default:
				// A target is often announced before /json/list has its
				// socket URL: a later change retries a failed start.
				c.enable(ch.Target.ID)
			}
		})
		c.spawn(func() {
			ctx, cancel := context.WithTimeout(c.life, captureEnableTimeout)
			defer cancel()
			infos, err := sess.Pool.List(ctx)
			if err != nil {
				return
			}
			for _, info := range infos {
				c.enable(info.ID)
			}
		})
		return c, c.close, nil
	})
}

// spawn runs fn in a goroutine the capture owns, unless it is closed.
func (c *capture) spawn(fn func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.wg.Go(fn)
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
	c.spawn(func() {
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
	ctx, cancel := context.WithTimeout(c.life, captureEnableTimeout)
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
	c.mu.Lock()
	for k := range c.logOn {
		select {
		case <-k.Done():
			delete(c.logOn, k)
		default:
		}
	}
	already := c.logOn[conn]
	c.logOn[conn] = true
	c.mu.Unlock()
	if !already && conn.Call(ctx, "Log.enable", nil, nil) != nil {
		c.mu.Lock()
		delete(c.logOn, conn)
		c.mu.Unlock()
		return false
	}
	return true
}

func (c *capture) close() error {
	c.unwatch()
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	c.wg.Wait()
	return nil
}
