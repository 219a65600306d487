//go:build unix && !linux

package browser

import (
	"errors"
	"syscall"
)

// sysProcAttr puts the child in its own process group. There is no
// Pdeathsig here: a crashed server can leave its app running.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// canWaitNoReap is false: the leader is reaped by Wait, and the group is
// not signalled after that (its id could be reused).
const canWaitNoReap = false

func waitExited(int) error { return errors.ErrUnsupported }

// liveGroupMembers returns pgid while any process of the group exists.
func liveGroupMembers(pgid int) []int {
	if err := syscall.Kill(-pgid, 0); err == syscall.ESRCH {
		return nil
	}
	return []int{pgid}
}
