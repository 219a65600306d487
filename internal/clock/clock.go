package clock

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/target"
)

//go:embed clock.js
var source string

// Modes of the clock.
const (
	Fixed   = "fixed"   // time moves only when advanced
	Running = "running" // time moves with the wall clock
)

// Status is the clock as the tools report it.
type Status struct {
	Installed bool    `json:"installed"`
	Mode      string  `json:"mode,omitempty"`
	Time      float64 `json:"time,omitempty" jsonschema:"the clock's time, epoch ms"`
	Documents int     `json:"documents" jsonschema:"documents that run on the clock"`
	Pending   int     `json:"pending" jsonschema:"timers waiting on the clock"`
}

// Clock is the session's fake clock.
type Clock struct {
	pool   *target.Pool
	follow *target.Follower // joins of new targets (owned by the Clock, ended by Close)

	// shown is the clock a new document starts from, once installed (nil
	// before): the hold reads it without waiting for mu, which a clock
	// call keeps across its round trips.
	shown atomic.Pointer[face]

	holdMu sync.Mutex
	unhold func() // the pool hold (ADR-033), from the first install to Close

	mu        sync.Mutex
	installed bool
	now       float64
	runSince  time.Time // when mode became Running: now moves with the wall clock from here
	mode      string
	advances  int // numbers each advance (a jump's token in the documents)

	smu     sync.Mutex        // after mu when both are taken; the hold takes only smu
	scripts map[string]string // target id → identifier of its new-document script
	joined  int64             // targets that joined the clock when they appeared
}

// New returns an uninstalled clock over the session's pool, living until
// life ends or Close. Once installed, a renderer target that appears is
// held until the clock's script is on its socket (ADR-033) and joins the
// clock at once (not at the next clock call), and a target's record goes
// when it is destroyed (ADR-008).
func New(life context.Context, pool *target.Pool) *Clock {
	c := &Clock{pool: pool, scripts: map[string]string{}, follow: target.NewFollower(life)}
	c.follow.Watch(pool, c.onChange)
	return c
}

// Close stops following the pool, drops the hold and waits for joins in
// flight.
func (c *Clock) Close() error {
	c.holdMu.Lock()
	if c.unhold != nil {
		c.unhold()
		c.unhold = nil
	}
	c.holdMu.Unlock()
	return c.follow.Close()
}

// hold registers the pool hold once (ADR-033): every later window, popup
// and OOPIF runs the clock from its first document on, before any script
// of that document. Without it (auto-attach refused) a new target joins
// when the pool reports it.
func (c *Clock) hold(ctx context.Context) {
	c.holdMu.Lock()
	defer c.holdMu.Unlock()
	if c.unhold != nil || c.follow.Life().Err() != nil {
		return
	}
	if rm, err := c.pool.Hold(ctx, c.onHold); err == nil {
		c.unhold = rm
	}
}

// onHold runs in the pool's goroutine while a new target waits to start:
// the clock's new-document script goes on the target's own socket (with
// the Page domain on, without which Chromium 156 does not run it in the
// target's first document), so its first document and every later one
// run on the clock. It does not wait for mu, which a clock call keeps
// across its round trips; a clock call that armed the target meanwhile
// keeps its own script.
func (c *Clock) onHold(ctx context.Context, t target.Info) {
	f := c.shown.Load()
	if f == nil || c.follow.Life().Err() != nil {
		return
	}
	conn, err := c.pool.Conn(ctx, t.ID)
	if err != nil {
		return
	}
	id, err := addScript(ctx, conn, f.expr(), true)
	if err != nil {
		return
	}
	c.smu.Lock()
	_, had := c.scripts[t.ID]
	if !had {
		c.scripts[t.ID] = id
		c.joined++
	}
	c.smu.Unlock()
	if had {
		_ = conn.Call(ctx, "Page.removeScriptToEvaluateOnNewDocument", map[string]any{"identifier": id}, nil)
	}
}

// addScript puts the clock (expr) into the new documents of a target's
// socket, with enable turning the Page domain on first: Chromium 156 runs
// a script added on a socket without it in none of them (ADR-033).
func addScript(ctx context.Context, conn *cdp.Conn, expr string, enable bool) (string, error) {
	if enable {
		if err := conn.Call(ctx, "Page.enable", nil, nil); err != nil {
			return "", err
		}
	}
	var out struct {
		Identifier string `json:"identifier"`
	}
	if err := conn.Call(ctx, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": expr}, &out); err != nil {
		return "", err
	}
	return out.Identifier, nil
}

// show publishes the clock as it is now to the hold (see shown), or
// nothing when it is not installed. Callers hold mu.
func (c *Clock) show(installed bool) {
	if !installed {
		c.shown.Store(nil)
		return
	}
	f := c.face()
	c.shown.Store(&f)
}

// Stats counts what the clock keeps per target.
type Stats struct {
	Scripts int   // targets with our new-document script
	Joined  int64 // targets that joined when they appeared
}

// Stats returns the counts now.
func (c *Clock) Stats() Stats {
	c.smu.Lock()
	defer c.smu.Unlock()
	return Stats{Scripts: len(c.scripts), Joined: c.joined}
}

// onChange runs on the pool's goroutine: it must not block.
func (c *Clock) onChange(ch target.Change) {
	if !target.IsRenderer(ch.Target.Type) {
		return
	}
	if ch.Kind == target.Destroyed {
		c.smu.Lock()
		delete(c.scripts, ch.Target.ID) // ADR-008: keyed by a target, pruned with it
		c.smu.Unlock()
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case ch.Kind == target.Created && c.installed:
		id := ch.Target.ID
		c.follow.Go(func() { c.join(id) })
	}
}

// join installs the clock in a target that appeared: its new-document
// script for later documents and the clock in its current one, at the
// clock's time now.
func (c *Clock) join(id string) {
	ctx, cancel := context.WithTimeout(c.follow.Life(), 10*time.Second)
	defer cancel()
	conn, err := c.pool.Conn(ctx, id)
	if err != nil {
		return // gone already; the next clock call lists again
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if ctx.Err() != nil || !c.installed {
		return
	}
	if armed, err := c.arm(ctx, conn, id, false); err == nil && armed {
		c.smu.Lock()
		c.joined++
		c.smu.Unlock()
	}
}

// face is what a document's clock starts from: the time set, when the
// clock started running with the wall clock, and the mode.
type face struct {
	now      float64
	runSince time.Time
	mode     string
}

func (c *Clock) face() face { return face{now: c.now, runSince: c.runSince, mode: c.mode} }

// current is the clock's time: the time set, plus the wall time since
// when the clock runs.
func (f face) current() float64 {
	if f.mode == Running && !f.runSince.IsZero() {
		return f.now + float64(time.Since(f.runSince).Milliseconds())
	}
	return f.now
}

// expr installs the clock in a document (or moves one installed there).
func (f face) expr() string {
	return "(" + source + ")(" + strconv.FormatFloat(f.current(), 'f', -1, 64) + "," + strconv.Quote(f.mode) + ")"
}

func (c *Clock) current() float64 { return c.face().current() }

func (c *Clock) expr() string { return c.face().expr() }

// arm (re)places target id's new-document script at the clock's time and,
// for a target that had none, installs the clock in its document now. It
// reports whether the target had no script before. Callers hold mu.
func (c *Clock) arm(ctx context.Context, conn *cdp.Conn, id string, rearm bool) (bool, error) {
	c.smu.Lock()
	old, had := c.scripts[id]
	c.smu.Unlock()
	if had && !rearm {
		return false, nil
	}
	if had {
		_ = conn.Call(ctx, "Page.removeScriptToEvaluateOnNewDocument", map[string]any{"identifier": old}, nil)
	}
	ident, err := addScript(ctx, conn, c.expr(), !had)
	if err != nil {
		return false, err
	}
	c.smu.Lock()
	prev, held := c.scripts[id]
	c.scripts[id] = ident
	c.smu.Unlock()
	if held && !had {
		// The hold armed it meanwhile (onHold): ours replaces that script,
		// and its document runs the clock already.
		_ = conn.Call(ctx, "Page.removeScriptToEvaluateOnNewDocument", map[string]any{"identifier": prev}, nil)
		had = true
	}
	if !had {
		if _, err := eval(ctx, conn, c.expr()); err != nil {
			return false, err
		}
	}
	return !had, nil
}

// setMode records the mode, and when the clock starts running.
func (c *Clock) setMode(mode string) {
	if mode == Running && c.mode != Running {
		c.runSince = time.Now()
	}
	if mode != Running {
		c.runSince = time.Time{}
	}
	c.mode = mode
}

// targets returns the sockets of every renderer target, installing the
// clock in those that have none yet (and re-arming every target's
// new-document script at the current time). Gone targets are forgotten.
func (c *Clock) targets(ctx context.Context, rearm bool) ([]*cdp.Conn, error) {
	ts, err := c.pool.List(ctx)
	if err != nil {
		return nil, err
	}
	live := map[string]bool{}
	var conns []*cdp.Conn
	for _, t := range ts {
		live[t.ID] = true
		conn, err := c.pool.Conn(ctx, t.ID)
		if err != nil {
			continue // going away
		}
		if _, err := c.arm(ctx, conn, t.ID, rearm); err != nil {
			return nil, err
		}
		conns = append(conns, conn)
	}
	c.smu.Lock()
	for id := range c.scripts {
		if !live[id] {
			delete(c.scripts, id) // ADR-008: keyed by a target, pruned with it
		}
	}
	c.smu.Unlock()
	return conns, nil
}

func eval(ctx context.Context, conn *cdp.Conn, expr string) (json.RawMessage, error) {
	var out cdp.Evaluated
	if err := conn.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &out); err != nil {
		return nil, err
	}
	if text, threw := out.Threw(); threw {
		return nil, fmt.Errorf("clock: %s", text)
	}
	return out.Result.Value, nil
}

// each runs expr in every target (in parallel) and returns the answers.
func each(ctx context.Context, conns []*cdp.Conn, expr string) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(conns))
	errsOut := make([]error, len(conns))
	var wg sync.WaitGroup
	for i, conn := range conns {
		wg.Go(func() { out[i], errsOut[i] = eval(ctx, conn, expr) })
	}
	wg.Wait()
	return out, errors.Join(errsOut...)
}

// Install installs the clock at time (epoch ms) in every document, fixed
// until advanced. Installing again moves the clock to time.
func (c *Clock) Install(ctx context.Context, time float64) (Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = time
	c.setMode(Fixed)
	// From here on a new target is held until the clock is in it; one
	// that appears before the listing below is in the listing.
	c.show(true)
	c.hold(ctx)
	conns, err := c.targets(ctx, true)
	if err != nil {
		c.show(c.installed)
		return Status{}, err
	}
	if _, err := each(ctx, conns, fmt.Sprintf("__usClockTarget.setNow(%v), __usClockTarget.setMode(%q)", time, Fixed)); err != nil {
		c.show(c.installed)
		return Status{}, err
	}
	c.installed = true
	return c.statusLocked(ctx, conns)
}

func (c *Clock) need() error {
	if !c.installed {
		return errs.New(errs.ClockNotInstalled, "the clock is not installed")
	}
	return nil
}

// SetTime moves the clock to time (backwards too) and sets the mode; no
// timer fires.
func (c *Clock) SetTime(ctx context.Context, time float64, mode string) (Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.need(); err != nil {
		return Status{}, err
	}
	c.now = time
	c.runSince = timeNow()
	c.setMode(mode)
	c.show(true)
	conns, err := c.targets(ctx, true)
	if err != nil {
		return Status{}, err
	}
	if _, err := each(ctx, conns, fmt.Sprintf("__usClockTarget.setNow(%v), __usClockTarget.setMode(%q)", time, mode)); err != nil {
		return Status{}, err
	}
	return c.statusLocked(ctx, conns)
}

// Advance moves the clock ms forward, firing every timer due on the way in
// due order across all documents; with jump, a repeating timer fires at
// most once. It returns how many timers fired.
func (c *Clock) Advance(ctx context.Context, ms float64, jump bool) (int, Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.need(); err != nil {
		return 0, Status{}, err
	}
	conns, err := c.targets(ctx, false)
	if err != nil {
		return 0, Status{}, err
	}
	if c.mode == Running { // the documents moved the time themselves
		if st, err := c.statusLocked(ctx, conns); err == nil {
			c.now = st.Time
			c.runSince = timeNow()
		}
	}
	end := c.now + ms
	fired := 0
	c.advances++
	for {
		token := "null"
		if jump {
			token = strconv.Itoa(c.advances)
		}
		nexts, err := each(ctx, conns, "__usClockTarget.next("+token+")")
		if err != nil {
			return fired, Status{}, err
		}
		first, second := -1, math.Inf(1)
		dues := make([]float64, len(nexts))
		for i, raw := range nexts {
			dues[i] = math.Inf(1)
			var v *float64
			if json.Unmarshal(raw, &v) == nil && v != nil {
				dues[i] = *v
			}
		}
		for i, d := range dues {
			if d <= end && (first < 0 || d < dues[first]) {
				first = i
			}
		}
		if first < 0 {
			break
		}
		for i, d := range dues {
			if i != first && d < second {
				second = d
			}
		}
		limit := math.Min(end, second)
		raw, err := eval(ctx, conns[first], fmt.Sprintf("__usClockTarget.runUntil(%v, %v, %d)", limit, jump, c.advances))
		if err != nil {
			return fired, Status{}, err
		}
		n, _ := strconv.Atoi(string(raw))
		fired += n
		if jump && limit == end {
			// A jump fires each timer at most once: the target that ran up
			// to the end has nothing more to fire in it.
			conns = append(conns[:first:first], conns[first+1:]...)
			if len(conns) == 0 {
				break
			}
		}
		if err := ctx.Err(); err != nil {
			return fired, Status{}, errs.FromContext(ctx, errs.OperationTimeout, "advancing the clock")
		}
	}
	c.now = end
	c.show(true)
	all, err := c.targets(ctx, true)
	if err != nil {
		return fired, Status{}, err
	}
	if _, err := each(ctx, all, fmt.Sprintf("__usClockTarget.setNow(%v)", end)); err != nil {
		return fired, Status{}, err
	}
	st, err := c.statusLocked(ctx, all)
	return fired, st, err
}

// SetMode switches between Fixed and Running without moving the time.
func (c *Clock) SetMode(ctx context.Context, mode string) (Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.need(); err != nil {
		return Status{}, err
	}
	if c.mode == Running && mode != Running { // hold where the documents ran to
		c.now = c.current()
	}
	c.setMode(mode)
	c.show(true)
	conns, err := c.targets(ctx, true)
	if err != nil {
		return Status{}, err
	}
	if _, err := each(ctx, conns, fmt.Sprintf("__usClockTarget.setMode(%q)", mode)); err != nil {
		return Status{}, err
	}
	return c.statusLocked(ctx, conns)
}

// Now is the clock's time (epoch ms) as the server last set it.
func (c *Clock) Now() (float64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now, c.installed
}

// Status reports the clock.
func (c *Clock) Status(ctx context.Context) (Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.installed {
		return Status{}, nil
	}
	conns, err := c.targets(ctx, false)
	if err != nil {
		return Status{}, err
	}
	return c.statusLocked(ctx, conns)
}

func (c *Clock) statusLocked(ctx context.Context, conns []*cdp.Conn) (Status, error) {
	st := Status{Installed: true, Mode: c.mode, Time: c.now}
	outs, err := each(ctx, conns, "__usClockTarget.status()")
	if err != nil {
		return st, err
	}
	for _, raw := range outs {
		var s struct {
			Now       float64 `json:"now"`
			Documents int     `json:"documents"`
			Pending   int     `json:"pending"`
		}
		if json.Unmarshal(raw, &s) == nil {
			st.Documents += s.Documents
			st.Pending += s.Pending
			if c.mode == Running {
				st.Time = s.Now
			}
		}
	}
	return st, nil
}

func timeNow() time.Time { return time.Now() }
