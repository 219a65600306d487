package trace

import (
	"context"
	"encoding/json"
	"testing"
)

// fakePlayer answers every call ok, except the tool "fails", and opens
// session "s9" for "launch".
type fakePlayer struct{ got []string }

func (p *fakePlayer) Dispatch(_ context.Context, tool string, args json.RawMessage) json.RawMessage {
	p.got = append(p.got, tool+" "+string(args))
	switch tool {
	case "launch":
		return json.RawMessage(`{"ok":true,"_meta":{"session_id":"s9"}}`)
	case "fails":
		return json.RawMessage(`{"ok":false,"code":"ELEMENT_NOT_FOUND","error":"boom"}`)
	}
	return json.RawMessage(`{"ok":true}`)
}

func (p *fakePlayer) Reresolve(context.Context, Step, map[string]any, *ReplayStep) string { return "" }
func (p *fakePlayer) OpensSession(tool string) bool                                       { return tool == "launch" }
func (p *fakePlayer) NeedsSession(tool string) bool                                       { return tool != "launch" }

func TestReplayMapsSessionsAndStopsAtTheFirstDifference(t *testing.T) {
	steps := []Step{
		{Seq: 1, Tool: "launch", Args: json.RawMessage(`{}`), OK: true, SessionID: "s1"},
		{Seq: 2, Tool: "click", Args: json.RawMessage(`{"sessionId":"s1"}`), OK: true},
		{Seq: 3, Tool: "read", Args: json.RawMessage(`{}`), OK: true},
		{Seq: 4, Tool: "fails", Args: json.RawMessage(`{}`), OK: true},
		{Seq: 5, Tool: "never", Args: json.RawMessage(`{}`), OK: true},
		{Seq: 6, Tool: "secret", Args: json.RawMessage(`{"text":"` + Redacted + `"}`), OK: true},
	}
	p := &fakePlayer{}
	r, err := Replay(context.Background(), &Trace{Dir: "/t"}, steps, p, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Replayed != 4 || r.Matched != 3 || r.Diverged != 1 || r.Passed || r.FirstDifference == nil || r.FirstDifference.Seq != 4 || r.SessionID != "s9" {
		t.Fatalf("result %+v", r)
	}
	if p.got[1] != `click {"sessionId":"s9"}` || p.got[2] != `read {"sessionId":"s9"}` {
		t.Fatalf("sessions not mapped: %v", p.got)
	}
	r, err = Replay(context.Background(), &Trace{Dir: "/t"}, steps[5:], &fakePlayer{}, ReplayOptions{ContinueOnChange: true})
	if err != nil || r.Steps[0].Replayed.Code != "NOT_REPLAYED" {
		t.Fatalf("a redacted argument was replayed: %+v %v", r, err)
	}
}
