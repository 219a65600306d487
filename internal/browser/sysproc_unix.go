//go:build unix

package browser

import "syscall"

// signalGroup sends sig to every process of group pgid.
func signalGroup(pgid int, sig syscall.Signal) error {
	return syscall.Kill(-pgid, sig)
}
