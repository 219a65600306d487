//go:build windows

package browser

import (
	"fmt"
	"os"

	"github.com/understudy-dev/understudy/internal/errs"
)

// PIDAlive reports whether a process with this pid exists.
func PIDAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}

// TerminatePID ends the process: Windows has no SIGTERM to ask with, so
// this is TerminateProcess, as KillPID.
func TerminatePID(pid int) error { return KillPID(pid) }

// KillPID ends the process now (TerminateProcess). A process already gone
// is not an error.
func KillPID(pid int) error {
	if pid <= 0 {
		return errs.BadArg("pid", "must be a process id")
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return nil // gone
	}
	defer p.Release()
	if err := p.Kill(); err != nil && PIDAlive(pid) {
		return errs.Wrap(errs.Internal, err, fmt.Sprintf("killing pid %d", pid))
	}
	return nil
}

// OpenInspector is TRANSPORT_UNSUPPORTED on Windows: Node opens its
// inspector on SIGUSR1, which Windows does not have.
func OpenInspector(pid int) error {
	if pid <= 0 {
		return errs.BadArg("pid", "must be a process id")
	}
	return errs.New(errs.TransportUnsupported, "opening the inspector of a running app (SIGUSR1) is not possible on Windows; "+
		"start the app with --inspect, or launch it with main, then attach with inspectorPort")
}

// FreeDiskMiB is not read on Windows (ok is false).
func FreeDiskMiB(string) (mib uint64, ok bool) { return 0, false }
