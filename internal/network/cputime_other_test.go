//go:build !unix

package network

import "time"

// cpuTime has no portable source here: the benchmark's cpu-ms/op reads 0
// on this OS.
func cpuTime() time.Duration { return 0 }
