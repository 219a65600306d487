package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// SpecFormat and SpecVersion name a promoted replay spec: the reviewable
// contract trace_promote writes from a diagnostic trace (stagewright's
// trace_promote idea: call arguments plus explicit ok checkpoints, session
// ids as placeholders, secrets redacted, no result payloads).
const (
	SpecFormat  = "understudy-replay"
	SpecVersion = 1
)

// Spec is a promoted replay spec.
type Spec struct {
	Format    string     `json:"format"`
	Version   int        `json:"version"`
	Source    SpecSource `json:"source"`
	Sessions  []string   `json:"sessions"`  // the placeholders, in order of creation
	Normalize []string   `json:"normalize"` // what a runner should not compare
	Steps     []SpecStep `json:"steps"`
}

// SpecSource says which trace a spec came from.
type SpecSource struct {
	Trace         string `json:"trace"`
	StartedAt     string `json:"started_at"`
	ServerVersion string `json:"server_version,omitempty"`
}

// SpecStep is one call of a spec and the outcome it must have.
type SpecStep struct {
	Seq       int               `json:"seq"`
	Tool      string            `json:"tool"`
	Args      json.RawMessage   `json:"args"`
	SessionID string            `json:"session_id,omitempty"` // a placeholder ($session1)
	Expect    SpecExpect        `json:"expect"`
	Surface   *Place            `json:"surface,omitempty"`
	Targets   map[string]Target `json:"targets,omitempty"`
	Retained  bool              `json:"retained,omitempty"` // kept, though filtered out, because a selected step needs its session
}

// SpecExpect is a checkpoint: the call's ok and, when it failed, its code;
// and the result checks a reviewer added (trace_promote writes none).
type SpecExpect struct {
	OK     bool              `json:"ok"`
	Code   string            `json:"code,omitempty"`
	Result []json.RawMessage `json:"result,omitempty"` // checks: see Check
}

// PromoteOptions select and redact what a spec keeps.
type PromoteOptions struct {
	Include    []string // tool names (or prefixes ending in *) to keep; empty: all
	Exclude    []string // tool names (or prefixes ending in *) to leave out
	Redactions []string // more argument fields to redact: "text" or "args.text"
	// OpensSession says a tool's call opens the session it runs in (a
	// launch, an attach); the server knows its tools, the trace does not.
	OpensSession func(tool string) bool
}

func matchTool(pats []string, tool string) bool {
	for _, p := range pats {
		if p == tool || strings.HasSuffix(p, "*") && strings.HasPrefix(tool, strings.TrimSuffix(p, "*")) {
			return true
		}
	}
	return false
}

// Promote turns the trace into a spec. trace_* calls are never kept; a
// kept step whose session an excluded launch or attach opened keeps that
// step too (marked retained), so the spec still runs.
func (t *Trace) Promote(o PromoteOptions) *Spec {
	sp := &Spec{Format: SpecFormat, Version: SpecVersion, Sessions: []string{}, Steps: []SpecStep{},
		Normalize: []string{"session_id", "timestamps", "absolute_paths", "refs"},
		Source:    SpecSource{Trace: t.Dir, StartedAt: t.Header.StartedAt.UTC().Format("2006-01-02T15:04:05Z07:00"), ServerVersion: t.Header.ServerVersion}}
	keep := make([]bool, len(t.Steps))
	retained := make([]bool, len(t.Steps))
	creator := map[string]int{} // recorded session id → index of its launch/attach
	for i, st := range t.Steps {
		if o.OpensSession != nil && o.OpensSession(st.Tool) && st.OK && st.SessionID != "" {
			if _, ok := creator[st.SessionID]; !ok {
				creator[st.SessionID] = i
			}
		}
		if strings.HasPrefix(st.Tool, "trace_") {
			continue
		}
		keep[i] = (len(o.Include) == 0 || matchTool(o.Include, st.Tool)) && !matchTool(o.Exclude, st.Tool)
	}
	for i, st := range t.Steps {
		if !keep[i] || st.SessionID == "" {
			continue
		}
		if c, ok := creator[st.SessionID]; ok && c < i && !keep[c] {
			keep[c], retained[c] = true, true
		}
	}
	placeholder := map[string]string{}
	ph := func(sid string) string {
		if sid == "" {
			return ""
		}
		if p, ok := placeholder[sid]; ok {
			return p
		}
		p := "$session" + strconv.Itoa(len(placeholder)+1)
		placeholder[sid] = p
		sp.Sessions = append(sp.Sessions, p)
		return p
	}
	also := make([]string, 0, len(o.Redactions))
	for _, r := range o.Redactions {
		also = append(also, strings.TrimPrefix(r, "args."))
	}
	for i, st := range t.Steps {
		if !keep[i] {
			continue
		}
		args := Redact(st.Args, also...)
		var m map[string]any
		if json.Unmarshal(args, &m) == nil && m != nil {
			if sid, ok := m["sessionId"].(string); ok {
				m["sessionId"] = ph(sid)
			}
			args, _ = json.Marshal(m)
		}
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		ss := SpecStep{Seq: st.Seq, Tool: st.Tool, Args: args, SessionID: ph(st.SessionID), Expect: SpecExpect{OK: st.OK, Code: st.Code},
			Surface: st.Surface, Targets: st.Targets, Retained: retained[i]}
		sp.Steps = append(sp.Steps, ss)
	}
	return sp
}

// maxSpecBytes bounds a spec file LoadSpec reads.
const maxSpecBytes = 64 << 20

// LoadSpec reads a promoted spec as a trace that trace_replay can run: its
// steps with their arguments, checkpoints, result checks and ref targets
// (placeholder session ids are remapped by the replay like recorded ones).
// A malformed spec is TRACE_INVALID naming the JSON path of its first
// problem (detail "at").
func LoadSpec(path string) (*Trace, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, errs.New(errs.TraceNotFound, "no spec at %s", path).With("field", "path")
	}
	if fi.Size() > maxSpecBytes {
		return nil, errs.New(errs.TraceInvalid, "%s is over %d bytes", path, maxSpecBytes).With("field", "path")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, errs.Wrap(errs.TraceInvalid, err, "reading "+path)
	}
	invalid := func(at, format string, args ...any) error {
		return errs.New(errs.TraceInvalid, "%s: %s: %s", path, at, fmt.Sprintf(format, args...)).With("field", "path").With("at", at)
	}
	var sp struct {
		Format    string            `json:"format"`
		Version   int               `json:"version"`
		Normalize []json.RawMessage `json:"normalize"`
		Steps     []json.RawMessage `json:"steps"`
	}
	if err := json.Unmarshal(b, &sp); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, invalid("$."+te.Field, "expected %s, got a JSON %s", te.Type, te.Value)
		}
		return nil, errs.New(errs.TraceInvalid, "%s is not JSON: %v", path, err).With("field", "path")
	}
	if sp.Format != SpecFormat || sp.Version != SpecVersion {
		return nil, errs.New(errs.TraceInvalid, "%s: not an %s v%d spec (format %q, version %d)", path, SpecFormat, SpecVersion, sp.Format, sp.Version).With("field", "path")
	}
	t := &Trace{Dir: path, Complete: true}
	for i, raw := range sp.Normalize {
		var n string
		if json.Unmarshal(raw, &n) != nil || !normalizations[n] {
			return nil, invalid(fmt.Sprintf("normalize[%d]", i), "is one of session_id, timestamps, absolute_paths, refs")
		}
		t.Normalize = append(t.Normalize, n)
	}
	prev := 0
	for i, raw := range sp.Steps {
		at := fmt.Sprintf("steps[%d]", i)
		var s SpecStep
		// Strict: a misspelt field ("results") would otherwise be a
		// check that silently never runs.
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field != "" {
				return nil, invalid(at+"."+te.Field, "expected %s, got a JSON %s", te.Type, te.Value)
			}
			if name, ok := errs.UnknownJSONField(err); ok {
				return nil, invalid(at, "has a field %q that a spec step does not have", name)
			}
			return nil, invalid(at, "is not a step object: %v", err)
		}
		if s.Seq <= prev || s.Tool == "" {
			return nil, invalid(at, "step %d is out of order or names no tool", s.Seq)
		}
		prev = s.Seq
		if len(s.Expect.Result) > MaxChecksPerStep {
			return nil, invalid(at+".expect.result", "has over %d checks", MaxChecksPerStep)
		}
		st := Step{Seq: s.Seq, Tool: s.Tool, Args: s.Args, OK: s.Expect.OK, Code: s.Expect.Code, SessionID: s.SessionID, Surface: s.Surface, Targets: s.Targets}
		for j, cr := range s.Expect.Result {
			c, err := ParseCheck(cr, fmt.Sprintf("%s.expect.result[%d]", at, j))
			if err != nil {
				ce := err.(*CheckError)
				return nil, invalid(ce.At, "%s", ce.Msg)
			}
			st.Checks = append(st.Checks, c)
		}
		t.Steps = append(t.Steps, st)
	}
	t.StoppedAfter = prev
	t.Header = Header{Format: SpecFormat, Version: SpecVersion, Complete: true, Steps: len(t.Steps)}
	return t, nil
}
