//go:build !unix

package gridtest

import "os/exec"

func ownGroup(*exec.Cmd) {}

func terminateGroup(c *exec.Cmd) { _ = c.Process.Kill() }

func killGroup(c *exec.Cmd) { _ = c.Process.Kill() }
