package tool

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/understudy-dev/understudy/internal/errs"
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
		into any
		raw  string
		want string // "" for no guess
	}{
		{"unit left out", &clickArgs{}, `{"ref":3,"timeout":100}`, "timeoutMs"},
		{"typo", &clickArgs{}, `{"selectr":"#a"}`, "selector"},
		{"part of a name", &switchWindowArgs{}, `{"id":"w1"}`, "targetId"},
		{"a field of an object parameter", &screenshotArgs{}, `{"width":10}`, "clip.width"},
		{"plural", &filesArgs{}, `{"ref":1,"path":["/a"]}`, "paths"},
		{"nothing close", &clickArgs{}, `{"bogus":1}`, ""},
		{"nothing close, short", &switchSurfaceArgs{}, `{"q":1}`, ""},
		{"one letter is no typo of another", &clickArgs{}, `{"position":{"x":1,"y":2,"z":3}}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := decodeArgs(json.RawMessage(c.raw), c.into)
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

// TestClosestParam: the matcher alone, on the names issue 26 gives.
func TestClosestParam(t *testing.T) {
	cands := []string{"sessionId", "surfaceId", "targetId", "timeoutMs", "windowTitle", "index", "clip.width", "width"}
	for _, c := range []struct{ in, want string }{
		{"surface_id", "surfaceId"}, {"targetID", "targetId"}, {"timeout", "timeoutMs"},
		{"SESSION-ID", "sessionId"}, {"widht", "width"}, {"window_titel", "windowTitle"},
		{"indx", "index"}, {"zzz", ""}, {"", ""}, {"__", ""},
		{"z", ""}, {"wi", ""}, {"id", "targetId"}, {"dth", "width"},
	} {
		got, ok := closestParam(c.in, cands)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("closestParam(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
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
	got := paramNames(reflect.TypeFor[*clickArgs]())
	for _, want := range []string{"ref", "selector", "timeoutMs", "allowChanged", "sessionId", "position", "position.x", "x", "clickCount"} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("paramNames(clickArgs) = %v, lacks %s", got, want)
		}
	}
	for _, g := range got {
		if strings.Contains(g, "Args") || strings.Contains(g, "Common") {
			t.Errorf("paramNames(clickArgs) names an embedded struct: %s", g)
		}
	}
}

// TestEditDistance pins the distance the matcher ranks by.
func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"timeout", "timeoutms", 2},
		{"kitten", "sitting", 3}, {"selectr", "selector", 1}, {"é", "e", 1}, {"ab", "ba", 2},
	} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

// FuzzClosestParam: for any name the matcher never panics, answers only a
// candidate (never the name itself), answers the same whatever the order
// of the candidates, and always answers a candidate whose key is the
// name's; editDistance is a metric's first properties.
func FuzzClosestParam(f *testing.F) {
	for _, s := range []string{"surface_id", "targetID", "timeout", "selectr", "", "_", "id", "x", "Ref", "clip.width", "ÄÖÜ", "\xff", "timeoutMsMs", "a.b.c"} {
		f.Add(s)
	}
	cands := paramNames(reflect.TypeFor[*screenshotArgs]())
	cands = append(cands, paramNames(reflect.TypeFor[*clickArgs]())...)
	rev := make([]string, len(cands))
	for i, c := range cands {
		rev[len(cands)-1-i] = c
	}
	f.Fuzz(func(t *testing.T, name string) {
		got, ok := closestParam(name, cands)
		got2, ok2 := closestParam(name, rev)
		if got != got2 || ok != ok2 {
			t.Fatalf("%q: %q/%v, reversed candidates %q/%v", name, got, ok, got2, ok2)
		}
		if ok {
			found := false
			for _, c := range cands {
				found = found || c == got
			}
			if !found || got == name {
				t.Fatalf("%q: answered %q, not another candidate", name, got)
			}
		}
		k := paramKey(name)
		for _, c := range cands {
			if c != name && !strings.Contains(c, ".") && paramKey(c) == k && k != "" {
				if !ok || paramKey(got[strings.LastIndexByte(got, '.')+1:]) != k {
					t.Fatalf("%q: %q has its key, answered %q/%v", name, c, got, ok)
				}
			}
		}
		if d := editDistance(name, name); d != 0 {
			t.Fatalf("editDistance(%q, itself) = %d", name, d)
		}
		other := "timeoutMs"
		d1, d2 := editDistance(name, other), editDistance(other, name)
		if d1 != d2 || d1 > max(utf8.RuneCountInString(name), len(other)) {
			t.Fatalf("editDistance(%q, %q) = %d, reversed %d", name, other, d1, d2)
		}
	})
}

// TestResultSpellingsAccepted (issue 30, point 6): a field named as results
// spell it (surface_id, window_id) is taken as the parameter it names; a
// name that is the same parameter given twice stays an error.
func TestResultSpellingsAccepted(t *testing.T) {
	type args struct {
		SurfaceID string `json:"surfaceId,omitempty"`
		WindowID  string `json:"windowId,omitempty"`
	}
	for _, c := range []struct{ in, want string }{
		{`{"surface_id":"s1-surface-2"}`, "s1-surface-2|"},
		{`{"window_id":"W"}`, "|W"},
		{`{"surfaceId":"a"}`, "a|"},
	} {
		var a args
		if err := decodeArgs(json.RawMessage(c.in), &a); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := a.SurfaceID + "|" + a.WindowID; got != c.want {
			t.Fatalf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
	var a args
	if err := decodeArgs(json.RawMessage(`{"surfaceId":"a","surface_id":"b"}`), &a); err == nil {
		t.Fatal("surfaceId and surface_id together were accepted")
	}
	for _, raw := range []string{`{"target_ID":"w1"}`, `{"window-title":"Main"}`, `{"session_id":"s1"}`} {
		if err := decodeArgs(json.RawMessage(raw), &switchWindowArgs{}); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
	}
}
