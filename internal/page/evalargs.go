package page

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// The argument and answer of running an agent's JavaScript (in the page or
// in the app's main process): their JSON names and descriptions are the
// eval tools' parameters and result fields.

// Caps on eval payloads: what an agent sends and what comes back; and how
// long code runs when the caller does not say.
const (
	MaxEvalCode        = 256 << 10
	MaxEvalResult      = 1 << 20
	DefaultEvalTimeout = 10 * time.Second
)

// EvalArgs are the code to run, its argument and its time.
type EvalArgs struct {
	Code      string          `json:"code" jsonschema:"JavaScript: an expression, a function body with return, or a function (called with arg)"`
	Arg       json.RawMessage `json:"arg,omitempty" jsonschema:"a JSON value passed to the code as arg"`
	TimeoutMs int             `json:"timeoutMs,omitempty" jsonschema:"default 10000, max 60000"`
}

// Check refuses code that is blank or too long, a timeout out of range or
// an arg that is not JSON, naming the field.
func (a *EvalArgs) Check() error {
	switch {
	case strings.TrimSpace(a.Code) == "":
		return errs.BadArg("code", "is required")
	case len(a.Code) > MaxEvalCode:
		return errs.BadArg("code", "is %d bytes; the limit is %d", len(a.Code), MaxEvalCode)
	case a.TimeoutMs < 0 || a.TimeoutMs > 60000:
		return errs.BadArg("timeoutMs", "must be between 0 and 60000")
	case len(a.Arg) > 0 && !json.Valid(a.Arg):
		return errs.BadArg("arg", "is not valid JSON")
	}
	return nil
}

// Timeout is how long the code may run: DefaultEvalTimeout when none was
// given.
func (a *EvalArgs) Timeout() time.Duration {
	if a.TimeoutMs <= 0 {
		return DefaultEvalTimeout
	}
	return time.Duration(a.TimeoutMs) * time.Millisecond
}

// ArgOrNull is the argument, null when none was given.
func (a *EvalArgs) ArgOrNull() json.RawMessage {
	if len(a.Arg) == 0 {
		return json.RawMessage("null")
	}
	return a.Arg
}

// EvalOut is the value an eval returned, or how large it was when it was
// too large to return.
type EvalOut struct {
	Result          json.RawMessage `json:"result" jsonschema:"what the code returned, as JSON (null when too large)"`
	ResultTruncated bool            `json:"result_truncated,omitempty" jsonschema:"the value was over 1 MiB and is left out"`
	ResultBytes     int             `json:"result_bytes,omitempty"`
}

// EvalOutOf is v, or its size when it is over MaxEvalResult.
func EvalOutOf(v json.RawMessage) EvalOut {
	if len(v) > MaxEvalResult {
		return EvalOut{Result: json.RawMessage("null"), ResultTruncated: true, ResultBytes: len(v)}
	}
	return EvalOut{Result: v}
}

// Evaluated is the answer of code run in a surface's renderer: the surface,
// and the value or its size.
type Evaluated struct {
	OnSurface
	EvalOut
}
