package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/agentjs"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/mainproc"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/production"
	"github.com/understudy-dev/understudy/internal/session"
)

func evalRenderer(ctx context.Context, c *Call, a *page.EvalArgs) (*page.Evaluated, error) {
	res, err := resolve(ctx, c)
	if err != nil {
		return nil, err
	}
	v, err := agentjs.Run(ctx, agentjs.Target{Session: res.Eval, ContextID: int64(res.ContextID)}, a.Code, a.ArgOrNull(), a.Timeout())
	if err != nil {
		return nil, err
	}
	return &page.Evaluated{OnSurface: surfaceOf(res), EvalOut: page.EvalOutOf(v)}, nil
}

// evalMainResult is electron_eval_main's result.
type evalMainResult struct {
	page.EvalOut
	Inspector string `json:"inspector" jsonschema:"the main process's inspector the code ran in"`
}

func evalMain(ctx context.Context, c *Call, a *page.EvalArgs) (*evalMainResult, error) {
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

func inject(ctx context.Context, c *Call, a *mainproc.InjectArgs) (*mainproc.InjectResult, error) {
	// Say in advance when the fuses make SIGUSR1 a no-op.
	if err := production.LaunchBlock(ctx, production.ProcessBinary(a.PID), production.Needs{Inspect: true}); err != nil {
		return nil, err
	}
	out, err := a.Inject(ctx, c.Server.cfg.AllowEvalMain)
	if err != nil {
		return nil, err
	}
	c.Session.InspectorURL = out.InspectorURL
	if c.Session.PID == 0 {
		c.Session.PID = a.PID
	}
	return out, nil
}
