package tool

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"

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

type failure struct {
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

// jsonAppender is a payload that encodes itself as encoding/json would,
// without reflection (network_captured's 2,000 records).
type jsonAppender interface{ appendJSON(b []byte) []byte }

// successEnvelope splices {"ok":true, <payload fields>, "_meta":{…}} without
// decoding the payload again. payload must encode as a JSON object.
// envField is a field the dispatcher adds to a tool's answer (then.go's
// "then").
type envField struct {
	name  string
	value any
}

func successEnvelope(payload any, start time.Time, sessionID string, also ...envField) (Result, error) {
	var b []byte
	if a, ok := payload.(jsonAppender); ok {
		b = a.appendJSON(nil)
	} else {
		var err error
		if b, err = json.Marshal(payload); err != nil {
			return Result{}, err
		}
	}
	b = bytes.TrimSpace(b)
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
		v, err := json.Marshal(f.value)
		if err != nil {
			return Result{}, err
		}
		out.WriteString(`,"` + f.name + `":`)
		out.Write(v)
		b = append(b, v...) // counted in estimated_tokens
	}
	writeMeta(&out, len(b), start, sessionID)
	out.WriteByte('}')
	return Result{JSON: out.Bytes(), Tokens: len(b) / 4, SessionID: sessionID}, nil
}

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

// failureEnvelope renders an error with its registry entry.
//
// Every failure an agent sees is made here, so this is where a hint and
// next_actions lose what names a tool this server does not offer (its
// profile, groups and eval policy): an agent is never sent to a tool it
// cannot call (issue 30; TestHintsNameOnlyOfferedTools).
func (s *Server) failureEnvelope(err error, start time.Time, sessionID string) Result {
	e := errs.As(err)
	if e == nil {
		e = errs.Wrap(errs.Internal, err, "unexpected failure")
	}
	entry, _ := errs.Lookup(e.Code)
	hint := e.Hint
	if hint == "" {
		hint = entry.Hint
		if e.Code == errs.RefNotFound && len(e.SimilarRefs) == 0 {
			// Promise no candidates that are not there.
			hint = "The ref is not live in the active surface and no live element looks like the one it named. Take a new electron_snapshot or electron_find and use a ref from it."
		}
	}
	hint = withoutPointersTo(hint, s.notOffered)
	next := e.NextActions
	if len(next) > 0 {
		next = nil
		for _, a := range e.NextActions {
			if !namesNotOffered(a, s.notOffered) {
				next = append(next, a)
			}
		}
	}
	f := failure{
		Error: e.Message, Code: e.Code, Hint: hint, NextActions: next,
		SimilarRefs: e.SimilarRefs, Details: e.Details, Retryable: entry.Retryable, HTTP: entry.HTTP,
	}
	if f.Error == "" {
		f.Error = e.Error()
	}
	b, mErr := json.Marshal(f)
	if mErr != nil {
		b, _ = json.Marshal(failure{Error: e.Message, Code: e.Code, Hint: hint, Retryable: entry.Retryable, HTTP: entry.HTTP})
	}
	var out bytes.Buffer
	out.Write(b[:len(b)-1])
	writeMeta(&out, len(b), start, sessionID)
	out.WriteByte('}')
	return Result{JSON: out.Bytes(), IsError: true, Code: e.Code, Tokens: len(b) / 4, SessionID: sessionID}
}

// notOffered says whether name is a tool of this server that its profile,
// groups or eval policy leave out.
func (s *Server) notOffered(name string) bool {
	d, known := s.tools().defs[name]
	return known && !s.sel.enabled(d.Def)
}

// mark copies the secret arguments into the call's result.
func (s *secretArgs) mark(r Result) Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.names) > 0 {
		r.SecretArgs = append([]string(nil), s.names...)
	}
	return r
}
