package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/agentjs"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/mainproc"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/production"
	"github.com/understudy-dev/understudy/internal/session"
)

type evalArgs struct {
	Common
	page.EvalArgs
}

func (a *evalArgs) validate() error { return a.EvalArgs.Check() }

// evalRendererResult is electron_eval_renderer's result.
type evalRendererResult struct {
	onSurface
	page.EvalOut
}

func evalRenderer(ctx context.Context, c *Call, a *evalArgs) (*evalRendererResult, error) {
	res, err := resolve(ctx, c)
	if err != nil {
		return nil, err
	}
	v, err := agentjs.Run(ctx, agentjs.Target{Session: res.Eval, ContextID: int64(res.ContextID)}, a.Code, a.ArgOrNull(), a.Timeout())
	if err != nil {
		return nil, err
	}
	return &evalRendererResult{surfaceOf(res), page.EvalOutOf(v)}, nil
}

// evalMainResult is electron_eval_main's result.
type evalMainResult struct {
	page.EvalOut
	Inspector string `json:"inspector" jsonschema:"the main process's inspector the code ran in"`
}

func evalMain(ctx context.Context, c *Call, a *evalArgs) (*evalMainResult, error) {
	url := c.Session.InspectorURL
	if url == "" {
		return nil, errs.New(errs.TransportUnsupported, "session %s has no main-process inspector: a DevTools endpoint is not the main process", c.Session.ID)
	}
	conn, err := session.Attach(c.Session, mainproc.ConnKey, mainproc.Opener(ctx, url))
	if err != nil {
		return nil, err
	}
	res, err := mainproc.Eval(ctx, conn, a.Code, a.Arg, a.Timeout())
	if err != nil {
		return nil, err
	}
	return &evalMainResult{page.EvalOutOf(res), url}, nil
}

type injectArgs struct {
	Common
	PID       int `json:"pid" jsonschema:"the Electron (or Node) main process id"`
	TimeoutMs int `json:"timeoutMs,omitempty" jsonschema:"default 5000"`
}

func (a *injectArgs) validate() error {
	if a.PID <= 0 {
		return errs.BadArg("pid", "is required: the app's main process id")
	}
	if a.TimeoutMs < 0 || a.TimeoutMs > 60000 {
		return errs.BadArg("timeoutMs", "must be between 0 and 60000")
	}
	return nil
}

// injectResult is electron_inject's result.
type injectResult struct {
	InspectorURL string `json:"inspector_url"`
	PID          int    `json:"pid"`
	EvalMain     bool   `json:"eval_main" jsonschema:"electron_eval_main is allowed, so it can use the inspector now"`
}

func inject(ctx context.Context, c *Call, a *injectArgs) (*injectResult, error) {
	// Say in advance when the fuses make SIGUSR1 a no-op.
	if err := production.LaunchBlock(ctx, production.ProcessBinary(a.PID), production.Needs{Inspect: true}); err != nil {
		return nil, err
	}
	ws, err := mainproc.Inject(ctx, a.PID, session.Millis(a.TimeoutMs, 5*time.Second))
	if err != nil {
		return nil, err
	}
	c.Session.InspectorURL = ws
	if c.Session.PID == 0 {
		c.Session.PID = a.PID
	}
	return &injectResult{InspectorURL: ws, PID: a.PID, EvalMain: c.Server.cfg.AllowEvalMain}, nil
}
