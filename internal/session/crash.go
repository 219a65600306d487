package session

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Crash is what is known about an app whose main process ended without
// being asked to (not by electron_stop, force_kill or the server's exit).
type Crash struct {
	At         time.Time `json:"at"`
	ExitCode   *int      `json:"exit_code,omitempty"` // when it exited
	Signal     string    `json:"signal,omitempty"`    // when a signal ended it (SIGKILL, SIGSEGV, …)
	StderrTail []string  `json:"stderr_tail"`         // its last output lines, oldest first
}

// stderrLines is how many of the last output lines a Crash keeps.
const stderrLines = 20

// Describe says in a few words how the process ended.
func (c *Crash) Describe() string {
	switch {
	case c.Signal != "":
		return "killed by " + c.Signal
	case c.ExitCode != nil:
		return fmt.Sprintf("exited with status %d", *c.ExitCode)
	}
	return "exited"
}

// crashOf reads how a process ended from its exec error and output tail.
func crashOf(exitErr error, tail string) *Crash {
	c := &Crash{At: time.Now(), StderrTail: lastLines(tail, stderrLines)}
	var ee *exec.ExitError
	switch {
	case exitErr == nil:
		zero := 0
		c.ExitCode = &zero
	case errors.As(exitErr, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			c.Signal = signalName(ws.Signal())
		} else {
			code := ee.ExitCode()
			c.ExitCode = &code
		}
	}
	return c
}

func signalName(s syscall.Signal) string {
	names := map[syscall.Signal]string{
		syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM", syscall.SIGSEGV: "SIGSEGV",
		syscall.SIGABRT: "SIGABRT", syscall.SIGINT: "SIGINT", syscall.SIGBUS: "SIGBUS",
		syscall.SIGILL: "SIGILL", syscall.SIGFPE: "SIGFPE", syscall.SIGHUP: "SIGHUP",
	}
	if n, ok := names[s]; ok {
		return n
	}
	return fmt.Sprintf("signal %d", int(s))
}

func lastLines(s string, n int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	out := []string{}
	for _, l := range lines {
		if l = strings.TrimRight(l, "\r"); l != "" {
			out = append(out, l)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

// Crashed returns how the app's main process ended when it ended on its
// own, else nil.
func (s *Session) Crashed() *Crash {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.crash
}

// CrashedError is APP_CRASHED for a call on a crashed session.
func (s *Session) CrashedError() error {
	c := s.Crashed()
	if c == nil {
		return nil
	}
	e := errs.New(errs.AppCrashed, "the app of session %s %s %s ago; this session cannot act any more", s.ID, c.Describe(), time.Since(c.At).Round(time.Millisecond)).
		With("sessionId", s.ID).With("stderr_tail", c.StderrTail)
	if c.ExitCode != nil {
		e.With("exit_code", *c.ExitCode)
	}
	if c.Signal != "" {
		e.With("signal", c.Signal)
	}
	e.NextActions = []string{"electron_launch {relaunch: true} starts the app again", "electron_stop cleans up the ended session"}
	return e
}

// expectEnd records that we are ending the app ourselves (stop, kill,
// clean-up, server exit), so its exit is not a crash.
func (s *Session) expectEnd() {
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
}

// procEnded is the watcher's verdict on a process exit.
func (s *Session) procEnded() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	if s.stopping || s.closing {
		s.ended, s.endWhy = true, "the app process exited"
		return
	}
	s.crash = crashOf(s.Proc.ExitErr(), s.Proc.StderrTail())
	s.ended, s.endWhy = true, "the app process exited on its own, a crash ("+s.crash.Describe()+")"
}
