package tool

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/agentjs"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/mainproc"
	"github.com/understudy-dev/understudy/internal/production"
	"github.com/understudy-dev/understudy/internal/session"
)

// Caps on eval payloads: what an agent sends and what comes back.
const (
	maxEvalCode   = 256 << 10
	maxEvalResult = 1 << 20
)

type evalArgs struct {
	Common
	Code      string          `json:"code" jsonschema:"JavaScript: an expression, a function body with return, or a function (called with arg)"`
	Arg       json.RawMessage `json:"arg,omitempty" jsonschema:"a JSON value passed to the code as arg"`
	TimeoutMs int             `json:"timeoutMs,omitempty" jsonschema:"default 10000, max 60000"`
}

func (a *evalArgs) validate() error {
	switch {
	case strings.TrimSpace(a.Code) == "":
		return errs.BadArg("code", "is required")
	case len(a.Code) > maxEvalCode:
		return errs.BadArg("code", "is %d bytes; the limit is %d", len(a.Code), maxEvalCode)
	case a.TimeoutMs < 0 || a.TimeoutMs > 60000:
		return errs.BadArg("timeoutMs", "must be between 0 and 60000")
	case len(a.Arg) > 0 && !json.Valid(a.Arg):
		return errs.BadArg("arg", "is not valid JSON")
	}
	return nil
}

// evalOut is the value an eval returned, or how large it was when it was
// too large to return.
type evalOut struct {
	Result          json.RawMessage `json:"result" jsonschema:"what the code returned, as JSON (null when too large)"`
	ResultTruncated bool            `json:"result_truncated,omitempty" jsonschema:"the value was over 1 MiB and is left out"`
	ResultBytes     int             `json:"result_bytes,omitempty"`
}

// evalOutOf is v, or its size when it is too large.
func evalOutOf(v json.RawMessage) evalOut {
	if len(v) > maxEvalResult {
		return evalOut{Result: json.RawMessage("null"), ResultTruncated: true, ResultBytes: len(v)}
	}
	return evalOut{Result: v}
}

// evalRendererResult is electron_eval_renderer's result.
type evalRendererResult struct {
	onSurface
	evalOut
}

func evalRenderer(ctx context.Context, c *Call, a *evalArgs) (*evalRendererResult, error) {
	res, err := resolve(ctx, c)
	if err != nil {
		return nil, err
	}
	arg := a.Arg
	if len(arg) == 0 {
		arg = json.RawMessage("null")
	}
	v, err := agentjs.Run(ctx, agentjs.Target{Session: res.Eval, ContextID: int64(res.ContextID)}, a.Code, arg, ms(a.TimeoutMs, 10*time.Second))
	if err != nil {
		return nil, err
	}
	return &evalRendererResult{surfaceOf(res), evalOutOf(v)}, nil
}

// evalMainResult is electron_eval_main's result.
type evalMainResult struct {
	evalOut
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
	res, err := mainproc.Eval(ctx, conn, a.Code, a.Arg, ms(a.TimeoutMs, 10*time.Second))
	if err != nil {
		return nil, err
	}
	return &evalMainResult{evalOutOf(res), url}, nil
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
	ws, err := mainproc.Inject(ctx, a.PID, ms(a.TimeoutMs, 5*time.Second))
	if err != nil {
		return nil, err
	}
	c.Session.InspectorURL = ws
	if c.Session.PID == 0 {
		c.Session.PID = a.PID
	}
	return &injectResult{InspectorURL: ws, PID: a.PID, EvalMain: c.Server.cfg.AllowEvalMain}, nil
}
