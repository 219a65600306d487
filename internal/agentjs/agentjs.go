package agentjs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	cdpproto "github.com/chromedp/cdproto/cdp"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// Target says where code runs.
type Target struct {
	Session cdpproto.Session
	// ContextID is the execution context; 0 means the session's default.
	ContextID int64
	// CommandLineAPI exposes the inspector's command-line API (require in
	// Node's main process).
	CommandLineAPI bool
}

// Run evaluates code with arg (a JSON value; empty means null) and returns
// the JSON-serialised result.
func Run(ctx context.Context, t Target, code string, arg json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	if len(arg) == 0 {
		arg = json.RawMessage("null")
	}
	wrap := func(body string) string {
		return "(async (arg) => { const __v = " + body + "; return typeof __v === 'function' ? await __v(arg) : await __v; })(" + string(arg) + ")"
	}
	// An expression first; if that does not parse, a function body.
	v, syntax, err := evaluate(ctx, t, wrap("(\n"+code+"\n)"), timeout)
	if syntax {
		v, _, err = evaluate(ctx, t, wrap("(async (arg) => {\n"+code+"\n})(arg)"), timeout)
	}
	return v, err
}

type result struct {
	Result struct {
		Type        string          `json:"type"`
		Value       json.RawMessage `json:"value"`
		Description string          `json:"description"`
	} `json:"result"`
	ExceptionDetails *struct {
		Text      string `json:"text"`
		Exception struct {
			ClassName   string `json:"className"`
			Description string `json:"description"`
		} `json:"exception"`
	} `json:"exceptionDetails"`
}

// evaluate runs one expression; syntax reports a SyntaxError so that Run
// can try the other form.
func evaluate(ctx context.Context, t Target, expr string, timeout time.Duration) (json.RawMessage, bool, error) {
	p := map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true, "userGesture": true,
		"timeout": timeout.Milliseconds()}
	if t.ContextID != 0 {
		p["contextId"] = t.ContextID
	}
	if t.CommandLineAPI {
		p["includeCommandLineAPI"] = true
	}
	cctx, cancel := context.WithTimeout(ctx, timeout+2*time.Second)
	defer cancel()
	var out result
	start := time.Now()
	if err := t.Session.Call(cctx, "Runtime.evaluate", p, &out); err != nil {
		var pe *cdp.ProtocolError
		switch {
		case errs.CodeOf(err) == errs.CDPTimeout:
			return nil, false, errs.New(errs.EvalTimeout, "the code did not finish within %s", timeout)
		case errors.As(err, &pe) && time.Since(start) >= timeout:
			// Chromium ends a run past "timeout" with a bare internal error.
			return nil, false, errs.New(errs.EvalTimeout, "the code did not finish within %s (terminated)", timeout)
		case errors.As(err, &pe):
			return nil, false, errs.New(errs.EvalRuntimeError, "the browser refused the evaluation: %s", pe.Message)
		}
		return nil, false, err
	}
	if d := out.ExceptionDetails; d != nil {
		desc := d.Exception.Description
		if desc == "" {
			desc = d.Text
		}
		first, _, _ := strings.Cut(desc, "\n")
		switch {
		case d.Exception.ClassName == "SyntaxError":
			return nil, true, errs.New(errs.EvalSyntaxError, "%s", first)
		case strings.Contains(desc, "Execution was terminated"):
			return nil, false, errs.New(errs.EvalTimeout, "the code did not finish within %s", timeout)
		}
		return nil, false, errs.New(errs.EvalRuntimeError, "%s", first).With("exception", fmt.Sprintf("%.2000s", desc))
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
