package tool

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/toolargs"
)

// TestDidYouMean: an unknown parameter is BAD_ARGUMENT naming it, with the
// tool's closest parameter in the message and in details.did_you_mean
// (issue 26 point 2, issue 30 point 6); a name close to none gets no guess.
// (encoding/json already takes a name that differs only in case, REF for
// ref or targetID for targetId; TestClosestParam checks the matcher on
// them.)
// (Spellings that differ from a parameter only in case and separators,
// surface_id, target_ID, window-title, are taken as that parameter:
// TestResultSpellingsAccepted.)
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		name string
		into any // the input to decode into, or the name of the tool whose input it is
		raw  string
		want string // "" for no guess
	}{
		{"unit left out", &clickArgs{}, `{"ref":3,"timeout":100}`, "timeoutMs"},
		{"typo", &clickArgs{}, `{"selectr":"#a"}`, "selector"},
		{"part of a name", "electron_switch_window", `{"id":"w1"}`, "targetId"},
		{"a field of an object parameter", &screenshotArgs{}, `{"width":10}`, "clip.width"},
		{"plural", &filesArgs{}, `{"ref":1,"path":["/a"]}`, "paths"},
		{"nothing close", &clickArgs{}, `{"bogus":1}`, ""},
		{"nothing close, short", "electron_switch_surface", `{"q":1}`, ""},
		{"one letter is no typo of another", &clickArgs{}, `{"position":{"x":1,"y":2,"z":3}}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := decodeInto(t, c.into, c.raw)
			e := errs.As(err)
			if e == nil || e.Code != errs.BadArgument {
				t.Fatalf("%s: %v, want BAD_ARGUMENT", c.raw, err)
			}
			got, _ := e.Details["did_you_mean"].(string)
			if got != c.want {
				t.Fatalf("%s: did_you_mean %q, want %q (%s)", c.raw, got, c.want, e.Message)
			}
			if c.want != "" && !strings.Contains(e.Message, "did you mean "+c.want+"?") {
				t.Fatalf("%s: the message does not name %s: %s", c.raw, c.want, e.Message)
			}
			if c.want == "" && (strings.Contains(e.Message, "did you mean") || e.Details["did_you_mean"] != nil) {
				t.Fatalf("%s: a guess where none is close: %s", c.raw, e.Message)
			}
		})
	}
}

// TestDidYouMeanThroughDispatch: the guess reaches the agent in the
// failure envelope of a real call.
func TestDidYouMeanThroughDispatch(t *testing.T) {
	s := New(Config{})
	defer s.Close()
	r := s.Dispatch(context.Background(), "electron_switch_surface", json.RawMessage(`{"surface":"s1"}`), nil)
	var m struct {
		OK      bool           `json:"ok"`
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	}
	if err := json.Unmarshal(r.JSON, &m); err != nil {
		t.Fatal(err)
	}
	if m.OK || m.Code != string(errs.BadArgument) || m.Details["did_you_mean"] != "surfaceId" || m.Details["field"] != "surface" {
		t.Fatalf("envelope %s", r.JSON)
	}
}

// TestParamNames: a tool's names are its own parameters (embedded
// structs flattened), then the fields of its object parameters as paths.
func TestParamNames(t *testing.T) {
	got := toolargs.Names(reflect.TypeFor[*clickArgs]())
	for _, want := range []string{"ref", "selector", "timeoutMs", "allowChanged", "sessionId", "position", "position.x", "x", "clickCount"} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("toolargs.Names(clickArgs) = %v, lacks %s", got, want)
		}
	}
	for _, g := range got {
		if strings.Contains(g, "Args") || strings.Contains(g, "Common") {
			t.Errorf("toolargs.Names(clickArgs) names an embedded struct: %s", g)
		}
	}
}

// TestResultSpellingsOnATool: a tool's own arguments take the spellings
// results use (toolargs.TestResultSpellingsAccepted has the rules).
func TestResultSpellingsOnATool(t *testing.T) {
	for _, raw := range []string{`{"target_ID":"w1"}`, `{"window-title":"Main"}`, `{"session_id":"s1","targetId":"w1"}`} {
		if err := decodeInto(t, "electron_switch_window", raw); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
	}
}

// decodeInto decodes raw strictly into the input into, or when into is a
// tool's name, as that tool's dispatcher decodes its arguments.
func decodeInto(t *testing.T, into any, raw string) error {
	t.Helper()
	if name, ok := into.(string); ok {
		d, known := allTools(t).tools().defs[name]
		if !known {
			t.Fatalf("no tool %s", name)
		}
		_, err := d.decode(json.RawMessage(raw))
		return err
	}
	return toolargs.Decode(json.RawMessage(raw), into)
}
