//go:build unix

package network

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time: on a machine shared by
// many builds it moves far less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
