//go:build unix

package browser

import (
	"os/exec"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestPIDControl: the per-OS process control that session and mainproc use
// instead of syscall (so that they build on Windows).
func TestPIDControl(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal("sleep (coreutils) is needed to test process control:", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	pid := cmd.Process.Pid
	if !PIDAlive(pid) {
		t.Fatal("a running child is not alive")
	}
	if err := TerminatePID(pid); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not end the child")
	}
	if PIDAlive(pid) {
		t.Error("a reaped child is alive")
	}
	if err := KillPID(pid); err != nil {
		t.Errorf("killing a process that is gone: %v", err)
	}
	for _, f := range []func(int) error{KillPID, TerminatePID, OpenInspector} {
		if errs.CodeOf(f(0)) != errs.BadArgument {
			t.Error("pid 0 was accepted")
		}
	}
	if PIDAlive(0) || PIDAlive(-1) {
		t.Error("pid 0 or -1 alive")
	}
}
