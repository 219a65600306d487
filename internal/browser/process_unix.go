//go:build unix

package browser

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/understudy-dev/understudy/internal/errs"
)

// PIDAlive reports whether a process with this pid exists (a zombie counts
// until it is reaped).
func PIDAlive(pid int) bool {
	return pid > 0 && !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// TerminatePID asks the process to end (SIGTERM). A process already gone
// is not an error.
func TerminatePID(pid int) error { return signalPID(pid, syscall.SIGTERM) }

// KillPID ends the process now (SIGKILL). A process already gone is not an
// error.
func KillPID(pid int) error { return signalPID(pid, syscall.SIGKILL) }

func signalPID(pid int, sig syscall.Signal) error {
	if pid <= 0 {
		return errs.BadArg("pid", "must be a process id")
	}
	if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return errs.Wrap(errs.Internal, err, fmt.Sprintf("signalling pid %d", pid))
	}
	return nil
}

// OpenInspector asks a running Node or Electron main process to open its
// inspector, as `node --inspect` would: SIGUSR1. A failure is
// INJECT_FAILED.
func OpenInspector(pid int) error {
	if pid <= 0 {
		return errs.BadArg("pid", "must be a process id")
	}
	if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil {
		return errs.Wrap(errs.InjectFailed, err, fmt.Sprintf("signalling pid %d", pid))
	}
	return nil
}

// FreeDiskMiB returns the space left to unprivileged users on the file
// system that holds dir, in MiB; ok is false when it cannot be read.
func FreeDiskMiB(dir string) (mib uint64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize) >> 20, true
}
