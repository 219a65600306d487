package session

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

func mustAcquire(t *testing.T, s *Session, call string, c Class) *Hold {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h, err := s.Acquire(ctx, call, c)
	if err != nil {
		t.Fatalf("%s: %v", call, err)
	}
	return h
}

func tryAcquire(s *Session, call string, c Class, d time.Duration) (*Hold, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return s.Acquire(ctx, call, c)
}

// TestGateSharedBesideOrdered: reads and waits enter beside each other
// and beside one action; a second action waits for the first.
func TestGateSharedBesideOrdered(t *testing.T) {
	s := bare(t, "s1")
	wait := mustAcquire(t, s, "electron_wait_for_selector", Shared)
	read := mustAcquire(t, s, "electron_get_text", Shared)
	act := mustAcquire(t, s, "electron_click", Ordered)
	read2 := mustAcquire(t, s, "electron_snapshot", Shared)
	_, err := tryAcquire(s, "electron_type", Ordered, 30*time.Millisecond)
	if e := errs.As(err); e == nil || e.Code != errs.OperationTimeout || !strings.Contains(e.Message, "electron_click") {
		t.Fatalf("a second action beside the first: %v", err)
	}
	act.Release()
	act.Release() // a second release does nothing
	act2 := mustAcquire(t, s, "electron_type", Ordered)
	for _, h := range []*Hold{wait, read, read2, act2} {
		h.Release()
	}
	if b := s.Busy(); len(b) != 0 {
		t.Fatalf("busy after every release: %v", b)
	}
}

// TestGateExclusiveAlone: a state change waits for every call in flight,
// holds back new ones while it is queued, and runs alone.
func TestGateExclusiveAlone(t *testing.T) {
	s := bare(t, "s1")
	read := mustAcquire(t, s, "electron_get_text", Shared)
	got := make(chan *Hold, 1)
	go func() {
		h, err := tryAcquire(s, "electron_switch_surface", Exclusive, 10*time.Second)
		if err != nil {
			t.Error(err)
		}
		got <- h
	}()
	// Once the switch is queued, a new read waits behind it.
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.gate.mu.Lock()
		q := s.gate.exclQ
		s.gate.mu.Unlock()
		if q == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the switch never queued")
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := tryAcquire(s, "electron_find", Shared, 30*time.Millisecond); errs.CodeOf(err) != errs.OperationTimeout {
		t.Fatalf("a read behind a queued state change: %v", err)
	}
	select {
	case <-got:
		t.Fatal("the switch entered beside a read")
	case <-time.After(30 * time.Millisecond):
	}
	read.Release()
	sw := <-got
	if _, err := tryAcquire(s, "electron_get_text", Shared, 30*time.Millisecond); err == nil {
		t.Fatal("a read entered beside a state change")
	}
	if _, err := tryAcquire(s, "electron_click", Ordered, 30*time.Millisecond); err == nil {
		t.Fatal("an action entered beside a state change")
	}
	sw.Release()
	mustAcquire(t, s, "electron_get_text", Shared).Release()
}

// TestGateActionsInArrivalOrder: queued actions enter one at a time in the
// order they asked, and one that gave up leaves the queue.
func TestGateActionsInArrivalOrder(t *testing.T) {
	s := bare(t, "s1")
	first := mustAcquire(t, s, "electron_click", Ordered)
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	queued := func(n int) {
		deadline := time.Now().Add(5 * time.Second)
		for {
			s.gate.mu.Lock()
			l := len(s.gate.queue)
			s.gate.mu.Unlock()
			if l == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("queue never reached %d", n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	// One that gives up while queued must not block those behind it.
	quitter, quit := context.WithCancel(context.Background())
	go func() { _, _ = s.Acquire(quitter, "electron_key", Ordered) }()
	queued(1)
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h, err := tryAcquire(s, "electron_type", Ordered, 10*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			time.Sleep(2 * time.Millisecond)
			h.Release()
		}()
		queued(i + 2)
	}
	quit()
	queued(5)
	first.Release()
	wg.Wait()
	for i, v := range order {
		if v != i {
			t.Fatalf("actions entered out of order: %v", order)
		}
	}
}

// TestGateGaveUpNamed: a call waiting too long learns which call is in its
// way, and that its caller gave up on it.
func TestGateGaveUpNamed(t *testing.T) {
	s := bare(t, "s1")
	h := mustAcquire(t, s, "electron_click", Ordered)
	_, err := tryAcquire(s, "electron_type", Ordered, 20*time.Millisecond)
	if e := errs.As(err); e == nil || e.Code != errs.OperationTimeout || e.Details["busy_with"] != "electron_click" {
		t.Fatalf("a held action: %v", err)
	}
	h.GaveUp()
	if _, err := tryAcquire(s, "electron_type", Ordered, 20*time.Millisecond); err == nil || !strings.Contains(err.Error(), "gave up on it") {
		t.Fatalf("an action held by an abandoned call: %v", err)
	}
	h.Release()
	mustAcquire(t, s, "electron_type", Ordered).Release()
}
