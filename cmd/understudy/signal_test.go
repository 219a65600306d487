package main

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// TestSignalContext: the handler is installed beside startup (installed
// closes), a SIGTERM then ends the context instead of killing the process,
// and stop returns once the handler's goroutine is gone (the leak check in
// TestMain would see it otherwise).
func TestSignalContext(t *testing.T) {
	ctx, installed, stop := signalContext()
	defer stop()
	select {
	case <-installed:
	case <-time.After(5 * time.Second):
		t.Fatal("the signal handler was never installed")
	}
	if ctx.Err() != nil {
		t.Fatal("the context ended before any signal")
	}
	p, err := os.FindProcess(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTERM did not end the context")
	}
}

// TestSignalContextStop: stop without a signal ends the context and waits.
func TestSignalContextStop(t *testing.T) {
	ctx, _, stop := signalContext()
	stop()
	if ctx.Err() == nil {
		t.Fatal("stop left the context running")
	}
}
