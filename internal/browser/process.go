package browser

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// DefaultGrace is Stop's wait per step when grace is zero.
const DefaultGrace = 5 * time.Second

const (
	// groupGoneWait bounds the wait for the group's last processes after
	// the leader was reaped (they were SIGKILLed before).
	groupGoneWait = 5 * time.Second
	// outputDrainWait bounds the wait for EOF on the output pipe once the
	// group is gone; a process that left the group may still hold it.
	outputDrainWait = 2 * time.Second
	// killWait bounds Kill: SIGKILL, reap and the cleanup above.
	killWait = 15 * time.Second
)

// Process is an app that Launch started: the leader of its own process
// group. Its exported fields are set by Launch and read-only after. Its
// methods are safe for concurrent use; Stop and Kill are idempotent.
//
// When the leader exits for any reason (Stop, Kill, a crash, the app
// quitting), the rest of its group is SIGKILLed (on Linux, where the
// leader is watched without being reaped, so the group id is still ours),
// the leader reaped, the group's end awaited (at most 5 s), the output
// drained (at most 2 s more: a process that left the group, such as
// Chromium's crashpad handler, holds the pipe until it exits) and a temp
// profile removed; then Done is closed.
type Process struct {
	PID             int      // the leader's PID, which is also the process group id
	Endpoint        Endpoint // the DevTools endpoint, on 127.0.0.1
	InspectorURL    string   // the Node inspector (ws://127.0.0.1:PORT/UUID) of a dev launch or Inspect; else ""
	IsChromium      bool     // launched as a Chromium-family browser
	UserDataDir     string   // Chromium's profile dir; "" for an Electron app
	OwnsUserDataDir bool     // UserDataDir is our temp dir, removed after exit
	Argv            []string // the full command line, Argv[0] the executable

	cmd     *exec.Cmd
	out     *outputReader
	outR    *os.File
	outDone chan struct{} // closed when the output reader returned

	mu     sync.Mutex // guards reaped against signalling a reused group id
	reaped bool

	exited chan struct{} // closed when the leader has exited (maybe not yet reaped)
	done   chan struct{} // closed after the cleanup; then the fields below are set

	exitErr    error
	cleanupErr error
}

// Done is closed once the direct child has exited (crash included) and the
// cleanup described on Process is over.
func (p *Process) Done() <-chan struct{} { return p.done }

// ExitErr is the leader's exit as exec reports it: nil for status 0, an
// *exec.ExitError otherwise. It is nil until Done is closed.
func (p *Process) ExitErr() error {
	select {
	case <-p.done:
		return p.exitErr
	default:
		return nil
	}
}

// StderrTail returns the last 8 KiB of the child's output (stdout and
// stderr merged), from its first whole line.
func (p *Process) StderrTail() string { return p.out.tail.String() }

// Stop ends the app, gracefully first:
//  1. closeBrowser (when not nil; the caller sends Browser.close over
//     CDP), then up to grace for the leader to exit;
//  2. SIGTERM to the process group, then up to grace;
//  3. SIGKILL to the group.
//
// It returns once the cleanup is done (see Process): no process of the
// group is left running, the leader is reaped, a temp profile is gone.
// escalated is true when a signal was needed. A grace of zero means
// DefaultGrace. When ctx ends, Stop goes straight to SIGKILL. err reports
// a failed cleanup (processes left, profile not removed), never a
// closeBrowser error: escalation covers that.
func (p *Process) Stop(ctx context.Context, closeBrowser func(context.Context) error, grace time.Duration) (escalated bool, err error) {
	if grace <= 0 {
		grace = DefaultGrace
	}
	select {
	case <-p.exited:
		return false, p.Kill()
	default:
	}
	if closeBrowser != nil && ctx.Err() == nil {
		deadline := time.Now().Add(grace)
		cctx, cancel := context.WithDeadline(ctx, deadline)
		_ = closeBrowser(cctx)
		cancel()
		if p.waitExited(ctx, time.Until(deadline)) {
			return false, p.Kill()
		}
	}
	if ctx.Err() == nil {
		p.signal(syscall.SIGTERM)
		if p.waitExited(ctx, grace) {
			return true, p.Kill()
		}
	}
	return true, p.Kill()
}

// Kill SIGKILLs the process group now (unless the leader is already gone)
// and waits, at most 15 s, for the cleanup. It returns the cleanup's error,
// or INTERNAL_ERROR when the leader did not go.
func (p *Process) Kill() error {
	p.signal(syscall.SIGKILL)
	t := time.NewTimer(killWait)
	defer t.Stop()
	select {
	case <-p.done:
		return p.cleanupErr
	case <-t.C:
		return errs.New(errs.Internal, "process %d did not exit within %v of SIGKILL", p.PID, killWait).
			With("pid", p.PID)
	}
}

// signal sends sig to the group while its leader is unreaped: until then
// the group id cannot name another group.
func (p *Process) signal(sig syscall.Signal) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.reaped {
		_ = signalGroup(p.PID, sig)
	}
}

// waitExited waits up to d (or ctx) for the leader to exit.
func (p *Process) waitExited(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		select {
		case <-p.exited:
			return true
		default:
			return false
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-ctx.Done():
		return false
	case <-t.C:
		return false
	}
}

// run starts the child and owns it until the cleanup is over. It runs
// locked to its OS thread: Linux sends Pdeathsig when the thread that
// forked the child ends, and the Go runtime ends a thread when a goroutine
// locked to it exits; a locked thread serves no other goroutine, so this
// one ends only after the child did (or with our whole process).
func (p *Process) run(started chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := p.cmd.Start(); err != nil {
		started <- err
		return
	}
	pid := p.cmd.Process.Pid
	started <- nil
	p.wait(pid)
}

// wait waits for the leader to exit and cleans up; it closes exited, then
// done.
func (p *Process) wait(pid int) {
	waited := false
	if canWaitNoReap {
		if err := waitExited(pid); err == nil {
			close(p.exited)
			p.mu.Lock()
			// The leader is a zombie: the group id is still ours. End the
			// rest of the group, then reap.
			_ = signalGroup(pid, syscall.SIGKILL)
			p.exitErr = p.cmd.Wait()
			p.reaped = true
			p.mu.Unlock()
			waited = true
		}
	}
	if !waited {
		err := p.cmd.Wait()
		p.mu.Lock()
		p.exitErr = err
		p.reaped = true
		p.mu.Unlock()
		close(p.exited)
	}

	var problems []string
	if live := waitGroupGone(pid, groupGoneWait); len(live) > 0 {
		problems = append(problems, fmt.Sprintf("processes %v of group %d still run after SIGKILL", live, pid))
	}

	t := time.NewTimer(outputDrainWait)
	select {
	case <-p.outDone:
	case <-t.C:
	}
	t.Stop()
	p.outR.Close() // unblocks the reader if a process outside the group holds the pipe
	<-p.outDone

	if p.OwnsUserDataDir && p.UserDataDir != "" {
		if err := os.RemoveAll(p.UserDataDir); err != nil {
			problems = append(problems, fmt.Sprintf("removing %s: %v", p.UserDataDir, err))
		}
	}
	if len(problems) > 0 {
		p.cleanupErr = errs.New(errs.Internal, "cleanup of process %d: %v", pid, problems).
			With("pid", pid)
	}
	close(p.done)
}

// waitGroupGone polls until no process of group pgid runs, at most d, and
// returns those still running.
func waitGroupGone(pgid int, d time.Duration) []int {
	deadline := time.Now().Add(d)
	for {
		live := liveGroupMembers(pgid)
		if len(live) == 0 || time.Now().After(deadline) {
			return live
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// LiveGroupMembers lists the live (not zombie) processes of a process
// group; empty when the group is gone. Tests and the demo use it to prove
// that nothing of a launched app remains.
func LiveGroupMembers(pgid int) []int { return liveGroupMembers(pgid) }
