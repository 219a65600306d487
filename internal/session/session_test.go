package session

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/svc"
)

// bare is a session with no app behind it: no process, pool or registry.
func bare(t *testing.T, id string) *Session {
	s := New(id, Attached, nil, browser.Endpoint{}, browser.Version{}, nil, nil)
	t.Cleanup(s.Detach)
	return s
}

func TestResolve(t *testing.T) {
	m := NewManager()
	if _, err := m.Resolve(""); errs.CodeOf(err) != errs.NotRunning {
		t.Fatalf("no session: %v", err)
	}
	if _, err := m.Resolve("s9"); errs.CodeOf(err) != errs.NotRunning {
		t.Fatalf("named, none open: %v", err)
	}
	a := bare(t, m.NextID())
	m.Add(a)
	if s, err := m.Resolve(""); err != nil || s != a {
		t.Fatalf("one session: %v %v", s, err)
	}
	b := bare(t, m.NextID())
	m.Add(b)
	_, err := m.Resolve("")
	if e := errs.As(err); e == nil || e.Code != errs.BadArgument || !strings.Contains(e.Message, "s1, s2") || e.Details["field"] != "sessionId" {
		t.Fatalf("two sessions without an id: %v", err)
	}
	if s, err := m.Resolve("s2"); err != nil || s != b {
		t.Fatalf("named: %v %v", s, err)
	}
	// An unknown id is NOT_RUNNING whether or not others are open (as
	// stagewright's tool reference says), naming the open ones.
	if _, err := m.Resolve("nope"); errs.CodeOf(err) != errs.NotRunning || !strings.Contains(err.Error(), "s1, s2") {
		t.Fatalf("unknown id: %v", err)
	}
	m.Remove("s1")
	if m.Len() != 1 || m.List()[0] != b {
		t.Fatal("remove")
	}
}

// TestAttachTypedCreatedOnceAndClosed: one service per key, created once,
// closed with the session; a closing session creates nothing. Two keys of
// one type are two services.
func TestAttachTypedCreatedOnceAndClosed(t *testing.T) {
	s := bare(t, "s1")
	type log struct{ n int }
	logKey, otherLogKey := svc.New[*log]("log"), svc.New[*log]("other log")
	made, closed := 0, 0
	for i := 0; i < 3; i++ {
		v, err := Attach(s, logKey, func(life context.Context) (*log, func() error, error) {
			if life.Err() != nil {
				t.Error("created on an ended context")
			}
			made++
			return &log{n: made}, func() error { closed++; return nil }, nil
		})
		if err != nil || v.n != 1 {
			t.Fatal(v, err)
		}
	}
	other, err := Attach(s, svc.New[string]("name"), func(context.Context) (string, func() error, error) { return "x", nil, nil })
	if err != nil || other != "x" || made != 1 {
		t.Fatalf("a second type: %q %v (made %d)", other, err, made)
	}
	second, err := Attach(s, otherLogKey, func(context.Context) (*log, func() error, error) { return &log{n: 42}, nil, nil })
	if err != nil || second.n != 42 {
		t.Fatalf("a second key of the same type: %v %v", second, err)
	}
	if v, ok := Extra(s, logKey); !ok || v.n != 1 {
		t.Fatalf("Extra(logKey) = %v %v", v, ok)
	}
	s.Detach()
	if closed != 1 {
		t.Fatalf("closed %d times", closed)
	}
	if _, err := Attach(s, logKey, func(context.Context) (*log, func() error, error) {
		t.Error("created on a closed session")
		return nil, nil, nil
	}); errs.CodeOf(err) != errs.NotRunning {
		t.Fatalf("attach after close: %v", err)
	}
}

// TestCloseCancelsAndJoinsGo: Close cancels the session's context and waits
// for every goroutine Go started; after Close, Go runs nothing.
func TestCloseCancelsAndJoinsGo(t *testing.T) {
	s := New("s1", Attached, nil, browser.Endpoint{}, browser.Version{}, nil, nil)
	var ended atomic.Int32
	started := make(chan struct{}, 3)
	for i := 0; i < 3; i++ {
		if !s.Go(func(ctx context.Context) {
			started <- struct{}{}
			<-ctx.Done()
			time.Sleep(20 * time.Millisecond) // Close must wait for this
			ended.Add(1)
		}) {
			t.Fatal("Go refused on a live session")
		}
	}
	for i := 0; i < 3; i++ {
		<-started
	}
	s.Detach()
	if n := ended.Load(); n != 3 {
		t.Fatalf("Close returned with %d of 3 goroutines still running", 3-n)
	}
	if s.Go(func(context.Context) { t.Error("ran after Close") }) {
		t.Fatal("Go accepted work after Close")
	}
	if alive, why := s.Alive(); alive || why != "closed" {
		t.Fatalf("after Close: alive=%v %q", alive, why)
	}
	s.Detach() // twice is fine
}

// TestPublishExclusive: a second exclusive publish is ALREADY_RUNNING and
// leaves the manager as it was.
func TestPublishExclusive(t *testing.T) {
	m := NewManager()
	a, b := bare(t, m.NextID()), bare(t, m.NextID())
	if err := m.Publish(a, true); err != nil {
		t.Fatal(err)
	}
	if err := m.Publish(b, true); errs.CodeOf(err) != errs.AlreadyRunning {
		t.Fatalf("second exclusive publish: %v", err)
	}
	if m.Len() != 1 {
		t.Fatalf("%d sessions after a refused publish", m.Len())
	}
	if err := m.Publish(b, false); err != nil || m.Len() != 2 {
		t.Fatalf("non-exclusive publish: %v, %d sessions", err, m.Len())
	}
	m.Close()
	if err := m.Publish(bare(t, m.NextID()), false); errs.CodeOf(err) != errs.NotRunning || m.Len() != 0 {
		t.Fatalf("publish after Close: %v, %d sessions", err, m.Len())
	}
}
