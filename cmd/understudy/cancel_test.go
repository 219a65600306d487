package main

import (
	"testing"
	"time"
)

// TestStdioCancelledCallGetsNoReply: on the raw stdio stream, a call the
// client cancels (notifications/cancelled) is never answered, and the
// server answers the next call at once.
func TestStdioCancelledCallGetsNoReply(t *testing.T) {
	s := startStdio(t)
	s.write([]byte(initLine))
	if _, ok := s.until(`"init-1"`, "initialize"); !ok {
		return
	}
	s.write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	s.write([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"electron_wait","arguments":{"ms":20000}}}` + "\n"))
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	s.write([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"test"}}` + "\n"))
	s.write([]byte(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"electron_status","arguments":{}}}` + "\n"))
	for {
		m, ok := s.next("the reply to id 8")
		if !ok {
			return
		}
		if string(m.ID) == "7" {
			t.Fatalf("the cancelled call was answered: %s %s", m.Result, m.ID)
		}
		if string(m.ID) == "8" {
			break
		}
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("the call after a cancel took %v", took)
	}
	// The cancelled handler has returned by now; nothing for id 7 follows.
	deadline := time.After(time.Second)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				t.Fatal("stdout closed")
			}
			t.Fatalf("unexpected line after the cancel: %.300s", l)
		case <-deadline:
			return
		}
	}
}
