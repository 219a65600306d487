package session

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/svc"
	"github.com/understudy-dev/understudy/internal/target"
)

// Mode says how a session came to be, and so what we own.
type Mode string

// The modes.
const (
	Launched  Mode = "launch" // we started the app from an executable
	DevLaunch Mode = "dev"    // we started Electron with a main script
	Attached  Mode = "attach" // the user started it; we only connected
	Grid      Mode = "grid"   // a Selenium Grid session we created; EndRemote deletes it
)

// remoteEndTimeout bounds ending a remote app (a grid's DELETE /session).
const remoteEndTimeout = 30 * time.Second

// attachment is a value hung on a session with its closer.
type attachment struct {
	value any
	close func() error
}

// Session is one driven app.
//
// A session is built completely (pool, registry, listeners, PID,
// InspectorURL) before it is published with [Manager.Add]; its exported
// fields are not written after that. Everything the session starts runs in
// its group ([Session.Go]) on its lifetime context, which ends when the
// session closes; closing waits for the group.
type Session struct {
	ID       string
	Mode     Mode
	Created  time.Time
	Proc     *browser.Process // nil unless we launched it
	PID      int              // the app's pid when known (launched, or given on attach)
	Endpoint browser.Endpoint
	Version  browser.Version
	Pool     *target.Pool
	Surfaces *surface.Registry
	// Pages keeps the session's refs and snapshot baselines (one ref
	// counter for the whole session, so refs never cross surfaces).
	Pages *page.Store
	// InspectorURL is the Electron main-process inspector, when known.
	InspectorURL string
	// Relaunch is what started the app: the launch's arguments as JSON (the
	// caller's own encoding, which it decodes again), kept to relaunch an
	// app that ended; nil for attached apps.
	Relaunch json.RawMessage
	// EndRemote ends an app that someone else hosts for us (a Selenium
	// Grid session: DELETE /session/ID frees the slot). Stop, ForceKill,
	// CleanUp and the manager's Close call it once; nil for local apps.
	EndRemote  func(context.Context) error
	remoteOnce sync.Once
	remoteErr  error

	gate     gate // admission of tool calls (gate.go)
	attachMu sync.Mutex
	seq      atomic.Int64 // NextSeq

	life      context.Context // ends when the session closes
	cancel    context.CancelFunc
	closeOnce sync.Once
	group     sync.WaitGroup // what Go started, and the watcher

	mu       sync.Mutex
	lastErr  string
	front    string // the window brought to front last (pointer input needs it)
	ended    bool
	endWhy   string
	crash    *Crash              // the main process ended on its own (see Crashed)
	stopping bool                // we are ending the app: its exit is no crash
	closing  bool                // Go refuses new work
	extras   map[any]*attachment // services hung on the session (relay, logs, …), by svc.Key
}

// New builds a session around an opened pool. It watches the process (when
// launched) and the browser socket, and marks itself ended when either goes.
// Surfaces that close are dropped from Pages (see docs/adr on bounded
// state). The caller publishes it with [Manager.Add] once it is complete,
// and closes it (Detach, Stop, ForceKill) on any error before that.
func New(id string, mode Mode, proc *browser.Process, ep browser.Endpoint, v browser.Version, pool *target.Pool, reg *surface.Registry) *Session {
	s := &Session{
		ID: id, Mode: mode, Created: time.Now(), Proc: proc, Endpoint: ep, Version: v,
		Pool: pool, Surfaces: reg,
		extras: map[any]*attachment{}, Pages: page.NewStore(),
	}
	s.gate.init()
	s.life, s.cancel = context.WithCancel(context.Background())
	if proc != nil {
		s.PID = proc.PID
		s.InspectorURL = proc.InspectorURL
	}
	if reg != nil {
		reg.OnClosed(s.Pages.Drop)
	}
	s.Go(s.watch)
	return s
}

func (s *Session) watch(ctx context.Context) {
	var procDone <-chan struct{}
	if s.Proc != nil {
		procDone = s.Proc.Done()
	}
	var connDone <-chan struct{}
	if s.Pool != nil {
		connDone = s.Pool.Browser().Done()
	}
	select {
	case <-procDone:
		s.procEnded()
	case <-connDone:
		// The socket usually closes a moment before the process is
		// reaped: a launched app's exit is judged by the process.
		if procDone != nil {
			select {
			case <-procDone:
				s.procEnded()
				return
			case <-time.After(3 * time.Second):
			case <-ctx.Done():
				return
			}
		}
		s.markEnded("the DevTools connection to the app closed")
	case <-ctx.Done():
	}
}

// NextSeq returns the session's next sequence number. Console entries and
// network records take theirs from it, so a since cursor from one read
// means the same moment in the other.
func (s *Session) NextSeq() int64 { return s.seq.Add(1) }

// Context is the session's lifetime: it ends when the session closes.
func (s *Session) Context() context.Context { return s.life }

// Go runs f in the session's group with the session's lifetime context,
// and reports whether it did: once the session is closing it runs nothing.
// Closing the session cancels that context and waits for f to return, so f
// must return soon after ctx ends.
func (s *Session) Go(f func(ctx context.Context)) bool {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return false
	}
	s.group.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.group.Done()
		f(s.life)
	}()
	return true
}

func (s *Session) markEnded(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ended {
		s.ended, s.endWhy = true, why
	}
}

// Alive reports whether the app is still connected, and why not.
func (s *Session) Alive() (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.ended, s.endWhy
}

// SetLastError records the last failure seen on this session (for status).
func (s *Session) SetLastError(msg string) {
	s.mu.Lock()
	s.lastErr = msg
	s.mu.Unlock()
}

// IsFront reports whether targetID is the window brought to front last.
func (s *Session) IsFront(targetID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.front == targetID
}

// SetFront records targetID as the front window. Call it only once
// Page.bringToFront has succeeded there.
func (s *Session) SetFront(targetID string) {
	s.mu.Lock()
	s.front = targetID
	s.mu.Unlock()
}

// LastError returns the last failure recorded.
func (s *Session) LastError() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastErr
}

// Attach returns the service k names hung on the session (a relay, a
// dialog log, an inspector connection), creating it with create on first
// use; there is at most one service per key. create gets
// the session's lifetime context; the closer it returns runs when the
// session closes. Creation is serialised per session. Once the session is
// closing, Attach creates nothing and fails with NOT_RUNNING.
func Attach[T any](s *Session, k svc.Key[T], create func(life context.Context) (T, func() error, error)) (T, error) {
	var zero T
	key := any(k)
	s.attachMu.Lock()
	defer s.attachMu.Unlock()
	s.mu.Lock()
	a, ok := s.extras[key]
	closing := s.closing
	s.mu.Unlock()
	if ok {
		return a.value.(T), nil
	}
	if closing {
		return zero, errs.New(errs.NotRunning, "session %s is closing", s.ID)
	}
	v, closer, err := create(s.life)
	if err != nil {
		return zero, err
	}
	s.mu.Lock()
	if s.closing { // closed while create ran: it closes now
		s.mu.Unlock()
		if closer != nil {
			_ = closer()
		}
		return zero, errs.New(errs.NotRunning, "session %s is closing", s.ID)
	}
	s.extras[key] = &attachment{v, closer}
	s.mu.Unlock()
	return v, nil
}

// Extra returns the service k names hung on the session by Attach, if
// there is one; it never creates it.
func Extra[T any](s *Session, k svc.Key[T]) (T, bool) {
	var zero T
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.extras[any(k)]
	if !ok || s.closing {
		return zero, false
	}
	return a.value.(T), true
}

// closeConns ends the session's life: it cancels the lifetime context,
// closes the hung extras, the registry and the pool, and waits for every
// goroutine the session started. Concurrent and repeated calls are safe;
// each returns once the session is closed.
func (s *Session) closeConns() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closing = true
		extras := s.extras
		s.extras = map[any]*attachment{}
		s.mu.Unlock()
		s.cancel()
		for _, a := range extras {
			if a.close != nil {
				_ = a.close()
			}
		}
		if s.Surfaces != nil {
			s.Surfaces.Close()
		}
		if s.Pool != nil {
			_ = s.Pool.Close()
		}
		s.group.Wait()
		s.markEnded("closed")
	})
}

// CleanUp closes what is left of a session whose app has already ended
// (Alive is false): our sockets and goroutines, and for a launched app
// whatever may remain of its process group (SIGKILL; the leader is
// reaped). It sends nothing to the browser, so it never claims a graceful
// close. An attached app is the user's: only our sockets go.
func (s *Session) CleanUp() error {
	s.expectEnd()
	var err error
	if s.Proc != nil {
		err = s.Proc.Kill()
	}
	s.closeConns()
	if rerr := s.endRemote(context.Background()); err == nil {
		err = rerr
	}
	return err
}

// endRemote ends a remote app once (EndRemote), bounded; nil without one.
func (s *Session) endRemote(ctx context.Context) error {
	if s.EndRemote == nil {
		return nil
	}
	s.remoteOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), remoteEndTimeout)
		defer cancel()
		s.remoteErr = s.EndRemote(ctx)
	})
	return s.remoteErr
}

// RemoteEnder returns a function that ends the session's remote app once
// (for a detached grid session the manager ends at Close), or nil.
func (s *Session) RemoteEnder() func() {
	if s.EndRemote == nil {
		return nil
	}
	return func() { _ = s.endRemote(context.Background()) }
}

// Owned reports whether we started the app (and so may end it).
func (s *Session) Owned() bool { return s.Proc != nil || s.EndRemote != nil }

// Detach closes our connections and leaves the app running.
func (s *Session) Detach() { s.closeConns() }

// StopResult says how a stop went.
type StopResult struct {
	Escalated bool   `json:"escalated"`
	Method    string `json:"method"`
}

// Stop ends the app gracefully: Browser.close, then (for a launched app)
// SIGTERM and SIGKILL of its process group. For an attached app it sends
// Browser.close and signals only a pid the caller gave.
func (s *Session) Stop(ctx context.Context, grace time.Duration) (StopResult, error) {
	s.expectEnd()
	closeBrowser := func(ctx context.Context) error {
		return s.Pool.Browser().Call(ctx, "Browser.close", nil, nil)
	}
	if s.EndRemote != nil {
		// The grid ends the browser and frees its slot; Browser.close
		// would leave the grid's session dangling.
		s.closeConns()
		return StopResult{Method: "grid DELETE /session"}, s.endRemote(ctx)
	}
	if s.Proc != nil {
		esc, err := s.Proc.Stop(ctx, closeBrowser, grace)
		s.closeConns()
		m := "Browser.close"
		if esc {
			m = "signal"
		}
		return StopResult{Escalated: esc, Method: m}, err
	}
	cctx, cancel := context.WithTimeout(ctx, grace)
	err := closeBrowser(cctx)
	cancel()
	res := StopResult{Method: "Browser.close"}
	if s.PID > 0 {
		// Wait for the pid to go; escalate on the pid only.
		if !waitPID(ctx, s.PID, grace) {
			res.Escalated = true
			res.Method = "signal"
			_ = browser.TerminatePID(s.PID)
			if !waitPID(ctx, s.PID, grace) {
				_ = browser.KillPID(s.PID)
				waitPID(ctx, s.PID, 2*time.Second)
			}
		}
		err = nil
	}
	s.closeConns()
	if err != nil && errs.CodeOf(err) != errs.CDPDisconnected {
		return res, err
	}
	return res, nil
}

// ForceKill kills the app now: the process group when launched, else the pid
// the caller gave on attach.
func (s *Session) ForceKill() error {
	s.expectEnd()
	switch {
	case s.EndRemote != nil:
		s.closeConns()
		return s.endRemote(context.Background())
	case s.Proc != nil:
		err := s.Proc.Kill()
		s.closeConns()
		return err
	case s.PID > 0:
		err := browser.KillPID(s.PID)
		s.closeConns()
		return err
	}
	return errs.New(errs.BadArgument, "session %s was attached without a pid, so there is no process to kill; pass pid to electron_attach, or use electron_stop (Browser.close)", s.ID)
}

func waitPID(ctx context.Context, pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if !browser.PIDAlive(pid) {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(25 * time.Millisecond):
		}
	}
	return false
}

// Manager keeps the open sessions. Writers (Add, Publish, Remove, Close)
// take mu and publish a new immutable view; the calls of every tool read
// that view (Get, List, Resolve, Len) without a lock, so sessions driven
// in parallel share no lock on the call path (docs/adr/028).
type Manager struct {
	mu       sync.Mutex
	sessions map[string]*Session
	view     atomic.Pointer[managerView]
	seq      int
	closed   bool // Close ran: Publish refuses
	// detached are launched apps whose session was detached: still ours,
	// so Close ends them (pruned as they exit).
	detached []*browser.Process
	// remote end the grid sessions of detached sessions at Close.
	remote []func()
}

// KeepRemoteUntilClose records how to end a remote app (a grid session)
// whose session was detached: what we launch we end, so Close ends it.
func (m *Manager) KeepRemoteUntilClose(end func()) {
	if end == nil {
		return
	}
	m.mu.Lock()
	m.remote = append(m.remote, end)
	m.mu.Unlock()
}

// KeepUntilClose records a launched app whose session was detached: it
// goes on running, but what we launched we end, so Close kills it.
// Processes that have exited are forgotten here.
func (m *Manager) KeepUntilClose(p *browser.Process) {
	if p == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	live := m.detached[:0]
	for _, q := range m.detached {
		select {
		case <-q.Done():
		default:
			live = append(live, q)
		}
	}
	m.detached = append(live, p)
}

// managerView is an immutable copy of the open sessions.
type managerView struct {
	byID    map[string]*Session
	ordered []*Session // by creation time
}

// publishLocked replaces the view after a change of m.sessions.
func (m *Manager) publishLocked() {
	v := &managerView{byID: make(map[string]*Session, len(m.sessions)), ordered: make([]*Session, 0, len(m.sessions))}
	for id, s := range m.sessions {
		v.byID[id] = s
		v.ordered = append(v.ordered, s)
	}
	sort.Slice(v.ordered, func(i, j int) bool { return v.ordered[i].Created.Before(v.ordered[j].Created) })
	m.view.Store(v)
}

func (m *Manager) load() *managerView {
	if v := m.view.Load(); v != nil {
		return v
	}
	return &managerView{}
}

// NewManager returns an empty manager.
func NewManager() *Manager { return &Manager{sessions: map[string]*Session{}} }

// Get returns the open session with that id, without a lock.
func (m *Manager) Get(id string) (*Session, bool) {
	s, ok := m.load().byID[id]
	return s, ok
}

// NextID reserves a new session id ("s1", "s2", …).
func (m *Manager) NextID() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seq++
	return fmt.Sprintf("s%d", m.seq)
}

// Add registers a session.
func (m *Manager) Add(s *Session) {
	m.mu.Lock()
	m.sessions[s.ID] = s
	m.publishLocked()
	m.mu.Unlock()
}

// Publish registers a complete session. With exclusive, it fails with
// ALREADY_RUNNING when another session is open (two launches that both
// checked before either published); after Close it fails with NOT_RUNNING.
// On failure the caller closes s.
func (m *Manager) Publish(s *Session, exclusive bool) error {
	if !exclusive {
		return m.PublishAmong(s, nil)
	}
	return m.PublishAmong(s, func(*Session) bool { return true })
}

// PublishAmong is Publish where only the open sessions for which counts
// says true make the new one ALREADY_RUNNING, and only they are named:
// over streamable HTTP, another client's sessions do not exist for the
// caller (nil counts none).
func (m *Manager) PublishAmong(s *Session, counts func(*Session) bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return errs.New(errs.NotRunning, "the server is shutting down")
	}
	if counts != nil {
		open := map[string]*Session{}
		for id, x := range m.sessions {
			if counts(x) {
				open[id] = x
			}
		}
		if len(open) > 0 {
			return errs.New(errs.AlreadyRunning, "a session is already open (%s)", ids(open))
		}
	}
	m.sessions[s.ID] = s
	m.publishLocked()
	return nil
}

// Remove forgets a session (it does not close it).
func (m *Manager) Remove(id string) {
	m.mu.Lock()
	delete(m.sessions, id)
	m.publishLocked()
	m.mu.Unlock()
}

// List returns the sessions ordered by id number.
func (m *Manager) List() []*Session {
	return append([]*Session(nil), m.load().ordered...)
}

// Resolve finds the session a call means: the one named, or the only one.
func (m *Manager) Resolve(id string) (*Session, error) {
	v := m.load()
	if id != "" {
		if s, ok := v.byID[id]; ok {
			return s, nil
		}
		if len(v.byID) == 0 {
			return nil, errs.New(errs.NotRunning, "no session %q: no session is open", id)
		}
		return nil, errs.New(errs.NotRunning, "no session %q; open sessions: %s", id, ids(v.byID)).With("sessionId", id)
	}
	switch len(v.ordered) {
	case 0:
		return nil, errs.New(errs.NotRunning, "no session is open")
	case 1:
		return v.ordered[0], nil
	}
	return nil, errs.BadArg("sessionId", "%d sessions are open (%s); pass sessionId to say which", len(v.ordered), ids(v.byID))
}

func ids(sessions map[string]*Session) string {
	out := make([]string, 0, len(sessions))
	for id := range sessions {
		out = append(out, id)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// Len is the number of open sessions.
func (m *Manager) Len() int { return len(m.load().ordered) }

// Close ends every session on server exit: launched apps are killed (their
// process groups go), attached apps only lose our sockets.
func (m *Manager) Close() {
	m.mu.Lock()
	all := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		all = append(all, s)
	}
	m.sessions = map[string]*Session{}
	m.publishLocked()
	m.closed = true
	detached := m.detached
	m.detached = nil
	remote := m.remote
	m.remote = nil
	m.mu.Unlock()
	for _, p := range detached {
		_ = p.Kill()
	}
	var wg sync.WaitGroup
	for _, end := range remote {
		wg.Go(end)
	}
	for _, s := range all {
		wg.Add(1)
		go func(s *Session) {
			defer wg.Done()
			s.expectEnd()
			if s.Proc != nil {
				_ = s.Proc.Kill()
			}
			s.closeConns()
			_ = s.endRemote(context.Background())
		}(s)
	}
	wg.Wait()
}
