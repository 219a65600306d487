package tool

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/surface"
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

func evalRenderer(ctx context.Context, c *Call, a *evalArgs) (any, error) {
	res, err := resolve(ctx, c)
	if err != nil {
		return nil, err
	}
	arg := a.Arg
	if len(arg) == 0 {
		arg = json.RawMessage("null")
	}
	v, err := evalCode(ctx, res, a.Code, arg, ms(a.TimeoutMs, 10*time.Second))
	if err != nil {
		return nil, err
	}
	out := map[string]any{"surface_id": res.SurfaceID, "result": v}
	if len(v) > maxEvalResult {
		out["result"] = nil
		out["result_truncated"] = true
		out["result_bytes"] = len(v)
	}
	return withFallback(res, out), nil
}

// evalCode runs agent code in the surface's main world. The code is tried
// as an expression first and, if that does not parse, as a function body; a
// function value is called with arg.
func evalCode(ctx context.Context, res *surface.Resolution, code string, arg json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	wrap := func(body string) string {
		return "(async (arg) => { const __v = " + body + "; return typeof __v === 'function' ? await __v(arg) : await __v; })(" + string(arg) + ")"
	}
	asExpr := wrap("(\n" + code + "\n)")
	asBody := wrap("(async (arg) => {\n" + code + "\n})(arg)")
	v, syntax, err := evaluate(ctx, res, asExpr, timeout)
	if syntax {
		v, syntax, err = evaluate(ctx, res, asBody, timeout)
		if syntax {
			return nil, err
		}
	}
	return v, err
}

type remoteResult struct {
	Result struct {
		Type        string          `json:"type"`
		Subtype     string          `json:"subtype"`
		Value       json.RawMessage `json:"value"`
		Description string          `json:"description"`
	} `json:"result"`
	ExceptionDetails *struct {
		Text      string `json:"text"`
		Exception struct {
			ClassName   string `json:"className"`
			Description string `json:"description"`
		} `json:"exception"`
		LineNumber int `json:"lineNumber"`
	} `json:"exceptionDetails"`
}

// evaluate runs one expression; syntax reports a SyntaxError so the caller
// can try another form.
func evaluate(ctx context.Context, res *surface.Resolution, expr string, timeout time.Duration) (json.RawMessage, bool, error) {
	p := map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true, "timeout": timeout.Milliseconds(), "userGesture": true}
	if res.ContextID != 0 {
		p["contextId"] = res.ContextID
	}
	cctx, cancel := context.WithTimeout(ctx, timeout+2*time.Second)
	defer cancel()
	var out remoteResult
	if err := res.Eval.Call(cctx, "Runtime.evaluate", p, &out); err != nil {
		if errs.CodeOf(err) == errs.CDPTimeout {
			return nil, false, errs.New(errs.EvalTimeout, "the code did not finish within %s", timeout)
		}
		return nil, false, err
	}
	if d := out.ExceptionDetails; d != nil {
		desc := d.Exception.Description
		if desc == "" {
			desc = d.Text
		}
		if d.Exception.ClassName == "SyntaxError" {
			return nil, true, errs.New(errs.EvalSyntaxError, "%s", firstLine(desc))
		}
		if strings.Contains(desc, "Execution was terminated") {
			return nil, false, errs.New(errs.EvalTimeout, "the code did not finish within %s", timeout)
		}
		return nil, false, errs.New(errs.EvalRuntimeError, "%s", firstLine(desc)).With("exception", truncate(desc, 2000))
	}
	if out.Result.Type == "undefined" || len(out.Result.Value) == 0 {
		if out.Result.Description != "" && out.Result.Type != "undefined" {
			b, _ := json.Marshal(out.Result.Description)
			return b, false, nil
		}
		return json.RawMessage("null"), false, nil
	}
	return out.Result.Value, false, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
