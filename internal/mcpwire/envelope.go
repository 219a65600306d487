package mcpwire

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Meta is the _meta block of every response.
type Meta struct {
	EstimatedTokens int    `json:"estimated_tokens"`
	ElapsedMS       int64  `json:"elapsed_ms"`
	SessionID       string `json:"session_id,omitempty"`
}

// Result is one dispatched call's outcome: the envelope's JSON and whether
// it reports a failure.
type Result struct {
	JSON    json.RawMessage
	IsError bool
	Code    errs.Code // set on failure
	// Tokens and SessionID are what _meta says (estimated_tokens,
	// session_id), for the dispatch observer.
	Tokens    int
	SessionID string
	// SecretArgs are the arguments the call found to be secrets (the text
	// typed into a password field): a trace records them as [redacted].
	SecretArgs []string
}

// Field is a field the dispatcher adds to a tool's answer beside the
// payload's own (the dispatcher's "then").
type Field struct {
	Name  string
	Value any
}

// Success splices {"ok":true, <payload's fields>, <also>, "_meta":{…}}
// without decoding the payload again. payload is the JSON of an object;
// anything else is an INTERNAL error. estimated_tokens counts the payload
// and the added fields.
func Success(payload []byte, start time.Time, sessionID string, also ...Field) (Result, error) {
	b := bytes.TrimSpace(payload)
	if len(b) < 2 || b[0] != '{' {
		return Result{}, errs.New(errs.Internal, "tool payload is not an object")
	}
	inner := bytes.TrimSpace(b[1 : len(b)-1])
	var out bytes.Buffer
	out.Grow(len(b) + 96)
	out.WriteString(`{"ok":true`)
	if len(inner) > 0 {
		out.WriteByte(',')
		out.Write(inner)
	}
	for _, f := range also {
		v, err := json.Marshal(f.Value)
		if err != nil {
			return Result{}, err
		}
		out.WriteString(`,"` + f.Name + `":`)
		out.Write(v)
		b = append(b, v...) // counted in estimated_tokens
	}
	writeMeta(&out, len(b), start, sessionID)
	out.WriteByte('}')
	return Result{JSON: out.Bytes(), Tokens: len(b) / 4, SessionID: sessionID}, nil
}

// Failure is a failure envelope without its _meta: what went wrong, its
// code and the registry's word on it (errs.Lookup), and what to do next.
type Failure struct {
	OK          bool           `json:"ok"`
	Error       string         `json:"error"`
	Code        errs.Code      `json:"code"`
	Hint        string         `json:"hint"`
	NextActions []string       `json:"next_actions,omitempty"`
	SimilarRefs []any          `json:"similar_refs,omitempty"`
	Details     map[string]any `json:"details,omitempty"`
	Retryable   bool           `json:"retryable"`
	HTTP        int            `json:"http"`
}

// Failed is the failure envelope of code: body, the JSON of a [Failure],
// with its _meta added.
func Failed(body []byte, code errs.Code, start time.Time, sessionID string) Result {
	var out bytes.Buffer
	out.Write(body[:len(body)-1])
	writeMeta(&out, len(body), start, sessionID)
	out.WriteByte('}')
	return Result{JSON: out.Bytes(), IsError: true, Code: code, Tokens: len(body) / 4, SessionID: sessionID}
}

// writeMeta writes the _meta field of an envelope whose payload is
// payloadLen bytes.
func writeMeta(out *bytes.Buffer, payloadLen int, start time.Time, sessionID string) {
	out.WriteString(`,"_meta":{"estimated_tokens":`)
	out.WriteString(strconv.Itoa(payloadLen / 4)) // Result.Tokens
	out.WriteString(`,"elapsed_ms":`)
	out.WriteString(strconv.FormatInt(time.Since(start).Milliseconds(), 10))
	if sessionID != "" {
		out.WriteString(`,"session_id":`)
		sid, _ := json.Marshal(sessionID)
		out.Write(sid)
	}
	out.WriteByte('}')
}

// EnvelopeSchema wraps a result type's schema into the success
// envelope's: the result's properties beside ok and _meta, both required.
// result is not changed.
func EnvelopeSchema(result *jsonschema.Schema) *jsonschema.Schema {
	env := result.CloneSchemas()
	env.Type, env.Types = "object", nil
	if env.Properties == nil {
		env.Properties = map[string]*jsonschema.Schema{}
	}
	env.Properties["ok"] = &jsonschema.Schema{Type: "boolean", Description: "true: the tool did what it says (failures carry code, hint and isError)"}
	env.Properties["_meta"] = &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"estimated_tokens": {Type: "integer"},
			"elapsed_ms":       {Type: "integer"},
			"session_id":       {Type: "string"},
		},
		Required: []string{"estimated_tokens", "elapsed_ms"},
	}
	env.PropertyOrder = nil
	env.Required = append([]string{"ok", "_meta"}, env.Required...)
	return env
}
