package tool

import (
	"regexp"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/toolargs"
)

// TestErrorsSayWhatIsWrong: errors name the JSON parameter (never Go type
// paths) and quote once; a ref given as a string of digits works; a URL the
// browser refuses is BAD_ARGUMENT, not INTERNAL_ERROR; REF_NOT_FOUND
// promises no similar_refs it does not carry.
func TestErrorsSayWhatIsWrong(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/actions.html")

	m := e.fails("electron_navigate", map[string]any{"url": "example.com"}, "BAD_ARGUMENT")
	if details(m)["field"] != "url" {
		t.Fatalf("navigate: %v", m)
	}

	snap := e.ok("electron_snapshot", map[string]any{"format": "text"})
	text, _ := snap["snapshot_text"].(string)
	mm := regexp.MustCompile(`\[(\d+)\] button "Alert"`).FindStringSubmatch(text)
	if mm == nil {
		t.Fatalf("no Alert button in %s", text)
	}
	r := e.ok("electron_click", map[string]any{"ref": mm[1]})
	if d, _ := r["dialog_opened"].(map[string]any); d["type"] != "alert" {
		t.Fatalf("click by a string ref: %v", r)
	}
	e.ok("electron_dialog_handler", map[string]any{"action": "accept", "oneShot": true})

	for _, bad := range []map[string]any{{"ref": "three"}, {"ref": true}, {"ref": "3.5"}} {
		m := e.fails("electron_click", bad, "BAD_ARGUMENT")
		msg, _ := m["error"].(string)
		if details(m)["field"] != "ref" || strings.Contains(msg, "Args") || strings.Contains(msg, "int") && !strings.Contains(msg, "integer") {
			t.Fatalf("%v: %v", bad, m)
		}
	}

	// Screenshots take relative paths (into the artifacts folder, see
	// docs/files.md); set_files still needs absolute ones.
	m = e.fails("electron_set_files", map[string]any{"selector": "#file", "paths": []string{"shot.png"}}, "ABSOLUTE_PATH_REQUIRED")
	if msg, _ := m["error"].(string); msg != `paths[0]: "shot.png" is not an absolute path` {
		t.Fatalf("set_files: %q", msg)
	}
	m = e.fails("electron_dialog_handler", map[string]any{"action": "maybe"}, "BAD_ARGUMENT")
	if msg, _ := m["error"].(string); strings.Contains(msg, `\"`) {
		t.Fatalf("quoted twice: %q", msg)
	}

	m = e.fails("electron_click", map[string]any{"ref": 99999}, "REF_NOT_FOUND")
	if h, _ := m["hint"].(string); m["similar_refs"] == nil && strings.Contains(h, "similar_refs") {
		t.Fatalf("the hint promises similar_refs: %v", m)
	}
}

// TestDecodeNamesJSONParameters: decoding failures name the JSON path of the
// parameter, through embedded argument structs, and digit-string refs
// decode as numbers.
func TestDecodeNamesJSONParameters(t *testing.T) {
	type inner struct {
		Ref int `json:"ref,omitempty"`
	}
	type middle struct {
		inner
		Position struct {
			X float64 `json:"x"`
		} `json:"position"`
	}
	type args struct {
		Common
		middle
		TargetRef int `json:"targetRef,omitempty"`
	}
	for _, c := range []struct{ raw, field, msg string }{
		{`{"ref":"three"}`, "ref", "ref: expected an integer, got a JSON string"},
		{`{"ref":1.5}`, "ref", "ref: expected an integer, got a JSON number 1.5"},
		{`{"position":{"x":"a"}}`, "position.x", "position.x: expected a number, got a JSON string"},
		{`{"targetRef":[1]}`, "targetRef", "targetRef: expected an integer, got a JSON array"},
	} {
		err := toolargs.Decode([]byte(c.raw), new(args))
		e := errs.As(err)
		if e == nil || e.Details["field"] != c.field || e.Message != c.msg {
			t.Errorf("%s: %v", c.raw, err)
		}
	}
	var a args
	if err := toolargs.Decode([]byte(`{"ref":" 12 ","targetRef":"7"}`), &a); err != nil || a.Ref != 12 || a.TargetRef != 7 {
		t.Fatalf("digit strings: %v %+v", err, a)
	}
}
