//go:build linux

package browser

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// sysProcAttr puts the child in its own process group, so that one signal
// reaches the app and every helper it spawned, and asks the kernel to
// SIGKILL it when the thread that started it dies, so that a crashed
// server leaves no app behind. Chromium and Electron take their own
// children down when their browser process dies.
//
// Pdeathsig follows the creating OS thread, not the Go process; the Go
// runtime ends a thread only when a goroutine exits while locked to it,
// which nothing here does.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// canWaitNoReap reports whether waitExited is available: on Linux the
// leader can be watched without reaping it, so its PID (which is the group
// id) cannot be reused while we still signal the group.
const canWaitNoReap = true

// waitExited blocks until pid has exited, leaving it a zombie (waitid with
// WNOWAIT).
func waitExited(pid int) error {
	const (
		pPID    = 1
		wExited = 0x4
		wNoWait = 0x1000000
	)
	var info [128]byte // siginfo_t
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid),
			uintptr(unsafe.Pointer(&info[0])), wExited|wNoWait, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return e
		}
		return nil
	}
}

// liveGroupMembers returns the PIDs of processes of group pgid that are
// still running. Zombies do not count: they have closed their files and
// run nothing, and reaping orphans is init's job (on some machines a slow
// one).
func liveGroupMembers(pgid int) []int {
	if err := syscall.Kill(-pgid, 0); err == syscall.ESRCH {
		return nil
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return []int{pgid} // cannot tell: assume alive
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, pg, ok := procStat(pid)
		if !ok || pg != pgid || state == 'Z' || state == 'X' {
			continue
		}
		out = append(out, pid)
	}
	return out
}

// procStat reads the state and process group of pid from /proc/PID/stat.
func procStat(pid int) (state byte, pgrp int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// "pid (comm) state ppid pgrp ..."; comm may hold spaces and parens.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, false
	}
	pg, err := strconv.Atoi(string(f[2]))
	if err != nil {
		return 0, 0, false
	}
	return f[0][0], pg, true
}
