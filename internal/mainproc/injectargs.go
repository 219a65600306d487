package mainproc

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// InjectArgs name a running main process to open an inspector in, and how
// long to wait for it (docs/adr/045).
type InjectArgs struct {
	PID       int `json:"pid" jsonschema:"the Electron (or Node) main process id"`
	TimeoutMs int `json:"timeoutMs,omitempty" jsonschema:"default 5000"`
}

// Check refuses a missing process id and a timeout out of range.
func (a *InjectArgs) Check() error {
	if a.PID <= 0 {
		return errs.BadArg("pid", "is required: the app's main process id")
	}
	if a.TimeoutMs < 0 || a.TimeoutMs > 60000 {
		return errs.BadArg("timeoutMs", "must be between 0 and 60000")
	}
	return nil
}

// InjectResult is the inspector an injection opened.
type InjectResult struct {
	InspectorURL string `json:"inspector_url"`
	PID          int    `json:"pid"`
	EvalMain     bool   `json:"eval_main" jsonschema:"electron_eval_main is allowed, so it can use the inspector now"`
}

// Inject opens the inspector of a's process ([Inject]; 5 s when no timeout
// was given); evalMain says whether the operator allows code in it.
func (a *InjectArgs) Inject(ctx context.Context, evalMain bool) (*InjectResult, error) {
	timeout := 5 * time.Second
	if a.TimeoutMs > 0 {
		timeout = time.Duration(a.TimeoutMs) * time.Millisecond
	}
	ws, err := Inject(ctx, a.PID, timeout)
	if err != nil {
		return nil, err
	}
	return &InjectResult{InspectorURL: ws, PID: a.PID, EvalMain: evalMain}, nil
}
