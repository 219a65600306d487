//go:build !unix

package browser

import (
	"errors"
	"os"
	"syscall"
)

// sysProcAttr is empty: there are no process groups here, and signals
// reach only the direct child.
func sysProcAttr() *syscall.SysProcAttr { return nil }

const canWaitNoReap = false

func waitExited(int) error { return errors.ErrUnsupported }

// signalGroup signals the direct child only.
func signalGroup(pid int, sig syscall.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	if sig == syscall.SIGKILL {
		return p.Kill()
	}
	return p.Signal(sig)
}

// liveGroupMembers cannot see a group here; the direct child is reaped
// before this is asked.
func liveGroupMembers(int) []int { return nil }
