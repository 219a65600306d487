package tool

import (
	"encoding/json"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/mcpwire"
)

// Meta is the _meta block of every response (mcpwire.Meta).
type Meta = mcpwire.Meta

// Result is one dispatched call's outcome (mcpwire.Result): the envelope's
// JSON and whether it reports a failure.
type Result = mcpwire.Result

// jsonAppender is a payload that encodes itself as encoding/json would,
// without reflection (network_captured's 2,000 records).
type jsonAppender interface{ AppendJSON(b []byte) []byte }

// envField is a field the dispatcher adds to a tool's answer (then.go's
// "then").
type envField struct {
	name  string
	value any
}

// successEnvelope is {"ok":true, <payload fields>, "_meta":{…}}
// (mcpwire.Success). payload must encode as a JSON object.
func successEnvelope(payload any, start time.Time, sessionID string, also ...envField) (Result, error) {
	var b []byte
	if a, ok := payload.(jsonAppender); ok {
		b = a.AppendJSON(nil)
	} else {
		var err error
		if b, err = json.Marshal(payload); err != nil {
			return Result{}, err
		}
	}
	if len(also) == 0 {
		return mcpwire.Success(b, start, sessionID)
	}
	fields := make([]mcpwire.Field, len(also))
	for i, f := range also {
		fields[i] = mcpwire.Field{Name: f.name, Value: f.value}
	}
	return mcpwire.Success(b, start, sessionID, fields...)
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
	hint = mcpwire.WithoutPointersTo(hint, s.notOffered)
	next := e.NextActions
	if len(next) > 0 {
		next = nil
		for _, a := range e.NextActions {
			if !mcpwire.NamesNotOffered(a, s.notOffered) {
				next = append(next, a)
			}
		}
	}
	f := mcpwire.Failure{
		Error: e.Message, Code: e.Code, Hint: hint, NextActions: next,
		SimilarRefs: e.SimilarRefs, Details: e.Details, Retryable: entry.Retryable, HTTP: entry.HTTP,
	}
	if f.Error == "" {
		f.Error = e.Error()
	}
	b, mErr := json.Marshal(f)
	if mErr != nil {
		b, _ = json.Marshal(mcpwire.Failure{Error: e.Message, Code: e.Code, Hint: hint, Retryable: entry.Retryable, HTTP: entry.HTTP})
	}
	return mcpwire.Failed(b, e.Code, start, sessionID)
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
