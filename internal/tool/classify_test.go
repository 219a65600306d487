package tool

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/session"
)

// TestUnknownSessionIsNotRunning: every tool that takes a session answers
// an unknown sessionId with NOT_RUNNING (stagewright's tool reference says
// so for every session-taking tool), also while another session is open.
// Tools whose other arguments fail validation first are BAD_ARGUMENT, but
// never about sessionId.
func TestUnknownSessionIsNotRunning(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	// A session that is only registered: resolving an unknown id never
	// touches it (no lock, no browser).
	s.Sessions().Add(&session.Session{ID: s.Sessions().NextID()})
	checked, skipped := 0, []string(nil)
	for _, name := range s.Names() {
		if !s.tools().defs[name].Session {
			continue
		}
		// Fill the required parameters with plausible values so that
		// validation lets most tools through to the session lookup.
		args := map[string]any{"sessionId": "nope"}
		d := s.tools().defs[name]
		for _, req := range d.schema().Required {
			p := d.schema().Properties[req]
			typ := p.Type
			if typ == "" && len(p.Types) > 0 {
				typ = p.Types[0]
			}
			switch typ {
			case "string":
				args[req] = "#x"
			case "integer", "number":
				args[req] = 1
			case "boolean":
				args[req] = true
			case "array":
				args[req] = []string{"Enter"}
			default:
				args[req] = map[string]any{}
			}
		}
		if _, ok := args["selector"]; !ok && d.schema().Properties["selector"] != nil {
			args["selector"] = "#x"
		}
		raw, _ := json.Marshal(args)
		r := s.Dispatch(context.Background(), name, raw, nil)
		var m map[string]any
		if err := json.Unmarshal(r.JSON, &m); err != nil {
			t.Fatal(err)
		}
		switch r.Code {
		case errs.NotRunning:
			checked++
		case errs.BadArgument:
			if d, _ := m["details"].(map[string]any); d["field"] == "sessionId" {
				t.Errorf("%s: %s", name, r.JSON)
			} else {
				skipped = append(skipped, name)
			}
		default:
			t.Errorf("%s: unknown sessionId gave %s: %s", name, r.Code, r.JSON)
		}
	}
	if checked < 30 {
		t.Errorf("only %d tools reached the session lookup; validation stopped %v", checked, skipped)
	}
}
