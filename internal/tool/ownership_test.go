package tool

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// dispatch runs one call straight through the dispatcher.
func (e *env) dispatch(name string, args string) Result {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return e.srv.Dispatch(ctx, name, []byte(args), nil)
}

// TestBackstopReleasesLock proves the lock rule of the ownership ADR: a
// call the backstop gives up on releases the session lock when its context
// ends (a later call runs), and one that ignores its context makes later
// calls fail with OPERATION_TIMEOUT naming it, never hang; what a call
// starts with Call.Go is joined before the lock is released.
func TestBackstopReleasesLock(t *testing.T) {
	e := newEnv(t, Config{})
	e.launch("/second.html")
	e.srv.cfg.OperationTimeout = 1500 * time.Millisecond // launching takes longer on a busy machine
	release := make(chan struct{})
	var joined atomic.Bool
	define(e.srv, Def{Name: "test_hold", Title: "test", Class: classLifecycle, Session: true, Effects: Effects{Does: kAct}}, func(ctx context.Context, c *Call, _ *noArgs) (any, error) {
		<-ctx.Done() // bounded by its context, as every handler is
		return nil, ctx.Err()
	})
	define(e.srv, Def{Name: "test_stuck", Title: "test", Class: classLifecycle, Session: true, Effects: Effects{Does: kAct}}, func(ctx context.Context, c *Call, _ *noArgs) (any, error) {
		<-release // ignores its context: a bug the lock must survive
		return map[string]any{}, nil
	})
	define(e.srv, Def{Name: "test_spawn", Title: "test", Class: classLifecycle, Session: true, Effects: Effects{Does: kAct}}, func(ctx context.Context, c *Call, _ *noArgs) (any, error) {
		c.Go(func() {
			<-ctx.Done() // ends when the handler returns
			time.Sleep(150 * time.Millisecond)
			joined.Store(true)
		})
		return map[string]any{}, nil
	})
	define(e.srv, Def{Name: "test_joined", Title: "test", Class: classLifecycle, Session: true, Effects: Effects{Does: kAct}}, func(ctx context.Context, c *Call, _ *noArgs) (any, error) {
		return map[string]any{"joined": joined.Load()}, nil
	})

	start := time.Now()
	if r := e.dispatch("test_hold", "{}"); r.Code != "OPERATION_TIMEOUT" {
		t.Fatalf("test_hold: %s", r.JSON)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("the backstop answered after %s", d)
	}
	if r := e.dispatch("electron_info", "{}"); r.IsError {
		t.Fatalf("the session stayed locked after the backstop: %s", r.JSON)
	}

	if r := e.dispatch("test_spawn", "{}"); r.IsError {
		t.Fatal(string(r.JSON))
	}
	if r := e.dispatch("test_joined", "{}"); !strings.Contains(string(r.JSON), `"joined":true`) {
		t.Fatalf("a goroutine of the previous call was still running when the next took the lock: %s", r.JSON)
	}

	if r := e.dispatch("test_stuck", "{}"); r.Code != "OPERATION_TIMEOUT" {
		t.Fatalf("test_stuck: %s", r.JSON)
	}
	start = time.Now()
	r := e.dispatch("electron_info", "{}")
	if r.Code != "OPERATION_TIMEOUT" || !strings.Contains(string(r.JSON), "test_stuck") || !strings.Contains(string(r.JSON), "gave up on it") {
		t.Fatalf("behind a stuck call: %s", r.JSON)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("waited %s behind a stuck call", d)
	}
	close(release)
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := e.dispatch("electron_info", "{}")
		if !r.IsError {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lock was not released when the stuck call returned: %s", r.JSON)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRejectedAttachLeavesNoSession: a bad inspectorUrl is refused before
// anything connects, and of two exclusive attaches racing exactly one is
// published: the other (refused up front, or by Publish after it had
// connected) leaves nothing behind.
func TestRejectedAttachLeavesNoSession(t *testing.T) {
	e := newEnv(t, Config{})
	b := chromiumtest.Start(context.Background(), t)
	e.fails("electron_attach", map[string]any{"cdpUrl": b.HTTPURL, "inspectorUrl": "ws://example.com:9229/x"}, "BAD_ARGUMENT")
	if n := e.srv.sessions.Len(); n != 0 {
		t.Fatalf("%d sessions after a refused inspectorUrl", n)
	}
	results := make(chan Result, 2)
	for range 2 {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			results <- e.srv.Dispatch(ctx, "electron_attach", []byte(`{"cdpUrl":"`+b.HTTPURL+`"}`), nil)
		}()
	}
	r1, r2 := <-results, <-results
	if r1.IsError == r2.IsError {
		t.Fatalf("want one attach to win:\n%s\n%s", r1.JSON, r2.JSON)
	}
	if r1.IsError {
		r1, r2 = r2, r1
	}
	if r2.Code != "ALREADY_RUNNING" {
		t.Fatalf("the loser: %s", r2.JSON)
	}
	if n := e.srv.sessions.Len(); n != 1 {
		t.Fatalf("%d sessions published", n)
	}
	if !strings.Contains(string(r1.JSON), `"session_id":"`+e.srv.sessions.List()[0].ID+`"`) {
		t.Fatalf("the winner is not the published session: %s", r1.JSON)
	}
}
