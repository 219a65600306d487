package browser

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Registry holds the processes a server launched, so that it can end them
// all when it exits (stdin closed, SIGINT, SIGTERM). Attached apps are the
// user's and never belong here. The zero value is ready; it is safe for
// concurrent use.
type Registry struct {
	mu     sync.Mutex
	procs  []*Process
	closed bool
}

// Launch launches through Launch and registers the process. After Close it
// refuses with LAUNCH_FAILED; a launch that finishes while Close runs is
// killed.
func (r *Registry) Launch(ctx context.Context, opts LaunchOptions) (*Process, error) {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return nil, errs.New(errs.LaunchFailed, "the server is shutting down")
	}
	p, err := Launch(ctx, opts)
	if err != nil {
		return nil, err
	}
	if err := r.Add(p); err != nil {
		return nil, err
	}
	return p, nil
}

// Add registers p. After Close it kills p and returns LAUNCH_FAILED.
// Processes that have ended are dropped as others are added.
func (r *Registry) Add(p *Process) error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		_ = p.Kill()
		return errs.New(errs.LaunchFailed, "the server is shutting down")
	}
	live := r.procs[:0]
	for _, q := range r.procs {
		if !ended(q) {
			live = append(live, q)
		}
	}
	clear(r.procs[len(live):])
	r.procs = append(live, p)
	r.mu.Unlock()
	return nil
}

// Live returns the registered processes that have not ended.
func (r *Registry) Live() []*Process {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*Process
	for _, p := range r.procs {
		if !ended(p) {
			out = append(out, p)
		}
	}
	return out
}

// Close refuses later launches and ends every registered process at once:
// SIGTERM to each group, up to grace, then SIGKILL (grace zero or ctx
// ended: SIGKILL now). It returns when all are cleaned up, with their
// cleanup errors joined.
func (r *Registry) Close(ctx context.Context, grace time.Duration) error {
	r.mu.Lock()
	r.closed = true
	procs := r.procs
	r.procs = nil
	r.mu.Unlock()

	errsOut := make([]error, len(procs))
	var wg sync.WaitGroup
	for i, p := range procs {
		wg.Go(func() {
			if grace <= 0 {
				errsOut[i] = p.Kill()
				return
			}
			_, errsOut[i] = p.Stop(ctx, nil, grace)
		})
	}
	wg.Wait()
	return errors.Join(errsOut...)
}

func ended(p *Process) bool {
	select {
	case <-p.Done():
		return true
	default:
		return false
	}
}
