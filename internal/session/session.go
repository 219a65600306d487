package session

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/target"
)

// Mode says how a session came to be, and so what we own.
type Mode string

// The modes.
const (
	Launched  Mode = "launch" // we started the app from an executable
	DevLaunch Mode = "dev"    // we started Electron with a main script
	Attached  Mode = "attach" // the user started it; we only connected
)

// attachment is a value hung on a session with its closer.
type attachment struct {
	value any
	close func() error
}

// Session is one driven app.
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

	lock     chan struct{}
	attachMu sync.Mutex

	mu      sync.Mutex
	lastErr string
	front   string // the window brought to front last (pointer input needs it)
	ended   bool
	endWhy  string
	extras  map[string]attachment // things hung on the session (relay, …)
	done    chan struct{}
	watchWG sync.WaitGroup
}

// New builds a session around an opened pool. It watches the process (when
// launched) and the browser socket, and marks itself ended when either goes.
func New(id string, mode Mode, proc *browser.Process, ep browser.Endpoint, v browser.Version, pool *target.Pool, reg *surface.Registry) *Session {
	s := &Session{
		ID: id, Mode: mode, Created: time.Now(), Proc: proc, Endpoint: ep, Version: v,
		Pool: pool, Surfaces: reg, lock: make(chan struct{}, 1), done: make(chan struct{}),
		extras: map[string]attachment{}, Pages: page.NewStore(),
	}
	if proc != nil {
		s.PID = proc.PID
		s.InspectorURL = proc.InspectorURL
	}
	s.watchWG.Add(1)
	go s.watch()
	return s
}

func (s *Session) watch() {
	defer s.watchWG.Done()
	var procDone <-chan struct{}
	if s.Proc != nil {
		procDone = s.Proc.Done()
	}
	select {
	case <-procDone:
		s.markEnded("the app process exited")
	case <-s.Pool.Browser().Done():
		s.markEnded("the DevTools connection to the app closed")
	case <-s.done:
	}
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

// Lock takes the per-session lock, or gives up when ctx ends.
func (s *Session) Lock(ctx context.Context) error {
	select {
	case s.lock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return errs.New(errs.OperationTimeout, "waited too long for another call on session %s to finish", s.ID)
	}
}

// Unlock releases the per-session lock.
func (s *Session) Unlock() { <-s.lock }

// SetLastError records the last failure seen on this session (for status).
func (s *Session) SetLastError(msg string) {
	s.mu.Lock()
	s.lastErr = msg
	s.mu.Unlock()
}

// Front reports whether targetID is the window we brought to front last,
// and records it as such.
func (s *Session) Front(targetID string) (already bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	already = s.front == targetID
	s.front = targetID
	return already
}

// LastError returns the last failure recorded.
func (s *Session) LastError() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastErr
}

// Attachment returns what is hung on the session under key (a relay, say),
// creating it with create on first use. The closer create returns runs when
// the session closes. Creation is serialised per session.
func (s *Session) Attachment(key string, create func() (any, func() error, error)) (any, error) {
	s.attachMu.Lock()
	defer s.attachMu.Unlock()
	s.mu.Lock()
	a, ok := s.extras[key]
	s.mu.Unlock()
	if ok {
		return a.value, nil
	}
	v, closer, err := create()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.extras[key] = attachment{v, closer}
	s.mu.Unlock()
	return v, nil
}

// closeConns closes our sockets and hung extras, and stops the watcher.
func (s *Session) closeConns() {
	s.mu.Lock()
	extras := s.extras
	s.extras = map[string]attachment{}
	select {
	case <-s.done:
	default:
		close(s.done)
	}
	s.mu.Unlock()
	for _, a := range extras {
		if a.close != nil {
			_ = a.close()
		}
	}
	if s.Surfaces != nil {
		s.Surfaces.Close()
	}
	_ = s.Pool.Close()
	s.watchWG.Wait()
	s.markEnded("closed")
}

// Owned reports whether we started the app (and so may end it).
func (s *Session) Owned() bool { return s.Proc != nil }

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
	closeBrowser := func(ctx context.Context) error {
		return s.Pool.Browser().Call(ctx, "Browser.close", nil, nil)
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
	switch {
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

// Manager keeps the open sessions.
type Manager struct {
	mu       sync.Mutex
	sessions map[string]*Session
	seq      int
}

// NewManager returns an empty manager.
func NewManager() *Manager { return &Manager{sessions: map[string]*Session{}} }

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
	m.mu.Unlock()
}

// Remove forgets a session (it does not close it).
func (m *Manager) Remove(id string) {
	m.mu.Lock()
	delete(m.sessions, id)
	m.mu.Unlock()
}

// List returns the sessions ordered by id number.
func (m *Manager) List() []*Session {
	m.mu.Lock()
	out := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		out = append(out, s)
	}
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

// Resolve finds the session a call means: the one named, or the only one.
func (m *Manager) Resolve(id string) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id != "" {
		if s, ok := m.sessions[id]; ok {
			return s, nil
		}
		if len(m.sessions) == 0 {
			return nil, errs.New(errs.NotRunning, "no session %q: no session is open", id)
		}
		return nil, errs.New(errs.NotRunning, "no session %q; open sessions: %s", id, m.idsLocked()).With("sessionId", id)
	}
	switch len(m.sessions) {
	case 0:
		return nil, errs.New(errs.NotRunning, "no session is open")
	case 1:
		for _, s := range m.sessions {
			return s, nil
		}
	}
	return nil, errs.BadArg("sessionId", "%d sessions are open (%s); pass sessionId to say which", len(m.sessions), m.idsLocked())
}

func (m *Manager) idsLocked() string {
	ids := make([]string, 0, len(m.sessions))
	for id := range m.sessions {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return strings.Join(ids, ", ")
}

// Len is the number of open sessions.
func (m *Manager) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sessions)
}

// Close ends every session on server exit: launched apps are killed (their
// process groups go), attached apps only lose our sockets.
func (m *Manager) Close() {
	m.mu.Lock()
	all := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		all = append(all, s)
	}
	m.sessions = map[string]*Session{}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Add(1)
		go func(s *Session) {
			defer wg.Done()
			if s.Proc != nil {
				_ = s.Proc.Kill()
			}
			s.closeConns()
		}(s)
	}
	wg.Wait()
}
