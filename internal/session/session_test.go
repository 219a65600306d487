package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

func bare(id string) *Session {
	return &Session{ID: id, Created: time.Now(), lock: make(chan struct{}, 1), extras: map[string]attachment{}}
}

func TestResolve(t *testing.T) {
	m := NewManager()
	if _, err := m.Resolve(""); errs.CodeOf(err) != errs.NotRunning {
		t.Fatalf("no session: %v", err)
	}
	if _, err := m.Resolve("s9"); errs.CodeOf(err) != errs.NotRunning {
		t.Fatalf("named, none open: %v", err)
	}
	a := bare(m.NextID())
	m.Add(a)
	if s, err := m.Resolve(""); err != nil || s != a {
		t.Fatalf("one session: %v %v", s, err)
	}
	b := bare(m.NextID())
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

func TestLockGivesUp(t *testing.T) {
	s := bare("s1")
	if err := s.Lock(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := s.Lock(ctx); errs.CodeOf(err) != errs.OperationTimeout {
		t.Fatalf("a held lock: %v", err)
	}
	s.Unlock()
	if err := s.Lock(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.Unlock()
}

func TestAttachmentCreatedOnceAndClosed(t *testing.T) {
	s := bare("s1")
	made, closed := 0, 0
	for i := 0; i < 3; i++ {
		v, err := s.Attachment("k", func() (any, func() error, error) {
			made++
			return "value", func() error { closed++; return nil }, nil
		})
		if err != nil || v != "value" {
			t.Fatal(v, err)
		}
	}
	if made != 1 {
		t.Fatalf("created %d times", made)
	}
	s.mu.Lock()
	extras := s.extras
	s.mu.Unlock()
	for _, a := range extras {
		_ = a.close()
	}
	if closed != 1 {
		t.Fatalf("closed %d times", closed)
	}
}
